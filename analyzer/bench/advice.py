"""Benchmark workloads of the play advisor and the deal review (issue 27): HINT and REVIEW.

HINT, exactly: for unit ``i`` of a run with seed ``s``, the deal ``binokel play --rules
GAME --seed 1000 s + i`` writes (:func:`analyzer.search.record_play.play_record`, the
heuristic at every seat, soloist ``i mod n`` of the ``n`` seats in play, trump ``i mod
4``); the position before card ``1 + (i mod n)`` of trick ``max(1, hand size - 9)``, the
trick that leaves 10 tricks to play (the current one included): the first trick whose
worlds every game solves exactly (``binokel hint``'s default horizon), so the
dearest position of a deal, and mid-deal in binokel-48 (trick 6 of 15) and pinochle-80
(trick 11 of 20).  Timed: ``binokel hint`` from that seat's view (the record as the seat
saw it, :func:`analyzer.mechanics.record.hide`: no double-dummy part) with the default
worlds and horizon (:func:`analyzer.analyses.hint.hint`).  Unit: positions.  Every game
without a stock: the three-seat games run it as a variant workload, the partners' tables
(kreuz-48, kreuz-40, pinochle-80, V1) through :func:`register_table_variant`.

REVIEW, exactly: the whole binokel-48 deal of unit ``i`` as above (every hand in the
record), reviewed as ``binokel review`` does with its defaults
(:func:`analyzer.analyses.review.review`: every card decision by PIMC, hindsight double
dummy from 10 tricks left, and the soloist's exchange).  Unit: deals.

Making the deal record (a heuristic deal, some milliseconds) is inside the timed call;
each unit's CPU seconds of the hint or review alone go to the harness (``per_unit``),
pooled over all repeats (median with its CI, p90, mean): the figure to compare with the
targets of issue 27 (a hint <= 1 s in binokel-48 and <= 2 s in pinochle-80, a review of
a whole binokel-48 deal <= 30 s).
"""
from __future__ import annotations

import time

from analyzer.bench.registry import register, register_table_variant
from analyzer.mechanics.rules import DEFAULT_RULES

#: tricks left (the current one included) at the HINT position
HINT_TRICKS_LEFT = 10


def _deal(game, seed: int, i: int):
    """Unit ``i``'s deal record (module docstring) and the number of seats in play."""
    from analyzer.mechanics.record import in_play_seats
    from analyzer.search.record_play import play_record

    seats = in_play_seats(game)
    deal = play_record(game.name, seed=1000 * seed + i, policy="heuristic",
                       soloist=seats[i % len(seats)], trump=i % 4)
    return deal, len(seats)


def hint_position(game, seed: int, i: int):
    """The HINT position of unit ``i`` (module docstring) as the seat to play saw it: a
    :class:`~analyzer.analyses.hint.View` without the other hands."""
    from analyzer.analyses.hint import view_from_record
    from analyzer.mechanics.record import hide

    deal, n_play = _deal(game, seed, i)
    trick = max(1, game.table.hand_size - (HINT_TRICKS_LEFT - 1))
    card = 1 + i % n_play
    seat = view_from_record(deal, trick, card).seat
    return view_from_record(hide(deal, seat), trick, card)


def hint_workload(n: int, seed: int = 0, rules=None) -> dict:
    """HINT: ``n`` hints of mid-deal positions (module docstring) with the defaults of
    ``binokel hint``.  Returns the mean best card's value (a sanity figure), the worlds
    per hint and the share of hints whose worlds were solved exactly."""
    from analyzer.analyses.hint import DEFAULT_HORIZON, DEFAULT_WORLDS, hint
    from analyzer.mechanics.ruleset import get_game

    game = get_game((rules or DEFAULT_RULES).name)
    cpus, best, exact = [], 0.0, 0
    for i in range(int(n)):
        view = hint_position(game, seed, i)
        c0 = time.process_time()
        h = hint(game, view, DEFAULT_WORLDS, DEFAULT_HORIZON, seed, 0)
        cpus.append(time.process_time() - c0)
        best += h.cards[0].points
        exact += h.exact_worlds
    return {"mean_best_points": best / n, "worlds": DEFAULT_WORLDS,
            "exact_share": exact / n, "per_unit": {"cpu_s": cpus}}


def review_workload(n: int, seed: int = 0) -> dict:
    """REVIEW: ``n`` whole binokel-48 deals reviewed with ``binokel review``'s defaults
    (module docstring).  Returns the mean decisions per deal (a sanity figure)."""
    from analyzer.analyses.review import review
    from analyzer.mechanics.ruleset import get_game

    game = get_game(DEFAULT_RULES.name)
    cpus, decisions = [], 0
    for i in range(int(n)):
        deal, _ = _deal(game, seed, i)
        c0 = time.process_time()
        rv = review(game, deal)
        cpus.append(time.process_time() - c0)
        decisions += len(rv.decisions)
    return {"mean_decisions": decisions / n, "per_unit": {"cpu_s": cpus}}


register("HINT", hint_workload, deals=5, unit="positions", variant_aware=True,
         description=(f"binokel hint of a mid-deal position ({HINT_TRICKS_LEFT} tricks left: "
                      "where every world is solved exactly) from the seat to "
                      "play's view, default worlds and horizon; positions from heuristic deals"))
register_table_variant("HINT", hint_workload)
register("REVIEW", review_workload, deals=1, unit="deals",
         description="binokel review of a whole binokel-48 deal (a heuristic deal, every "
                     "hand in the record) with the defaults: every card decision by PIMC, "
                     "double dummy from 10 tricks left, the soloist's exchange")
