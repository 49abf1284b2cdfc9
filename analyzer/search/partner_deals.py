"""Whole deals at a partners' table (V1: four seats, partners opposite), played with the
seats' play policies: the heuristic or PIMC (analyzer.search.pimc.play_deal_partners).

Search layer, like the three-player pipelines of :mod:`analyzer.search.deals`: a policy
id may name PIMC, whose loop lives in analyzer.search.pimc, and the mechanics never
import the search.  Rules and result columns are the mechanics' (analyzer.mechanics.game:
``contract_for_bid``, ``R_*`` / ``O_*``; analyzer.mechanics.exchange: the soloist's
exchange).

- :func:`dabb_contract` (exchange with the Dabb, contract, melds, play, score: V4.2-V4.6,
  V5.3-V5.7), :func:`dabb_outcomes` (every contract at once, the advisor's branch),
  :func:`named_trump_contract` (no Dabb: the high bidder names trump and leads, V6.2-V6.6),
  the rule-of-thumb deals of each auction form (:func:`rule_deal_duels`, V1's chain of
  duels; :func:`rule_deal_open`, V6.2's open bidding), :func:`fit_side_weights` (the
  soloist's side estimate) and :func:`play_partners_deal` (the ``binokel play`` record).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import continue_duels, max_bid_of_value, threshold_open_auction
from analyzer.mechanics.cards import N_TYPES, Hand, Hand80
from analyzer.mechanics.exchange import (CONTRACT_DURCH, CONTRACT_OPEN_DURCH, CONTRACT_SURRENDER,
                                         N_FEATURES, durch_contract_value, estimate_features,
                                         least_squares_fit, soloist_choice, sure_durch_contract)
from analyzer.mechanics.melds import side_melds, side_melds_counts
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import team_spec
from analyzer.mechanics.scoring import score_sides, score_sides_durch, score_sides_going_out
from analyzer.mechanics.playout import (L_CARD0, L_COLS, L_LEADER, L_POINTS, L_WINNER,
                                        play_durch_partners, play_durch_partners_logged)
from analyzer.mechanics.play import POLICY_RANDOM, POLICY_HEURISTIC
from analyzer.mechanics.sampling import deal_counts
from analyzer.search.pimc import play_deal_partners, play_deal_partners_logged
from analyzer.mechanics.game import (O_DURCH_MADE,
                                     O_EST,
                                     O_LOSERS,
                                     O_OTHER,
                                     O_OUT_OTHER,
                                     O_TOTAL,
                                     RES_COLS,
                                     R_BID,
                                     R_BIDDER,
                                     R_CONTRACT,
                                     R_COUNTING,
                                     R_MELD,
                                     R_POINTS,
                                     R_SCORE,
                                     R_TRUMP,
                                     contract_for_bid,
                                     rule_maxima_by_tricks,
                                     rule_value_by_model)

@njit
def named_trump_contract(hands, bidder, bid, trump, policies, state, kp, beat, cnt, res):
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
    side_melds_counts(hands, trump, kp, m)
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
def rule_deal_open(hands, trick_value, allowance, policies, state, kp, beat, cnt, res):
    """A deal with four rule-of-thumb bidders (V6.2) and the given play policies."""
    maxb = np.zeros(4, dtype=np.int64)
    trumps = np.zeros(4, dtype=np.int64)
    rule_maxima_by_tricks(hands, kp, trick_value, allowance, maxb, trumps)
    out = np.zeros(2, dtype=np.int64)
    threshold_open_auction(maxb, kp.min_bid, kp.bid_step, out)
    b = out[0]
    named_trump_contract(hands, b, out[1], trumps[b] if b >= 0 else 0, policies, state, kp, beat,
                    cnt, res)


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
def _play_trump_contract(hands5, sol, bid, trump, kept, discard, policies, state, tk, kr, beat, cnt, res):
    """Melds, play and score of a trump contract (V4.4-V4.6, V5.6, V5.7) into ``res``."""
    _with_kept(hands5, sol, kept, cnt)
    m = res[R_MELD:R_MELD + 2]
    side_melds(cnt, trump, discard, sol, tk, kr, m)
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
def _play_durch(hands5, sol, full_minus, ddisc, tk, kr, beat, cnt):
    """Play the Durch (:func:`analyzer.mechanics.playout.play_durch_partners`); True when
    the soloist won every trick."""
    _with_kept(hands5, sol, full_minus, cnt)
    return play_durch_partners(cnt, sol, tk, beat, ddisc,
                           np.zeros((0, L_COLS), dtype=np.int64)) == tk.hand_size


@njit
def dabb_contract(hands5, sol, bid, policies, state, tk, kr, beat, cnt, res):
    """Exchange, contract, melds, play and score of a Binokel team deal won by ``sol`` at
    ``bid`` (V4.2-V4.6, V5.3-V5.7).  ``hands5`` uint8[5, 24]: four hands and the Dabb
    (row 4), not modified; ``cnt`` uint8[4, 24] workspace.  ``sol`` -1 = thrown in.

    After the exchange the soloist chooses, from its own cards and the bid only, as the
    three-player games do (analyzer.mechanics.game.contract_for_bid on its estimate
    :func:`side_estimate`): a sure Durch when the game has one and it is worth more than
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
    trump, est, losers = soloist_choice(hands5, sol, tk, kr, kept, discard, ddisc)
    contract = contract_for_bid(est, losers, bid, kr)
    res[R_CONTRACT] = contract
    res[R_TRUMP] = trump
    if contract == CONTRACT_DURCH or contract == CONTRACT_OPEN_DURCH:
        res[R_TRUMP] = -1
        dk = np.zeros(N_TYPES, dtype=np.uint8)
        for t in range(N_TYPES):
            dk[t] = hands5[sol, t] + hands5[4, t] - ddisc[t]
        made = _play_durch(hands5, sol, dk, ddisc, tk, kr, beat, cnt)
        score_sides_durch(sol % 2, made, durch_contract_value(contract, kr), kr.durch_loss_factor,
                         res[R_SCORE:R_SCORE + 2])
    elif contract == CONTRACT_SURRENDER:
        _with_kept(hands5, sol, kept, cnt)
        m = res[R_MELD:R_MELD + 2]
        side_melds(cnt, trump, discard, sol, tk, kr, m)
        m[sol % 2] = 0                      # V4.3: neither the soloist nor its partner melds
        score_sides_going_out(sol % 2, bid, m[1 - sol % 2], tk.going_out_bonus, res[R_SCORE:R_SCORE + 2])
    else:
        _play_trump_contract(hands5, sol, bid, trump, kept, discard, policies, state, tk, kr, beat, cnt, res)


@njit
def dabb_outcomes(hands5, sol, policies, state, tk, kr, beat, cnt, res, out):
    """Every contract the soloist ``sol`` could choose after its exchange, for a grid of
    bids at once (the advisor's table; the exchange does not depend on the bid, only the
    contract does).  Writes ``out`` float64[O_COLS]: the team's total when playing (-1
    when the team won no trick), the other team's score then, the other team's score if
    the soloist goes out (V4.3, V5.4), the soloist's estimate (:func:`side_estimate`),
    its Durch losers, and 1.0 when its Durch (played only where it is sure) is made.
    ``res`` holds the played trump contract at bid 0."""
    kept = np.zeros(N_TYPES, dtype=np.uint8)
    discard = np.zeros(N_TYPES, dtype=np.uint8)
    ddisc = np.zeros(N_TYPES, dtype=np.uint8)
    trump, est, losers = soloist_choice(hands5, sol, tk, kr, kept, discard, ddisc)
    for i in range(RES_COLS):
        res[i] = 0
    res[R_BIDDER] = sol
    res[R_TRUMP] = trump
    _play_trump_contract(hands5, sol, 0, trump, kept, discard, policies, state, tk, kr, beat, cnt, res)
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
        if _play_durch(hands5, sol, dk, ddisc, tk, kr, beat, cnt):
            out[O_DURCH_MADE] = 1.0


@njit
def rule_deal_duels(hands5, estimate, policies, state, tk, kr, beat, cnt, res):
    """A Binokel team deal with four rule-of-thumb bidders (chain of duels, V1)."""
    maxb = np.zeros(4, dtype=np.int64)
    tmp = np.zeros(4, dtype=np.int64)
    for p in range(4):
        maxb[p] = max_bid_of_value(rule_value_by_model(hands5[p], kr, estimate, tmp), tk.min_bid,
                                   tk.bid_step)
    out = np.zeros(2, dtype=np.int64)
    continue_duels(maxb, 0, -1, 0, 1, tk.min_bid, tk.bid_step, tk.forced_opening, out)
    dabb_contract(hands5, out[0], out[1], policies, state, tk, kr, beat, cnt, res)


def fit_side_weights(rules, n: int = 20000, seed: int = 0):
    """Fit the soloist's team estimate (:func:`side_estimate`) of a Binokel team game by
    least squares on team-policy play-outs (V4.6, V5.7).

    ``n`` uniformly random deals (V4.1, V5.1), the soloist a random seat; it exchanges
    (:func:`greedy_exchange`) and the deal is played by the team policy at bid 0.  The
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
        trump, est, _l = soloist_choice(hands, sol, tk, kr, kept, disc, ddisc)
        estimate_features(kept, trump, kr, f)
        known = est - float(np.dot(kr.est_weights, f))
        _play_trump_contract(hands, sol, 0, trump, kept, disc, pol, st, tk, kr, beat, cnt, res)
        X[i] = f
        y[i] = res[R_SCORE + sol % 2] - known
    return least_squares_fit(X, y)


def play_partners_deal(rules, seed: int = 0, soloist: int | None = 0, trump: int | None = 0,
                   bid: int | None = None, policy: str = "heuristic") -> dict:
    """Deal one random deal of a team game and play it out (the ``binokel play`` record).

    ``soloist`` 0..3 or None (no contract: forehand leads, nothing is scored); ``trump``
    0..3, or None for a Durch (R4; only where the game has one, V4.6; V5.7 and V6 have
    none); ``bid`` defaults to the opening bid; ``policy`` "heuristic" (the team policy,
    analyzer.mechanics.play.heuristic_partners) or "random" (uniform over the legal cards).  As in the
    three-player ``play`` there is no auction and no exchange: the Dabb's cards are taken
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
                                    chunk_state(seed, 1), tk, dabb if sol >= 0 else np.zeros_like(dabb),
                                    pts, counting, tricks, log, np.zeros(0, dtype=np.int64), 0)
        if sol >= 0 and spec.dabb_size > 0:
            pts[sol % 2] += int((dabb.astype(np.int64) * tk.card_points).sum())
        if spec.dabb_size > 0:
            side_melds(hands[:4].copy(), int(trump), dabb, sol, tk, kr, melds)
        else:
            side_melds_counts(hands[:4].copy(), int(trump), tk, melds)
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
