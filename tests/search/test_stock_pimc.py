"""PIMC of binokel-2's stock phase (analyzer.search.stock_pimc, V7): worlds keep what the
player to act knows (own hand and kinds shown, the opponent's shown cards, the turned
card's place, the counts, the unseen cards as a set), and once the stock is gone a world
is the position itself (V7.4); PIMC's decisions are legal and its values carry n and SE."""
from __future__ import annotations

import random

import pytest

from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.ruleset import GAMES
from analyzer.search.stock_pimc import Pimc, sample_world, unseen
from analyzer.search.stock_registry import policy_of
from analyzer.mechanics.stock_deal import StockDeal

GAME = GAMES["binokel-2"]


def _positions(seed, n):
    """Positions along a random deal (both seats' decisions, stock phase and after)."""
    rng = random.Random(seed)
    d = StockDeal.from_seed(GAME, seed)
    out = []
    pol = policy_of("random", GAME)
    while not d.over():
        out.append(d.copy())
        d.apply(pol(d, rng))
    rng.shuffle(out)
    return out[:n]


@pytest.mark.parametrize("seed", range(8))
def test_worlds_keep_what_the_player_knows(seed):
    rng = random.Random(seed)
    for d in _positions(seed, 10):
        seat = d.to_act()
        opp = 1 - seat
        w = sample_world(d, seat, rng)
        assert w.hand(seat) == d.hand(seat)
        assert [w.shown(c) for c in range(48)] == [d.shown(c) for c in range(48)]
        assert {c for c in d.hand(opp) if d.shown(c) or c == d.turned} <= set(w.hand(opp))
        assert len(w.hand(opp)) == len(d.hand(opp)) and w.stock_left() == d.stock_left()
        h0, s0, t0 = unseen(d, seat)
        h1, s1, t1 = unseen(w, seat)
        assert sorted(h0 + s0) == sorted(h1 + s1) and t0 == t1      # the same unseen cards
        if d.stock_left():
            last = int(w.st[sp.STOCK + w.st[sp.SSIZE] - 1])
            assert (last == d.turned) == (t0 >= 0)                   # the turned card stays last
        else:
            assert (w.st == d.st).all()                              # perfect information


def test_worlds_vary_the_hidden_cards():
    d = StockDeal.from_seed(GAME, 4)
    rng = random.Random(1)
    hands = {tuple(sample_world(d, 0, rng).hand(1)) for _ in range(5)}
    assert len(hands) > 1


def test_pimc_values_every_action_with_n_and_se():
    p = Pimc(GAME, worlds=2, seed=2)
    d = StockDeal.from_seed(GAME, 5)
    vals = p.action_values(d)
    assert {a for a, *_ in vals} == set(d.legal_actions(claims=False))
    assert all(n == 2 and se >= 0 for _, _, se, n in vals)


def test_pimc_steps_through_the_start_of_a_deal_against_the_heuristic():
    p, h = Pimc(GAME, worlds=2, seed=3), policy_of("heuristic", GAME)
    d = StockDeal.from_seed(GAME, 2)
    rng = random.Random(0)
    for _ in range(6):                      # three tricks, PIMC as forehand
        a = (p if d.to_act() == 0 else h)(d, rng)
        assert a in d.legal_actions()
        d.apply(a)
