"""The fitted advisor model (R3): the maximum-likelihood fit recovers known coefficients,
the shipped fit agrees with the advisor on fresh hands within its standard errors, and
``binokel fit-opponents`` writes a module the package can read."""
from __future__ import annotations

import json
import math
import runpy

import numpy as np
from click.testing import CliRunner

from analyzer.analyses.advisor_fit import FITS
from analyzer.analyses.fit_opponents import (advisor_decisions, fit_interval_logistic,
                                             write_fit_module)
from analyzer.analyses.opponents import FEATURES
from cli.main import cli


def test_interval_fit_recovers_known_coefficients():
    """Synthetic maxima m = x.beta + logistic(s), observed as R3 calls would show them
    (an interval of one bid step, 'pass' below 160, the top of the grid open): the MLE
    lands within 4 SE of the truth."""
    rng = np.random.default_rng(1)
    n = 3000
    X = np.column_stack([np.ones(n), rng.uniform(0, 300, n), rng.integers(0, 5, n)])
    beta = np.array([100.0, 0.8, 12.0])
    m = X @ beta + 15.0 * rng.logistic(size=n)
    b = np.floor(m / 10) * 10
    lo = np.where(b < 160, -np.inf, b)
    hi = np.where(b < 160, 160.0, np.where(b >= 400, np.inf, b + 10))
    lo = np.where(b >= 400, 400.0, lo)
    fit = fit_interval_logistic(X, lo, hi)
    for c, se, true in zip(fit["coef"], fit["coef_se"], beta):
        assert abs(c - true) <= 4 * se, (c, se, true)
    assert abs(fit["scale"] - 15.0) <= 4 * fit["scale_se"]


def test_shipped_fit_agrees_with_the_advisor_on_fresh_hands():
    """Refit on a small fresh sample (another seed) as ``binokel fit-opponents`` does: every
    coefficient within 4 combined SE of the shipped one, and the shipped model's predicted
    share of hands the advisor takes to 230 or more matches the advisor's (4 SE)."""
    ship = FITS["binokel-48"]
    assert ship["features"] == list(FEATURES)
    X, lo, hi, bid = advisor_decisions(60, ship["samples"], seed=424242)
    small = fit_interval_logistic(X, lo, hi)
    for name, c, se, c0, se0 in zip(FEATURES, small["coef"], small["coef_se"], ship["coef"],
                                    ship["coef_se"]):
        assert abs(c - c0) <= 4 * math.hypot(se, se0), (name, c, se, c0, se0)
    v = X @ np.array(ship["coef"])
    p = 1.0 / (1.0 + np.exp(-(v - 230.0) / ship["scale"]))
    obs = (bid >= 230).sum()
    assert abs(obs - p.sum()) <= 4 * math.sqrt((p * (1 - p)).sum()) + 1


def test_fit_module_round_trip(tmp_path):
    fits = {"x": {"coef": [1.0, 2.5], "scale": 3.0, "features": ["a", "b"]}}
    path = write_fit_module(fits, tmp_path / "fit.py")
    assert runpy.run_path(str(path))["FITS"] == fits


def test_cli_fit_opponents_writes_the_model_and_rejects_bad_paths(tmp_path):
    out = tmp_path / "fit.py"
    args = ["fit-opponents", "--hands", "24", "--samples", "8", "--seed", "3", "--out", str(out)]
    r = CliRunner().invoke(cli, args + ["--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["hands"] == 24 and len(d["coef"]) == len(FEATURES)
    assert "--hands 24 --samples 8 --seed 3" in d["command"]
    stored = runpy.run_path(str(out))["FITS"]["binokel-48"]
    assert stored["coef"] == d["coef"]
    r = CliRunner().invoke(cli, args[:-1] + [str(tmp_path)])
    assert r.exit_code == 2 and "directory" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(cli, ["fit-opponents", "--hands", "5"])
    assert r.exit_code == 2 and r.output.count("\n") <= 1
