"""``--rules binokel-2`` on the command line (V7): ``play`` prints a trick log with the
melds shown and the draws, ``melds`` the meld orders of 12 cards; bad input is one line
citing V7.x (exit 2); every other command refuses the game in one line (``serve`` deals it
as the table for two: tests/web/test_stock_table_api.py and test_stock_table_page.py)."""
from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import assert_one_line_error, run
from tests.oracle import binokel2 as b

HAND = "AH 10H KH QH JH 7H KS QS JD AC AS AD"


def test_play_prints_tricks_with_melds_and_draws():
    res = run("play", "--rules", "binokel-2", "--seed", "7")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "meld shown by the winner" in out and "draws (winner, other)" in out
    assert "the stock is gone" in out and "V7.4" in out
    assert sum(1 for line in out.splitlines() if line[:5].strip().isdigit()) == 24


def test_play_json_adds_up_to_the_deal_score():
    """V7.2: a trick is one card each, the winner draws first while the stock lasts; V7.4:
    card points and the last trick make 250, melds and Dissles on top."""
    res = run("play", "--rules", "binokel-2", "--seed", "3", "--json", "--policy", "random")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert len(d["tricks"]) == 24 and all(len(t["cards"]) == 2 for t in d["tricks"])
    assert sum(t["points"] for t in d["tricks"]) == 250 == sum(d["card_points"])
    assert [len(t["draws"]) for t in d["tricks"]] == [2] * 12 + [0] * 12
    assert [d["melds"][s] + d["card_points"][s] for s in (0, 1)] == d["points"]
    for t in d["tricks"]:
        if t["meld"]:
            assert t["meld"]["value"] > 0
    assert d["tricks"][11]["draws"][1] == d["turned"]       # the turned trump is drawn last


def test_melds_lists_orders_and_their_worth_as_the_reference():
    """V7.3: one meld per won trick; trump pair before its quint (290), four A, binokels."""
    res = run("melds", "--rules", "binokel-2", "--json", HAND)
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    types = b.parse(HAND)
    for row in d["by_trump"]:
        total, _ = b.best_meld_order(types, "CSHD".index(row["trump"]))
        assert row["best_total"] == total
        assert sum(m["value"] for m in row["best_order"]) == total
    text = run("melds", "--rules", "binokel-2", "--trump", "H", HAND).output
    assert "best order worth 500" in text and "quint major" in text


@pytest.mark.parametrize("args,frags", [
    (["melds", "AH AH AH " + HAND[9:]], ["V7.1", "3 copies"]),
    (["melds", "9H " + HAND[3:]], ["9H", "sevens"]),
    (["melds", "AH 10H"], ["V7.1", "12 cards"]),
    (["melds", "--trump", "X", HAND], ["--trump"]),
    (["play", "--trump", "H"], ["V7.1", "turned"]),
    (["play", "--bid", "200"], ["V7.1"]),
    (["play", "--policy", "heuristic-v1"], ["--policy", "binokel-2"]),
])
def test_bad_input_is_one_line_citing_v7(args, frags):
    assert_one_line_error(run(args[0], "--rules", "binokel-2", *args[1:]), *frags)


@pytest.mark.parametrize("cmd", [["analyze", HAND], ["advise", HAND], ["simulate"],
                                 ["tournament"], ["bench", "-w", "W1"]])
def test_commands_that_do_not_play_it_yet_refuse_it_in_one_line(cmd):
    assert_one_line_error(run(*cmd, "--rules", "binokel-2"), "binokel-2", "V7")


def test_rules_prints_the_stock_part():
    res = run("rules", "binokel-2", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["parts"]["stock"]["size"] == 24 and d["parts"]["end"]["claim"] is True
    assert "binokel-2" in run("rules").output
