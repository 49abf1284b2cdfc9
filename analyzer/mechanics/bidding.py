"""The auction (R3): validation of call sequences, bidding-policy kernels, the auction runner.

Seats are 0 = forehand, 1 = middlehand, 2 = rearhand (R2).  A *call* is an int: a bid
value (150, 160, ...) or ``PASS`` (0).

R3 in one paragraph: forehand must open with the starting bid (150).  Forehand and
middlehand alternate, each passing or raising by exactly one step (10), until one passes;
then rearhand bids against the survivor the same way.  A pass is final; the last bidder
is the soloist at the last bid value; if middlehand and rearhand both pass, forehand is
soloist at 150.

Where the variant lets forehand pass ("weg", V2.2; ``RuleSet.forced_opening`` False), the
first bid said, by whichever seat, is the starting bid; if forehand passes at once,
middlehand may open or pass, and the survivor meets rearhand (who opens if no bid stands);
if all three pass the deal is thrown in (no soloist, 0 for everybody).

Kernels see an auction as a small state ``(stage, holder, to_move, standing)``:
``stage`` 0 = forehand against middlehand, 1 = rearhand against the survivor;
``holder`` = seat holding the standing bid, or -1 while no bid stands (V2.2);
``to_move`` = seat that must raise or pass (``standing + step`` is the next bid, so
``standing`` is ``start - step`` before the first bid).
A *threshold policy* gives each seat a maximum bid: it raises while the next value is at
most its maximum and passes otherwise (0 = never raises beyond a forced call).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.mechanics.melds import meld_all_trumps
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.cards import Hand

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
    v = rule_of_thumb_value(mask15, kr, trick_estimate)
    b = (v // kr.bid_step) * kr.bid_step
    if b < kr.bid_start:
        return 0
    return b


@njit
def auction_continue(max_bids, kr, stage, holder, to_move, standing):
    """Finish an auction from state ``(stage, holder, to_move, standing)`` under R3.

    Every seat follows a threshold policy: raise by exactly ``kr.bid_step`` while the new
    value is at most ``max_bids[seat]``, else pass (a pass is final, R3).

    Returns
    -------
    (int, int)
        Soloist seat and the final bid; ``(-1, 0)`` when the deal is thrown in (V2.2).
    """
    while True:
        nxt = standing + kr.bid_step
        if nxt <= max_bids[to_move]:
            standing = nxt
            tmp = holder
            holder = to_move
            if tmp >= 0:
                to_move = tmp
            elif stage == 0 and to_move == 0:
                to_move = 1          # V2.2: forehand opened, middlehand answers
            elif stage == 0:
                stage = 1            # V2.2: middlehand opened after forehand's "weg"
                to_move = 2
            else:
                return holder, standing   # rearhand opened, both others passed
        else:
            if stage == 0 and holder < 0 and to_move == 0:
                to_move = 1          # V2.2: forehand passes at once ("weg")
            elif stage == 0:
                # the survivor of forehand vs middlehand now faces rearhand (R3)
                stage = 1
                to_move = 2
            elif holder < 0:
                return -1, 0         # V2.2: all three passed, the deal is thrown in
            else:
                return holder, standing


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
    if kr.forced_opening != 0:
        return auction_continue(max_bids, kr, 0, 0, 1, kr.bid_start)
    return auction_continue(max_bids, kr, 0, -1, 0, kr.bid_start - kr.bid_step)


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
    """Where a legal auction stands after some calls (R3).

    ``calls`` holds ``(seat, call)`` pairs in order.  While not ``finished``, ``to_move``
    must call next: ``PASS`` or exactly ``standing + step``.  ``lo``/``hi`` per seat are
    the inference evidence: highest voluntary bid said (0 = none) and lowest bid declined
    (0 = none).
    """

    calls: tuple[tuple[int, int], ...]
    stage: int
    holder: int            # -1 while no bid stands (V2.2)
    to_move: int
    standing: int
    finished: bool
    soloist: int | None
    lo: tuple[int, int, int]
    hi: tuple[int, int, int]
    passed: tuple[bool, bool, bool]
    thrown_in: bool = False    # V2.2: all three passed
    step: int = 10

    @property
    def next_bid(self) -> int:
        return self.standing + self.step

    def kernel_state(self) -> tuple[int, int, int, int]:
        """``(stage, holder, to_move, standing)`` for :func:`auction_continue`."""
        return self.stage, self.holder, self.to_move, self.standing

    def describe(self) -> str:
        return describe_calls((SEAT_NAMES[s], c == PASS, c) for s, c in self.calls)


def describe_calls(calls) -> str:
    """An auction as printed by every command, three-player and team alike:
    ``forehand 150, middlehand 160, rearhand pass`` (``seat 0 500, seat 1 510, seat 2
    pass`` in a team game).  ``calls``: (seat name, is a pass, bid) per call."""
    parts = [f"{who} {'pass' if passed else bid}" for who, passed, bid in calls]
    return ", ".join(parts) if parts else "(no calls yet)"


def validate_auction(calls, rules: RuleSet = DEFAULT_RULES) -> AuctionState:
    """Check a call sequence against R3 and return where the auction stands.

    Parameters
    ----------
    calls : str or sequence
        E.g. ``"150 160 pass"``; the first call is forehand's forced opening. An empty
        sequence means the auction has not started (forehand to open).
    rules : RuleSet

    Returns
    -------
    AuctionState

    Raises
    ------
    BinokelError
        One line citing R3 for: a first call other than forehand's opening at the start
        value, a raise other than exactly one step, a call after the auction ended.
    """
    seq = parse_auction(calls) if isinstance(calls, str) or calls is None else parse_auction(list(calls))
    start, step = rules.bid_start, rules.bid_step
    sec = "R3" if rules.forced_opening else "V2.2"
    lo = [0, 0, 0]
    hi = [0, 0, 0]
    passed = [False, False, False]
    done: list[tuple[int, int]] = []
    if not seq:
        return AuctionState((), 0, 0 if rules.forced_opening else -1, 0, start - step, False,
                            None, (0, 0, 0), (0, 0, 0), (False, False, False), False, step)
    if rules.forced_opening:
        if seq[0] != start:
            shown = "pass" if seq[0] == PASS else seq[0]
            raise BinokelError(f"illegal auction: forehand must open with {start}, not {shown} "
                               f"in {rules.name} (R3)")
        done.append((FOREHAND, start))
        stage, holder, to_move, standing = 0, FOREHAND, MIDDLEHAND, start
        rest = seq[1:]
        first = 2
    else:
        stage, holder, to_move, standing = 0, -1, FOREHAND, start - step
        rest = seq
        first = 1
    finished = False
    thrown = False
    for i, call in enumerate(rest, start=first):
        if finished:
            end = ("the deal was thrown in" if thrown
                   else f"{SEAT_NAMES[holder]} is soloist at {standing}")
            raise BinokelError(
                f"illegal auction: call {i} ({'pass' if call == PASS else call}) comes after the auction "
                f"ended ({end}) ({sec})")
        who = SEAT_NAMES[to_move]
        if call == PASS:
            passed[to_move] = True
            hi[to_move] = standing + step
            done.append((to_move, PASS))
            if stage == 0 and holder < 0 and to_move == FOREHAND:
                to_move = MIDDLEHAND           # V2.2: forehand "weg"
            elif stage == 0:
                stage, to_move = 1, REARHAND
            else:
                finished = True
                thrown = holder < 0            # V2.2: all three passed
            continue
        if call != standing + step:
            if call == standing:
                why = f"holding at {standing} is not allowed"
            elif call < standing:
                why = f"{call} is below the standing bid {standing}"
            elif (call - standing) % step == 0:
                why = f"jumps are not allowed (from {standing} only {standing + step})"
            else:
                why = f"raises go in steps of exactly {step}"
            if holder < 0:
                why = f"the first bid is {start}"
            raise BinokelError(
                f"illegal auction: call {i} by {who} must be pass or {standing + step}: {why} "
                f"in {rules.name} ({sec})")
        lo[to_move] = call
        done.append((to_move, call))
        standing = call
        prev = holder
        holder = to_move
        if prev >= 0:
            to_move = prev
        elif stage == 0 and to_move == FOREHAND:
            to_move = MIDDLEHAND
        elif stage == 0:
            stage, to_move = 1, REARHAND
        else:
            finished = True                    # rearhand opened after two passes
    return AuctionState(tuple(done), stage, holder, to_move, standing, finished,
                        holder if finished and not thrown else None, tuple(lo), tuple(hi),
                        tuple(passed), thrown, step)


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
