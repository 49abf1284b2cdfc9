"""The stock kernels of binokel-2 (analyzer.mechanics.stock_play, V7.1-V7.5) step for step
against the plain-Python reference tests/oracle/binokel2.py: both take the same physical
deck order; on random seeded deals every decision compares the player to act, the legal
cards (both phases, V7.2, V7.4), the legal melds with their values (V7.3), and after the
same action the hands, shown kinds, draws, trick winners, points, Dissles (V7.1, V7.3),
deal scores (V7.4) and claims (V7.5)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.ruleset import GAMES
from analyzer.mechanics.stock_deal import StockDeal, cards_of
from tests.oracle import binokel2 as b

GAME = GAMES["binokel-2"]


def _key(shown, c):
    return (c // 2, shown(c))


def _same_state(d: StockDeal, o: b.State):
    st = d.st
    assert d.to_act() == (-1 if b.to_act(o) is None else b.to_act(o))
    for s in (0, 1):
        assert set(d.hand(s)) == o.hands[s], s
        assert d.melds_points(s) == o.melds[s]                      # melds + Dissles
        assert int(st[sp.PTS0 + s]) == b.card_points(o.taken[s])    # card points taken
        assert d.points(s) == b.deal_points(o, s)                   # V7.4 with the last trick
    assert {c: d.shown(c) for c in range(48) if d.shown(c)} == {c: k for c, k in o.shown.items() if k}
    assert d.stock_left() == len(o.stock)
    assert int(st[sp.TRICKS]) == o.tricks and int(st[sp.LEADER]) == o.leader
    assert (int(st[sp.TABLE]) if st[sp.TABLE] >= 0 else None) == (o.trick[0] if o.trick else None)
    assert (d.winner() if d.winner() >= 0 else None) == o.winner
    assert cards_of(st[sp.DISSLE_DONE]) == sorted(o.dissle_done)


def _lockstep(seed: int, before=(0, 0), claims=False):
    rng = random.Random(seed)
    order = list(range(48))
    rng.shuffle(order)
    o = b.deal(order, before)
    d = StockDeal.from_order(GAME, order, before)
    _same_state(d, o)
    steps = 0
    while b.to_act(o) is not None:
        acts = b.legal_actions(o)
        mine = d.legal_actions(claims=True)
        if o.to_meld is not None:
            want = sorted(tuple(sorted(_key(lambda c: o.shown.get(c, 0), c) for c in a[1])) for a in acts if a[0] == "meld")
            got = sorted(tuple(sorted(_key(d.shown, c) for c in cards_of(a[1]))) for a in mine if a[0] == "meld")
            assert got == want
            vals = {tuple(sorted(a[1])): b.pattern_of([c // 2 for c in a[1]], o.trump).value
                    for a in acts if a[0] == "meld"}
            assert {tuple(cards_of(a[1])): d.meld_value(a[2]) for a in mine if a[0] == "meld"} == vals
        else:
            want = sorted(_key(lambda c: o.shown.get(c, 0), a[1]) for a in acts if a[0] == "play")
            got = sorted(_key(d.shown, a[1]) for a in mine if a[0] == "play")
            assert got == want
        assert (("claim",) in acts) == (("claim",) in mine)
        pool = acts if claims else [a for a in acts if a[0] != "claim"]
        a = rng.choice(pool)
        o = b.apply(o, a)
        if a[0] == "meld":
            mask = sum(1 << c for c in a[1])
            a = next(m for m in mine if m[0] == "meld" and m[1] == mask)
        d.apply(a)
        _same_state(d, o)
        steps += 1
    return d, o


@pytest.mark.parametrize("seed", range(40))
def test_kernels_step_with_the_reference_through_random_deals(seed):
    """V7.1-V7.4: legal cards in both phases, melds and values, draws, tricks, scores."""
    d, o = _lockstep(seed)
    assert d.over() and o.tricks == 24
    assert (d.points(0), d.points(1)) == b.final_points(o)


@pytest.mark.parametrize("seed", range(12))
def test_kernels_agree_on_claims_near_the_target(seed):
    """V7.5: a winning claim is offered exactly when the reference offers it, and a claim
    decides the game the same way."""
    rng = random.Random(1000 + seed)
    _lockstep(1000 + seed, before=(rng.randrange(850, 1000), rng.randrange(850, 1000)), claims=True)


def test_a_claim_below_the_target_loses_the_game():
    """V7.5 Reading: a claim ends the game; below 1000 it loses it."""
    d = StockDeal.from_seed(GAME, 3, before=(500, 0))
    assert not d.may_claim(0)
    d.apply(("claim",))
    assert d.winner() == 1 and d.over()


def test_a_turned_seven_scores_ten_for_the_dealer_at_the_deal():
    """V7.1: the turned Dissle."""
    order = list(range(48))
    seven = 5 * 2                      # 7C, copy 0
    order.remove(seven)
    order.insert(24, seven)
    d = StockDeal.from_order(GAME, order)
    assert d.trump == 0 and d.melds_points(1) == 10 and d.melds_points(0) == 0


def test_random_deals_share_250_card_points_and_score_twenty_dissle_points():
    """V7.4: card points and the last trick make 250; V7.3 Reading: the two Dissles score
    once each, 20 in all (turned, shown or played)."""
    from analyzer.mechanics.rng import chunk_state
    from analyzer.mechanics.stock_deal import rules_of

    r = rules_of(GAME)
    rs = chunk_state(5, 0)
    for _ in range(30):
        st = sp.deal_order(sp.shuffled_order(rs), 0, 0, r.params)
        mb, pb = np.zeros(sp.MAX_MELDS, np.int64), np.zeros(sp.MAX_MELDS, np.int64)
        while sp.to_act(st) >= 0:
            sp.random_step(st, rs, r.params, r.beat, r.pat_kind, r.pat_value, r.pat_need, 0, mb, pb)
        assert int(st[sp.PTS0] + st[sp.PTS1]) + 10 == 250
        assert bin(int(st[sp.DISSLE_DONE])).count("1") == 2


def test_illegal_actions_are_refused_naming_the_rule_and_change_nothing():
    d = StockDeal.from_seed(GAME, 1)
    before = d.st.copy()
    other = d.hand(1)[0]
    with pytest.raises(BinokelError, match="V7.2: seat 0 does not hold"):
        d.apply(("play", other))
    with pytest.raises(BinokelError, match="V7.3: only the winner of a trick"):
        d.apply(("pass",))
    assert np.array_equal(d.st, before)


def test_a_game_without_a_stock_has_no_stock_tables():
    with pytest.raises(BinokelError, match="no stock"):
        sp.stock_params(GAMES["binokel-48"].kernel)


def _kernel_state(o: b.State) -> np.ndarray:
    """The kernel state of a reference state (to compare positions the random deals reach
    rarely: quints, eights, double binokels, cards shown in several kinds)."""
    st = np.zeros(sp.STATE_LEN, dtype=np.int64)
    st[sp.H0], st[sp.H1] = (sum(1 << c for c in h) for h in o.hands)
    st[sp.TURNED], st[sp.TRUMP] = o.turned, o.trump
    st[sp.LEADER] = o.leader
    st[sp.TABLE] = o.trick[0] if o.trick else -1
    st[sp.TO_MELD] = -1 if o.to_meld is None else o.to_meld
    st[sp.TRICKS] = o.tricks
    st[sp.LAST] = st[sp.WINNER] = st[sp.CLAIMED] = st[sp.LASTWIN] = -1
    st[sp.SSIZE] = len(o.stock)
    for i, c in enumerate(o.stock):
        st[sp.STOCK + i] = c
    for c, k in o.shown.items():
        st[sp.SHOWN + c] = k
    st[sp.DISSLE_DONE] = sum(1 << c for c in o.dissle_done)
    return st


@pytest.mark.parametrize("seed", range(200))
def test_legal_melds_and_values_equal_the_reference_on_meld_rich_hands(seed):
    """V7.3: one meld per choice of eligible copies; a card never twice in one kind; a
    quint's K/Q never in a pair; every pattern's value (pairs, quint 250, fours, eights,
    binokels), on hands of meld cards with random kinds already shown."""
    rng = random.Random(seed)
    meldy = [c for c in range(48) if (c // 2) % 6 in (b.A, b.K, b.Q, b.J)
             or c // 2 in (b.tid(s, b.SEVEN) for s in range(4))]
    hand = set(rng.sample(meldy, 12))
    rest = [c for c in range(48) if c not in hand]
    rng.shuffle(rest)
    turned = rest[0]
    o = b.State(turned=turned, hands=[hand, set(rest[1:13])], stock=rest[13:] + [turned])
    kinds = [b.DISSLE_KIND, b.PAIR, b.QUINT, b.OF_A_KIND, b.BINOKEL]
    for c in hand:
        if rng.random() < 0.4:
            o.shown[c] = sum(k for k in kinds if rng.random() < 0.3)
    o.to_meld, o.last_winner = 0, 0
    d = StockDeal(GAME, _kernel_state(o))
    want = {tuple(sorted(m)): b.pattern_of([c // 2 for c in m], o.trump).value
            for m in b.legal_melds(o)}
    got = {tuple(cards_of(m)): d.meld_value(p) for m, p in d.legal_melds()}
    assert got == want
