"""The Pinochle auction (V6.2): validation of call sequences, the threshold auction kernel
and the rule-of-thumb bidder.

Seats 0..3 call in turn starting left of the dealer (seat 0; the dealer is seat 3,
V6.1); a call is a bid (an int) or ``PASS`` (0).  V6.2 in one paragraph: each seat in
turn bids or passes; a pass is final (that seat is skipped from then on); the lowest bid
is 500, every bid a multiple of 10 and higher than the last, jumps allowed.  The auction
ends when three seats have passed after a bid (the bidder wins at its bid) or all four
pass (the deal is thrown in).  **Reading**: only bids and passes (no meld announcements).

The rule-of-thumb bidder (the usual rule of Pinochle bots, a policy, not a rule): bid up
to ``meld + trick_value x expected tricks + partner allowance`` with the best trump,
expected tricks = aces held + trumps beyond five.  Each raise is the minimum.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import describe_calls
from analyzer.mechanics.melds import meld_all_trumps_counts
from analyzer.mechanics.rules import PINOCHLE_80, TeamRuleSet
from analyzer.mechanics.bidding import parse_auction

PASS = 0
#: points a rule-of-thumb bidder counts per expected trick ("meld + 20 per trick")
DEFAULT_TRICK_VALUE = 20
#: what a rule-of-thumb bidder counts on from its partner (meld and tricks), points
DEFAULT_PARTNER_ALLOWANCE = 150


@dataclass(frozen=True)
class TeamAuction:
    """The state after a valid sequence of calls (V6.2).

    ``high``/``high_seat``: the standing bid and its seat (0 / -1 before any bid);
    ``passed``: per seat; ``to_move``: the seat to call next (-1 when over);
    ``over``: the auction has ended; ``thrown_in``: all four passed.
    """

    calls: tuple[int, ...]
    high: int
    high_seat: int
    passed: tuple[bool, bool, bool, bool]
    to_move: int
    over: bool

    @property
    def thrown_in(self) -> bool:
        return self.over and self.high_seat < 0

    @property
    def passed_mask(self) -> int:
        return sum(1 << p for p in range(4) if self.passed[p])

    def evidence(self, rules: TeamRuleSet = PINOCHLE_80) -> tuple[list[int], list[int]]:
        """Per seat (lo, hi): its highest bid said (0: none) and the bid it declined by
        passing (0: has not passed): its private maximum is >= lo and < hi."""
        lo, hi = [0] * 4, [0] * 4
        high, seat, passed = 0, 0, [False] * 4
        for call in self.calls:
            if call != PASS:
                lo[seat] = call
                high = call
            else:
                hi[seat] = rules.bid_start if high == 0 else high + rules.bid_step
                passed[seat] = True
            seat = _next_seat(seat, passed) if sum(passed) < 4 else -1
        return lo, hi

    def describe(self) -> str:
        return describe_calls((f"seat {p % 4}", c == PASS, c)
                              for p, c in zip(self._seats(), self.calls))

    def _seats(self) -> list[int]:
        seats, seat, passed = [], 0, [False] * 4
        for call in self.calls:
            seats.append(seat)
            if call == PASS:
                passed[seat] = True
            seat = _next_seat(seat, passed) if sum(passed) < 4 else -1
        return seats

    def next_bid(self, rules: TeamRuleSet = PINOCHLE_80) -> int:
        """The lowest legal bid now (V6.2)."""
        return rules.bid_start if self.high == 0 else self.high + rules.bid_step


def _next_seat(seat: int, passed) -> int:
    for d in range(1, 5):
        s = (seat + d) % 4
        if not passed[s]:
            return s
    return -1


def validate_team_auction(calls, rules: TeamRuleSet = PINOCHLE_80) -> TeamAuction:
    """Check a sequence of calls by seats 0, 1, 2, 3, 0, ... (passed seats skipped), V6.2.

    Raises BinokelError (one line) on a bid below the minimum, not a multiple of the
    step, not above the standing bid, or any call after the auction ended.
    """
    high, high_seat = 0, -1
    passed = [False] * 4
    seat = 0
    over = False
    for i, call in enumerate(calls):
        call = int(call)
        if over:
            raise BinokelError(f"call {i + 1} ({call or 'pass'}): the auction is already over (V6.2)")
        if call != PASS:
            if call < rules.bid_start:
                raise BinokelError(f"bid {call} is below the minimum bid {rules.bid_start} (V6.2)")
            if call % rules.bid_step:
                raise BinokelError(f"bid {call} is not a multiple of {rules.bid_step} (V6.2)")
            if call <= high:
                raise BinokelError(f"bid {call} must be higher than the standing bid {high} (V6.2)")
            high, high_seat = call, seat
        else:
            passed[seat] = True
        n_passed = sum(passed)
        if n_passed == 4 or (n_passed == 3 and high_seat >= 0 and not passed[high_seat]):
            over = True
            seat = -1
        else:
            seat = _next_seat(seat, passed)
    return TeamAuction(tuple(int(c) for c in calls), high, high_seat, tuple(passed), seat, over)


def parse_calls(text) -> list[int]:
    """Parse ``"500 p 520 pass"`` into calls (``PASS`` = 0); only the syntax is checked
    here (the project's one call parser, analyzer.mechanics.bidding.parse_auction)."""
    return parse_auction(text)


def parse_team_auction(text, rules: TeamRuleSet = PINOCHLE_80) -> TeamAuction:
    """Parse (:func:`parse_calls`) and validate a V6.2 auction."""
    return validate_team_auction(parse_calls(text), rules)


def check_turn(state, seat: int) -> None:
    """One-line error unless it is ``seat``'s call (a team auction out of turn); for both
    auction forms (:class:`TeamAuction`, V6.2, and :class:`DuelAuction`, V1)."""
    rule = "V6.2" if isinstance(state, TeamAuction) else "V1"
    if not 0 <= seat <= 3:
        raise BinokelError(f"seat {seat} is outside 0-3 (four players, V1)")
    if state.over:
        raise BinokelError(f"the auction is over: no call left to advise ({rule})")
    if state.to_move != seat:
        raise BinokelError(f"out of turn: after {len(state.calls)} calls it is seat "
                           f"{state.to_move}'s call, not seat {seat}'s ({rule})")


# --------------------------------------------------------------------------- kernels

@njit(_nrt=False)
def continue_auction80(maxb, high, high_seat, passed, seat, min_bid, step, out):
    """Finish a V6.2 auction with threshold bidders from a state that is not over:
    standing ``high`` by ``high_seat`` (-1: none), ``passed`` bit mask of passed seats,
    ``seat`` to call.  Seat p raises minimally while the next bid is at most
    ``maxb[p]``, else passes.  ``out`` int64[2] <- (bidder seat or -1, bid)."""
    n_passed = 0
    for p in range(4):
        n_passed += (passed >> p) & 1
    while True:
        nb = min_bid if high == 0 else high + step
        if nb <= maxb[seat]:
            high = nb
            high_seat = seat
        else:
            passed |= 1 << seat
            n_passed += 1
        if n_passed == 4 or (n_passed == 3 and high_seat >= 0 and (passed >> high_seat) & 1 == 0):
            break
        for d in range(1, 5):
            s = (seat + d) % 4
            if (passed >> s) & 1 == 0:
                seat = s
                break
    out[0] = high_seat
    out[1] = high if high_seat >= 0 else 0


@njit(_nrt=False)
def threshold_auction80(maxb, min_bid, step, out):
    """A whole V6.2 auction of threshold bidders from seat 0 (:func:`continue_auction80`)."""
    continue_auction80(maxb, 0, -1, 0, 0, min_bid, step, out)


@njit(_nrt=False)
def rule_value80(hand, kp, trick_value, partner_allowance, tmp):
    """Rule-of-thumb value of one hand (uint8[24]): returns (value, its best trump),
    value = meld + trick_value x (aces + trumps beyond five) + partner_allowance.
    ``tmp``: int64[4] workspace."""
    meld_all_trumps_counts(hand, kp, tmp)
    aces = 0
    for s in range(4):
        aces += hand[6 * s]
    best = -1
    bv = np.int64(-1)
    for s in range(4):
        n = 0
        for r in range(5):
            n += hand[6 * s + r]
        v = tmp[s] + trick_value * (aces + max(0, n - 5)) + partner_allowance
        if v > bv:
            bv = v
            best = s
    return bv, best


@njit(_nrt=False)
def rule_of_thumb80(hand, kp, trick_value, partner_allowance, tmp):
    """Rule-of-thumb maximum bid of one hand and its trump: returns (the value of
    :func:`rule_value80` rounded down to the step, 0 if below the minimum; trump)."""
    bv, best = rule_value80(hand, kp, trick_value, partner_allowance, tmp)
    mb = (bv // kp.bid_step) * kp.bid_step
    if mb < kp.min_bid:
        mb = 0
    return mb, best


# --------------------------------------------------------------------------- chain of duels

#: what a rule-of-thumb bidder of a Binokel team game adds to its hand's value
#: (team_game.kreuz_rule_value: best meld + the fitted team model) for the Dabb and the
#: exchange: about the 30 % quantile of what they add to the soloist's team total, so the
#: rule reaches its maximum bid in about 70 % of its contracts (measured over 6000 random
#: deals per game, team policy: 45 in kreuz-48, 60 in kreuz-40; a policy parameter).
#: The earlier rule, best meld + 100 card points, won 15 of 800 contracts against the
#: advisor team (kreuz-48, 400 duplicate deals).
DEFAULT_TEAM_TRICK_ESTIMATE = 50


@dataclass(frozen=True)
class DuelAuction:
    """The state of a four-seat chain-of-duels auction (V1) after valid calls.

    ``holder``: seat holding the standing bid ``high`` (-1: none yet); ``to_move``: the
    seat to call next (4 when the auction is over); ``next_ch``: the next seat to enter.
    In a duel ``to_move`` is always the one who must raise (exactly one step) or pass.
    """

    calls: tuple[int, ...]
    high: int
    holder: int
    to_move: int
    next_ch: int
    seats: tuple[int, ...]   # who made each call

    @property
    def over(self) -> bool:
        return self.to_move >= 4

    @property
    def thrown_in(self) -> bool:
        return self.over and self.holder < 0

    def next_bid(self, start: int, step: int) -> int:
        return start if self.holder < 0 else self.high + step

    def evidence(self, start: int, step: int) -> tuple[list[int], list[int]]:
        """Per seat (lo, hi): its highest bid (0: none) and the bid it declined (0: none)."""
        lo, hi = [0] * 4, [0] * 4
        high, holder = 0, -1
        for seat, call in zip(self.seats, self.calls):
            if call != PASS:
                lo[seat] = call
                high, holder = call, seat
            else:
                hi[seat] = start if holder < 0 else high + step
        return lo, hi

    def describe(self) -> str:
        return describe_calls((f"seat {s}", c == PASS, c) for s, c in zip(self.seats, self.calls))


def validate_duel_auction(calls, start: int = 150, step: int = 10,
                          forced_opening: bool = True) -> DuelAuction:
    """Check calls of a four-seat chain of duels (V1): seat 0 against seat 1 until one
    passes, the survivor against seat 2, then seat 3; the first bid is ``start``, every
    raise exactly ``step``, a pass final.  ``forced_opening``: seat 0 must open (V5.2);
    else it may pass and the next seat may open (V2.2, V4.2).  One-line BinokelError on a
    wrong call.
    """
    high, holder, to_move, next_ch = 0, -1, 0, 1
    seats = []
    for i, call in enumerate(calls):
        call = int(call)
        if to_move >= 4:
            raise BinokelError(f"call {i + 1} ({call or 'pass'}): the auction is already over (V1)")
        seats.append(to_move)
        want = start if holder < 0 else high + step
        if call != PASS and call != want:
            what = "the opening bid is" if holder < 0 else f"raises are exactly +{step}: the next bid is"
            raise BinokelError(f"bid {call} by seat {to_move}: {what} {want} (V1)")
        if call == PASS and holder < 0 and forced_opening and to_move == 0:
            raise BinokelError(f"seat 0 (forehand) must open with {start} (V5.2)")
        if holder < 0:
            if call != PASS:
                high, holder = call, to_move
            to_move, next_ch = next_ch, next_ch + 1
        elif call != PASS:
            high = call
            holder, to_move = to_move, holder
        else:
            to_move, next_ch = next_ch, next_ch + 1
    return DuelAuction(tuple(int(c) for c in calls), high, holder, to_move, next_ch, tuple(seats))




@njit(_nrt=False)
def continue_duels(maxb, high, holder, to_move, next_ch, start, step, forced, out):
    """Finish a chain of duels (V1) with threshold bidders from a state (see
    :class:`DuelAuction`): the seat to move raises one step while that is at most its
    ``maxb``, else passes; with ``forced`` seat 0 opens regardless.  ``out`` int64[2] <-
    (soloist seat or -1 = all passed, bid)."""
    while to_move < 4:
        if holder < 0:
            if (forced != 0 and to_move == 0) or start <= maxb[to_move]:
                high = start
                holder = to_move
            to_move = next_ch
            next_ch += 1
            continue
        nb = high + step
        if nb <= maxb[to_move]:
            high = nb
            tmp = holder
            holder = to_move
            to_move = tmp
        else:
            to_move = next_ch
            next_ch += 1
    out[0] = holder
    out[1] = high if holder >= 0 else 0
