"""``binokel warmup``: compile (or load) every numba kernel once, saying what it does."""
from __future__ import annotations

import time

import click

from .common import example_epilog
from .main import cli


def _byte_compile() -> None:
    """Write the Python bytecode (``__pycache__``) of the package's modules.

    Python compiles a module from source on every start when it may not write its
    ``.pyc`` (``PYTHONDONTWRITEBYTECODE``, a read-only install at first use): for the ~30
    modules a ``binokel advise`` imports that is ~0.15-0.3 s of its ~2 s. It still reads
    ``.pyc`` files written here (py_compile writes them whatever that setting) and
    recompiles in memory any module edited since, so a stale file is never used. An
    unwritable folder is skipped (quietly: the commands work without).
    """
    import compileall
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for package in ("analyzer", "cli"):
        compileall.compile_dir(str(root / package), quiet=2)


def _stages():
    """(name, what it runs): the Python bytecode, then the smallest call of each command's
    kernels (binokel-48)."""
    from analyzer import analyze_hand, meld_table, play_deal
    from analyzer.analyses.advice import advise_bid
    from analyzer.analyses.tournament import run_tournament
    from analyzer.batch.runs import run_chunk
    from analyzer.examples import example
    from analyzer.mechanics.rules import DEFAULT_RULES

    ex = example("strong_spades")
    hands = ["AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD",
             "10S KS QS JS 9S AH 10H 10H KH AC 10C KC QC JC 9C",
             "AH QH JH JH 9H 9H 10C KC QC JC 9C AD 10D KD 9D"]
    return [
        ("bytecode", _byte_compile),
        ("melds", lambda: meld_table([0])),
        ("play", lambda: play_deal(hands, "S", seed=0, soloist=0)),
        ("advise", lambda: advise_bid(ex["hand"], samples=1, seed=0)),
        ("analyze (Tapp known)", lambda: analyze_hand(ex["hand"], ex["tapp"], samples=1)),
        ("analyze (Tapp sampled)", lambda: analyze_hand(ex["hand"], None, samples=1)),
        ("simulate --what melds", lambda: run_chunk("melds", 0, 0, 1, DEFAULT_RULES)),
        ("simulate --what deals", lambda: run_chunk("deals", 0, 0, 1, DEFAULT_RULES)),
        ("tournament", lambda: run_tournament("advisor", "rule", groups=2, samples=1)),
    ]


@cli.command("warmup", epilog=example_epilog("binokel warmup"))
def warmup_command():
    """Compile every numba kernel now, so that no command waits for it later.

    The first use of each command after installing (or after an update) compiles its
    kernels, 5-30 s each; they are then cached on disk. This does all of it at once,
    stage by stage, and reports the time of each (a second run only loads the cache).
    """
    total = time.perf_counter()
    click.echo("compiling the numba kernels (cached on disk after the first time) ...")
    click.echo(f"  {'stage':<24}{'wall':>8}{'CPU':>8}")
    for name, run in _stages():
        t0, c0 = time.perf_counter(), time.process_time()
        click.echo(f"  {name:<24}", nl=False)
        run()
        click.echo(f"{time.perf_counter() - t0:6.1f} s{time.process_time() - c0:6.1f} s")
    click.echo(f"done in {time.perf_counter() - total:.1f} s: every command starts without "
               f"compiling now")
