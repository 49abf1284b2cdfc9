"""The starting-hand analysis of the two-hand game (V7): its expected points match a plain
loop over StockDeal with the same seeds, every estimate carries n and an interval, the
numbers do not depend on --jobs, and bad hands are refused citing V7.1."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.analyses import stock_analysis as sa
from analyzer.errors import BinokelError
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.stock_deal import StockDeal
from analyzer.search.stock_policies import Heuristic
from tests.oracle import binokel2 as b

GAME = get_game("binokel-2")
HAND = "AH 10H KH QH JH 7H KS QS JD AC AS AD"
TYPES = b.parse(HAND)


@pytest.fixture(scope="module")
def small():
    return sa.analyze_stock_hand(GAME, TYPES, seat=1, samples=6, deals=4, seed=5)


def test_expected_points_match_a_plain_loop_over_stockdeal(small):
    """V7.1 sampling as documented (default_rng((seed, 0, i)): the unseen cards permuted,
    12 to the opponent, one turned, the stock), both seats the heuristic, V7.4 points."""
    own, opp = [], []
    hand = sa.hand_cards(TYPES)
    for i in range(6):
        rng = np.random.default_rng((5, 0, i))
        rest = [c for c in range(48) if c not in hand]
        perm = [rest[j] for j in rng.permutation(len(rest))]
        order = perm[:12] + hand + perm[12:]          # seat 1: the dealer's 12 second
        deal = StockDeal.from_order(GAME, order)
        pol = Heuristic(GAME)
        r = random.Random(int(rng.integers(2 ** 62)))
        while not deal.over():
            deal.apply(pol(deal, r))
        own.append(deal.points(1))
        opp.append(deal.points(0))
    assert small.own.mean == pytest.approx(np.mean(own))
    assert small.opp.mean == pytest.approx(np.mean(opp))
    assert small.diff.mean == pytest.approx(np.mean(own) - np.mean(opp))


def test_every_estimate_has_n_and_an_interval(small):
    for x in (small.own, small.opp, small.diff, small.melds, small.card_points):
        assert x.n == 6 and x.lo <= x.mean <= x.hi and x.se >= 0
    assert small.own.mean == pytest.approx(small.melds.mean + small.card_points.mean)
    for r in small.meld_rows:
        assert r["n"] == 6 and r["p_lo"] <= r["p_shown"] <= r["p_hi"] and r["se"] >= 0
    assert [r["k"] for r in small.reach] == [1, 2, 3, 4]
    ps = [r["p"] for r in small.reach]
    assert ps == sorted(ps) and all(r["se"] >= 0 for r in small.reach)   # points never fall
    assert "resampling" in small.method and sum(c for _, c in small.hist) == 6


def test_the_seat_alternates_in_the_reach_table():
    """V7: the dealer changes every deal, so deal j draws from the seat of deal j."""
    first = np.array([600])
    later = np.array([[400, 0]])          # forehand 400, dealer 0, always
    rows = sa.reach_table(first, later, seat=0, deals=3, target=1000, seed=0)
    assert [r["p"] for r in rows] == [0.0, 0.0, 1.0]     # 600, +0 (dealer), +400 (forehand)
    rows = sa.reach_table(first, later, seat=1, deals=2, target=1000, seed=0)
    assert [r["p"] for r in rows] == [0.0, 1.0]          # 600, +400 (forehand)


def test_same_numbers_for_any_jobs():
    one = sa.analyze_stock_hand(GAME, TYPES, samples=4, deals=2, seed=9, jobs=1, play="random")
    sa_chunk = sa.CHUNK
    try:
        sa.CHUNK = 2      # two tasks, so --jobs 2 really runs two workers
        two = sa.analyze_stock_hand(GAME, TYPES, samples=4, deals=2, seed=9, jobs=2, play="random")
    finally:
        sa.CHUNK = sa_chunk
    assert one.to_dict() == two.to_dict()


@pytest.mark.parametrize("types,turned,frag", [
    (TYPES[:11], None, "12 cards"),
    ([0, 0, 0] + TYPES[3:], None, "copies"),
    ([2, 2] + TYPES[2:], 2, "turned"),
])
def test_bad_hands_cite_v7_1(types, turned, frag):
    with pytest.raises(BinokelError, match="V7.1") as exc:
        sa.analyze_stock_hand(GAME, types, turned=turned, samples=1)
    assert frag in str(exc.value)


def test_bounds_are_one_line_errors():
    with pytest.raises(BinokelError, match="--samples must be at most 20,000"):
        sa.analyze_stock_hand(GAME, TYPES, samples=20_001)
    with pytest.raises(BinokelError, match="--deals must be at most 30"):
        sa.analyze_stock_hand(GAME, TYPES, samples=1, deals=31)
    with pytest.raises(BinokelError, match="heuristic or random"):
        sa.analyze_stock_hand(GAME, TYPES, samples=1, play="pimc")
