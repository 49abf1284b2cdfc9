"""``--play heuristic|pimc|pimc-defence`` on analyze, advise and tournament (shared option
in cli/common.py): the JSON says which play was used; bad combinations are one line."""
from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import assert_one_line_error, run

AVERAGE = "AS 10S KS QS 9S AH KH QH 10C KC JC 9D QD JD 9H"


def test_analyze_and_advise_json_name_the_play():
    r = run("analyze", AVERAGE, "-n", "40", "--play", "pimc-defence", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["play"] == "pimc-defence" and d["samples"] == 40
    r = run("advise", AVERAGE, "--seat", "middlehand", "--auction", "150", "-n", "20",
            "--play", "pimc", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["play"] == "pimc"


def test_tournament_reports_the_play():
    r = run("tournament", "--agents", "rule,rule", "--groups", "2", "--play", "pimc-defence")
    assert r.exit_code == 0, r.output
    assert "play pimc-defence" in r.stdout


@pytest.mark.parametrize("args", [
    ["analyze", "AS AS 10S KS QS JS AH KH QH AC AD 10D", "--rules", "binokel-40", "-n", "4",
     "--play", "pimc", "--json"],
    ["analyze", "AS AS 10S KS QS JS AC AH AD 10C KH", "--rules", "kreuz-48", "--seat", "1",
     "-n", "3", "--play", "pimc-defence", "--json"],
    ["tournament", "--rules", "pinochle-80", "--deals", "2", "--samples", "2", "--play",
     "pimc-defence", "--json"],
])
def test_every_game_plays_pimc(args):
    # issue 24: --play pimc / pimc-defence for every game (V5 40-card deck, V4/V6 teams)
    r = run(*args)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["play"] == args[-2]


@pytest.mark.parametrize("args,frag", [
    (["advise", AVERAGE, "--play", "pimc", "--lookahead"], "not available with --lookahead"),
    (["advise", "--example", "average", "--play", "pimc", "-n", "9000"], "at most 5,000"),
    (["analyze", AVERAGE, "--play", "oracle"], "--play"),
])
def test_bad_play_requests_are_one_line_errors(args, frag):
    assert_one_line_error(run(*args), frag)
