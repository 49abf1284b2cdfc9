"""horizon_check (issue 27's accuracy note): the play-outs before the horizon against exact
worlds, on the same worlds; the figures are consistent and bad input is refused."""
from __future__ import annotations

import pytest

from analyzer.analyses.horizon_check import horizon_check, main, position
from analyzer.errors import BinokelError
from analyzer.mechanics.ruleset import get_game


def test_positions_lie_beyond_the_horizon_and_hide_the_other_hands():
    g = get_game("binokel-48")
    for i in range(3):
        v = position(g, 0, i, 5)
        assert sum(v.own) == 5 and v.hands is None and len(v.trick) == i


def test_playouts_against_exact_worlds_give_consistent_figures():
    out = horizon_check(3, tricks_left=4, worlds=3, seed=0, horizon=3)
    assert out["positions"] >= 1 and out["worlds"] == 3
    rows = out["per_position"]
    assert all(r["world_loss"] >= 0 and r["hint_loss"] >= 0 for r in rows)
    assert all(r["mae_card"] >= abs(r["bias_card"]) for r in rows)
    # a best card that differs in no world loses nothing there
    assert all(r["world_loss"] == 0 for r in rows if r["world_best_differs"] == 0)
    assert out["mae_card"]["n"] == out["positions"]


@pytest.mark.parametrize("name", ["kreuz-48", "kreuz-40", "pinochle-80"])
def test_v1_a_partners_table_compares_its_team_playouts_with_exact_worlds(name):
    out = horizon_check(2, tricks_left=4, worlds=3, seed=1, rules=name, horizon=3)
    assert out["rules"] == name and out["positions"] >= 1
    for r in out["per_position"]:
        assert r["world_loss"] >= 0 and r["hint_loss"] >= 0
        assert r["mae_card"] >= abs(r["bias_card"])
        assert r["world_loss"] == 0 or r["world_best_differs"] > 0


def test_a_position_within_the_horizon_is_refused(capsys):
    with pytest.raises(BinokelError, match="above the horizon"):
        horizon_check(1, tricks_left=4, horizon=4)
    with pytest.raises(BinokelError, match="above the horizon"):
        horizon_check(1, tricks_left=4, horizon=4, rules="kreuz-48")
    assert main(["--positions", "1", "--tricks-left", "3", "--horizon", "5"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
