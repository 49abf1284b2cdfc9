"""A whole Pinochle deal in numba (V6): deal, auction, melds, play, score.

Kernels here glue the V6 parts together: :func:`team_melds80` (V6.3, each hand melds on
its own, the team adds), :func:`play_contract80` (the high bidder names trump and leads
the first trick, V6.2; play V6.4; score V6.6) and :func:`rule_deal80` (all four seats
rule-of-thumb bidders, analyzer.mechanics.team_bidding).

Result rows (int64[RES_COLS]): scores of team 0 and 1, team melds, counters, counting
tricks, then the bidder seat, bid and trump.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.team_bidding import rule_of_thumb80, threshold_auction80
from analyzer.mechanics.pinochle_melds import meld80
from analyzer.mechanics.team_play import play80_core, L_COLS
from analyzer.mechanics.team_scoring import score80

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


# --------------------------------------------------------------------------- Binokel teams
# (kreuz-48, kreuz-40: V4, V5) - 2 copies per type, a Dabb of 4, the chain of duels

from analyzer.mechanics.melds import meld_total  # noqa: E402
from analyzer.mechanics.sampling import counts_mask  # noqa: E402
from analyzer.mechanics.team_bidding import continue_duels  # noqa: E402
from analyzer.mechanics.team_play import play_team_core  # noqa: E402
from analyzer.mechanics.team_scoring import score_kreuz  # noqa: E402


@njit(_nrt=False)
def _keep_value(hand, c, trump, tk):
    """Why a soloist keeps card ``c`` (policy, not rule): trumps are tricks and control,
    aces tricks, a ten beside its ace a likely trick."""
    r = c % 6
    v = 0
    if c // 6 == trump:
        v += 40 + 3 * tk.rank_strength[c]
    if r == 0:
        v += 25
    elif r == 1 and hand[c - 1] > 0:
        v += 10
    return v


@njit
def kreuz_exchange(hand, tk, kr, discard):
    """The soloist's exchange (V4.2, V5.3): from ``hand`` (uint8[24], hand + Dabb, modified
    to the kept cards) discard ``tk.dabb_size`` cards into ``discard`` and name trump.

    Policy (documented in README): for each trump, discard greedily the card whose loss
    (meld lost with that trump - its card points, which count for the team + the value of
    keeping it) is least; then name the trump whose kept meld + 10 per trump + the discard
    points is highest.  The trump low card melds from the discard where the RuleSet says
    so (V2.3).  Returns the trump.
    """
    cp = tk.card_points
    best_t = 0
    best_v = np.int64(-(1 << 40))
    cur = hand.copy()
    dis = np.zeros(N_TYPES, dtype=np.uint8)
    best_dis = np.zeros(N_TYPES, dtype=np.uint8)
    for t in range(4):
        for i in range(N_TYPES):
            cur[i] = hand[i]
            dis[i] = 0
        dpts = 0
        for _d in range(tk.dabb_size):
            m0 = meld_total(counts_mask(cur), t, kr)
            bc = -1
            bcost = np.int64(1 << 40)
            for c in range(N_TYPES):
                if cur[c] == 0:
                    continue
                cur[c] -= 1
                loss = m0 - meld_total(counts_mask(cur), t, kr)
                cur[c] += 1
                if c // 6 == t and c % 6 == tk.low_rank:
                    loss -= tk.dissle_value
                cost = loss - cp[c] + _keep_value(cur, c, t, tk)
                if cost < bcost:
                    bcost = cost
                    bc = c
            cur[bc] -= 1
            dis[bc] += 1
            dpts += cp[bc]
        ntr = 0
        for r in range(6):
            ntr += cur[6 * t + r]
        v = meld_total(counts_mask(cur), t, kr) + 10 * ntr + dpts
        if v > best_v:
            best_v = v
            best_t = t
            for i in range(N_TYPES):
                best_dis[i] = dis[i]
    for i in range(N_TYPES):
        discard[i] = best_dis[i]
        hand[i] -= best_dis[i]
    return best_t


@njit
def kreuz_melds(hands, trump, discard, sol, tk, kr, out):
    """``out[team]`` = both partners' melds with ``trump`` (V4.4), the soloist's incl. the
    trump low cards of its discard where they meld (V2.3)."""
    out[0] = 0
    out[1] = 0
    for p in range(4):
        out[p % 2] += meld_total(counts_mask(hands[p]), trump, kr)
    if sol >= 0:
        out[sol % 2] += discard[6 * trump + tk.low_rank] * tk.dissle_value


@njit
def kreuz_contract(hands5, sol, bid, policies, state, tk, kr, beat, cnt, res):
    """Exchange, melds, play and score of a Binokel team deal won by ``sol`` at ``bid``
    (V4.2-V4.6, V5.3-V5.7).  ``hands5`` uint8[5, 24]: four hands and the Dabb (row 4),
    not modified; ``cnt`` uint8[4, 24] workspace.  ``sol`` -1 = thrown in.  Fills ``res``
    (RES_COLS; the melds and points columns per team, the trump named)."""
    for i in range(RES_COLS):
        res[i] = 0
    res[R_BIDDER] = sol
    res[R_BID] = bid
    if sol < 0:
        return
    for p in range(4):
        for t in range(N_TYPES):
            cnt[p, t] = hands5[p, t]
    full = np.zeros(N_TYPES, dtype=np.uint8)
    for t in range(N_TYPES):
        full[t] = hands5[sol, t] + hands5[4, t]
    discard = np.zeros(N_TYPES, dtype=np.uint8)
    trump = kreuz_exchange(full, tk, kr, discard)
    for t in range(N_TYPES):
        cnt[sol, t] = full[t]
    res[R_TRUMP] = trump
    m = res[R_MELD:R_MELD + 2]
    kreuz_melds(cnt, trump, discard, sol, tk, kr, m)
    tricks = np.zeros(2, dtype=np.int64)
    leader = sol if tk.bidder_leads != 0 else 0
    pts = res[R_POINTS:R_POINTS + 2]
    play_team_core(cnt, trump, leader, sol, policies, state, tk, beat, discard, pts,
                   res[R_COUNTING:R_COUNTING + 2], tricks,
                   np.zeros((0, L_COLS), dtype=np.int64), np.zeros(0, dtype=np.int64), 0)
    dp = 0
    for t in range(N_TYPES):
        dp += discard[t] * tk.card_points[t]
    pts[sol % 2] += dp                     # the discard counts for the soloist's team
    score_kreuz(sol % 2, bid, m, pts, tricks, tk.round_to, tk.loss_factor,
                res[R_SCORE:R_SCORE + 2])
    # R_COUNTING holds the tricks per team here (melds need a team trick, V4.6)
    res[R_COUNTING] = tricks[0]
    res[R_COUNTING + 1] = tricks[1]


@njit
def kreuz_rule_value(hand, kr, estimate, tmp):
    """Rule-of-thumb value of an 11/9-card hand: best meld over the trumps + ``estimate``."""
    best = np.int64(-1)
    for t in range(4):
        v = meld_total(counts_mask(hand), t, kr)
        if v > best:
            best = v
    return best + estimate


@njit
def kreuz_rule_deal(hands5, estimate, policies, state, tk, kr, beat, cnt, res):
    """A Binokel team deal with four rule-of-thumb bidders (chain of duels, V1)."""
    maxb = np.zeros(4, dtype=np.int64)
    tmp = np.zeros(4, dtype=np.int64)
    for p in range(4):
        v = kreuz_rule_value(hands5[p], kr, estimate, tmp)
        maxb[p] = v // tk.bid_step * tk.bid_step
    out = np.zeros(2, dtype=np.int64)
    continue_duels(maxb, 0, -1, 0, 1, tk.min_bid, tk.bid_step, tk.forced_opening, out)
    kreuz_contract(hands5, out[0], out[1], policies, state, tk, kr, beat, cnt, res)
