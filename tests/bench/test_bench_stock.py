"""``binokel bench --rules binokel-2``: the stock game's workloads (analyzer/bench/stock.py,
V7) run only there, do the work they name (random deals keep 250 card points, endgame
positions have the cards a hand they say, V7.4), and their Python baseline plays the
same random policy."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.bench import stock as bs
from analyzer.bench.registry import refusal, run_workload, runs_on, workloads
from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.ruleset import GAMES
from analyzer.mechanics.rules import DEFAULT_RULES
from analyzer.mechanics.stock_deal import rules_of

GAME = GAMES["binokel-2"]
STOCK_WORKLOADS = ["B2R", "B2H", "B2E12", "B2E8", "B2P", "B2PF"]


def test_stock_workloads_run_on_the_stock_game_only():
    wls = workloads()
    assert [n for n, w in wls.items() if runs_on(w, GAME)] == STOCK_WORKLOADS
    assert not any(runs_on(wls[n], DEFAULT_RULES) for n in STOCK_WORKLOADS)
    assert "V7" in refusal("W1", GAME) and "V7" in refusal("B2R", DEFAULT_RULES)
    with pytest.raises(BinokelError, match="V7"):
        run_workload("W2", deals=1, repeats=1, rules=GAME)


def test_random_deals_and_their_python_baseline():
    """V7.4: card points and the last trick make 250 a deal, melds on top."""
    res = run_workload("B2R", deals=200, repeats=1, baseline_deals=3, rules=GAME)
    assert res["rules"] == "binokel-2" and res["cards_per_deal"] == 48
    assert res["extra"]["mean_deal_points"] >= 125
    assert res["baselines"][0]["name"] == "python"
    assert res["baselines"][0]["extra"]["mean_deal_points"] >= 125


@pytest.mark.parametrize("cards", [8, 12])
def test_endgame_positions_hold_the_cards_they_say(cards):
    """V7.4: after the stock, at a trick's start, each hand holds ``cards`` cards."""
    r = rules_of(GAME)
    out = np.zeros((5, sp.STATE_LEN), dtype=np.int64)
    bs.endgame_positions(5, chunk_state(3, 1), cards, r.params, r.beat, r.pat_kind,
                         r.pat_value, r.pat_need, out)
    for st in out:
        assert sp.stock_left(st) == 0 and st[sp.TABLE] < 0 and st[sp.TO_MELD] < 0
        assert [bin(int(st[sp.H0 + s])).count("1") for s in (0, 1)] == [cards, cards]


def test_endgame_workload_values_lie_within_the_points_left():
    res = bs.b2e8(4, 0, rules=GAME)
    assert 0 <= res["mean_value"] <= 250 + 20 and res["positions_searched"] > 0
