"""``review`` (issue 27): every card decision valued from the player's view (PIMC) and in
hindsight (double dummy), per decision and per seat, biggest loss first."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.analyses.hint import hint, view_from_record
from analyzer.analyses.review import pimc_loss, review, value_series
from analyzer.errors import BinokelError
from analyzer.mechanics.record import hide
from analyzer.search.record_play import play_record

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


def test_the_same_world_loss_is_never_negative_and_the_best_shown_is_pimcs(rv):
    # PIMC's best card is the best mean on all the worlds, so the old same-world loss is
    # >= 0 at every decision; the cross-fitted loss may be negative on one (noise)
    assert all(d.same_world_loss >= -1e-9 for d in rv.decisions)
    d = rv.decisions[0]
    assert d.best in [x.card for x in hint(DEAL.rules, view_from_record(DEAL, d.trick,
                                                                        d.card_no), 2).cards]


def _noise_samples(rng, cards, n):
    """card -> side points per world for cards equal in distribution: a per-world effect
    every card shares (the same worlds, paired) plus independent noise."""
    world = rng.normal(60, 30, size=n)
    return {c: world + rng.normal(0, 20, size=n) for c in cards}


def test_pimc_loss_of_equal_cards_is_zero_on_average_the_same_world_loss_is_not():
    """Pure noise, 4 legal cards of equal worth, 12 worlds a decision: over many
    decisions the cross-fitted loss averages 0 within 2 SE; the same-world loss (the best
    chosen on the worlds it is measured on) is clearly positive: the winner's curse."""
    rng = np.random.default_rng(5)
    cards = (3, 8, 14, 20)
    new, old = [], []
    for _ in range(2000):
        s = _noise_samples(rng, cards, 12)
        best = max(cards, key=lambda c: s[c].mean())
        played = cards[int(rng.integers(4))]
        loss, se, n, same = pimc_loss(s, best, played)
        assert n == 12 and se >= 0
        new.append(loss)
        old.append(same)
    new, old = np.array(new), np.array(old)
    assert abs(new.mean()) < 2 * new.std(ddof=1) / np.sqrt(len(new))
    assert old.mean() > 10 * old.std(ddof=1) / np.sqrt(len(old)) and old.min() >= 0


def test_pimc_loss_finds_a_real_loss_of_the_card_played():
    """Card 14 worth 40 points more than the others: playing 3 loses ~40 (within 3 SE),
    playing 14 loses 0 (the best is 14 on both halves); one world is refused."""
    rng = np.random.default_rng(9)
    s = _noise_samples(rng, (3, 8, 14, 20), 200)
    s[14] = s[14] + 40
    loss, se, n, same = pimc_loss(s, 14, 3)
    assert n == 200 and abs(loss - 40) < 3 * se and same == pytest.approx(
        s[14].mean() - s[3].mean())
    assert pimc_loss(s, 14, 14)[0] == 0.0
    with pytest.raises(BinokelError, match="at least 2"):
        pimc_loss({c: v[:1] for c, v in s.items()}, 14, 3)


def test_a_review_on_one_world_is_refused():
    with pytest.raises(BinokelError, match="at least 2"):
        review(DEAL.rules, DEAL, n_worlds=1)


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


@pytest.fixture(scope="module")
def series():
    return value_series(DEAL.rules, DEAL, n_worlds=3, seed=4)


def test_value_series_has_a_point_per_trick_and_ends_at_the_result(series):
    # one value before each of the 15 tricks and the end (R6); the end is the soloist's
    # card points as the record scores them (R7, the discard included, R4)
    n = DEAL.rules.table.hand_size
    assert [p.trick for p in series] == list(range(1, n + 2))
    assert series[-1].source == "result" and series[-1].se == 0
    assert series[-1].value == DEAL.points[DEAL.in_play.index(DEAL.soloist)]


def test_value_series_is_exact_where_every_hand_is_known_and_pimc_before(series):
    # every hand in the record: double dummy once <= 10 tricks are left; before, PIMC
    # from the soloist's view with n and an SE
    n = DEAL.rules.table.hand_size
    for p in series[:-1]:
        if n - p.trick + 1 <= 10:
            assert p.source == "dd" and p.se == 0 and p.n == 0
        else:
            assert p.source == "pimc" and p.n == 3 and p.se >= 0
    # the last trick's double-dummy value is the result: nothing is left to choose
    assert series[-2].value == series[-1].value


def test_value_series_from_the_soloists_record_alone_is_pimc_and_ends_at_the_result():
    s = value_series(DEAL.rules, hide(DEAL, DEAL.soloist), n_worlds=2, seed=1)
    assert {p.source for p in s[:-1]} == {"pimc"}
    assert s[-1].value == DEAL.points[DEAL.in_play.index(DEAL.soloist)]


def test_value_series_of_a_durch_is_refused():
    durch = play_record("binokel-48", seed=3, soloist=1, trump=None)
    with pytest.raises(BinokelError, match="R4"):
        value_series(durch.rules, durch, n_worlds=2)


def test_review_progress_counts_the_cards_of_the_tricks_reviewed_and_changes_no_number():
    seen = []
    args = dict(n_worlds=2, seed=4, dd_max_tricks=0, from_trick=14)
    with_bar = review(DEAL.rules, DEAL, progress=lambda d, n: seen.append((d, n)), **args)
    assert with_bar == review(DEAL.rules, DEAL, **args)
    assert seen[-1] == (6, 6) and [d for d, _ in seen] == sorted({d for d, _ in seen})


def test_hint_progress_counts_the_worlds_and_changes_no_number():
    seen = []
    view = view_from_record(DEAL, 13, 1)
    shown = hint(DEAL.rules, view, 5, seed=2, progress=lambda d, n: seen.append((d, n)))
    assert shown == hint(DEAL.rules, view, 5, seed=2)
    assert seen == [(k, 5) for k in range(1, 6)]
