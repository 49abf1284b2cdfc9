"""Shared test set-up: a deterministic hypothesis profile and a few small fixtures."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, settings


# Deterministic examples (CI must not flake) and no deadline (numba compiles on first use).
settings.register_profile("binokel", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("binokel")


@pytest.fixture(scope="session")
def rules():
    from analyzer.mechanics.rules import DEFAULT_RULES
    return DEFAULT_RULES


@pytest.fixture(scope="session")
def kr(rules):
    """The compiled KernelRules of the default RuleSet."""
    return rules.kernel


@pytest.fixture
def np_rng():
    """A seeded NumPy generator for test inputs (fresh per test)."""
    return np.random.default_rng(20240601)


def _chi2_pvalue(observed, expected=None) -> float:
    """Upper-tail p-value of Pearson's chi-square statistic (Wilson-Hilferty
    approximation, fine for df >= 2).  ``expected`` defaults to uniform."""
    from statistics import NormalDist

    obs = np.asarray(observed, dtype=float)
    exp = np.full_like(obs, obs.sum() / obs.size) if expected is None else np.asarray(
        expected, dtype=float)
    stat = float(((obs - exp) ** 2 / exp).sum())
    df = obs.size - 1
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / np.sqrt(2 / (9 * df))
    return 1.0 - NormalDist().cdf(z)


@pytest.fixture(scope="session")
def chi2_pvalue():
    """``chi2_pvalue(observed, expected=None) -> p`` (goodness of fit, no scipy)."""
    return _chi2_pvalue
