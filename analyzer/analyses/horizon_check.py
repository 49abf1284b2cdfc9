"""What does the search before the horizon cost?  The accuracy note of issue 27: "every
world is solved exactly once 10 or fewer tricks are left; earlier, say how deep the search
goes and what that costs in accuracy against exact worlds."

Run: ``python -m analyzer.analyses.horizon_check --positions 30 --tricks-left 11 --worlds 4
--seed 0 [--rules binokel-48] [--json]``.

Every game of ``hint``: the three-seat games and the partners' tables (V1: kreuz-48,
kreuz-40, pinochle-80, whose play-outs are the partners' heuristic at every seat,
:func:`analyzer.search.pimc.partners_world_row`, and whose values are the soloist's
side's card points); e.g. ``--rules pinochle-80 --tricks-left 10 --horizon 9`` compares
at the horizon of 10 tricks what exactness changes there.

How deep the search goes before the horizon: not at all.  With more than ``horizon``
tricks left, ``binokel hint`` (:func:`analyzer.analyses.hint.world_values`) values each
legal card in each world by one heuristic play-out after it (the seat plays the card, then
every seat plays the rule-based policy to the end: :func:`analyzer.search.pimc._rollout_after`),
i.e. a one-ply search with a heuristic leaf; from ``horizon`` tricks left every world is
solved exactly (double dummy, :func:`analyzer.search.solve.dd_move_values`).

Protocol: positions from heuristic deals (:func:`analyzer.bench.advice`'s deals:
``binokel play --seed 1000 seed + i``, soloist ``i mod 3``, trump ``i mod 4``), the
position before card ``1 + (i mod 3)`` of the trick that leaves ``tricks_left`` tricks
(more than the horizon), seen from the seat to play's view.  The hint's own worlds
(``worlds`` of them, seed ``seed``) are valued twice on the *same* worlds: as the hint
does (play-outs) and exactly (horizon = tricks left: every world solved).  Figures, in
card points of the soloist's side (R7), per position first (worlds and cards of one position are
not independent) and then mean ± SE over the ``n`` positions:

- ``mae_card``: mean |play-out value - exact value| over the worlds and legal cards;
- ``bias_card``: mean (play-out - exact) (the play-outs are worse play than perfect play,
  for both sides, so the sign is not fixed);
- ``world_best_differs``: share of worlds whose best card (the seat's side: max for the
  soloist and its partner, min for a defender) by play-out is not an exact best card;
- ``world_loss``: the exact points the seat's side loses in a world by playing the
  play-outs' best instead of the exact best;
- ``hint_best_differs`` / ``hint_loss``: the same for the hint's choice (the best mean
  over all worlds) against the choice on exact worlds, the loss measured on the exact
  worlds' means: what the depth costs the advice itself.

Cost: the CPU seconds of both valuations per position are reported (``cpu_playout``,
``cpu_exact``), the price of solving earlier.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.ruleset import get_game

from .hint import legal_cards, role, supported, world_values
from .stats import mean_ci


def position(game, seed: int, i: int, tricks_left: int):
    """Unit ``i``'s position (module docstring) as the seat to play saw it."""
    from analyzer.mechanics.record import hide, in_play_seats
    from analyzer.search.record_play import play_record

    from .hint import view_from_record

    seats = in_play_seats(game)
    deal = play_record(game.name, seed=1000 * seed + i, policy="heuristic",
                       soloist=seats[i % len(seats)], trump=i % 4)
    trick = game.table.hand_size - tricks_left + 1
    card = 1 + i % len(seats)
    seat = view_from_record(deal, trick, card).seat
    return view_from_record(hide(deal, seat), trick, card)


def compare(view, worlds: int, horizon: int, seed: int) -> dict:
    """One position: the play-out values (``horizon`` below the tricks left) and the exact
    values on the same worlds; the per-position figures of the module docstring."""
    left = sum(view.own)                         # the seat has not played to this trick
    c0 = time.process_time()
    lg, approx, _, ex_a = world_values(view, worlds, horizon, seed)
    c1 = time.process_time()
    lg2, exact, _, ex_b = world_values(view, worlds, left, seed)
    c2 = time.process_time()
    if ex_a or not ex_b or lg != lg2 or approx.shape != exact.shape:
        raise BinokelError("horizon_check: the position must lie beyond the horizon")
    a, e = approx[:, lg], exact[:, lg]
    mine = role(view) != "defender"              # the soloist or its partner (V1)
    sign = 1.0 if mine else -1.0                 # the seat's side: soloist max, defenders min
    best_a = np.argmax(sign * a, axis=1)
    best_e_val = (sign * e).max(axis=1)
    w = np.arange(len(a))
    world_loss = best_e_val - sign * e[w, best_a]
    ha = int(np.argmax(sign * a.mean(axis=0)))
    he_means = sign * e.mean(axis=0)
    return {"legal": len(lg), "worlds": len(a), "mae_card": float(np.abs(a - e).mean()),
            "bias_card": float((a - e).mean()),
            "world_best_differs": float((world_loss > 0).mean()),
            "world_loss": float(world_loss.mean()),
            "hint_best_differs": float(he_means[ha] < he_means.max()),
            "hint_loss": float(he_means.max() - he_means[ha]),
            "cpu_playout": c1 - c0, "cpu_exact": c2 - c1}


KEYS = ("mae_card", "bias_card", "world_best_differs", "world_loss", "hint_best_differs",
        "hint_loss", "cpu_playout", "cpu_exact")


def horizon_check(n: int, tricks_left: int = 11, worlds: int = 4, seed: int = 0,
                  rules: str = "binokel-48", horizon: int | None = None, progress=None) -> dict:
    """The check of the module docstring over ``n`` positions with ``tricks_left`` tricks
    left; ``horizon`` (default ``binokel hint``'s) must be below ``tricks_left``.  Returns
    each figure as mean, SE and n over the positions, and the rows per position."""
    from .hint import DEFAULT_HORIZON

    game = get_game(rules)
    supported(game)
    horizon = DEFAULT_HORIZON if horizon is None else horizon
    if not horizon < tricks_left <= game.table.hand_size:
        raise BinokelError(f"horizon_check: --tricks-left {tricks_left} must lie above the "
                           f"horizon {horizon} and at most {game.table.hand_size}")
    if not 1 <= n <= 10_000 or not 1 <= worlds <= 1_000:
        raise BinokelError("horizon_check: --positions 1..10,000, --worlds 1..1,000")
    # warm-up (numba loads or compiles its kernels): not in the first position's CPU time
    late = position(game, seed, 0, 3)
    world_values(late, 1, 1, 0)
    world_values(late, 1, 3, 0)
    rows = []
    for i in range(n):
        view = position(game, seed, i, tricks_left)
        if len(legal_cards(view)) < 2:
            continue
        rows.append(compare(view, worlds, horizon, seed * 1000 + i))
        if progress:
            progress(i + 1, n)
    out = {"rules": game.name, "positions": len(rows), "tricks_left": tricks_left,
           "horizon": horizon, "worlds": worlds, "seed": seed}
    for k in KEYS:
        ci = mean_ci([r[k] for r in rows])
        out[k] = {"mean": ci.mean, "se": ci.se, "n": ci.n}
    out["per_position"] = rows
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m analyzer.analyses.horizon_check",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--tricks-left", type=int, default=11)
    ap.add_argument("--worlds", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default="binokel-48")
    ap.add_argument("--horizon", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)

    def progress(done, total):
        if not a.json:
            print(f"  {done}/{total} positions", file=sys.stderr, flush=True)

    try:
        out = horizon_check(a.positions, a.tricks_left, a.worlds, a.seed, a.rules, a.horizon,
                            progress)
    except (BinokelError, KeyError) as exc:
        print(f"horizon_check: error: {str(exc).strip(chr(39))}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{out['rules']}: {out['positions']} positions with {out['tricks_left']} tricks left "
          f"(seed {a.seed}), {out['worlds']} worlds each; play-outs (hint, horizon "
          f"{out['horizon']}) against exact worlds, soloist's card points (R7)")
    for k, lab in (("mae_card", "mean |play-out - exact| per card"),
                   ("bias_card", "mean (play-out - exact) per card"),
                   ("world_best_differs", "share of worlds, best card differs"),
                   ("world_loss", "exact points lost per world by the play-out's best"),
                   ("hint_best_differs", "share of hints, best card differs"),
                   ("hint_loss", "exact points lost per hint (mean over worlds)"),
                   ("cpu_playout", "CPU s per position, play-outs"),
                   ("cpu_exact", "CPU s per position, exact worlds")):
        f = out[k]
        se = "nan" if math.isnan(f["se"]) else f"{f['se']:.3f}"
        print(f"  {lab:<52} {f['mean']:8.3f} ± {se}  (n={f['n']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
