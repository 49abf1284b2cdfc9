"""Small statistics helpers for Monte Carlo estimates: means, proportions, quantiles.

Every estimate the project reports carries its sample size and a 95 % confidence
interval (or standard error).  These helpers are the one place those intervals are
computed, so every module reports them the same way.

- :func:`mean_ci` - sample mean with a normal-approximation interval (CLT).
- :func:`proportion_ci` - Wilson score interval for a binomial proportion (behaves well
  near 0 and 1, where the plain Wald interval collapses to a zero width).
- :func:`paired_diff_ci` - mean of paired differences (duplicate evaluation).
- :func:`cross_fit_loss` - the loss of a played action against the best of several,
  each valued on the same worlds, without the winner's curse (``binokel review``).
- :func:`quantiles` - empirical quantiles, and :func:`histogram` - counts on given bins.
- :func:`quantile_ci_counts` - a quantile of a counted distribution with a
  distribution-free interval from order statistics (reports' percentile columns).

No scipy: the normal quantile comes from :class:`statistics.NormalDist`.
"""
from __future__ import annotations

from statistics import NormalDist
from typing import NamedTuple, Sequence

import numpy as np

from analyzer.errors import BinokelError

DEFAULT_LEVEL = 0.95


def z_value(level: float = DEFAULT_LEVEL) -> float:
    """Two-sided standard-normal quantile for a confidence ``level`` (0.95 -> 1.95996...)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must lie in (0, 1), got {level}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


class MeanCI(NamedTuple):
    """A sample mean with its ``level`` confidence interval, standard error and n."""

    mean: float
    lo: float
    hi: float
    se: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2.0


class ProportionCI(NamedTuple):
    """An estimated proportion ``k / n`` with its Wilson interval."""

    p: float
    lo: float
    hi: float
    k: int
    n: int

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2.0


def mean_ci(x, level: float = DEFAULT_LEVEL) -> MeanCI:
    """Mean of ``x`` with a normal-approximation confidence interval.

    Parameters
    ----------
    x : array-like of numbers
        Independent samples (NaNs are not allowed).
    level : float
        Confidence level, default 0.95.

    Returns
    -------
    MeanCI
        ``(mean, lo, hi, se, n)``; ``se`` = sample standard deviation (ddof=1) / sqrt(n).
        With n = 1 the spread is unknown, so se, lo and hi are NaN; with n = 0
        everything is NaN.
    """
    a = np.asarray(x, dtype=np.float64).ravel()
    n = int(a.size)
    if n == 0:
        nan = float("nan")
        return MeanCI(nan, nan, nan, nan, 0)
    m = float(a.mean())
    if n == 1:
        nan = float("nan")
        return MeanCI(m, nan, nan, nan, 1)
    se = float(a.std(ddof=1) / np.sqrt(n))
    h = z_value(level) * se
    return MeanCI(m, m - h, m + h, se, n)


def proportion_ci(k: int, n: int, level: float = DEFAULT_LEVEL) -> ProportionCI:
    """Wilson score interval for ``k`` successes out of ``n`` trials.

    Parameters
    ----------
    k, n : int
        Successes and trials, ``0 <= k <= n``.
    level : float
        Confidence level, default 0.95.

    Returns
    -------
    ProportionCI
        ``(p, lo, hi, k, n)`` with ``p = k / n``; for n = 0 p, lo, hi are NaN.
    """
    k = int(k)
    n = int(n)
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        nan = float("nan")
        return ProportionCI(nan, nan, nan, 0, 0)
    z = z_value(level)
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * np.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    lo = max(0.0, centre - half)
    hi = min(1.0, centre + half)
    # floating error may leave the exact endpoint a hair inside; 0 and n are exact
    if k == 0:
        lo = 0.0
    if k == n:
        hi = 1.0
    return ProportionCI(p, float(lo), float(hi), k, n)


def proportion_ci_of(flags, level: float = DEFAULT_LEVEL) -> ProportionCI:
    """:func:`proportion_ci` of a boolean array (k = number of True)."""
    a = np.asarray(flags, dtype=bool).ravel()
    return proportion_ci(int(a.sum()), int(a.size), level)


def paired_diff_ci(a, b, level: float = DEFAULT_LEVEL) -> MeanCI:
    """Mean of ``a - b`` over paired samples (same deals), with its interval.

    Pairing cancels the luck of the cards when two policies play the same deals.
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples need equal lengths, got {a.size} and {b.size}")
    return mean_ci(a - b, level)


def cross_fit_loss(table: np.ndarray, played, weights=None) -> tuple[float, float, int]:
    """The loss of the action ``played`` against the best, estimated without the winner's
    curse: ``table[w, a]`` is action ``a``'s value in world ``w`` (higher is better for the
    player: the own-minus-opponent points of a stock game, V7; the card points of the
    player's side in the games with an auction, R7; a deal score for the exchange and the
    calls of the auction, R8), every action on the same worlds; ``played`` is a column
    index, or a sequence of column indices when the action taken is consistent with
    several of the options (a bid of the auction, which every plan bidding on at least
    that far would say, R3): then the best of those is chosen on the same half as the
    overall best.  ``weights`` (optional, one per world, non-negative): the worlds'
    importance weights (the advisor's inference weights, R3); means are weighted and the
    SE uses Kish's effective sample size, as analyzer.analyses.weighted_stats does.
    Returns ``(loss, se, n)``.

    Picking the best on the worlds it is then measured on (``max`` of the means minus the
    played action's mean) is biased upwards: among actions of equal worth it picks the one
    the worlds favoured by chance, so a pure-noise decision shows a positive loss.  Here
    the worlds are split in two halves (the first ``n // 2``, the rest: the worlds are
    independent draws); the best is chosen on one half and its advantage over ``played``
    measured, world by world, on the other half, and vice versa.  ``loss`` is the mean of
    those ``n`` per-world differences (the two halves averaged by their sizes), ``se``
    their standard error (paired: the same world for both actions).  When the actions are
    equal in distribution the expected loss is 0; in general it is the loss against what
    a ``n/2``-world choice would pick, so it errs low rather than high.  Needs ``n >= 2``
    (BinokelError otherwise)."""
    v = np.asarray(table, dtype=float)
    n = v.shape[0]
    if n < 2:
        raise BinokelError(f"review: {n} world per decision; the loss is measured on worlds "
                           "other than those that chose the best, so use at least 2")
    cols = np.atleast_1d(np.asarray(played, dtype=np.int64))
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    h = n // 2
    halves = (np.arange(h), np.arange(h, n))
    d = np.empty(n)
    for choose, measure in ((halves[0], halves[1]), (halves[1], halves[0])):
        wc = w[choose]
        means = (wc[:, None] * v[choose]).sum(axis=0) / max(float(wc.sum()), 1e-300)
        best = int(np.argmax(means))                         # the first of equals
        mine = int(cols[int(np.argmax(means[cols]))])        # the played set's best
        d[measure] = v[measure, best] - v[measure, mine]
    if weights is None:
        return float(d.mean()), float(d.std(ddof=1) / np.sqrt(n)), n
    sw = float(w.sum())
    if not sw > 0:
        raise BinokelError("review: every world has weight 0: nothing is consistent with "
                           "what the player saw")
    m = float((w * d).sum() / sw)
    ess = sw * sw / float((w * w).sum())
    var = float((w * (d - m) ** 2).sum() / sw)
    return m, float(np.sqrt(var / max(ess - 1.0, 1.0))), n


DEFAULT_QUANTILES = (0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95)


def quantiles(x, probs: Sequence[float] = DEFAULT_QUANTILES) -> dict[float, float]:
    """Empirical quantiles of ``x`` (numpy's default linear interpolation).

    Returns ``{p: value}``; NaN values for an empty sample.
    """
    a = np.asarray(x, dtype=np.float64).ravel()
    if a.size == 0:
        return {float(p): float("nan") for p in probs}
    vals = np.quantile(a, np.asarray(probs, dtype=np.float64))
    return {float(p): float(v) for p, v in zip(probs, vals)}


class QuantileCI(NamedTuple):
    """The ``p`` quantile of a sample with its ``level`` confidence interval and n."""

    value: float
    lo: float
    hi: float
    p: float
    n: int


def quantile_ci_counts(values, counts, p: float,
                       level: float = DEFAULT_LEVEL) -> QuantileCI:
    """The ``p`` quantile of a sample given as distinct ``values`` with their ``counts``,
    and a distribution-free confidence interval for the population quantile.

    The estimate is the smallest value whose empirical CDF reaches ``p`` (what the reports
    print).  The interval is the order-statistic one: the number of sample points below the
    true quantile is Binomial(n, p), so the ranks ``floor(np - z*sqrt(np(1-p)))`` and
    ``ceil(np + z*sqrt(np(1-p))) + 1`` (1-based, clipped to 1..n) bracket it with about
    ``level`` probability whatever the distribution (normal approximation of the binomial;
    with ties the coverage is at least that).  No bootstrap is needed, which matters for
    reports built from histograms of millions of deals.

    Returns :class:`QuantileCI`; NaN values for an empty sample.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"quantile level must lie in (0, 1), got {p}")
    v = np.asarray(values, dtype=np.float64).ravel()
    c = np.asarray(counts, dtype=np.int64).ravel()
    if v.shape != c.shape:
        raise ValueError(f"values and counts need equal lengths, got {v.size} and {c.size}")
    keep = c > 0
    v, c = v[keep], c[keep]
    n = int(c.sum())
    if n == 0:
        nan = float("nan")
        return QuantileCI(nan, nan, nan, float(p), 0)
    order = np.argsort(v, kind="stable")
    v, cum = v[order], np.cumsum(c[order])

    def order_stat(k: int) -> float:  # the k-th smallest (1-based) sample value
        return float(v[int(np.searchsorted(cum, min(max(k, 1), n)))])

    half = z_value(level) * np.sqrt(n * p * (1.0 - p))
    value = float(v[min(int(np.searchsorted(cum / n, p)), len(v) - 1)])
    return QuantileCI(value, order_stat(int(np.floor(n * p - half))),
                      order_stat(int(np.ceil(n * p + half)) + 1), float(p), n)


def histogram(x, bin_width: float, start: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Counts of ``x`` on bins of width ``bin_width`` aligned to multiples of it.

    Returns ``(edges, counts)`` with ``len(edges) == len(counts) + 1``; bins are
    half-open ``[edges[i], edges[i+1])``.  An empty sample gives one empty bin.
    """
    if bin_width <= 0:
        raise ValueError(f"bin_width must be positive, got {bin_width}")
    a = np.asarray(x, dtype=np.float64).ravel()
    if a.size == 0:
        lo = 0.0 if start is None else float(start)
        return np.array([lo, lo + bin_width]), np.zeros(1, dtype=np.int64)
    lo = float(np.floor(a.min() / bin_width) * bin_width) if start is None else float(start)
    hi = float(np.floor(a.max() / bin_width) * bin_width + bin_width)
    nb = max(1, int(round((hi - lo) / bin_width)))
    edges = lo + bin_width * np.arange(nb + 1, dtype=np.float64)
    idx = np.floor((a - lo) / bin_width).astype(np.int64)
    idx = np.clip(idx, 0, nb - 1)
    counts = np.bincount(idx, minlength=nb).astype(np.int64)
    return edges, counts


#: A P(total >= bid) table ends after the first bid whose share is below this.
REACH_NEGLIGIBLE = 0.001


def reach_table(total, start: int, step: int) -> list[dict]:
    """P(total >= b) with its Wilson 95 % interval for ``b = start, start + step, ...``,
    on to the first bid whose share is below ``REACH_NEGLIGIBLE`` (so the table covers
    every total the samples reached, however high the hand's mean).

    ``total``: one total per sample.  Returns ``[{"bid", "p", "lo", "hi"}, ...]``.
    """
    x = np.asarray(total, dtype=np.float64)
    n = len(x)
    rows = []
    b = int(start)
    while True:
        pc = proportion_ci(int((x >= b).sum()), n)
        rows.append({"bid": b, "p": pc.p, "lo": pc.lo, "hi": pc.hi})
        if pc.p < REACH_NEGLIGIBLE:
            return rows
        b += int(step)


def reach_text(rows: list[dict]) -> str:
    """``reach_table`` rows as one line, runs of the same whole percentage merged
    (``150-240: 100%  250: >99%  260: 97% ... 600: <1%  610: 0%``)."""
    runs = []
    for r in rows:
        p = r["p"]
        # never round a possible total to 0 % or an uncertain one to 100 %
        pct = ("0%" if p == 0 else "<1%" if p < 0.005 else ">99%" if 0.995 < p < 1
               else f"{100 * p:.0f}%")
        if runs and runs[-1][2] == pct:
            runs[-1][1] = r["bid"]
        else:
            runs.append([r["bid"], r["bid"], pct])
    return "  ".join(f"{a}: {p}" if a == b else f"{a}-{b}: {p}" for a, b, p in runs)
