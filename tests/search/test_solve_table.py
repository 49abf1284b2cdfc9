"""The solver's transposition table (analyzer.search.solve): exact packed keys, bucket
replacement, generations, and the in-place duty and beat tests the search uses (R6, V5.6)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer._jit import njit
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.play import beat_table, card_beats, legal_mask_duty
from analyzer.mechanics.rules import get_rules
from analyzer.search import solve
from analyzer.search.solve import (GEN_LIMIT, W_BEAT, W_GEN, W_SIZE, Solver, dd_value,
                                   init_workspace, new_table, set_context, set_hands)

LO24 = (1 << N_TYPES) - 1


@njit
def _keys(w, leader):
    return solve._tt_key(w, leader)


@njit
def _legal(w, seat, k, lsuit, wcard, lhigh):
    return solve._legal(w, seat, k, lsuit, wcard, lhigh)


@njit
def _beats(w, c, wcard):
    return solve._beats(w, c, wcard)


def _random_hands(rnd, n_each):
    """Three hands of ``n_each`` cards from the 48-card deck, as (lo, hi) int64[3] planes."""
    deck = [t for t in range(N_TYPES) for _ in range(2)]
    rnd.shuffle(deck)
    lo = np.zeros(3, dtype=np.int64)
    hi = np.zeros(3, dtype=np.int64)
    for p in range(3):
        for t in deck[p * n_each:(p + 1) * n_each]:
            b = 1 << t
            if lo[p] & b:
                hi[p] |= b
            else:
                lo[p] |= b
    return lo, hi


def _random_subhands(rnd, lo, hi):
    """Each seat keeps a random subset of its cards (the second copy leaves first, as the
    search's _take removes it)."""
    slo, shi = lo.copy(), hi.copy()
    for p in range(3):
        for t in range(N_TYPES):
            b = 1 << t
            for _ in range(2):
                if rnd.random() < 0.5:
                    if shi[p] & b:
                        shi[p] &= ~b
                    elif slo[p] & b:
                        slo[p] &= ~b
    return slo, shi


def test_table_key_is_exact_over_every_subset_of_the_basis():
    # two positions inside one basis (the hands at set_hands) get equal keys exactly when
    # their hands and leader are equal: the table can never confuse two positions
    rnd = random.Random(11)
    w = np.zeros(W_SIZE, dtype=np.int64)
    init_workspace(w, get_rules("binokel-48").kernel)
    for _ in range(40):
        lo, hi = _random_hands(rnd, 15)
        set_hands(w, lo, hi)
        seen = {}
        for _ in range(300):
            slo, shi = _random_subhands(rnd, lo, hi)
            leader = rnd.randrange(3)
            for p in range(3):
                w[solve.W_LO + p] = slo[p]
                w[solve.W_HI + p] = shi[p]
            k = int(_keys(w, np.int64(leader)))
            pos = (tuple(slo), tuple(shi), leader)
            assert seen.setdefault(k, pos) == pos


def test_set_hands_starts_a_new_generation_so_old_entries_never_match():
    rnd = random.Random(3)
    s = Solver(tt_bits=12)
    lo, hi = _random_hands(rnd, 5)
    set_context(s.w, 1, 0, s.tt_mask)
    set_hands(s.w, lo, hi)
    g = int(s.w[W_GEN])
    v1 = int(dd_value(s.w, s.tt, 0, 0, -1, -1, -1, -1, 0))
    stored = int(np.count_nonzero(s.tt[:, 1]))
    assert stored > 0
    set_hands(s.w, lo, hi)
    assert int(s.w[W_GEN]) == g + 1
    # the same hands again: the old entries are of another generation, the value is the same
    assert int(dd_value(s.w, s.tt, 0, 0, -1, -1, -1, -1, 0)) == v1


def test_generation_limit_clears_the_table():
    rnd = random.Random(4)
    s = Solver(tt_bits=12)
    lo, hi = _random_hands(rnd, 5)
    set_context(s.w, 2, 1, s.tt_mask)
    set_hands(s.w, lo, hi)
    v = int(dd_value(s.w, s.tt, 0, 0, -1, -1, -1, -1, 0))
    s.w[W_GEN] = GEN_LIMIT
    assert int(dd_value(s.w, s.tt, 0, 0, -1, -1, -1, -1, 0)) == v
    assert int(s.w[W_GEN]) == 1
    # every entry now is of generation 1 (written by the search after the clear)
    gens = s.tt[:, 1] >> 31
    assert set(np.unique(gens[s.tt[:, 1] != 0]).tolist()) == {1}


def test_new_table_rows_are_cache_line_aligned_buckets():
    for bits in (10, 14, 20):
        t = new_table(bits)
        assert t.shape == (1 << bits, 2) and t.dtype == np.int64 and t.flags.c_contiguous
        assert t.ctypes.data % 64 == 0 and not t.any()


@pytest.mark.parametrize("name", ["binokel-48", "binokel-40"])
def test_in_place_duty_and_beat_tests_equal_the_play_kernels(name):
    # the search reads the beat table in place; it must give legal_mask_duty's and
    # card_beats' answers (R6; V5.6's beat-the-led-suit duty in binokel-40)
    kr = get_rules(name).kernel
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kr, beat)
    w = np.zeros(W_SIZE, dtype=np.int64)
    init_workspace(w, kr)
    assert (w[W_BEAT:W_BEAT + N_TYPES] == beat).all()
    rnd = random.Random(17)
    for _ in range(4000):
        trump = rnd.randrange(-1, 4)
        set_context(w, trump, rnd.randrange(3), np.int64(1023))
        hand = rnd.getrandbits(N_TYPES) | (1 << rnd.randrange(N_TYPES))
        w[solve.W_LO] = hand
        lead = rnd.randrange(N_TYPES)
        wcard = lead if rnd.random() < 0.5 else rnd.randrange(N_TYPES)
        lhigh = lead
        c = rnd.randrange(N_TYPES)
        assert _legal(w, 0, 1, lead // 6, wcard, lhigh) == legal_mask_duty(
            np.int64(hand), lead // 6, wcard, lhigh, trump, beat, kr.beat_led_trumped, 0)
        assert _beats(w, c, wcard) == card_beats(c, wcard, trump, beat)
