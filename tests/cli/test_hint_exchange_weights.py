"""``binokel hint --exchange`` with a record's auction (R3, R4; issue 27): the worlds of the
hidden hands weighted by the other seats' calls, the effective n shown;
--no-auction-weights gives the uniform worlds' numbers; misuse is one line, exit 2."""
from __future__ import annotations

import json

import pytest

from analyzer.analyses.exchange_hint import exchange_hint, exchange_view_from_record
from analyzer.mechanics.record import format_records
from analyzer.search.record_play import full_record, play_record
from tests.cli.test_cli import assert_one_line_error, run

HAND18 = "AH AH 10H KH QH JH AS 10S KS AC 10C AD QD 9D 9C JS JH 9H"


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """A whole binokel-48 deal with its Auction line (`binokel play --seed 3 --record F`)."""
    deal = full_record("binokel-48", seed=3)
    path = tmp_path_factory.mktemp("xw") / "deal.txt"
    path.write_text(format_records([deal]))
    return deal, str(path)


def test_the_exchange_is_weighted_by_the_auction_with_its_effective_n_R3(whole):
    _deal, path = whole
    r = run("hint", "--record", path, "--exchange", "-n", "30", "--top", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["auction_weights"] is True
    assert 1.0 <= d["effective_worlds"] < 30
    assert all(o["n"] == 30 - d["dropped_worlds"] for o in d["options"])
    assert all(o["effective_n"] == d["effective_worlds"] for o in d["options"])
    t = run("hint", "--record", path, "--exchange", "-n", "30", "--top", "2")
    assert t.exit_code == 0, t.output
    assert "weighted by the other seats' calls (R3): effective n" in t.stdout
    assert f"effective {d['effective_worlds']:.1f}" in t.stdout


def test_no_auction_weights_gives_the_uniform_worlds_numbers_R3(whole):
    deal, path = whole
    r = run("hint", "--record", path, "--exchange", "-n", "30", "--top", "2", "--json",
            "--no-auction-weights")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    cards, bid, seat = exchange_view_from_record(deal)
    plain = exchange_hint(deal.rules, cards, bid, seat, 2, 30, 0).to_dict()
    assert d == plain and d["auction_weights"] is False and d["effective_worlds"] is None
    t = run("hint", "--record", path, "--exchange", "-n", "30", "--top", "2",
            "--no-auction-weights")
    assert "uniform worlds (--no-auction-weights)" in t.stdout


def test_auction_weights_without_an_auction_is_one_line_R3(tmp_path):
    assert_one_line_error(run("hint", "--exchange", "--hand", HAND18, "--bid", "300",
                              "--auction-weights"), "hold no auction")
    path = tmp_path / "noauction.txt"
    path.write_text(format_records([play_record("grupp-3", seed=3, soloist=1, trump=2)]))
    assert_one_line_error(run("hint", "--record", str(path), "--exchange", "--auction-weights"),
                          "no Auction line")
    # uniform worlds need no auction: the flag off is fine without one
    r = run("hint", "--exchange", "--hand", HAND18, "--bid", "300", "-n", "4", "--top", "1",
            "--no-auction-weights")
    assert r.exit_code == 0, r.output
