"""The auction (R3): validation, threshold bidders, the kernel runner vs a Python reference."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import DEFAULT_RULES, BinokelError, Hand, melds
from analyzer.mechanics.bidding import (
    PASS, auction_continue, evidence_likelihood, parse_auction, parse_seat,
    rule_of_thumb_bid, rule_of_thumb_max_bid, run_auction, simulate_auction, validate_auction,
)
from analyzer.mechanics.cards import SUITS
from analyzer.mechanics.rng import make_state
from analyzer.mechanics.sampling import deal_random, new_deck

KR = DEFAULT_RULES.kernel


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
