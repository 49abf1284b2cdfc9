"""A whole Pinochle deal in numba (V6): deal, auction, melds, play, score.

Kernels here glue the V6 parts together: :func:`team_melds80` (V6.3, each hand melds on
its own, the team adds), :func:`play_contract80` (the high bidder names trump and leads
the first trick, V6.2; play V6.4; score V6.6) and :func:`rule_deal80` (all four seats
rule-of-thumb bidders, analyzer.mechanics.team_bidding).

Result rows (int64[RES_COLS]): scores of team 0 and 1, team melds, counters, counting
tricks, then the bidder seat, bid, trump and contract (play, going out, Durch, open Durch:
the CONTRACT_* codes of analyzer.mechanics.exchange; Pinochle always plays).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, Hand, Hand80
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.team_bidding import rule_of_thumb80, threshold_auction80
from analyzer.mechanics.melds import meld_total_counts
from analyzer.mechanics.play import POLICY_HEURISTIC, POLICY_RANDOM
from analyzer.mechanics.playout import (L_CARD0, L_COLS, L_LEADER, L_POINTS, L_WINNER,
                                        play_durch_partners, play_durch_partners_logged)
from analyzer.mechanics.sampling import deal_counts
from analyzer.search.pimc import play_deal_partners, play_deal_partners_logged
from analyzer.mechanics.rules import team_spec
from analyzer.mechanics.scoring import score_sides

R_SCORE, R_MELD, R_POINTS, R_COUNTING, R_BIDDER, R_BID, R_TRUMP = 0, 2, 4, 6, 8, 9, 10
R_CONTRACT = 11     # the soloist's contract after the exchange (exchange.CONTRACT_*; 0 = play)
RES_COLS = 12


@njit(_nrt=False)
def team_melds80(hands, trump, kp, out):
    """``out[team]`` = sum of the two partners' melds with ``trump`` (V6.3)."""
    out[0] = meld_total_counts(hands[0], trump, kp) + meld_total_counts(hands[2], trump, kp)
    out[1] = meld_total_counts(hands[1], trump, kp) + meld_total_counts(hands[3], trump, kp)


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
    play_deal_partners(cnt, trump, bidder, bidder, policies, state, kp, beat,
                       np.zeros(N_TYPES, dtype=np.uint8), res[R_POINTS:R_POINTS + 2],
                       res[R_COUNTING:R_COUNTING + 2], tricks,
                       np.zeros((0, L_COLS), dtype=np.int64), np.zeros(0, dtype=np.int64), 0)
    score_sides(bidder % 2, bid, m, res[R_POINTS:R_POINTS + 2], tricks,
                res[R_COUNTING:R_COUNTING + 2], kp, res[R_SCORE:R_SCORE + 2])


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

from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH,  # noqa: E402
                                         CONTRACT_SURRENDER, N_FEATURES, durch_contract_value,
                                         durch_losers, estimate_features, sure_durch_contract)
from analyzer.mechanics.game import contract_for_bid  # noqa: E402
from analyzer.mechanics.melds import meld_total  # noqa: E402
from analyzer.mechanics.sampling import counts_mask  # noqa: E402
from analyzer.mechanics.team_bidding import continue_duels  # noqa: E402
from analyzer.mechanics.scoring import score_sides_durch, score_sides_going_out  # noqa: E402


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

    Policy (documented in docs/methods.md#team-advisor): for each trump, discard greedily the card whose loss
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
def kreuz_estimate(kept, trump, discard, tk, kr):
    """The soloist's estimate of its team's total after the exchange (V4.6, V5.7), from
    its own cards only: its melds with ``trump`` (incl. a discarded trump low card, V2.3)
    + the discard's points (they count for the team, V4.2) + ``kr.est_weights`` . the
    features of :func:`analyzer.mechanics.exchange.estimate_features` of its kept cards,
    a model of what the team adds in tricks and in the partner's melds (fitted per game
    by :func:`fit_team_weights`; residual s.d. ``kr.est_sigma``)."""
    f = np.empty(N_FEATURES, dtype=np.float64)
    estimate_features(kept, trump, kr, f)
    v = np.float64(meld_total(counts_mask(kept), trump, kr))
    v += discard[6 * trump + tk.low_rank] * tk.dissle_value
    for t in range(N_TYPES):
        v += discard[t] * tk.card_points[t]
    for q in range(N_FEATURES):
        v += kr.est_weights[q] * f[q]
    return v


NO_DURCH = 99       # Durch losers where the game has no Durch (V5.7): never sure


@njit
def kreuz_durch_discard(full, tk, kr, ddisc):
    """The soloist's Durch discard (V4.6 "Durch as V2.7", R4): from ``full`` (hand + Dabb,
    uint8[24], not modified) discard ``tk.dabb_size`` cards into ``ddisc`` (uint8[24]),
    losers first (:func:`analyzer.mechanics.exchange.durch_losers`: a kept card is safe
    when every stronger card of its suit is among the soloist's own cards, discard
    included), then the lowest cards.  Returns the losers left among the kept cards
    (0 = a sure Durch: the soloist, leading every trick, wins them all); ``NO_DURCH``
    where the game has no Durch (V5.7)."""
    for t in range(N_TYPES):
        ddisc[t] = 0
    if sure_durch_contract(kr) < 0:
        return NO_DURCH
    kept = full.copy()
    for _d in range(tk.dabb_size):
        bc = -1
        bl = NO_DURCH
        for c in range(N_TYPES):
            if kept[c] == 0:
                continue
            kept[c] -= 1
            lo = durch_losers(kept, full)
            kept[c] += 1
            if bc < 0 or lo < bl or (lo == bl and tk.rank_strength[c] < tk.rank_strength[bc]):
                bl = lo
                bc = c
        kept[bc] -= 1
        ddisc[bc] += 1
    return durch_losers(kept, full)


@njit
def kreuz_soloist_choice(hands5, sol, tk, kr, kept, discard, ddisc):
    """The soloist's exchange and what it knows after it (V4.2, V5.3): ``kept`` (uint8[24])
    = its kept cards, ``discard`` its trump-game discard, ``ddisc`` its Durch discard.
    Only row ``sol`` and the Dabb (row 4) of ``hands5`` are read.  Returns (trump, the
    estimated team total :func:`kreuz_estimate`, Durch losers :func:`kreuz_durch_discard`).
    """
    full = np.zeros(N_TYPES, dtype=np.uint8)
    for t in range(N_TYPES):
        full[t] = hands5[sol, t] + hands5[4, t]
    losers = kreuz_durch_discard(full, tk, kr, ddisc)
    for t in range(N_TYPES):
        kept[t] = full[t]
    trump = kreuz_exchange(kept, tk, kr, discard)
    return trump, kreuz_estimate(kept, trump, discard, tk, kr), losers


@njit(_nrt=False)
def _with_kept(hands5, sol, kept, cnt):
    """``cnt`` (uint8[4, 24]) = the four hands of ``hands5``, the soloist's row replaced
    by the cards it keeps (after its exchange)."""
    for p in range(4):
        for t in range(N_TYPES):
            cnt[p, t] = hands5[p, t]
    for t in range(N_TYPES):
        cnt[sol, t] = kept[t]


@njit
def _kreuz_play(hands5, sol, bid, trump, kept, discard, policies, state, tk, kr, beat, cnt, res):
    """Melds, play and score of a trump contract (V4.4-V4.6, V5.6, V5.7) into ``res``."""
    _with_kept(hands5, sol, kept, cnt)
    m = res[R_MELD:R_MELD + 2]
    kreuz_melds(cnt, trump, discard, sol, tk, kr, m)
    tricks = np.zeros(2, dtype=np.int64)
    leader = sol if tk.bidder_leads != 0 else 0
    pts = res[R_POINTS:R_POINTS + 2]
    play_deal_partners(cnt, trump, leader, sol, policies, state, tk, beat, discard, pts,
                       res[R_COUNTING:R_COUNTING + 2], tricks,
                       np.zeros((0, L_COLS), dtype=np.int64), np.zeros(0, dtype=np.int64), 0)
    dp = 0
    for t in range(N_TYPES):
        dp += discard[t] * tk.card_points[t]
    pts[sol % 2] += dp                     # the discard counts for the soloist's team
    score_sides(sol % 2, bid, m, pts, tricks, res[R_COUNTING:R_COUNTING + 2], tk,
                res[R_SCORE:R_SCORE + 2])
    # R_COUNTING holds the tricks per team here (melds need a team trick, V4.6)
    res[R_COUNTING] = tricks[0]
    res[R_COUNTING + 1] = tricks[1]


@njit
def _kreuz_durch(hands5, sol, full_minus, ddisc, tk, kr, beat, cnt):
    """Play the Durch (:func:`analyzer.mechanics.playout.play_durch_partners`); True when
    the soloist won every trick."""
    _with_kept(hands5, sol, full_minus, cnt)
    return play_durch_partners(cnt, sol, tk, beat, ddisc,
                               np.zeros((0, L_COLS), dtype=np.int64)) == tk.hand_size


@njit
def kreuz_contract(hands5, sol, bid, policies, state, tk, kr, beat, cnt, res):
    """Exchange, contract, melds, play and score of a Binokel team deal won by ``sol`` at
    ``bid`` (V4.2-V4.6, V5.3-V5.7).  ``hands5`` uint8[5, 24]: four hands and the Dabb
    (row 4), not modified; ``cnt`` uint8[4, 24] workspace.  ``sol`` -1 = thrown in.

    After the exchange the soloist chooses, from its own cards and the bid only, as the
    three-player games do (analyzer.mechanics.game.contract_for_bid on its estimate
    :func:`kreuz_estimate`): a sure Durch when the game has one and it is worth more than
    playing (open where V2.7 values that higher), going out (V4.3, V5.4) when playing is
    expected to score below ``-bid``, else play.  Fills ``res`` (RES_COLS: the melds and
    points columns per team, the trump named, the contract)."""
    for i in range(RES_COLS):
        res[i] = 0
    res[R_BIDDER] = sol
    res[R_BID] = bid
    if sol < 0:
        return
    kept = np.zeros(N_TYPES, dtype=np.uint8)
    discard = np.zeros(N_TYPES, dtype=np.uint8)
    ddisc = np.zeros(N_TYPES, dtype=np.uint8)
    trump, est, losers = kreuz_soloist_choice(hands5, sol, tk, kr, kept, discard, ddisc)
    contract = contract_for_bid(est, losers, bid, kr)
    res[R_CONTRACT] = contract
    res[R_TRUMP] = trump
    if contract == CONTRACT_DURCH or contract == CONTRACT_OPEN_DURCH:
        res[R_TRUMP] = -1
        dk = np.zeros(N_TYPES, dtype=np.uint8)
        for t in range(N_TYPES):
            dk[t] = hands5[sol, t] + hands5[4, t] - ddisc[t]
        made = _kreuz_durch(hands5, sol, dk, ddisc, tk, kr, beat, cnt)
        score_sides_durch(sol % 2, made, durch_contract_value(contract, kr), kr.durch_loss_factor,
                         res[R_SCORE:R_SCORE + 2])
    elif contract == CONTRACT_SURRENDER:
        _with_kept(hands5, sol, kept, cnt)
        m = res[R_MELD:R_MELD + 2]
        kreuz_melds(cnt, trump, discard, sol, tk, kr, m)
        m[sol % 2] = 0                      # V4.3: neither the soloist nor its partner melds
        score_sides_going_out(sol % 2, bid, m[1 - sol % 2], tk.going_out_bonus, res[R_SCORE:R_SCORE + 2])
    else:
        _kreuz_play(hands5, sol, bid, trump, kept, discard, policies, state, tk, kr, beat, cnt, res)


# columns of kreuz_outcomes' output (the advisor's bidder branch, one sample)
O_TOTAL, O_OTHER, O_OUT_OTHER, O_EST, O_LOSERS, O_DURCH_MADE = range(6)
O_COLS = 6


@njit
def kreuz_outcomes(hands5, sol, policies, state, tk, kr, beat, cnt, res, out):
    """Every contract the soloist ``sol`` could choose after its exchange, for a grid of
    bids at once (the advisor's table; the exchange does not depend on the bid, only the
    contract does).  Writes ``out`` float64[O_COLS]: the team's total when playing (-1
    when the team won no trick), the other team's score then, the other team's score if
    the soloist goes out (V4.3, V5.4), the soloist's estimate (:func:`kreuz_estimate`),
    its Durch losers, and 1.0 when its Durch (played only where it is sure) is made.
    ``res`` holds the played trump contract at bid 0."""
    kept = np.zeros(N_TYPES, dtype=np.uint8)
    discard = np.zeros(N_TYPES, dtype=np.uint8)
    ddisc = np.zeros(N_TYPES, dtype=np.uint8)
    trump, est, losers = kreuz_soloist_choice(hands5, sol, tk, kr, kept, discard, ddisc)
    for i in range(RES_COLS):
        res[i] = 0
    res[R_BIDDER] = sol
    res[R_TRUMP] = trump
    _kreuz_play(hands5, sol, 0, trump, kept, discard, policies, state, tk, kr, beat, cnt, res)
    team = sol % 2
    out[O_TOTAL] = res[R_SCORE + team] if res[R_COUNTING + team] > 0 else -1
    out[O_OTHER] = res[R_SCORE + 1 - team]
    out[O_OUT_OTHER] = res[R_MELD + 1 - team] + tk.going_out_bonus
    out[O_EST] = est
    out[O_LOSERS] = losers
    out[O_DURCH_MADE] = 0.0
    if losers == 0:
        dk = np.zeros(N_TYPES, dtype=np.uint8)
        for t in range(N_TYPES):
            dk[t] = hands5[sol, t] + hands5[4, t] - ddisc[t]
        if _kreuz_durch(hands5, sol, dk, ddisc, tk, kr, beat, cnt):
            out[O_DURCH_MADE] = 1.0


@njit
def kreuz_contracts_for_bids(est, losers, bids, kr, out):
    """``out[i, j]`` = the contract the soloist of sample ``i`` (estimate ``est[i]``,
    Durch losers ``losers[i]``) chooses at ``bids[j]``
    (analyzer.mechanics.game.contract_for_bid, as :func:`kreuz_contract` does)."""
    for i in range(est.shape[0]):
        for j in range(bids.shape[0]):
            out[i, j] = contract_for_bid(est[i], int(losers[i]), bids[j], kr)


@njit
def kreuz_rule_value(hand, kr, estimate, tmp):
    """Rule-of-thumb value of an 11/9-card hand before the Dabb (a policy): over the four
    trumps the best of (its meld with that trump + the soloist's team model of
    :func:`kreuz_estimate` on these cards, ``kr.est_weights`` . features: what the team
    adds in tricks and partner melds), + ``estimate``, an allowance for what the Dabb and
    the exchange add (team_bidding.DEFAULT_TEAM_TRICK_ESTIMATE).  Returns an int."""
    f = np.empty(N_FEATURES, dtype=np.float64)
    best = -1e18
    for t in range(4):
        estimate_features(hand, t, kr, f)
        v = np.float64(meld_total(counts_mask(hand), t, kr))
        for q in range(N_FEATURES):
            v += kr.est_weights[q] * f[q]
        if v > best:
            best = v
    return np.int64(np.floor(best)) + estimate


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


def fit_team_weights(rules, n: int = 20000, seed: int = 0):
    """Fit the soloist's team estimate (:func:`kreuz_estimate`) of a Binokel team game by
    least squares on team-policy play-outs (V4.6, V5.7).

    ``n`` uniformly random deals (V4.1, V5.1), the soloist a random seat; it exchanges
    (:func:`kreuz_exchange`) and the deal is played by the team policy at bid 0.  The
    target is the team's deal total (rounded card points incl. the discard + both
    partners' melds with a team trick) minus what the soloist knows exactly (its melds
    and the discard's points); it is regressed on the features of the kept cards
    (analyzer.mechanics.exchange.estimate_features).

    Returns (weights float64[N_FEATURES], residual s.d., R^2): the RuleSet's
    ``est_weights`` / ``est_sigma`` (a policy parameter; refit when the play policy changes).
    """
    spec = team_spec(rules)
    tk, kr = spec.tk, spec.kr
    rng = np.random.default_rng(seed)
    st = chunk_state(seed, 7)
    deck = spec.deck.copy()
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    res = np.zeros(RES_COLS, dtype=np.int64)
    pol = np.full(4, POLICY_HEURISTIC, dtype=np.int64)
    kept = np.zeros(N_TYPES, dtype=np.uint8)
    disc = np.zeros(N_TYPES, dtype=np.uint8)
    ddisc = np.zeros(N_TYPES, dtype=np.uint8)
    f = np.empty(N_FEATURES)
    X = np.empty((n, N_FEATURES))
    y = np.empty(n)
    for i in range(n):
        deal_counts(st, deck, hands, spec.hand_size)
        sol = int(rng.integers(4))
        trump, est, _l = kreuz_soloist_choice(hands, sol, tk, kr, kept, disc, ddisc)
        estimate_features(kept, trump, kr, f)
        known = est - float(np.dot(kr.est_weights, f))
        _kreuz_play(hands, sol, 0, trump, kept, disc, pol, st, tk, kr, beat, cnt, res)
        X[i] = f
        y[i] = res[R_SCORE + sol % 2] - known
    w, *_ = np.linalg.lstsq(X, y, rcond=None)
    r = y - X @ w
    return w, float(np.sqrt((r ** 2).sum() / max(1, n - N_FEATURES))), float(1.0 - r.var() / y.var())


# --------------------------------------------------------------------------- one deal (API)

def play_team_deal(rules, seed: int = 0, soloist: int | None = 0, trump: int | None = 0,
                   bid: int | None = None, policy: str = "heuristic") -> dict:
    """Deal one random deal of a team game and play it out (the ``binokel play`` record).

    ``soloist`` 0..3 or None (no contract: forehand leads, nothing is scored); ``trump``
    0..3, or None for a Durch (R4; only where the game has one, V4.6; V5.7 and V6 have
    none); ``bid`` defaults to the opening bid; ``policy`` "heuristic" (the partners'
    heuristic, analyzer.mechanics.play.heuristic_partners) or "random" (uniform over the
    legal cards).  As in the three-player ``play`` there is no auction and no exchange: the Dabb's cards are taken
    as the soloist's discard (their points count for its team, V4.2; a trump low card
    among them melds where V2.3 says so).  The high bidder leads where the game says so
    (V6.2), else forehand (V4.5); the soloist leads a Durch.

    Returns a dict: rules, seed, hands (card codes per seat), dabb, soloist, trump (None =
    Durch), bid, tricks (leader, cards in seat order, winner, points), points / melds /
    tricks per team, scores per team (None without a soloist) and the Durch verdict.
    Raises BinokelError on bad input.
    """
    spec = team_spec(rules)
    tk, kr = spec.tk, spec.kr
    if policy not in ("heuristic", "random"):
        raise BinokelError(f"unknown policy {policy!r}: use heuristic or random")
    if soloist is not None and not 0 <= int(soloist) <= 3:
        raise BinokelError(f"soloist seat {soloist} is outside 0-3 (four players, V1)")
    durch = trump is None
    if durch and soloist is None:
        raise BinokelError("a Durch needs a soloist (R4)")
    if durch and sure_durch_contract(kr) < 0:
        raise BinokelError(f"{spec.name} has no Durch (V5.7, V6)")
    bid = spec.start if bid is None else int(bid)
    if bid < spec.start or (bid - spec.start) % spec.step:
        raise BinokelError(f"bid {bid} is no valid bid ({spec.start}, {spec.start + spec.step}, ...)")
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    deal_counts(chunk_state(seed, 0), spec.deck.copy(), hands, spec.hand_size)
    dabb = hands[4].copy()
    pol = np.full(4, POLICY_HEURISTIC if policy == "heuristic" else POLICY_RANDOM, dtype=np.int64)
    log = np.zeros((spec.hand_size, L_COLS), dtype=np.int64)
    sol = -1 if soloist is None else int(soloist)
    pts = np.zeros(2, dtype=np.int64)
    counting = np.zeros(2, dtype=np.int64)
    tricks = np.zeros(2, dtype=np.int64)
    melds = np.zeros(2, dtype=np.int64)
    if durch:
        won = play_durch_partners_logged(hands[:4].copy(), sol, tk, dabb, log)
        n_tricks = min(won + 1, spec.hand_size)
        for k in range(n_tricks):
            w = int(log[k, L_WINNER])
            tricks[w % 2] += 1
            pts[w % 2] += int(log[k, L_POINTS])
    else:
        leader = sol if (sol >= 0 and tk.bidder_leads) else 0
        n_tricks = play_deal_partners_logged(hands[:4].copy(), int(trump), leader, max(sol, 0), pol,
                                             chunk_state(seed, 1), tk,
                                             dabb if sol >= 0 else np.zeros_like(dabb),
                                             pts, counting, tricks, log, np.zeros(0, dtype=np.int64), 0)
        if sol >= 0 and spec.dabb_size > 0:
            pts[sol % 2] += int((dabb.astype(np.int64) * tk.card_points).sum())
        if spec.dabb_size > 0:
            kreuz_melds(hands[:4].copy(), int(trump), dabb, sol, tk, kr, melds)
        else:
            team_melds80(hands[:4].copy(), int(trump), tk, melds)
    scores = None
    made = None
    if sol >= 0:
        out = np.zeros(2, dtype=np.int64)
        if durch:
            made = bool(won == spec.hand_size)
            score_sides_durch(sol % 2, made, durch_contract_value(sure_durch_contract(kr), kr),
                             kr.durch_loss_factor, out)
        else:
            score_sides(sol % 2, bid, melds, pts, tricks, counting, tk, out)
        scores = [int(out[0]), int(out[1])]
    hand_cls = Hand80 if spec.copies > 2 else Hand

    def as_hand(row):
        return hand_cls(tuple(int(x) for x in row))

    trick_rows = []
    for k in range(int(n_tricks)):
        ld = int(log[k, L_LEADER])
        by_seat = [None] * 4
        for j in range(4):
            by_seat[(ld + j) % 4] = int(log[k, L_CARD0 + j])
        trick_rows.append({"leader": ld, "cards": by_seat, "winner": int(log[k, L_WINNER]),
                           "points": int(log[k, L_POINTS])})
    return {"rules": spec.name, "seed": int(seed), "hands": [as_hand(hands[p]) for p in range(4)],
            "dabb": as_hand(dabb), "soloist": None if sol < 0 else sol, "trump": None if durch else int(trump),
            "bid": bid, "policy": policy, "tricks": trick_rows,
            "points": [int(pts[0]), int(pts[1])], "melds": [int(melds[0]), int(melds[1])],
            "tricks_won": [int(tricks[0]), int(tricks[1])], "scores": scores,
            "durch_made": made if durch else None}
