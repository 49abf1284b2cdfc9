"""The report of a partners game's meld census (reports/census_sections.py; issue 24):
its sections, numbers with n and 95% CIs, and charts, as for the three-player census."""
from __future__ import annotations

from analyzer.batch.runs import RunSpec, simulate
from analyzer.mechanics.rules import get_rules
from reports import build_report
from reports.cells import num


def test_kreuz_48_meld_census_report_shows_hand_partner_and_dabb_sections(tmp_path):
    """V4.1 (11 cards, Dabb 4), V4.4 (melds per V2.5, added per team): the report's tables
    carry the run's own means; the charts are real pictures."""
    run = simulate(tmp_path / "run", RunSpec("melds", 1_200, 4, 600, get_rules("kreuz-48")), jobs=1)
    res = build_report(tmp_path / "run", tmp_path / "rep")
    md = res["markdown"].read_text()
    assert [p.stem for p in res["charts"]] == ["team_best_meld", "dabb_points"]
    assert all(p.stat().st_size > 5_000 for p in res["charts"])
    assert "4 hands of 11 cards a deal and a Dabb of 4" in md
    assert "partners forehand + rearhand and middlehand + dealer (V1)" in md
    assert "n = 1,200 deals, 4,800 hands" in md
    best = next(line for line in md.splitlines() if "| best of the four trumps |" in line)
    assert f"| {num(run.mean('hand.meld.best').value)} |" in best
    mates = next(line for line in md.splitlines() if line.startswith("| partners together"))
    assert f"| {num(run.mean('side.meld.best').value)} |" in mates
    assert "## The best trump (by meld total)" in md and "## Dabb card points (4 cards)" in md
