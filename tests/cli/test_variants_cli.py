"""``--rules NAME`` on every command and the variant's bad-input lines (issue 10)."""
from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import assert_one_line_error, run

B40 = "AS AS 10S KS QS JS AH KH QH AC AD 10D"          # 12 cards (V5.1)
G3 = "AS AS 10S KS QS JS 7S KH QH AC AD 10D KD QD JD"   # 15 cards with a seven (V2.1)


@pytest.mark.parametrize("cmd", ["melds", "play", "analyze", "advise", "simulate", "report",
                                 "tournament", "bench"])
def test_every_command_takes_rules(cmd):
    res = run(cmd, "--help")
    assert res.exit_code == 0 and "--rules" in res.output


@pytest.mark.parametrize("cmd", [["melds", G3], ["play"], ["analyze", G3], ["advise", G3],
                                 ["tournament"], ["bench", "-w", "W1"]])
def test_unknown_rules_is_one_line_listing_names(cmd):
    assert_one_line_error(run(*cmd, "--rules", "schafkopf"), "schafkopf", "grupp-3",
                          "binokel-40")


def test_bad_input_names_the_variant():
    # a card the deck lacks, a hand / Tapp of the wrong size, an illegal auction
    assert_one_line_error(run("analyze", "--rules", "binokel-40", G3), "binokel-40")
    assert_one_line_error(run("analyze", "--rules", "binokel-40", B40, "--tapp", "JH JD QC"),
                          "--tapp", "4 cards")
    assert_one_line_error(run("advise", "--rules", "binokel-40", B40 + " QC"), "12 cards")
    assert_one_line_error(run("advise", "--rules", "binokel-40", B40, "--seat", "middlehand",
                              "--auction", "pass"), "illegal auction", "R3")
    assert_one_line_error(run("advise", "--rules", "grupp-3", G3, "--seat", "middlehand",
                              "--auction", "pass 150 170"), "illegal auction", "V2.2")
    assert_one_line_error(run("play", "--rules", "binokel-40", "--trump", "durch"), "V5.7")


def test_play_under_a_variant_reports_it(tmp_path):
    res = run("play", "--rules", "binokel-40", "--seed", "3", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["rules"] == "binokel-40" and len(d["tricks"]) == 12
    assert sum(d["card_points"]) == 250


def test_advise_in_grupp_lets_forehand_pass_and_names_the_variant():
    res = run("advise", "--rules", "grupp-3", G3, "-n", "60", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["rules"] == "grupp-3" and d["forced_open"] is False
    assert "7S" in d["hand"]


def test_simulate_records_the_rules_and_refuses_resuming_with_others(tmp_path):
    out = tmp_path / "run"
    res = run("simulate", "-n", "2000", "--out", str(out), "--rules", "binokel-40", "-j", "1",
              "-q")
    assert res.exit_code == 0, res.output
    man = json.loads((out / "manifest.json").read_text())
    assert man["rules"]["name"] == "binokel-40" and "--rules binokel-40" in man["command"]
    res = run("simulate", "-n", "2000", "--out", str(out), "--rules", "grupp-3", "-j", "1", "-q")
    assert_one_line_error(res, "binokel-40, seed 1", "grupp-3, seed 1", "differ in the game (--rules)")
    res = run("report", str(out), "--out", str(tmp_path / "rep"))
    assert res.exit_code == 0, res.output
    html = (tmp_path / "rep" / "report.md").read_text()
    assert "binokel-40" in html
    assert_one_line_error(run("report", str(out), "--rules", "grupp-3"), "binokel-40 run")


def test_tournament_and_bench_run_a_variant():
    res = run("tournament", "--rules", "grupp-4", "--groups", "2", "--samples", "8", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["params"]["rules"] == "grupp-4"
    res = run("bench", "--rules", "binokel-40", "-w", "W2", "--deals", "2000", "--repeats", "1",
              "--no-baseline", "--json")
    assert res.exit_code == 0, res.output
    r = json.loads(res.output)["results"][0]
    assert r["rules"] == "binokel-40" and r["cards_per_deal"] == 40
    assert r["extra"]["points_conserved"]
    assert_one_line_error(run("bench", "--rules", "binokel-40", "-w", "S1"), "binokel-48 only")
