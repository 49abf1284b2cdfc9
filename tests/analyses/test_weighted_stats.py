"""Weighted Monte Carlo statistics (analyzer.analyses.weighted_stats): with equal weights
they are the plain estimates of analyzer.analyses.stats, and the effective sample size is
Kish's, so an uneven weighting widens the interval."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.analyses.stats import mean_ci, proportion_ci
from analyzer.analyses.weighted_stats import (effective_sample_size, weighted_mean,
                                              weighted_proportion)


def test_equal_weights_give_the_sample_size_and_the_plain_mean_interval():
    rng = np.random.default_rng(1)
    x = rng.normal(10.0, 3.0, 400)
    w = np.full(400, 0.25)
    ess = effective_sample_size(w)
    assert ess == pytest.approx(400.0)
    est = weighted_mean(x, w, ess)
    plain = mean_ci(x)
    # the weighted variance divides by n, then the SE by n - 1: the ddof=1 SE exactly
    assert est.mean == pytest.approx(plain.mean, rel=1e-12)
    assert est.se == pytest.approx(plain.se, rel=1e-9)
    assert (est.lo, est.hi) == pytest.approx((plain.lo, plain.hi), rel=1e-9)
    assert est.n == ess


def test_equal_weights_give_the_wilson_interval_of_the_count():
    flags = np.array([1.0] * 37 + [0.0] * 163)
    w = np.ones(200)
    est = weighted_proportion(flags, w, effective_sample_size(w))
    plain = proportion_ci(37, 200)
    assert est.mean == pytest.approx(plain.p)
    assert (est.lo, est.hi) == pytest.approx((plain.lo, plain.hi), rel=1e-12)


def test_uneven_weights_shrink_the_effective_sample_and_widen_the_interval():
    rng = np.random.default_rng(2)
    x = rng.normal(0.0, 1.0, 1000)
    even = np.ones(1000)
    uneven = rng.exponential(1.0, 1000) ** 2
    ess = effective_sample_size(uneven)
    assert ess < 0.5 * effective_sample_size(even)
    assert ess == pytest.approx(uneven.sum() ** 2 / (uneven ** 2).sum())
    wide = weighted_proportion((x > 0).astype(float), uneven, ess)
    narrow = weighted_proportion((x > 0).astype(float), even, effective_sample_size(even))
    assert wide.hi - wide.lo > narrow.hi - narrow.lo
