"""Tests of analyzer.analyses.stats: the confidence intervals every Monte Carlo figure reports."""
from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.analyses.stats import (histogram, mean_ci, paired_diff_ci, proportion_ci,
                            proportion_ci_of, quantiles, z_value)


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
