"""``binokel hint`` (issue 27): a record's position valued card by card; bad records and
games without a PIMC sampler are one line and exit 2."""
from __future__ import annotations

import json

import pytest

from analyzer.mechanics.record import format_records
from analyzer.search.record_play import play_record
from tests.cli.test_cli import assert_one_line_error, run


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("hint") / "deal.txt"
    path.write_text(format_records([play_record("grupp-3", seed=3, soloist=1, trump=2)]))
    return str(path)


def test_hint_prints_every_legal_card_with_se_and_the_card_played(record):
    r = run("hint", "--record", record, "--trick", "12", "--card", "3", "-n", "12")
    assert r.exit_code == 0, r.output
    assert "seat 2 (defender) to play" in r.stdout and "12 worlds" in r.stdout
    rows = [ln for ln in r.stdout.splitlines() if " ± " in ln and ln[:1] in "AKQJ17"]
    assert rows and sum("best" in ln for ln in rows) == 1 and sum("played" in ln for ln in rows) == 1


def test_hint_json_gives_n_se_and_exact_values(record):
    r = run("hint", "--record", record, "--trick", "10", "--card", "1", "-n", "8", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["rules"] == "grupp-3" and d["trick"] == 10 and d["double_dummy"] == "exact"
    assert d["best"] in [c["card"] for c in d["cards"]]
    assert all(c["n"] == 8 and c["points_se"] >= 0 and isinstance(c["dd"], int)
               for c in d["cards"])


def test_hint_of_a_whole_deal_early_has_no_exact_values_and_says_why(record):
    r = run("hint", "--record", record, "--trick", "2", "-n", "4", "--json")
    d = json.loads(r.stdout)
    assert "tricks left" in d["double_dummy"] and all(c["dd"] is None for c in d["cards"])


@pytest.mark.parametrize("args,frag", [
    (["--card", "2"], "--card goes with --trick"),
    (["--deal", "2"], "--deal 2"),
    ([], "the record holds the whole deal"),
    (["--trick", "3", "--card", "4"], "a trick has cards 1-3"),
])
def test_bad_hint_requests_are_one_line(record, args, frag):
    assert_one_line_error(run("hint", "--record", record, *args), frag)


def test_a_bad_record_is_one_line_naming_its_line_and_rule(tmp_path):
    text = format_records([play_record("binokel-48", seed=1)]).replace("Bid 150", "Bid 151")
    path = tmp_path / "bad.txt"
    path.write_text(text)
    r = run("hint", "--record", str(path))
    assert r.exit_code == 2
    assert_one_line_error(r, f"{path}: line 9: Bid: 151 is no bid of binokel-48")


def test_a_partners_game_is_valued_for_the_seats_side(tmp_path):
    # V1: kreuz-48, partners opposite; the soloist's partner plays for the soloist's side
    path = tmp_path / "team.txt"
    path.write_text(format_records([play_record("kreuz-48", seed=1, soloist=1, trump=0)]))
    r = run("hint", "--record", str(path), "--trick", "9", "--card", "2", "-n", "6")
    assert r.exit_code == 0, r.output
    assert "seat 3 (soloist's partner) to play" in r.stdout
    assert "every world solved exactly" in r.stdout        # 3 tricks left <= the horizon
    r = run("hint", "--record", str(path), "--trick", "9", "--card", "2", "-n", "6", "--json")
    d = json.loads(r.stdout)
    assert d["rules"] == "kreuz-48" and d["double_dummy"] == "exact" and d["horizon"] == 10
    assert d["exact_worlds"] is True
    assert all(c["n"] == 6 and isinstance(c["dd"], int) for c in d["cards"])
    # V4.6: the side's deal score with its SE (the record holds the bid and both teams' melds)
    assert all(c["score"] is not None and c["score_se"] is not None for c in d["cards"])
    r = run("hint", "--record", str(path), "--trick", "9", "--card", "2", "-n", "6",
            "--horizon", "2")
    assert r.exit_code == 0 and "heuristic play-outs (exact from 2 tricks left)" in r.stdout


# ---- --exchange: the decisions before play (R4)

HAND18 = "AH AH 10H KH QH JH AS 10S KS AC 10C AD QD 9D 9C JS JH 9H"


def test_hint_exchange_from_a_record_lists_discards_going_out_and_durch(record):
    r = run("hint", "--record", record, "--exchange", "-n", "12", "--top", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    kinds = [o["kind"] for o in d["options"]]
    # grupp-3: going out (V2.4), Durch and open Durch (V2.7)
    assert kinds.count("play") == 2 and {"out", "durch", "open-durch"} <= set(kinds)
    assert d["soloist"] == 1 and all(o["n"] == 12 for o in d["options"])
    assert d["options"][0]["option"] == d["best"]


def test_hint_exchange_from_a_hand_prints_the_paired_table():
    r = run("hint", "--exchange", "--hand", HAND18, "--bid", "300", "-n", "10", "--top", "2")
    assert r.exit_code == 0, r.output
    assert "go out" in r.stdout and "-300.0" in r.stdout and "best" in r.stdout
    assert "10 worlds" in r.stdout and "vs best" in r.stdout


@pytest.mark.parametrize("args,frag", [
    (["--hand", HAND18.rsplit(" ", 1)[0], "--bid", "300"], "holds 18 cards"),
    (["--hand", HAND18, "--bid", "140"], "150 or more"),
    (["--hand", HAND18, "--bid", "300", "--rules", "pinochle-80"], "has no Dabb"),
    (["--hand", HAND18, "--bid", "300", "--rules", "binokel-2"], "has no Dabb"),
    (["--hand", HAND18], "--hand and --bid"),
    (["--hand", HAND18, "--bid", "300", "--trick", "2"], "no --trick"),
    (["--hand", HAND18, "--bid", "300", "--horizon", "2"], "--horizon does not apply"),
])
def test_bad_hint_exchange_requests_are_one_line(args, frag):
    assert_one_line_error(run("hint", "--exchange", *args), frag)


def test_hint_without_record_or_exchange_is_one_line():
    assert_one_line_error(run("hint"), "--record FILE is needed")


def test_exchange_options_without_exchange_are_one_line(record):
    assert_one_line_error(run("hint", "--record", record, "--top", "3"), "go with --exchange")
    assert_one_line_error(run("hint", "--record", record, "--exchange", "--seat", "rearhand"),
                          "--seat goes with --hand")


# ---- --exchange at the partners' tables with a Dabb (V4.2-V4.6, V5.3-V5.7)

HAND15 = "AC 10C QC JC 10S KS 7S AH AH 10H KH QH JH AD KD"     # kreuz-48: 11 + 4 (V4.1)


def test_hint_exchange_at_kreuz_48_values_the_sides_options_V4_2_V4_3_V4_6():
    r = run("hint", "--exchange", "--rules", "kreuz-48", "--hand", HAND15, "--bid", "200",
            "--seat", "1", "-n", "12", "--top", "2")
    assert r.exit_code == 0, r.output
    assert "kreuz-48: soloist seat 1 at bid 200" in r.stdout
    assert "the partner's and the opponents' hands" in r.stdout
    assert "go out" in r.stdout and "-200.0" in r.stdout and "open-durch discard" in r.stdout
    assert sum(ln.endswith("  rule") for ln in r.stdout.splitlines()) == 1
    assert "the soloist's side's deal score, V4.6 / V5.7" in r.stdout


def test_hint_exchange_from_a_kreuz_40_record_has_no_durch_V5_7(tmp_path):
    path = tmp_path / "k40.txt"
    path.write_text(format_records([play_record("kreuz-40", seed=3, soloist=2, trump=1)]))
    r = run("hint", "--record", str(path), "--exchange", "-n", "10", "--top", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    kinds = [o["kind"] for o in d["options"]]
    assert d["partners"] and d["soloist"] == 2 and "out" in kinds
    assert "durch" not in kinds and "open-durch" not in kinds                 # V5.7
    assert d["rule_choice"] in [o["option"] for o in d["options"]]
    assert all(o["n"] == 10 and len(o["discard"]) in (0, 4) for o in d["options"])


@pytest.mark.parametrize("args,frag", [
    (["--seat", "5"], "outside 0-3"),
    (["--seat", "rearhand"], "must be a number 0-3"),
    (["--bid", "205"], "steps of 10"),
])
def test_bad_kreuz_exchange_requests_are_one_line(args, frag):
    base = ["--rules", "kreuz-48", "--hand", HAND15, "--bid", "200"]
    assert_one_line_error(run("hint", "--exchange", *base, *args), frag)


def test_a_kreuz_hand_of_the_wrong_size_is_one_line():
    assert_one_line_error(run("hint", "--exchange", "--rules", "kreuz-48", "--hand",
                              HAND15.rsplit(" ", 1)[0], "--bid", "200"), "holds 15 cards")
