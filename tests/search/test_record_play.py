"""Whole simulated deals as records (analyzer.search.record_play.full_record, issue 27):
the auction the simulations' rule-of-thumb bidders call (R3; V1 chains of duels, V2.2
forehand may pass, V6.2 open bidding), the buyer's exchange (R4: discard, trump, going
out, Durch), the play and the score (R7, R8), for every game with an auction.

The reference is the simulations' own per-deal kernels on the same deal and the same play
stream (search.deals.finish_deal after bidding.run_auction; partner_deals.rule_deal_duels
and rule_deal_open): the record's soloist, bid and score must be theirs."""
from __future__ import annotations

import os

import numpy as np
import pytest

from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import (DEFAULT_DABB_ESTIMATE, DEFAULT_PARTNER_ALLOWANCE,
                                        DEFAULT_TRICK_ESTIMATE, DEFAULT_TRICK_VALUE, PASS,
                                        continue_duels, rule_of_thumb_max_bid, run_auction,
                                        threshold_open_auction)
from analyzer.mechanics.cards import N_TYPES, Hand
from analyzer.mechanics.game import R_BID, R_BIDDER, R_SCORE, RES_COLS
from analyzer.mechanics.play import POLICY_HEURISTIC, beat_table
from analyzer.mechanics.record import (DURCH, OPEN_DURCH, OUT, check_deal, format_records,
                                       in_play_seats, parse_records, scoring_unit)
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules, team_spec
from analyzer.mechanics.ruleset import GAMES, get_game
from analyzer.mechanics.sampling import deal_counts, deal_rules, new_deck
from analyzer.search.deals import finish_deal
from analyzer.search.partner_deals import rule_deal_duels, rule_deal_open
from analyzer.search.record_play import full_record, threshold_calls

#: every game with an auction (V7's binokel-2 has none: its RuleSet has a stock)
AUCTION_GAMES = [name for name, g in GAMES.items() if not g.stock.size]
#: deals per game (seeds 0..N-1); the issue's 1,000 per game, measured once:
#: ``BINOKEL_RECORD_DEALS=1000 python -m pytest tests/search/test_record_play.py``
N_DEALS = int(os.environ.get("BINOKEL_RECORD_DEALS", "50"))


def kernel_result(game: str, seed: int):
    """(soloist table seat or None, bid or None, scores per unit) of the simulations'
    kernels on ``binokel play --seed``'s deal, the play from ``chunk_state(seed, 1)``."""
    g = get_game(game)
    flat = get_rules(game)
    if g.table.sides == "partners":
        spec = team_spec(flat)
        hands = np.zeros((5, N_TYPES), dtype=np.uint8)
        deal_counts(chunk_state(seed, 0), spec.deck.copy(), hands, spec.hand_size)
        beat = np.empty(N_TYPES, dtype=np.int64)
        beat_table(spec.tk, beat)
        cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
        res = np.zeros(RES_COLS, dtype=np.int64)
        pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
        if g.auction.form == "open":
            rule_deal_open(hands[:4], DEFAULT_TRICK_VALUE, DEFAULT_PARTNER_ALLOWANCE, pol,
                           chunk_state(seed, 1), spec.tk, beat, cnt, res)
        else:
            rule_deal_duels(hands, DEFAULT_DABB_ESTIMATE, pol, chunk_state(seed, 1), spec.tk,
                            spec.kr, beat, cnt, res)
        b = int(res[R_BIDDER])
        return ((None, None) if b < 0 else (b, int(res[R_BID]))) + \
            ((int(res[R_SCORE]), int(res[R_SCORE + 1])),)
    kr = flat.kernel
    out = np.zeros(4, dtype=np.int64)
    deal_rules(chunk_state(seed, 0), new_deck(flat), kr, out)
    hands = np.array([Hand.from_mask(int(m)).counts for m in out[:3]], dtype=np.uint8)
    tapp = np.array(Hand.from_mask(int(out[3])).counts, dtype=np.uint8)
    maxb = np.array([rule_of_thumb_max_bid(np.int64(m), kr, DEFAULT_TRICK_ESTIMATE)
                     for m in out[:3]], dtype=np.int64)
    sol, bid = (int(x) for x in run_auction(maxb, kr))
    sc = np.zeros(3, dtype=np.int64)
    finish_deal(hands, tapp, sol, bid, POLICY_HEURISTIC, chunk_state(seed, 1), kr, sc)
    seat = None if sol < 0 else in_play_seats(g)[sol]
    return seat, (bid if sol >= 0 else None), tuple(int(x) for x in sc)


@pytest.fixture(scope="module")
def deals():
    return {g: [full_record(g, s) for s in range(N_DEALS)] for g in AUCTION_GAMES}


@pytest.mark.parametrize("game", AUCTION_GAMES)
def test_whole_deals_round_trip_record_parse_format_R3_R4_V1_V6_2(game, deals):
    """Record -> parse -> format is the same text and the same deals (the reader's checks,
    R1-R8 and the auction's R3/V2.2 turn order, pass on every one)."""
    text = format_records(deals[game])
    back = parse_records(text)
    assert back == deals[game]
    assert format_records(back) == text
    assert all(d.auction for d in back)          # every deal holds its auction


@pytest.mark.parametrize("game", AUCTION_GAMES)
def test_whole_deals_score_as_the_simulation_kernels_do_R8(game, deals):
    """The record's soloist, bid and score are the simulations' kernels' for the same
    deal (R3 auction, R4 exchange, R8 score; V4.6/V5.7/V6.6 at a partners' table)."""
    for seed, d in enumerate(deals[game]):
        assert (d.soloist, d.bid, tuple(d.score)) == kernel_result(game, seed), seed


@pytest.mark.parametrize("game", AUCTION_GAMES)
def test_the_auction_makes_the_soloist_at_the_last_bid_R3(game, deals):
    """R3 (V6.2): the last bidder is the soloist at the highest bid; passes are 0."""
    for d in deals[game]:
        bids = [(s, b) for s, b in d.auction if b != PASS]
        if d.soloist is None:
            assert not bids and d.tricks == () and set(d.score) == {0}
        else:
            assert bids[-1] == (d.soloist, d.bid)


def test_threshold_calls_end_where_the_simulation_auction_kernels_end_R3_V1_V2_2_V6_2():
    """The recorded calls of threshold bidders give the kernels' soloist and bid, on random
    maxima: three seats (run_auction: R3 forced opening; V2.2 forehand may pass), four
    seats in a chain of duels (continue_duels, V1) and open bidding (V6.2)."""
    rng = np.random.default_rng(5)
    for game in AUCTION_GAMES:
        g = get_game(game)
        a, n = g.auction, g.table.in_play
        for _ in range(60):
            steps = rng.integers(-3, 12, size=n)
            maxb = np.where(steps < 0, 0, a.opening + a.step * steps).astype(np.int64)
            calls = threshold_calls(maxb, g)
            bids = [(s, c) for s, c in calls if c != PASS]
            got = (bids[-1][0], bids[-1][1]) if bids else (-1, 0)
            out = np.zeros(2, dtype=np.int64)
            if a.form == "open":
                threshold_open_auction(maxb, a.opening, a.step, out)
            elif n == 3:
                out[:] = run_auction(maxb, get_rules(game).kernel)
            else:
                continue_duels(maxb, 0, -1, 0, 1, a.opening, a.step, int(a.forced_opening), out)
            assert got == (int(out[0]), int(out[1])), (game, maxb, calls)


def _first(game, pred, limit=400):
    for s in range(limit):
        d = full_record(game, s)
        if pred(d):
            return d
    raise AssertionError(f"no such deal of {game} in {limit} seeds")


@pytest.mark.parametrize("game", ["grupp-3", "pinochle-80"])
def test_a_deal_nobody_bids_for_is_thrown_in_V2_2_V6_2(game):
    """V2.2 (forehand may pass), V6.2: every seat passes; the record holds the passes, no
    soloist, no card played, 0 for every scoring unit."""
    d = _first(game, lambda d: d.soloist is None)
    assert all(c == PASS for _, c in d.auction)
    assert len(d.auction) == d.rules.table.in_play
    assert d.tricks == () and d.contract is None and set(d.score) == {0}
    assert parse_records(format_records([d])) == [d]


@pytest.mark.parametrize("game", ["binokel-48", "kreuz-40"])
def test_going_out_is_recorded_without_tricks_R4_V4_3(game):
    """R4 (V4.3, V5.4 at a partners' table): the buyer goes out: its discard and the
    contract ``out``, no card played; in a game of three the reader recomputes its score."""
    d = _first(game, lambda d: d.contract == OUT)
    assert d.tricks == () and d.discard is not None and sum(d.discard) == d.rules.dabb.size
    assert d.score[scoring_unit(d, d.soloist)] < 0
    check_deal(d)


@pytest.mark.parametrize("game", ["binokel-48", "kreuz-48"])
def test_the_exchange_discards_from_the_hand_and_the_dabb_R4(game, deals):
    """R4: the buyer's discard has the Dabb's size and comes from its hand and the Dabb;
    the first trick holds none of it (V4.2 at a partners' table)."""
    for d in deals[game]:
        if d.soloist is None or d.contract == OUT:
            continue
        assert sum(d.discard) == d.rules.dabb.size
        h = d.play_hands()[d.soloist]
        assert all(x >= 0 for x in h) and sum(h) == d.rules.table.hand_size


def _durch_chosen(monkeypatch, game, contract):
    """Make the simulated buyer choose a Durch: the simulations' fast exchange plays one
    only when it is sure to win every trick and worth more than playing, which none of
    40,000 binokel-48 deals was; the discard stays the exchange's own."""
    import analyzer.mechanics.exchange as ex
    import analyzer.mechanics.game as gm

    if get_game(game).table.sides == "partners":
        monkeypatch.setattr(gm, "contract_for_bid", lambda *a: contract)
    else:
        real = ex.fast_exchange

        def durch(c18, bid, kr, disc):
            real(c18, bid, kr, disc)          # writes its discard into disc
            return -1, contract

        monkeypatch.setattr(ex, "fast_exchange", durch)


@pytest.mark.parametrize("game, word", [("binokel-48", DURCH), ("kreuz-48", DURCH),
                                        ("grupp-3", OPEN_DURCH), ("kreuz-48", OPEN_DURCH)])
def test_a_durch_is_led_by_the_soloist_and_ends_at_its_first_lost_trick_R4_V2_7_V4_6(
        game, word, monkeypatch):
    """R4 (V2.7 the open Durch, V4.6 at a partners' table): no trump, the soloist leads,
    the play ends with the first trick the soloist does not win; the reader's checks (in
    a game of three it recomputes the Durch's score, R8) pass and the record round-trips."""
    import analyzer.mechanics.exchange as ex

    _durch_chosen(monkeypatch, game, ex.CONTRACT_DURCH if word == DURCH else ex.CONTRACT_OPEN_DURCH)
    for seed in range(6):
        d = full_record(game, seed)
        assert d.contract == word and d.melds is None and d.trump == -1
        assert d.tricks[0][0] == d.soloist
        wins = d.winners()
        made = wins == [d.soloist] * d.rules.table.hand_size
        assert made or (wins[-1] != d.soloist and all(w == d.soloist for w in wins[:-1]))
        assert (d.score[scoring_unit(d, d.soloist)] > 0) == made
        check_deal(d)
        assert parse_records(format_records([d])) == [d]


def test_a_game_without_an_auction_and_an_unknown_policy_are_refused_V7_1():
    stock = next(n for n, g in GAMES.items() if g.stock.size)
    with pytest.raises(BinokelError, match="V7.1"):
        full_record(stock, 1)
    with pytest.raises(BinokelError, match="unknown policy"):
        full_record("kreuz-48", 1, policy="oracle")
