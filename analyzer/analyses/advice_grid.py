"""The advisor's bid grid (R3, R5, R7; V1, V6.2): the auction as the game states it, the
next bid a seat could say, the bound of what a hand can total, the bids the soloist
(bidder) branch is played at, and how many rows of a table to show."""
from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from analyzer.errors import BinokelError, clip_input
from analyzer.mechanics.bidding import FOREHAND, PASS, SEAT_NAMES, AuctionState, validate_auction
from analyzer.mechanics.cards import N_TYPES, PLANE
from analyzer.mechanics.melds import meld_table
from analyzer.mechanics.rules import RuleSet, TeamSpec, team_spec

GRID_SIZE = 60          # at least bids next..next+590; longer for hands that can total more
#: At least this many bids where the grid's end comes from the sampled totals (partners)
SAMPLED_GRID_SIZE = 40


def partners_spec(rules) -> TeamSpec | None:
    """The compiled game of a partners' table (V1: the RuleSet's ``teams``; a TeamSpec
    passes through), or None at a lone soloist's table (R2)."""
    if isinstance(rules, TeamSpec):
        return rules
    return team_spec(rules) if getattr(rules, "teams", False) else None


def parse_auction_for(auction, rules):
    """The calls so far (text such as ``"150 160 pass"`` or a list), validated by the
    game's auction form: the chain of duels of a lone soloist's table (R3, V2.2: an
    :class:`~analyzer.mechanics.bidding.AuctionState`), the partners' chain of duels (V1:
    a AuctionState) or open bidding (V6.2: a AuctionState).  ``rules``: the RuleSet, or a
    partners game's TeamSpec.  A parsed state passes through; BinokelError (one line) on
    a call the rules do not allow."""
    if isinstance(auction, AuctionState):
        return auction
    spec = partners_spec(rules)
    return validate_auction(auction, rules if spec is None else spec.rules)


def bids_over_partner(state, seat: int, spec: TeamSpec) -> bool:
    """True when ``seat`` would bid over its own partner in a chain of duels (V1: seat 0
    against seat 1, the survivor against seat 2, then seat 3, so partners duel too): the
    standing bid is held by the partner (``seat + 2``).  The open Pinochle auction (V6.2)
    keeps the plain rule (analyzer.analyses.advice_samples.summarize_partners_advice)."""
    if spec.open_auction:
        return False
    return state.holder >= 0 and state.holder % 2 == seat % 2 and state.holder != seat


def next_legal_bid(state: AuctionState, seat: int, rules: RuleSet) -> tuple[int, tuple[int, int, int, int]]:
    """The lowest bid this seat could say next, and the kernel auction state to pass from."""
    start, step = rules.bid_start, rules.bid_step
    if not state.calls and rules.forced_opening:
        # nothing said yet: forehand opens (forced); the others' first possible raise is 160
        return (start if seat == FOREHAND else start + step), (0, 0, 1, start)
    if not state.calls and seat != FOREHAND:
        # V2.2: forehand may still pass; assume it opens (its call is not known yet)
        return start + step, (0, 0, 1, start)
    if state.finished:
        end = ("all three passed: the deal is thrown in" if state.thrown_in
               else f"{SEAT_NAMES[state.soloist]} is soloist at {state.standing}")
        raise BinokelError(f"the auction is over ({end}): nothing left to bid "
                           f"({'R3' if rules.forced_opening else 'V2.2'})")
    if state.to_move != seat:
        said = clip_input(' '.join('pass' if c == PASS else str(c) for _, c in state.calls))
        hint = ""
        if seat == 2 and state.stage == 0:
            hint = ("; rearhand calls once forehand or middlehand has passed (e.g. '150 pass' "
                    "or '150 160 pass'); with no auction at all it assumes forehand opened 150 "
                    "and nothing else is known")
        raise BinokelError(f"after '{said}' it is {SEAT_NAMES[state.to_move]}'s call, not "
                           f"{SEAT_NAMES[seat]}'s (R3){hint}")
    return state.standing + step, state.kernel_state()


def total_bound(hand_counts: np.ndarray, rules: RuleSet) -> int:
    """An upper bound of the soloist's total (R8) for this hand: all card points of the
    deal (R7) plus the best meld (R5) of the hand with any Tapp (melds never shrink when
    cards are added, so the 18 cards bound every 15 kept).  Above it only a Durch (R4,
    scored without the bid) can still be made."""
    counts = np.asarray(hand_counts, dtype=np.int64)
    free = [t for t in range(N_TYPES) for _ in range(2 - int(counts[t]))]
    combos = np.array(sorted(set(combinations_with_replacement(sorted(set(free)), rules.tapp_size))),
                      dtype=np.int64)
    c = np.repeat(counts[None, :], len(combos), axis=0)
    for j in range(combos.shape[1]):
        np.add.at(c, (np.arange(len(combos)), combos[:, j]), 1)
    c = c[(c <= 2).all(axis=1)]
    bits = np.int64(1) << np.arange(N_TYPES, dtype=np.int64)
    masks = ((c >= 1) * bits).sum(axis=1) | (((c >= 2) * bits).sum(axis=1) << PLANE)
    card_points = 2 * sum(rules.card_points) * 4 + rules.last_trick_bonus
    return int(card_points + meld_table(masks, rules).max())


def bid_grid(next_bid: int, hand_counts: np.ndarray, rules: RuleSet) -> np.ndarray:
    """The advisor's bids: from ``next_bid`` in steps of 10 (R3), at least GRID_SIZE of
    them and on to one step past :func:`total_bound`, where P(make) can no longer come
    from a played contract (item: the grid never ends while the hand still makes)."""
    step = rules.bid_step
    k = max(GRID_SIZE, (total_bound(hand_counts, rules) - next_bid) // step + 2)
    return next_bid + step * np.arange(k, dtype=np.int64)


def sampled_bid_grid(raw: dict, next_bid: int, step: int) -> np.ndarray:
    """The partners' advisor's bids (its grid ends where the samples' totals do): from ``next_bid`` in steps of ``step``, at least SAMPLED_GRID_SIZE of
    them and on to one step past the highest team total any sample reached, above which
    no played contract is made (going out and a failed game score -bid, a Durch its fixed
    value): the recommendation can then never be cut off by the grid's end."""
    top = float(np.max(raw["team_total"][:, :1] if "est" in raw else raw["team_total"]))
    k = max(SAMPLED_GRID_SIZE, int((top - next_bid) // step) + 2)
    return next_bid + step * np.arange(k, dtype=np.int64)


#: A bid table may end once P(make) is below this (the contract is then all but lost).
SMALL_P_MAKE = 0.01
#: ... or this many bids past the recommended one (each already worth less than passing).
ROWS_PAST = 8


def table_extent(p_make, last: int) -> int:
    """How many rows of a bid table (rows = bids from the next legal one) to show, the one
    rule of every advice table (three-player and team, text and JSON): past the
    recommended bid (row ``last``; -1 = pass) up to and including the first bid where
    P(make) is small (``SMALL_P_MAKE``), or ``ROWS_PAST`` bids past the recommendation,
    which already fall below passing; never fewer than 3 rows, and always the
    recommended bid and the one after it (the explanation quotes them, also where
    P(make) is already negligible there, as in score-aware advice near R9).  ``p_make``: P(make) per row of the grid."""
    k = len(p_make)
    keep = max(3, next((i + 1 for i, p in enumerate(p_make) if p < SMALL_P_MAKE), k))
    keep = min(keep, max(last, 0) + ROWS_PAST + 1)
    keep = max(keep, last + 2)
    return min(keep, k)


def plan_table_extent(p_make, j_best: int, at_least: int = 0) -> int:
    """How many rows of a look-ahead table (rows = maxima from the next legal bid) to
    show, the one rule of every table's look-ahead: past the recommended plan (``j_best``,
    0 = pass now) at least 4 rows and then up to the first whose static P(make) is small
    (``SMALL_P_MAKE``), at most ``ROWS_PAST`` rows past it; never fewer than 3 rows (nor
    than ``at_least``, where the grid has them)."""
    K = len(p_make)
    last = max(j_best - 1, 0)
    keep = last + 1
    for j in range(last + 1, K):
        keep = j + 1
        if j >= last + 4 and (p_make[j] < SMALL_P_MAKE or j >= last + ROWS_PAST):
            break
    return max(keep, min(3, K), min(at_least, K) if at_least else 0)
