"""``duplicate``, ``tournament`` and ``bench`` with ``--rules binokel-2`` (V7): two card-play
policies on the same deals with the seats swapped (n, mean difference, SE, z), whole games
to 1000 (win rate with SE, V7.5), the stock game's bench workloads; options that make no
sense for the game are one line (exit 2) citing V7.x."""
from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import assert_one_line_error, run


def test_duplicate_prints_n_mean_se_and_z():
    res = run("duplicate", "--rules", "binokel-2", "--policy", "heuristic", "--against", "random",
              "--deals", "2", "--seed", "1")
    assert res.exit_code == 0, res.output
    assert "2 deals in duplicate" in res.stdout and "SE" in res.stdout and "z =" in res.stdout


def test_duplicate_json_is_the_same_for_any_jobs():
    args = ["duplicate", "--rules", "binokel-2", "--policy", "heuristic", "--against", "random",
            "--deals", "5", "--seed", "2", "--json"]
    one = json.loads(run(*args, "--jobs", "1").stdout)
    two = json.loads(run(*args, "--jobs", "2").stdout)
    assert one["diffs"] == two["diffs"] and one["n"] == 5 and one["rules"] == "binokel-2"


def test_tournament_deals_and_games():
    res = run("tournament", "--rules", "binokel-2", "--agents", "heuristic,heuristic",
              "--deals", "2", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["mode"] == "deals" and d["mean"] == 0 and d["diffs"] == [0, 0]
    res = run("tournament", "--rules", "binokel-2", "--agents", "heuristic,random", "--groups", "2")
    assert res.exit_code == 0, res.output
    assert "game pairs to 1000" in res.stdout and "V7.5" in res.stdout and "wins" in res.stdout


def test_bench_runs_the_stock_workloads():
    res = run("bench", "--rules", "binokel-2", "-w", "B2R", "-w", "B2E8", "--deals", "3",
              "--repeats", "1", "--no-baseline", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert [r["workload"] for r in d["results"]] == ["B2R", "B2E8"]
    assert all(r["rules"] == "binokel-2" and r["cpu_deals_per_s"] > 0 for r in d["results"])


@pytest.mark.parametrize("args,frags", [
    (["duplicate", "--config", "soloist"], ["--config", "V7.1"]),
    (["duplicate", "--horizon", "3"], ["--horizon", "V7.4"]),
    (["duplicate", "--baseline", "heuristic"], ["--baseline", "V7"]),
    (["duplicate", "--policy", "advisor"], ["unknown policy 'advisor'"]),
    (["duplicate", "--deals", "1"], ["--deals must be at least 2"]),
    (["duplicate", "--samples", "1", "--deals", "2"], ["--samples must be at least 2"]),
    (["tournament", "--objective", "win", "--deals", "2"], ["--objective", "V7.1"]),
    (["tournament", "--play", "pimc", "--deals", "2"], ["--play", "V7"]),
    (["tournament", "--agents", "heuristic", "--deals", "2"], ["--agents", "two policies"]),
    (["tournament", "--deals", "2", "--groups", "2"], ["exclude each other"]),
    (["bench", "-w", "W2"], ["W2", "V7", "B2R"]),
])
def test_bad_input_is_one_line(args, frags):
    assert_one_line_error(run(args[0], "--rules", "binokel-2", *args[1:]), *frags)


def test_stock_options_are_refused_for_the_other_games():
    assert_one_line_error(run("duplicate", "--against", "random"), "--against", "V7")
    assert_one_line_error(run("duplicate", "--jobs", "2"), "--jobs", "V7")
    assert_one_line_error(run("duplicate", "--policy", "pimc-fast"), "--policy", "pimc-fast")
    assert_one_line_error(run("bench", "-w", "B2R"), "B2R", "V7")
