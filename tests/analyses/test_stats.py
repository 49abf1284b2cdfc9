"""Tests of analyzer.analyses.stats: the confidence intervals every Monte Carlo figure reports."""
from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.analyses.stats import (cross_fit_loss, histogram, mean_ci, paired_diff_ci, proportion_ci,
                            proportion_ci_of, quantile_ci_counts, quantiles, z_value)


def test_z_value_95():
    assert z_value(0.95) == pytest.approx(1.959963984540054)
    with pytest.raises(ValueError):
        z_value(1.0)


def test_mean_ci_matches_formula():
    x = np.array([1.0, 2.0, 3.0, 4.0, 10.0])
    r = mean_ci(x)
    se = np.std(x, ddof=1) / math.sqrt(5)
    assert r.n == 5
    assert r.mean == pytest.approx(4.0)
    assert r.se == pytest.approx(se)
    assert r.lo == pytest.approx(4.0 - 1.959963984540054 * se)
    assert r.hi == pytest.approx(4.0 + 1.959963984540054 * se)
    assert r.half_width == pytest.approx(1.959963984540054 * se)


def test_mean_ci_degenerate_sizes():
    assert math.isnan(mean_ci([]).mean) and mean_ci([]).n == 0
    one = mean_ci([7])
    assert one.mean == 7 and one.n == 1 and math.isnan(one.se)
    const = mean_ci([3, 3, 3])
    assert const.lo == const.hi == 3 and const.se == 0


def test_mean_ci_coverage_is_about_95_percent():
    # the interval should cover the true mean ~95 % of the time (binomial check, 400 runs)
    rng = np.random.default_rng(1)
    covered = 0
    runs = 400
    for _ in range(runs):
        x = rng.exponential(2.0, size=200)
        r = mean_ci(x)
        covered += r.lo <= 2.0 <= r.hi
    # 95 % of 400 = 380, sd ~4.4; skewed data under-cover slightly
    assert 360 <= covered <= 395


def test_proportion_ci_wilson_known_value():
    # Wilson interval for 8/10 at 95 %: (0.4902, 0.9433) (standard textbook value)
    r = proportion_ci(8, 10)
    assert r.p == 0.8
    assert r.lo == pytest.approx(0.4902, abs=1e-4)
    assert r.hi == pytest.approx(0.9433, abs=1e-4)


def test_proportion_ci_edges():
    z = proportion_ci(0, 50)
    assert z.p == 0 and z.lo == 0 and 0 < z.hi < 0.1
    a = proportion_ci(50, 50)
    assert a.hi == 1 and 0.9 < a.lo < 1
    e = proportion_ci(0, 0)
    assert math.isnan(e.p) and e.n == 0
    with pytest.raises(ValueError):
        proportion_ci(3, 2)
    f = proportion_ci_of(np.array([True, False, True, True]))
    assert (f.k, f.n) == (3, 4)


def test_paired_diff_ci():
    a = np.array([10.0, 12.0, 9.0, 11.0])
    b = a - 2.0
    r = paired_diff_ci(a, b)
    assert r.mean == 2.0 and r.se == 0.0
    with pytest.raises(ValueError):
        paired_diff_ci([1, 2], [1])


def test_quantiles_and_histogram():
    x = np.arange(101)
    q = quantiles(x, (0.0, 0.5, 0.9))
    assert q == {0.0: 0.0, 0.5: 50.0, 0.9: 90.0}
    edges, counts = histogram([0, 5, 10, 19, 20, 20], 10)
    assert list(edges) == [0, 10, 20, 30]
    assert list(counts) == [2, 2, 2]
    assert counts.sum() == 6
    e2, c2 = histogram([], 10)
    assert c2.sum() == 0
    assert all(math.isnan(v) for v in quantiles([], (0.5,)).values())


def test_quantile_ci_counts_reads_order_statistics_of_the_counted_sample():
    """The estimate is the smallest value whose empirical CDF reaches p, and the interval's
    ends are the order statistics of ranks floor/ceil(np -/+ z sqrt(np(1-p))) (+1), as a
    plain sort of the expanded sample gives them."""
    rng = np.random.default_rng(4)
    for _ in range(50):
        x = rng.integers(-30, 60, size=int(rng.integers(1, 400)))
        vals, counts = np.unique(x, return_counts=True)
        srt = np.sort(x)
        n = len(x)
        for p in (0.1, 0.5, 0.9):
            q = quantile_ci_counts(vals[::-1], counts[::-1], p)  # order must not matter
            k = next(i for i in range(n) if (i + 1) / n >= p)
            half = 1.959963984540054 * math.sqrt(n * p * (1 - p))
            lo = min(max(math.floor(n * p - half), 1), n)
            hi = min(max(math.ceil(n * p + half) + 1, 1), n)
            assert (q.value, q.lo, q.hi, q.n) == (srt[k], srt[lo - 1], srt[hi - 1], n)
            assert q.lo <= q.value <= q.hi


def test_quantile_ci_counts_covers_the_true_quantile_about_95_percent_of_the_time():
    """Distribution-free: over 600 samples of n = 300 from a skewed integer distribution
    (0..999, squared uniform) the 95% interval contains the true median and 90th
    percentile in 93-99% of samples (the binomial SE of a 95% coverage at 600 is 0.9%)."""
    rng = np.random.default_rng(7)
    support = np.arange(1000)
    pmf = np.diff(np.sqrt(np.arange(1001) / 1000.0))  # P(X <= v) = sqrt((v+1)/1000)
    cdf = np.cumsum(pmf)
    for p in (0.5, 0.9):
        true_q = int(support[np.searchsorted(cdf, p - 1e-12)])
        hits = 0
        for _ in range(600):
            x = rng.choice(support, size=300, p=pmf)
            vals, counts = np.unique(x, return_counts=True)
            q = quantile_ci_counts(vals, counts, p)
            hits += q.lo <= true_q <= q.hi
        assert 0.93 <= hits / 600 <= 0.99, (p, hits)


def test_quantile_ci_counts_bad_input():
    assert math.isnan(quantile_ci_counts([1, 2], [0, 0], 0.5).value)
    with pytest.raises(ValueError):
        quantile_ci_counts([1, 2], [1, 1], 1.0)
    with pytest.raises(ValueError):
        quantile_ci_counts([1, 2], [1], 0.5)


def test_cross_fit_loss_with_unit_weights_is_the_unweighted_one():
    rng = np.random.default_rng(3)
    t = rng.normal(size=(50, 4))
    a = cross_fit_loss(t, 2)
    b = cross_fit_loss(t, [2], np.ones(50))
    assert np.allclose(a, b)


def test_cross_fit_loss_of_equal_weighted_options_is_zero_on_average():
    # review's auction (R3): importance-weighted samples, the call standing for a set of
    # plans; options equal in distribution cost 0 on average, the same-sample loss does not
    rng = np.random.default_rng(4)
    cf, same = [], []
    for _ in range(400):
        t = rng.normal(size=(40, 5))
        w = rng.exponential(size=40)
        cf.append(cross_fit_loss(t, [0, 1], w)[0])
        m = (w[:, None] * t).sum(axis=0) / w.sum()
        same.append(m.max() - m[[0, 1]].max())
    cf = np.array(cf)
    assert abs(cf.mean()) < 3 * cf.std(ddof=1) / np.sqrt(len(cf))
    assert np.mean(same) > 5 * np.std(same) / np.sqrt(len(same))


def test_cross_fit_loss_of_a_set_holding_the_best_is_zero_and_a_dominated_one_is_not():
    rng = np.random.default_rng(5)
    t = rng.normal(size=(60, 3))
    t[:, 2] += 10.0                      # option 2 is best by far
    assert cross_fit_loss(t, [1, 2], rng.exponential(size=60))[0] == 0.0
    loss, se, n = cross_fit_loss(t, [0, 1], rng.exponential(size=60))
    assert loss > 8 and 0 < se < 1 and n == 60
