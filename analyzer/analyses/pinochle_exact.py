"""Exact meld probabilities for 20-card hands of the 80-card deck (V6.1, V6.3).

A Pinochle hand is a uniformly random 20-subset of the 80 physical cards (V6.1: 20
each, no widow).  Each of the 20 types has 4 copies, so a hand holding ``c`` copies of a
type can be chosen in ``C(4, c)`` ways, and the number of hands whose per-type counts lie
in given sets is the coefficient of ``x**20`` in the product over types of
``sum_c C(4, c) x**c`` (multivariate hypergeometric).  Integer arithmetic, results are
:class:`fractions.Fraction`.

A meld held ``m`` times (V6.3 class B around, class C pinochle, class A flushes of one
suit) is ``m = min`` of the counts of its cards; :func:`times_distribution` gives
``P(m = k)`` for k = 0..4 exactly.  :func:`census80` is the Monte Carlo counterpart (a
numba kernel over random deals) for the same events, so both can be shown side by side.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb, sqrt
from typing import Iterable, Mapping

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import COPIES80, DECK80_TYPES, N_CARDS80, N_TYPES, type_id
from analyzer.mechanics.team_play import deal80, new_deck80
from analyzer.mechanics.rng import chunk_state

HAND80 = 20
_A, _T, _K, _Q, _J = range(5)
_C, _S, _H, _D = range(4)


def _polymul(a: list[int], b: list[int], cap: int) -> list[int]:
    out = [0] * min(len(a) + len(b) - 1, cap + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if i + j > cap:
                    break
                out[i + j] += x * y
    return out


def count_hands80(allowed: Mapping[int, Iterable[int]], hand_size: int = HAND80) -> int:
    """Number of ``hand_size``-subsets of the 80 cards whose count of each type ``t`` in
    ``allowed`` lies in ``allowed[t]`` (types not named are free)."""
    if not 0 <= hand_size <= N_CARDS80:
        raise BinokelError(f"hand size must be 0..80, got {hand_size}")
    poly = [1]
    for t in DECK80_TYPES:
        cs = set(allowed.get(t, range(COPIES80 + 1)))
        if not cs <= set(range(COPIES80 + 1)):
            raise BinokelError(f"counts of a card type are 0..4 in the 80-card deck, got {sorted(cs)}")
        poly = _polymul(poly, [comb(COPIES80, c) if c in cs else 0 for c in range(COPIES80 + 1)],
                        hand_size)
    for t in allowed:
        if t not in DECK80_TYPES:
            raise BinokelError(f"card type {t} is not in the 80-card deck")
    return poly[hand_size] if hand_size < len(poly) else 0


def prob80(allowed: Mapping[int, Iterable[int]], hand_size: int = HAND80) -> Fraction:
    """P(every type ``t`` in ``allowed`` has a count in ``allowed[t]``), exactly."""
    return Fraction(count_hands80(allowed, hand_size), comb(N_CARDS80, hand_size))


def times_distribution(types: list[int], hand_size: int = HAND80) -> dict[int, Fraction]:
    """Exact distribution of ``min(count of t for t in types)`` (0..4): how many times a
    meld made of one copy of each of ``types`` is held (V6.3)."""
    ge = [prob80({t: range(k, COPIES80 + 1) for t in types}, hand_size) for k in range(COPIES80 + 2)]
    ge[COPIES80 + 1] = Fraction(0)
    return {k: ge[k] - ge[k + 1] for k in range(COPIES80 + 1)}


#: the melds of the census, by name: the card types of one copy of the meld
MELD_TYPES80 = {
    "aces around": [type_id(s, _A) for s in range(4)],
    "kings around": [type_id(s, _K) for s in range(4)],
    "queens around": [type_id(s, _Q) for s in range(4)],
    "jacks around": [type_id(s, _J) for s in range(4)],
    "pinochle": [type_id(_S, _Q), type_id(_D, _J)],
    "flush in a given suit": [type_id(_C, r) for r in range(5)],
    "marriage in a given suit": [type_id(_C, _K), type_id(_C, _Q)],
}


def named_probabilities80(hand_size: int = HAND80) -> dict[str, Fraction]:
    """Headline events of a 20-card hand, exactly (V6.3 names)."""
    out: dict[str, Fraction] = {}
    for name, types in MELD_TYPES80.items():
        d = times_distribution(types, hand_size)
        out[f"{name} (at least once)"] = 1 - d[0]
        out[f"double {name} (at least twice)"] = 1 - d[0] - d[1]
    out["double aces (exactly twice)"] = times_distribution(MELD_TYPES80["aces around"], hand_size)[2]
    out["double pinochle (exactly twice)"] = times_distribution(MELD_TYPES80["pinochle"], hand_size)[2]
    return out


# --------------------------------------------------------------------------- Monte Carlo

@njit
def _census80(n, state, deck, groups, out):
    """For ``n`` random deals, count per seat the times each meld of ``groups`` is held.

    ``groups`` int64[G, 5]: card types of a meld, -1 padded; ``out`` int64[G, 5]:
    ``out[g, k]`` += hands holding meld g exactly k times (4 hands per deal)."""
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    for _ in range(n):
        deal80(state, deck, cnt)
        for p in range(4):
            for g in range(groups.shape[0]):
                m = 4
                for j in range(5):
                    t = groups[g, j]
                    if t >= 0 and cnt[p, t] < m:
                        m = cnt[p, t]
                out[g, m] += 1


def census80(deals: int, seed: int = 0) -> dict[str, dict]:
    """Monte Carlo of :data:`MELD_TYPES80`: per meld, P(held at least once / twice) from
    ``4 * deals`` hands (the four hands of a deal are dependent; the SE below treats them
    as independent, which slightly overstates precision for rare events), with the exact
    value beside it."""
    if not 1 <= deals <= 10_000_000:
        raise BinokelError(f"deals must be between 1 and 10000000, got {deals}")
    names = list(MELD_TYPES80)
    groups = np.full((len(names), 5), -1, dtype=np.int64)
    for g, name in enumerate(names):
        groups[g, :len(MELD_TYPES80[name])] = MELD_TYPES80[name]
    out = np.zeros((len(names), 5), dtype=np.int64)
    _census80(int(deals), chunk_state(seed, 0), new_deck80(), groups, out)
    res = {}
    hands = 4 * deals
    for g, name in enumerate(names):
        exact = times_distribution(MELD_TYPES80[name])
        for label, k in (("at least once", 1), ("at least twice", 2)):
            p = out[g, k:].sum() / hands
            res[f"{name} ({label})"] = {
                "mc": float(p), "se": float(sqrt(p * (1 - p) / hands)), "n_hands": hands,
                "exact": float(sum(exact[j] for j in range(k, 5)))}
    return res
