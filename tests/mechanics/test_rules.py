"""The RuleSet (analyzer/rules.py): every constant as RULES.md states it, and its
compilation to the kernels' KernelRules."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analyzer.mechanics.cards import N_TYPES, type_id
from analyzer.mechanics.rules import DEFAULT_RULES, KernelRules, RuleSet

A, T, K, Q, J, N = range(6)
C, S, H, D = range(4)


def test_R1_card_points_and_total_250(rules):
    assert rules.card_points == (11, 10, 4, 3, 2, 0)        # A 10 K Q J 9
    assert 8 * sum(rules.card_points) == 240                # two copies x four suits
    assert 8 * sum(rules.card_points) + rules.last_trick_bonus == 250


def test_R2_hand_and_tapp_sizes(rules):
    assert (rules.hand_size, rules.tapp_size) == (15, 3)
    assert 3 * rules.hand_size + rules.tapp_size == 48


def test_R3_bidding_constants(rules):
    assert (rules.bid_start, rules.bid_step) == (150, 10)


def test_R4_surrender_and_durch(rules):
    assert rules.surrender_bonus == 50 and rules.durch_value == 1000


def test_R5_meld_values(rules):
    assert rules.family == (100, 150)             # (plain, trump)
    assert rules.double_family == (1000, 1500)
    assert rules.pair == (20, 40)
    assert rules.fours == (100, 0, 80, 60, 40, 0)   # A 10 K Q J 9: no four of tens/nines
    assert rules.eights == (1000, 0, 1000, 1000, 1000, 0)
    assert rules.binokel_cards == ((S, Q), (D, J))  # Q♠ + J♦
    assert rules.binokel == (40, 300)
    assert rules.trump_nine == 10


def test_R9_target_score(rules):
    assert rules.target_score == 1500


def test_R5_suit_f_value_reading():
    """R5 Reading: f = min(a,t,k,q,j); f=2 double family; f=1 family + min(k-1, q-1)
    pairs; f=0 min(k, q) pairs."""
    v = DEFAULT_RULES.suit_f_value
    assert v((2, 2, 2, 2, 2), True) == 1500 and v((2, 2, 2, 2, 2), False) == 1000
    assert v((1, 1, 2, 2, 1), True) == 190 and v((1, 1, 2, 2, 1), False) == 120
    assert v((1, 1, 2, 1, 1), True) == 150
    assert v((0, 0, 2, 2, 0), True) == 80 and v((0, 2, 2, 1, 2), False) == 20
    assert v((0, 0, 0, 0, 0), True) == 0


def test_ruleset_is_frozen_and_hashable():
    r = RuleSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.bid_start = 160
    assert r == DEFAULT_RULES and hash(r) == hash(DEFAULT_RULES)
    assert hash(RuleSet(bid_step=20)) != hash(r)
    assert r.to_dict()["name"] == "binokel-48"


def test_kernel_is_cached_and_complete(rules):
    kr = rules.kernel
    assert isinstance(kr, KernelRules) and rules.kernel is kr
    assert kr.card_points.dtype == np.int64 and kr.card_points.shape == (N_TYPES,)
    assert kr.card_points.sum() == 4 * sum(rules.card_points)   # per type, one copy
    assert (kr.hand_size, kr.tapp_size, kr.bid_start, kr.bid_step) == (15, 3, 150, 10)
    assert (kr.surrender_bonus, kr.durch_value, kr.target_score) == (50, 1000, 1500)
    assert (kr.last_trick_bonus, kr.trump_nine_value, kr.nine_rank) == (10, 10, N)


def test_R6_rank_strength_order(rules):
    """Within a suit A > 10 > K > Q > J > 9 (R1, R6)."""
    st = rules.kernel.rank_strength
    for s in range(4):
        row = [st[type_id(s, r)] for r in range(6)]
        assert row == sorted(row, reverse=True) and len(set(row)) == 6


def test_R5_compiled_suit_table_matches_the_reading(rules):
    tab = rules.kernel.suit_f_table
    assert tab.shape == (2, 4096)
    checked = 0
    for idx in range(4096):
        lo, hi = idx & 63, idx >> 6
        if hi & ~lo:
            assert tab[0, idx] == tab[1, idx] == 0   # impossible pattern
            continue
        c = [((lo >> r) & 1) + ((hi >> r) & 1) for r in range(6)]
        c5 = (c[A], c[T], c[K], c[Q], c[J])
        assert tab[0, idx] == rules.suit_f_value(c5, False)
        assert tab[1, idx] == rules.suit_f_value(c5, True)
        checked += 1
    assert checked == 3 ** 6


def test_R5_compiled_fours_and_binokel_masks(rules):
    kr = rules.kernel
    for r in range(6):
        assert kr.fours_mask[r] == sum(1 << type_id(s, r) for s in range(4))
    assert kr.fours_value.tolist() == list(rules.fours)
    assert kr.eights_value.tolist() == list(rules.eights)
    assert kr.binokel_mask == (1 << type_id(S, Q)) | (1 << type_id(D, J))
    assert (kr.binokel_single, kr.binokel_double) == (40, 300)


def test_variant_ruleset_compiles_its_own_values():
    v = RuleSet(name="variant", card_points=(11, 10, 4, 3, 2, 1), pair=(30, 60),
                hand_size=12, bid_start=100)
    kr = v.kernel
    assert kr.card_points[type_id(H, N)] == 1 and kr.hand_size == 12 and kr.bid_start == 100
    assert kr.suit_f_table[1, (1 << K) | (1 << Q)] == 60
    assert DEFAULT_RULES.kernel.suit_f_table[1, (1 << K) | (1 << Q)] == 40
