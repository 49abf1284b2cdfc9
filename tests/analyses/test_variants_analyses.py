"""Analyzer, advisor and exact probabilities per variant (V2.4, V2.7, V5.1, V5.4; issue 10)."""
from __future__ import annotations

from fractions import Fraction
from math import comb, sqrt

import pytest

import analyzer as A
from analyzer.analyses.exact import exact_table, points_distribution
from analyzer.mechanics.rules import get_rules

SURE_DURCH = "AC AC 10C 10C AS AS 10S 10S AH AH 10H 10H AD AD 10D"


def test_exact_tables_follow_the_forty_card_deck():
    """V5.1: 12-card hands from 40 cards; inclusion-exclusion agrees with the table."""
    b = get_rules("binokel-40")
    t = exact_table(12, b)
    p = 1 - Fraction(2 * comb(38, 12), comb(40, 12)) + Fraction(comb(36, 12), comb(40, 12))
    assert t[("h12.binokel", 1)] + t[("h12.binokel", 2)] == p
    assert t[("h12.nines.C", 0)] == 1                 # no low card in the deck
    assert sum(points_distribution(4, b).values()) == 1
    # the grupp deck is the 48-card deck: the same numbers as binokel-48
    assert exact_table(15, get_rules("grupp-3")) == exact_table(15)


def test_forty_card_census_agrees_with_exact_values(tmp_path):
    """A binokel-40 meld run's binokel frequency is within 4 SE of the exact value."""
    b = get_rules("binokel-40")
    res = A.simulate(tmp_path / "m", A.RunSpec("melds", 20000, 3, 10000, rules=b), jobs=1)
    counts = res.hist("h15.binokel")
    n = int(counts.sum())
    p_hat = (int(counts.get(1, 0)) + int(counts.get(2, 0))) / n
    t = exact_table(12, b, prefix="x")
    p = float(t[("x.binokel", 1)] + t[("x.binokel", 2)])
    se = sqrt(p * (1 - p) / (n / 3) )     # deals, not hands, are independent
    assert abs(p_hat - p) < 4 * se


def test_v2_7_a_sure_durch_is_played_open_for_1500_in_grupp():
    g = A.analyze_hand(SURE_DURCH, samples=40, seed=1, rules=get_rules("grupp-3"))
    row = g.to_dict()["bids"][0]
    assert row["p_durch"] == 1.0 and row["e_score"] == 1500.0
    # binokel-48: Durch is worth 1000, eight aces and the tens make playing worth more
    b = A.analyze_hand(SURE_DURCH.replace("7", "9"), samples=40, seed=1)
    assert b.to_dict()["bids"][0]["p_durch"] == 0.0


@pytest.mark.parametrize("name,bonus", [("binokel-48", 50), ("binokel-40", 40)])
def test_v5_4_going_out_gives_each_opponent_its_melds_plus_the_bonus(name, bonus):
    """The advisor's forced-opening surrender figures use the variant's bonus (R4, V5.4)."""
    r = get_rules(name)
    hand = ("JS JH JC QD JD KH 10C QC KS JS QH QS" if r.hand_size == 12
            else "9S 9S JS 9H 9H JH JC 9C 9C JC QD 9D 9D KH 10C")
    adv = A.advise_bid(hand, seat="forehand", samples=120, seed=3, rules=r)
    assert adv.forced_open and adv.surrender is not None
    if adv.surrender["p_chosen"] > 0:
        assert adv.surrender["opponent_mean"] >= bonus


def test_v2_2_grupp_forehand_is_not_forced_to_open():
    adv = A.advise_bid("7S 7S JS 7H 7H JH JC 7C 7C JC QD 7D 7D KH 10C", seat="forehand",
                       samples=120, seed=3, rules=get_rules("grupp-3"))
    assert not adv.forced_open and adv.max_bid is None     # weg: pass at once


def test_v1_rounding_moves_p_make_at_the_bids_edge():
    """The same cards (a 9 read as a 7), the same seed: grupp-3's rounded card points and
    its own melds give P(make) by bid that differ from binokel-48's; the soloist's totals
    in grupp-3 are multiples of 10 plus melds (all multiples of 10)."""
    hand = "AS 10S KS 9S AH QH JH 9H KC QC 10C JD 9D QD 10D"
    sim = A.simulate_soloist(hand.replace("9", "7"), samples=150, seed=4,
                             rules=get_rules("grupp-3"))
    played = sim["tricks"] > 0
    assert (sim["total"][played] % 10 == 0).all()
    sim48 = A.simulate_soloist(hand, samples=150, seed=4)
    assert (sim48["total"] % 10 != 0).any()
