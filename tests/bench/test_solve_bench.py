"""DD bench workloads (analyzer.bench.solve): the plain-Python baseline agrees with the kernel."""
from __future__ import annotations

import pytest

from analyzer.bench import registry
from analyzer.bench.solve import make_positions, python_solve, table_positions
from analyzer.errors import BinokelError
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import get_game
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


ALL_GAMES = ["binokel-48", "grupp-3", "grupp-4", "binokel-40", "kreuz-48", "kreuz-40",
             "pinochle-80"]


@pytest.mark.parametrize("game", ALL_GAMES)
def test_dd8_runs_every_game_on_its_own_table(game):
    # issue 24: DD8 for every game, three-player games on the tuned kernel, the team games
    # on the table solver; positions of the game's deck with 8 tricks left (R6 random play)
    res = registry.run_workload("DD8", deals=2, repeats=1, baseline=False,
                                rules=get_rules(game))
    assert res["rules"] == game and res["pooled"]["nodes"]["n"] == 2
    assert res["extra"]["kernel"] == ("table" if get_game(game).table.sides == "partners"
                                      else "tuned")


@pytest.mark.parametrize("game", ["grupp-4", "kreuz-40", "pinochle-80"])
def test_table_positions_hold_the_tricks_left_and_no_card_of_a_seat_that_sits_out(game):
    g = get_game(game)
    kr = g.kernel
    for pos in table_positions(6, 5, 1, g):
        in_play = [q for q in range(kr.table_seats) if not kr.sits_out[q]]
        assert all(sum(pos.hands[q]) == 5 for q in in_play)
        assert all(sum(pos.hands[q]) == 0 for q in range(kr.table_seats) if q not in in_play)
        assert pos.trick == () and 0 <= pos.trump <= 3


def test_dd10_names_the_limit_where_a_game_deals_fewer_tricks():
    # V5.1: kreuz-40 deals 9 cards each: no position with 10 tricks left
    with pytest.raises(BinokelError, match="kreuz-40 deals 9 tricks"):
        registry.run_workload("DD10", deals=1, repeats=1, rules=get_rules("kreuz-40"))
