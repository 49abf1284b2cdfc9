"""The Pinochle auction (V6.2) and the deal score and game end (V6.3, V6.6)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

from analyzer.errors import BinokelError
from analyzer.mechanics.scoring import score_sides, score_sides_deal, sides_game_winner
from analyzer.mechanics.team_bidding import (PASS, check_turn, parse_team_auction,
                                                 rule_of_thumb80, threshold_auction80,
                                                 validate_team_auction)
from analyzer.mechanics.rules import PINOCHLE_80, team_kernel
from tests.oracle import pinochle as ref


def test_v6_2_minimum_bid_is_500():
    with pytest.raises(BinokelError, match="below the minimum bid 500"):
        validate_team_auction([490])


def test_v6_2_bids_are_multiples_of_10():
    with pytest.raises(BinokelError, match="not a multiple of 10"):
        validate_team_auction([505])


def test_v6_2_jumps_allowed_but_each_bid_higher():
    s = validate_team_auction([500, 650])
    assert (s.high, s.high_seat, s.to_move) == (650, 1, 2)
    with pytest.raises(BinokelError, match="higher than the standing bid 650"):
        validate_team_auction([500, 650, 650])


def test_v6_2_pass_is_final_and_passed_seats_are_skipped():
    s = validate_team_auction([500, PASS, 510, PASS])
    assert s.passed == (False, True, False, True)
    assert s.to_move == 0
    s = validate_team_auction([500, PASS, 510, PASS, 520])
    assert s.to_move == 2   # seat 1 and 3 passed: seat 2 is next after seat 0


def test_v6_2_three_passes_after_a_bid_end_the_auction():
    s = validate_team_auction([PASS, 500, PASS, PASS])
    assert s.over and s.high_seat == 1 and s.high == 500
    with pytest.raises(BinokelError, match="already over"):
        validate_team_auction([PASS, 500, PASS, PASS, 510])


def test_v6_2_all_four_pass_throws_the_deal_in():
    s = validate_team_auction([PASS] * 4)
    assert s.over and s.thrown_in


def test_v6_2_last_seat_may_still_bid_after_three_passes():
    s = validate_team_auction([PASS] * 3)
    assert not s.over and s.to_move == 3


def test_v6_2_parse_and_turn_errors():
    s = parse_team_auction("500 p 520, pass")
    assert s.calls == (500, 0, 520, 0) and s.to_move == 0
    with pytest.raises(BinokelError, match="out of turn"):
        check_turn(s, 2)
    with pytest.raises(BinokelError, match="outside 0-3"):
        check_turn(s, 4)
    with pytest.raises(BinokelError, match="cannot read call"):
        parse_team_auction("500 double")


@given(st.lists(st.sampled_from([0, 500, 510, 520, 560, 600, 700]), min_size=4, max_size=4))
def test_v6_2_threshold_auction_kernel_matches_reference(maxima):
    out = np.zeros(2, dtype=np.int64)
    threshold_auction80(np.array(maxima, dtype=np.int64), 500, 10, out)
    assert tuple(out) == ref.auction(maxima)
    # and the calls it makes form a valid V6.2 auction won by the same seat
    if out[0] >= 0:
        assert maxima[out[0]] >= out[1]


def test_rule_of_thumb_is_meld_plus_20_per_expected_trick_plus_partner():
    # A♥ 10♥ K♥ Q♥ J♥ x2 (two flushes, 300) + 4 more hearts... count: 10 hearts, 2 aces
    from analyzer.mechanics.cards import Hand80
    h = Hand80.parse("AH 10H KH QH JH AH 10H KH QH JH AC AS 10C 10S 10D QC JC JS QD JH")
    tmp = np.zeros(4, dtype=np.int64)
    mb, trump = rule_of_thumb80(h.counts_array(), team_kernel(PINOCHLE_80), 20, 150, tmp)
    assert trump == 2
    hearts = 11
    expect = ref.melds(list(h.counts), 2) + 20 * (4 + hearts - 5) + 150
    assert mb == expect // 10 * 10


# ---------------------------------------------------------------- V6.6 scoring

def test_v6_6_bidding_team_makes_its_bid():
    s = score_sides_deal(0, 600, (400, 250), (230, 270), (9, 11), (5, 6))
    assert s.scores == (630, 520) and s.made


def test_v6_6_bidding_team_set_scores_minus_bid():
    s = score_sides_deal(1, 600, (400, 250), (230, 270), (9, 11), (5, 6))
    assert s.scores == (630, -600) and not s.made


def test_v6_3_melds_need_a_trick_holding_a_counter():
    s = score_sides_deal(0, 500, (400, 300), (500, 0), (20, 0), (20, 0))
    assert s.melds_counted == (400, 0) and s.scores == (900, 0)


def test_v6_2_thrown_in_deal_scores_nothing():
    assert score_sides_deal(-1, 0, (100, 100), (250, 250), (10, 10), (5, 5)).scores == (0, 0)


@given(st.integers(-1, 1), st.integers(50, 90).map(lambda x: x * 10),
       st.tuples(st.integers(0, 900), st.integers(0, 900)),
       st.integers(0, 500), st.tuples(st.integers(0, 3), st.integers(0, 3)))
def test_v6_6_score_kernel_matches_reference(bid_team, bid, melds, p0, counting):
    points = (p0, 500 - p0)
    # a side with card points or a counting trick won a trick; one without may or may not
    tricks = tuple(1 if points[t] > 0 or counting[t] > 0 else 0 for t in range(2))
    out = np.zeros(2, dtype=np.int64)
    score_sides(bid_team, bid, np.array(melds), np.array(points), np.array(tricks),
                np.array(counting), team_kernel(PINOCHLE_80), out)
    assert tuple(out) == ref.score(bid_team, bid, melds, points, counting)


def test_v6_6_game_to_3550_bidding_side_counted_first():
    assert sides_game_winner((3600, 3700), 0, PINOCHLE_80.target_score) == 0
    assert sides_game_winner((3600, 3700), 1, PINOCHLE_80.target_score) == 1
    assert sides_game_winner((3400, 3560), 0, PINOCHLE_80.target_score) == 1
    assert sides_game_winner((3549, 100), 0, PINOCHLE_80.target_score) == -1
    assert PINOCHLE_80.target_score == 3550
