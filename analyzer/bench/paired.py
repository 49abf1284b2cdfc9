"""Two builds measured on the same workloads, alternating: ``python -m analyzer.bench.paired``.

Throughput figures of one build move with the machine's load; a change is judged by
comparing it with the build before it *in the same run*.  This script checks the base
revision out into a temporary git worktree (``git worktree add --detach``), then runs
``binokel bench --json`` of each build in turn, round after round (base, new, base,
new, ...; the order flips every round so neither build always runs first), on the same
workloads, seed and deal counts, so both builds see the same positions.  The figure per
workload and round is the per-CPU-second rate (``cpu_deals_per_s``: CPU time, not wall,
so another process on the machine costs less); the ratio new/base is formed round by
round (paired) and summarised by its median and the spread of the rounds.

Usage::

    python -m analyzer.bench.paired --base 191f525 --rounds 5 -- -w W1 -w W2 --repeats 3
    python -m analyzer.bench.paired --base main~3 -- --rules kreuz-48 -w T2 -w T2T

Everything after ``--`` goes to ``binokel bench`` of both builds (``--json`` and
``--no-baseline`` are added).  The numba cache of each build is its own (the cache
folder is keyed by a hash of the sources, analyzer/_jit.py), and the first round of each
build compiles, so round 0 is a warm-up and not counted.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench(tree: Path, args: list[str]) -> dict:
    """{(rules, workload): per-CPU-second rate} of one ``binokel bench --json`` run of the
    build checked out at ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-m", "cli.main", "bench", *args, "--json", "--no-baseline"]
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"paired: bench failed in {tree}: {out.stderr.strip()[-400:]}")
    res = json.loads(out.stdout)["results"]
    return {(r.get("rules", ""), r["workload"]): float(r["cpu_deals_per_s"]) for r in res}


def paired(base: str, rounds: int, bench_args: list[str], new: Path = ROOT) -> list[dict]:
    """Alternate the two builds ``rounds`` times (+ one warm-up round); returns one row
    per workload: base and new median rates, the median and range of the per-round
    ratios new/base, and n (rounds)."""
    with tempfile.TemporaryDirectory(prefix="paired-") as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(new), "worktree", "add", "--detach", "-q", str(tree),
                        base], check=True)
        try:
            ratios: dict = {}
            rates: dict = {}
            for r in range(rounds + 1):
                order = [("base", tree), ("new", new)] if r % 2 == 0 else \
                    [("new", new), ("base", tree)]
                got = {name: _bench(path, bench_args) for name, path in order}
                if r == 0:                       # compiles both builds: not counted
                    continue
                for key, b in got["base"].items():
                    n = got["new"].get(key)
                    if n is None or b <= 0:
                        continue
                    ratios.setdefault(key, []).append(n / b)
                    rates.setdefault(key, ([], []))
                    rates[key][0].append(b)
                    rates[key][1].append(n)
                print(f"round {r}/{rounds} done", file=sys.stderr)
        finally:
            subprocess.run(["git", "-C", str(new), "worktree", "remove", "--force", str(tree)],
                           check=False)
    rows = []
    for key, rs in ratios.items():
        rows.append({"rules": key[0], "workload": key[1], "n": len(rs),
                     "base_cpu_rate": statistics.median(rates[key][0]),
                     "new_cpu_rate": statistics.median(rates[key][1]),
                     "ratio_median": statistics.median(rs), "ratio_min": min(rs),
                     "ratio_max": max(rs)})
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="git revision of the base build")
    ap.add_argument("--rounds", type=int, default=5, help="counted rounds (1..50)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("bench", nargs=argparse.REMAINDER, help="-- then binokel bench options")
    a = ap.parse_args(argv)
    if not 1 <= a.rounds <= 50:
        ap.error(f"--rounds {a.rounds}: 1 to 50")
    args = a.bench[1:] if a.bench[:1] == ["--"] else a.bench
    rows = paired(a.base, a.rounds, args)
    if a.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"new build ({ROOT}) against {a.base}, per CPU-second, {a.rounds} paired rounds "
          "(median ratio, min-max of the rounds)")
    print(f"{'rules':<12}{'workload':<9}{'base':>12}{'new':>12}{'new/base':>10}  range")
    for r in rows:
        print(f"{r['rules']:<12}{r['workload']:<9}{r['base_cpu_rate']:>12.4g}"
              f"{r['new_cpu_rate']:>12.4g}{r['ratio_median']:>10.3f}  "
              f"{r['ratio_min']:.3f}-{r['ratio_max']:.3f}")


if __name__ == "__main__":
    main()
