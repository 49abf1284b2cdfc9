"""``binokel play --record FILE`` (issue 27): the record holds exactly the deal printed,
for every game (docs/guide/records.md)."""
from __future__ import annotations

import json

import pytest

from analyzer.mechanics.cards import card_code
from analyzer.mechanics.record import read_records
from analyzer.mechanics.ruleset import GAMES
from tests.cli.test_cli import assert_one_line_error, run
from tests.mechanics.test_record import RECORD_GAMES   # a stock game's record: below


@pytest.mark.parametrize("game", RECORD_GAMES)
def test_play_record_holds_the_tricks_and_scores_printed(game, tmp_path):
    path = tmp_path / "deal.txt"
    r = run("play", "--seed", "4", "--rules", game, "--soloist", "1", "--trump", "D",
            "--json", "--record", str(path))
    assert r.exit_code == 0, r.output
    shown = json.loads(r.stdout)
    (deal,) = read_records(str(path))
    low = deal.rules.deck.low_card
    assert deal.rules.name == game and deal.soloist == 1 and deal.contract == "D"
    played = []
    for t in shown["tricks"]:
        if deal.rules.table.sides == "partners":      # the team JSON lists cards by seat
            ld = t["leader"]
            played.append([t["cards"][(ld + j) % 4] for j in range(4)])
        else:                                         # the three-player JSON in play order
            played.append(t["cards"])
    # the three-player JSON writes the low card as 9 in every deck (the record as the deck)
    ours = [[card_code(c, low).replace("7", "9") for c in cards] for _, cards in deal.tricks]
    assert ours == [[c.replace("7", "9") for c in cards] for cards in played]
    assert list(deal.score) == shown["scores"]


@pytest.mark.parametrize("game", [g for g in GAMES if g not in RECORD_GAMES])
def test_play_record_of_a_stock_game_holds_the_deal_printed_V7(game, tmp_path):
    """V7.2: the tricks, melds and points of ``play --json`` are the record's; reading it
    back and writing it again gives the same bytes."""
    from analyzer.mechanics.record import format_records

    path = tmp_path / "deal.txt"
    r = run("play", "--seed", "4", "--rules", game, "--json", "--record", str(path))
    assert r.exit_code == 0, r.output
    shown = json.loads(r.stdout)
    text = path.read_text()
    (deal,) = read_records(str(path))
    assert format_records([deal]) == text
    assert list(deal.points) == shown["points"]
    tricks = [m for m in deal.moves if m[0] == "trick"]
    assert [[card_code(t, "7") for t, _ in m[2]] for m in tricks] == \
        [[c for _, c in t["cards"]] for t in shown["tricks"]]
    melds = [m[2] for m in deal.moves if m[0] == "meld"]
    assert melds == [t["meld"]["name"] for t in shown["tricks"] if t["meld"]]


def test_play_record_to_an_unwritable_path_is_one_line(tmp_path):
    r = run("play", "--seed", "4", "--record", str(tmp_path / "no" / "such" / "dir.txt"))
    assert_one_line_error(r, "--record: cannot write")


@pytest.mark.parametrize("game", ["binokel-48", "pinochle-80"])
def test_simulate_writes_whole_sample_deals_that_read_back_R3_V6_2(game, tmp_path):
    """``simulate --records``: deal i is ``play --seed SEED+i``'s whole deal, auction
    included (R3; V6.2's open bidding in pinochle-80)."""
    from analyzer.search.record_play import full_record

    path = tmp_path / "sample.txt"
    r = run("simulate", "-n", "12", "--out", str(tmp_path / "run"), "--rules", game,
            "--jobs", "1", "-q", "--chunk-size", "1000", "--records", str(path),
            "--records-n", "5", "--seed", "3")
    assert r.exit_code == 0, r.output
    deals = read_records(str(path))
    assert len(deals) == 5 and all(d.rules.name == game and d.auction for d in deals)
    assert all(d.complete() for d in deals if d.soloist is not None)
    assert [(d.auction, d.score) for d in deals] == \
        [(w.auction, w.score) for w in (full_record(game, 3 + i) for i in range(5))]
    assert deals[1].source == f"binokel play --rules {game} --seed 4 --policy heuristic"


@pytest.mark.parametrize("game", ["grupp-4", "kreuz-48"])
def test_play_without_a_contract_plays_and_records_a_whole_deal_R3_R4(game, tmp_path):
    """``play --seed N`` without --soloist/--trump/--bid: the whole deal as the
    simulations play it (auction R3/V1, exchange R4), printed as its record; ``--record``
    writes the same deal, ``--json`` holds it too."""
    path = tmp_path / "deal.txt"
    r = run("play", "--seed", "6", "--rules", game, "--record", str(path))
    assert r.exit_code == 0, r.output
    (deal,) = read_records(str(path))
    assert deal.auction
    assert deal.source == f"binokel play --rules {game} --seed 6 --policy heuristic"
    body = r.stdout.split("\n", 1)[1]
    assert body == path.read_text()             # the printed record is the file's
    d = json.loads(run("play", "--seed", "6", "--rules", game, "--json").stdout)
    assert [tuple(c) for c in d["auction"]] == list(deal.auction)
    assert d["scores"] == list(deal.score) and d["record"] + "\n" == body


def test_play_with_a_contract_keeps_the_deal_without_auction_R4(tmp_path):
    """Any of --soloist/--trump/--bid: the contract given, no auction, the Dabb as the
    discard (the behaviour before whole deals); --trump alone means soloist 0."""
    path = tmp_path / "deal.txt"
    r = run("play", "--seed", "6", "--trump", "H", "--record", str(path))
    assert r.exit_code == 0, r.output
    (deal,) = read_records(str(path))
    assert deal.auction is None and deal.soloist == 0 and deal.contract == "H"
    assert deal.discard == deal.dabb


def test_review_of_a_whole_played_deal_reviews_its_auction_R3(tmp_path):
    """The record ``play --record`` writes holds the auction, and ``review`` values its
    calls (small sizes)."""
    path = tmp_path / "deal.txt"
    assert run("play", "--seed", "3", "--record", str(path)).exit_code == 0
    (deal,) = read_records(str(path))
    r = run("review", str(path), "-n", "2", "--exchange-worlds", "4", "--bid-samples", "20",
            "--horizon", "1", "--dd-max-tricks", "1", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    called = [(c["seat"], c["call"]) for c in d["auction"]]
    # R3: the forced opening is no decision, every other call is reviewed
    assert called == [(s, "pass" if b == 0 else b) for s, b in deal.auction][1:]
    assert all(c["n"] >= 20 for c in d["auction"])
