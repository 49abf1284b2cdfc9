"""``binokel hint`` and ``binokel review`` of a binokel-2 record (V7; issue 27): the
views of cli.stock_advice, and one-line refusals of bad input."""
from __future__ import annotations

import json

import pytest

from analyzer.mechanics.record import format_records, hide, read_records
from tests.cli.test_cli import assert_one_line_error, run


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("stock") / "deal.txt"
    r = run("play", "--rules", "binokel-2", "--seed", "3", "--record", str(path))
    assert r.exit_code == 0, r.output
    return str(path)


def test_hint_at_a_meld_decision_lists_every_meld_and_pass_with_se_V7_3(record):
    r = run("hint", "--record", record, "--rules", "binokel-2", "--trick", "2", "--meld",
            "-n", "2")
    assert r.exit_code == 0, r.output
    assert "meld decision after trick 2" in r.output and "± SE" in r.output
    assert "pass" in r.output and "best" in r.output and "played" in r.output
    assert "n = 2 worlds" in r.output
    assert "best by" in r.output and "paired, n = 2" in r.output   # the margin and its noise


def test_hint_json_after_the_stock_is_exact_V7_4(record):
    r = run("hint", "--record", record, "--trick", "16", "--card", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["rules"] == "binokel-2" and d["exact"] and d["worlds"] == "exact"
    assert d["stock_left"] == 0 and d["table"] and d["card"] == 2
    assert all(a["n"] == "exact" and a["own_se"] == 0 for a in d["actions"])
    assert d["best"] in {a["action"] for a in d["actions"]}


def test_hint_of_a_players_own_view_record(record, tmp_path):
    (deal,) = read_records(record)
    mine = tmp_path / "mine.txt"
    mine.write_text(format_records([hide(deal, 1)]))
    r = run("hint", "--record", str(mine), "--trick", "3", "--card", "2", "-n", "2", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["seat"] == 1
    r = run("hint", "--record", str(mine), "--trick", "3", "--card", "1", "-n", "2")
    assert_one_line_error(r, "seat 0's hand is hidden")


def test_review_json_lists_losses_biggest_first_per_seat(record):
    r = run("review", record, "--rules", "binokel-2", "--from-trick", "18", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    losses = [x["loss"] for x in d["decisions"]]
    assert losses and losses == sorted(losses, reverse=True)
    assert all(x["exact"] and x["trick"] >= 18 for x in d["decisions"])
    assert set(d["per_seat"]) == {"0", "1"}
    # V7.1: no auction (trump is turned up): the review says so, no error
    assert d["auction"] == [] and "no auction" in d["auction_note"] and "V7.1" in d["auction_note"]
    text = run("review", record, "--from-trick", "18", "--top", "2").output
    assert "exact" in text and "decisions reviewed" in text and "cross-fitted" in text
    assert "auction: no auction in binokel-2" in text


def test_review_while_the_stock_lasts_is_cross_fitted_with_se_and_n(record):
    r = run("review", record, "--from-trick", "12", "-n", "2", "--json")
    assert r.exit_code == 0, r.output
    pm = [x for x in json.loads(r.stdout)["decisions"] if not x["exact"]]
    assert pm and all(x["n"] == 2 and x["loss_se"] >= 0 for x in pm)


@pytest.mark.parametrize("args,frags", [
    (["hint", "--meld"], ["--meld goes with --trick", "V7.3"]),
    (["hint", "--trick", "3", "--card", "1", "--meld"], ["--meld and --card"]),
    (["hint", "--trick", "14", "--meld"], ["no a meld decision", "V7.3"]),
    (["hint", "--trick", "30"], ["no card 1 of trick 30"]),
    (["hint"], ["over", "--trick"]),
    (["hint", "--rules", "binokel-48"], ["--rules binokel-48", "binokel-2"]),
    (["hint", "--rules", "nosuch"], ["--rules"]),
    (["review", "-n", "100000"], ["100000"]),
    (["review", "-n", "1"], ["1 worlds", "use 2 to"]),
])
def test_bad_input_is_one_line(record, args, frags):
    if args[0] == "hint":
        argv = ["hint", "--record", record, *args[1:]]
    else:
        argv = ["review", record, *args[1:]]
    assert_one_line_error(run(*argv), *frags)


def test_a_broken_record_is_one_line_naming_its_line_V7_4(record, tmp_path):
    lines = open(record).read().splitlines()
    i = next(i for i, x in enumerate(lines) if x.startswith("Points"))
    lines[i] = "Points 1 2"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    assert_one_line_error(run("review", str(bad)), f"line {i + 1}", "V7.4")


def test_options_without_meaning_in_a_stock_game_are_named_not_dropped_V7_4(record):
    r = run("review", record, "--from-trick", "23", "--dd-max-tricks", "0", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["rules"] == "binokel-2"
    assert "--dd-max-tricks not used" in r.stderr and "V7.4" in r.stderr
