"""Rewrite the golden files: ``python -m tests.golden.regen [--only KIND] [--games NAMES]``.

Runs every case of tests/golden/cases.py (or those of ``--only`` kinds / ``--games``) and
writes ``tests/golden/<game>.json``; with ``--only`` the other entries of a file stay.
Every case with a ``--jobs`` option is run with ``--jobs 1`` and ``--jobs 2`` and refused
(nothing written, exit 1) unless both give the same payload: a pin must not hold noise.

Regenerate only under the rule in tests/golden/__init__.py (the three-player games never;
a team game's file where a shared mechanism deliberately replaced a team-only one, and the
commit says which and why).  Run from the repository root with ``PYTHONPATH=$PWD``.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from tests.golden.cases import GAMES, KINDS, all_cases, record

HERE = Path(__file__).resolve().parent
ABOUT = ("Golden numbers of one game at every entry point (issue 24). Written by "
         "`python -m tests.golden.regen`; checked by tests/golden/test_golden.py. Do not edit "
         "by hand; see tests/golden/__init__.py for when a file may be regenerated. "
         "code_commit: the last commit of the code (analyzer, cli, reports, web) that the "
         "entry's numbers were computed with.")


def golden_path(game: str) -> Path:
    return HERE / f"{game}.json"


def load(game: str) -> dict:
    p = golden_path(game)
    return json.loads(p.read_text()) if p.exists() else {}


CODE = ("analyzer", "cli", "reports", "web")   # the code that makes the numbers


def code_commit() -> str:
    """The last commit that changed the code making the numbers (not the tests): the
    provenance of a freshly written entry, with ``+uncommitted`` if that code has local
    changes."""
    def git(*args):
        return subprocess.run(["git", *args], capture_output=True, text=True, cwd=HERE.parent
                              .parent, check=True).stdout.strip()
    try:
        commit = git("log", "-1", "--format=%h", "--", *CODE)
        dirty = git("status", "--porcelain", "--", *CODE)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+uncommitted" if dirty else "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.golden.regen", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", action="append", choices=KINDS, metavar="KIND",
                    help=f"only this kind of entry point (repeatable): {', '.join(KINDS)}")
    ap.add_argument("--games", default=",".join(GAMES),
                    help="comma-separated games (default: all seven)")
    ap.add_argument("--no-jobs-check", action="store_true",
                    help="skip the --jobs 1 vs --jobs 2 comparison (faster)")
    a = ap.parse_args(argv)
    games = [g.strip() for g in a.games.split(",") if g.strip()]
    bad = [g for g in games if g not in GAMES]
    if bad:
        ap.error(f"--games: unknown {', '.join(bad)}; use {', '.join(GAMES)}")
    kinds = tuple(a.only) if a.only else KINDS
    commit = code_commit()
    failed = []
    for game in games:
        old = load(game)
        entries = dict(old.get("cases", {})) if a.only else {}
        n_failed = len(failed)
        for case in all_cases([game], kinds):
            t0 = time.perf_counter()
            payload = case.compute(jobs=1)
            dt = time.perf_counter() - t0
            note = ""
            if case.jobs and not a.no_jobs_check:
                if case.compute(jobs=2) != payload:
                    failed.append(f"{game} {case.key}")
                    note = "  NOT DETERMINISTIC for --jobs 2: not written"
                    print(f"{game:12s} {case.key:34s} {dt:6.2f} s{note}", flush=True)
                    continue
                note = "  (--jobs 2 same)"
            entries[case.key] = record(case, payload) | {"code_commit": commit}
            print(f"{game:12s} {case.key:34s} {dt:6.2f} s{note}", flush=True)
        if len(failed) > n_failed:
            continue
        out = {"about": ABOUT, "game": game, "cases": dict(sorted(entries.items()))}
        golden_path(game).write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    if failed:
        print("not deterministic (nothing written for these games): " + "; ".join(failed),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
