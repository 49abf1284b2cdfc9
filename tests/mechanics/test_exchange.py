"""Tests of the soloist's exchange (R4): fast evaluator, Durch check, contract choice,
and that the decision never receives the opponents' hidden cards."""
from __future__ import annotations

import inspect
import itertools
import math

import numpy as np
import pytest

from analyzer import DEFAULT_RULES, Hand, melds
from analyzer.mechanics.cards import N_TYPES, mask_to_counts
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_PLAY, CONTRACT_SURRENDER, EST_SIGMA,
                               EST_WEIGHTS, N_FEATURES, durch_losers,
                               estimate_features, exchange_shortlist, expected_play_score,
                               fast_exchange)
from analyzer.mechanics.rng import make_state
from analyzer.mechanics.sampling import deal_random, new_deck

KR = DEFAULT_RULES.kernel
PTS = (11, 10, 4, 3, 2, 0)


def random_18(n, seed):
    """n random hand+Tapp count vectors (uint8[24]) from uniform deals (R2)."""
    st = make_state(np.random.SeedSequence(seed))
    deck = new_deck()
    out = np.empty(4, dtype=np.int64)
    res = []
    for _ in range(n):
        deal_random(st, deck, out)
        res.append(mask_to_counts(out[0]) + mask_to_counts(out[3]))
    return res


# ---- plain-Python reference of the fast evaluator -------------------------------------

def ref_features(counts, trump):
    """Features of exchange.FEATURE_NAMES written out plainly."""
    def c(s, r):
        return int(counts[s * 6 + r])
    nT = sum(c(trump, r) for r in range(6))
    side = [s for s in range(4) if s != trump]
    side_a = sum(c(s, 0) for s in side)
    tg = sum(min(c(s, 1), c(s, 0)) for s in side)
    tu = sum(c(s, 1) for s in side) - tg
    kqj_pts = sum(c(s, r) * PTS[r] for s in side for r in (2, 3, 4))
    lens = [sum(c(s, r) for r in range(6)) for s in side]
    return [1, nT, c(trump, 0), c(trump, 1), sum(c(trump, r) for r in (2, 3, 4)), side_a, tg,
            tu, kqj_pts, lens.count(0), lens.count(1), nT * nT]


def ref_values(counts18):
    """{(sorted discard types, trump): value} by brute force over all 3-card discards."""
    cards = [t for t in range(N_TYPES) for _ in range(int(counts18[t]))]
    vals = {}
    for combo in itertools.combinations(range(len(cards)), 3):
        disc = tuple(sorted(cards[i] for i in combo))
        kept = list(counts18)
        for t in disc:
            kept[t] -= 1
        hand = Hand(tuple(int(x) for x in kept))
        for trump in range(4):
            v = (melds(hand, "CSHD"[trump]).total + sum(PTS[t % 6] for t in disc)
                 + float(np.dot(EST_WEIGHTS, ref_features(kept, trump))))
            vals[(disc, trump)] = v
    return vals


def ref_durch_losers(kept, seen):
    n = 0
    for t in range(N_TYPES):
        s, r = divmod(t, 6)
        if kept[t] and any(seen[s * 6 + h] < 2 for h in range(r)):
            n += int(kept[t])
    return n


# ---- kernels vs reference -------------------------------------------------------------

def test_features_match_reference():
    f = np.empty(N_FEATURES, dtype=np.float64)
    for counts in random_18(200, 11):
        for trump in range(4):
            estimate_features(counts, trump, KR, f)
            assert list(f) == ref_features(counts, trump)


def test_shortlist_matches_brute_force_R4_R5():
    """R4/R5: the enumerated top discard per trump has the brute-force best value, and
    every listed (discard, trump) has exactly its brute-force value."""
    K = 3
    disc = np.empty((4 * K, 3), dtype=np.int64)
    tr = np.empty(4 * K, dtype=np.int64)
    val = np.empty(4 * K, dtype=np.float64)
    dd = np.empty(3, dtype=np.int64)
    for counts in random_18(12, 5):
        ref = ref_values(counts)
        losers = exchange_shortlist(counts, KR, EST_WEIGHTS, K, disc, tr, val, dd)
        for trump in range(4):
            best_ref = sorted((v for (d, t), v in ref.items() if t == trump), reverse=True)
            got = val[trump * K:(trump + 1) * K]
            assert np.allclose(got, best_ref[:K])
            for i in range(K):
                key = (tuple(sorted(disc[trump * K + i])), trump)
                assert ref[key] == pytest.approx(val[trump * K + i])
        # Durch: fewest losers over all discards
        cards = [t for t in range(N_TYPES) for _ in range(int(counts[t]))]
        best = min(
            ref_durch_losers([counts[t] - sum(1 for i in c if cards[i] == t) for t in range(24)],
                             counts)
            for c in itertools.combinations(range(18), 3))
        assert losers == best


def test_durch_losers_examples_R4_R6():
    """R4/R6: without trump a kept card is safe iff all higher cards of its suit are seen."""
    seen = Hand.parse("AS AS 10S 10S KS AC AC 10C AH AH AD AD 10D 10D KD KD QD 9H").counts_array()
    kept = Hand.parse("AS AS 10S 10S KS AC AC 10C AH AH AD AD 10D 10D KD").counts_array()
    # KS: both A and both 10 seen -> safe; 10C: AC both seen -> safe
    assert durch_losers(kept, seen) == 0
    kept2 = Hand.parse("AS AS 10S 10S KS AC AC 10C AH AH AD AD 10D 10D QD").counts_array()
    assert durch_losers(kept2, seen) == 0  # QD: A, 10, K of diamonds all seen twice
    seen3 = Hand.parse("AS 10S").counts_array()
    assert durch_losers(Hand.parse("10S").counts_array(), seen3) == 1


# ---- contract decisions ---------------------------------------------------------------

def _decide(hand18, bid):
    counts = Hand.parse(hand18, size=18).counts_array()
    d = np.full(3, -1, dtype=np.int64)
    trump, contract = fast_exchange(counts, bid, KR, d)
    kept = counts.copy()
    for t in d:
        assert kept[t] > 0, "discarded a card the soloist does not hold"
        kept[t] -= 1
    assert kept.sum() == 15
    return trump, contract, d, counts


def test_fast_exchange_sure_durch_R4():
    """R4: a hand that wins every trick without trump is played as Durch (trump -1)."""
    trump, contract, d, _ = _decide(
        "AS AS 10S 10S KS KS QS AC AC 10C 10C KC AH AH 10H 9D 9D JD", 300)
    assert contract == CONTRACT_DURCH and trump == -1
    assert sorted(d) == [22, 23, 23]  # the three diamonds go
    # with eight aces (1000 meld) playing a trump contract is worth more than Durch
    trump, contract, d, _ = _decide(
        "AS AS 10S 10S KS AC AC 10C AH AH AD AD 10D 10D KD KD QD 9H", 300)
    assert contract == CONTRACT_PLAY


def test_fast_exchange_strong_hand_plays_R4():
    trump, contract, d, counts = _decide(
        "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD 10S AH 9D", 150)
    assert contract == CONTRACT_PLAY
    assert trump == 1  # spades: trump family and the long suit
    # the spade family and the binokel survive the discard
    kept = counts.copy()
    for t in d:
        kept[t] -= 1
    assert melds(Hand(tuple(int(x) for x in kept)), "S").total >= 150 + 40


def test_fast_exchange_weak_hand_surrenders_at_high_bid_R4():
    """R4/R8: a hopeless hand at a high bid gives up (-bid beats -2 x bid)."""
    trump, contract, d, _ = _decide(
        "9S 9S JS 9H 9H JH JC 9C 9C JC QD 9D 9D KH 10C JD JS QC", 300)
    assert contract == CONTRACT_SURRENDER
    assert 0 <= trump <= 3


def test_expected_play_score_limits():
    assert expected_play_score(400.0, 200.0, 0.0, 2.0) == pytest.approx(400.0)
    assert expected_play_score(100.0, 200.0, 0.0, 2.0) == pytest.approx(-400.0)
    mid = expected_play_score(200.0, 200.0, EST_SIGMA, 2.0)
    assert -400.0 < mid < 200.0 + EST_SIGMA


def test_fast_exchange_inputs_hold_no_hidden_cards_R4():
    """R4 (structural): the exchange's only card input is the soloist's 18 cards."""
    params = list(inspect.signature(fast_exchange.py_func).parameters)
    assert params == ["counts18", "bid", "kr", "discard_out"]
    params = list(inspect.signature(exchange_shortlist.py_func).parameters)
    assert params[0] == "counts18" and "hands" not in params


def test_fast_exchange_is_deterministic_and_leaves_input():
    for counts in random_18(50, 9):
        before = counts.copy()
        d1 = np.empty(3, dtype=np.int64)
        d2 = np.empty(3, dtype=np.int64)
        r1 = fast_exchange(counts, 200, KR, d1)
        r2 = fast_exchange(counts, 200, KR, d2)
        assert r1 == r2 and list(d1) == list(d2)
        assert np.array_equal(before, counts)


def test_fit_weights_recovers_documented_fit_roughly_R7():
    """The estimate's weights come from fit_weights (documented); a small refit lands near
    them: the trump-ace and side-ace weights are positive and the residual s.d. is sane."""
    from analyzer.mechanics.exchange import fit_weights
    w, sd, r2 = fit_weights(n=1000, seed=3)
    assert w.shape == (N_FEATURES,) and np.all(np.isfinite(w))
    assert w[2] > 0 and w[5] > 0          # trump aces, side aces
    assert 10 < sd < 40 and 0.3 < r2 < 0.9
