"""``binokel solve`` (cli/solve_cmd.py)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def test_solve_position_line_json_gives_value_and_each_legal_card():
    r = _run("solve", "--position", "S 0 1 AS,10H KD QS,JC 9C", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["value"] == 13 and d["moves"] == {"JC": 13} and d["to_play"] == 2


def test_solve_position_with_two_choices_marks_the_best():
    # Durch (N), soloist 0 leads AC,9H: AC wins 25 then 9H loses; 9H first loses at once
    r = _run("solve", "--position", "N 0 0 AC,9H 10C,AH KC,QH -")
    assert r.exit_code == 0, r.output
    assert "AC        25  best" in r.output and "9H         0" in r.output


def test_solve_bad_position_is_one_line_error():
    r = _run("solve", "--position", "S 0 1 AS,10H KD")
    assert r.exit_code == 2
    assert "7 fields" in r.output and r.output.count("\n") == 1


def test_solve_tricks_left_needs_trump():
    r = _run("solve", "--seed", "3", "--tricks-left", "5")
    assert r.exit_code == 2 and "--trump" in r.output


def test_solve_deal_position_after_heuristic_play():
    r = _run("solve", "--seed", "3", "--tricks-left", "4", "--trump", "H", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["tricks_left"] == 4 and d["value"] in d["moves"].values()
