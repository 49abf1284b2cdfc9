"""First-use time of each command: cold (empty numba cache) and warm, wall and CPU.

``python -m analyzer.bench.first_use [--out FILE.md] [--only NAME ...] [--repeats N]``

Each case runs ``python -m cli.main ARGS`` in a child process twice against one fresh, empty
numba cache folder (``NUMBA_CACHE_DIR`` = a new temporary directory): the first run
compiles every kernel the command needs (cold, what a user meets right after installing
or updating), the second loads them from that folder (warm, every later run).  Each case
gets its own empty folder, so "cold" is the command's own first use on a fresh install,
not helped by an earlier command.

Measured per run: wall seconds and CPU seconds (user + system of the child and every
process it waited for, from ``os.wait4``).  Why CPU beside wall: numba compiles on one
thread, so on a quiet machine wall ~= CPU; on a shared machine the wall time mostly
measures the neighbours, the CPU time still measures us.  The load averages before and
after each case are printed with the table, so a reader can judge the wall column.

Output: a markdown table on stdout (and in ``--out``), with the command line, date, machine
and numba version.  docs/performance-first-use.md holds the current figures.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: (name, arguments of ``binokel``): each command's first example, small where the
#: example's own run is long (the warm column is then the command's own run time)
CASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("advise (README's first command)", ("advise", "--example", "strong_spades")),
    ("analyze", ("analyze", "--example", "strong_spades")),
    ("melds", ("melds", "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD")),
    ("play", ("play", "--seed", "7")),
    ("solve --position", ("solve", "--position", "S 0 1 AS,10H KD QS,JC 9C")),
    ("solve --seed --tricks-left", ("solve", "--seed", "7", "--tricks-left", "8", "--trump", "H")),
    ("simulate", ("simulate", "-n", "20000", "--out", "{tmp}/run", "--jobs", "1", "--quiet")),
    ("report", ("report", "--sample", "--out", "{tmp}/report")),
    ("tournament", ("tournament", "--groups", "2", "--samples", "20")),
    ("duplicate", ("duplicate", "--deals", "4", "--samples", "4")),
    ("advise --play pimc", ("advise", "--example", "strong_spades", "--play", "pimc",
                            "-n", "20", "--jobs", "1")),
    ("advise --play pimc-defence", ("advise", "--example", "strong_spades", "--play",
                                    "pimc-defence", "-n", "20", "--jobs", "1")),
    ("advise --rules grupp-3", ("advise", "AS AS 10S KS QS JS 7S KH QH AC AD 10D KD QD JD",
                                "--rules", "grupp-3")),
    ("advise --rules grupp-4", ("advise", "AS 10S KS 7S AH QH JH 7H KC QC 10C JD 7D QD 10D",
                                "--rules", "grupp-4", "--seat", "middlehand",
                                "--auction", "150")),
    ("advise --rules binokel-40", ("advise", "AS AS 10S KS QS JS AH KH QH AC AD 10D",
                                   "--rules", "binokel-40")),
    ("advise --rules kreuz-48", ("advise", "--rules", "kreuz-48",
                                 "AS AS 10S KS QS JS AC AH AD 10C KH", "--seat", "2",
                                 "--auction", "150 160 pass")),
    ("advise --rules kreuz-40", ("advise", "--rules", "kreuz-40",
                                 "AS AS 10S KS QS AC AH AD 10C", "--seat", "2",
                                 "--auction", "150 160 pass")),
    ("advise --rules pinochle-80", ("advise", "--rules", "pinochle-80", "--seat", "2",
                                    "--auction", "500 pass",
                                    "AH 10H KH QH JH AH 10H KH QS JD AC AS 10C 10S 10D QC JC "
                                    "JS QD JH")),
    ("play --rules binokel-2", ("play", "--rules", "binokel-2", "--seed", "7")),
    ("analyze --rules binokel-2", ("analyze", "--rules", "binokel-2", "-n", "20", "--deals",
                                   "3", "AH 10H KH QH JH 7H KS QS JD AC AS AD")),
    ("duplicate --rules binokel-2", ("duplicate", "--rules", "binokel-2", "--deals", "2",
                                     "--jobs", "1")),
    ("hint --exchange", ("hint", "--exchange", "--bid", "300", "-n", "200", "--hand",
                         "AH AH 10H KH QH JH 9H AS 10S KS QS AC 10C KC QC JD 9D 9S")),
)


def _run(argv: list[str], env: dict) -> tuple[float, float, int, str]:
    """(wall s, CPU s of the process tree, exit status, last line of stderr) of one run."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode, last


def measure(name: str, args: tuple[str, ...], repeats: int = 1) -> dict:
    """Cold then warm run(s) of ``binokel ARGS``, each cold one on a new empty cache."""
    rows = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="binokel-first-use-") as tmp:
            env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba"),
                       PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
            argv = [sys.executable, "-m", "cli.main"] + [a.format(tmp=tmp) for a in args]
            load0 = os.getloadavg()[0]
            cold = _run(argv, env)
            if "simulate" in args:   # a second run into the same folder is refused
                shutil.rmtree(Path(tmp) / "run", ignore_errors=True)
            warm = _run(argv, env)
            rows.append(dict(cold=cold, warm=warm, load=(load0, os.getloadavg()[0])))
    best = lambda key, i: min(r[key][i] for r in rows)  # noqa: E731 (least disturbed run)
    return {"name": name, "args": args, "cold_wall": best("cold", 0),
            "cold_cpu": best("cold", 1), "warm_wall": best("warm", 0),
            "warm_cpu": best("warm", 1),
            "status": max(r["cold"][2] for r in rows) or max(r["warm"][2] for r in rows),
            "error": next((r["cold"][3] or r["warm"][3] for r in rows
                           if r["cold"][2] or r["warm"][2]), ""),
            "load": (min(r["load"][0] for r in rows), max(r["load"][1] for r in rows))}


def table(results: list[dict]) -> str:
    """The markdown table of :func:`measure` results."""
    lines = ["| command | cold wall s | cold CPU s | warm wall s | warm CPU s | load avg (1 min) |",
             "|---|---:|---:|---:|---:|---|"]
    for r in results:
        cmd = "binokel " + " ".join(shlex.quote(a).replace("{tmp}", "$TMP") for a in r["args"])
        cmd = cmd.replace("|", "\\|")
        flag = "" if not r["status"] else f" (exit {r['status']}: {r['error']})"
        lines.append(f"| `{cmd}`{flag} | {r['cold_wall']:.1f} | {r['cold_cpu']:.1f} | "
                     f"{r['warm_wall']:.1f} | {r['warm_cpu']:.1f} | "
                     f"{r['load'][0]:.1f} - {r['load'][1]:.1f} |")
    return "\n".join(lines)


def header() -> str:
    import numba

    return (f"{datetime.datetime.now():%Y-%m-%d %H:%M}, {platform.node()}, "
            f"{os.cpu_count()} CPUs ({platform.processor() or platform.machine()}), "
            f"Python {platform.python_version()}, numba {numba.__version__}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m analyzer.bench.first_use",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", default=None,
                    help="run only the cases whose name contains one of these words")
    ap.add_argument("--repeats", type=int, default=1,
                    help="cold+warm pairs per case; the least of each column is kept")
    ap.add_argument("--out", default=None, help="also write the table to this markdown file")
    ns = ap.parse_args(argv)
    cases = [c for c in CASES if ns.only is None or any(w in c[0] for w in ns.only)]
    results = []
    for name, args in cases:
        r = measure(name, args, ns.repeats)
        results.append(r)
        print(f"{name}: cold {r['cold_wall']:.1f} s wall / {r['cold_cpu']:.1f} s CPU, warm "
              f"{r['warm_wall']:.1f} / {r['warm_cpu']:.1f}, load {r['load'][0]:.1f}-"
              f"{r['load'][1]:.1f}" + (f", exit {r['status']}" if r["status"] else ""),
              file=sys.stderr, flush=True)
    text = f"{header()}\n\n{table(results)}\n"
    print(text)
    if ns.out:
        Path(ns.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
