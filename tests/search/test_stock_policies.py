"""Policies and meld orders of binokel-2 (analyzer.search.stock_policies, V7.3-V7.5): the
best meld order of a hand equals the reference's exhaustive ``best_meld_order``; the
heuristic's meld rules (trump pair before its quint, a four held for its eight while the
stock is long); whole deals by every policy end with V7.4's score; claims (V7.5)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.ruleset import GAMES
from analyzer.mechanics.stock_deal import StockDeal, rules_of
from analyzer.search import stock_policies as pol
from analyzer.search import stock_registry as reg
from tests.mechanics.test_stock_play import _kernel_state
from tests.oracle import binokel2 as b

GAME = GAMES["binokel-2"]
R = rules_of(GAME)


@pytest.mark.parametrize("seed", range(60))
def test_best_meld_order_equals_the_reference_on_random_meld_hands(seed):
    """V7.3: order matters (trump pair then quint 290, quint first 250; a four first
    blocks the eight); the exhaustive search agrees with the reference's total."""
    rng = random.Random(seed)
    pool = [t for t in range(24) if t % 6 in (b.A, b.K, b.Q, b.J) or t % 6 == b.SEVEN
            for _ in range(2)]
    types = rng.sample(pool, 12)
    trump = rng.randrange(4)
    total, _ = b.best_meld_order(types, trump)
    got, order = pol.best_order(pol.probe_state(GAME, types, trump), 0, R)
    assert got == total
    assert sum(R.pat_value[trump, p] for _, p in order) == total


def test_trump_pair_then_quint_is_worth_290():
    """V7.3 Reading: a trump pair shown first may grow into the quint (40 + 250)."""
    types = b.parse("AH 10H KH QH JH 7C 7C 10C 10S 10D 7S 7D")
    rows = pol.first_meld_table(pol.probe_state(GAME, types, b.H), 0, R)
    first = {R.pat_names[b.H][p]: total for _, p, _, (total, _) in rows}
    assert first["trump pair"] == 290 and first["quint major"] == 250
    assert R.pat_names[b.H][rows[0][1]] == "trump pair"


def _won_trick_state(hand_types, stock_left, trump=b.C):
    """A state in which seat 0 has just won a trick and may meld (V7.3), holding
    ``hand_types``, with ``stock_left`` cards in the stock."""
    o = b.State(turned=0, hands=[set(), set()], stock=[])
    used = {}
    hand = set()
    for t in hand_types:
        used[t] = used.get(t, 0) + 1
        hand.add(2 * t + used[t] - 1)
    rest = [c for c in range(48) if c not in hand]
    turned = next(c for c in rest if c // 2 // 6 == trump and c // 2 % 6 == b.T)
    rest.remove(turned)
    played = 48 - 24 - stock_left
    o = b.State(turned=turned, hands=[hand, set(rest[:12])],
                stock=rest[12:12 + stock_left - 1] + [turned],
                taken=[rest[12 + stock_left - 1:12 + stock_left - 1 + played], []],
                tricks=played // 2)
    o.to_meld = o.last_winner = 0
    return StockDeal(GAME, _kernel_state(o))


def test_heuristic_holds_a_four_for_its_eight_while_the_stock_is_long():
    """V7.3: an eight must be shown at once, and a card shown in a four never joins the
    eight; with a long stock the heuristic shows the pair instead of the four kings."""
    hand = b.parse("KC KS KH KD QH 10C 10S 10H 7C 7S 7H 10D")
    h = pol.Heuristic(GAME)
    long_, short = _won_trick_state(hand, 20), _won_trick_state(hand, 4)
    name = lambda d, a: R.pat_names[d.trump][a[2]] if a[0] == "meld" else a[0]
    assert name(long_, h.meld(long_, 0)) == "pair H"
    assert name(short, h.meld(short, 0)) == "four K"


@pytest.mark.parametrize("policies", [("random", "random"), ("heuristic", "random"),
                                      ("heuristic", "heuristic")])
def test_whole_deals_end_with_250_card_points_and_both_dissles(policies):
    """V7.4: card points and the last trick make 250; V7.3: 20 Dissle points in a deal."""
    for seed in range(4):
        d = reg.play_deal(GAME, seed, policies)
        assert d.over() and int(d.st[sp.TRICKS]) == 24
        assert int(d.st[sp.PTS0] + d.st[sp.PTS1]) == 240
        assert bin(int(d.st[sp.DISSLE_DONE])).count("1") == 2


def test_policies_claim_only_when_it_wins():
    """V7.5: a player at 995 before the deal claims as soon as its points reach 1000."""
    d = reg.play_deal(GAME, 11, ("heuristic", "heuristic"), before=(995, 0))
    claims = [e for e in d.log if e[0] == "claim"]
    assert claims and claims[0][2] >= 1000 and d.winner() == claims[0][1]


def test_unknown_policy_is_refused_in_one_line():
    with pytest.raises(BinokelError, match="unknown policy 'pimc2'"):
        reg.policy_of("pimc2", GAME)


def test_a_binokel_is_held_for_the_grand_or_double_binokel_while_they_may_come():
    """V7.3 Reading: a binokel cannot grow into a grand or double binokel, so with a long
    stock the heuristic shows another meld first (here the pair) and keeps the binokel."""
    hand = b.parse("QS JD KH QH 10C 10S 10H 7C 7S 7H 10D AC")
    h = pol.Heuristic(GAME)
    long_ = _won_trick_state(hand, 20)
    a = h.meld(long_, 0)
    assert R.pat_names[long_.trump][a[2]] == "pair H"
    assert [R.pat_names[0][q] for q in h._bigger(long_, R.pat_names[0].index("binokel"))] == [
        "grand binokel", "double binokel"]


def test_greedy_melds_shows_the_quint_before_the_trump_pair():
    """The measuring variant of V7.3's timing: the meld worth most now, so the quint
    major (250) first and the trump pair never (a quint's K and Q never pair later)."""
    hand = b.parse("AC 10C KC QC JC 7S 7H 10S 10H 10D 7D JS")
    d = _won_trick_state(hand, 20)
    assert R.pat_names[0][reg.policy_of("greedy-melds", GAME).meld(d, 0)[2]] == "quint major"
    assert R.pat_names[0][pol.Heuristic(GAME).meld(d, 0)[2]] == "trump pair"
