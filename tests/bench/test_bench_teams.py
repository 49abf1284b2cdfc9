"""Pinochle workloads P1, P2, P2T, PD (analyzer/bench/teams.py): registered, and the
kernels measure what their definitions say (V6.3, V6.5)."""
from __future__ import annotations

from analyzer.analyses.pinochle_exact import times_distribution  # noqa: F401  (import check)
from analyzer.bench import teams as bp
from analyzer.bench.registry import workloads


def test_pinochle_workloads_are_registered():
    wls = workloads()
    for name in ("P1", "P2", "P2T", "PD"):
        assert name in wls and "pinochle-80" in wls[name].description


def test_v6_3_P1_kernel_and_python_baseline_measure_the_same_mean():
    # different RNGs: the means agree within a few standard errors (sd of a meld ~ 120)
    a = bp.p1(20_000, 1)["mean_meld"]
    b = bp.p1_python(4_000, 2)["mean_meld"]
    se = 130 * (1 / (16 * 20_000) + 1 / (16 * 4_000)) ** 0.5 * 2   # hands of a deal correlate
    assert abs(a - b) < 5 * se


def test_v6_5_P2_and_P2T_hand_out_all_500_counters():
    assert bp.p2(500, 0)["total"] == 500
    assert bp.p2t(200, 0)["total"] == 500


def test_PD_runs_whole_deals():
    out = bp.pd(200, 0)
    assert out["mean_score_team0"] > 0 and out["mean_score_team1"] > 0
