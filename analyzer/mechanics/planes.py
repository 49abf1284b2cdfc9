"""Hands as k bit planes: the one hand encoding for every deck (R1, V6.1; issue 24).

A deck with ``k`` identical copies of each card type (``Kernel.k``: 2 in every Binokel
deck, 4 in pinochle-80) stores a hand as ``k`` int64 words: **plane j** has bit t set when
the hand holds **more than j** copies of type t (types as in cards.py, bits 0..23).  So
plane 0 is the presence mask (all a legal-card mask needs), the count of type t is the
number of planes holding bit t, and the planes nest: plane j+1 is a subset of plane j.

For k = 2 the planes are exactly the ``lo`` / ``hi`` planes of play.py and the packed
``lo | hi << 24`` int of cards.py (``Hand.mask``), bit for bit: the solver's keys and the
W1/W2 kernels keep their encoding.  The ``uint8[seats, 24]`` counts of the partners' loops and the
dealers convert with :func:`planes_from_counts` / :func:`counts_from_planes`.

Kernels: a table's hands are ``int64[seats, k]``; removing a copy clears the type's bit in
its highest set plane, adding one sets it in the lowest clear plane.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_TYPES, PLANE


@njit(_nrt=False)
def planes_from_counts(counts, k, out):
    """``counts`` uint8[seats, 24] (0..k copies) -> ``out`` int64[seats, k] planes."""
    for s in range(counts.shape[0]):
        for j in range(k):
            out[s, j] = 0
        for t in range(N_TYPES):
            b = np.int64(1) << np.int64(t)
            for j in range(counts[s, t]):
                out[s, j] |= b


@njit(_nrt=False)
def counts_from_planes(planes, out):
    """``planes`` int64[seats, k] -> ``out`` uint8[seats, 24] per-type counts."""
    for s in range(planes.shape[0]):
        for t in range(N_TYPES):
            n = 0
            for j in range(planes.shape[1]):
                n += (planes[s, j] >> np.int64(t)) & 1
            out[s, t] = n


@njit(_nrt=False)
def copies_held(row, t):
    """Copies of type ``t`` in the hand ``row`` (int64[k])."""
    n = 0
    for j in range(row.shape[0]):
        n += (row[j] >> np.int64(t)) & 1
    return n


@njit(_nrt=False)
def remove_copy(row, t):
    """Take one copy of type ``t`` out of ``row`` (int64[k], in place): clear the bit in the
    highest plane holding it (for k = 2: ``hi`` if both copies were held, else ``lo``)."""
    b = np.int64(1) << np.int64(t)
    for j in range(row.shape[0] - 1, -1, -1):
        if row[j] & b:
            row[j] &= ~b
            return


@njit(_nrt=False)
def add_copy(row, t):
    """Put one copy of type ``t`` into ``row`` (int64[k], in place): the lowest clear plane."""
    b = np.int64(1) << np.int64(t)
    for j in range(row.shape[0]):
        if not row[j] & b:
            row[j] |= b
            return


# --------------------------------------------------------------------------- Python helpers

def planes_of_cards(types, k: int) -> np.ndarray:
    """int64[k] planes of a list of card types (copies repeated)."""
    row = np.zeros(k, dtype=np.int64)
    counts = np.bincount(np.asarray(list(types), dtype=np.int64), minlength=N_TYPES)
    if counts.max(initial=0) > k:
        raise ValueError(f"more than {k} copies of a card type")
    for t in range(N_TYPES):
        for j in range(int(counts[t])):
            row[j] |= 1 << t
    return row


def cards_of_planes(row) -> list[int]:
    """The card types of a hand's planes, low type first, copies repeated."""
    return [t for t in range(N_TYPES) for j in range(len(row)) if (int(row[j]) >> t) & 1]


def planes_of_mask(mask: int) -> np.ndarray:
    """int64[2] planes of cards.py's packed two-copy hand ``lo | hi << 24``."""
    mask = int(mask)
    return np.array([mask & ((1 << PLANE) - 1), mask >> PLANE], dtype=np.int64)


def mask_of_planes(row) -> int:
    """cards.py's packed ``lo | hi << 24`` of int64[2] planes (k = 2 only)."""
    if len(row) != 2:
        raise ValueError(f"a packed hand holds two planes, got {len(row)}")
    return int(row[0]) | (int(row[1]) << PLANE)
