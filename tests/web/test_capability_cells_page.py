"""The page's column of the capability matrix, run against the server (issue 24).

For every game, the page answers its questions where the matrix says ``serve`` works
(HTTP 200 with the game named), and refuses with a one-line HTTP 400 where it says not.
A game the page serves as the table for two (a stock, V7; the cell's note says so) is
dealt at /api/table/new (and sampled at /api/replay/sample where the note says the replay
view steps it), and the advice questions refuse it in one line.
"""
from __future__ import annotations

from urllib.parse import quote

import pytest

from cli.capabilities import REPLAY_NOTE, TABLE_NOTE, YES, capabilities
from tests.cli.test_capability_cells import GAMES, a_hand

CAPS = capabilities()["serve"]


@pytest.mark.parametrize("name", list(GAMES))
def test_page_answers_every_game_the_matrix_says_it_serves(server, name):
    hand = quote(",".join(a_hand(GAMES[name]).split()))
    code, body, _ = server.get(f"/api/melds?hand={hand}&rules={name}")
    if CAPS[name].mark == YES and CAPS[name].note.startswith(TABLE_NOTE):
        assert code == 400 and name in str(body)
        code, body, _ = server.get(f"/api/table/new?rules={name}&seed=1")
        assert code == 200, body
        assert body["rules"] == name and len(body["hand"]) == GAMES[name].table.hand_size
        if CAPS[name].note.endswith(REPLAY_NOTE):       # its records on the replay view
            code, body, _ = server.get(f"/api/replay/sample?game={name}&seed=1")
            assert code == 200 and f"Game {name}" in body["record"]
    elif CAPS[name].mark == YES:
        assert code == 200, body
        code, body, _ = server.get(f"/api/advise?hand={hand}&rules={name}&samples=20&seed=1")
        assert code == 200, body
        assert body.get("rules", name) == name
    else:
        assert code == 400 and name in str(body)
