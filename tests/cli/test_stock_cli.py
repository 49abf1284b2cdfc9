"""``--rules binokel-2`` on the command line (V7): ``play`` prints a trick log with the
melds shown and the draws, ``melds`` the meld orders of 12 cards, ``analyze`` a starting
hand's points and P(reaching 1000), ``simulate`` and ``report`` a run of played deals
(``simulate --records`` sample records that read back); bad
input is one line citing V7.x (exit 2); a command that does not play it (and a workload of
another game) refuses the game in one line.  ``duplicate``, ``tournament`` and ``bench``:
tests/cli/test_stock_match_cli.py; ``serve`` deals it as the table for two:
tests/web/test_stock_table_api.py and test_stock_table_page.py."""
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


@pytest.mark.parametrize("cmd", [["advise", HAND], ["bench", "-w", "W1"]])
def test_commands_that_do_not_play_it_yet_refuse_it_in_one_line(cmd):
    assert_one_line_error(run(*cmd, "--rules", "binokel-2"), "binokel-2", "V7")


def test_rules_prints_the_stock_part():
    res = run("rules", "binokel-2", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["parts"]["stock"]["size"] == 24 and d["parts"]["end"]["claim"] is True
    assert "binokel-2" in run("rules").output


def test_analyze_prints_points_melds_and_the_target_table():
    res = run("analyze", "--rules", "binokel-2", "-n", "3", "--deals", "3", "--seat", "dealer",
              "--turned", "10C", "--json", HAND)
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["seat"] == "dealer" and d["turned"] == "10C" and d["samples"] == 3
    for k in ("own", "opponent", "difference"):
        assert d["points"][k]["n"] == 3 and d["points"][k]["ci_lo"] <= d["points"][k]["mean"]
    assert [r["k"] for r in d["reach_target"]] == [1, 2, 3] and "resampling" in d["reach_method"]
    assert all("se" in r and "p_shown" in r for r in d["melds_shown"])
    text = run("analyze", "--rules", "binokel-2", "-n", "2", "--deals", "2", HAND).output
    assert "P(reaching 1000 within k deals)" in text and "difference" in text


@pytest.mark.parametrize("args,frags", [
    (["analyze", "AH 10H"], ["V7.1", "12 cards"]),
    (["analyze", "AC AC AC " + HAND[12:]], ["V7.1", "copies"]),
    (["analyze", "--turned", "AC", HAND.replace("AH", "AC")], ["V7.1", "turned"]),
    (["analyze", "--turned", "AC AD", HAND], ["V7.1", "one card"]),
    (["analyze", "--seat", "rearhand", HAND], ["--seat", "V7"]),
    (["analyze", "-n", "20001", HAND], ["20,000"]),
    (["analyze", "--deals", "31", HAND], ["--deals"]),
    (["analyze", "--play", "pimc", HAND], ["heuristic or random"]),
    (["analyze", "--tapp", "AC AC AD", HAND], ["--tapp", "V7"]),
    (["simulate", "-n", "2", "--out", "/tmp/never", "--what", "melds"], ["V7", "deals"]),
])
def test_bad_stock_input_is_one_line(args, frags):
    assert_one_line_error(run(args[0], "--rules", "binokel-2", *args[1:]), *frags)


def test_other_games_refuse_the_stock_options():
    assert_one_line_error(run("analyze", "--turned", "AS", "--example", "weak"), "--turned", "stock")
    assert_one_line_error(run("analyze", "--play", "random", "--example", "weak"), "--play random")


def test_simulate_then_report_a_stock_run(tmp_path):
    out = tmp_path / "run"
    res = run("simulate", "-n", "2", "--chunk-size", "1", "--rules", "binokel-2", "--out",
              str(out), "-j", "1", "-q")
    assert res.exit_code == 0, res.output
    assert "2 deals in 2 chunks" in res.output
    rep = run("report", str(out), "--out", str(tmp_path / "rep"), "--rules", "binokel-2")
    assert rep.exit_code == 0, rep.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "Melds shown" in md and "V7.4" in md


def test_solve_gives_the_exact_endgame_of_the_seeded_deal_V7_4():
    res = run("solve", "--rules", "binokel-2", "--seed", "3", "--tricks-left", "4")
    assert res.exit_code == 0, res.output
    assert "both hands are known (V7.4)" in res.output and "best" in res.output
    d = json.loads(run("solve", "--rules", "binokel-2", "--seed", "3", "--tricks-left", "4",
                       "--json").output)
    assert d["exact"] is True and d["tricks_left"] == 4 and d["best"] == d["moves"][0]["card"]


@pytest.mark.parametrize("args,frags", [
    (["--seed", "3", "--trump", "H"], ["--trump", "V7"]),
    (["--seed", "3", "--best-discard"], ["--best-discard", "no Dabb"]),
    (["--hand", "AH", "--hand", "AS"], ["--hand", "V7"]),
    ([], ["nothing to solve", "--seed"]),
    (["--seed", "3", "--tricks-left", "13"], ["V7.4", "12 tricks"]),
])
def test_solve_refuses_what_the_game_lacks_in_one_line(args, frags):
    assert_one_line_error(run("solve", "--rules", "binokel-2", *args), *frags)


@pytest.mark.parametrize("cmd", ["advise", "fit-opponents", "fit-defence"])
def test_auction_commands_say_the_game_has_no_auction_V7(cmd):
    args = [cmd, HAND] if cmd == "advise" else [cmd]
    assert_one_line_error(run(*args, "--rules", "binokel-2"), "has no auction", "V7")


def test_simulate_records_stock_deals_that_round_trip(tmp_path):
    """V7.2: ``simulate --records`` writes the deals ``play --record`` writes (the heuristic
    at both seats, seeds SEED+i); the reader reads them back to the same text."""
    from analyzer.mechanics.record import format_records, parse_records

    path = tmp_path / "sample.txt"
    r = run("simulate", "-n", "2", "--chunk-size", "1", "--rules", "binokel-2", "--out",
            str(tmp_path / "run"), "-j", "1", "-q", "--seed", "5", "--records", str(path))
    assert r.exit_code == 0, r.output
    text = path.read_text()
    recs = parse_records(text)
    assert len(recs) == 2 and all(x.complete() and x.rules.name == "binokel-2" for x in recs)
    assert format_records(recs) == text
    one = tmp_path / "play.txt"
    p = run("play", "--rules", "binokel-2", "--seed", "6", "--policy", "heuristic",
            "--record", str(one))
    assert p.exit_code == 0, p.output
    assert parse_records(one.read_text())[0] == recs[1]
