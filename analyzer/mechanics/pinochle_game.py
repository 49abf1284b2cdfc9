"""A whole Pinochle deal in numba (V6): deal, auction, melds, play, score.

Kernels here glue the V6 parts together: :func:`team_melds80` (V6.3, each hand melds on
its own, the team adds), :func:`play_contract80` (the high bidder names trump and leads
the first trick, V6.2; play V6.4; score V6.6) and :func:`rule_deal80` (all four seats
rule-of-thumb bidders, analyzer.mechanics.pinochle_bidding).

Result rows (int64[RES_COLS]): scores of team 0 and 1, team melds, counters, counting
tricks, then the bidder seat, bid and trump.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.pinochle_bidding import rule_of_thumb80, threshold_auction80
from analyzer.mechanics.pinochle_melds import meld80
from analyzer.mechanics.pinochle_play import play80_core, L_COLS
from analyzer.mechanics.pinochle_scoring import score80

R_SCORE, R_MELD, R_POINTS, R_COUNTING, R_BIDDER, R_BID, R_TRUMP = 0, 2, 4, 6, 8, 9, 10
RES_COLS = 11


@njit(_nrt=False)
def team_melds80(hands, trump, kp, out):
    """``out[team]`` = sum of the two partners' melds with ``trump`` (V6.3)."""
    out[0] = meld80(hands[0], trump, kp) + meld80(hands[2], trump, kp)
    out[1] = meld80(hands[1], trump, kp) + meld80(hands[3], trump, kp)


@njit
def play_contract80(hands, bidder, bid, trump, policies, state, kp, beat, cnt, res):
    """Play and score a deal won by ``bidder`` at ``bid`` with ``trump`` (V6.2-V6.6).

    ``hands`` uint8[4, 24] (not modified; ``cnt`` is the play workspace, same shape);
    ``bidder`` -1 = thrown in (all pass): scores 0, nothing played.  Fills ``res``.
    """
    for i in range(RES_COLS):
        res[i] = 0
    res[R_BIDDER] = bidder
    res[R_BID] = bid
    res[R_TRUMP] = trump
    if bidder < 0:
        return
    m = res[R_MELD:R_MELD + 2]
    team_melds80(hands, trump, kp, m)
    for p in range(4):
        for t in range(N_TYPES):
            cnt[p, t] = hands[p, t]
    tricks = np.zeros(2, dtype=np.int64)
    play80_core(cnt, trump, bidder, bidder, policies, state, kp, beat,
                res[R_POINTS:R_POINTS + 2], res[R_COUNTING:R_COUNTING + 2], tricks,
                np.zeros((0, L_COLS), dtype=np.int64), np.zeros(0, dtype=np.int64), 0)
    score80(bidder % 2, bid, m, res[R_POINTS:R_POINTS + 2], res[R_COUNTING:R_COUNTING + 2],
            kp.meld_needs_counter, res[R_SCORE:R_SCORE + 2])


@njit
def rule_maxima80(hands, kp, trick_value, allowance, maxb, trumps):
    """Rule-of-thumb maximum bid and trump of each seat (int64[4] each)."""
    tmp = np.zeros(4, dtype=np.int64)
    for p in range(4):
        mb, tr = rule_of_thumb80(hands[p], kp, trick_value, allowance, tmp)
        maxb[p] = mb
        trumps[p] = tr


@njit
def rule_deal80(hands, trick_value, allowance, policies, state, kp, beat, cnt, res):
    """A deal with four rule-of-thumb bidders (V6.2) and the given play policies."""
    maxb = np.zeros(4, dtype=np.int64)
    trumps = np.zeros(4, dtype=np.int64)
    rule_maxima80(hands, kp, trick_value, allowance, maxb, trumps)
    out = np.zeros(2, dtype=np.int64)
    threshold_auction80(maxb, kp.min_bid, kp.bid_step, out)
    b = out[0]
    play_contract80(hands, b, out[1], trumps[b] if b >= 0 else 0, policies, state, kp, beat,
                    cnt, res)
