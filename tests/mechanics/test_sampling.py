"""Dealing kernels (analyzer/sampling.py): R2's uniformly random 15/15/15/3 split.

Uniformity is checked against exact probabilities: per-card hypergeometric marginals
for the full deal, and the complete outcome distribution (enumerated over all
permutations) for small decks, where every way of grouping is covered.
"""
from __future__ import annotations

from collections import Counter
from itertools import permutations

import numpy as np
import pytest

from analyzer._jit import njit
from analyzer.mechanics.cards import FULL_DECK, Hand, counts_to_mask, mask_to_counts
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.sampling import (DEAL_SIZES, add_type, counts_mask, deal_masks, deal_random,
                               mask_counts, new_deck, remaining_cards, remaining_deck,
                               shuffle_prefix)


@njit
def _deal_many(state, n):
    deck = np.arange(48).astype(np.uint8)
    out = np.empty((n, 4), dtype=np.int64)
    masks = np.zeros(4, dtype=np.int64)
    for i in range(n):
        deal_random(state, deck, masks)
        out[i] = masks
    return out


@njit
def _counts_many(masks):
    """(n, g) masks -> (n, g, 24) counts."""
    n, g = masks.shape
    out = np.zeros((n, g, 24), dtype=np.int64)
    for i in range(n):
        for k in range(g):
            m = masks[i, k]
            for t in range(24):
                out[i, k, t] = ((m >> t) & 1) + ((m >> (t + 24)) & 1)
    return out


@pytest.fixture(scope="module")
def deals():
    masks = _deal_many(chunk_state(2024, 0), 100_000)
    return masks, _counts_many(masks)


def test_R2_split_sizes_are_15_15_15_3(rules):
    assert DEAL_SIZES.tolist() == [rules.hand_size] * 3 + [rules.tapp_size] == [15, 15, 15, 3]


def test_R2_every_deal_splits_the_whole_deck(deals):
    masks, counts = deals
    sizes = counts.sum(axis=2)
    assert (sizes == np.array([15, 15, 15, 3])).all()
    assert (counts.sum(axis=1) == 2).all()              # each type twice, no card lost
    assert masks.dtype == np.int64


def test_R2_each_card_lands_in_each_group_with_exact_hypergeometric_odds(deals, chi2_pvalue):
    """P(a group of m cards holds 0, 1, 2 copies of a type) = hypergeometric(48, 2, m)."""
    _, counts = deals
    n = counts.shape[0]
    for g, m in enumerate((15, 15, 15, 3)):
        p2 = m * (m - 1) / (48 * 47)
        p1 = 2 * m * (48 - m) / (48 * 47)
        p0 = 1 - p1 - p2
        for t in (0, 9, 17, 23):
            obs = np.bincount(counts[:, g, t], minlength=3)
            assert chi2_pvalue(obs, n * np.array([p0, p1, p2])) > 1e-4, (g, t)
        # all 24 types pooled: the same marginal
        obs = np.bincount(counts[:, g, :].ravel(), minlength=3)
        assert chi2_pvalue(obs, n * 24 * np.array([p0, p1, p2])) > 1e-4, g


def test_R2_pairs_of_cards_are_independent_of_seat_order(deals):
    """Joint law of two types: P(a seat holds A♣ and A♠) is exact in every seat,
    including seat 2, which takes the unshuffled rest of the deck."""
    _, counts = deals
    n = counts.shape[0]
    both = [(counts[:, g, 0] > 0) & (counts[:, g, 6] > 0) for g in range(3)]
    rates = [b.mean() for b in both]
    # exact: inclusion-exclusion with P(no copy of a type) and P(no copy of two types)
    m = 15
    none1 = (48 - m) * (47 - m) / (48 * 47)
    none2 = np.prod([(48 - m - i) / (48 - i) for i in range(4)])
    exact = 1 - 2 * none1 + none2
    se = np.sqrt(exact * (1 - exact) / n)
    for r in rates:
        assert abs(r - exact) < 5 * se


def _exact_groupings(deck, sizes):
    """Probability of each outcome (tuple of group masks) over all orders of ``deck``."""
    freq = Counter()
    for perm in permutations(deck):
        pos, key = 0, []
        for size in sizes:
            counts = [0] * 24
            for card in perm[pos:pos + size]:
                counts[card >> 1] += 1
            key.append(counts_to_mask(counts))
            pos += size
        freq[tuple(key)] += 1
    total = sum(freq.values())
    return {k: v / total for k, v in freq.items()}


@njit
def _deal_small(state, deck0, sizes, n):
    deck = deck0.copy()
    out = np.empty((n, sizes.shape[0]), dtype=np.int64)
    masks = np.zeros(sizes.shape[0], dtype=np.int64)
    for i in range(n):
        deal_masks(state, deck, sizes, masks)
        out[i] = masks
    return out


@pytest.mark.parametrize("sizes", [(1, 3, 2), (3, 1, 2), (2, 2, 2), (2, 4), (6,), (1, 1, 1, 3)])
def test_R2_deal_masks_is_exactly_uniform_on_a_small_deck(sizes, chi2_pvalue):
    """Six physical cards of three types, every grouping (largest first, last, tied)."""
    deck = np.array([0, 1, 2, 3, 4, 5], dtype=np.uint8)   # types 0 0 1 1 2 2
    exact = _exact_groupings(deck.tolist(), sizes)
    n = 60_000
    masks = _deal_small(chunk_state(7, len(sizes)), deck, np.array(sizes, dtype=np.int64), n)
    rows, freq = np.unique(masks, axis=0, return_counts=True)
    seen = {tuple(r): f for r, f in zip(rows.tolist(), freq.tolist())}
    assert set(seen) <= set(exact)
    keys = sorted(exact)
    obs = np.array([seen.get(k, 0) for k in keys])
    if len(keys) == 1:
        assert obs[0] == n
        return
    assert chi2_pvalue(obs, n * np.array([exact[k] for k in keys])) > 1e-4


def test_R2_known_cards_fixed_rest_dealt():
    """Fix a 15-card hand, deal the other 33 cards into 15/15/3 (the sampler's use)."""
    known = Hand.parse("AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD", size=15)
    deck = remaining_deck(known.counts_array())
    assert len(deck) == 33
    sizes = np.array([15, 15, 3], dtype=np.int64)
    masks = _deal_small(chunk_state(1, 0), deck, sizes, 2000)
    for row in masks[:200].tolist():
        hands = [Hand.from_mask(m) for m in row]
        assert [len(h) for h in hands] == [15, 15, 3]
        assert hands[0] + hands[1] + hands[2] + known == FULL_DECK


def test_dealing_is_reproducible_from_the_state():
    a = _deal_many(chunk_state(5, 1), 50)
    b = _deal_many(chunk_state(5, 1), 50)
    c = _deal_many(chunk_state(5, 2), 50)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_deal_random_accepts_any_starting_order_of_the_deck():
    deck = new_deck()[::-1].copy()
    out = np.zeros(4, dtype=np.int64)
    deal_random(chunk_state(0, 0), deck, out)
    assert sorted(deck.tolist()) == list(range(48))        # a permutation, nothing lost
    assert sum(len(Hand.from_mask(m)) for m in out) == 48


def test_shuffle_prefix_keeps_the_cards():
    deck = new_deck()
    shuffle_prefix(chunk_state(0, 0), deck, 20)
    assert sorted(deck.tolist()) == list(range(48))
    assert deck.tolist() != list(range(48))


def test_new_deck_and_remaining_deck():
    assert new_deck().tolist() == list(range(48)) and new_deck().dtype == np.uint8
    assert remaining_deck(np.zeros(24, dtype=np.uint8)).tolist() == list(range(48))
    assert remaining_deck(np.full(24, 2, dtype=np.uint8)).tolist() == []
    one = np.zeros(24, dtype=np.uint8)
    one[5] = 1
    assert remaining_deck(one).tolist() == [c for c in range(48) if c != 11]


def test_add_type_builds_the_two_planes():
    m = add_type(np.int64(0), 7)
    assert Hand.from_mask(m).counts[7] == 1
    m = add_type(m, 7)
    assert Hand.from_mask(m).counts[7] == 2
    assert m == Hand.parse("10S 10S").mask   # type 7 = 10♠ (suit 1 * 6 + rank 1)


def test_counts_mask_kernels_match_the_python_encoding_R1():
    """counts <-> packed mask kernels agree with cards.py's plain-Python encoding, and
    remaining_cards lists the physical cards left beside the known ones (R1: 2 copies)."""
    rng = np.random.default_rng(12)
    out = np.empty(24, dtype=np.uint8)
    deck = np.empty(48, dtype=np.uint8)
    for _ in range(500):
        counts = rng.integers(0, 3, size=24).astype(np.uint8)
        mask = counts_mask(counts)
        assert mask == counts_to_mask(counts)
        mask_counts(np.int64(mask), out)
        assert out.tolist() == mask_to_counts(mask).tolist() == counts.tolist()
        n = remaining_cards(counts, deck)
        want = [t * 2 + c for t in range(24) for c in range(2 - int(counts[t]))]
        assert deck[:n].tolist() == want
