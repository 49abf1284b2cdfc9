"""``solve`` for a game with a stock (binokel-2, docs/VARIANTS.md V7): the exact endgame
once the stock is gone (V7.4), checked against a plain minimax over the deal's own moves."""
from __future__ import annotations

import pytest

from analyzer.analyses.stock_endgame import endgame_of_seed, solve_endgame
from analyzer.errors import BinokelError
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.stock_deal import StockDeal
from analyzer.mechanics.stock_record import token

G = get_game("binokel-2")


def _brute_diff(deal: StockDeal, seat: int) -> int:
    """Final points of ``seat`` minus the opponent's under perfect play on both sides,
    by trying every legal card (V7.4: the endgame is a zero-sum game of card points;
    each player maximises its own difference)."""
    if deal.over():
        return deal.points(seat) - deal.points(1 - seat)
    mover = deal.to_act()
    best = None
    for c in deal.legal_plays():
        d = deal.copy()
        d.apply(("play", c))
        v = _brute_diff(d, mover)
        best = v if best is None or v > best else best
    return best if mover == seat else -best


@pytest.mark.parametrize("seed,left", [(3, 3), (5, 4), (11, 3)])
def test_every_card_value_equals_brute_force_V7_4(seed, left):
    deal = endgame_of_seed(G, seed, left)
    sol = solve_endgame(deal)
    seat = deal.to_act()
    before = deal.points(seat) - deal.points(1 - seat)
    assert len(deal.hand(seat)) == left == sol.tricks_left
    by_card = {}
    for c in deal.legal_plays():
        d = deal.copy()
        d.apply(("play", c))
        by_card[token(c // 2, 0)] = _brute_diff(d, seat) - before
    assert {c: d for c, _, d in sol.values} == by_card
    assert max(by_card.values()) == dict((c, d) for c, _, d in sol.values)[sol.best]


def test_the_endgame_is_the_deal_play_shows():
    """--seed N is `play --seed N`'s deal: the endgame hands are the cards of its last
    12 tricks (heuristic on both seats, the same random stream)."""
    from analyzer.search.stock_registry import record_deal

    _, played = record_deal(G, 3, with_deal=True)
    deal = endgame_of_seed(G, 3)
    assert deal.stock_left() == 0 and len(deal.hand(0)) == len(deal.hand(1)) == 12
    tricks = [a for a in played.log if a[0] == "play"][-24:]   # ("play", seat, card)
    assert sorted(int(a[2]) for a in tricks) == sorted(deal.hand(0) + deal.hand(1))


def test_out_of_range_and_mid_stock_positions_are_refused_V7_4():
    with pytest.raises(BinokelError, match="V7.4"):
        endgame_of_seed(G, 3, 13)
    with pytest.raises(BinokelError, match="V7.4"):
        endgame_of_seed(G, 3, 0)
    with pytest.raises(BinokelError, match="V7.4"):
        solve_endgame(StockDeal.from_seed(G, 3))
