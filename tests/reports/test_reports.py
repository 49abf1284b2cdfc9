"""Reports of batch runs (reports/, `binokel report`): files, contents, bad input, and the
shipped sample runs (R5 meld frequencies vs exact values, R3-R8 played deals)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.batch.runs import RunSpec, load_run, part_path, simulate
from analyzer.analyses.exact import exact_table
from analyzer.analyses.stats import quantile_ci_counts
from cli.main import cli
from reports import SAMPLE_RUN, build_report
from reports.cells import pct

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DEALS = ROOT / "data" / "sample_deals_run"


@pytest.fixture(scope="module")
def meld_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "melds"
    simulate(out, RunSpec("melds", 30_000, 3, 10_000), jobs=1)
    return out


@pytest.fixture(scope="module")
def deal_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "deals"
    simulate(out, RunSpec("deals", 3_000, 3, 1_500), jobs=1)
    return out


def _check_files(res: dict, names: list[str]) -> None:
    assert res["html"].exists() and res["markdown"].exists()
    assert [p.stem for p in res["charts"]] == names
    for p in res["charts"]:
        assert p.stat().st_size > 5_000  # a real picture, not an empty canvas
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        svg = p.with_suffix(".svg")
        assert svg.exists() and b"<svg" in svg.read_bytes()[:2000]


def test_meld_report_has_exact_vs_monte_carlo_tables_and_charts(meld_run, tmp_path):
    """R5: the report puts exact probabilities beside the estimates with 95% CIs."""
    res = build_report(meld_run, tmp_path / "rep")
    _check_files(res, ["melds_h15", "melds_h18", "best_meld", "tapp_points"])
    md = res["markdown"].read_text()
    html = res["html"].read_text()
    exact = exact_table(15)
    # the exact double-binokel probability, as printed, appears in the table
    p = float(exact[("h15.binokel", 2)])
    row = next(line for line in md.splitlines() if line.startswith("| double binokel"))
    assert pct(p) in row
    assert "exact in CI" in md and "95% CI" in md
    assert "| seed | 3 |" in md and "| deals (finished chunks) | 30,000 |" in md
    assert "loss_factor" in md or "bid_start" in md  # the rules table
    for stem in ("melds_h15", "best_meld", "tapp_points"):
        assert f"{stem}.png" in html and f"{stem}.svg" in html
        assert f"]({stem}.png)" in md
    # count of exact values inside their CI is reported
    assert re.search(r"\d+ of \d+ exact values lie inside", md)


def test_deal_report_has_p_make_by_bid(deal_run, tmp_path):
    """R3/R4/R8: winning bids, P(make) by bid, contracts, card points by seat."""
    res = build_report(deal_run, tmp_path / "rep")
    _check_files(res, ["p_make_by_bid", "score_by_bid", "card_points"])
    md = res["markdown"].read_text()
    for text in ("## Outcome by winning bid", "P(make)", "surrender (R4)", "Durch (R4)",
                 "## Card points (R7, played deals)", "## Mean deal score by seat",
                 "rule_of_thumb"):
        assert text in md
    run = load_run(deal_run)
    n150 = run.cell("bid.win", 150)[0]
    assert n150 > 0
    assert re.search(rf"^\| 150 \| {n150:,} \|", md, re.M)
    # percentile columns carry distribution-free 95% intervals (stats.quantile_ci_counts)
    row = next(line for line in md.splitlines() if line.startswith("| soloist (incl. discard)"))
    b, c = run.counts("points.soloist")
    for prob in (0.1, 0.5, 0.9):
        q = quantile_ci_counts(b, c, prob)
        assert q.lo <= q.value <= q.hi and q.n == int(c.sum())
        assert f"| {q.value:.0f} [{q.lo:.0f}, {q.hi:.0f}] |" in row
    assert "median [95% CI]" in md


def test_partial_run_is_reported_as_partial(meld_run, tmp_path):
    import shutil
    part = tmp_path / "partial"
    shutil.copytree(meld_run, part)
    part_path(part, 1).unlink()
    res = build_report(part, tmp_path / "rep")
    assert "PARTIAL RUN" in res["markdown"].read_text()


def test_report_cli_and_bad_input(meld_run, tmp_path):
    r = CliRunner().invoke(cli, ["report", str(meld_run), "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "r" / "report.html").exists()
    bad = [
        ([str(tmp_path / "missing")], "no such run folder"),
        ([str(meld_run), "--sample"], "not both"),
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    bad.append(([str(empty)], "not a readable run folder"))
    nochunk = tmp_path / "nochunk"
    nochunk.mkdir()
    (nochunk / "manifest.json").write_text((meld_run / "manifest.json").read_text())
    bad.append(([str(nochunk)], "no finished chunk"))
    broken = tmp_path / "broken"
    import shutil
    shutil.copytree(meld_run, broken)
    part_path(broken, 0).write_bytes(b"not parquet")
    bad.append(([str(broken)], "unreadable"))
    garbled = tmp_path / "garbled"
    garbled.mkdir()
    (garbled / "manifest.json").write_text("{not json")
    bad.append(([str(garbled)], "not a readable run folder"))
    for args, msg in bad:
        r = CliRunner().invoke(cli, ["report", *args, "--out", str(tmp_path / "x")])
        assert r.exit_code == 2, (args, r.output)
        assert r.output.startswith("binokel: error:") and msg in r.output, r.output
        assert r.output.count("\n") == 1
    assert "Example" in CliRunner().invoke(cli, ["report", "--help"]).output


def test_report_without_a_run_says_so_in_one_line_and_sample_reports_the_shipped_run(
        tmp_path, monkeypatch):
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(cli, ["report"])
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.startswith("binokel: error: nothing to report") and "--sample" in r.output
    assert not (tmp_path / "reports").exists()       # nothing invented, nothing written
    r = runner.invoke(cli, ["report", "--sample"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "reports/sample_run/report.html").exists()
    r = runner.invoke(cli, ["report", "--sample", "--out", "s"])
    assert r.exit_code == 0 and (tmp_path / "s/best_meld.svg").exists()


@pytest.mark.parametrize("folder", [SAMPLE_RUN, SAMPLE_DEALS])
def test_shipped_samples_are_small_complete_and_documented(folder):
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert size < 1_000_000
    run = load_run(folder)
    assert run.complete and run.n_deals == run.manifest["n"]
    cmd = run.manifest["command"]
    assert cmd.startswith("binokel simulate") and f"--seed {run.manifest['seed']}" in cmd
    assert cmd in (ROOT / "docs" / "guide" / "batch.md").read_text(encoding="utf-8")


def test_shipped_meld_sample_agrees_with_exact_probabilities():
    """R5: the sample's estimates contain the exact values about 95% of the time."""
    run = load_run(SAMPLE_RUN)
    exact = {**exact_table(15, run.rules), **exact_table(18, run.rules)}
    inside = total = 0
    for (metric, b), p in exact.items():
        if float(p) < 1e-4:
            continue
        est = run.proportion(metric, b)
        total += 1
        inside += est.lo <= float(p) <= est.hi
        assert abs(est.value - float(p)) <= 4.5 * est.se, (metric, b, est, float(p))
    assert inside >= 0.88 * total


def test_shipped_deal_sample_is_consistent():
    """R7: played deals' card points sum to 250; R3: bids start at 150 in steps of 10."""
    run = load_run(SAMPLE_DEALS)
    bids, counts = run.counts("bid.win")
    assert counts.sum() == run.n_deals
    assert bids.min() >= 150 and all(b % 10 == 0 for b in bids)
    sb, sc = run.counts("points.soloist")
    db, dc = run.counts("points.defenders")
    assert (sb * sc).sum() + (db * dc).sum() == 250 * sc.sum()
    kinds = ["made", "failed", "surrender", "durch_won", "durch_lost"]
    for b, k in zip(bids, counts):
        assert sum(run.cell(f"by_bid.{kind}", b)[0] for kind in kinds) == k
    assert json.loads((SAMPLE_DEALS / "manifest.json").read_text())["what"] == "deals"
