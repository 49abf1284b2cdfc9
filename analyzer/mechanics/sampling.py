"""Dealing kernels: uniformly random splits of the 48 cards (R2), fixing known cards.

A deal is four packed hand masks (see cards.py): seats 0, 1, 2 = forehand, middlehand,
rearhand with 15 cards each, index 3 = the 3-card Tapp.  R2's deal in packets of three
is, for simulation, the same as a uniformly random 15/15/15/3 split, which is what a
partial Fisher-Yates shuffle of the physical cards gives.

Why it is fast and still exact:

- Only ``n - largest group`` Fisher-Yates steps are needed (33 for a full deal, not 47):
  after a partial shuffle the first positions are a uniform ordered sample and the
  unshuffled rest is the complementary set, so the largest group simply takes the rest.
- The random swap positions are read several at a time from one 58-bit word (batched
  Lemire method, :func:`analyzer.mechanics.rng.batch_word`): a full deal costs four 64-bit
  outputs of xoshiro256** instead of 33 or more, and stays exactly uniform.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_CARDS, N_TYPES, PLANE
from analyzer.mechanics.rng import batch_digit, batch_word, word_bits
from analyzer.mechanics.rules import DEFAULT_RULES

LO = np.int64((1 << N_TYPES) - 1)

# Batches of swap positions are kept to a product of ranges <= 2**(bits - 10), so a
# word is redrawn with probability below 1/1024 (see rng.batch_word).
_BATCH_MARGIN = 10

# The R2 split (15/15/15/3), derived from the RuleSet: seats 0..2, then the Tapp.
DEAL_SIZES = np.array([DEFAULT_RULES.hand_size] * 3 + [DEFAULT_RULES.tapp_size], dtype=np.int64)
if int(DEAL_SIZES.sum()) != N_CARDS:
    raise ValueError("RuleSet sizes do not split the deck: 3 hands + Tapp must be 48 cards")
# deal_random's layout, as compile-time constants: Tapp at deck[0:T], seats 0 and 1 next
# (shuffled), seat 2 takes the unshuffled rest.  Constants let numba fold the shifts.
_HAND = int(DEFAULT_RULES.hand_size)
_TAPP = int(DEFAULT_RULES.tapp_size)
_STEPS = N_CARDS - _HAND
_BITS = 64 - N_CARDS.bit_length()
_LIMIT = 1 << (_BITS - _BATCH_MARGIN)
# Public names for hot loops that write deal_random's two lines in place of the call
# (see deal_random): DEAL_STEPS shuffle steps, words of DEAL_BITS bits, batch limit.
DEAL_STEPS, DEAL_BITS, DEAL_LIMIT = _STEPS, _BITS, _LIMIT
DEAL_BOUNDS = (0, _TAPP, _TAPP + _HAND, _TAPP + 2 * _HAND, N_CARDS)   # Tapp, seat 0, 1, 2


def new_deck(rules=None) -> np.ndarray:
    """The deck's physical cards (type * 2 + copy) as uint8, for the shuffling kernels.

    ``rules`` (a RuleSet; default binokel-48): the 48 cards, or the 40 of binokel-40
    (no rank-5 types, V5.1).
    """
    if rules is None:
        return np.arange(N_CARDS, dtype=np.uint8)
    copies = rules.kernel.copies
    return np.array([t * 2 + c for t in range(N_TYPES) for c in range(int(copies[t]))],
                    dtype=np.uint8)


@njit(_nrt=False)
def add_type(mask, t):
    """Add one copy of type ``t`` to a packed hand mask (caller guarantees < 2 copies)."""
    lo = mask & LO
    hi = mask >> PLANE
    b = np.int64(1) << np.int64(t)
    hi |= lo & b
    lo |= b
    return lo | (hi << PLANE)


@njit(_nrt=False)
def shuffle_prefix_bits(state, deck, steps, bits, max_product):
    """:func:`shuffle_prefix` with explicit word width and batch limit (for tests).

    ``bits`` must satisfy ``len(deck) * 2**bits <= 2**64``; each batch of swap positions
    has a product of ranges <= ``max_product`` <= 2**bits.
    """
    n = deck.shape[0]
    i = 0
    while i < steps:
        p = np.uint64(n - i)
        k = i + 1
        while k < steps and p * np.uint64(n - k) <= max_product:
            p *= np.uint64(n - k)
            k += 1
        u = batch_word(state, p, bits)
        for q in range(i, k):
            d, u = batch_digit(u, n - q, bits)
            j = q + d
            tmp = deck[q]
            deck[q] = deck[j]
            deck[j] = tmp
        i = k


@njit(_nrt=False)
def shuffle_prefix(state, deck, steps):
    """Partial Fisher-Yates: ``deck[:steps]`` becomes a uniform random ordered sample.

    The rest of ``deck`` holds the other cards (as a set, uniformly random too).
    Exact: every swap position is uniform on its range (batched Lemire draws).
    """
    n = deck.shape[0]
    bits = word_bits(n)
    shuffle_prefix_bits(state, deck, steps, bits,
                        np.uint64(1) << (bits - np.uint64(_BATCH_MARGIN)))


@njit(_nrt=False)
def counts_mask(counts):
    """Counts per card type (``counts[t]`` in 0..2, t < 24) -> packed hand mask (cards.py)."""
    lo = np.int64(0)
    hi = np.int64(0)
    for t in range(N_TYPES):
        b = np.int64(1) << np.int64(t)
        if counts[t] >= 1:
            lo |= b
        if counts[t] >= 2:
            hi |= b
    return lo | (hi << PLANE)


@njit(_nrt=False)
def mask_counts(mask, out):
    """Packed hand mask -> counts per card type, written into ``out[0:24]``."""
    lo = mask & LO
    hi = mask >> PLANE
    for t in range(N_TYPES):
        out[t] = ((lo >> t) & 1) + ((hi >> t) & 1)


@njit(_nrt=False)
def remaining_cards(known_counts, out):
    """Physical cards (type * 2 + copy) not in ``known_counts`` -> ``out[0:n]``; returns n.

    The deck a sampler deals from once the known cards are fixed (R1: two copies of
    each type; a known type drops its first copies).
    """
    n = 0
    for t in range(N_TYPES):
        for c in range(2 - np.int64(known_counts[t])):
            out[n] = t * 2 + c
            n += 1
    return n


@njit(_nrt=False)
def mask_of_cards(deck, start, stop):
    """Packed mask of the physical cards ``deck[start:stop]``."""
    lo = np.int64(0)
    hi = np.int64(0)
    for pos in range(start, stop):
        b = np.int64(1) << np.int64(deck[pos] >> 1)
        hi |= lo & b
        lo |= b
    return lo | (hi << PLANE)


@njit(_nrt=False)
def deal_masks(state, deck, sizes, out):
    """Deal ``deck`` (uint8 physical cards, permuted in place) into ``len(sizes)`` hands.

    ``sizes`` (int64) must sum to ``len(deck)``; hand k gets ``sizes[k]`` cards, the
    split is uniformly random.  Writes packed masks into ``out[:len(sizes)]``.  The
    largest hand takes the unshuffled rest of the deck, so only
    ``len(deck) - max(sizes)`` shuffle steps are made.
    """
    n = deck.shape[0]
    k = sizes.shape[0]
    big = 0
    for g in range(k):
        if sizes[g] >= sizes[big]:
            big = g
    shuffle_prefix(state, deck, n - sizes[big])
    pos = 0
    for g in range(k):
        if g != big:
            out[g] = mask_of_cards(deck, pos, pos + sizes[g])
            pos += sizes[g]
    out[big] = mask_of_cards(deck, pos, n)


@njit(_nrt=False)
def deal_random(state, deck, out):
    """A uniformly random 15/15/15/3 deal of the full deck into ``out[0:4]`` (R2).

    ``out[0..2]`` = forehand, middlehand, rearhand; ``out[3]`` = the Tapp.  ``deck`` is
    the 48 physical cards (any order; permuted in place).  Same split as
    ``deal_masks(state, deck, DEAL_SIZES, out)``, specialised to constant sizes.

    Performance note (measured with ``binokel bench``, W1): in a loop that deals
    millions of times, writing this body in place of the call, i.e.
    ``shuffle_prefix_bits(state, deck, DEAL_STEPS, np.uint64(DEAL_BITS),
    np.uint64(DEAL_LIMIT))`` and ``out[k] = mask_of_cards(deck, lo, hi)`` with the
    bounds from ``DEAL_BOUNDS``, is about 20% faster: numba does not inline this
    function into the caller.  :func:`analyzer.bench.registry.w1_kernel` does so.
    """
    shuffle_prefix_bits(state, deck, _STEPS, np.uint64(_BITS), np.uint64(_LIMIT))
    out[3] = mask_of_cards(deck, 0, _TAPP)
    out[0] = mask_of_cards(deck, _TAPP, _TAPP + _HAND)
    out[1] = mask_of_cards(deck, _TAPP + _HAND, _TAPP + 2 * _HAND)
    out[2] = mask_of_cards(deck, _TAPP + 2 * _HAND, N_CARDS)


@njit(_nrt=False)
def deal_rules(state, deck, kr, out):
    """A uniformly random deal of ``deck`` (the variant's physical cards) into ``out[0:4]``.

    ``out[0..2]`` = forehand, middlehand, rearhand with ``kr.hand_size`` cards each,
    ``out[3]`` = the Dabb (Tapp) of ``kr.tapp_size`` (R2; V2.1, V5.1).  For the 48-card
    deck it is exactly :func:`deal_random` (same layout, same draws, tested), with the
    sizes read from the rules instead of folded in as constants.
    """
    n = deck.shape[0]
    h = kr.hand_size
    tp = kr.tapp_size
    bits = np.uint64(word_bits(n))
    shuffle_prefix_bits(state, deck, n - h, bits, np.uint64(1) << (bits - np.uint64(_BATCH_MARGIN)))
    out[3] = mask_of_cards(deck, 0, tp)
    out[0] = mask_of_cards(deck, tp, tp + h)
    out[1] = mask_of_cards(deck, tp + h, tp + 2 * h)
    out[2] = mask_of_cards(deck, tp + 2 * h, n)


@njit
def physical_deck(kr):
    """The variant's physical cards (type * 2 + copy, uint8): ``kr.copies[t]`` copies of
    each type, 48 cards or the 40 of binokel-40 (V5.1); for 48 it is ``new_deck()``."""
    deck = np.empty(kr.n_cards, dtype=np.uint8)
    n = 0
    for t in range(N_TYPES):
        for c in range(kr.copies[t]):
            deck[n] = t * 2 + c
            n += 1
    return deck


@njit(_nrt=False)
def unseen_cards(known_counts, copies, out):
    """:func:`remaining_cards` for a variant's deck: ``copies[t]`` copies of each type
    (2, or 0 for a type the deck lacks, V5.1) minus ``known_counts`` -> ``out[0:n]``."""
    n = 0
    for t in range(N_TYPES):
        for c in range(copies[t] - np.int64(known_counts[t])):
            out[n] = t * 2 + c
            n += 1
    return n


def remaining_deck(known_counts: np.ndarray, rules=None) -> np.ndarray:
    """Physical cards (uint8) left after removing ``known_counts`` (uint8[24]) from the deck.

    Used by the hand sampler: fix the known cards, deal the rest (redeal's
    ``Deal.prepare`` idea).
    """
    out = np.empty(N_CARDS, dtype=np.uint8)
    if rules is None:
        return out[:remaining_cards(np.asarray(known_counts), out)].copy()
    return out[:unseen_cards(np.asarray(known_counts), rules.kernel.copies, out)].copy()


# --------------------------------------------------------------------------- counts per seat

@njit(_nrt=False)
def deal_counts(state, deck, cnt, hand_size):
    """Deal ``deck`` (uint8[n] card types, each copy once; shuffled in place) into ``cnt``
    (uint8[4 or 5, 24], per-seat counts of the card types).

    Seats 0..3 get ``hand_size`` cards each (rows 0-3), the rest is the Dabb (row 4, when
    ``cnt`` has five rows; V4.1, V5.1: 11 + 4 and 9 + 4; V6.1: 20 + 0).  A partial
    Fisher-Yates shuffle (:func:`shuffle_prefix`, exact batched draws): seats 0-2 and the
    Dabb take the first positions, seat 3 the unshuffled rest, a uniformly random split.
    """
    n = deck.shape[0]
    shuffle_prefix(state, deck, n - hand_size)
    for p in range(cnt.shape[0]):
        for t in range(N_TYPES):
            cnt[p, t] = 0
    h3 = 3 * hand_size
    dabb_end = n - hand_size
    for i in range(n):
        if i < h3:
            cnt[i // hand_size, deck[i]] += 1
        elif i < dabb_end:
            cnt[4, deck[i]] += 1
        else:
            cnt[3, deck[i]] += 1


@njit(_nrt=False)
def deal_counts_fixed(state, deck, cnt, seat, hand, hand_size):
    """Deal the unseen cards ``deck`` (card types, shuffled in place): ``hand_size`` to each
    of the four seats other than ``seat``, which gets ``hand`` (uint8[24] counts); the rest
    to the Dabb (row 4, when ``cnt`` has five rows).  Uniform given ``hand`` (V4.1, V5.1,
    V6.1)."""
    n = deck.shape[0]
    shuffle_prefix(state, deck, n - 1)
    for p in range(cnt.shape[0]):
        for t in range(N_TYPES):
            cnt[p, t] = hand[t] if p == seat else 0
    k = 0
    for p in range(4):
        if p == seat:
            continue
        for i in range(hand_size):
            cnt[p, deck[k]] += 1
            k += 1
    while k < n:
        cnt[4, deck[k]] += 1
        k += 1
