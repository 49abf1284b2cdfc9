"""``review`` (issue 27): every card decision valued from the player's view (PIMC) and in
hindsight (double dummy), per decision and per seat, biggest loss first."""
from __future__ import annotations

import pytest

from analyzer.analyses.hint import hint, view_from_record
from analyzer.analyses.review import review
from analyzer.mechanics.record import hide
from analyzer.mechanics.record_play import play_record

DEAL = play_record("binokel-48", seed=3, soloist=1, trump=2)


@pytest.fixture(scope="module")
def rv():
    return review(DEAL.rules, DEAL, n_worlds=12, seed=4)


def test_review_lists_every_decision_biggest_loss_first(rv):
    losses = [d.loss for d in rv.decisions]
    assert losses == sorted(losses, reverse=True)
    # R6: a card is a decision where another card was legal; 15 tricks x 3 cards in all
    assert 0 < len(rv.decisions) < 45
    assert all(d.n == 12 for d in rv.decisions)


def test_review_per_seat_sums_its_decisions(rv):
    per = rv.per_seat()
    for s, v in per.items():
        mine = [d for d in rv.decisions if d.seat == s]
        assert v["decisions"] == len(mine)
        assert v["loss"] == pytest.approx(sum(d.loss for d in mine), abs=1e-3)
        assert v["dd_loss"] == sum(d.dd_loss for d in mine if d.dd_loss is not None)


def test_hindsight_loss_is_the_exact_value_given_up(rv):
    for d in rv.decisions:
        if d.dd_loss is None:
            continue
        h = hint(DEAL.rules, view_from_record(DEAL, d.trick, d.card_no), 2)
        dd = {x.card: x.dd for x in h.cards}
        assert d.dd_loss == max(dd.values()) - dd[d.played] >= 0


def test_a_record_from_one_seat_reviews_only_that_seats_decisions():
    one = review(DEAL.rules, hide(DEAL, 2), n_worlds=6)
    assert one.decisions and {d.seat for d in one.decisions} == {2}
    assert all(d.dd_loss is None for d in one.decisions)
