"""The replay API (issue 27) for a game with a stock (binokel-2, V7): /api/replay/load,
/hint, /line and /sample answer what analyzer.analyses.stock_replay computes; bad input
is one JSON line with a 400 that names the rule (V7.x)."""
from __future__ import annotations

import json

import pytest

from analyzer.analyses.stock_replay import (MAX_LINE_WORLDS, MAX_WORLDS, has_stock, line_at,
                                            sample, steps, values_at)
from analyzer.mechanics.record import format_records, parse_records
from analyzer.mechanics.ruleset import GAMES
from analyzer.mechanics.stock_record import hide

GAME = next(g for g in GAMES.values() if has_stock(g))     # asked of the RuleSet
REC = sample(GAME, 7)
TEXT = format_records([REC])
STEPS = steps(REC)
END = next(s for s in STEPS if s.stock_left == 0 and s.phase == "play" and len(s.legal) > 1)


def post(server, path, body):
    return server.request("POST", path, body)


def one_line(status, body):
    assert status == 400, body
    assert set(body) == {"error", "status"} and body["status"] == 400
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return body["error"]


def test_load_gives_every_decision_of_a_stock_record(server):
    status, d, _ = post(server, "/api/replay/load", {"record": TEXT})
    assert status == 200, d
    assert d["game"] == GAME.name and d["stock"] and d["complete"] and d["all_hands"]
    assert len(d["steps"]) == len(STEPS)
    for got, want in zip(d["steps"], STEPS):
        assert got["phase"] == want.phase and got["to_play"] == want.to_play
        assert got["legal"] == list(want.legal) and got["next"] == want.next
        assert got["hands"] == [list(h) for h in want.hands]
        assert got["points"] == list(want.points) and got["stock_left"] == want.stock_left
        assert got["turned"] == want.turned
    assert d["outcome"]["points"] == list(REC.points)


def test_hint_answers_stock_hint_from_the_players_view(server):
    status, d, _ = post(server, "/api/replay/hint", {"record": TEXT, "step": END.index})
    assert status == 200, d
    want = values_at(REC, END.index).to_dict()
    assert {k: d[k] for k in want} == json.loads(json.dumps(want))
    assert d["exact"] and d["worlds"] == "exact" and d["stock"]        # V7.4


def test_line_answers_the_librarys_line(server):
    other = next(c for c in END.legal if c != END.next)
    status, d, _ = post(server, "/api/replay/line", {"record": TEXT, "step": END.index,
                                                     "card": other})
    assert status == 200, d
    want = line_at(REC, END.index, other)
    assert d["method"] == want["method"] == "exact"
    assert d["alt"]["events"] == [list(e) for e in want["alt"]["events"]]
    assert d["diff"]["points"] == list(want["diff"]["points"])
    assert d["units"] == list(REC.seats)


def test_sample_is_the_record_binokel_play_writes(server):
    status, d, _ = server.get(f"/api/replay/sample?game={GAME.name}&seed=7")
    assert status == 200, d
    assert d["record"] == TEXT
    assert parse_records(d["record"])[0] == REC


@pytest.mark.parametrize("path,body,message", [
    ("/api/replay/load", {"record": TEXT.replace("Turned QC\n", "")}, "no Turned line"),
    ("/api/replay/load",
     {"record": TEXT.replace("Meld 1 pair D 20: KD QD", "Meld 0 pair D 20: KD QD")},
     "only the winner, seat 1, may show a meld (V7.3)"),
    ("/api/replay/hint", {"record": TEXT, "step": len(STEPS) - 1}, "the deal is over"),
    ("/api/replay/hint", {"record": TEXT, "step": len(STEPS)},
     f"step: {len(STEPS)} is not a whole number 0-{len(STEPS) - 1}"),
    ("/api/replay/hint", {"record": TEXT, "step": 0, "worlds": MAX_WORLDS + 1},
     f"worlds: {MAX_WORLDS + 1} is not a whole number 1-{MAX_WORLDS}"),
    ("/api/replay/line", {"record": TEXT, "step": END.index, "card": "7Z"},
     "is no legal action of seat"),
    ("/api/replay/line", {"record": TEXT, "step": END.index, "card": 7}, "(V7.2-V7.5)"),
    ("/api/replay/line", {"record": TEXT, "step": 0, "card": "AC", "worlds": MAX_LINE_WORLDS + 1},
     f"worlds: {MAX_LINE_WORLDS + 1} is not a whole number 1-{MAX_LINE_WORLDS}"),
    ("/api/replay/line", {"record": format_records([hide(REC, 0)]), "step": 0, "card": "AC"},
     "the record hides the hand of seat 1"),
])
def test_bad_input_is_one_line_400_naming_the_rule(server, path, body, message):
    status, d, _ = post(server, path, body)
    assert message in one_line(status, d)


def test_a_bad_stock_record_names_its_line_and_rule(server):
    bad = TEXT.replace("Trick 2 1 7S JH", "Trick 2 0 7S JH")
    status, d, _ = post(server, "/api/replay/load", {"record": bad})
    err = one_line(status, d)
    assert err.startswith(f"line {TEXT.splitlines().index('Trick 2 1 7S JH') + 1}: ")
    assert "(V7.2)" in err
