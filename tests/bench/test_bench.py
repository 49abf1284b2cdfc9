"""``analyzer.bench.registry``: the workload registry, the timing harness and W1's three
implementations (kernel, NumPy, plain Python) measuring the same thing (R2, R5).
Speed itself is never asserted (it is reported by ``binokel bench``)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.bench import registry as bench
from analyzer.errors import BinokelError


@pytest.fixture
def scratch_workload():
    """A throw-away registered workload, removed afterwards."""
    calls = []

    def fn(n, seed):
        calls.append((n, seed))
        return {"jobs": 1, "n": n}

    wl = bench.register("TEST-SCRATCH", fn, description="test only", deals=7,
                        baselines={"slow": (fn, 3)})
    yield wl, calls
    bench._REGISTRY.pop("TEST-SCRATCH", None)


def test_registry_has_W1_first_and_discovers_bench_modules():
    wls = bench.workloads()
    assert next(iter(wls)) == "W1"
    w1 = wls["W1"]
    assert "15/15/15/3" in w1.description and "12 values" in w1.description
    assert set(w1.baselines) == {"numpy", "python"}


def test_register_rejects_duplicates(scratch_workload):
    with pytest.raises(ValueError, match="already registered"):
        bench.register("TEST-SCRATCH", lambda n, s: None, description="again")


def test_run_workload_warms_up_then_times_repeats(scratch_workload):
    _, calls = scratch_workload
    res = bench.run_workload("TEST-SCRATCH", repeats=3, seed=5)
    # warm-up (at most 10,000 units, its own seed), then 3 timed runs, then the
    # baseline's warm-up and one timed run
    assert calls[0] == (7, 10_005)
    assert calls[1:4] == [(7, 5), (7, 6), (7, 7)]
    assert calls[4:] == [(3, 10_005), (3, 5)]
    assert res["deals"] == 7 and res["repeats"] == 3 and len(res["runs"]) == 3
    assert res["deals_per_s"] == sorted(res["runs"])[1]            # the median
    assert res["cores"] == 1 and res["cpu_deals_per_s"] is not None
    [b] = res["baselines"]
    assert b["name"] == "slow" and b["deals"] == 3
    assert math.isclose(b["speedup"], res["deals_per_s"] / b["deals_per_s"])
    assert res["extra"] == {"jobs": 1, "n": 7}


def test_run_workload_overrides_and_errors(scratch_workload):
    res = bench.run_workload("TEST-SCRATCH", deals=11, repeats=1, baseline=False)
    assert res["deals"] == 11 and res["baselines"] == []
    res = bench.run_workload("TEST-SCRATCH", repeats=1, baseline_deals=2)
    assert res["baselines"][0]["deals"] == 2
    with pytest.raises(BinokelError, match="unknown workload"):
        bench.run_workload("nope")
    with pytest.raises(BinokelError):
        bench.run_workload("TEST-SCRATCH", repeats=0)
    with pytest.raises(BinokelError):
        bench.run_workload("TEST-SCRATCH", deals=0)


def test_parallel_workload_has_no_per_cpu_rate():
    bench.register("TEST-PAR", lambda n, s: {"jobs": 2}, description="parallel", deals=2)
    try:
        res = bench.run_workload("TEST-PAR", repeats=1)
        assert res["cpu_deals_per_s"] is None and res["cores"] == 2
    finally:
        bench._REGISTRY.pop("TEST-PAR", None)


def test_W1_kernel_is_reproducible():
    assert bench.w1(20_000, 3) == bench.w1(20_000, 3)
    assert bench.w1(20_000, 3) != bench.w1(20_000, 4)


def test_R2_R5_W1_kernel_numpy_and_python_measure_the_same_mean():
    """The three W1 implementations estimate the same mean meld (R5 totals of random
    deals, R2): agreement within 5 standard errors."""
    n_k, n_np, n_py = 200_000, 100_000, 4_000
    k = bench.w1(n_k, 1)["mean_meld"]
    p = bench.w1_numpy(n_np, 2)["mean_meld"]
    q = bench.w1_python(n_py, 3)["mean_meld"]
    # per-deal standard deviation of the mean of the 12 values, from a NumPy sample
    rng = np.random.default_rng(0)
    decks = rng.permuted(np.broadcast_to(np.arange(48), (20_000, 48)), axis=1)
    types = decks[:, :45] // 2
    rows = np.repeat(np.arange(60_000), 15)
    counts = np.bincount(rows * 24 + types.reshape(-1), minlength=60_000 * 24).reshape(-1, 24)
    sd = bench.numpy_meld_totals(counts).reshape(20_000, 12).mean(axis=1).std()
    assert 20 < sd < 60
    for (a, na), (b, nb) in [((k, n_k), (p, n_np)), ((k, n_k), (q, n_py))]:
        se = sd * math.sqrt(1 / na + 1 / nb)
        assert abs(a - b) < 5 * se, (a, b, se)


def test_W1_sum_has_three_seats_by_four_trumps():
    res = bench.w1(1_000, 0)
    acc = np.array(res["sum"])
    assert acc.shape == (3, 4) and (acc > 0).all()
    assert math.isclose(res["mean_meld"], acc.sum() / 12_000)


def test_machine_info():
    info = bench.machine_info()
    assert info["cores"] >= 1 and info["numba"] and info["cpu"]


def test_per_unit_samples_are_pooled_over_all_runs():
    # a workload reporting one sample per unit: the harness pools all runs' units (each
    # run's own seed, so distinct units) into one distribution and drops the raw lists
    def fn(n, seed):
        return {"first": seed, "per_unit": {"ms": [float(seed * 10 + i) for i in range(n)]}}

    bench.register("TEST-POOL", fn, description="test only", deals=4)
    try:
        res = bench.run_workload("TEST-POOL", repeats=3, seed=0, baseline=False)
    finally:
        bench._REGISTRY.pop("TEST-POOL", None)
    assert res["extra"] == {"first": 2}                 # the last run's figures, no raw list
    d = res["pooled"]["ms"]
    xs = [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]   # seeds 0, 1, 2; 4 units each
    assert d["n"] == 12 and d["median"] == 11.5 and d["mean"] == sum(xs) / 12
    assert d["run_medians"] == [1.5, 11.5, 21.5]
    lo, hi = d["median_ci95"]
    assert lo <= d["median"] <= hi and lo in xs and hi in xs
    assert 20 <= d["p90"] <= 23


def test_median_ci95_order_statistics():
    # ranks floor((n - 1.96 sqrt n) / 2) and ceil(1 + (n + 1.96 sqrt n) / 2): 133 and 168 of 300
    assert bench._median_ci95(list(range(1, 301))) == [133, 168]
    assert bench._median_ci95([5.0]) == [5.0, 5.0]


def test_workload_without_per_unit_samples_has_no_pooled_figures(scratch_workload):
    assert bench.run_workload("TEST-SCRATCH", repeats=2, baseline=False)["pooled"] is None
