"""The bit intrinsics (analyzer.kernels.bits) against plain-Python references on random
int64 words: population count, trailing zeros, k-th set bit, parallel bit extract (the
BMI2 instruction where the CPU has it and the plain-code fallback agree bit for bit)."""
from __future__ import annotations

import random

import numpy as np

from analyzer._jit import njit
from analyzer.kernels import bits


@njit
def _ctpop_cttz(x):
    return bits.ctpop(x), bits.cttz(x)


@njit
def _pext_both(x, m):
    return bits.pext(x, m), bits.pext_sw(x, m)


def _word(rnd):
    """A random int64 (bit 63 set in half of them: the kernels' masks are signed)."""
    return rnd.getrandbits(64) - (1 << 63)


def test_popcount_and_trailing_zeros_match_python_on_random_words():
    rnd = random.Random(3)
    for _ in range(3000):
        x = _word(rnd) or 1
        u = x & ((1 << 64) - 1)
        n, tz = _ctpop_cttz(np.int64(x))
        assert n == bin(u).count("1") == bits.popcount(x)
        assert tz == (u & -u).bit_length() - 1 == bits.lowest_bit(x)


def test_select_bit_finds_the_kth_set_bit_from_the_lowest():
    rnd = random.Random(4)
    for _ in range(500):
        x = rnd.getrandbits(48) | 1
        set_bits = [i for i in range(48) if (x >> i) & 1]
        for k, i in enumerate(set_bits):
            assert bits.select_bit(x, k) == i


def test_pext_hardware_and_plain_code_agree():
    rnd = random.Random(5)
    for _ in range(3000):
        x = rnd.getrandbits(63) - (1 << 62)
        m = rnd.getrandbits(63) - (1 << 62)
        hw, sw = _pext_both(np.int64(x), np.int64(m))
        want = 0
        j = 0
        for i in range(64):
            if (m >> i) & 1:
                want |= ((x >> i) & 1) << j
                j += 1
        want = want - (1 << 64) if want >= 1 << 63 else want
        assert hw == sw == want
