"""Matches of binokel-2 policies (analyzer.analyses.stock_match, V7): a duplicate match of
single deals is symmetric (A against A is 0 exactly, A against B is minus B against A),
its numbers do not depend on the workers, and whole games follow V7.5 (the dealer
alternates, a claim ends the game, the higher total at 1000 or more wins)."""
from __future__ import annotations

import pytest

from analyzer.analyses.stock_match import (duplicate_match, game_match, play_game, play_one,
                                           deal_seed, _policy)
from analyzer.errors import BinokelError
from analyzer.mechanics.ruleset import GAMES

GAME = GAMES["binokel-2"]


@pytest.mark.parametrize("policy", ["heuristic", "pimc-fast-2"])
def test_a_policy_against_itself_scores_zero_exactly(policy):
    """V7.1: each deal dealt twice, the seats swapped; the same deterministic policy on both
    seats gives the same two plays, so A minus A is 0 on every deal."""
    res = duplicate_match(GAME, policy, policy, 2, seed=3)
    assert res.n == 2 and res.diffs == (0, 0) and res.mean == 0
    assert res.a_points == res.b_points


def test_swapping_the_policies_negates_every_deal():
    ab = duplicate_match(GAME, "heuristic", "random", 3, seed=1)
    ba = duplicate_match(GAME, "random", "heuristic", 3, seed=1)
    assert ab.diffs == tuple(-x for x in ba.diffs) and ab.mean > 0
    assert ab.se > 0 and ab.z == ab.mean / ab.se


def test_the_numbers_do_not_depend_on_the_workers():
    """Same seed, --jobs 1 or 2: the same deals, the same differences (chunks fixed)."""
    one = duplicate_match(GAME, "pimc-fast-2", "random", 5, seed=2, jobs=1)
    two = duplicate_match(GAME, "pimc-fast-2", "random", 5, seed=2, jobs=2)
    assert one.diffs == two.diffs
    g1 = game_match(GAME, "heuristic", "random", 2, seed=2, jobs=1)
    g2 = game_match(GAME, "heuristic", "random", 2, seed=2, jobs=2)
    assert (g1.win_rate, g1.points_diff, g1.claims) == (g2.win_rate, g2.points_diff, g2.claims)


def test_a_deal_is_the_same_whatever_was_played_before():
    """Each play restarts every random state from its seed (reproducible per deal)."""
    pols = (_policy("binokel-2", "pimc-fast-2", None), _policy("binokel-2", "random", None))
    a = play_one(GAME, deal_seed(5, 0), pols)
    play_one(GAME, deal_seed(5, 1), pols)
    b = play_one(GAME, deal_seed(5, 0), pols)
    assert a.log == b.log


def test_whole_games_end_as_v7_5_says():
    """V7.5: scores carry over; the winner has 1000 or more (a claim wins only there, and
    the policies claim only when it wins); the dealer alternates (player 0 deals the even
    deals: it is seat 1 then)."""
    pols = (_policy("binokel-2", "heuristic", None), _policy("binokel-2", "random", None))
    for seed in range(3):
        g = play_game(GAME, seed, pols)
        w = g["winner"]
        assert g["scores"][w] >= 1000 and g["deals"] >= 2
        if not g["claim"]:
            assert g["scores"][w] > g["scores"][1 - w]


def test_game_match_reports_a_win_rate_with_se():
    res = game_match(GAME, "heuristic", "random", 2, seed=0)
    assert 0 <= res.win_rate <= 1 and res.win_se >= 0 and res.deals_per_game >= 2
    d = res.to_dict()
    assert d["groups"] == 2 and "z" in d


@pytest.mark.parametrize("kwargs,frag", [
    (dict(a="heuristic", b="random", deals=1), "--deals must be at least 2"),
    (dict(a="heuristic", b="random", deals=2, worlds=1), "--samples must be at least 2"),
    (dict(a="advisor", b="random", deals=2), "unknown policy 'advisor'"),
])
def test_bad_input_is_one_line(kwargs, frag):
    with pytest.raises(BinokelError, match=frag):
        duplicate_match(GAME, **kwargs)
