"""The exact endgame of binokel-2 (analyzer.search.stock_solve, V7.4) equals the
reference's brute force (tests/oracle/binokel2.py ``endgame_value``) on random positions
after the stock, at a trick's start and with a card on the table, for both seats."""
from __future__ import annotations

import random

import pytest

from analyzer.errors import BinokelError
from analyzer.mechanics.ruleset import GAMES
from analyzer.mechanics.stock_deal import StockDeal, rules_of
from analyzer.search.stock_solve import EndgameSolver
from tests.mechanics.test_stock_play import _kernel_state
from tests.oracle import binokel2 as b

GAME = GAMES["binokel-2"]


def _position(seed: int, cards: int, on_table: bool) -> b.State:
    """A random deal played at random (no claims) until each seat holds ``cards`` cards
    after the stock (V7.4), optionally with the leader's card on the table."""
    rng = random.Random(seed)
    st = b.random_deal(rng)
    while not (st.tricks == b.TOTAL_TRICKS - cards and not st.trick and st.to_meld is None):
        st = b.apply(st, b.random_no_claim(st, rng))
    if on_table:
        st = b.apply(st, b.random_no_claim(st, rng))
    return st


@pytest.mark.parametrize("cards", (1, 2, 3, 4))
@pytest.mark.parametrize("on_table", (False, True))
def test_solver_equals_brute_force_on_random_endgames(cards, on_table):
    solver = EndgameSolver(rules_of(GAME), bits=12)
    for seed in range(25 if cards < 4 else 12):
        o = _position(100 * cards + seed, cards, on_table)
        d = StockDeal(GAME, _kernel_state(o))
        for seat in (0, 1):
            assert solver.value(d, seat) == b.endgame_value(o, seat), (seed, seat)
        # every card's value: the best cards are the reference's best cards (one per type)
        vals = solver.card_values(d)
        top = max(vals.values())
        assert sorted(c // 2 for c, v in vals.items() if v == top) == sorted(
            c // 2 for c in b.endgame_best_plays(o))


def test_the_endgame_is_refused_while_the_stock_lasts():
    with pytest.raises(BinokelError, match="V7.4"):
        EndgameSolver(rules_of(GAME), bits=8).value(StockDeal.from_seed(GAME, 0), 0)


def test_a_full_twelve_card_endgame_solves_and_splits_the_points():
    """Both seats' values add up to the card points left + the last trick (V7.4) + the
    Dissles still to play."""
    o = _position(7, 12, False)
    d = StockDeal(GAME, _kernel_state(o))
    s = EndgameSolver(rules_of(GAME))
    total = sum(b.POINTS[c // 2 % 6] for h in o.hands for c in h) + 10
    dis = sum(10 for h in o.hands for c in h
              if c // 2 == b.tid(o.trump, b.SEVEN) and c not in o.dissle_done)
    assert s.value(d, 0) + s.value(d, 1) == total + dis
