"""Duplicate self-play tournaments: full games (R3, R4, R8, R9), seat rotation, statistics."""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer import DEFAULT_RULES, BinokelError
from analyzer.mechanics.bidding import AuctionState, validate_auction
from analyzer.analyses.agents import Agent, RuleAgent
from analyzer.analyses.tournament import (SEATINGS, _deal, play_group, run_auction_agents,
                                          run_tournament)
from cli.main import cli


def test_seatings_rotate_every_agent_through_every_chair():
    """Duplicate: over the six seatings each agent holds each chair equally often."""
    for chair in range(3):
        held = [s[chair] for s in SEATINGS]
        assert held.count(0) == held.count(1) == 3
    assert sorted(SEATINGS) == sorted(set(SEATINGS))


def test_r9_every_game_ends_at_the_target_and_deals_repeat_across_seatings():
    """R9: each game stops after the first deal leaving someone at >= 1500 with a winner;
    all six seatings of a group play the same cards as deal k."""
    games = play_group((RuleAgent(), RuleAgent(trick_estimate=60)), seed=5, group=0)
    assert len(games) == 6
    for g in games:
        assert max(g["totals"]) >= DEFAULT_RULES.target_score
        assert g["winner_agent"] == g["seating"][g["winner_chair"]]
        scores = {}
        for k, chair, agent, seat, score, *_ in g["rows"]:
            scores[chair] = scores.get(chair, 0) + score
        assert [scores[c] for c in range(3)] == g["totals"]
    h1, t1, s1 = _deal(5, 0, 3)
    h2, t2, s2 = _deal(5, 0, 3)
    assert (h1 == h2).all() and (t1 == t2).all() and (s1 == s2).all()
    assert int(h1.sum()) == 45 and int(t1.sum()) == 3


class Spy(Agent):
    """Records what a bidding agent is given."""

    name = "spy"

    def __init__(self):
        self.seen = []

    def max_bid(self, hand_counts, seat, state, scores, key):
        self.seen.append((hand_counts.copy(), seat, state, tuple(scores)))
        return 0


def test_agents_get_only_their_own_hand_and_public_information():
    """Honesty: an agent's inputs are its hand, seat, the calls (R3) and the scores."""
    hands, _, _ = _deal(1, 0, 0)
    spies = [Spy(), Spy(), Spy()]
    sol, bid, calls = run_auction_agents(hands, spies, [10, 20, 30], (0, 0), DEFAULT_RULES)
    assert (sol, bid) == (0, 150)                         # R3: both others pass
    assert validate_auction(calls).finished
    for seat, spy in enumerate(spies[1:], start=1):
        (h, s, state, sc), = spy.seen
        assert s == seat and (h == hands[seat]).all() and sc == (10, 20, 30)
        assert isinstance(state, AuctionState)
        assert not any(isinstance(v, np.ndarray) for v in vars(state).values())


def test_identical_agents_tie_exactly():
    """Rule vs rule: all seatings play identical games, so the duplicate difference is 0."""
    res = run_tournament("rule", "rule", groups=3, seed=2)
    assert res.diff == 0.0 and res.win_diff == 0.0
    assert res.games == 18 and res.stats[0].points_per_deal == res.stats[1].points_per_deal
    # no spread: z is not estimable, said with its reason (never nan), JSON null
    text = res.summary()
    assert "nan" not in text.lower() and "z not estimable: all 3 groups" in text
    assert res.to_dict()["z"] is None


@pytest.mark.parametrize("game", ["binokel-48", "kreuz-48"])
def test_one_result_type_and_one_unit_statistic_for_every_table(game):
    """Issue 24: whole games and single deals for every auction game, one result type
    (R3-R9 three chairs; V1, V4.6 partners).  The per-side rows count each contract once:
    the contracts won over both agents plus the thrown-in deals are the deals played (a
    deal of three chairs has one soloist or none, R3; of partners one bidding team or
    none, V4.2), and the same seed gives the same result for any number of workers."""
    from analyzer.analyses.tournament import TournamentResult
    from analyzer.mechanics.rules import get_rules

    rules = get_rules(game)
    a = run_tournament("rule", "advisor-fit", deals=4, seed=7, samples=10, rules=rules)
    b = run_tournament("rule", "advisor-fit", deals=4, seed=7, samples=10, rules=rules,
                       n_jobs=2)
    assert isinstance(a, TournamentResult)
    assert json.dumps(a.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True)
    assert a.groups == 4 and a.stats[0].places + a.stats[1].places >= a.deals
    sol = sum(s.contracts for s in a.stats)
    assert sol <= a.deals and 0 <= a.stats[0].made <= a.stats[0].contracts
    if a.partners:
        assert sol + a.thrown == a.deals == 8          # 4 deals x 2 arrangements (V1)
    else:
        assert a.deals == 24                           # 4 deals x 6 seatings (R2, R3)
    assert np.isnan(a.stats[0].win_rate) and np.isfinite(a.diff_se)


def test_tournament_reproducible_for_any_jobs():
    a = run_tournament("advisor", "rule", groups=2, seed=4, samples=25, n_jobs=1)
    b = run_tournament("advisor", "rule", groups=2, seed=4, samples=25, n_jobs=2)
    assert a.to_dict() == b.to_dict()
    assert a.games == 12 and a.deals > 12
    for s in a.stats:
        assert 0.0 <= s.win_rate <= 1.0 and np.isfinite(s.points_se)


def test_bad_tournament_input():
    with pytest.raises(BinokelError, match="unknown agent"):
        run_tournament("oracle", "rule", groups=2)
    with pytest.raises(BinokelError, match="groups"):
        run_tournament("advisor", "rule", groups=1)
    # a match of single deals decides no game, so the win objective (R9) has nothing to read
    with pytest.raises(BinokelError, match="whole games"):
        run_tournament("advisor", "rule", deals=10, objective="win")
    with pytest.raises(BinokelError, match="deals must be between 2"):
        run_tournament("advisor", "rule", deals=1)
    r = CliRunner().invoke(cli, ["tournament", "--agents", "advisor"])
    assert r.exit_code == 2 and "two agents" in r.output
    r = CliRunner().invoke(cli, ["tournament", "--agents", "rule,bogus"])
    assert r.exit_code == 2 and "unknown agent" in r.output and "Traceback" not in r.output


def test_cli_tournament_json_and_help():
    r = CliRunner().invoke(cli, ["tournament", "--agents", "rule,rule", "--groups", "2", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["games"] == 12 and len(d["stats"]) == 2 and "z" in d
    r = CliRunner().invoke(cli, ["tournament", "--help"])
    assert r.exit_code == 0 and "Example:" in r.output


@pytest.mark.parametrize("game", ["binokel-48", "grupp-4"])
def test_match_of_single_deals_plays_each_deal_once_under_every_seating(game):
    """Issue 24: ``deals`` works for every game.  Three hands at the table: each deal is the
    first deal of its stream, played from zero scores under all six seatings (R3-R8), so
    the cards' luck cancels; no game is decided (R9), so there is no win rate."""
    from analyzer.mechanics.rules import get_rules

    rules = get_rules(game)
    games = play_group((RuleAgent(), RuleAgent(trick_estimate=60)), seed=3, group=1,
                       rules=rules, max_deals=1)
    assert len(games) == 6 and all(g["deals"] == 1 and g["winner_agent"] == -1 for g in games)
    assert all({r[0] for r in g["rows"]} == {0} for g in games)
    res = run_tournament("rule", "rule", deals=3, seed=2, rules=rules)
    assert res.diff == 0.0 and res.groups == 3 and res.deals == 18
    assert np.isnan(res.stats[0].win_rate) and "no game win rate" in res.summary()
    assert res.to_dict()["params"]["match"] == "deals"


def test_match_of_single_deals_from_the_command_line_for_a_three_player_game():
    r = CliRunner().invoke(cli, ["tournament", "--deals", "2", "--samples", "10", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["groups"] == 2 and d["deals"] == 12 and d["params"]["match"] == "deals"
    assert d["stats"][0]["win_rate"] is None
