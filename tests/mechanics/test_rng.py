"""Kernel random numbers (analyzer/rng.py): xoshiro256**, exact bounded draws, seeding.

Reproducibility (project standard): chunk i's state depends only on (seed, i), never on
how many chunks or workers there are.  Uniformity claims are tested with chi-square
statistics on fixed seeds, against the exact distribution.
"""
from __future__ import annotations

import numpy as np
import pytest

from analyzer._jit import njit
from analyzer.mechanics.rng import (batch_digit, batch_word, bounded, chunk_seeds, chunk_state,
                          make_state, next_u64, uniform01, word_bits)
from analyzer.mechanics.sampling import shuffle_prefix_bits

M64 = (1 << 64) - 1


def xoshiro_reference(state: list[int], n: int) -> list[int]:
    """xoshiro256** in plain Python (Blackman and Vigna's published algorithm)."""
    s = list(state)

    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & M64

    out = []
    for _ in range(n):
        out.append((rotl((s[1] * 5) & M64, 7) * 9) & M64)
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
    return out


@njit
def _draw_u64(state, n):
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = next_u64(state)
    return out


@njit
def _draw_bounded(state, n, bound):
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = bounded(state, bound)
    return out


@njit
def _draw_uniform(state, n):
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        out[i] = uniform01(state)
    return out


def test_next_u64_is_xoshiro256starstar():
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    want = xoshiro_reference([1, 2, 3, 4], 1000)
    got = _draw_u64(state, 1000)
    assert [int(x) for x in got] == want
    # the state advanced in place, exactly as the reference's
    more = xoshiro_reference([1, 2, 3, 4], 1001)[-1]
    assert int(_draw_u64(state, 1)[0]) == more


def test_chunk_state_depends_only_on_seed_and_chunk():
    a = chunk_state(42, 3)
    assert np.array_equal(a, chunk_state(42, 3))
    assert not np.array_equal(a, chunk_state(42, 4))
    assert not np.array_equal(a, chunk_state(43, 3))
    # chunk 3's state is the same whether the run has 4 chunks or 100
    for n_chunks in (4, 100):
        assert np.array_equal(make_state(chunk_seeds(42, n_chunks)[3]), a)
    assert a.dtype == np.uint64 and a.shape == (4,) and a.any()


def test_chunk_streams_differ():
    x = _draw_u64(chunk_state(1, 0), 100)
    y = _draw_u64(chunk_state(1, 1), 100)
    assert len(set(x.tolist()) & set(y.tolist())) == 0


def test_make_state_never_all_zero():
    class Zero:
        def generate_state(self, n, dtype):
            return np.zeros(n, dtype=dtype)

    assert make_state(Zero()).any()


@pytest.mark.parametrize("bound", [1, 2, 3, 7, 48, 1000])
def test_bounded_is_uniform_on_its_range(bound, chi2_pvalue):
    draws = _draw_bounded(chunk_state(5, bound), 200_000, bound)
    assert draws.min() >= 0 and draws.max() < bound
    if bound == 1:
        assert (draws == 0).all()
        return
    freq = np.bincount(draws, minlength=bound)
    assert chi2_pvalue(freq) > 1e-4


def test_bounded_large_range():
    bound = 2**31 + 12345
    draws = _draw_bounded(chunk_state(9, 0), 50_000, bound)
    assert draws.min() >= 0 and draws.max() < bound
    # the top and bottom halves are equally likely
    assert abs((draws < bound // 2).mean() - 0.5) < 5 * 0.5 / np.sqrt(len(draws))


def test_uniform01_range_and_mean(chi2_pvalue):
    u = _draw_uniform(chunk_state(11, 0), 200_000)
    assert u.min() >= 0.0 and u.max() < 1.0
    se = np.sqrt(1 / 12 / len(u))
    assert abs(u.mean() - 0.5) < 5 * se
    assert chi2_pvalue(np.bincount((u * 100).astype(np.int64), minlength=100)) > 1e-4


def test_word_bits_leaves_room_for_the_range():
    assert int(word_bits(48)) == 58
    for n in (2, 5, 48, 64, 65, 80, 1000):
        bits = int(word_bits(n))
        # every word times n fits in 64 bits, and at most one bit is given away
        assert n * (1 << bits) <= 1 << 64 < n * (1 << (bits + 2))


@njit
def _digits_for_all_words(bits, ranges):
    """Every ``bits``-bit word decoded by batch_digit: (n_words, k) digits + final rest."""
    nw = 1 << bits
    k = ranges.shape[0]
    digits = np.empty((nw, k), dtype=np.int64)
    rest = np.empty(nw, dtype=np.uint64)
    for w in range(nw):
        u = np.uint64(w)
        for q in range(k):
            d, u = batch_digit(u, ranges[q], np.uint64(bits))
            digits[w, q] = d
        rest[w] = u
    return digits, rest


def test_batched_lemire_rule_is_exact_exhaustively():
    """Over ALL 12-bit words, keeping those with rest >= 2**12 mod p (batch_word's rule)
    leaves every digit tuple equally often: the batched draw is exactly uniform."""
    bits = 12
    ranges = np.array([5, 4, 3], dtype=np.int64)
    p = 5 * 4 * 3
    digits, rest = _digits_for_all_words(bits, ranges)
    # the rest is u * p mod 2**bits (what batch_word tests before decoding)
    u = np.arange(1 << bits, dtype=np.uint64)
    assert np.array_equal(rest, (u * np.uint64(p)) % np.uint64(1 << bits))
    keep = rest >= np.uint64((1 << bits) % p)
    code = (digits[keep] * np.array([12, 3, 1])).sum(axis=1)
    freq = np.bincount(code, minlength=p)
    assert (digits[:, 0] < 5).all() and (digits[:, 1] < 4).all() and (digits[:, 2] < 3).all()
    assert freq.min() == freq.max() == (1 << bits) // p
    # without the rejection it would not be uniform (why the rule exists)
    assert np.ptp(np.bincount((digits * np.array([12, 3, 1])).sum(axis=1))) > 0


@njit
def _perm_counts(state, n_deck, steps, bits, max_product, n_draws):
    """Frequencies of the ordered prefixes of a small deck after shuffle_prefix_bits."""
    deck = np.arange(n_deck).astype(np.uint8)
    size = 1
    for i in range(steps):
        size *= n_deck
    freq = np.zeros(size, dtype=np.int64)
    for _ in range(n_draws):
        for i in range(n_deck):
            deck[i] = i
        shuffle_prefix_bits(state, deck, steps, bits, max_product)
        code = 0
        for i in range(steps):
            code = code * n_deck + deck[i]
        freq[code] += 1
    return freq


@pytest.mark.parametrize("bits,max_product", [(14, 1 << 14), (58, 1 << 48), (58, 6)])
def test_shuffle_prefix_is_exactly_uniform(bits, max_product, chi2_pvalue):
    """All 6! orders of a 6-card deck are equally likely.  With 14-bit words the whole
    shuffle is one batch of product 720 and 3% of words are rejected: a slightly
    biased decoder (no rejection) would be off by ~4% per order, far beyond the
    test's resolution (1.5%)."""
    n_draws = 720 * 4000
    freq = _perm_counts(chunk_state(21, bits), 6, 5, np.uint64(bits), np.uint64(max_product),
                        n_draws)
    seen = freq[freq > 0]
    assert len(seen) == 720 and seen.sum() == n_draws
    assert chi2_pvalue(seen) > 1e-4


def test_batch_word_redraws_only_below_the_threshold():
    state = chunk_state(3, 0)
    bits = np.uint64(10)
    p = np.uint64(1000)   # 2**10 mod 1000 = 24: about 2.3% of words are redrawn
    words = [int(batch_word(state, p, bits)) for _ in range(20_000)]
    assert max(words) < 1 << 10
    assert min((w * 1000) % 1024 for w in words) >= 24
