"""Advice under strong defence (analyzer.analyses.advice_shift): paired heuristic vs PIMC
advice on the same sampled deals (R3 maximum bid, R8 P(make))."""
from __future__ import annotations

from analyzer.analyses.advice_shift import advice_shift, random_hands, summarize_shifts
from analyzer.mechanics.cards import Hand

STRONG = "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD"


def test_same_play_gives_no_shift_and_pimc_defence_a_paired_one():
    same = advice_shift(STRONG, 0, "", samples=30, seed=3, play="heuristic")
    assert same["max_bid_heuristic"] == same["max_bid_play"] is not None
    assert same["p_make_diff"]["mean"] == 0.0 and same["ev_score_diff"]["mean"] == 0.0
    strong = advice_shift(STRONG, 0, "", samples=30, seed=3)
    assert strong["max_bid_heuristic"] == same["max_bid_heuristic"]   # same samples
    assert strong["p_make_heuristic"] == same["p_make_heuristic"]
    assert strong["p_make_diff"]["se"] >= 0 and strong["samples"] == 30
    s = summarize_shifts([same, strong])
    assert s["hands"] == 2 and s["same"] + s["fell"] + s["rose"] == 2


def test_random_hands_are_reproducible_r2_hands():
    a = random_hands(6, seed=4)
    assert a == random_hands(6, seed=4) and a != random_hands(6, seed=5)
    for hand, seat, auction in a:
        h = Hand.parse(hand)
        assert len(h) == 15 and max(h.counts) <= 2
        assert (seat, auction) in ((0, ""), (1, "150"))
