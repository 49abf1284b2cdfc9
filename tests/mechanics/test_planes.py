"""Hands as k bit planes (analyzer.mechanics.planes): plane j = holds more than j copies
(R1, V6.1); for k = 2 exactly play.py's lo/hi planes and cards.py's packed hand."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from analyzer.mechanics.cards import Hand, counts_to_mask
from analyzer.mechanics.planes import (add_copy, cards_of_planes, copies_held, counts_from_planes,
                                       mask_of_planes, planes_from_counts, planes_of_cards,
                                       planes_of_mask, remove_copy)
from analyzer.mechanics.play import _setup


def _counts(draw, k, seats):
    return np.array([[draw(st.integers(0, k)) for _ in range(24)] for _ in range(seats)],
                    dtype=np.uint8)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_two_planes_are_plays_lo_hi_and_the_packed_hand_bit_for_bit(data):
    counts = _counts(data.draw, 2, 3)
    planes = np.empty((3, 2), dtype=np.int64)
    planes_from_counts(counts, 2, planes)
    lo, hi = np.empty(3, dtype=np.int64), np.empty(3, dtype=np.int64)
    _setup(counts, -1, lo, hi)
    assert np.array_equal(planes[:, 0], lo) and np.array_equal(planes[:, 1], hi)
    for s in range(3):
        assert mask_of_planes(planes[s]) == counts_to_mask(counts[s]) == Hand(tuple(
            int(c) for c in counts[s])).mask
        assert np.array_equal(planes_of_mask(counts_to_mask(counts[s])), planes[s])


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from([2, 4]))
def test_planes_nest_and_convert_back_to_counts_and_cards(data, k):
    counts = _counts(data.draw, k, 4)
    planes = np.empty((4, k), dtype=np.int64)
    planes_from_counts(counts, k, planes)
    back = np.empty_like(counts)
    counts_from_planes(planes, back)
    assert np.array_equal(back, counts)
    for s in range(4):
        for j in range(k - 1):
            assert planes[s, j + 1] & ~planes[s, j] == 0         # plane j+1 within plane j
        cards = cards_of_planes(planes[s])
        assert sorted(cards) == [t for t in range(24) for _ in range(counts[s, t])]
        assert np.array_equal(planes_of_cards(cards, k), planes[s])
        for t in range(24):
            assert copies_held(planes[s], t) == counts[s, t]


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from([2, 4]))
def test_removing_and_adding_a_copy_changes_only_that_types_count(data, k):
    counts = _counts(data.draw, k, 1)
    t = data.draw(st.integers(0, 23))
    row = np.empty((1, k), dtype=np.int64)
    planes_from_counts(counts, k, row)
    r = row[0].copy()
    remove_copy(r, t)
    want = counts[0].astype(int)
    want[t] = max(0, want[t] - 1)
    assert [copies_held(r, x) for x in range(24)] == list(want)
    add_copy(r, t)
    want[t] = min(k, want[t] + 1)
    assert [copies_held(r, x) for x in range(24)] == list(want)
