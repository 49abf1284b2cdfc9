"""DD bench workloads (analyzer.bench.solve): the plain-Python baseline agrees with the kernel."""
from __future__ import annotations

from analyzer.bench import registry
from analyzer.bench.solve import make_positions, python_solve
from analyzer.search.solve import Solver, dd_value, set_context, set_hands


def test_python_baseline_solver_equals_kernel_on_random_play_positions():
    lo, hi, meta = make_positions(12, 4, seed=3)
    s = Solver(tt_bits=12)
    for i in range(12):
        trump, soloist, leader = (int(x) for x in meta[i])
        set_context(s.w, trump, soloist, s.tt_mask)
        set_hands(s.w, lo[i], hi[i])
        assert python_solve(lo[i], hi[i], trump, soloist, leader) == \
            dd_value(s.w, s.tt, leader, 0, -1, -1, -1, -1, 0)


def test_dd_workloads_registered_and_report_per_position_times():
    wls = registry.workloads()
    assert {"DD8", "DD10", "DD12", "DD15"} <= set(wls)
    out = wls["DD8"].fn(3, 0)
    assert out["tricks_left"] == 8 and out["median_ms"] > 0 and out["mean_nodes"] > 0
    assert 0 <= out["mean_value"] <= 250
    per = out["per_unit"]
    assert len(per["cpu_ms"]) == len(per["wall_ms"]) == len(per["nodes"]) == 3
    assert sum(per["nodes"]) == 3 * out["mean_nodes"]


def test_dd_bench_pools_positions_of_all_repeats():
    res = registry.run_workload("DD8", deals=5, repeats=2, baseline=False)
    pooled = res["pooled"]
    assert set(pooled) == {"cpu_ms", "wall_ms", "nodes"}
    assert all(d["n"] == 10 and len(d["run_medians"]) == 2 for d in pooled.values())
    assert pooled["nodes"]["median"] > 0 and "per_unit" not in res["extra"]
