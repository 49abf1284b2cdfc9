"""``binokel review RECORD`` (issue 27): the biggest losses first, per seat, --json."""
from __future__ import annotations

import json
from dataclasses import replace

from analyzer.mechanics.record import check_deal, format_records
from analyzer.search.record_play import play_record
from tests.cli.test_cli import assert_one_line_error, run


def test_review_prints_decisions_and_seats_and_json(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(format_records([play_record("grupp-4", seed=5, soloist=0, trump=1)]))
    r = run("review", str(path), "-n", "6", "--top", "3")
    assert r.exit_code == 0, r.output
    assert "card decisions reviewed" in r.stdout and "PIMC loss" in r.stdout
    r = run("review", str(path), "-n", "6", "--json")
    d = json.loads(r.stdout)
    assert d["rules"] == "grupp-4" and set(d["per_seat"]) == {"0", "1", "2"}
    assert all(x["n"] == 6 for x in d["decisions"])


def test_review_of_a_partners_deal_values_every_seats_decisions_for_its_side(tmp_path):
    # V1: pinochle-80's four seats in two partnerships; each loss in its side's card points
    path = tmp_path / "team.txt"
    path.write_text(format_records([play_record("pinochle-80", seed=1, soloist=1, trump=0)]))
    r = run("review", str(path), "-n", "2", "--dd-max-tricks", "3", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["rules"] == "pinochle-80" and set(d["per_seat"]) == {"0", "1", "2", "3"}
    assert all(x["n"] == 2 for x in d["decisions"])
    late = [x for x in d["decisions"] if x["trick"] >= 18]
    assert late and all(x["dd_loss"] is not None and x["dd_loss"] >= 0 for x in late)


def test_review_of_a_partners_durch_values_its_exchange_not_its_cards_V4_6(tmp_path):
    path = tmp_path / "durch.txt"
    path.write_text(format_records([play_record("kreuz-48", seed=1, soloist=1, trump=None)]))
    r = run("review", str(path), "-n", "2", "--exchange-worlds", "20")
    assert r.exit_code == 0, r.output
    assert "card decisions: not valued: a Durch at a partners' table" in r.stdout
    assert "exchange (seat 1, the soloist, R4): played durch discard" in r.stdout
    d = json.loads(run("review", str(path), "-n", "2", "--exchange-worlds", "20",
                       "--json").stdout)
    assert d["decisions"] == [] and d["exchange"]["played"].startswith("durch")
    assert d["exchange"]["n"] == 20 and d["decisions_note"].startswith("not valued")
    assert_one_line_error(run("review", str(path), "-n", "2", "--plot",
                              str(tmp_path / "x.png")), "trump contract")


def test_review_plot_writes_the_value_chart_and_json_holds_the_series(tmp_path):
    deal = play_record("binokel-48", seed=3, soloist=1, trump=2)
    path = tmp_path / "deal.txt"
    path.write_text(format_records([deal]))
    png = tmp_path / "value.png"
    r = run("review", str(path), "-n", "2", "--plot", str(png))
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    d = json.loads(run("review", str(path), "-n", "2", "--json").stdout)
    s = d["series"]
    # one value before each trick (R6) and the result: the soloist's card points (R7)
    assert [p["trick"] for p in s] == list(range(1, 17))
    assert s[-1]["value"] == deal.points[deal.in_play.index(deal.soloist)]
    assert all(p["se"] >= 0 and (p["n"] == 2) == (p["source"] == "pimc") for p in s)


def test_review_plot_to_a_bad_path_is_one_line(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(format_records([play_record("binokel-48", seed=3, soloist=1, trump=2)]))
    assert_one_line_error(run("review", str(path), "--plot", str(tmp_path / "no" / "v.png")),
                          "does not exist")
    assert_one_line_error(run("review", str(path), "--plot", str(tmp_path / "v.txt")),
                          "PNG")


def test_review_plot_of_a_durch_is_one_line(tmp_path):
    path = tmp_path / "durch.txt"
    path.write_text(format_records([play_record("binokel-48", seed=3, soloist=1, trump=None)]))
    assert_one_line_error(run("review", str(path), "-n", "2", "--plot",
                              str(tmp_path / "v.png")), "R4")


def test_review_on_one_world_is_one_line(tmp_path):
    # the loss is measured on the half of the worlds that did not choose the best
    path = tmp_path / "deal.txt"
    path.write_text(format_records([play_record("binokel-48", seed=3, soloist=1, trump=2)]))
    assert_one_line_error(run("review", str(path), "-n", "1"), "at least 2")


def test_review_text_and_json_hold_the_soloists_exchange_R4(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(format_records([play_record("binokel-48", seed=5, soloist=1, trump=1)]))
    r = run("review", str(path), "-n", "2", "--exchange-worlds", "20", "--top", "1")
    assert r.exit_code == 0, r.output
    assert "exchange (seat 1, the soloist, R4): played S discard" in r.stdout
    assert "exchange ± SE" in r.stdout
    d = json.loads(run("review", str(path), "-n", "2", "--exchange-worlds", "20",
                       "--json").stdout)
    assert d["exchange"]["n"] == 20 and d["exchange"]["seat"] == 1
    assert d["per_seat"]["1"]["exchange_loss"] == d["exchange"]["loss"]
    assert d["per_seat"]["0"]["exchange_loss"] is None


def test_review_of_a_game_without_a_dabb_says_it_has_no_exchange(tmp_path):
    path = tmp_path / "team.txt"
    path.write_text(format_records([play_record("pinochle-80", seed=1, soloist=1, trump=0)]))
    r = run("review", str(path), "-n", "2", "--dd-max-tricks", "0", "--top", "1")
    assert r.exit_code == 0, r.output
    assert "exchange: pinochle-80 has no Dabb" in r.stdout


def test_review_of_a_kreuz_record_values_the_exchange_for_the_side_V4_2(tmp_path):
    path = tmp_path / "k48.txt"
    path.write_text(format_records([play_record("kreuz-48", seed=3, soloist=1, trump=2)]))
    r = run("review", str(path), "-n", "2", "--exchange-worlds", "20", "--top", "1")
    assert r.exit_code == 0, r.output
    assert "exchange (seat 1, the soloist, R4): played H discard" in r.stdout
    assert "side's deal score (V4.6, V5.7; " in r.stdout
    d = json.loads(run("review", str(path), "-n", "2", "--exchange-worlds", "20",
                       "--json").stdout)
    assert d["exchange"]["n"] == 20 and d["exchange"]["unit"] == "side's deal score (V4.6, V5.7)"
    assert d["per_seat"]["1"]["exchange_loss"] == d["exchange"]["loss"]
    assert d["per_seat"]["3"]["exchange_loss"] is None and d["exchange_note"] == ""


def _with_auction(tmp_path, calls):
    """grupp-4's deal of seat 0 at 150 with its auction written in (V2.2: forehand's 150
    is a call of its own, the others pass)."""
    deal = replace(play_record("grupp-4", seed=5, soloist=0, trump=1), auction=tuple(calls))
    check_deal(deal)
    path = tmp_path / "auction.txt"
    path.write_text(format_records([deal]))
    return str(path)


def test_review_text_and_json_hold_the_auction_and_its_seat_column_R3(tmp_path):
    path = _with_auction(tmp_path, [(0, 150), (1, 0), (2, 0)])
    r = run("review", path, "-n", "2", "--exchange-worlds", "4", "--bid-samples", "30",
            "--top", "1")
    assert r.exit_code == 0, r.output
    assert "auction (R3, V1, V6.2;" in r.stdout and "30 sampled deals a call" in r.stdout
    assert "auction ± SE" in r.stdout
    d = json.loads(run("review", path, "-n", "2", "--exchange-worlds", "4", "--bid-samples",
                       "30", "--json").stdout)
    assert [(c["seat"], c["call"]) for c in d["auction"]] == [(0, 150), (1, "pass"), (2, "pass")]
    assert all(c["n"] >= 30 and c["loss_se"] >= 0 for c in d["auction"])
    assert d["per_seat"]["1"]["auction_loss"] == d["auction"][1]["loss"]
    assert d["per_seat"]["1"]["auction_calls"] == 1


def test_review_no_auction_skips_it_and_a_record_without_one_says_so(tmp_path):
    path = _with_auction(tmp_path, [(0, 150), (1, 0), (2, 0)])
    d = json.loads(run("review", path, "-n", "2", "--exchange-worlds", "4", "--no-auction",
                       "--json").stdout)
    assert d["auction"] == [] and "--no-auction" in d["auction_note"]
    plain = tmp_path / "plain.txt"
    plain.write_text(format_records([play_record("grupp-4", seed=5, soloist=0, trump=1)]))
    r = run("review", str(plain), "-n", "2", "--exchange-worlds", "4", "--top", "1")
    assert "auction: not reviewed: the record has no auction (R3)" in r.stdout


def test_review_bid_samples_outside_its_bound_is_one_line(tmp_path):
    path = _with_auction(tmp_path, [(0, 150), (1, 0), (2, 0)])
    assert_one_line_error(run("review", path, "--bid-samples", "1"), "at least 2")
    assert_one_line_error(run("review", path, "--bid-samples", "10001"), "at most 10,000")
