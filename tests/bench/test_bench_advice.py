"""HINT and REVIEW (analyzer/bench/advice.py, issue 27): registered for every game without a
stock, positions 10 tricks from the end seen from the seat to play's view only, and the
per-unit CPU seconds reach the harness."""
from __future__ import annotations

import pytest

from analyzer.analyses.hint import default_horizon
from analyzer.bench import advice
from analyzer.bench.registry import refusal, workloads
from analyzer.mechanics.record import in_play_seats
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import get_game


def test_hint_runs_every_game_without_a_stock_and_review_binokel_48_only():
    wls = workloads()
    assert "HINT" in wls and "REVIEW" in wls
    for game in ("binokel-48", "binokel-40", "kreuz-48", "pinochle-80"):
        assert refusal("HINT", get_rules(game)) == ""
    assert "V7" in refusal("HINT", get_game("binokel-2"))
    assert "binokel-48 only" in refusal("REVIEW", get_rules("kreuz-48"))


@pytest.mark.parametrize("game", ["binokel-48", "pinochle-80"])
def test_hint_position_leaves_the_default_horizon_and_hides_the_other_hands(game):
    g = get_game(game)
    n_play = len(in_play_seats(g))
    assert advice.hint_tricks_left(g) == (10 if n_play == 3 else 8)   # at most 32 cards
    for i in range(n_play):
        v = advice.hint_position(g, 0, i)
        assert g.table.hand_size - v.trick_no + 1 == advice.hint_tricks_left(g)
        assert len(v.trick) == i            # card 1 + (i mod n) of the trick
        assert v.hands is None              # honesty: the other hands never reach the hint


def test_hint_workload_solves_every_world_exactly_at_the_default_horizon():
    assert default_horizon(get_game("binokel-48")) >= advice.hint_tricks_left(get_game("binokel-48"))
    out = advice.hint_workload(1, 0)
    assert out["exact_share"] == 1.0 and out["worlds"] == 40
    assert len(out["per_unit"]["cpu_s"]) == 1 and out["per_unit"]["cpu_s"][0] > 0


def test_review_workload_reviews_the_card_decisions_of_a_whole_deal():
    out = advice.review_workload(1, 0)
    assert out["mean_decisions"] >= 20      # 45 cards, most with a choice
    assert len(out["per_unit"]["cpu_s"]) == 1
