"""Random numbers inside kernels: xoshiro256** over a ``uint64[4]`` state array.

Randomness enters a kernel only through its state argument, never from a global, so a
chunk's numbers depend only on the seed it was given.  States come from
``numpy.random.SeedSequence`` (:func:`make_states`), one per chunk, so results do not
depend on how chunks are scheduled over workers.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError

_U32 = np.uint64(0xFFFFFFFF)


def make_state(seed_seq: np.random.SeedSequence) -> np.ndarray:
    """A fresh xoshiro256** state (uint64[4], never all zero) from a SeedSequence."""
    st = seed_seq.generate_state(4, dtype=np.uint64)
    if not st.any():
        st[0] = np.uint64(1)
    return st


def _root(seed) -> np.random.SeedSequence:
    """SeedSequence of a seed: None, a non-negative int, or a sequence of them."""
    parts = seed if isinstance(seed, (list, tuple)) else [seed]
    for part in parts:
        if part is None and len(parts) == 1:
            continue
        if (not isinstance(part, (int, np.integer)) or isinstance(part, bool) or part < 0):
            raise BinokelError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(seed, (list, tuple)):
        return np.random.SeedSequence([int(p) for p in seed])
    return np.random.SeedSequence(None if seed is None else int(seed))


def chunk_seeds(seed: int | None, n_chunks: int) -> list[np.random.SeedSequence]:
    """One child SeedSequence per chunk index; chunk i's seed depends only on (seed, i)."""
    root = _root(seed)
    return [np.random.SeedSequence(root.entropy, spawn_key=(i,)) for i in range(n_chunks)]


def chunk_state(seed: int | None, chunk: int) -> np.ndarray:
    """The kernel RNG state for chunk number ``chunk`` of a run seeded with ``seed``.

    Raises BinokelError for a negative or non-integer seed.
    """
    root = _root(seed)
    return make_state(np.random.SeedSequence(root.entropy, spawn_key=(chunk,)))


@njit(_nrt=False)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(_nrt=False)
def next_u64(s):
    """Next 64-bit output of xoshiro256** (updates ``s`` in place)."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(_nrt=False)
def derived_state(state, out):
    """Fill ``out`` (uint64[4]) with a stream derived from ``state`` without advancing it
    (splitmix64's finalizer per word, then one step), so a caller can draw side decisions
    (PIMC's worlds) while its own next draws stay those of a run without them."""
    for q in range(4):
        x = state[q] + np.uint64(0x9E3779B97F4A7C15) * np.uint64(q + 1)
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
        out[q] = x
    if out[0] == 0 and out[1] == 0 and out[2] == 0 and out[3] == 0:
        out[0] = np.uint64(1)
    next_u64(out)


@njit(_nrt=False)
def bounded(s, n):
    """Uniform int in [0, n) for 1 <= n < 2**32, exactly (Lemire's method with rejection)."""
    nn = np.uint64(n)
    m = (next_u64(s) >> np.uint64(32)) * nn
    low = m & _U32
    if low < nn:
        thresh = (np.uint64(0x100000000) - nn) % nn
        while low < thresh:
            m = (next_u64(s) >> np.uint64(32)) * nn
            low = m & _U32
    return np.int64(m >> np.uint64(32))


@njit(_nrt=False)
def uniform01(s):
    """Uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(_nrt=False)
def word_bits(n):
    """Width of the words :func:`batch_word` draws for ranges up to ``n`` (``n`` < 2**63).

    A ``bits``-bit word times any range <= ``n`` must fit in 64 bits, so
    ``bits = 64 - bit_length(n)`` (58 for a 48-card deck).
    """
    b = 0
    m = np.uint64(n)
    while m != np.uint64(0):
        m >>= np.uint64(1)
        b += 1
    return np.uint64(64 - b)


@njit(_nrt=False)
def batch_word(s, p, bits):
    """A ``bits``-bit word ``u`` from which several bounded ints are read exactly.

    Batched Lemire method (Brackett-Rozinsky and Lemire 2024): for ranges
    n1, n2, ..., nk with product ``p`` <= 2**bits, read the ints with
    :func:`batch_digit` in that order.  The identity
    ``u * p = R * 2**bits + l`` (R = the digits read as a mixed-radix number) makes this
    Lemire's single-range method for range ``p``: rejecting ``u`` while
    ``l < 2**bits mod p`` makes R, hence every digit, exactly uniform and the digits
    independent.  Only ``l < p`` (probability <= p / 2**bits) costs a division.
    """
    mask = (np.uint64(1) << bits) - np.uint64(1)
    shift = np.uint64(64) - bits
    u = next_u64(s) >> shift
    low = (u * p) & mask
    if low < p:
        thresh = (mask - p + np.uint64(1)) % p
        while low < thresh:
            u = next_u64(s) >> shift
            low = (u * p) & mask
    return u


@njit(_nrt=False)
def batch_digit(u, n, bits):
    """Next int in [0, n) from a :func:`batch_word` word: returns (digit, rest of word)."""
    x = u * np.uint64(n)
    return np.int64(x >> bits), x & ((np.uint64(1) << bits) - np.uint64(1))
