"""Fitting a model of a bidder's maximum to its decisions (R3; V1, V4, V5, V6.2 at a
partners' table).

A bidder's private maximum is ``m = x . beta + e``, ``e`` logistic with scale ``s``.  A
recommendation ``B`` says ``B <= m < B + step``; "pass" says ``m < next bid``; the top of
the bid grid says ``m >= B``.  :func:`fit_interval_logistic` maximizes the likelihood of
these intervals (interval-censored logistic regression) with standard errors from the
observed information (numerical Hessian); :func:`fit_seat_model` drops the seat column
that a table without a first decision for seat 0 makes collinear; :func:`decision_rows`
gathers the decisions in parallel, reproducibly; :func:`prediction_error` scores a
model's maximum bid against the advisor's.  Used by analyzer.analyses.fit_opponents for
every table.

The model's inputs at a partners' table (V1: seats 0..3, partners opposite):
:func:`partner_features` = 1, the rule-of-thumb value of the partners' games
(:func:`partner_rule_value`: game.rule_value_by_model with a Dabb, V4/V5;
bidding.rule_value_by_tricks in open bidding, V6.2), aces, tens, the longest suit, aces +
tens in it, and 0/1 for seats 1, 2, 3.  The rule value enters as a feature, so ``beta =
(offset, 1, 0, ...)`` is the older rule-of-thumb + offset model (:data:`ADVISOR_OFFSET`,
:data:`KIND_OFFSET`): the fit nests it.  (The three-player table's inputs are
analyzer.analyses.opponents.hand_features.)
"""
from __future__ import annotations

import math

import numpy as np

from analyzer._jit import njit
from analyzer.analyses.opponents import ADVISOR_FIT
from analyzer.errors import BinokelError
from analyzer.fits import load_fit
from analyzer.mechanics.cards import N_RANKS, N_SUITS
from analyzer.mechanics.bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_DABB_ESTIMATE,
                                        DEFAULT_TRICK_VALUE, rule_value_by_tricks)
from analyzer.mechanics.game import rule_value_by_model
from analyzer.parallel import parallel_map

#: Names of the partners' table model inputs, in coefficient order (:func:`partner_features`).
PARTNER_FEATURES = ("intercept", "rule_value", "aces", "tens", "longest_suit", "top_in_longest",
                    "seat1", "seat2", "seat3")
N_PARTNER_FEATURES = len(PARTNER_FEATURES)
#: model kinds: rule of thumb + offset (the old model), linear in :func:`partner_features`
KIND_OFFSET, KIND_FIT = 0, 1
#: How far above the rule of thumb the partners' advisor (analyzer.analyses.advice_samples)
#: bids, by auction form (True: V6.2 open bidding; False: V1 duels): the old ``advisor``
#: model is the rule of thumb + this offset.  Median of (advisor's recommended maximum -
#: rule-of-thumb value) over the opening hands the advisor bids, 80 random hands each,
#: seed 99, 150 samples: pinochle-80 +60 (advice_samples.ADVISOR_PARTNER_OFFSET); with the
#: rule of thumb of game.rule_value_by_model (fitted model + 50): kreuz-48 seat 0 -12
#: (quartiles -24, -4; the advisor bid 79 of 80), kreuz-48 seat 1 after 150 -18, kreuz-40
#: seat 1 after 150 +7 (script in the issue-14 note).
ADVISOR_OFFSET = {True: 60, False: -12}


def decision_rows(chunk, n_hands: int, step: int, seed: int, samples: int, rules, n_jobs: int,
                  progress=None) -> list:
    """The rows of ``chunk(seed, hand_indices, samples, rules)`` over hands 0..n_hands-1 in
    batches of ``step``, in hand order, through parallel_map; ``progress(k)`` after each
    batch.  Row i depends only on (seed, i), so any ``n_jobs`` gives the same rows."""
    batches = [list(range(i, min(i + step, n_hands))) for i in range(0, n_hands, step)]
    rows = []
    args = [(seed, b, samples, rules) for b in batches]
    for b, r in zip(batches, parallel_map(chunk, args, n_jobs, len(args))):
        rows += r
        if progress:
            progress(len(b))
    return rows


@njit
def partner_features(hand, seat, rv, out):
    """The partners' table model inputs (module docstring) for one hand (uint8[24] counts,
    cards.py type = suit x 6 + rank, rank 0 = ace, 1 = ten) in ``seat`` (0..3, V1) with
    rule-of-thumb value ``rv``; ``out`` float64[N_PARTNER_FEATURES]."""
    aces = 0
    tens = 0
    longest = -1
    top_long = 0
    for s in range(N_SUITS):
        n = 0
        top = 0
        for r in range(N_RANKS):
            c = np.int64(hand[s * N_RANKS + r])
            n += c
            if r <= 1:
                top += c
                if r == 0:
                    aces += c
                else:
                    tens += c
        if n > longest or (n == longest and top > top_long):
            longest = n
            top_long = top
    out[0] = 1.0
    out[1] = rv
    out[2] = aces
    out[3] = tens
    out[4] = longest
    out[5] = top_long
    out[6] = 1.0 if seat == 1 else 0.0
    out[7] = 1.0 if seat == 2 else 0.0
    out[8] = 1.0 if seat == 3 else 0.0


@njit
def partner_rule_value(hand, tk, kr, rv1, rv2, tmp):
    """The partners' rule-of-thumb value of a hand and its trump (-1 with a Dabb, where the
    soloist names trump after the exchange): game.rule_value_by_model (V4, V5) or
    bidding.rule_value_by_tricks (V6.2, no Dabb)."""
    if tk.dabb_size > 0:
        return np.float64(rule_value_by_model(hand, kr, rv1, tmp)), np.int64(-1)
    v, tr = rule_value_by_tricks(hand, tk, rv1, rv2, tmp)
    return np.float64(v), np.int64(tr)


@njit
def partner_model_value(hand, seat, kind, coef, offset, tk, kr, rv1, rv2, tmp, f):
    """A seat's model value ``v`` (its private maximum is ``v`` + logistic noise) and its
    rule-of-thumb trump: rule of thumb + ``offset`` (``kind`` 0) or ``coef`` .
    :func:`partner_features` (``kind`` 1).  ``tmp`` int64[4], ``f``
    float64[N_PARTNER_FEATURES] workspaces."""
    rv, tr = partner_rule_value(hand, tk, kr, rv1, rv2, tmp)
    if kind == KIND_OFFSET:
        return rv + offset, tr
    partner_features(hand, seat, rv, f)
    v = 0.0
    for i in range(f.shape[0]):
        v += coef[i] * f[i]
    return v, tr


def rule_params(spec) -> tuple[int, int]:
    """The partners' rule of thumb's parameters (rv1, rv2) as the tournament and the
    advisor use them, by auction form (V6.2 open bidding: trick value and partner
    allowance; V1 duels: the trick estimate)."""
    if spec.open_auction:
        return int(DEFAULT_TRICK_VALUE), int(DEFAULT_PARTNER_ALLOWANCE)
    return int(DEFAULT_DABB_ESTIMATE), 0


def offset_values(X, offset: float):
    """The old model's values on rows of :func:`partner_features`: rule of thumb +
    ``offset`` (:data:`ADVISOR_OFFSET`)."""
    return X[:, PARTNER_FEATURES.index("rule_value")] + float(offset)


def partner_fit_entry(spec):
    """The stored fit of the partners' advisor for the game (data/fits/advisor.json, kind
    ``team``), or None; a BinokelError (one line) when it has other features than
    :data:`PARTNER_FEATURES`."""
    fit = load_fit(ADVISOR_FIT).get(spec.name)
    if fit is None or fit.get("kind") != "team":
        return None
    if tuple(fit["features"]) != PARTNER_FEATURES:
        raise BinokelError(f"the stored team advisor fit for {spec.name} has other features than "
                           f"this version: refit it with 'binokel fit-opponents --rules {spec.name}'")
    return fit


def model_max_bids(v, lo, hi, bid, first, step):
    """A model's maximum bid next to the advisor's on one bid scale, for model values
    ``v`` on decision rows (``first`` = the seat's first possible bid there): the model's
    maximum is ``v`` rounded down to the bid step (how ``advisor-fit`` bids); either
    side's "pass" is put at ``first - step``; where the advisor took the top of its bid
    grid (``hi`` = inf) the model is capped there (the advisor says nothing above it).
    Returns ``(model float[n], advisor float[n])``."""
    first = np.asarray(first).astype(np.float64)
    adv = np.where(bid > 0, bid.astype(np.float64), first - step)
    m = np.floor(np.asarray(v, dtype=np.float64) / step) * step
    m = np.where(m < first, first - step, m)
    m = np.where(np.isinf(hi), np.minimum(m, lo), m)
    return m, adv


def prediction_error(v, lo, hi, bid, first, step) -> dict:
    """How well model values ``v`` predict the advisor on decision rows: ``mae`` (mean
    absolute error of the maximum bid, :func:`model_max_bids`), its SE ``mae_se``,
    ``pass_agree`` (how often both agree on bidding at all) and ``hands`` (n)."""
    m, adv = model_max_bids(v, lo, hi, bid, first, step)
    err = np.abs(m - adv)
    n = len(err)
    return dict(mae=float(err.mean()),
                mae_se=float(err.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan"),
                pass_agree=float(((m >= first) == (bid > 0)).mean()), hands=int(n))


def paired_error_difference(v_a, v_b, lo, hi, bid, first, step) -> list:
    """Paired difference of absolute errors (model a - model b) on the same decision rows:
    ``[mean, SE]``."""
    ma, adv = model_max_bids(v_a, lo, hi, bid, first, step)
    mb, _ = model_max_bids(v_b, lo, hi, bid, first, step)
    d = np.abs(ma - adv) - np.abs(mb - adv)
    return [float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else float("nan")]


def _softplus(x):
    return np.logaddexp(0.0, x)


def interval_nll(theta: np.ndarray, X: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> float:
    """Negative log-likelihood of ``lo <= x.beta + e < hi`` (``e`` logistic, scale
    ``exp(theta[-1])``), ``theta = (beta, log s)``."""
    beta, s = theta[:-1], math.exp(theta[-1])
    v = X @ beta
    a = np.where(np.isfinite(hi), (hi - v) / s, np.inf)      # upper end, standardized
    b = np.where(np.isfinite(lo), (lo - v) / s, -np.inf)     # lower end
    ll = np.empty_like(v)
    both = np.isfinite(a) & np.isfinite(b)
    only_hi = np.isfinite(a) & ~np.isfinite(b)
    only_lo = ~np.isfinite(a) & np.isfinite(b)
    # log(sigma(a) - sigma(b)) = a + log1p(-exp(b - a)) - softplus(a) - softplus(b)
    ab, bb = a[both], b[both]
    ll[both] = ab + np.log(-np.expm1(bb - ab)) - _softplus(ab) - _softplus(bb)
    ll[only_hi] = -_softplus(-a[only_hi])       # log sigma(a)
    ll[only_lo] = -_softplus(b[only_lo])        # log(1 - sigma(b))
    ll[~np.isfinite(a) & ~np.isfinite(b)] = 0.0
    return float(-ll.sum())


def _hessian(f, x, h=1e-3):
    n = len(x)
    H = np.empty((n, n))
    for i in range(n):
        for j in range(i, n):
            e_i = np.zeros(n)
            e_j = np.zeros(n)
            e_i[i] = h
            e_j[j] = h
            H[i, j] = H[j, i] = (f(x + e_i + e_j) - f(x + e_i - e_j) - f(x - e_i + e_j)
                                 + f(x - e_i - e_j)) / (4 * h * h)
    return H


def fit_interval_logistic(X: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> dict:
    """Maximum-likelihood ``beta`` and ``s`` (module docstring) with standard errors.

    Columns are standardized for the optimizer and the result mapped back, so ``coef``
    applies to the raw features.  Returns dict ``coef``, ``coef_se``, ``scale``,
    ``scale_se``, ``nll``, ``n``.
    """
    from scipy.optimize import minimize

    n, k = X.shape
    if n < k + 2:
        raise BinokelError(f"need at least {k + 2} decisions to fit {k} coefficients, got {n}")
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    const = sd < 1e-12
    mu[const] = 0.0
    sd[const] = 1.0
    Z = (X - mu) / sd
    # a start from least squares on the interval midpoints (censored ends pushed out)
    mid = np.where(np.isfinite(lo) & np.isfinite(hi), (lo + hi) / 2,
                   np.where(np.isfinite(lo), lo + 20.0, hi - 20.0))
    b0 = np.linalg.lstsq(Z, mid, rcond=None)[0]
    th0 = np.concatenate([b0, [math.log(20.0)]])
    f = lambda th: interval_nll(th, Z, lo, hi)  # noqa: E731
    opt = minimize(f, th0, method="BFGS", options=dict(maxiter=2000, gtol=1e-6))
    th = opt.x
    H = _hessian(f, th)
    try:
        cov_z = np.linalg.inv(H)
    except np.linalg.LinAlgError:
        cov_z = np.full_like(H, np.nan)
    # map back: v = Z b = (X - mu)/sd . b  ->  coef = b/sd, intercept -= sum(mu b / sd)
    T = np.diag(np.concatenate([1.0 / sd, [1.0]]))
    icpt = int(np.flatnonzero(const)[0]) if const.any() else None
    if icpt is not None:
        T[icpt, :k] -= mu / sd
        T[icpt, icpt] = 1.0
    coef = (T[:k, :k] @ th[:k])
    cov = T @ cov_z @ T.T
    s = math.exp(th[-1])
    return dict(coef=[float(c) for c in coef],
                coef_se=[float(math.sqrt(max(cov[i, i], 0.0))) for i in range(k)],
                scale=s, scale_se=float(s * math.sqrt(max(cov[k, k], 0.0))),
                nll=float(opt.fun), n=int(n),
                # BFGS on a numerical gradient often ends on "precision loss" at the optimum:
                # a gradient this small is converged for a log-likelihood of thousands
                converged=bool(opt.success or np.abs(opt.jac).max() < 1e-3),
                grad_max=float(np.abs(opt.jac).max()))


def fit_seat_model(X: np.ndarray, lo: np.ndarray, hi: np.ndarray, seat_columns: dict,
                   seats) -> dict:
    """:func:`fit_interval_logistic` on rows from the decisions of ``seats``, whose
    indicator columns are ``seat_columns`` (seat -> column; seat 0 has none: the
    intercept).  Where seat 0 has no first decision (a forced opening, V5.2) the intercept
    and the other seats' columns are collinear: the lowest seat's column is left out
    (coefficient 0, SE 0), so seat 0 is modelled like it.  With seat 0 present every column
    is fitted."""
    k = X.shape[1]
    keep = list(range(k))
    if 0 not in seats:
        keep.remove(seat_columns[min(seats)])
    # every column kept: fit X itself (a column selection is a copy in another memory
    # order, which moves the optimizer's last digits)
    fit = fit_interval_logistic(X if len(keep) == k else X[:, keep], lo, hi)
    coef = [0.0] * k
    se = [0.0] * k
    for j, c, e in zip(keep, fit["coef"], fit["coef_se"]):
        coef[j], se[j] = c, e
    fit.update(coef=coef, coef_se=se)
    return fit
