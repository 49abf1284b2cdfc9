"""The auction (R3, V1, V2.2, V6.2): validation of call sequences, bidding-policy kernels,
the auction runner, for both auction forms a RuleSet's auction part can name.

Seats are numbered in calling order, 0 = forehand (R2, V1).  A *call* is an int: a bid
value (150, 160, ...) or ``PASS`` (0).

**Chain of duels** (``auction.form`` "duels"; R3, V1 "auction as R3 for N players"):
forehand must open with the starting bid (150).  Seats 0 and 1 alternate, each passing or
raising by exactly one step (10), until one passes; then seat 2 bids against the survivor
the same way, then seat 3 where four play.  A pass is final; the last bidder is the
soloist at the last bid value; if nobody raises, forehand is soloist at the opening.
Where the variant lets forehand pass ("weg", V2.2, V4.2; ``forced_opening`` False), the
first bid said, by whichever seat, is the starting bid; a seat that enters while no bid
stands may open or pass; if every seat passes the deal is thrown in (0 for everybody).

**Open bidding** (``auction.form`` "open"; V6.2): seats call in turn from seat 0, a passed
seat is skipped; a bid is any multiple of the step from the minimum (500), above the
standing bid (jumps allowed); the auction ends when all others have passed after a bid, or
when all pass (thrown in).

One :class:`AuctionState` and one :func:`validate_auction` serve both forms (the
RuleSet's auction part says which); :func:`check_turn` checks whose call it is.

Kernels see a chain of duels as ``(holder, to_move, next_ch, standing)``
(:func:`duels_continue`; three seats: ``(stage, holder, to_move, standing)``,
:func:`auction_continue`): ``holder`` = seat holding the standing bid, or -1 while no
bid stands; ``to_move`` = seat that must raise or pass (``standing + step`` is the next
bid, so ``standing`` is ``start - step`` before the first bid); ``next_ch`` the next seat
to enter.  Open bidding: :func:`continue_open_auction`.
A *threshold policy* gives each seat a maximum bid: it raises (by the minimum) while the
next value is at most its maximum and passes otherwise (0 = never raises beyond a forced
call).  Rule-of-thumb maxima: :func:`rule_of_thumb_max_bid` (best meld + a card-point
estimate), :func:`rule_of_thumb_by_tricks` (meld + a value per expected trick + a partner
allowance); both round with :func:`max_bid_of_value`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import Hand
from analyzer.mechanics.melds import meld_all_trumps, meld_all_trumps_counts
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.ruleset import GAMES

PASS = 0
FOREHAND, MIDDLEHAND, REARHAND = 0, 1, 2
SEAT_NAMES = ("forehand", "middlehand", "rearhand")
_SEAT_ALIASES = {
    "forehand": 0, "fh": 0, "vorhand": 0, "0": 0,
    "middlehand": 1, "mh": 1, "mittelhand": 1, "1": 1,
    "rearhand": 2, "rh": 2, "hinterhand": 2, "2": 2,
}

#: Card points a rule-of-thumb bidder adds to its best meld (a policy parameter, not a
#: rule): roughly what a soloist with an ordinary hand takes in tricks plus discard.
DEFAULT_TRICK_ESTIMATE = 100
#: Spread (points) of the logistic noise the inference model puts on an opponent's
#: rule-of-thumb value: how loosely real bidders follow the rule of thumb.
DEFAULT_EVIDENCE_SCALE = 20.0

#: points a rule-of-thumb bidder of a game without a Dabb counts per expected trick
#: ("meld + 20 per trick", the usual rule of Pinochle bots; a policy parameter)
DEFAULT_TRICK_VALUE = 20
#: what such a bidder counts on from its partner (meld and tricks), points
DEFAULT_PARTNER_ALLOWANCE = 150
#: what a rule-of-thumb bidder of a Binokel team game adds to its hand's value
#: (game.rule_value_by_model: best meld + the fitted team model) for the Dabb and the
#: exchange: about the 30 % quantile of what they add to the soloist's team total, so the
#: rule reaches its maximum bid in about 70 % of its contracts (measured over 6000 random
#: deals per game, team policy: 45 in kreuz-48, 60 in kreuz-40; a policy parameter).
#: The earlier rule, best meld + 100 card points, won 15 of 800 contracts against the
#: advisor team (kreuz-48, 400 duplicate deals).
DEFAULT_DABB_ESTIMATE = 50



def parse_seat(seat) -> int:
    """``'forehand'``/``'fh'``/``0`` ... -> seat index 0, 1, 2 (R2); one-line error otherwise."""
    key = str(seat).strip().lower()
    if key in _SEAT_ALIASES:
        return _SEAT_ALIASES[key]
    raise BinokelError(f"unknown seat {seat!r}: use forehand, middlehand or rearhand (R2)")


# --------------------------------------------------------------------------- kernels


@njit
def rule_of_thumb_value(mask15, kr, trick_estimate):
    """Best meld over the four trumps (R5) of a packed hand plus a fixed card-point estimate.

    The unrounded value behind :func:`rule_of_thumb_max_bid` (used by the inference model).
    """
    out = np.empty(4, dtype=np.int64)
    meld_all_trumps(mask15, kr, out)
    best = out[0]
    for s in range(1, 4):
        if out[s] > best:
            best = out[s]
    return best + trick_estimate


@njit
def rule_of_thumb_max_bid(mask15, kr, trick_estimate):
    """Highest bid a rule-of-thumb bidder would say with this hand (R3 values).

    The method of existing Binokel and Pinochle bots: best meld of the 15 cards over the
    four trumps (R5) plus a fixed estimate of the card points taken, rounded down to the
    bid step (R3).  Returns 0 when that is below the starting bid: the seat would not bid
    beyond a forced call (forehand still opens 150, R3).

    Parameters
    ----------
    mask15 : int64
        Packed 15-card hand (cards.py encoding).
    kr : KernelRules
    trick_estimate : int
        Card points assumed to be taken in play (incl. discard).

    Returns
    -------
    int
        A bid value >= ``kr.bid_start`` or 0.
    """
    return max_bid_of_value(rule_of_thumb_value(mask15, kr, trick_estimate), kr.bid_start,
                            kr.bid_step)


@njit(_nrt=False)
def duels_continue(max_bids, holder, to_move, next_ch, standing, step, forced):
    """Finish a chain of duels (R3, V1) among the ``max_bids.shape[0]`` seats in play
    with threshold bidders: the seat to move raises by exactly ``step`` while the new value
    is at most its maximum, else passes (final); a pass, or a first bid, lets the next
    seat ``next_ch`` enter; with ``forced`` seat 0 opens regardless (R3, V5.2).  While no
    bid stands (``holder`` -1) ``standing`` is the opening minus one step.

    Returns
    -------
    (int, int)
        The soloist seat and the final bid; ``(-1, 0)`` when every seat passed (V2.2).
    """
    n = max_bids.shape[0]
    while to_move < n:
        nxt = standing + step
        if nxt <= max_bids[to_move] or (forced != 0 and holder < 0 and to_move == 0):
            prev = holder
            holder = to_move
            standing = nxt
            if prev >= 0:
                to_move = prev           # the duel goes on: the outbid seat answers
                continue
        to_move = next_ch                # the duel is decided: the next seat enters
        next_ch += 1
    if holder < 0:
        return -1, 0
    return holder, standing


@njit
def auction_continue(max_bids, kr, stage, holder, to_move, standing):
    """Finish a three-seat auction from state ``(stage, holder, to_move, standing)``
    (:meth:`AuctionState.kernel_state`) under R3 (:func:`duels_continue`).

    Returns
    -------
    (int, int)
        Soloist seat and the final bid; ``(-1, 0)`` when the deal is thrown in (V2.2).
    """
    next_ch = 1 if (stage == 0 and holder < 0 and to_move == 0) else stage + 2
    return duels_continue(max_bids, holder, to_move, next_ch, standing, kr.bid_step, 0)


@njit
def run_auction(max_bids, kr):
    """A whole R3 auction between three threshold bidders.

    Forehand opens ``kr.bid_start`` (forced, whatever its maximum), middlehand and
    forehand alternate raising by ``kr.bid_step`` or passing, then rearhand against the
    survivor; the last bidder is soloist.  If middlehand and rearhand both pass, forehand
    is soloist at the opening bid.

    Parameters
    ----------
    max_bids : int64[3]
        Each seat's maximum bid (0 = never raises).
    kr : KernelRules

    Where forehand may pass (``kr.forced_opening`` 0, V2.2), forehand opens only if its
    maximum allows, and a deal nobody opens is thrown in.

    Returns
    -------
    (int, int)
        Soloist seat (0, 1, 2) and the winning bid; ``(-1, 0)`` if thrown in (V2.2).
    """
    return duels_continue(max_bids, -1, 0, 1, kr.bid_start - kr.bid_step, kr.bid_step,
                          kr.forced_opening)


@njit(_nrt=False)
def continue_duels(maxb, high, holder, to_move, next_ch, start, step, forced, out):
    """:func:`duels_continue` from the state of a partners' auction (the advisor's
    arguments, :attr:`AuctionState.next_ch`): standing bid ``high`` (unused while
    ``holder`` is -1), opening ``start``.  ``out`` int64[2] <- (soloist seat or -1 = all
    passed, bid)."""
    standing = high if holder >= 0 else start - step
    sol, bid = duels_continue(maxb, holder, to_move, next_ch, standing, step, forced)
    out[0] = sol
    out[1] = bid


@njit(_nrt=False)
def continue_open_auction(maxb, high, high_seat, passed, seat, min_bid, step, out):
    """Finish an open auction (V6.2) with threshold bidders from a state that is not over:
    standing ``high`` by ``high_seat`` (-1: none), ``passed`` bit mask of passed seats,
    ``seat`` to call.  Seat p raises minimally while the next bid is at most
    ``maxb[p]``, else passes.  ``out`` int64[2] <- (bidder seat or -1, bid)."""
    n = maxb.shape[0]
    n_passed = 0
    for p in range(n):
        n_passed += (passed >> p) & 1
    while True:
        nb = min_bid if high == 0 else high + step
        if nb <= maxb[seat]:
            high = nb
            high_seat = seat
        else:
            passed |= 1 << seat
            n_passed += 1
        if n_passed == n or (n_passed == n - 1 and high_seat >= 0 and (passed >> high_seat) & 1 == 0):
            break
        for d in range(1, n + 1):
            s = (seat + d) % n
            if (passed >> s) & 1 == 0:
                seat = s
                break
    out[0] = high_seat
    out[1] = high if high_seat >= 0 else 0


@njit(_nrt=False)
def threshold_open_auction(maxb, min_bid, step, out):
    """A whole open auction (V6.2) of threshold bidders from seat 0 (:func:`continue_open_auction`)."""
    continue_open_auction(maxb, 0, -1, 0, 0, min_bid, step, out)


@njit(_nrt=False)
def max_bid_of_value(value, start, step):
    """A threshold bidder's maximum from its rule-of-thumb ``value``: rounded down to the
    bid step, 0 when that is below the opening ``start`` (R3, V6.2; such a seat never bids
    beyond a forced opening)."""
    b = (value // step) * step
    if b < start:
        return 0
    return b


@njit(_nrt=False)
def rule_value_by_tricks(hand, kp, trick_value, partner_allowance, tmp):
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
def rule_of_thumb_by_tricks(hand, kp, trick_value, partner_allowance, tmp):
    """Rule-of-thumb maximum bid of one hand and its trump: returns (the value of
    :func:`rule_value_by_tricks` rounded down to the step, 0 if below the minimum; trump)."""
    bv, best = rule_value_by_tricks(hand, kp, trick_value, partner_allowance, tmp)
    return max_bid_of_value(bv, kp.min_bid, kp.bid_step), best


@njit
def _logistic(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


@njit
def evidence_likelihood(value, lo, hi, scale):
    """P(a noisy threshold bidder with rule-of-thumb ``value`` bid as observed).

    The model: the seat's private maximum is ``value + e`` with logistic noise ``e`` of
    scale ``scale``; it said every bid up to ``lo`` (so max >= lo) and declined ``hi``
    (max < hi).  ``lo <= 0`` means no voluntary bid was seen (forehand's forced 150 carries
    no information, R3); ``hi <= 0`` means it has not declined anything.
    """
    p_lo = 1.0 if lo <= 0 else _logistic((value - lo) / scale)
    p_hi = 0.0 if hi <= 0 else _logistic((value - hi) / scale)
    p = p_lo - p_hi
    return p if p > 1e-300 else 1e-300


# --------------------------------------------------------------------------- Python API


def parse_auction(text) -> list[int]:
    """Parse ``"150 160 pass"`` (also commas, ``p``, ``-``) into calls (``PASS`` = 0).

    A list/tuple of ints/strings is accepted too.  Only the syntax is checked here;
    :func:`validate_auction` checks R3.
    """
    if text is None:
        return []
    if isinstance(text, str):
        tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    else:
        tokens = [str(t).strip() for t in text]
    calls = []
    for tok in tokens:
        low = tok.lower()
        if low in ("pass", "p", "-", "passe", "weg", "0"):
            calls.append(PASS)
        elif re.fullmatch(r"\d+", low):
            calls.append(int(low))
        else:
            raise BinokelError(f"auction: cannot read call {tok!r}: use bid values like 150 160 or 'pass' (R3)")
    return calls


@dataclass(frozen=True)
class AuctionState:
    """Where a legal auction stands after some calls, for either auction form (R3, V1,
    V2.2, V6.2): the RuleSet's chain of duels among the seats in play, or open bidding.

    ``calls`` holds ``(seat, call)`` pairs in order.  ``holder`` is the seat holding the
    standing bid (-1 while none stands); ``standing`` the standing bid (``start - step``
    while none stands, so ``next_bid`` is the lowest legal bid: in a chain of duels the
    only one, in open bidding the lowest of any multiple of the step above it, V6.2).
    While not ``finished``, ``to_move`` must call next.  ``lo``/``hi`` per seat are the
    inference evidence: highest voluntary bid said (0 = none; a forced opening says
    nothing, R3, V5.2) and lowest bid declined by passing (0 = none).  ``stage``: in a
    chain of duels, the seats that have entered beyond the first two (0 while seats 0 and
    1 duel, R3); always 0 in open bidding.
    """

    calls: tuple[tuple[int, int], ...]
    stage: int
    holder: int            # -1 while no bid stands (V2.2, V6.2)
    to_move: int
    standing: int
    finished: bool
    soloist: int | None
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    passed: tuple[bool, ...]
    thrown_in: bool = False    # V2.2, V6.2: every seat passed
    step: int = 10
    form: str = "duels"        # the RuleSet's auction form: "duels" (R3, V1) or "open" (V6.2)
    seat_names: tuple[str, ...] = ("forehand", "middlehand", "rearhand")

    @property
    def next_bid(self) -> int:
        """The lowest legal bid now (the only one in a chain of duels, R3)."""
        return self.standing + self.step

    @property
    def high(self) -> int:
        """The standing bid, 0 while none stands (the partners' kernels' convention)."""
        return self.standing if self.holder >= 0 else 0

    @property
    def next_ch(self) -> int:
        """Chain of duels: the next seat to enter (the number of seats in play once all
        have entered, R3, V1)."""
        if self.stage == 0 and self.holder < 0 and self.to_move == 0:
            return 1
        return self.stage + 2

    @property
    def passed_mask(self) -> int:
        """The passed seats as a bit mask (the open-bidding kernel's state, V6.2)."""
        return sum(1 << p for p, x in enumerate(self.passed) if x)

    @property
    def seats(self) -> tuple[int, ...]:
        """Who made each call."""
        return tuple(s for s, _ in self.calls)

    @property
    def bids(self) -> tuple[int, ...]:
        """The calls without their seats (``PASS`` = 0), as :func:`parse_auction` reads them."""
        return tuple(c for _, c in self.calls)

    def kernel_state(self) -> tuple[int, int, int, int]:
        """``(stage, holder, to_move, standing)`` for :func:`auction_continue`."""
        return self.stage, self.holder, self.to_move, self.standing

    def describe(self) -> str:
        """The calls as every command prints them, with the game's seat names:
        ``forehand 150, middlehand 160, rearhand pass`` (``(no calls yet)`` when empty)."""
        parts = [f"{self.seat_names[s]} {'pass' if c == PASS else c}" for s, c in self.calls]
        return ", ".join(parts) if parts else "(no calls yet)"


class AuctionForm(NamedTuple):
    """The auction part of a RuleSet as the validator reads it (R3, V1, V2.2, V6.2)."""

    open: bool            # open bidding (V6.2); False: a chain of duels (R3, V1)
    seats: int            # seats in play, all of which call
    start: int            # the opening / lowest bid
    step: int             # the raise unit
    forced_opening: bool  # forehand must open (R3, V5.2)


def auction_form(rules) -> AuctionForm:
    """The :class:`AuctionForm` of a nested RuleSet (its auction and table parts) or of a
    flat one (transitional, analyzer.mechanics.rules: ``open_bidding`` exists only on the
    partners' view)."""
    a = getattr(rules, "auction", None)
    if a is not None:
        return AuctionForm(a.form == "open", int(rules.table.in_play), int(a.opening), int(a.step),
                           bool(a.forced_opening))
    return AuctionForm(bool(getattr(rules, "open_bidding", False)), int(rules.players),
                       int(rules.bid_start), int(rules.bid_step), bool(rules.forced_opening))


def _seat_names(rules, n: int) -> tuple[str, ...]:
    """The names of the ``n`` seats in play of ``rules`` (the registry's table part)."""
    game = GAMES.get(rules.name)
    names = game.table.seat_names if game is not None else ()
    return tuple(names[:n]) if len(names) >= n else ("forehand", "middlehand", "rearhand", "dealer")[:n]


def validate_auction(calls, rules: RuleSet = DEFAULT_RULES) -> AuctionState:
    """Check a call sequence against the auction of ``rules`` and return where it stands.

    The RuleSet's auction part decides the form (the compiled kernel's ``open_auction``):
    a chain of duels among the seats in play (R3, V1; V2.2 where forehand may pass) or
    open bidding (V6.2); its opening, step and forced opening are the RuleSet's too.

    Parameters
    ----------
    calls : str or sequence
        E.g. ``"150 160 pass"``; seat 0 (forehand) calls first.  An empty sequence means
        the auction has not started.
    rules : RuleSet
        Flat or nested (analyzer.mechanics.ruleset).

    Returns
    -------
    AuctionState

    Raises
    ------
    BinokelError
        One line citing the section for any call the form does not allow: in a chain of
        duels a first call other than a forced opening at the start value, a raise other
        than exactly one step, a call after the auction ended; in open bidding a bid below
        the minimum, not a multiple of the step or not above the standing bid.
    """
    seq = parse_auction(calls) if isinstance(calls, str) or calls is None else parse_auction(list(calls))
    form = auction_form(rules)
    names = _seat_names(rules, form.seats)
    if form.open:
        return _open_bidding(seq, rules, form, names)
    return _chain_of_duels(seq, rules, form, names)


def _after_end(i: int, call: int, end: str, sec: str) -> BinokelError:
    return BinokelError(f"illegal auction: call {i} ({'pass' if call == PASS else call}) comes after "
                        f"the auction ended ({end}) ({sec})")


def _chain_of_duels(seq, rules, form: AuctionForm, names) -> AuctionState:
    """R3 for the seats in play (V1: "auction as R3 for N players"): seat 0 against seat
    1 until one passes, the survivor against seat 2, then seat 3; every raise exactly one
    step; a pass is final; V2.2 where forehand may pass (the first bid said is the start
    value, all passing throws the deal in)."""
    n, start, step, forced = form.seats, form.start, form.step, form.forced_opening
    sec = "R3" if forced else "V2.2"
    lo, hi, passed = [0] * n, [0] * n, [False] * n
    done: list[tuple[int, int]] = []
    holder, to_move, next_ch, standing = -1, 0, 1, start - step
    rest, first = seq, 1
    if forced and seq:
        if seq[0] != start:
            shown = "pass" if seq[0] == PASS else seq[0]
            raise BinokelError(f"illegal auction: {names[0]} must open with {start}, not {shown} "
                               f"in {rules.name} ({sec})")
        done.append((0, start))           # the forced opening says nothing (lo stays 0)
        holder, to_move, next_ch, standing = 0, 1, 2, start
        rest, first = seq[1:], 2
    finished = thrown = False
    for i, call in enumerate(rest, start=first):
        if finished:
            end = "the deal was thrown in" if thrown else f"{names[holder]} is soloist at {standing}"
            raise _after_end(i, call, end, sec)
        if call != PASS and call != standing + step:
            if holder < 0:
                why = f"the first bid is {start}"
            elif call == standing:
                why = f"holding at {standing} is not allowed"
            elif call < standing:
                why = f"{call} is below the standing bid {standing}"
            elif (call - standing) % step == 0:
                why = f"jumps are not allowed (from {standing} only {standing + step})"
            else:
                why = f"raises go in steps of exactly {step}"
            raise BinokelError(
                f"illegal auction: call {i} by {names[to_move]} must be pass or {standing + step}: "
                f"{why} in {rules.name} ({sec})")
        done.append((to_move, call))
        if call == PASS:
            passed[to_move] = True
            hi[to_move] = standing + step
        else:
            lo[to_move] = call
            standing = call
            holder, to_move = to_move, holder
        if call == PASS or to_move < 0:
            # the duel is over (a pass, or the first bid stands): the next seat enters
            to_move, next_ch = next_ch, next_ch + 1
            if to_move == n:
                finished, thrown = True, holder < 0
                to_move = done[-1][0]
    stage = max(0, min(next_ch, n) - 2)
    return AuctionState(tuple(done), stage, holder, to_move, standing, finished,
                        holder if finished and not thrown else None, tuple(lo), tuple(hi),
                        tuple(passed), thrown, step, "duels", names)


def _open_bidding(seq, rules, form: AuctionForm, names) -> AuctionState:
    """V6.2: seats call in turn from seat 0, a passed seat is skipped; a bid is any
    multiple of the step from the minimum, above the standing bid (jumps allowed); the
    auction ends when all others have passed after a bid, or all pass (thrown in)."""
    n, start, step = form.seats, form.start, form.step
    lo, hi, passed = [0] * n, [0] * n, [False] * n
    done: list[tuple[int, int]] = []
    holder, seat, standing = -1, 0, start - step
    finished = False
    for i, call in enumerate(seq, start=1):
        if finished:
            end = ("the deal was thrown in" if holder < 0
                   else f"{names[holder]} is soloist at {standing}")
            raise _after_end(i, call, end, "V6.2")
        if call != PASS:
            if call < start:
                raise BinokelError(f"bid {call} is below the minimum bid {start} (V6.2)")
            if call % step:
                raise BinokelError(f"bid {call} is not a multiple of {step} (V6.2)")
            if holder >= 0 and call <= standing:
                raise BinokelError(f"bid {call} must be higher than the standing bid {standing} (V6.2)")
            lo[seat] = call
            holder, standing = seat, call
        else:
            passed[seat] = True
            hi[seat] = standing + step
        done.append((seat, call))
        n_passed = sum(passed)
        if n_passed == n or (n_passed == n - 1 and holder >= 0 and not passed[holder]):
            finished = True
        else:
            seat = _next_open_seat(seat, passed)
    return AuctionState(tuple(done), 0, holder, seat, standing, finished,
                        holder if finished and holder >= 0 else None, tuple(lo), tuple(hi),
                        tuple(passed), finished and holder < 0, step, "open", names)


def _next_open_seat(seat: int, passed) -> int:
    """The next seat after ``seat`` that has not passed (V6.2), -1 if none."""
    n = len(passed)
    for d in range(1, n + 1):
        s = (seat + d) % n
        if not passed[s]:
            return s
    return -1


def check_turn(state: AuctionState, seat: int) -> None:
    """One-line error unless it is ``seat``'s call in ``state`` (either auction form): the
    seat must be in play, the auction not over, and the seat the one to move."""
    n = len(state.passed)
    sec = "V6.2" if state.form == "open" else "V1"
    if not 0 <= seat < n:
        raise BinokelError(f"seat {seat} is outside 0-{n - 1} ({n} players, V1)")
    if state.finished:
        raise BinokelError(f"the auction is over: no call left to advise ({sec})")
    if state.to_move != seat:
        raise BinokelError(f"out of turn: after {len(state.calls)} calls it is "
                           f"{state.seat_names[state.to_move]}'s call (seat {state.to_move}), "
                           f"not seat {seat}'s ({sec})")


def auction_calls_text(state: AuctionState) -> str:
    """The calls as the ``--auction`` string (``"150 160 pass"``)."""
    return " ".join("pass" if c == PASS else str(c) for _, c in state.calls)


def rule_of_thumb_bid(hand, trick_estimate: int = DEFAULT_TRICK_ESTIMATE,
                      rules: RuleSet = DEFAULT_RULES) -> int:
    """Python wrapper of :func:`rule_of_thumb_max_bid` for a :class:`~analyzer.mechanics.cards.Hand`."""
    h = Hand.parse(hand)
    return int(rule_of_thumb_max_bid(np.int64(h.mask), rules.kernel, int(trick_estimate)))


def threshold_auction(max_bid_of, rules: RuleSet = DEFAULT_RULES) -> tuple[int, int, list[int]]:
    """Play an R3 auction of three threshold bidders in Python, recording the calls.

    Parameters
    ----------
    max_bid_of : callable ``(seat, calls) -> int``
        A seat's maximum bid, asked once, at the seat's first turn; ``calls`` (not to be
        modified) are the calls made so far, so a seat can decide from what it has heard.
    rules : RuleSet
        Starting bid and step (R3).

    Returns
    -------
    (int, int, list[int])
        ``(soloist, bid, calls)``; ``calls`` is what :func:`validate_auction` accepts.
        ``soloist`` is -1 (bid 0) when all three passed and the deal is thrown in (V2.2).
    """
    start, step = rules.bid_start, rules.bid_step
    if rules.forced_opening:
        calls = [start]
        stage, holder, to_move, standing = 0, 0, 1, start
    else:
        calls = []
        stage, holder, to_move, standing = 0, -1, 0, start - step
    maxes: dict[int, int] = {}
    while True:
        if to_move not in maxes:
            maxes[to_move] = max_bid_of(to_move, calls)
        if standing + step <= maxes[to_move]:
            standing += step
            calls.append(standing)
            prev, holder = holder, to_move
            if prev >= 0:
                to_move = prev
            elif stage == 0 and to_move == 0:
                to_move = 1
            elif stage == 0:
                stage, to_move = 1, 2
            else:
                return holder, standing, calls
        else:
            calls.append(PASS)
            if stage == 0 and holder < 0 and to_move == 0:
                to_move = 1
            elif stage == 0:
                stage, to_move = 1, 2
            elif holder < 0:
                return -1, 0, calls
            else:
                return holder, standing, calls


def simulate_auction(max_bids, rules: RuleSet = DEFAULT_RULES) -> tuple[int, int, list[int]]:
    """:func:`threshold_auction` with fixed maxima ``max_bids[seat]`` (R3).

    Returns ``(soloist, bid, calls)``.  Agrees with the kernel :func:`run_auction` (tested).
    """
    return threshold_auction(lambda seat, calls: max_bids[seat], rules)
