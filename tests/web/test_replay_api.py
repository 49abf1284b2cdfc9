"""The replay API (issue 27): /api/replay/load, /hint, /line and /sample answer what the
library (analyzer.analyses.replay) computes; bad input is one JSON line with a 4xx
status: a bad record (the record module's line), a bad step, card or world count, a body
too large.  A game with a stock (V7): test_stock_replay_api.py."""
from __future__ import annotations

import json

import pytest

from analyzer.analyses.replay import line_at, steps, values_at
from analyzer.mechanics.cards import card_code
from analyzer.mechanics.record import format_records, parse_records
from analyzer.search.record_play import full_record, play_record
from analyzer.mechanics.ruleset import GAMES
from web.replay import MAX_BODY, MAX_LINE_WORLDS, MAX_WORLDS

DEAL = play_record("binokel-48", seed=7, soloist=0, trump=1)    # binokel play --seed 7
TEXT = format_records([DEAL])


def post(server, path, body):
    return server.request("POST", path, body)


def one_line(status, body, want_status=400):
    assert status == want_status, body
    assert set(body) == {"error", "status"} and body["status"] == want_status
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return body["error"]


def test_load_gives_every_step_of_the_record(server):
    status, d, _ = post(server, "/api/replay/load", {"record": TEXT})
    assert status == 200, d
    st = steps(DEAL)
    assert d["game"] == "binokel-48" and d["deals"] == 1 and d["all_hands"] and d["complete"]
    assert len(d["steps"]) == len(st)
    low = DEAL.rules.deck.low_card
    for got, want in zip(d["steps"], st):
        assert got["to_play"] == want.to_play
        assert got["next"] == (None if want.next_card is None else card_code(want.next_card, low))
        assert got["table"] == [[q, card_code(c, low)] for q, c in want.trick]
        assert got["points"] == list(want.points)
        assert got["legal"] == [card_code(c, low) for c in want.legal]
    assert d["outcome"] == {"points": list(DEAL.points), "won": list(DEAL.won),
                            "score": list(DEAL.score)}


def test_hint_answers_the_librarys_values(server):
    s = next(s for s in steps(DEAL)[-12:] if len(s.legal) > 1)
    status, d, _ = post(server, "/api/replay/hint", {"record": TEXT, "step": s.index,
                                                     "worlds": 8, "seed": 2})
    assert status == 200, d
    want = values_at(DEAL, s.index, 8, 2).to_dict()
    assert {k: d[k] for k in want} == json.loads(json.dumps(want))
    assert d["double_dummy"] == "exact" and all(c["dd"] is not None for c in d["cards"])
    assert d["step"] == s.index and d["to_play"] == s.to_play


def test_r3_a_record_with_its_auction_gets_weighted_worlds_and_their_effective_n(server):
    full = full_record("binokel-48", seed=1)        # binokel play --seed 1: the auction too
    text = format_records([full])
    s = next(s for s in steps(full)[-12:] if len(s.legal) > 1)
    status, d, _ = post(server, "/api/replay/hint", {"record": text, "step": s.index,
                                                     "worlds": 6, "seed": 2})
    assert status == 200, d
    want = values_at(full, s.index, 6, 2).to_dict()
    assert d["auction_weights"] and 1 <= d["effective_worlds"] <= d["worlds"]
    assert d["effective_worlds"] == want["effective_worlds"]
    assert all(c["effective_n"] == d["effective_worlds"] for c in d["cards"])


def test_line_answers_the_librarys_line(server):
    s = next(s for s in steps(DEAL)[-12:] if len(s.legal) > 1)
    other = next(c for c in s.legal if c != s.next_card)
    low = DEAL.rules.deck.low_card
    status, d, _ = post(server, "/api/replay/line", {"record": TEXT, "step": s.index,
                                                     "card": card_code(other, low)})
    assert status == 200, d
    want = line_at(DEAL, s.index, other)
    assert d["method"] == want["method"] == "dd"
    assert d["alt"]["cards"] == [[t, q, card_code(c, low)] for t, q, c in want["alt"]["cards"]]
    assert d["diff"]["score"] == list(want["diff"]["score"])
    assert d["units"] == ["forehand", "middlehand", "rearhand"]


def test_sample_is_the_record_binokel_play_writes(server):
    status, d, _ = server.get("/api/replay/sample?game=kreuz-40&seed=3")
    assert status == 200, d
    deal = parse_records(d["record"])[0]
    want = play_record("kreuz-40", seed=3, soloist=0, trump=1)
    assert deal.tricks == want.tricks and deal.hands == want.hands
    status, d, _ = server.get("/api/replay/games")
    assert status == 200
    assert d["games"] == [g.name for g in GAMES.values()]      # a stock game too (V7.2)
    assert d["stock"]["games"] == [g.name for g in GAMES.values() if g.stock.size]


@pytest.mark.parametrize("path,body,message", [
    ("/api/replay/load", {"record": "Game binokel-48\nBogus 1\n"}, "line 2: unknown tag 'Bogus'"),
    ("/api/replay/load", {"record": TEXT.replace("Trick 3 2 AC", "Trick 3 2 AS")},
     f"line {[x[:12] for x in TEXT.splitlines()].index('Trick 3 2 AC') + 1}: Trick 3: seat 2 "
     "plays AS, which it does not hold"),
    ("/api/replay/load", {}, "record: missing"),
    ("/api/replay/load", {"record": TEXT, "deal": 2}, "deal 2: the record holds 1 deal(s)"),
    ("/api/replay/load", {"record": TEXT, "step": 1}, "unknown parameter 'step'"),
    ("/api/replay/hint", {"record": TEXT, "step": 46}, "step: 46 is not a whole number 0-45"),
    ("/api/replay/hint", {"record": TEXT, "step": 45}, "step 45: the deal is over"),
    ("/api/replay/hint", {"record": TEXT, "step": "3"}, "step: '3' is not a whole number"),
    ("/api/replay/hint", {"record": TEXT, "step": 3, "worlds": MAX_WORLDS + 1},
     f"worlds: {MAX_WORLDS + 1} is not a whole number 1-{MAX_WORLDS}"),
    ("/api/replay/line", {"record": TEXT, "step": 3, "card": "AC", "worlds": MAX_LINE_WORLDS + 1},
     f"worlds: {MAX_LINE_WORLDS + 1} is not a whole number 1-{MAX_LINE_WORLDS}"),
    ("/api/replay/line", {"record": TEXT, "step": 3, "card": "7C"}, "card: '7C' is no card of binokel-48"),
    ("/api/replay/line", {"record": TEXT, "step": 33, "card": "AS"},
     "step 33: seat 2 may not play AS: the legal cards are QC JC QS (R6)"),
    ("/api/replay/line", {"record": format_records([DEAL.__class__(**{
        **DEAL.__dict__, "hands": (DEAL.hands[0], None, DEAL.hands[2])})]), "step": 3, "card": "AC"},
     "the record hides the hand of seat 1"),
])
def test_bad_input_is_one_line_400(server, path, body, message):
    status, d, _ = post(server, path, body)
    assert message in one_line(status, d)


def test_sizes_are_bounded(server):
    status, d, _ = server.request("POST", "/api/replay/load",
                                  raw=b'{"record": "' + b"x" * MAX_BODY + b'"}',
                                  headers={"Content-Type": "application/json"})
    assert "request body too large" in one_line(status, d, 413)
    status, d, _ = post(server, "/api/replay/load", {"record": "#" * 50_000})
    assert "record too large" in one_line(status, d, 413)
    status, d, _ = server.request("POST", "/api/replay/load", raw=b"record=x",
                                  headers={"Content-Type": "text/plain"})
    assert "Content-Type application/json" in one_line(status, d, 415)
    status, d, _ = server.get("/api/replay/load")
    assert status == 405, d


def test_the_page_is_served_with_its_policy(server):
    status, text, headers = server.get("/replay")
    assert status == 200 and "replay.js" in text
    assert "script-src 'self'" in headers["Content-Security-Policy"]


def test_a_partners_sample_replays_with_pimc_lines_and_team_scores(server):
    """V1: pinochle-80's four seats in two teams; 20 tricks left, so the line is PIMC
    (each seat from its own view) and the scores are the teams' (V6.6)."""
    status, d, _ = server.get("/api/replay/sample?game=pinochle-80&seed=7")
    assert status == 200, d
    text = d["record"]
    status, v, _ = post(server, "/api/replay/load", {"record": text})
    assert status == 200, v
    assert v["units"] == ["first + third", "second + dealer"] and len(v["in_play"]) == 4
    s = next(s for s in v["steps"] if len(s["legal"]) > 1)
    other = next(c for c in s["legal"] if c != s["next"])
    status, line, _ = post(server, "/api/replay/line", {"record": text, "step": s["index"],
                                                        "card": other, "worlds": 2})
    assert status == 200, line
    assert line["method"] == "pimc" and line["worlds"] == 2
    a, p = line["alt"]["outcome"], line["played"]["outcome"]
    assert len(a["score"]) == 2 and sum(a["points"]) == sum(p["points"])
    assert line["diff"]["score"] == [x - y for x, y in zip(a["score"], p["score"])]
    assert len(line["alt"]["winners"]) == v["hand_size"]
