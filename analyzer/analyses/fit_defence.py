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

from pathlib import Path

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.fits import write_fit_file
from analyzer.kernels.bits import cttz
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.play import (DEFENCE_LIN, LIN2_CTX, LIN2_F, LIN_F, _drop_copy,
                                     _heuristic_v1, _lin2_features, _lin2_score, _lin2_setup,
                                     _lin_features, _lin_score, _lin_setup, _setup, beat_table,
                                     card_beats, legal_mask_duty, proven_absent, shown_planes)
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet

N_CTX = 5
#: The feature sets: name -> (code of _play's ``fs``, contexts, features).  ``lin``: the
#: heuristic-lin defence (play.DEFENCE_LIN); ``lin2``: heuristic-lin2 (play.DEFENCE_LIN2).
FEATURE_SETS = {"lin": (0, N_CTX, LIN_F), "lin2": (1, LIN2_CTX, LIN2_F)}
#: Starting policies: ``defend`` = the current defence (_defend), ``lin`` = heuristic-lin.
STARTS = ("defend", "lin")
#: per feature set: the shipped fit file (analyzer.fits), the play.py table it fills and
#: its decision contexts
WEIGHT_FILES = {"lin": ("defence_lin", "DEFENCE_LIN",
                        "lead, winning surely, winning before the soloist, losing to the "
                        "partner's safe trick, losing"),
                "lin2": ("defence_lin2", "DEFENCE_LIN2",
                         "lead with the soloist second, lead with the partner second, then "
                         "heuristic-lin's four following contexts")}
POLICY_OF = {"lin": "heuristic-lin", "lin2": "heuristic-lin2"}
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
    defence (:func:`analyzer.mechanics.play._defend`: -1000 on feature 0, "this is
    _defend's card"), ``"lin"`` = heuristic-lin (play.DEFENCE_LIN; in ``lin2`` its rows
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


def draw_deals(n: int, seed: int, start: int = 0, rules: RuleSet = DEFAULT_RULES):
    """Trump deals ``start .. start + n - 1`` of the duplicate protocol from ``seed``
    (analyzer.analyses.strength.trump_deals): hands uint8[n, 3, 24], trumps, soloists."""
    from analyzer.analyses.strength import trump_deals

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


def collect(H, TR, SO, W, rules: RuleSet = DEFAULT_RULES, progress=None):
    """Labelled rows of the deals under weights ``W`` (module docstring; the feature set
    from W's shape): ``(X, Y, C, G)`` = features float64[rows, F], labels (soloist trick
    points), contexts, decision groups (consecutive, from 0).  ``progress(k)``: k more
    deals done."""
    W = np.ascontiguousarray(W, dtype=np.float64)
    fs = _fs_of(W)
    kr = rules.kernel
    parts = []
    g = 0
    for a in range(0, len(SO), _CHUNK):
        b = min(a + _CHUNK, len(SO))
        cap = (b - a) * 2 * kr.hand_size * 24     # every decision, every card: an upper bound
        X = np.zeros((cap, W.shape[1]))
        Y = np.zeros(cap)
        C = np.zeros(cap, dtype=np.int64)
        G = np.zeros(cap, dtype=np.int64)
        n = _collect(H[a:b], TR[a:b], SO[a:b], W, kr, X, Y, C, G, g, fs)
        if n:
            g = int(G[n - 1]) + 1
        parts.append((X[:n], Y[:n], C[:n], G[:n]))
        if progress is not None:
            progress(b - a)
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


def evaluate(H, TR, SO, W, rules: RuleSet = DEFAULT_RULES) -> np.ndarray:
    """The soloist's trick points per deal when the defenders play weights ``W`` (the
    feature set from W's shape)."""
    out = np.zeros(len(SO), dtype=np.int64)
    W = np.ascontiguousarray(W, dtype=np.float64)
    _evaluate(H, TR, SO, W, rules.kernel, out, _fs_of(W))
    return out


def check_rules(rules) -> None:
    """One-line BinokelError for a game whose defence has no weights to fit: the policy is
    the two defenders' against a lone soloist (R8); partners (V1) play the partners'
    heuristic (analyzer.mechanics.play.heuristic_partners), which has none."""
    if getattr(rules, "teams", False):
        raise BinokelError(f"fit-defence fits the heuristic-lin defence of the two defenders "
                           f"against a lone soloist (R8); {rules.name} is played by partners "
                           f"(V1), whose team policy has no fitted weights")


def fit_defence(deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED,
                iterations: int = DEFAULT_ITERATIONS, ridge: float = DEFAULT_RIDGE,
                rules: RuleSet = DEFAULT_RULES, W0=None, progress=None,
                features: str = "lin", start: str = "defend", damp: float = 1.0) -> dict:
    """Approximate policy iteration (module docstring) from ``W0`` (default
    :func:`initial_weights` of ``features`` / ``start``): ``iterations`` rounds of
    :func:`collect` on ``deals`` fresh deals of ``seed`` each and :func:`ridge_fit`; with
    ``damp`` < 1 a round's weights are ``damp * fit + (1 - damp) * previous`` (except
    the first round from ``start="defend"``, whose previous weights are no fit).  Returns a
    dict: ``weights`` (the last round's, unrounded), ``history`` (the weights after each
    round) and per round ``rows`` / ``decisions`` (labelled rows and decisions)."""
    if not 1 <= int(deals) <= MAX_DEALS:
        raise BinokelError(f"deals must be 1..{MAX_DEALS}, got {deals}")
    if not 1 <= int(iterations) <= MAX_ITERATIONS:
        raise BinokelError(f"iterations must be 1..{MAX_ITERATIONS}, got {iterations}")
    if not ridge > 0:
        raise BinokelError(f"ridge must be > 0, got {ridge}")
    if not 0 < damp <= 1:
        raise BinokelError(f"damp must be in (0, 1], got {damp}")
    check_rules(rules)
    W = initial_weights(features, start) if W0 is None else np.array(W0, dtype=np.float64)
    n_ctx = W.shape[0]
    H, TR, SO = draw_deals(deals * iterations, seed, 0, rules)
    history, rows, decisions = [], [], []
    for it in range(iterations):
        sl = slice(it * deals, (it + 1) * deals)
        X, Y, C, G = collect(H[sl], TR[sl], SO[sl], W, rules, progress)
        fit = ridge_fit(X, Y, C, G, ridge, n_ctx)
        W = fit if (damp == 1.0 or (it == 0 and W0 is None and start == "defend")) \
            else damp * fit + (1.0 - damp) * W
        history.append(W.copy())
        rows.append(int(len(Y)))
        decisions.append(int(G[-1]) + 1 if len(G) else 0)
    return {"weights": W, "history": history, "rows": rows, "decisions": decisions,
            "deals": deals, "seed": seed, "iterations": iterations, "ridge": ridge,
            "features": features, "start": start, "damp": damp}


def rounded_weights(W, decimals: int = 3) -> list:
    """``W`` rounded to ``decimals`` as nested lists of floats (no ``-0.0``): the rows a
    fit file stores."""
    return (np.round(np.asarray(W, dtype=float), decimals) + 0.0).tolist()   # + 0.0: no -0.0


def write_weights(W, path, features: str, command: str) -> Path:
    """Write the weights of the defence of feature set ``features`` (``lin``: DEFENCE_LIN,
    ``lin2``: DEFENCE_LIN2), rounded to 3 decimals, as a fit file (analyzer.fits) that
    records ``command``; the shipped ones are data/fits/defence_lin.json and
    defence_lin2.json.  Returns the path."""
    _, table, ctx = WEIGHT_FILES[features]
    return write_fit_file(
        path, rounded_weights(W),
        about=(f"Weights of the {POLICY_OF[features]} defence (analyzer.mechanics.play.{table}): "
               f"one row per decision context ({ctx}), one column per feature "
               f"({'LIN_F' if features == 'lin' else 'LIN2_F'}, listed in play.py); fitted by "
               "approximate policy iteration (analyzer.analyses.fit_defence), rounded to 3 "
               "decimals.  GENERATED: do not edit by hand."),
        generated_by="analyzer.analyses.fit_defence.write_weights", command=command)
