"""``binokel warmup``: compile (or load) every command's numba kernels once, for every game
and every ``--play``, and say what it did: per stage, the kernel signatures numba compiled
and those it loaded from the on-disk cache (analyzer._jit.compile_counts).  A game with a
stock (``common.has_stock``, V7) has its own stages: its kernels (stock_play, stock_solve,
stock_pimc_fast) are other code than the flat games'."""
from __future__ import annotations

import contextlib
import io
import tempfile
import time

import click

from .common import BadInput, example_epilog, has_stock
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


def sample_hand(rules) -> str:
    """A fixed hand of ``rules.hand_size`` cards from the game's deck (seeded shuffle)."""
    import numpy as np

    from analyzer.mechanics.cards import N_TYPES, Hand

    copies = rules.kernel.copies   # copies of each card type in this game's deck (V5.1)
    deck = np.repeat(np.arange(N_TYPES), [int(c) for c in copies])
    pick = np.random.default_rng(0).permutation(deck)[:rules.hand_size]
    hand = Hand(tuple(int((pick == t).sum()) for t in range(N_TYPES)))
    return hand.codes(getattr(rules, "low_card", "9"))


def stock_sample_hand(game) -> str:
    """The first seat's hand of deal 1 of a game with a stock (V7.1), as card codes."""
    from analyzer.mechanics.stock_deal import StockDeal

    from .stock_views import card_code

    return " ".join(card_code(c) for c in StockDeal.from_seed(game, 1).hand(0))


def stock_stages(game, tmp: str, samples: int = 2) -> list[tuple[str, list[str]]]:
    """The stages of a game with a stock (V7): a deal played by the heuristic (stock_play,
    the exact solver once the stock is gone, V7.4) and written as a record; a hint on it
    while the stock lasts (PIMC worlds) and one after it (the endgame solve); a review; a
    duplicate match of pimc-fast against the heuristic (stock_pimc_fast); melds, analyze,
    simulate and a tournament of the game.  The record's deal has a decision at trick 2
    and at trick 16 (24 tricks, V7.2), whatever the seed."""
    name = game.name
    g = ["--rules", name]
    n = str(samples)
    rec = f"{tmp}/{name}-deal.txt"
    hand = stock_sample_hand(game)
    return [
        (f"melds --rules {name}", ["melds", hand] + g),
        (f"play --rules {name}", ["play", "--seed", "1", "--record", rec] + g),
        (f"hint (PIMC) --rules {name}", ["hint", "--record", rec, "--trick", "2", "-n", n] + g),
        (f"hint (exact) --rules {name}", ["hint", "--record", rec, "--trick", "16"] + g),
        (f"review --rules {name}", ["review", rec, "--from-trick", "12", "-n", n] + g),
        (f"duplicate --policy pimc-fast --rules {name}",
         ["duplicate", "--deals", "2", "--policy", f"pimc-fast-{n}", "--against", "heuristic",
          "--jobs", "1"] + g),
        (f"analyze --rules {name}", ["analyze", hand, "-n", n, "--deals", "1"] + g),
        (f"simulate --rules {name}",
         ["simulate", "-n", n, "--out", f"{tmp}/{name}", "--jobs", "1", "--quiet"] + g),
        (f"tournament --rules {name}",
         ["tournament", "--deals", "2", "--agents", f"pimc-fast-{n},heuristic", "--jobs", "1"]
         + g),
    ]


def stages(tmp: str, samples: int = 2, game=None) -> list[tuple[str, list[str]]]:
    """(name, ``binokel`` arguments) of every warm-up stage: each command that runs numba
    kernels, with the smallest work that still runs all of them, for every game it takes
    (``--rules``) and every ``--play``.  ``tmp``: a scratch folder for simulate's run.
    ``game``: a RuleSet to warm that game only (its own stages, and the stages of the
    commands that run the default game only when it is the default game); None: all.

    The stages run the commands themselves (not their library functions), so the kernels
    are asked for exactly the argument types a user's command asks for; the sizes
    (``samples``, deals) never change those types.  Not covered: the developers' commands
    ``bench``, ``fit-opponents`` and ``fit-defence`` (they compile what they measure or fit).
    A game with a stock (the RuleSet says so: ``has_stock``) gets :func:`stock_stages`.
    """
    import analyzer  # noqa: F401  (registers the team games)
    from analyzer.mechanics.rules import DEFAULT_RULES, VARIANTS
    from analyzer.mechanics.ruleset import GAMES
    from analyzer.search.pimc import PLAY_NAMES

    n = str(samples)
    out = []
    for name, full in GAMES.items():
        if has_stock(full) and (game is None or name == game.name):
            out += stock_stages(full, tmp, samples)
    if game is not None and has_stock(game):
        return out     # the stages below run the flat games
    for name, rules in VARIANTS.items():
        if game is not None and name != game.name:
            continue
        team = bool(getattr(rules, "teams", False))
        hand = sample_hand(rules)
        seat = ["--seat", "1"] if team else []
        g = ["--rules", name]
        out += [
            (f"melds --rules {name}", ["melds", hand] + g),
            (f"play --rules {name}", ["play", "--seed", "1"] + g),   # a whole deal
            (f"play --trump --rules {name}", ["play", "--seed", "1", "--trump", "S"] + g),
            (f"advise --rules {name}", ["advise", hand, "-n", n, "--jobs", "1"] + g),
            (f"advise --lookahead --rules {name}",
             ["advise", hand, "-n", n, "--jobs", "1", "--lookahead", "--seat", "1",
              "--auction", str(rules.bid_start)] + g),
            (f"analyze --rules {name}", ["analyze", hand, "-n", n] + seat + g),
            (f"simulate --rules {name}",
             ["simulate", "-n", "50", "--out", f"{tmp}/{name}", "--jobs", "1", "--quiet"] + g),
        ]
        if team:   # played deals are its default; the meld census of its table too
            out.append((f"simulate --what melds --rules {name}",
                        ["simulate", "-n", "50", "--what", "melds", "--out", f"{tmp}/{name}-melds",
                         "--jobs", "1", "--quiet"] + g))
            out.append((f"tournament --rules {name}",
                        ["tournament", "--deals", "2", "--samples", n] + g))
        else:
            out.append((f"tournament --rules {name}",
                        ["tournament", "--groups", "2", "--samples", "1"] + g))
        if name == DEFAULT_RULES.name:
            continue   # its --play stages come below, with the example hand
        # every game has both PIMC modes (resolve_play); another deck, table or the team
        # play loop is other kernels than the default game's (worlds, the partners' loop)
        for play in PLAY_NAMES:
            if play == "heuristic":
                continue
            p = ["--play", play]
            tour = (["tournament", "--deals", "2", "--samples", n] if team
                    else ["tournament", "--groups", "2", "--samples", "1"])
            out += [
                (f"advise --play {play} --rules {name}",
                 ["advise", hand, "-n", n, "--jobs", "1"] + p + g),
                (f"analyze --play {play} --rules {name}",
                 ["analyze", hand, "-n", n] + seat + p + g),
                (f"tournament --play {play} --rules {name}", tour + p + g),
            ]
    if game is not None and game.name != DEFAULT_RULES.name:
        return out     # the stages below run the default game
    for play in PLAY_NAMES:
        if play == "heuristic":
            continue   # the stages above
        out += [
            (f"advise --play {play}",
             ["advise", "--example", "strong_spades", "-n", n, "--jobs", "1", "--play", play]),
            (f"analyze --play {play}",
             ["analyze", "--example", "strong_spades", "-n", n, "--play", play]),
            (f"tournament --play {play}",
             ["tournament", "--groups", "2", "--samples", "1", "--play", play]),
        ]
    out += [
        ("analyze (Tapp known)", ["analyze", "--example", "strong_spades", "-n", n, "--tapp",
                                  "10S AH 9D"]),
        ("simulate --what deals", ["simulate", "-n", "50", "--what", "deals", "--out",
                                   f"{tmp}/deals", "--jobs", "1", "--quiet"]),
        ("solve --position", ["solve", "--position", "S 0 1 AS,10H KD QS,JC 9C"]),
        ("solve --tricks-left", ["solve", "--seed", "1", "--tricks-left", "2", "--trump", "H"]),
        ("solve (deal table, best discard)",
         ["solve", "--hand", "AS 10S KS", "--hand", "AH 10H KH", "--hand", "AC 10C KC",
          "--tapp", "AD 10D KD", "--best-discard"]),
    ]
    from analyzer.analyses.strength import POLICIES

    for policy in POLICIES:
        out.append((f"duplicate --policy {policy}",
                    ["duplicate", "--deals", "2", "--samples", n, "--policy", policy]))
    out.append(("duplicate --baseline heuristic-v1",
                ["duplicate", "--deals", "2", "--policy", "heuristic", "--baseline",
                 "heuristic-v1"]))
    return out


def _one_game(name):
    """``--rules NAME``: the registered game (one line + exit 2 for an unknown name); None:
    all.  A game with a stock comes as its RuleSet (it has no flat view), any other as its
    flat view (what its stages compare by name)."""
    from analyzer.errors import BinokelError
    from analyzer.mechanics.rules import get_rules
    from analyzer.mechanics.ruleset import get_game

    if name is None:
        return None
    try:
        game = get_game(name)
        return game if has_stock(game) else get_rules(game.name)
    except BinokelError as exc:
        raise BadInput(f"--rules: {exc}") from None


def run_stage(args: list[str]) -> tuple[int, str]:
    """Run ``binokel ARGS`` in this process with its output swallowed: (exit status, its
    last output line)."""
    buf = io.StringIO()
    status = 0
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            rv = cli.main(args=list(args), prog_name="binokel", standalone_mode=False)
            status = rv if isinstance(rv, int) else 0
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
    lines = buf.getvalue().strip().splitlines()
    return status, lines[-1] if lines else ""


@cli.command("warmup", epilog=example_epilog("binokel warmup", "binokel warmup --rules kreuz-48"))
@click.option("--rules", "rules", default=None, callback=lambda ctx, p, v: _one_game(v), metavar="NAME",
              help="Warm this game only (its stages, every --play included; the default "
                   "game's also the solve and duplicate stages; a game with a stock: play, "
                   "hint, review, pimc-fast) [default: every game].")
def warmup_command(rules):
    """Compile every command's numba kernels now, for every game and every --play, so
    that no command waits for it later (--rules: one game).

    The first use of a command after installing (or after an update) compiles its
    kernels, seconds to tens of seconds; they are then cached on disk. This runs each
    command once with the smallest work, stage by stage, and reports per stage how many
    kernel signatures numba compiled and how many it loaded from the cache (a second
    warmup only loads). Not covered: bench, fit-opponents, fit-defence.
    """
    from analyzer._jit import compile_counts

    total = time.perf_counter()
    click.echo("compiling the numba kernels of every command (cached on disk afterwards) ...")
    # the stage names' column: as wide as the longest name the stages can have
    w = max([36] + [len(name) + 2 for name, _ in stages("", game=rules)])
    click.echo(f"  {'stage':<{w}}{'wall':>8}{'CPU':>8}  signatures")
    _, dt = _timed(_byte_compile)
    click.echo(f"  {'bytecode':<{w}}{dt[0]:6.1f} s{dt[1]:6.1f} s")
    failed = []
    with _compile_here(), tempfile.TemporaryDirectory(prefix="binokel-warmup-") as tmp:
        for name, args in stages(tmp, game=rules):
            before = compile_counts()
            click.echo(f"  {name:<{w}}", nl=False)
            (status, last), dt = _timed(lambda: run_stage(args))
            after = compile_counts()
            done = f"compiled {after['compiled'] - before['compiled']}, " \
                   f"loaded {after['loaded'] - before['loaded']}"
            if status:
                failed.append(f"{name} (exit {status}: {last})")
                done += f"  FAILED (exit {status}): {last}"
            click.echo(f"{dt[0]:6.1f} s{dt[1]:6.1f} s  {done}")
    c = compile_counts()
    summary = (f"{c['compiled']} kernel signatures compiled ({c['kernels_compiled']} kernels), "
               f"{c['loaded']} loaded from the cache")
    if failed:
        click.echo(f"done in {time.perf_counter() - total:.1f} s: {summary}; FAILED: "
                   + "; ".join(failed))
        return 1
    click.echo(f"done in {time.perf_counter() - total:.1f} s: {summary}; every stage above "
               "now loads its kernels from the cache")
    return 0


@contextlib.contextmanager
def _compile_here():
    """Every kernel compiled in this process, none by a helper beside it
    (analyzer._compile_beside, ``BINOKEL_COMPILE_BESIDE=0``): each stage's "compiled"
    count is then what this warm-up compiled, not what it loaded after a helper did."""
    import os

    key = "BINOKEL_COMPILE_BESIDE"
    old = os.environ.get(key)
    os.environ[key] = "0"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = old


def _timed(fn):
    """(fn(), (wall s, CPU s of this process))."""
    t0, c0 = time.perf_counter(), time.process_time()
    r = fn()
    return r, (time.perf_counter() - t0, time.process_time() - c0)
