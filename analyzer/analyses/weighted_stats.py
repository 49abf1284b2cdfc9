"""Weighted Monte Carlo statistics: estimates from samples weighted by inference.

The advisors weight each sampled deal by how well it explains the calls so far (R3
inference, analyzer.mechanics.bidding.evidence_likelihood).  A weighted estimate reports
its mean, 95 % interval, standard error and Kish's effective sample size
``(sum w)^2 / sum w^2`` as its n, so an auction that leaves few plausible deals shows
wide intervals instead of false precision.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.analyses.stats import z_value


@dataclass(frozen=True)
class Estimate:
    """A (weighted) Monte Carlo mean with its 95 % interval; ``n`` = effective sample size."""

    mean: float
    lo: float
    hi: float
    se: float
    n: float

    def to_dict(self) -> dict:
        return {"mean": self.mean, "lo": self.lo, "hi": self.hi, "se": self.se, "n_eff": self.n}


def effective_sample_size(w: np.ndarray) -> float:
    """Kish's effective sample size ``(sum w)^2 / sum w^2`` of weights ``w``."""
    return float(w.sum() ** 2 / (w * w).sum())


def weighted_mean(x: np.ndarray, w: np.ndarray, ess: float) -> Estimate:
    """Weighted mean of ``x`` (weights ``w``) with a normal 95 % interval at the effective
    sample size ``ess`` (Kish): the variance is the weighted one, the SE divides by ``ess - 1``."""
    sw = w.sum()
    m = float((w * x).sum() / sw)
    var = float((w * (x - m) ** 2).sum() / sw)
    se = math.sqrt(var / max(ess - 1.0, 1.0))
    h = z_value() * se
    return Estimate(m, m - h, m + h, se, ess)


def weighted_proportion(flags: np.ndarray, w: np.ndarray, ess: float) -> Estimate:
    """Weighted proportion with a Wilson interval at the effective sample size."""
    p = float((w * flags).sum() / w.sum())
    z = z_value()
    n = max(ess, 1.0)
    z2 = z * z
    den = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half),
                    math.sqrt(p * (1 - p) / n), ess)
