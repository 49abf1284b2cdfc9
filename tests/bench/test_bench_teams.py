"""Team-game workloads T1, T2, T2T, TD (analyzer/bench/teams.py): registered as team
workloads, and the kernels measure what their definitions say (V6.3, V6.5, V4, V5)."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.bench import teams as bt
from analyzer.bench.registry import run_workload, workloads
from analyzer.errors import BinokelError
from analyzer.mechanics.rules import get_rules

GAMES = ("kreuz-48", "kreuz-40", "pinochle-80")


def test_team_workloads_are_registered_as_team_workloads():
    wls = workloads()
    for name in ("T1", "T2", "T2T", "TD"):
        assert wls[name].teams and wls[name].variant_aware


def test_v6_3_T1_kernel_and_python_baseline_measure_the_same_mean():
    # different RNGs: the means agree within a few standard errors (sd of a meld ~ 130)
    a = bt.t1(20_000, 1)["mean_meld"]
    b = bt.t1_python(4_000, 2)["mean_meld"]
    se = 130 * (1 / (16 * 20_000) + 1 / (16 * 4_000)) ** 0.5 * 2   # hands of a deal correlate
    assert abs(a - b) < 5 * se


@pytest.mark.parametrize("game", GAMES)
def test_T2_and_T2T_hand_out_every_card_point(game):
    rules = get_rules(game)
    pts = 500 if game == "pinochle-80" else 250     # V6.5; V1 240 + 10 last trick
    # without a discard (T2 deals the Dabb aside): all but the Dabb's points
    assert bt.t2(300, 0, rules)["total"] <= pts
    assert bt.t2t(100, 0, rules)["total"] <= pts
    if game == "pinochle-80":
        assert bt.t2(300, 0, rules)["total"] == 500


@pytest.mark.parametrize("game", GAMES)
def test_TD_runs_whole_deals(game):
    out = bt.td(100, 0, get_rules(game))
    assert out["mean_score_team0"] != 0 or out["mean_score_team1"] != 0


def test_team_workload_refuses_a_three_player_game():
    with pytest.raises(BinokelError, match="does not run binokel-48"):
        run_workload("T2", deals=10, repeats=1, rules=get_rules("binokel-48"))


def test_TSD_times_team_simulate_runs_next_to_SD1():
    """TSD (team games' simulate --what deals, one core) and SD1 (three-player, one core)
    are registered for per-CPU-second comparison; TSD runs a whole team run."""
    from analyzer.bench.simulate import tsd

    wls = workloads()
    assert wls["TSD"].teams and not wls["SD1"].teams and wls["SD1"].variant_aware
    assert tsd(200, 0, get_rules("kreuz-40"))["jobs"] == 1
    with pytest.raises(BinokelError, match="does not run binokel-48"):
        run_workload("TSD", deals=10, repeats=1, rules=get_rules("binokel-48"))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", ["W1", "W2", "W2H"])
def test_W_workloads_run_every_team_game_on_its_table(game, name):
    """Issue 24: W1, W2, W2H run every game; on a four-seat table they keep W2's definition
    (trump spades, seat 0 leads) with the table's duties, and every card point of the
    hands is counted (R7, V6.5: the Dabb's cards stay out)."""
    from analyzer.mechanics.rules import from_flat

    rules = get_rules(game)
    res = run_workload(name, deals=50, repeats=1, baseline=False, rules=rules)
    assert res["workload"] == name and res["rules"] == game
    if name == "W1":
        assert res["extra"]["mean_meld"] > 0
        return
    kern = from_flat(rules).kernel
    deck = int((kern.copies * kern.card_points).sum()) + kern.last_trick_bonus
    total = res["extra"]["total"]
    assert total == pytest.approx(sum(res["extra"]["mean_points"]))
    if kern.dabb_size == 0:
        assert total == deck                   # every card is played (V6.1: no Dabb)
    else:
        assert 0.8 * deck < total < deck       # the Dabb's points stay out


def test_W2_on_a_four_seat_table_is_T2_with_spades_trump():
    """The table variant of W2 is T2's kernel with W2's trump: same seed and trump, same
    points (one kernel, two names for the same work)."""
    from analyzer.bench.play import W2_TRUMP
    from analyzer.mechanics.rng import chunk_state
    from analyzer.mechanics.play import POLICY_RANDOM
    from analyzer.mechanics.rules import team_spec

    rules = get_rules("kreuz-48")
    spec = team_spec(rules)
    sums = np.zeros(2, dtype=np.int64)
    bt.kt_batch(30, chunk_state(5, 0), spec.deck.copy(), spec.tk, POLICY_RANDOM, sums, W2_TRUMP)
    assert bt.w2_table(30, 5, rules)["mean_points"] == [float(x) / 30 for x in sums]
