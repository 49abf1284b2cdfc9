"""Dealing kernels: uniformly random splits of the 48 cards (R2), fixing known cards.

A deal is four packed hand masks (see cards.py): seats 0, 1, 2 = forehand, middlehand,
rearhand with 15 cards each, index 3 = the 3-card Tapp.  R2's deal in packets of three
is, for simulation, the same as a uniformly random 15/15/15/3 split, which is what a
partial Fisher-Yates shuffle of the physical cards gives.
"""
from __future__ import annotations

import numpy as np

from ._jit import njit
from .cards import N_CARDS, N_TYPES, PLANE
from .rng import bounded

LO = np.int64((1 << N_TYPES) - 1)


def new_deck() -> np.ndarray:
    """The 48 physical cards (type * 2 + copy) as uint8, for the shuffling kernels."""
    return np.arange(N_CARDS, dtype=np.uint8)


@njit
def add_type(mask, t):
    """Add one copy of type ``t`` to a packed hand mask (caller guarantees < 2 copies)."""
    lo = mask & LO
    hi = mask >> PLANE
    b = np.int64(1) << np.int64(t)
    hi |= lo & b
    lo |= b
    return lo | (hi << PLANE)


@njit
def deal_masks(state, deck, sizes, out):
    """Deal ``deck`` (uint8 physical cards, shuffled in place) into ``len(sizes)`` hands.

    ``sizes`` must sum to ``len(deck)``; hand k gets the next ``sizes[k]`` cards of the
    partially shuffled deck.  Writes packed masks into ``out[:len(sizes)]``.
    """
    n = deck.shape[0]
    for i in range(n - 1):
        j = i + bounded(state, n - i)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    pos = 0
    for k in range(sizes.shape[0]):
        lo = np.int64(0)
        hi = np.int64(0)
        for _ in range(sizes[k]):
            b = np.int64(1) << np.int64(deck[pos] >> 1)
            hi |= lo & b
            lo |= b
            pos += 1
        out[k] = lo | (hi << PLANE)


@njit
def deal_random(state, deck, out):
    """A uniformly random 15/15/15/3 deal of the full deck into ``out[0:4]`` (R2).

    Only the first 45 positions need shuffling: after a partial Fisher-Yates pass
    over them the remaining 3 are a uniform random 3-subset too.
    """
    for i in range(45):
        j = i + bounded(state, 48 - i)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    pos = 0
    for k in range(4):
        lo = np.int64(0)
        hi = np.int64(0)
        size = 15 if k < 3 else 3
        for _ in range(size):
            b = np.int64(1) << np.int64(deck[pos] >> 1)
            hi |= lo & b
            lo |= b
            pos += 1
        out[k] = lo | (hi << PLANE)


def remaining_deck(known_counts: np.ndarray) -> np.ndarray:
    """Physical cards (uint8) left after removing ``known_counts`` (uint8[24]) from the deck.

    Used by the hand sampler: fix the known cards, deal the rest (redeal's
    ``Deal.prepare`` idea).
    """
    cards = []
    for t in range(N_TYPES):
        for copy in range(2 - int(known_counts[t])):
            cards.append(t * 2 + copy)
    return np.array(cards, dtype=np.uint8)
