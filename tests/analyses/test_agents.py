"""Tournament agents advisor-la and advisor-fit (R3): they play full duplicate games,
decide only from their own hand and public calls, and are reproducible."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer import BinokelError
from analyzer.analyses.agents import LookaheadAgent, ModelAgent
from analyzer.analyses.opponents import get_opponent_model
from analyzer.analyses.tournament import _deal, run_auction_agents, run_tournament
from analyzer.mechanics.bidding import validate_auction
from analyzer.mechanics.cards import Hand
from analyzer.mechanics.game import counts_to_planes
from analyzer.mechanics.rules import DEFAULT_RULES
from cli.main import cli


def test_model_agent_bids_the_fitted_value_rounded_down():
    """advisor-fit raises to b iff b <= the model's value (R3 threshold bidder)."""
    hands, _, _ = _deal(3, 0, 0)
    m = get_opponent_model("advisor")
    agent = ModelAgent()
    for seat in range(3):
        v = m.value(Hand.from_mask(int(counts_to_planes(hands[seat]))), seat)
        want = int(v // 10) * 10
        got = agent.max_bid(hands[seat], seat, validate_auction("150"), [0, 0, 0], (0, 0))
        assert got == (want if want >= 150 else 0)


def test_lookahead_agent_decision_is_cached_and_seeded_by_the_situation():
    hands, _, _ = _deal(4, 0, 1)
    a = LookaheadAgent(samples=40)
    b = LookaheadAgent(samples=40)
    st = validate_auction("150")
    x = a.max_bid(hands[1], 1, st, [0, 0, 0], (0, 1))
    assert x == a.max_bid(hands[1], 1, st, [0, 0, 0], (0, 1)) == b.max_bid(hands[1], 1, st, [0, 0, 0], (0, 1))
    assert x == 0 or x >= 160
    sol, bid, calls = run_auction_agents(hands, [a, ModelAgent(), a], [0, 0, 0], (0, 1),
                                         DEFAULT_RULES)
    assert validate_auction(calls).finished and validate_auction(calls).soloist == sol


def test_tournament_with_lookahead_agents_runs_and_reports_se():
    res = run_tournament("advisor-la", "advisor-fit", groups=2, seed=5, samples=30)
    assert res.games == 12 and np.isfinite(res.diff_se) and res.params["agent1"] == "advisor-la"
    r = CliRunner().invoke(cli, ["tournament", "--agents", "advisor-la,rule", "--groups", "2",
                                 "--samples", "20", "--opponents", "rule", "--json"])
    assert r.exit_code == 0, r.output
    with pytest.raises(BinokelError, match="unknown opponent model"):
        run_tournament("advisor-la", "rule", groups=2, opponents="oracle")
