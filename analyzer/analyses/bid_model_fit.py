"""Fitting a model of a bidder's maximum to its decisions (R3; V1, V6.2 for the teams).

A bidder's private maximum is ``m = x . beta + e``, ``e`` logistic with scale ``s``.  A
recommendation ``B`` says ``B <= m < B + step``; "pass" says ``m < next bid``; the top of
the bid grid says ``m >= B``.  :func:`fit_interval_logistic` maximizes the likelihood of
these intervals (interval-censored logistic regression) with standard errors from the
observed information (numerical Hessian); :func:`decision_rows` gathers the decisions in
parallel, reproducibly.  Shared by the three-player fit (analyzer.analyses.fit_opponents)
and the team fit (analyzer.analyses.team_fit).
"""
from __future__ import annotations

import math

import numpy as np

from analyzer.errors import BinokelError
from analyzer.parallel import parallel_map


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
