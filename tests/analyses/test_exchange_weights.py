"""``binokel hint --exchange`` and the review's exchange weighted by the auction (R3, R4;
issue 27): each world of the hidden hands before play weighs the likelihood of the other
seats' calls given their hands in it (analyzer.analyses.hint_auction.world_weights)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from analyzer.analyses.exchange_hint import (exchange_hint, exchange_view_from_record,
                                             exchange_world_weights, exchange_worlds,
                                             option_scores, weigh_rows)
from analyzer.analyses.review import review_exchange
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.exchange import candidate_outcomes
from analyzer.mechanics.play import POLICY_HEURISTIC, play_out
from analyzer.mechanics.record import check_deal, in_play_seats
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from analyzer.search.record_play import full_record

W = 40


@pytest.fixture(scope="module")
def deals():
    """Whole deals with their auction, as `binokel play --seed N --record F` writes them."""
    return {g: full_record(g, seed=s) for g, s in (("binokel-48", 3), ("kreuz-48", 4))}


def _view(deal):
    cards, bid, seat = exchange_view_from_record(deal)
    return cards, bid, seat


@pytest.mark.parametrize("game", ["binokel-48", "kreuz-48"])
def test_without_the_auction_the_numbers_are_the_uniform_worlds_bit_for_bit_R3(deals, game):
    deal = deals[game]
    assert deal.auction
    cards, bid, seat = _view(deal)
    plain = exchange_hint(deal.rules, cards, bid, seat, 2, W, 1)
    assert plain.ess is None and plain.dropped == 0
    assert exchange_hint(deal.rules, cards, bid, seat, 2, W, 1, deal.auction, False) == plain
    assert exchange_hint(deal.rules, cards, bid, seat, 2, W, 1, None, None) == plain
    assert plain.to_dict()["auction_weights"] is False
    # keeping the worlds' hands changes no number (both kernels)
    rows, _ = option_scores(deal.rules, cards, bid, seat, 2, W, 1)
    got = {}
    rows2, _ = option_scores(deal.rules, cards, bid, seat, 2, W, 1, None, got)
    assert [r[:3] for r in rows] == [r[:3] for r in rows2]
    assert all(np.array_equal(a[3], b[3]) for a, b in zip(rows, rows2))
    assert got["hands"].shape == (W, deal.rules.table.seats, N_TYPES)


@pytest.mark.parametrize("game", ["binokel-48", "kreuz-48"])
def test_the_worlds_hands_are_the_unseen_cards_dealt_R1_R4(deals, game):
    deal = deals[game]
    cards, bid, seat = _view(deal)
    got = {}
    option_scores(deal.rules, cards, bid, seat, 1, W, 2, None, got)
    flat = get_rules(deal.rules.name)
    copies = np.asarray(flat.kernel.copies, dtype=np.int64)
    sol = got["soloist"]
    assert sol == deal.soloist
    h = got["hands"]
    assert (h[:, sol] == np.asarray(cards)).all()
    others = [p for p in in_play_seats(deal.rules) if p != sol]
    assert (h[:, others].sum(axis=1) == copies - np.asarray(cards)).all()     # R1
    sizes = {int(x) for x in h[:, others].sum(axis=2).ravel()}
    assert sizes <= {deal.rules.table.hand_size, deal.rules.table.hand_size + 1}


def test_the_replayed_worlds_are_the_kernels_worlds_R6(deals):
    """exchange_worlds deals what candidate_outcomes dealt: each world's play-out, replayed
    from its hands and play stream, takes the kernel's tricks."""
    deal = deals["binokel-48"]
    cards, _bid, sol = _view(deal)
    kr = get_rules(deal.rules.name).kernel
    counts = np.asarray(cards, dtype=np.uint8)
    disc = np.array([[t for t in range(N_TYPES) for _ in range(deal.discard[t])]],
                    dtype=np.int64)
    trump = np.array([deal.trump], dtype=np.int64)
    total = np.empty((1, W), dtype=np.int64)
    tricks = np.empty((1, W), dtype=np.int64)
    candidate_outcomes(counts, sol, disc, trump, 1, W, chunk_state(9, 0), kr, total, tricks)
    hands = np.zeros((W, 3, N_TYPES), dtype=np.uint8)
    streams = np.zeros((W, 4), dtype=np.uint64)
    exchange_worlds(counts, sol, W, chunk_state(9, 0), kr, hands, streams)
    pts = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    for i in range(W):
        h = hands[i].copy()
        for t in disc[0]:
            h[sol, t] -= 1
        play_out(h, int(trump[0]), 0, sol, POLICY_HEURISTIC, streams[i].copy(), kr, pts, trk)
        assert trk[sol] == tricks[0, i]
    assert len(set(tricks[0].tolist())) > 1      # the worlds differ: the check has teeth


@pytest.mark.parametrize("game", ["binokel-48", "kreuz-48"])
def test_a_weighted_value_is_the_plain_weighted_mean_of_the_worlds_R3(deals, game):
    deal = deals[game]
    cards, bid, seat = _view(deal)
    h = exchange_hint(deal.rules, cards, bid, seat, 2, W, 1, deal.auction)
    got = {}
    rows, _ = option_scores(deal.rules, cards, bid, seat, 2, W, 1, None, got)
    w = [float(x) for x in exchange_world_weights(deal.rules, deal.auction, got["soloist"],
                                                  got["hands"])]
    keep = [i for i in range(W) if w[i] > 0]
    assert h.dropped == W - len(keep) and h.options[0].n == len(keep)
    sw = sum(w[i] for i in keep)
    ess = sw * sw / sum(w[i] ** 2 for i in keep)
    assert h.ess == pytest.approx(ess) and h.ess < len(keep)     # the calls tell worlds apart
    by_key = {r[:3]: r[3] for r in rows}
    best = by_key[(h.options[0].kind, h.options[0].discard, h.options[0].trump)]
    means = {}
    for o in h.options:
        s = by_key[(o.kind, o.discard, o.trump)]
        m = sum(w[i] * s[i] for i in keep) / sw
        var = sum(w[i] * (s[i] - m) ** 2 for i in keep) / sw
        assert o.mean == pytest.approx(m, abs=1e-9)
        assert o.se == pytest.approx((var / max(ess - 1, 1)) ** 0.5, abs=1e-9)
        d = [s[i] - best[i] for i in keep]
        dm = sum(w[i] * x for i, x in zip(keep, d)) / sw
        dvar = sum(w[i] * (x - dm) ** 2 for i, x in zip(keep, d)) / sw
        assert o.diff == pytest.approx(dm, abs=1e-9)
        assert o.diff_se == pytest.approx((dvar / max(ess - 1, 1)) ** 0.5, abs=1e-9)
        assert o.ess == pytest.approx(ess)
        means[o] = m
    assert max(means, key=means.get) == h.options[0]        # the best: the weighted argmax


def _other_hands(deal, k):
    """``deal`` with the hands of the seats other than the soloist dealt anew from their
    pooled cards (the auction, the soloist's hand, the Dabb and the bid unchanged)."""
    import random

    others = [s for s in in_play_seats(deal.rules) if s != deal.soloist]
    pool = [t for s in others for t in range(N_TYPES) for _ in range(deal.hands[s][t])]
    random.Random(k).shuffle(pool)
    hands = list(deal.hands)
    at = 0
    for s in others:
        n = sum(deal.hands[s])
        hands[s] = tuple(int(x) for x in np.bincount(pool[at:at + n], minlength=N_TYPES))
        at += n
    return replace(deal, hands=tuple(hands), tricks=(), points=None, won=None, score=None,
                   melds=None)


@pytest.mark.parametrize("game", ["binokel-48", "kreuz-48"])
def test_honesty_the_other_hands_do_not_move_the_weighted_hint_R3_R4(deals, game):
    deal = deals[game]
    h0 = exchange_hint(deal.rules, *_view(deal), 2, 16, 0, deal.auction)
    assert h0.ess is not None
    other = _other_hands(deal, 1)
    check_deal(other)
    assert other.hands != deal.hands
    assert exchange_hint(other.rules, *_view(other), 2, 16, 0, other.auction) == h0


def test_the_reviews_exchange_is_weighted_and_cross_fitted_R3_R4(deals):
    from analyzer.analyses.stats import cross_fit_loss
    from analyzer.analyses.review import _exchange_played

    deal = deals["binokel-48"]
    x = review_exchange(deal.rules, deal, W, 5)
    assert x.ess is not None and x.ess < x.n
    u = review_exchange(deal.rules, deal, W, 5, auction_weights=False)
    assert u.ess is None and u.n == W
    cards, bid, seat = _view(deal)
    got = {}
    rows, j = option_scores(deal.rules, cards, bid, seat, 5, W, 5, _exchange_played(deal), got)
    rows, wts, ess, dropped = weigh_rows(deal.rules, deal.auction, got, rows)
    loss, se, n = cross_fit_loss(np.column_stack([r[3] for r in rows]), j, wts)
    assert (x.loss, x.loss_se, x.n, x.dropped) == (loss, se, n, dropped)
    assert x.to_dict()["effective_n"] == round(ess, 1)
    assert review_exchange(deal.rules, _other_hands(deal, 2), W, 5) == x     # honesty


def test_no_world_explains_the_calls_is_one_line(deals):
    deal = deals["binokel-48"]
    cards, bid, seat = _view(deal)
    got = {}
    rows, _ = option_scores(deal.rules, cards, bid, seat, 1, 4, 0, None, got)
    got["hands"][:, [p for p in range(3) if p != seat]] = 0    # no hand could call so
    got["hands"][:, seat] = np.asarray(cards)
    got["hands"][:, (seat + 1) % 3, 0] = -5                     # no deal is like this
    got["hands"][:, (seat + 2) % 3, 0] = -5
    with pytest.raises(BinokelError, match="none of the 4 worlds explains the auction"):
        weigh_rows(deal.rules, deal.auction, got, rows)
