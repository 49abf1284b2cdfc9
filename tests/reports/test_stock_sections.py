"""The report of a two-hand game's run (V7): chosen because the run's RuleSet has a stock,
with points per seat, the melds shown and point distributions, each with n and a 95%
interval, and charts."""
from __future__ import annotations

import pytest

from analyzer.batch.runs import RunSpec, simulate
from analyzer.mechanics.ruleset import get_game
from reports.render import build_report

GAME = get_game("binokel-2")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    base = tmp_path_factory.mktemp("stockrep")
    run = simulate(base / "run", RunSpec(what="deals", n=3, seed=2, chunk_size=3, rules=GAME),
                   jobs=1)
    return run, build_report(base / "run", base / "rep")


def test_report_has_the_stock_sections_with_intervals(report):
    run, res = report
    md = res["markdown"].read_text()
    for head in ("Points per deal by seat (V7.4)", "Melds shown (V7.3)",
                 "Point distributions (V7.4)"):
        assert f"## {head}" in md
    assert "n = 3 deals" in md and "±" in md and "[" in md
    assert "Contracts" not in md and "winning bid" not in md      # no auction in V7
    for kind in ("trump pair", "quint major", "double binokel"):
        assert f"| {kind} |" in md


def test_report_draws_its_charts(report):
    _, res = report
    names = {p.name for p in res["charts"]}
    assert {"stock_dist_points.png", "stock_dist_melds.png"} <= names and len(names) == len(res["charts"])
    for p in res["charts"]:
        assert p.stat().st_size > 1000 and p.with_suffix(".svg").exists()
    assert "stock_dist_points.png" in res["html"].read_text()


def test_the_sections_follow_the_stock_not_the_name(report):
    """A run is reported as a stock game because its RuleSet has a stock (V7)."""
    run, _ = report
    assert run.stock and run.rules.stock.size == 24
