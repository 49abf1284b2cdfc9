"""Exact hand probabilities of the four-copy deck (analyzer.analyses.exact; V6.1, V6.3)
against brute force and Monte Carlo."""
from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from analyzer.analyses.exact import (CLASS_MELD_TYPES, class_meld_census, count_hands,
                                     named_class_probabilities, prob_types, times_distribution)
from analyzer.errors import BinokelError
from analyzer.mechanics.rules import PINOCHLE_80 as P80


def test_v6_1_all_hands_are_counted():
    assert count_hands({}, 20, P80) == comb(80, 20)


def test_v6_1_single_type_count_is_hypergeometric():
    # P(exactly c copies of A♠ in 20 of 80 cards) = C(4,c) C(76,20-c) / C(80,20)
    for c in range(5):
        assert prob_types({6: (c,)}, 20, P80) == Fraction(comb(4, c) * comb(76, 20 - c), comb(80, 20))


def test_v6_3_times_distribution_sums_to_one_and_matches_brute_force_small_hand():
    d = times_distribution(CLASS_MELD_TYPES["pinochle"], 20, P80)
    assert sum(d.values()) == 1
    # brute force over (count Q♠, count J♦) with the rest free, hypergeometric
    pin2 = Fraction(0)
    for q in range(5):
        for j in range(5):
            if min(q, j) >= 2:
                pin2 += Fraction(comb(4, q) * comb(4, j) * comb(72, 20 - q - j), comb(80, 20))
    assert d[2] + d[3] + d[4] == pin2


def test_v6_3_named_double_aces_and_double_pinochle():
    p = named_class_probabilities()
    assert 0 < p["double aces around (at least twice)"] < p["aces around (at least once)"] < 1
    assert p["double pinochle (at least twice)"] == p["double marriage in a given suit (at least twice)"]


def test_v6_3_monte_carlo_census_agrees_with_exact_within_4_se():
    res = class_meld_census(3000, seed=2)
    for name, r in res.items():
        se = max(r["se"], (r["exact"] * (1 - r["exact"]) / r["n_hands"]) ** 0.5)
        # the four hands of a deal are dependent: allow a factor 2 on the SE
        assert abs(r["mc"] - r["exact"]) < 4 * 2 * se + 1e-12, name


def test_bad_sizes_and_counts_are_errors_and_a_type_outside_the_deck_is_never_held():
    with pytest.raises(BinokelError, match="hand size must be 0..80"):
        count_hands({}, 81, P80)
    with pytest.raises(BinokelError, match="counts of a card type are 0, 1, 2, 3 or 4"):
        count_hands({0: (5,)}, 20, P80)
    # V6.1: no nines in the deck, so no hand holds one (as the 40-card deck's, V5.1)
    assert count_hands({5: (1,)}, 20, P80) == 0
    assert count_hands({5: (0,)}, 20, P80) == comb(80, 20)
