"""The fast PIMC of binokel-2 (analyzer.search.stock_pimc_fast, V7): its decisions read
only what the player to act knows (the opponent's hidden cards and the stock order
replaced by another consistent deal give the same decision for the same rng), it plays
legal actions to the end of random deals, its rollout kernel ends every deal (V7.4,
V7.5), and its values carry n and SE."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.ruleset import GAMES
from analyzer.mechanics.stock_deal import StockDeal, rules_of
from analyzer.search.stock_pimc_fast import (PimcFast, greedy_deals, public_view,
                                             sample_worlds)
from analyzer.search.stock_registry import policy_of

GAME = GAMES["binokel-2"]


def _stock_positions(seed, n):
    """Decisions with a choice while the stock lasts, along a deal of random play."""
    rng = random.Random(seed)
    d = StockDeal.from_seed(GAME, seed)
    out = []
    while not d.over():
        if d.stock_left() and len(d.legal_actions(claims=False)) > 1:
            out.append(d.copy())
        d.apply(rng.choice(d.legal_actions(claims=False)))
    rng.shuffle(out)
    return out[:n]


def _other_consistent(d: StockDeal, rng: random.Random) -> StockDeal:
    """``d`` with the opponent's hidden cards and the face-down stock dealt anew: a deal the
    player to act cannot tell from ``d`` (V7: what each player knows)."""
    seat = d.to_act()
    opp = 1 - seat
    st = d.st.copy()
    hidden = [c for c in d.hand(opp) if not d.shown(c) and c != d.turned]
    pos, size = int(st[sp.SPOS]), int(st[sp.SSIZE])
    stock = [int(c) for c in st[sp.STOCK + pos:sp.STOCK + size]]
    last = stock[-1:] if stock and stock[-1] == d.turned else []
    face_down = stock[:len(stock) - len(last)]
    pool = hidden + face_down
    rng.shuffle(pool)
    h = int(st[sp.H0 + opp])
    for c in hidden:
        h &= ~(1 << c)
    for c in pool[:len(hidden)]:
        h |= 1 << c
    st[sp.H0 + opp] = h
    for i, c in enumerate(pool[len(hidden):] + last):
        st[sp.STOCK + pos + i] = c
    return StockDeal(GAME, st, list(d.log))


@pytest.mark.parametrize("seed", range(4))
def test_decisions_never_read_the_hidden_cards(seed):
    """V7: the opponent's unshown cards and the stock order are unseen; a deal that differs
    only there gives the same view, the same worlds and the same decision (same rng)."""
    pol = PimcFast(GAME, worlds=3)
    changed = 0
    for d in _stock_positions(seed, 3):
        d2 = _other_consistent(d, random.Random(seed + 100))
        seat = d.to_act()
        changed += int((d2.st != d.st).any())
        v1, p1, n1, t1 = public_view(d, seat)
        v2, p2, n2, t2 = public_view(d2, seat)
        assert (v1 == v2).all() and p1 == p2 and (n1, t1) == (n2, t2)
        assert pol(d, random.Random(seed)) == pol(d2, random.Random(seed))
    assert changed > 0                    # the hidden cards did differ


def test_worlds_deal_the_unseen_cards_and_keep_the_turned_card_last():
    """V7.2: the turned card stays at the bottom of the stock; the unseen cards go to the
    opponent's hidden hand and the stock, each once."""
    d = StockDeal.from_seed(GAME, 3)
    view, pool, nh, turned = public_view(d, 0)
    assert turned == d.turned and nh == 12 and len(pool) == 12 + 23
    ws = sample_worlds(view, pool, nh, 0, 5, random.Random(1))
    for w in ws:
        assert w[sp.H0] == d.st[sp.H0]
        opp = [c for c in range(48) if (int(w[sp.H0 + 1]) >> c) & 1]
        stock = [int(c) for c in w[sp.STOCK:sp.STOCK + 24]]
        assert stock[-1] == d.turned and sorted(opp + stock[:-1]) == pool
    assert len({tuple(w[sp.STOCK:sp.STOCK + 23]) for w in ws}) > 1


@pytest.mark.parametrize("seed", range(3))
def test_plays_legal_actions_to_the_end_of_random_deals(seed):
    """Against random play and against itself: every action is legal (V7.2-V7.5) and the
    deal ends with 250 card points and last trick between the seats (V7.4)."""
    rng = random.Random(seed)
    pf = PimcFast(GAME, worlds=2)
    rnd = policy_of("random", GAME)
    for pols in ((pf, rnd), (pf, pf)):
        d = StockDeal.from_seed(GAME, 50 + seed)
        while not d.over():
            a = pols[d.to_act()](d, rng)
            assert a in d.legal_actions(claims=True)
            d.apply(a)
        assert d.winner() >= 0 or sum(d.points(s) - d.melds_points(s) for s in (0, 1)) == 250


def test_claims_a_winning_game_at_once():
    """V7.5: a claim at the target or more wins; the policy takes it."""
    d = StockDeal.from_seed(GAME, 2, before=(995, 0))
    rng = random.Random(0)
    while not d.may_claim(d.to_act()):
        d.apply(rng.choice(d.legal_actions(claims=False)))
    assert PimcFast(GAME, worlds=2)(d, rng) == ("claim",)


def test_action_values_carry_n_and_se():
    d = StockDeal.from_seed(GAME, 5)
    vals = PimcFast(GAME, worlds=4).action_values(d, random.Random(0))
    assert {a for a, *_ in vals} == set(d.legal_actions(claims=False))
    assert all(n == 4 and se >= 0 for _, _, se, n in vals)


def test_rollout_kernel_plays_whole_deals():
    """The greedy rollout policy ends every deal: 24 tricks, 250 card points with the last
    trick, 20 Dissle points in all when no claim ends it (V7.3 Reading, V7.4)."""
    r = rules_of(GAME)
    from analyzer.mechanics.rng import chunk_state

    out = np.zeros((50, 2), dtype=np.int64)
    greedy_deals(50, chunk_state(1, 0), r.params, r.beat, r.pat_kind, r.pat_value, r.pat_need,
                 out)
    assert (out.sum(axis=1) >= 250).all()


@pytest.mark.parametrize("name,worlds", [("pimc-fast", 32), ("pimc-fast-5", 5)])
def test_registry_names_the_worlds(name, worlds):
    assert policy_of(name, GAME).worlds == worlds
    assert policy_of("pimc-fast", GAME, worlds=7).worlds == 7


@pytest.mark.parametrize("name", ["pimc-fast-1", "pimc-fast-x", "fast"])
def test_unknown_policy_is_one_line(name):
    with pytest.raises(BinokelError, match="unknown policy"):
        policy_of(name, GAME)
