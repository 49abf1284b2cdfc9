"""The auction (R3, V1, V2.2, V6.2): validation of both auction forms, threshold bidders, the
kernel runners vs Python references."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import DEFAULT_RULES, BinokelError, Hand, melds
from analyzer.mechanics.bidding import (PASS, auction_continue, check_turn, continue_duels,
                                        evidence_likelihood, max_bid_of_value, parse_auction,
                                        parse_seat, rule_of_thumb_bid, rule_of_thumb_by_tricks,
                                        rule_of_thumb_max_bid, run_auction, simulate_auction,
                                        threshold_open_auction, validate_auction)
from analyzer.mechanics.cards import SUITS
from analyzer.mechanics.rules import PINOCHLE_80, get_rules, team_kernel
from analyzer.mechanics.rng import make_state
from analyzer.mechanics.sampling import deal_random, new_deck
from tests.oracle import pinochle as ref80
from tests.oracle import teams as ref_teams

KR = DEFAULT_RULES.kernel
PIN80 = PINOCHLE_80
K48 = get_rules("kreuz-48")     # a chain of duels for four, forehand may pass (V4.2)
K40 = get_rules("kreuz-40")     # a chain of duels for four, forced opening (V5.2)


def reference_auction(max_bids):
    """R3 written out turn by turn, the slow obvious way."""
    bid = 150
    # forehand vs middlehand
    active = [0, 1]          # [holder, challenger]
    turn = 1
    while True:
        if bid + 10 <= max_bids[turn]:
            bid += 10
            turn = active[0] if turn == active[1] else active[1]
        else:
            survivor = active[0] if turn == active[1] else active[1]
            break
    active = [survivor, 2]
    turn = 2
    while True:
        if bid + 10 <= max_bids[turn]:
            bid += 10
            turn = survivor if turn == 2 else 2
        else:
            winner = survivor if turn == 2 else 2
            return winner, bid


max_bid_values = st.sampled_from([0] + list(range(150, 400, 10)))


@settings(max_examples=400, deadline=None)
@given(st.tuples(max_bid_values, max_bid_values, max_bid_values))
def test_r3_kernel_auction_matches_reference(mb):
    """R3: the kernel auction equals a turn-by-turn reference and its calls validate."""
    arr = np.array(mb, dtype=np.int64)
    sol, bid = run_auction(arr, KR)
    assert (sol, bid) == reference_auction(mb)
    psol, pbid, calls = simulate_auction(mb)
    assert (psol, pbid) == (sol, bid)
    state = validate_auction(calls)
    assert state.finished and state.soloist == sol and state.standing == bid


def test_r3_middlehand_and_rearhand_pass_forehand_soloist_at_150():
    """R3: if middlehand and rearhand both pass at once, forehand is soloist at 150."""
    assert run_auction(np.array([0, 0, 0], dtype=np.int64), KR) == (0, 150)
    state = validate_auction("150 pass pass")
    assert state.finished and state.soloist == 0 and state.standing == 150


def test_r3_forehand_forced_open_then_rearhand_takes():
    """R3: forehand's 150 is forced; middlehand passes; rearhand outbids forehand."""
    assert run_auction(np.array([0, 0, 200], dtype=np.int64), KR) == (2, 160)
    assert run_auction(np.array([190, 0, 200], dtype=np.int64), KR) == (2, 200)
    assert run_auction(np.array([200, 0, 190], dtype=np.int64), KR) == (0, 190)


def test_r3_stage_order_middlehand_then_rearhand():
    """R3: forehand and middlehand first, then rearhand against the survivor."""
    sol, bid, calls = simulate_auction([170, 200, 240])
    assert calls == [150, 160, 170, 180, PASS, 190, 200, 210, PASS]
    assert (sol, bid) == (2, 210)


def test_auction_continue_from_a_validated_state():
    """Finishing a partial auction in the kernel equals running it whole (R3)."""
    mb = [200, 250, 230]
    sol, bid, calls = simulate_auction(mb)
    for k in range(1, len(calls)):
        st_ = validate_auction(calls[:k])
        if st_.finished:
            break
        assert auction_continue(np.array(mb, dtype=np.int64), KR, *st_.kernel_state()) == (sol, bid)


@pytest.mark.parametrize("text, fragment", [
    ("160", "forehand must open with 150"),
    ("pass", "forehand must open with 150"),
    ("150 170", "jumps are not allowed"),
    ("150 150", "holding at 150 is not allowed"),
    ("150 165", "steps of exactly 10"),
    ("150 160 150", "below the standing bid"),
    ("150 pass pass 160", "after the auction ended"),
    ("150 160 pass pass 170", "after the auction ended"),
])
def test_r3_illegal_auctions_rejected(text, fragment):
    """R3: forehand opens 150, raises exactly +10, a pass is final, nothing after the end."""
    with pytest.raises(BinokelError) as exc:
        validate_auction(text)
    msg = str(exc.value)
    assert fragment in msg and "(R3)" in msg and "\n" not in msg


def test_r3_order_of_turns_after_pass():
    """R3: after middlehand passes, the next call is rearhand's (not middlehand again)."""
    st_ = validate_auction("150 pass")
    assert st_.to_move == 2 and st_.holder == 0 and not st_.finished
    st_ = validate_auction("150 160 pass")         # forehand passed: MH holds 160, RH to move
    assert st_.to_move == 2 and st_.holder == 1 and st_.standing == 160
    assert st_.lo == (0, 160, 0) and st_.hi == (170, 0, 0)
    st_ = validate_auction("150 160 pass 170")
    assert st_.to_move == 1 and st_.holder == 2


def test_parse_auction_syntax():
    assert parse_auction("150, 160 p PASS -") == [150, 160, PASS, PASS, PASS]
    assert validate_auction("").to_move == 0
    with pytest.raises(BinokelError, match="R3"):
        parse_auction("150 sixteen")
    assert parse_seat("MH") == 1 and parse_seat("rearhand") == 2
    with pytest.raises(BinokelError, match="R2"):
        parse_seat("dealer2")


def test_rule_of_thumb_equals_python_meld_reference():
    """Rule-of-thumb max bid = best R5 meld + estimate, rounded down to 10 (R3), or 0."""
    state = make_state(np.random.SeedSequence(7))
    deck = new_deck()
    out = np.zeros(4, dtype=np.int64)
    for _ in range(300):
        deal_random(state, deck, out)
        h = Hand.from_mask(int(out[0]))
        best = max(melds(h, s).total for s in SUITS)
        expect = (best + 100) // 10 * 10
        expect = expect if expect >= 150 else 0
        assert rule_of_thumb_max_bid(np.int64(out[0]), KR, 100) == expect
        assert rule_of_thumb_bid(h, 100) == expect


def test_evidence_likelihood_is_a_probability_and_orders_hands():
    """Inference model: a stronger hand explains a raise better, a weaker one a pass."""
    for v in range(100, 400, 7):
        p = evidence_likelihood(float(v), 200, 0, 20.0)
        q = evidence_likelihood(float(v), 0, 170, 20.0)
        assert 0.0 < p <= 1.0 and 0.0 < q <= 1.0
    assert evidence_likelihood(300.0, 200, 0, 20.0) > evidence_likelihood(150.0, 200, 0, 20.0)
    assert evidence_likelihood(150.0, 0, 170, 20.0) > evidence_likelihood(300.0, 0, 170, 20.0)
    assert evidence_likelihood(123.0, 0, 0, 20.0) == 1.0


# ---------------------------------------------------------------- V1: a chain of duels for four

def test_v1_chain_of_duels_seat_order_and_raises_of_10():
    s = validate_auction([150, 160, 170, 0, 180, 0, 190, 200, 0], K40)
    assert s.seats == (0, 1, 0, 1, 2, 0, 3, 2, 3)
    assert s.finished and s.soloist == 2 and s.standing == 200


def test_v1_raises_are_exactly_10():
    with pytest.raises(BinokelError, match="call 2 by middlehand must be pass or 160: jumps"):
        validate_auction([150, 170], K40)


def test_v5_2_forehand_must_open_kreuz_40():
    with pytest.raises(BinokelError, match="must open"):
        validate_auction([0], K40)


def test_v4_2_forehand_may_pass_and_all_pass_throws_in():
    s = validate_auction([0, 0, 0, 0], K48)
    assert s.finished and s.thrown_in
    with pytest.raises(BinokelError, match="comes after the auction ended"):
        validate_auction([0, 0, 0, 0, 150], K48)
    s = validate_auction([0, 150, 0, 160], K48)
    assert s.seats == (0, 1, 2, 3) and s.holder == 3 and s.to_move == 1


def test_v1_team_auction_out_of_turn_is_an_error():
    s = validate_auction([150, 160], K40)
    check_turn(s, 0)
    with pytest.raises(BinokelError, match="out of turn"):
        check_turn(s, 2)
    with pytest.raises(BinokelError, match="outside 0-3"):
        check_turn(s, -1)


@given(st.lists(st.sampled_from([0, 140, 150, 160, 170, 200, 230]), min_size=4, max_size=4),
       st.booleans())
def test_v1_duel_kernel_matches_reference(maxima, forced):
    out = np.zeros(2, dtype=np.int64)
    continue_duels(np.array(maxima, dtype=np.int64), 0, -1, 0, 1, 150, 10, int(forced), out)
    assert tuple(out) == ref_teams.duel_auction(maxima, forced=forced)


def test_max_bid_of_value_rounds_down_to_the_step_and_drops_below_the_opening():
    """R3, V6.2: a threshold bidder's maximum is its value rounded down to the step; below
    the opening it never bids (0)."""
    assert max_bid_of_value(187, 150, 10) == 180
    assert max_bid_of_value(149, 150, 10) == 0
    assert max_bid_of_value(579, 500, 10) == 570


# ---------------------------------------------------------------- V6.2: open bidding

def test_v6_2_minimum_bid_is_500():
    with pytest.raises(BinokelError, match="below the minimum bid 500"):
        validate_auction([490], PIN80)


def test_v6_2_bids_are_multiples_of_10():
    with pytest.raises(BinokelError, match="not a multiple of 10"):
        validate_auction([505], PIN80)


def test_v6_2_jumps_allowed_but_each_bid_higher():
    s = validate_auction([500, 650], PIN80)
    assert (s.standing, s.holder, s.to_move) == (650, 1, 2)
    with pytest.raises(BinokelError, match="higher than the standing bid 650"):
        validate_auction([500, 650, 650], PIN80)


def test_v6_2_pass_is_final_and_passed_seats_are_skipped():
    s = validate_auction([500, PASS, 510, PASS], PIN80)
    assert s.passed == (False, True, False, True)
    assert s.to_move == 0
    s = validate_auction([500, PASS, 510, PASS, 520], PIN80)
    assert s.to_move == 2   # seat 1 and 3 passed: seat 2 is next after seat 0


def test_v6_2_three_passes_after_a_bid_end_the_auction():
    s = validate_auction([PASS, 500, PASS, PASS], PIN80)
    assert s.finished and s.soloist == 1 and s.standing == 500
    with pytest.raises(BinokelError, match="comes after the auction ended"):
        validate_auction([PASS, 500, PASS, PASS, 510], PIN80)


def test_v6_2_all_four_pass_throws_the_deal_in():
    s = validate_auction([PASS] * 4, PIN80)
    assert s.finished and s.thrown_in and s.soloist is None


def test_v6_2_last_seat_may_still_bid_after_three_passes():
    s = validate_auction([PASS] * 3, PIN80)
    assert not s.finished and s.to_move == 3


def test_v6_2_parse_and_turn_errors():
    s = validate_auction("500 p 520, pass", PIN80)
    assert s.bids == (500, 0, 520, 0) and s.seats == (0, 1, 2, 3) and s.to_move == 0
    with pytest.raises(BinokelError, match="out of turn"):
        check_turn(s, 2)
    with pytest.raises(BinokelError, match="outside 0-3"):
        check_turn(s, 4)
    with pytest.raises(BinokelError, match="cannot read call"):
        validate_auction("500 double", PIN80)


@given(st.lists(st.sampled_from([0, 500, 510, 520, 560, 600, 700]), min_size=4, max_size=4))
def test_v6_2_threshold_auction_kernel_matches_reference(maxima):
    out = np.zeros(2, dtype=np.int64)
    threshold_open_auction(np.array(maxima, dtype=np.int64), 500, 10, out)
    assert tuple(out) == ref80.auction(maxima)
    # and the calls it makes form a valid V6.2 auction won by the same seat
    if out[0] >= 0:
        assert maxima[out[0]] >= out[1]


def test_rule_of_thumb_is_meld_plus_20_per_expected_trick_plus_partner():
    # A♥ 10♥ K♥ Q♥ J♥ x2 (two flushes, 300) + 4 more hearts... count: 10 hearts, 2 aces
    from analyzer.mechanics.cards import Hand80
    h = Hand80.parse("AH 10H KH QH JH AH 10H KH QH JH AC AS 10C 10S 10D QC JC JS QD JH")
    tmp = np.zeros(4, dtype=np.int64)
    mb, trump = rule_of_thumb_by_tricks(h.counts_array(), team_kernel(PINOCHLE_80), 20, 150, tmp)
    assert trump == 2
    hearts = 11
    expect = ref80.melds(list(h.counts), 2) + 20 * (4 + hearts - 5) + 150
    assert mb == expect // 10 * 10


@pytest.mark.parametrize("name", ["binokel-48", "grupp-3", "grupp-4", "kreuz-48", "kreuz-40",
                                  "pinochle-80"])
def test_validate_auction_reads_the_form_from_the_ruleset_flat_or_nested(name):
    """R3, V1, V2.2, V6.2: the nested RuleSet's auction and table parts and the flat view
    give the same state; the form and the seats come from the RuleSet, not the game's name."""
    from analyzer.mechanics.ruleset import get_game
    flat, nested = get_rules(name), get_game(name)
    calls = [flat.bid_start, 0, flat.bid_start + flat.bid_step]
    a, b = validate_auction(calls, flat), validate_auction(calls, nested)
    assert a == b
    assert a.form == nested.auction.form and len(a.passed) == nested.table.in_play
    assert a.describe().startswith(nested.table.seat_names[0])
