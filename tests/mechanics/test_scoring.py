"""Tests of deal scoring: R8 (normal deals), R4 (surrender, Durch), R10's arithmetic."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer import DEFAULT_RULES, BinokelError, RuleSet
from hypothesis import given, strategies as st

from analyzer.mechanics.rules import PINOCHLE_80, team_kernel
from analyzer.mechanics.scoring import (DEAL_NORMAL, score_deal, score_kernel, score_sides,
                                        score_sides_deal, sides_game_winner)
from tests.oracle import pinochle as ref80


def test_r10_score_arithmetic():
    """R10: bid 200; card points incl. discard 90 + trump family 150 = 240 with a trick:
    +240.  Total 190 instead: -400 (2 x bid)."""
    s = score_deal(0, 200, card_points=(60, 120, 70), tricks=(2, 7, 6), melds=(150, 0, 0),
                   discard_points=30)
    assert s.scores[0] == 240 and s.made and s.totals[0] == 240
    s = score_deal(0, 200, card_points=(10, 170, 70), tricks=(2, 7, 6), melds=(150, 0, 0),
                   discard_points=30)
    assert s.scores[0] == -400 and not s.made


def test_r8_soloist_without_trick_loses_despite_melds():
    """R8: melds count only with at least one trick; no trick -> -2 x bid."""
    s = score_deal(1, 150, card_points=(120, 0, 130), tricks=(7, 0, 8), melds=(0, 1500, 0),
                   discard_points=20)
    assert s.scores == (120, -300, 130)


def test_r8_total_equal_to_bid_is_made():
    """R8: total >= bid (equality suffices)."""
    assert score_deal(2, 180, (50, 40, 100), (4, 3, 8), (0, 0, 80)).scores[2] == 180


def test_r8_opponents_score_own_total_or_zero():
    """R8: each opponent its own total (no pooling), 0 without a trick (melds lost)."""
    s = score_deal(0, 150, card_points=(200, 50, 0), tricks=(11, 4, 0), melds=(40, 20, 100))
    assert s.scores == (240, 70, 0)


def test_r4_surrender():
    """R4: soloist -bid; each opponent 50 + own melds, no trick needed."""
    s = score_deal(1, 230, melds=(60, 300, 0), kind="surrender")
    assert s.scores == (110, -230, 50)


def test_r4_durch():
    """R4: all 15 tricks +1000, else -1000; opponents 0, no melds, bid irrelevant."""
    assert score_deal(0, 300, (250, 0, 0), (15, 0, 0), (500, 90, 90), kind="durch").scores == (1000, 0, 0)
    assert score_deal(2, 150, (0, 21, 30), (0, 1, 2), (0, 0, 200), kind="durch").scores == (0, 0, -1000)


def test_scoring_constants_come_from_the_ruleset():
    """Variant constants reach the kernel (loss factor, surrender bonus, Durch value)."""
    rs = RuleSet(loss_factor=3, surrender_bonus=40, durch_value=500)
    assert score_deal(0, 200, (10, 0, 0), (1, 7, 7), rules=rs).scores[0] == -600
    assert score_deal(0, 200, melds=(0, 10, 0), kind="surrender", rules=rs).scores == (-200, 50, 40)
    assert score_deal(0, 200, (0, 0, 0), (15, 0, 0), kind="durch", rules=rs).scores[0] == 500


def test_score_kernel_direct():
    out = np.zeros(3, dtype=np.int64)
    score_kernel(DEAL_NORMAL, 160, 1, np.array([30, 170, 50]), np.array([2, 10, 3]),
                 np.array([0, 0, 20]), DEFAULT_RULES.kernel, out)
    assert list(out) == [30, 170, 70]


def test_score_deal_uses_a_play_record():
    from analyzer import Hand, play_deal
    from analyzer.mechanics.rng import chunk_state
    from analyzer.mechanics.sampling import deal_random, new_deck
    out = np.zeros(4, dtype=np.int64)
    deal_random(chunk_state(3, 0), new_deck(), out)
    rec = play_deal([Hand.from_mask(int(m)) for m in out[:3]], "S", soloist=0, seed=1)
    s = score_deal(0, 150, record=rec, discard_points=0)
    assert sum(s.totals) == sum(rec.points)


def test_score_deal_bad_input():
    with pytest.raises(BinokelError):
        score_deal(3, 150)
    with pytest.raises(BinokelError):
        score_deal(0, 150, kind="grand")
    with pytest.raises(BinokelError):
        score_deal(0, 150, tricks=(10, 10, 10))


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
    assert tuple(out) == ref80.score(bid_team, bid, melds, points, counting)


def test_v6_6_game_to_3550_bidding_side_counted_first():
    assert sides_game_winner((3600, 3700), 0, PINOCHLE_80.target_score) == 0
    assert sides_game_winner((3600, 3700), 1, PINOCHLE_80.target_score) == 1
    assert sides_game_winner((3400, 3560), 0, PINOCHLE_80.target_score) == 1
    assert sides_game_winner((3549, 100), 0, PINOCHLE_80.target_score) == -1
    assert PINOCHLE_80.target_score == 3550
