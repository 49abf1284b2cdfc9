"""``review``'s exchange decision (issue 27, R4): the soloist's discard, trump, going out and
Durch valued from its view as ``hint --exchange`` values them, cross-fitted; a planted
mistake shows a positive loss, the best option about none, and the review does not move
when the defenders' hands are replaced by others the soloist cannot tell apart."""
from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from analyzer.analyses.exchange_hint import exchange_view_from_record, option_scores
from analyzer.analyses.review import review, review_exchange
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, SUIT_LETTERS
from analyzer.mechanics.record import check_deal, in_play_seats
from analyzer.search.record_play import play_record

WORLDS = 120


def _before_play(deal, contract, discard):
    """The record up to the exchange: ``contract`` and ``discard`` (counts) written in, no
    tricks yet (a valid record, R4)."""
    d = replace(deal, contract=contract, discard=tuple(discard), tricks=(), points=None,
                won=None, score=None)
    check_deal(d)
    return d


def _counts(types):
    c = [0] * N_TYPES
    for t in types:
        c[t] += 1
    return c


@pytest.fixture(scope="module")
def best_record():
    """A binokel-48 deal whose record shows the best option of the exchange (by the mean
    over other worlds than the review's), and that option."""
    deal = play_record("binokel-48", seed=11, soloist=0, trump=0)
    cards, bid, seat = exchange_view_from_record(deal)
    rows, _ = option_scores(deal.rules, cards, bid, seat, worlds=400, seed=77)
    kind, disc, trump, _ = max((r for r in rows if r[0] == "play"), key=lambda r: r[3].mean())
    return _before_play(deal, SUIT_LETTERS[trump], _counts(disc)), cards, disc, trump


def test_r4_the_best_exchange_costs_about_nothing(best_record):
    deal = best_record[0]
    x = review_exchange(deal.rules, deal, WORLDS, seed=5)
    assert x.n == WORLDS and x.options >= 4
    assert x.loss < 3 * x.loss_se + 1.0


def test_r4_a_planted_going_out_shows_a_positive_loss(best_record):
    deal, cards, disc, trump = best_record
    base = review_exchange(deal.rules, deal, WORLDS, seed=5)
    out = _before_play(deal, "out", _counts(disc))
    x = review_exchange(out.rules, out, WORLDS, seed=5)
    assert x.played == "go out" and x.loss > 3 * x.loss_se and x.loss > base.loss


def test_r4_a_planted_trump_of_the_shortest_suit_shows_a_positive_loss(best_record):
    deal, cards, disc, trump = best_record
    left = np.array(cards) - np.array(_counts(disc))
    per_suit = [int(left[s * 6:(s + 1) * 6].sum()) for s in range(4)]
    short = min(range(4), key=lambda s: (per_suit[s], s))
    assert short != trump
    bad = _before_play(deal, SUIT_LETTERS[short], _counts(disc))
    x = review_exchange(bad.rules, bad, WORLDS, seed=5)
    assert x.played.startswith(f"{SUIT_LETTERS[short]} discard")
    assert x.loss > 3 * x.loss_se and x.loss > 0


def test_r4_a_planted_durch_of_a_weak_hand_loses_and_is_in_the_seat_totals(best_record):
    deal, cards, disc, trump = best_record
    bad = _before_play(deal, "durch", _counts(disc))
    rv = review(bad.rules, bad, n_worlds=4, exchange_worlds=WORLDS, seed=5)
    assert rv.exchange.played.startswith("durch") and rv.exchange.loss > 3 * rv.exchange.loss_se
    seat = rv.per_seat()[bad.soloist]
    assert seat["exchange_loss"] == round(rv.exchange.loss, 3) and seat["decisions"] == 0
    d = rv.to_dict()
    assert d["exchange"]["played"] == rv.exchange.played and d["exchange_note"] == ""


def test_the_exchange_review_does_not_change_when_the_defenders_hands_are_swapped(best_record):
    """Honesty: the soloist sees its hand, the Dabb and the bid; any deal of the defenders'
    cards consistent with that gives the same review of its exchange."""
    deal = best_record[0]
    seats = [s for s in in_play_seats(deal.rules) if s != deal.soloist]
    pool = [t for s in seats for t in range(N_TYPES) for _ in range(deal.hands[s][t])]
    x0 = review(deal.rules, deal, n_worlds=4, exchange_worlds=WORLDS, seed=9).to_dict()
    for k in range(3):
        random.Random(k).shuffle(pool)
        hands = list(deal.hands)
        n0 = sum(deal.hands[seats[0]])
        hands[seats[0]] = tuple(_counts(pool[:n0]))
        hands[seats[1]] = tuple(_counts(pool[n0:]))
        other = replace(deal, hands=tuple(hands))
        check_deal(other)
        assert other.hands != deal.hands or k
        x = review(other.rules, other, n_worlds=4, exchange_worlds=WORLDS, seed=9).to_dict()
        assert x["exchange"] == x0["exchange"]


def test_a_game_without_a_dabb_says_so():
    deal = play_record("pinochle-80", seed=1, soloist=1, trump=0)
    deal = replace(deal, tricks=(), points=None, won=None, score=None)
    rv = review(deal.rules, deal, n_worlds=2)
    assert rv.exchange is None and "no Dabb" in rv.exchange_note and "R4" in rv.exchange_note
    with pytest.raises(BinokelError, match="no Dabb"):
        review_exchange(deal.rules, deal)


def test_the_exchange_is_not_reviewed_from_a_later_trick_or_for_other_seats(best_record):
    deal = play_record("binokel-48", seed=11, soloist=0, trump=0)
    rv = review(deal.rules, deal, n_worlds=2, from_trick=15)
    assert rv.exchange is None and "--from-trick" in rv.exchange_note
    rv = review(deal.rules, deal, n_worlds=2, from_trick=15, seats={1})
    assert rv.exchange is None and "soloist's seat is not among" in rv.exchange_note
