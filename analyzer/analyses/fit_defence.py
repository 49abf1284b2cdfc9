"""Fit the weights of the ``heuristic-lin`` defence (:data:`analyzer.mechanics.play.DEFENCE_LIN`)
and of ``heuristic-lin2`` (:data:`analyzer.mechanics.play.DEFENCE_LIN2`, ``features="lin2"``:
33 public features, six contexts; play.py lists them).

The policy (analyzer.mechanics.play._defend_lin): at a defender's decision the context
``ctx`` (lead, winning surely, winning before the soloist, losing to the partner's safe
trick, losing) picks a row ``w`` of the weights, and the legal card with the lowest
``w . f(card)`` is played, ``f`` = :func:`~analyzer.mechanics.play._lin_features` (18
public features: the own hand, the cards played, what the plays proved under R6, the
melds shown before the first lead R5, and :func:`~analyzer.mechanics.play._defend`'s
choice).  The soloist plays ``heuristic-v1`` as under every heuristic policy.

Approximate policy iteration (:func:`fit_defence`):

- Deals: the duplicate protocol's trump deals (analyzer.analyses.strength.trump_deals:
  R2 deal, rule-of-thumb R3 auction, fast exchange R4; leader seat 0), ``deals`` new ones
  per iteration: iteration ``j`` uses the deals ``j * deals .. (j + 1) * deals - 1`` of
  the seed's stream.
- Policy 0: the current defence :func:`_defend` (weights: ``-1000`` on feature 0,
  "this is _defend's card", and 0 elsewhere).
- Labels (:func:`collect`): each deal is played with the current policy; at every
  defender decision with at least two legal cards (R6), each legal card in turn is
  played and the deal finished with the same policies *in the true deal* (a roll-out);
  the label is the soloist's trick points (R7).  The hidden cards enter only here.
- Fit (:func:`ridge_fit`): per context, a ridge regression (``ridge`` = lambda, 10) of
  the labels on the features, both centred within each decision (only differences
  between the cards of one decision matter to an argmin); the next policy plays the new
  weights.  A context with fewer than 50 rows keeps zero weights.

The shipped weights are data (analyzer.fits: data/fits/defence_lin.json and
defence_lin2.json, each naming the command that regenerates it; ``binokel fit-defence
--out FILE`` writes such a file).  :data:`~analyzer.mechanics.play.DEFENCE_LIN` is the second iteration's fit
on 4,000 seed-7 deals per iteration, rounded to 3 decimals (session-4 notes; iteration
1 made the defence worse, iteration 2 better, later ones oscillated)::

    python -m cli.main fit-defence --deals 4000 --seed 7 --iterations 2

The shipped :data:`~analyzer.mechanics.play.DEFENCE_LIN2` (policy ``heuristic-lin2``) is
the sixth iteration of the lin2 feature set started from heuristic-lin's weights
(:func:`initial_weights` ``("lin2", "lin")``, which plays heuristic-lin exactly), same
deals, rounded to 3 decimals; the iteration was picked by held-out seed-11 deals (5,000,
paired against heuristic-lin; session-6 notes /work/notes/heur4.md), not by the
duplicate's seeds::

    python -m cli.main fit-defence --features lin2 --start lin --iterations 6

The roll-outs label with the true deal, so the fit sees "what the card would have been
worth had the defender known the hands", averaged by the regression over the decisions
that share the same public features; the features themselves never read a hidden card
(tests/analyses/test_fit_defence.py replaces the hidden hands and checks the rows).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.strength import trump_deals
from analyzer.errors import BinokelError
from analyzer.fits import write_fit_file
from analyzer.kernels.bits import cttz
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.exchange import CONTRACT_PLAY
from analyzer.mechanics.game import contract_for_bid
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.ruleset import SIDES_PARTNERS, get_game
from analyzer.mechanics.bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_DABB_ESTIMATE,
                                        DEFAULT_TRICK_VALUE, continue_duels,
                                        threshold_open_auction)
from analyzer.mechanics.game import rule_value_by_model, rule_maxima_by_tricks
from analyzer.mechanics.exchange import soloist_choice
from analyzer.mechanics.sampling import deal_counts
from analyzer.mechanics.play import heuristic_partners
from analyzer.mechanics.trick import add_card, close_trick, proves, relief_of, sides_of
from analyzer.mechanics.trick import legal as step_legal
from analyzer.parallel import parallel_map
from analyzer.mechanics.play import (DEFENCE_LIN, LIN2_CTX, LIN2_F, LIN_F, _drop_copy,
                                     _heuristic_v1, _lin2_features, _lin2_score, _lin2_setup,
                                     _lin_features, _lin_score, _lin_setup, _setup, beat_table,
                                     card_beats, legal_mask_duty, proven_absent, shown_planes)
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet, team_spec

N_CTX = 5
#: The partners' linear defence (V1: the defenders are the two partners opposite the
#: bidder's side).  Decision contexts: the defender leads; its side wins the trick so far;
#: the bidder's side wins it.
PARTNER_CTX = 3
#: Public features of a defender's legal card at a partners' table (:func:`_partner_features`).
PARTNER_FEATURES = ("team_policy_card", "card_points", "trump", "wins", "wins_points", "master",
                    "rank", "suit_length", "wins_before_partner")
PARTNER_F = len(PARTNER_FEATURES)
#: The feature sets: name -> (code of the play loop's ``fs``, contexts, features).  ``lin``:
#: the heuristic-lin defence (play.DEFENCE_LIN); ``lin2``: heuristic-lin2
#: (play.DEFENCE_LIN2); ``partners``: the partners' linear defence (V1, no shipped policy).
FEATURE_SETS = {"lin": (0, N_CTX, LIN_F), "lin2": (1, LIN2_CTX, LIN2_F),
                "partners": (2, PARTNER_CTX, PARTNER_F)}
#: Starting policies: ``defend`` = the table's current defence (_defend against a lone
#: soloist, play.heuristic_partners for partners), ``lin`` = heuristic-lin.
STARTS = ("defend", "lin")
#: per feature set: the shipped fit file (analyzer.fits), the play.py table it fills and
#: its decision contexts
WEIGHT_FILES = {"lin": ("defence_lin", "DEFENCE_LIN",
                        "lead, winning surely, winning before the soloist, losing to the "
                        "partner's safe trick, losing"),
                "lin2": ("defence_lin2", "DEFENCE_LIN2",
                         "lead with the soloist second, lead with the partner second, then "
                         "heuristic-lin's four following contexts"),
                "partners": (None, None, "lead, the own side winning the trick, the bidder's "
                             "side winning it")}
POLICY_OF = {"lin": "heuristic-lin", "lin2": "heuristic-lin2",
             "partners": "partners' linear"}
DEFAULT_DEALS = 4000
DEFAULT_SEED = 7
DEFAULT_ITERATIONS = 2
DEFAULT_RIDGE = 10.0
MAX_DEALS = 100_000
MAX_ITERATIONS = 20
#: A context with fewer labelled rows than this keeps zero weights (too little to fit).
MIN_ROWS = 50
#: Defender decisions per deal are at most 2 x 15 tricks; legal cards per decision <= 24.
_MAX_DEC = 45
_CHUNK = 250          # deals per numba call of collect (bounds the row buffers)


def initial_weights(features: str = "lin", start: str = "defend") -> np.ndarray:
    """Policy 0 in the feature set ``features``: ``start`` ``"defend"`` = the current
    defence (:func:`analyzer.mechanics.play._defend`, or for ``partners`` the team policy
    play.heuristic_partners: -1000 on feature 0, "this is its card"), ``"lin"`` = heuristic-lin (play.DEFENCE_LIN; in ``lin2`` its rows
    on the first 18 features, the lead row for both lead contexts, zeros elsewhere)."""
    if features not in FEATURE_SETS:
        raise BinokelError(f"unknown feature set {features!r}: use {', '.join(FEATURE_SETS)}")
    if start not in STARTS:
        raise BinokelError(f"unknown start {start!r}: use {', '.join(STARTS)}")
    fs, n_ctx, n_f = FEATURE_SETS[features]
    W = np.zeros((n_ctx, n_f))
    if start == "defend":
        W[:, 0] = -1000.0
    elif fs == 0:
        W[:] = DEFENCE_LIN
    elif fs == 2:
        raise BinokelError("start lin is heuristic-lin's weights, a defence against a lone "
                           "soloist (R8); the partners' defence (V1) starts from the team "
                           "policy: use start defend")
    else:
        W[0, :LIN_F] = DEFENCE_LIN[0]
        W[1:, :LIN_F] = DEFENCE_LIN
    return W


@njit
def _play(hands, trump, soloist, W, kr, beat, forced, n_forced, rec, phis, cardbuf, ctxs,
          nls, moves, seq, fs=0):
    """Play one deal (leader seat 0): defenders :func:`_defend_lin_w`'s rule with weights
    ``W``, the soloist heuristic-v1, the first ``n_forced`` plays taken from ``forced``;
    as analyzer.mechanics.play._play_core (shown melds R5, proofs R6, last trick R7).
    ``rec`` = 1 records every defender decision with >= 2 legal cards: its features
    ``phis[d, :n]``, cards ``cardbuf[d, :n]``, context, legal count and move index.
    ``seq`` receives the 45 plays.  ``fs``: the feature set (0 heuristic-lin, 1
    heuristic-lin2, :data:`FEATURE_SETS`).  Returns (the soloist's trick points, decisions)."""
    lo = np.empty(3, dtype=np.int64)
    hi = np.empty(3, dtype=np.int64)
    dlo, dhi = _setup(hands, soloist, lo, hi)
    cp = kr.card_points
    rs = kr.rank_strength
    plo = np.int64(0)
    phi = np.int64(0)
    ab0 = np.int64(0)
    ab1 = np.int64(0)
    ab2 = np.int64(0)
    sl = np.zeros(3, dtype=np.int64)
    sh = np.zeros(3, dtype=np.int64)
    for p in range(3):
        sl[p], sh[p] = shown_planes(lo[p], hi[p], trump, kr)
    ld = 0
    bl = kr.beat_led_trumped
    total = 0
    mv = 0
    nd = 0
    for trick in range(kr.hand_size):
        tp = 0
        wcard = -1
        wseat = -1
        lsuit = -1
        lhigh = -1
        for k in range(3):
            seat = (ld + k) % 3
            h = lo[seat]
            legal = h if k == 0 else legal_mask_duty(h, lsuit, wcard, lhigh, trump, beat, bl, 0)
            if seat == soloist:
                klo = plo | dlo
                khi = phi | dhi | (plo & dlo)
            else:
                klo = plo
                khi = phi
            if mv < n_forced:
                c = forced[mv]
            elif seat == soloist:
                c = _heuristic_v1(seat, legal, k, lsuit, wcard, wseat, tp, ld, lo[seat], hi[seat],
                                  klo, khi, ab0, ab1, ab2, trump, soloist, beat, cp, rs)
            elif fs == 1:
                kso = sl[soloist]
                ksp = sl[3 - seat - soloist]
                ctx, dflt, unseen, ab_so, ab_pa, late, so_next, extra = _lin2_setup(
                    seat, legal, k, lsuit, wcard, wseat, tp, ld, lo[seat], hi[seat], klo, khi,
                    ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
                # the same loop as play._defend_lin2_w, recording the features on the way
                w = W[ctx]
                c = -1
                bs = 0.0
                n = 0
                m = legal
                while m != 0:
                    cc = cttz(m)
                    m &= m - 1
                    f2 = _lin2_features(cc, dflt, unseen, ab_so, ab_pa, late, so_next, extra,
                                        lo[seat], hi[seat], trump, beat, cp, rs, kso, ksp)
                    v = _lin2_score(w, f2)
                    if c < 0 or v < bs:
                        c = cc
                        bs = v
                    if rec == 1:
                        for j in range(LIN2_F):
                            phis[nd, n, j] = f2[j]
                        cardbuf[nd, n] = cc
                    n += 1
                if rec == 1 and n >= 2:
                    ctxs[nd] = ctx
                    nls[nd] = n
                    moves[nd] = mv
                    nd += 1
            else:
                kso = sl[soloist]
                ksp = sl[3 - seat - soloist]
                ctx, dflt, unseen, ab_so, ab_pa, late, so_next = _lin_setup(
                    seat, legal, k, lsuit, wcard, wseat, tp, ld, lo[seat], hi[seat], klo, khi,
                    ab0, ab1, ab2, trump, soloist, beat, cp, rs, kso, ksp)
                # the same loop as play._defend_lin_w (same features, same sums, same
                # ties), recording the features on the way
                w = W[ctx]
                c = -1
                bs = 0.0
                n = 0
                m = legal
                while m != 0:
                    cc = cttz(m)
                    m &= m - 1
                    f = _lin_features(cc, dflt, unseen, ab_so, ab_pa, late, so_next, lo[seat],
                                      hi[seat], trump, beat, cp, rs, kso, ksp)
                    v = _lin_score(w, f, so_next)
                    if c < 0 or v < bs:
                        c = cc
                        bs = v
                    if rec == 1:
                        for j in range(LIN_F):
                            phis[nd, n, j] = f[j]
                        cardbuf[nd, n] = cc
                    n += 1
                if rec == 1 and n >= 2:
                    ctxs[nd] = ctx
                    nls[nd] = n
                    moves[nd] = mv
                    nd += 1
            seq[mv] = c
            if k > 0:
                nv = proven_absent(c, lsuit, wcard, lhigh, trump, beat, bl)
                if seat == 0:
                    ab0 |= nv
                elif seat == 1:
                    ab1 |= nv
                else:
                    ab2 |= nv
            b = np.int64(1) << np.int64(c)
            if hi[seat] & b:
                hi[seat] &= ~b
            else:
                lo[seat] &= ~b
            if plo & b:
                phi |= b
            else:
                plo |= b
            sl[seat], sh[seat] = _drop_copy(sl[seat], sh[seat], b)
            if k == 0:
                wcard = c
                wseat = seat
                lsuit = c // 6
                lhigh = c
            else:
                if (beat[lhigh] >> np.int64(c)) & 1:
                    lhigh = c
                if card_beats(c, wcard, trump, beat):
                    wcard = c
                    wseat = seat
            tp += cp[c]
            mv += 1
        if trick == kr.hand_size - 1:
            tp += kr.last_trick_bonus
        if wseat == soloist:
            total += tp
        ld = wseat
    return total, nd


@njit
def _collect(H, TR, SO, W, kr, X, Y, C, G, g0, fs):
    """Roll-out labels of deals ``H[i]`` (uint8[3, 24] hands), trumps ``TR``, soloists
    ``SO`` under weights ``W`` (module docstring).  Rows: per decision (group ``g0 + ...``)
    and legal card: features ``X``, label ``Y``, context ``C``, group ``G``.  Returns the
    rows written."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kr, beat)
    phis = np.zeros((_MAX_DEC, 24, X.shape[1]))
    cardbuf = np.zeros((_MAX_DEC, 24), dtype=np.int64)
    ctxs = np.zeros(_MAX_DEC, dtype=np.int64)
    nls = np.zeros(_MAX_DEC, dtype=np.int64)
    moves = np.zeros(_MAX_DEC, dtype=np.int64)
    seq = np.zeros(45, dtype=np.int64)
    seq2 = np.zeros(45, dtype=np.int64)
    forced = np.zeros(45, dtype=np.int64)
    row = 0
    g = g0
    for i in range(H.shape[0]):
        _, nd = _play(H[i], TR[i], SO[i], W, kr, beat, forced, 0, 1, phis, cardbuf, ctxs, nls,
                      moves, seq, fs)
        for d in range(nd):
            mv = moves[d]
            forced[:mv] = seq[:mv]
            for j in range(nls[d]):
                forced[mv] = cardbuf[d, j]
                q, _ = _play(H[i], TR[i], SO[i], W, kr, beat, forced, mv + 1, 0, phis, cardbuf,
                             ctxs, nls, moves, seq2, fs)
                X[row, :] = phis[d, j, :]
                Y[row] = q
                C[row] = ctxs[d]
                G[row] = g
                row += 1
            g += 1
    return row


@njit
def _evaluate(H, TR, SO, W, kr, out, fs):
    """The soloist's trick points of each deal with the defence ``W`` (no recording)."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kr, beat)
    phis = np.zeros((1, 1, 1))
    cardbuf = np.zeros((1, 1), dtype=np.int64)
    z = np.zeros(1, dtype=np.int64)
    seq = np.zeros(45, dtype=np.int64)
    for i in range(H.shape[0]):
        out[i], _ = _play(H[i], TR[i], SO[i], W, kr, beat, seq, 0, 0, phis, cardbuf, z, z, z, seq,
                          fs)


# --------------------------------------------------------------------------- partners (V1)
#: Defender decisions per partners' deal: 2 defenders x 20 tricks (V6.1) at most.
_MAX_DEC_PARTNERS = 40


@njit
def _partner_features(c, heur, k, wcard, tp, own, unseen, trump, beat, cp, rs, f):
    """``f`` (float64[PARTNER_F]) <- :data:`PARTNER_FEATURES` of card ``c`` for a
    defender: whether the team policy (play.heuristic_partners) would play it, its card
    points, trump or not, whether it beats the trick's winning card ``wcard`` (``k`` cards
    played), the points it would take then (``tp`` so far + its own), whether no unseen
    card (``unseen``: types of which the defender cannot see every copy) beats it, its rank
    strength, the defender's cards in its suit, and whether it wins with the partner
    still to play.  Reads only the defender's hand ``own`` and public facts."""
    s = c // 6
    wins = 1.0 if k > 0 and card_beats(c, wcard, trump, beat) else 0.0
    n = 0
    for r in range(6):
        n += own[6 * s + r]
    f[0] = 1.0 if c == heur else 0.0
    f[1] = cp[c]
    f[2] = 1.0 if s == trump else 0.0
    f[3] = wins
    f[4] = wins * (tp + cp[c])
    f[5] = 1.0 if (unseen & beat[c]) == 0 else 0.0
    f[6] = rs[c]
    f[7] = n
    f[8] = wins if k == 1 else 0.0


@njit
def _play_partners(hands, trump, leader, bidder, discard, W, tk, beat, duties, side, forced,
                   n_forced, rec, phis, cardbuf, ctxs, nls, moves, seq):
    """Play one deal at a partners' table (V1; hands uint8[4, 24] after the exchange, not
    modified): the bidder's side plays the team policy (play.heuristic_partners, the
    bidder knowing its ``discard``), the defenders the linear rule with weights ``W``
    (:data:`PARTNER_CTX` x :data:`PARTNER_F`; the lowest ``W[ctx] . f`` among the legal
    cards), the first ``n_forced`` plays taken from ``forced``.  Every trick runs on the
    one trick step of analyzer.mechanics.trick with the game's duties ``duties`` =
    (follow, trump duty, beat mode, overtrump, partner relief): V4.5 R6, V5.6, V6.4; the
    last trick's bonus R7.  ``rec`` = 1 records every defender decision with >= 2 legal
    cards as :func:`_play` does; ``seq`` receives the plays.  Returns (the bidder's side's
    trick points, decisions)."""
    cnt = hands.copy()
    cp = tk.card_points
    rs = tk.rank_strength
    copies = tk.copies
    fol, td, bm, ot, pr = duties[0], duties[1], duties[2], duties[3], duties[4]
    n_tricks = 0
    for t in range(N_TYPES):
        n_tricks += cnt[0, t]
    pres = np.zeros(4, dtype=np.int64)
    for p in range(4):
        for t in range(N_TYPES):
            if cnt[p, t] > 0:
                pres[p] |= np.int64(1) << np.int64(t)
    played = np.zeros(N_TYPES, dtype=np.uint8)
    known_b = discard.copy()          # what the bidder knows is out: played + its discard
    ab = np.zeros(4, dtype=np.int64)
    pts = np.zeros(2, dtype=np.int64)
    trk = np.zeros(2, dtype=np.int64)
    cnts = np.zeros(2, dtype=np.int64)
    f = np.zeros(PARTNER_F)
    ld = leader
    mv = 0
    nd = 0
    for trick in range(n_tricks):
        tp = 0
        wcard = -1
        wseat = -1
        lsuit = -1
        best_led = -1
        for k in range(4):
            seat = (ld + k) % 4
            rel = relief_of(seat, wseat, side, pr)
            legal = step_legal(pres[seat], lsuit, wcard, best_led, trump, beat, fol, td, bm, ot,
                               rel)
            if mv < n_forced:
                c = forced[mv]
            else:
                heur = heuristic_partners(seat, legal, k, lsuit, wcard, wseat, tp, cnt[seat],
                                      known_b if seat == bidder else played, ab, trump, bidder,
                                      beat, cp, rs, copies)
                if side[seat] == side[bidder]:
                    c = heur
                else:
                    ctx = 0 if k == 0 else (1 if side[wseat] == side[seat] else 2)
                    unseen = np.int64(0)
                    for t in range(N_TYPES):
                        if cnt[seat, t] + played[t] < copies[t]:
                            unseen |= np.int64(1) << np.int64(t)
                    w = W[ctx]
                    c = -1
                    bs = 0.0
                    n = 0
                    m = legal
                    while m != 0:
                        cc = cttz(m)
                        m &= m - 1
                        _partner_features(cc, heur, k, wcard, tp, cnt[seat], unseen, trump, beat,
                                          cp, rs, f)
                        v = 0.0
                        for j in range(PARTNER_F):
                            v += w[j] * f[j]
                        if c < 0 or v < bs:
                            c = cc
                            bs = v
                        if rec == 1:
                            for j in range(PARTNER_F):
                                phis[nd, n, j] = f[j]
                            cardbuf[nd, n] = cc
                        n += 1
                    if rec == 1 and n >= 2:
                        ctxs[nd] = ctx
                        nls[nd] = n
                        moves[nd] = mv
                        nd += 1
            seq[mv] = c
            if k > 0:
                ab[seat] |= proves(c, lsuit, wcard, best_led, trump, beat, fol, td, bm, ot, rel)
            cnt[seat, c] -= 1
            if cnt[seat, c] == 0:
                pres[seat] &= ~(np.int64(1) << np.int64(c))
            played[c] += 1
            known_b[c] += 1
            lsuit, wcard, wseat, best_led = add_card(c, seat, lsuit, wcard, wseat, best_led,
                                                     trump, beat)
            tp += cp[c]
            mv += 1
        close_trick(wseat, tp, trick == n_tricks - 1, tk.last_trick_bonus, side, pts, trk, cnts)
        ld = wseat
    return pts[side[bidder]], nd


@njit
def _collect_partners(H, TR, LD, BI, DI, W, tk, duties, side, X, Y, C, G):
    """Roll-out labels at a partners' table (as :func:`_collect`): per defender decision
    and legal card, the card is played and the deal finished with the same policies in the
    true deal; the label is the bidder's side's trick points.  Returns the rows written."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    n_moves = 4 * 20
    phis = np.zeros((_MAX_DEC_PARTNERS, 24, X.shape[1]))
    cardbuf = np.zeros((_MAX_DEC_PARTNERS, 24), dtype=np.int64)
    ctxs = np.zeros(_MAX_DEC_PARTNERS, dtype=np.int64)
    nls = np.zeros(_MAX_DEC_PARTNERS, dtype=np.int64)
    moves = np.zeros(_MAX_DEC_PARTNERS, dtype=np.int64)
    seq = np.zeros(n_moves, dtype=np.int64)
    seq2 = np.zeros(n_moves, dtype=np.int64)
    forced = np.zeros(n_moves, dtype=np.int64)
    row = 0
    g = 0
    for i in range(H.shape[0]):
        _, nd = _play_partners(H[i], TR[i], LD[i], BI[i], DI[i], W, tk, beat, duties, side,
                               forced, 0, 1, phis, cardbuf, ctxs, nls, moves, seq)
        for d in range(nd):
            mv = moves[d]
            forced[:mv] = seq[:mv]
            for j in range(nls[d]):
                forced[mv] = cardbuf[d, j]
                q, _ = _play_partners(H[i], TR[i], LD[i], BI[i], DI[i], W, tk, beat, duties,
                                      side, forced, mv + 1, 0, phis, cardbuf, ctxs, nls, moves,
                                      seq2)
                X[row, :] = phis[d, j, :]
                Y[row] = q
                C[row] = ctxs[d]
                G[row] = g
                row += 1
            g += 1
    return row


@njit
def _evaluate_partners(H, TR, LD, BI, DI, W, tk, duties, side, out):
    """The bidder's side's trick points of each deal with the defence ``W``."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    phis = np.zeros((1, 1, 1))
    cardbuf = np.zeros((1, 1), dtype=np.int64)
    z = np.zeros(1, dtype=np.int64)
    seq = np.zeros(4 * 20, dtype=np.int64)
    for i in range(H.shape[0]):
        out[i], _ = _play_partners(H[i], TR[i], LD[i], BI[i], DI[i], W, tk, beat, duties, side,
                                   seq, 0, 0, phis, cardbuf, z, z, z, seq)


def _partner_args(rules):
    """(TeamKernel, duties int64[5], side int64[4]) of a partners' game: the duties of its
    compiled RuleSet (follow, trump duty, beat mode, overtrump, partner relief; V4.5, V5.6,
    V6.4) and the sides seat % 2 (V1)."""
    spec = team_spec(rules)
    k = get_game(rules.name).kernel
    duties = np.array([k.follow, k.trump_duty, k.beat_mode, k.overtrump, k.partner_relief],
                      dtype=np.int64)
    side = np.empty(4, dtype=np.int64)
    sides_of(SIDES_PARTNERS, np.zeros(4, dtype=np.int64), -1, side)
    return spec.tk, duties, side


def partner_trump_deals(n: int, seed: int, start: int = 0, rules=None):
    """Trump deals ``start .. start + n - 1`` at a partners' table from ``seed``, as the
    rule-of-thumb game deals them (partner_deals.rule_deal_duels / rule_deal_open): the deal
    (V4.1, V5.1, V6.1), the auction of four rule-of-thumb bidders (V1 chain of duels, or
    V6.2 open bidding), with a Dabb the bidder's exchange and trump (V4.2, V5.3), a trump
    contract only (deals thrown in, gone out of or played as Durch are drawn and passed
    over).  Returns hands uint8[n, 4, 24] in play, trumps, leaders (the bidder where it
    leads, V6.2; else seat 0, V4.5), bidders, the bidder's discards uint8[n, 24]."""
    spec = team_spec(rules)
    tk, kr = spec.tk, spec.kr
    H = np.zeros((n, 4, N_TYPES), dtype=np.uint8)
    DI = np.zeros((n, N_TYPES), dtype=np.uint8)
    TR = np.zeros(n, dtype=np.int64)
    LD = np.zeros(n, dtype=np.int64)
    BI = np.zeros(n, dtype=np.int64)
    st = chunk_state(seed, 0)
    deck = spec.deck.copy()
    hands5 = np.zeros((5, N_TYPES), dtype=np.uint8)
    maxb = np.zeros(4, dtype=np.int64)
    trumps = np.zeros(4, dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    tmp = np.zeros(4, dtype=np.int64)
    kept = np.zeros(N_TYPES, dtype=np.uint8)
    disc = np.zeros(N_TYPES, dtype=np.uint8)
    ddisc = np.zeros(N_TYPES, dtype=np.uint8)
    j = -start
    while j < n:
        deal_counts(st, deck, hands5, spec.hand_size)
        row = hands5[:4].copy()
        disc[:] = 0
        if spec.open_auction:
            rule_maxima_by_tricks(row, tk, DEFAULT_TRICK_VALUE, DEFAULT_PARTNER_ALLOWANCE, maxb, trumps)
            threshold_open_auction(maxb, tk.min_bid, tk.bid_step, out)
            bidder, trump = int(out[0]), int(trumps[out[0]])
        else:
            for p in range(4):
                maxb[p] = rule_value_by_model(hands5[p], kr, DEFAULT_DABB_ESTIMATE, tmp) \
                    // tk.bid_step * tk.bid_step
            continue_duels(maxb, 0, -1, 0, 1, tk.min_bid, tk.bid_step, tk.forced_opening, out)
            bidder = int(out[0])
        if bidder < 0:
            continue
        if spec.dabb_size > 0:
            trump, est, losers = soloist_choice(hands5, bidder, tk, kr, kept, disc, ddisc)
            if contract_for_bid(est, losers, int(out[1]), kr) != CONTRACT_PLAY:
                continue
            row[bidder] = kept
        if j >= 0:
            H[j] = row
            DI[j] = disc
            TR[j] = trump
            BI[j] = bidder
            LD[j] = bidder if tk.bidder_leads != 0 else 0
        j += 1
    return H, TR, LD, BI, DI


def _partner_collect_chunk(deals, W, rules):
    """Labelled rows of one chunk of partners' deals (groups from 0)."""
    H, TR, LD, BI, DI = deals
    tk, duties, side = _partner_args(rules)
    cap = len(BI) * _MAX_DEC_PARTNERS * 24
    X = np.zeros((cap, W.shape[1]))
    Y = np.zeros(cap)
    C = np.zeros(cap, dtype=np.int64)
    G = np.zeros(cap, dtype=np.int64)
    n = _collect_partners(H, TR, LD, BI, DI, W, tk, duties, side, X, Y, C, G)
    return X[:n], Y[:n], C[:n], G[:n]


def _partner_evaluate(deals, W, rules):
    H, TR, LD, BI, DI = deals
    tk, duties, side = _partner_args(rules)
    out = np.zeros(len(BI), dtype=np.int64)
    _evaluate_partners(H, TR, LD, BI, DI, W, tk, duties, side, out)
    return out


def draw_deals(n: int, seed: int, start: int = 0, rules: RuleSet = DEFAULT_RULES):
    """Deals ``start .. start + n - 1`` of the fit's stream from ``seed`` at the RuleSet's
    table (:func:`defence_table`): a lone soloist's trump deals of the duplicate protocol
    (:func:`solo_trump_deals`: hands uint8[n, 3, 24], trumps, soloists) or the partners'
    (:func:`partner_trump_deals`: hands uint8[n, 4, 24], trumps, leaders, bidders,
    discards uint8[n, 24]).  Returns the tuple of arrays."""
    return defence_table(rules).draw(n, seed, start, rules)


def solo_trump_deals(n: int, seed: int, start: int = 0, rules: RuleSet = DEFAULT_RULES):
    """Trump deals ``start .. start + n - 1`` of the duplicate protocol from ``seed``
    (analyzer.analyses.strength.trump_deals; R2 deal, R3 rule-of-thumb auction, R4 fast
    exchange, leader seat 0): hands uint8[n, 3, 24], trumps, soloists."""
    H = np.zeros((n, 3, N_TYPES), dtype=np.uint8)
    TR = np.zeros(n, dtype=np.int64)
    SO = np.zeros(n, dtype=np.int64)
    gen = trump_deals(seed, rules.kernel, rules)
    for _ in range(start):
        next(gen)
    for j in range(n):
        _, _, soloist, _, trump, hands, _ = next(gen)
        H[j] = hands
        TR[j] = trump
        SO[j] = soloist
    return H, TR, SO


def _fs_of(W) -> int:
    """The feature set code of a weight matrix, from its shape (:data:`FEATURE_SETS`)."""
    for fs, n_ctx, n_f in FEATURE_SETS.values():
        if W.shape == (n_ctx, n_f):
            return fs
    raise BinokelError(f"weights of shape {W.shape} match no feature set")


def _solo_collect_chunk(deals, W, rules):
    """Labelled rows of one chunk of a lone soloist's deals (groups from 0)."""
    H, TR, SO = deals
    kr = rules.kernel
    cap = len(SO) * 2 * kr.hand_size * 24     # every decision, every card: an upper bound
    X = np.zeros((cap, W.shape[1]))
    Y = np.zeros(cap)
    C = np.zeros(cap, dtype=np.int64)
    G = np.zeros(cap, dtype=np.int64)
    n = _collect(H, TR, SO, W, kr, X, Y, C, G, 0, _fs_of(W))
    return X[:n], Y[:n], C[:n], G[:n]


def _solo_evaluate(deals, W, rules):
    H, TR, SO = deals
    out = np.zeros(len(SO), dtype=np.int64)
    _evaluate(H, TR, SO, W, rules.kernel, out, _fs_of(W))
    return out


def _collect_chunk(deals, W, rules):
    return defence_table(rules).collect_chunk(deals, W, rules)


def collect(deals, W, rules: RuleSet = DEFAULT_RULES, progress=None, n_jobs: int = 1):
    """Labelled rows of ``deals`` (:func:`draw_deals`) under weights ``W`` (module
    docstring; the feature set from W's shape): ``(X, Y, C, G)`` = features float64[rows,
    F], labels (the soloist's or the bidding side's trick points), contexts, decision
    groups (consecutive, from 0).  Chunks of :data:`_CHUNK` deals run through
    parallel_map; a deal's rows depend only on the deal, so any ``n_jobs`` gives the same
    rows.  ``progress(k)``: k more deals done."""
    W = np.ascontiguousarray(W, dtype=np.float64)
    _fs_of(W)
    n = len(deals[0])
    bounds = [(a, min(a + _CHUNK, n)) for a in range(0, n, _CHUNK)]
    args = [(tuple(x[a:b] for x in deals), W, rules) for a, b in bounds]
    parts = []
    g = 0
    for (a, b), (X, Y, C, G) in zip(bounds, parallel_map(_collect_chunk, args, n_jobs,
                                                         len(args))):
        parts.append((X, Y, C, G + g))
        if len(G):
            g += int(G[-1]) + 1
        if progress is not None:
            progress(b - a)
    if not parts:
        return (np.zeros((0, W.shape[1])), np.zeros(0), np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.int64))
    return tuple(np.concatenate([p[j] for p in parts]) for j in range(4))


def ridge_fit(X, Y, C, G, ridge: float = DEFAULT_RIDGE, n_ctx: int = N_CTX) -> np.ndarray:
    """Weights float64[n_ctx, F]: per context, ridge regression (lambda ``ridge``) of the
    labels on the features, both centred within each decision group ``G`` (groups are
    consecutive runs of rows).  A context with fewer than :data:`MIN_ROWS` rows: zeros."""
    X = np.asarray(X, dtype=float)
    Y = np.asarray(Y, dtype=float)
    F = X.shape[1]
    W = np.zeros((n_ctx, F))
    if len(Y) == 0:
        return W
    _, start, cnt = np.unique(G, return_index=True, return_counts=True)
    order = np.argsort(start)                   # groups in row order
    start, cnt = start[order], cnt[order]
    rep = np.repeat(np.arange(len(start)), cnt)
    # centring: only differences between one decision's cards matter to its argmin
    Xc = X - (np.add.reduceat(X, start, axis=0) / cnt[:, None])[rep]
    Yc = Y - (np.add.reduceat(Y, start) / cnt)[rep]
    for c in range(n_ctx):
        sel = C == c
        if sel.sum() < MIN_ROWS:
            continue
        A = Xc[sel]
        W[c] = np.linalg.solve(A.T @ A + ridge * np.eye(F), A.T @ Yc[sel])
    return W


def evaluate(deals, W, rules: RuleSet = DEFAULT_RULES) -> np.ndarray:
    """The soloist's (or the bidding side's, V1) trick points per deal of ``deals``
    (:func:`draw_deals`) when the defenders play weights ``W`` (the feature set from W's
    shape)."""
    W = np.ascontiguousarray(W, dtype=np.float64)
    _fs_of(W)
    return defence_table(rules).evaluate(deals, W, rules)


# --------------------------------------------------------------------------- the tables

@dataclass(frozen=True)
class DefenceTable:
    """What the fit needs of a table (:func:`defence_table`): its feature sets (the first
    the default), how its deals are drawn, labelled and evaluated, and who the label
    counts for."""

    features: tuple
    draw: object                 # (n, seed, start, rules) -> deals
    collect_chunk: object        # (deals, W, rules) -> (X, Y, C, G)
    evaluate: object             # (deals, W, rules) -> points per deal
    label: str                   # whose trick points the labels are
    holdout: int                 # default held-out deals of the CLI


_SOLO = DefenceTable(("lin", "lin2"), solo_trump_deals, _solo_collect_chunk, _solo_evaluate,
                     "the soloist's trick points", 0)
_PARTNERS = DefenceTable(("partners",), partner_trump_deals, _partner_collect_chunk,
                         _partner_evaluate, "the bidding side's trick points", 200)


def defence_table(rules) -> DefenceTable:
    """The :class:`DefenceTable` of the RuleSet's table: the two defenders against a lone
    soloist (R8) or the two partners against the bidder's side (V1, ``rules.teams``)."""
    return _PARTNERS if getattr(rules, "teams", False) else _SOLO


def check_rules(rules, features: str | None = None, start: str = "defend") -> str:
    """The feature set to fit at the RuleSet's table (``features``, or the table's default:
    ``lin`` against a lone soloist, R8; ``partners`` at a partners' table, V1); a one-line
    BinokelError where the set or the start is not this table's defence."""
    table = defence_table(rules)
    if getattr(rules, "teams", False):
        spec = team_spec(rules)
        if not spec.open_auction and spec.dabb_size == 0:
            raise BinokelError(f"fit-defence: {rules.name} has duels without a Dabb: no trump "
                               "is named before the play")
    fset = table.features[0] if features is None else features
    if fset not in FEATURE_SETS:
        raise BinokelError(f"unknown feature set {fset!r}: use {', '.join(FEATURE_SETS)}")
    if fset not in table.features:
        who = ("the two partners against the bidder's side (V1)" if table is _PARTNERS
               else "two defenders against a lone soloist (R8)")
        raise BinokelError(f"feature set {fset} is not a defence of {rules.name}, played by "
                           f"{who}: use {' or '.join(table.features)}")
    initial_weights(fset, start)
    return fset


def fit_defence(deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED,
                iterations: int = DEFAULT_ITERATIONS, ridge: float = DEFAULT_RIDGE,
                rules: RuleSet = DEFAULT_RULES, W0=None, progress=None,
                features: str | None = None, start: str = "defend", damp: float = 1.0,
                n_jobs: int = 1, holdout: int = 0) -> dict:
    """Approximate policy iteration (module docstring) at the RuleSet's table
    (:func:`defence_table`) from ``W0`` (default :func:`initial_weights` of ``features``
    (default: the table's, :func:`check_rules`) / ``start``): ``iterations`` rounds of
    :func:`collect` on ``deals`` fresh deals of ``seed`` each and :func:`ridge_fit`; with
    ``damp`` < 1 a round's weights are ``damp * fit + (1 - damp) * previous`` (except
    the first round from ``start="defend"``, whose previous weights are no fit).  Returns a
    dict: ``weights`` (the last round's, unrounded), ``history`` (the weights after each
    round), per round ``rows`` / ``decisions`` (labelled rows and decisions), and with
    ``holdout`` > 0 ``holdout`` = :func:`holdout_comparison` on the next ``holdout`` deals
    of the stream (none of the fit's).  Any ``n_jobs`` gives the same numbers."""
    if not 1 <= int(deals) <= MAX_DEALS:
        raise BinokelError(f"deals must be 1..{MAX_DEALS}, got {deals}")
    if not 1 <= int(iterations) <= MAX_ITERATIONS:
        raise BinokelError(f"iterations must be 1..{MAX_ITERATIONS}, got {iterations}")
    if not ridge > 0:
        raise BinokelError(f"ridge must be > 0, got {ridge}")
    if not 0 < damp <= 1:
        raise BinokelError(f"damp must be in (0, 1], got {damp}")
    if not 0 <= int(holdout) <= MAX_DEALS:
        raise BinokelError(f"holdout must be 0..{MAX_DEALS}, got {holdout}")
    features = check_rules(rules, features, start)
    W = initial_weights(features, start) if W0 is None else np.array(W0, dtype=np.float64)
    W_start = W.copy()
    n_ctx = W.shape[0]
    D = draw_deals(deals * iterations, seed, 0, rules)
    history, rows, decisions = [], [], []
    for it in range(iterations):
        sl = slice(it * deals, (it + 1) * deals)
        X, Y, C, G = collect(tuple(a[sl] for a in D), W, rules, progress, n_jobs)
        fit = ridge_fit(X, Y, C, G, ridge, n_ctx)
        W = fit if (damp == 1.0 or (it == 0 and W0 is None and start == "defend")) \
            else damp * fit + (1.0 - damp) * W
        history.append(W.copy())
        rows.append(int(len(Y)))
        decisions.append(int(G[-1]) + 1 if len(G) else 0)
    out = {"weights": W, "history": history, "rows": rows, "decisions": decisions,
           "deals": deals, "seed": seed, "iterations": iterations, "ridge": ridge,
           "features": features, "start": start, "damp": damp}
    if holdout:
        Dh = draw_deals(int(holdout), seed, deals * iterations, rules)
        out["holdout"] = holdout_comparison(Dh, W_start, W, rules)
    return out


def holdout_comparison(deals, W_start, W, rules) -> dict:
    """The fitted defence against the start on the same held-out ``deals`` (paired): per
    deal the soloist's (or the bidding side's, V1) trick points under each; returns ``n``,
    ``start_mean``, ``fit_mean``, ``diff_mean`` (fit - start: below 0 = the fitted defence
    concedes fewer points), ``diff_se`` and the normal 95% CI ``diff_ci``."""
    a = evaluate(deals, W_start, rules).astype(np.float64)
    b = evaluate(deals, W, rules).astype(np.float64)
    d = b - a
    n = len(d)
    se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    m = float(d.mean())
    return {"n": int(n), "label": defence_table(rules).label, "start_mean": float(a.mean()),
            "fit_mean": float(b.mean()), "diff_mean": m, "diff_se": se,
            "diff_ci": [m - 1.96 * se, m + 1.96 * se]}


def rounded_weights(W, decimals: int = 3) -> list:
    """``W`` rounded to ``decimals`` as nested lists of floats (no ``-0.0``): the rows a
    fit file stores."""
    return (np.round(np.asarray(W, dtype=float), decimals) + 0.0).tolist()   # + 0.0: no -0.0


def write_weights(W, path, features: str, command: str) -> Path:
    """Write the weights of the defence of feature set ``features`` (``lin``: DEFENCE_LIN,
    ``lin2``: DEFENCE_LIN2, ``partners``: the partners' linear defence, V1), rounded to 3
    decimals, as a fit file (analyzer.fits) that records ``command``; the shipped ones
    are data/fits/defence_lin.json and defence_lin2.json.  Returns the path."""
    _, table, ctx = WEIGHT_FILES[features]
    fs = FEATURE_SETS[features][0]
    cols = ("LIN_F, listed in play.py" if fs == 0 else "LIN2_F, listed in play.py" if fs == 1
            else "analyzer.analyses.fit_defence.PARTNER_FEATURES")
    what = f"analyzer.mechanics.play.{table}" if table else "no shipped policy plays it yet"
    return write_fit_file(
        path, rounded_weights(W),
        about=(f"Weights of the {POLICY_OF[features]} defence ({what}): "
               f"one row per decision context ({ctx}), one column per feature "
               f"({cols}); fitted by "
               "approximate policy iteration (analyzer.analyses.fit_defence), rounded to 3 "
               "decimals.  GENERATED: do not edit by hand."),
        generated_by="analyzer.analyses.fit_defence.write_weights", command=command)
