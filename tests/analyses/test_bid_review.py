"""``review``'s auction part (issue 27; R3, V1, V2.2, V6.2): every call valued from its
caller's view with the look-ahead's plans, the loss cross-fitted in deal score (R8; at a
partners' table the team's minus the other team's).  A planted pass of a very strong
hand and a planted bid of a weak one show a positive loss; the best call costs about
nothing; the review does not move when the other hands, the Dabb or the later calls
change; a game without an auction (V7.1) says so."""
from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from analyzer.analyses.bid_review import LONE_UNIT, TEAM_UNIT, call_view, review_auction
from analyzer.analyses.review import review
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import PASS
from analyzer.mechanics.cards import Hand, N_TYPES
from analyzer.mechanics.record import (Deal, check_deal, format_records, hide, in_play_seats,
                                       parse_records)
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import GAMES
from analyzer.search.record_play import play_record

SAMPLES = 200


def _auction_record(game: str, hands_text: dict, calls, seed: int = 0) -> Deal:
    """A record of ``game`` before play: the hands of ``hands_text`` (seat -> cards) and
    the rest of the deck dealt at random to the other seats in play and the Dabb; the
    auction ``calls`` ((seat, bid) pairs; PASS = 0).  Checked as a record is (R1-R3)."""
    g = GAMES[game]
    # R1, V5.1, V6.1: each card type in the deck's copies; type 6k + 5 is the low card
    deck = [t for t in range(N_TYPES) for _ in range(g.deck.copies)
            if g.deck.low_card or t % 6 != 5]
    hands = [None] * g.table.seats
    for s, text in hands_text.items():
        c = Hand.parse(text, rules=get_rules(game)).counts_array()
        hands[s] = tuple(int(x) for x in c)
        for t in range(N_TYPES):
            for _ in range(int(c[t])):
                deck.remove(t)
    random.Random(seed).shuffle(deck)
    size = g.table.hand_size
    for s in in_play_seats(g):
        if hands[s] is None:
            part, deck = deck[:size], deck[size:]
            hands[s] = tuple(part.count(t) for t in range(N_TYPES))
    dabb = tuple(deck.count(t) for t in range(N_TYPES)) if g.dabb.size else None
    deal = Deal(rules=g, seats=g.table.seat_names, hands=tuple(hands), dabb=dabb,
                auction=tuple(calls))
    check_deal(deal)
    return deal


STRONG = "AC AC 10C 10C KC KC QC QC JC JC AS AH AD 10S 10H"    # a double family (R5) + aces
MODEST = "9C JC QS 9S JH 9H QD JD 9D KC JS 10H QC KD 9H"    # a Binokel and a marriage, no ace


@pytest.fixture(scope="module")
def strong_pass():
    """binokel-48: middlehand holds a double family and four aces and passes at once."""
    return _auction_record("binokel-48", {1: STRONG}, [(0, 150), (1, PASS), (2, PASS)])


def test_r3_a_strong_hand_that_passes_loses_a_lot_with_its_se(strong_pass):
    calls, note = review_auction(strong_pass, SAMPLES, seed=1)
    c = next(c for c in calls if c.seat == 1)
    assert c.call == PASS and c.best == 160 and c.best_limit >= 300
    assert c.loss > 100 and c.loss > 4 * c.loss_se > 0 and c.n >= SAMPLES
    assert c.unit == LONE_UNIT
    # R3: forehand's 150 is forced, no decision
    assert all(x.call_no != 1 for x in calls) and "forced opening" in note


def test_r3_the_same_strong_hand_bidding_on_costs_about_nothing():
    d = _auction_record("binokel-48", {1: STRONG}, [(0, 150), (1, 160)])
    (c,) = [c for c in review_auction(d, SAMPLES, seed=1)[0] if c.seat == 1]
    assert c.call == 160 and c.best == 160
    assert abs(c.loss) <= 3 * c.loss_se + 1e-9


def test_r3_a_modest_hand_that_bids_on_to_300_loses_with_its_se():
    # middlehand raises in steps against forehand up to 300 (R3: each raise one step)
    calls = [(0, 150)] + [(1 if k % 20 == 0 else 0, k) for k in range(160, 310, 10)]
    d = _auction_record("binokel-48", {1: MODEST}, calls)
    c = review_auction(d, SAMPLES, seed=2, seats={1})[0][-1]
    assert c.call == 300 and c.best == PASS and c.best_limit is None
    assert c.loss > 2 * c.loss_se > 0


def test_the_review_of_a_call_uses_only_the_callers_hand_and_the_calls_before(strong_pass):
    """Honesty: the other hands and the Dabb dealt anew, and the calls after it changed,
    give the same review of the call (same seed)."""
    base = [c for c in review_auction(strong_pass, 60, seed=3, seats={1})[0]]
    other = _auction_record("binokel-48", {1: STRONG}, [(0, 150), (1, PASS), (2, 160)],
                            seed=99)
    assert other.hands[0] != strong_pass.hands[0] and other.dabb != strong_pass.dabb
    again = [c for c in review_auction(other, 60, seed=3, seats={1})[0]]
    assert base == again and len(base) == 1
    seat, hand, before = call_view(strong_pass, 1)
    assert seat == 1 and hand == strong_pass.hands[1] and before == (150,)
    # a record from seat 1's view alone reviews only seat 1's calls
    mine = review_auction(hide(strong_pass, 1), 60, seed=3)
    assert mine[0] == tuple(base) and "hidden" in mine[1]


def test_review_auction_of_a_record_without_one_says_so():
    deal = play_record("binokel-48", seed=3, soloist=1, trump=2)
    assert review_auction(deal) == ((), "not reviewed: the record has no auction (R3)")


def test_v7_1_a_game_without_an_auction_says_so_in_its_note():
    deal = replace(play_record("binokel-48", seed=3, soloist=1, trump=2),
                   rules=GAMES["binokel-2"])
    calls, note = review_auction(deal)
    assert calls == () and "no auction" in note and "V7.1" in note


def test_v1_a_kreuz48_auction_is_reviewed_in_the_teams_score():
    # V1: seat 0 against seat 1, the survivor against seat 2, then seat 3
    calls = [(0, 150), (1, 160), (0, PASS), (2, 170), (1, PASS), (3, 180), (2, PASS)]
    d = _auction_record("kreuz-48", {}, calls, seed=4)
    got, note = review_auction(d, 100, seed=1)
    assert [c.call_no for c in got] == list(range(1, 8)) and note == ""
    assert all(c.unit == TEAM_UNIT and c.n >= 100 and np.isfinite(c.loss_se) for c in got)
    assert [(c.seat, c.call) for c in got] == calls


def test_v1_a_call_out_of_turn_at_a_partners_table_is_one_line():
    # the record reader leaves the four seats' order to the auction (V1: 0-1, then 2, 3)
    d = _auction_record("kreuz-48", {}, [(0, 150), (1, 160), (0, PASS)], seed=4)
    bad = replace(d, auction=((0, 150), (2, 160), (0, PASS)))
    with pytest.raises(BinokelError, match=r"call 2 is seat 1's turn, not seat 2's \(V1\)"):
        review_auction(bad, 20)


def test_v6_2_a_pinochle_auction_is_reviewed_and_a_wild_jump_costs():
    d = _auction_record("pinochle-80", {}, [(0, 500), (1, PASS), (2, PASS), (3, 900)], seed=5)
    calls, _ = review_auction(d, 100, seed=1)
    assert [c.seat for c in calls] == [0, 1, 2, 3] and calls[0].unit == TEAM_UNIT
    jump = calls[3]
    # V6.2: a jump to 900 pays at least 900 wherever seat 3 buys: far beyond its plan
    assert jump.call == 900 and jump.loss > 2 * jump.loss_se > 0


def test_review_holds_the_auction_and_its_per_seat_column(strong_pass):
    rv = review(strong_pass.rules, strong_pass, 2, auction_samples=40, seed=1)
    assert rv.auction_samples == 40 and [c.seat for c in rv.calls] == [1, 2]
    ps = rv.per_seat()
    assert ps[1]["auction_calls"] == 1 and ps[1]["auction_loss"] == round(rv.calls[0].loss, 3)
    assert 0 not in ps          # forehand made the forced opening only (R3): nothing to sum
    d = rv.to_dict()
    assert d["auction"][0]["call"] == "pass" and d["auction"][0]["unit"] == LONE_UNIT
    off = review(strong_pass.rules, strong_pass, 2, auction_samples=0)
    assert off.calls == () and "--no-auction" in off.auction_note
    late = review(strong_pass.rules, strong_pass, 2, from_trick=2, auction_samples=40)
    assert late.calls == () and "precedes trick 1" in late.auction_note


def test_the_same_seed_gives_the_same_auction_review(strong_pass):
    a = review_auction(strong_pass, 40, seed=7)
    assert a == review_auction(strong_pass, 40, seed=7)


def test_bid_samples_outside_the_bound_are_one_line(strong_pass):
    with pytest.raises(BinokelError, match="at least 2"):
        review_auction(strong_pass, 1)
    with pytest.raises(BinokelError, match="--bid-samples must be at most 10,000"):
        review_auction(strong_pass, 10_001)


def test_records_with_an_auction_round_trip_for_the_review(strong_pass):
    text = format_records([strong_pass])
    assert "Auction 0:150 1:pass 2:pass" in text
    assert parse_records(text)[0].auction == strong_pass.auction


@pytest.mark.parametrize("game", [n for n, g in GAMES.items() if g.auction.form != "none"])
def test_every_game_with_an_auction_reviews_each_call_but_a_forced_opening(game):
    # R3, V1, V2.2, V5.2, V6.2: the opening bid, then every other seat in play passes
    g = GAMES[game]
    seats = in_play_seats(g)
    calls = [(seats[0], g.auction.opening)] + [(s, PASS) for s in seats[1:]]
    got, note = review_auction(_auction_record(game, {}, calls, seed=6), 30, seed=1)
    first = 1 if g.auction.forced_opening else 0
    assert [(c.seat, c.call) for c in got] == calls[first:]
    assert ("forced opening" in note) == bool(g.auction.forced_opening)
    assert all(c.n >= 30 and c.loss_se >= 0 and c.options >= 2 for c in got)


def test_a_call_no_sampled_deal_fits_is_skipped_and_named_in_the_note(strong_pass, monkeypatch):
    # R3 inference: when every sampled deal has weight 0 there is nothing to value
    import analyzer.analyses.bid_review as br

    real = br.simulate_lookahead

    def unfit(*args, **kw):
        res = real(*args, **kw)
        res["weight"] = np.zeros_like(res["weight"])
        return res

    monkeypatch.setattr(br, "simulate_lookahead", unfit)
    calls, note = review_auction(strong_pass, 30, seed=1)
    assert calls == () and "call(s) 2, 3 not reviewed: no sampled deal fits" in note
