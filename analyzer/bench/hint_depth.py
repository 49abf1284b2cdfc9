"""What a hint costs by how many tricks are left (issue 27: the choice of the default
horizon, :func:`analyzer.analyses.hint.default_horizon`).

``python -m analyzer.bench.hint_depth --rules kreuz-48 --tricks-left 8 9 --positions 12``
times :func:`analyzer.analyses.hint.hint` (40 worlds, every world solved exactly: the
horizon set to the tricks left) at the HINT workload's positions
(:func:`analyzer.bench.advice.hint_position`, moved to the trick that leaves that many
tricks), from the seat to play's view, and prints the CPU seconds per position: n,
median, p90, mean and max.  One process, warm (one hint of 4 worlds compiles or loads the
kernels first).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from analyzer.errors import BinokelError


def depth_times(rules: str, tricks_left: int, positions: int, seed: int = 0) -> dict:
    """CPU seconds of ``positions`` hints with every world exact at ``tricks_left`` tricks
    left (module docstring); returns n, median, p90, mean, max and the list."""
    from analyzer.analyses.hint import DEFAULT_WORLDS, hint
    from analyzer.bench import advice
    from analyzer.mechanics.ruleset import get_game

    game = get_game(rules)
    if not 1 <= tricks_left <= game.table.hand_size or not 1 <= positions <= 1_000:
        raise BinokelError(f"hint_depth: --tricks-left 1..{game.table.hand_size}, "
                           "--positions 1..1,000")
    views = [advice.hint_position(game, seed, i, tricks_left) for i in range(positions)]
    hint(game, views[0], 4, tricks_left, seed, 0)         # compile or load the kernels
    cpu = []
    for v in views:
        c0 = time.process_time()
        hint(game, v, DEFAULT_WORLDS, tricks_left, seed, 0)
        cpu.append(time.process_time() - c0)
    x = np.asarray(cpu)
    return {"rules": game.name, "tricks_left": tricks_left, "n": len(x),
            "median": float(np.median(x)), "p90": float(np.percentile(x, 90)),
            "mean": float(x.mean()), "max": float(x.max()), "cpu_s": cpu}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="binokel-48")
    ap.add_argument("--tricks-left", type=int, nargs="+", default=[8, 9])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    for t in a.tricks_left:
        try:
            d = depth_times(a.rules, t, a.positions, a.seed)
        except BinokelError as exc:
            raise SystemExit(f"error: {exc}")
        print(f"{d['rules']}: {t} tricks left, n {d['n']}: CPU s per hint median "
              f"{d['median']:.2f}, p90 {d['p90']:.2f}, mean {d['mean']:.2f}, max {d['max']:.2f}")


if __name__ == "__main__":
    main()
