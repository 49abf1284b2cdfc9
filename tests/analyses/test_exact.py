"""Exact meld probabilities (analyzer/analyses/exact.py) against brute force and closed formulas.

R1/R2: a hand is a uniformly random subset of the 48 physical cards (2 copies per type);
R5: the meld statistics (family level and pairs per R5's Reading, fours/eights, binokel).
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from analyzer.mechanics.cards import RANK_NAMES, SUIT_LETTERS, type_id
from analyzer.errors import BinokelError
from analyzer.analyses.exact import (count_hands, exact_table, named_probabilities, points_distribution,
                            prob_types, suit_family_pairs)
from analyzer.mechanics.rules import DEFAULT_RULES


def _all_hands(h: int) -> np.ndarray:
    """Per-type counts (uint8[n, 24]) of every h-subset of the 48 physical cards."""
    n = comb(48, h)
    phys = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(48), h)),
                       dtype=np.int64, count=n * h).reshape(n, h)
    counts = np.zeros((n, 24), dtype=np.uint8)
    for k in range(h):
        np.add.at(counts, (np.arange(n), phys[:, k] // 2), 1)
    return counts


def _brute_table(counts: np.ndarray, prefix: str) -> dict:
    """The census of analyzer.batch.runs by plain numpy over enumerated hands (R5 Reading)."""
    n = counts.shape[0]
    out: dict = {}

    def put(metric, values):
        vals, cnt = np.unique(values, return_counts=True)
        for v, c in zip(vals, cnt):
            out[(metric, int(v))] = Fraction(int(c), n)

    pairs_total = np.zeros(n, dtype=np.int64)
    fam_total = np.zeros(n, dtype=np.int64)
    for s, letter in enumerate(SUIT_LETTERS):
        a, t, k, q, j, nine = (counts[:, type_id(s, r)].astype(np.int64) for r in range(6))
        f = np.minimum.reduce([a, t, k, q, j])
        pairs = np.where(f == 2, 0, np.where(f == 1, np.minimum(k - 1, q - 1), np.minimum(k, q)))
        put(f"{prefix}.family.{letter}", f)
        put(f"{prefix}.pairs.{letter}", pairs)
        put(f"{prefix}.nines.{letter}", nine)
        pairs_total += pairs
        fam_total += f > 0
    for r, name in enumerate(RANK_NAMES):
        put(f"{prefix}.rank.{name}",
            np.minimum.reduce([counts[:, type_id(s, r)] for s in range(4)]))
    put(f"{prefix}.binokel",
        np.minimum(counts[:, type_id(1, 3)], counts[:, type_id(3, 4)]))
    put(f"{prefix}.pairs_total", pairs_total)
    put(f"{prefix}.families_total", fam_total)
    return out


def test_exact_matches_brute_force_enumeration_of_all_5_card_hands():
    """R5 census probabilities for 5-card hands equal the counts over all C(48,5) hands."""
    brute = _brute_table(_all_hands(5), "h5")
    exact = {k: v for k, v in exact_table(5).items() if not k[0].startswith("tapp")}
    exact = {k: v for k, v in exact.items() if v != 0}
    assert exact == brute
    # a single family needs exactly the five cards A 10 K Q J of one suit
    assert exact[("h5.family.S", 1)] == Fraction(2 ** 5, comb(48, 5))


def test_exact_matches_brute_force_for_4_card_hands_incl_double_binokel():
    """R5 type B: double binokel = both Q♠ and both J♦ (4-card hands, all enumerated)."""
    brute = _brute_table(_all_hands(4), "h4")
    exact = {k: v for k, v in exact_table(4).items() if v != 0 and not k[0].startswith("tapp")}
    assert exact == brute
    assert exact[("h4.binokel", 2)] == Fraction(1, comb(48, 4))


def test_tapp_points_distribution_by_enumeration():
    """R1 card points of the 3-card Tapp: all C(48,3) Tapps enumerated."""
    pts = np.array([DEFAULT_RULES.card_points[t % 6] for t in range(24)])
    dist: dict[int, int] = {}
    for trio in itertools.combinations(range(48), 3):
        v = int(sum(pts[c // 2] for c in trio))
        dist[v] = dist.get(v, 0) + 1
    exact = points_distribution(3)
    assert exact == {k: Fraction(v, comb(48, 3)) for k, v in sorted(dist.items())}
    assert sum(k * p for k, p in exact.items()) == Fraction(15)  # 3 * 240 / 48


def test_closed_formulas_for_15_card_hands():
    """Independent formulas (R5): double binokel, eight aces, four aces, nines."""
    total = comb(48, 15)
    t = exact_table(15)
    assert t[("h15.binokel", 2)] == Fraction(comb(44, 11), total)
    assert t[("h15.rank.A", 2)] == Fraction(comb(40, 7), total)
    # at least one of each ace: inclusion-exclusion over the missing aces
    ge1 = sum((-1) ** j * comb(4, j) * comb(48 - 2 * j, 15) for j in range(5))
    assert t[("h15.rank.A", 1)] + t[("h15.rank.A", 2)] == Fraction(ge1, total)
    # binokel: Q♠ and J♦ each at least once
    ge1b = sum((-1) ** j * comb(2, j) * comb(48 - 2 * j, 15) for j in range(3))
    assert t[("h15.binokel", 1)] + t[("h15.binokel", 2)] == Fraction(ge1b, total)
    # trump nines: hypergeometric over the two nines of a suit
    assert t[("h15.nines.H", 2)] == Fraction(comb(46, 13), total)
    assert t[("h15.nines.H", 1)] == Fraction(2 * comb(46, 14), total)
    # double family: the 10 cards A-J of a suit, twice
    assert t[("h15.family.D", 2)] == Fraction(comb(38, 5), total)


@pytest.mark.parametrize("h", [15, 18])
def test_every_distribution_sums_to_one(h):
    t = exact_table(h)
    metrics = {m for m, _ in t}
    for m in metrics:
        assert sum(p for (mm, _), p in t.items() if mm == m) == 1, m


def test_count_hands_and_validation():
    assert count_hands({}, 15) == comb(48, 15)
    assert prob_types({type_id(0, 0): (2,)}, 2) == Fraction(1, comb(48, 2))
    with pytest.raises(BinokelError):
        prob_types({0: (3,)}, 15)
    with pytest.raises(BinokelError):
        exact_table(49)


def test_suit_family_pairs_follows_r5_reading():
    """R5 Reading: f = min(a,t,k,q,j); f=1 leaves min(k-1,q-1) pairs; f=2 no pairs."""
    assert suit_family_pairs((1, 1, 1, 1, 1, 0)) == (1, 0)
    assert suit_family_pairs((1, 1, 2, 2, 1, 0)) == (1, 1)
    assert suit_family_pairs((2, 2, 2, 2, 2, 2)) == (2, 0)
    assert suit_family_pairs((0, 0, 2, 2, 0, 0)) == (0, 2)
    assert suit_family_pairs((0, 0, 2, 1, 0, 0)) == (0, 1)


def test_named_probabilities_are_consistent():
    named = named_probabilities(15)
    assert named["binokel or double"] == named["binokel (exactly one)"] + named["double binokel"]
    assert 0.26 < float(named["binokel (exactly one)"]) < 0.28
    # more cards, more melds: the soloist's 18 cards hold binokel more often
    assert named_probabilities(18)["binokel or double"] > named["binokel or double"]
