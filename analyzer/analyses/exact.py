"""Exact meld probabilities by combinatorics over the variant's deck (R1, R2, R5; V5.1, V6.1).

The deck is the RuleSet's: the 48 cards of binokel-48 and the grupp games, the 40 of
binokel-40 (no rank-5 type: its count is always 0), or the 80 of pinochle-80 (four
copies of each of 20 types, V6.1).  Hand sizes are the caller's (15 and 18 for the
48-card games, 12 and 16 in binokel-40, 20 in pinochle-80).

A hand of ``h`` cards is a uniformly random ``h``-subset of the 48 physical cards (R2:
the 15/15/15/3 deal gives every seat such a subset; forehand + Tapp is an 18-subset).
Each of the 24 card types has 2 copies, so a hand holding ``c`` copies of a type can be
chosen in ``C(2, c)`` ways: the number of hands with per-type counts in given sets is
the coefficient of ``x**h`` in the product over types of ``sum_c C(2, c) x**c`` (a
multivariate hypergeometric count).  Everything here is integer arithmetic and returns
:class:`fractions.Fraction`, so "exact" means exact.

The statistics are the ones the batch runs count (analyzer/batch/runs.py), under the same
metric names, so a report can put exact values beside Monte Carlo estimates:
``<p>.family.<suit>``, ``<p>.pairs.<suit>``, ``<p>.rank.<rank>``, ``<p>.binokel``,
``<p>.nines.<suit>``, ``<p>.pairs_total``, ``<p>.families_total`` (``p`` = ``h15`` or
``h18``) and ``tapp.points``.

With four copies per type a hand holding ``c`` copies is chosen in ``C(4, c)`` ways, the
same product otherwise.  A meld held ``m`` times (V6.3 class B around, class C pinochle,
class A flushes of one suit) is ``m = min`` of the counts of its cards;
:func:`times_distribution` gives ``P(m = k)`` for k = 0..copies exactly, and
:func:`class_meld_census` is the Monte Carlo counterpart on the 80-card deck (a numba
kernel over random deals) for the events of :data:`CLASS_MELD_TYPES`, shown side by side.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb, sqrt
from typing import Callable, Iterable, Mapping

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_RANKS, N_SUITS, N_TYPES, RANK_NAMES, SUIT_LETTERS, type_id
from analyzer.errors import BinokelError
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, PINOCHLE_80, RuleSet, game_kernel, team_spec
from analyzer.mechanics.sampling import deal_counts

N_CARDS = 48
_WAYS = (1, 2, 1)  # C(2, c): ways to hold c of a type's two copies (the suit tables below)
_A, _T, _K, _Q, _J = range(5)
_C, _S, _H, _D = range(4)


def _polymul(a: list[int], b: list[int], cap: int) -> list[int]:
    out = [0] * min(len(a) + len(b) - 1, cap + 1)
    for i, x in enumerate(a):
        if x == 0:
            continue
        for j, y in enumerate(b):
            if i + j > cap:
                break
            out[i + j] += x * y
    return out


def _check_size(hand_size: int, rules: RuleSet = DEFAULT_RULES) -> None:
    if not 0 <= hand_size <= rules.n_cards:
        raise BinokelError(f"hand size must be 0..{rules.n_cards}, got {hand_size}")


def _copies(rules: RuleSet) -> int:
    """Copies of each card type in the deck (R1: 2; V6.1: 4)."""
    return int(game_kernel(rules).k)


def _ways(t: int, rules: RuleSet) -> tuple[int, ...]:
    """C(copies of t, c) for c = 0..copies: a type the deck lacks (V5.1, V6.1) is held 0 times."""
    k = int(game_kernel(rules).copies[t])
    return tuple(comb(k, c) for c in range(_copies(rules) + 1))


def count_hands(allowed: Mapping[int, Iterable[int]], hand_size: int = 15,
                rules: RuleSet = DEFAULT_RULES) -> int:
    """Number of ``hand_size``-subsets of the deck's cards whose count of each type ``t``
    in ``allowed`` lies in ``allowed[t]`` (types not named are free; a type the deck
    lacks is held 0 times)."""
    _check_size(hand_size, rules)
    kmax = _copies(rules)
    counts = set(range(kmax + 1))
    poly = [1]
    for t in range(N_TYPES):
        cs = set(allowed.get(t, counts))
        if not cs <= counts:
            words = ", ".join(str(c) for c in range(kmax)) + f" or {kmax}"
            raise BinokelError(f"counts of a card type are {words}, got {sorted(cs)}")
        w = _ways(t, rules)
        poly = _polymul(poly, [w[c] if c in cs else 0 for c in range(kmax + 1)], hand_size)
    return poly[hand_size] if hand_size < len(poly) else 0


def prob_types(allowed: Mapping[int, Iterable[int]], hand_size: int = 15,
               rules: RuleSet = DEFAULT_RULES) -> Fraction:
    """P(the count of every type ``t`` in ``allowed`` lies in ``allowed[t]``), exactly."""
    return Fraction(count_hands(allowed, hand_size, rules), comb(rules.n_cards, hand_size))


def times_distribution(types: list[int], hand_size: int = 15,
                       rules: RuleSet = DEFAULT_RULES) -> dict[int, Fraction]:
    """Exact distribution of ``min(count of t for t in types)`` (0..copies): how many times
    a meld made of one copy of each of ``types`` is held (R5 fours and binokel, V6.3)."""
    kmax = _copies(rules)
    ge = [prob_types({t: range(k, kmax + 1) for t in types}, hand_size, rules)
          for k in range(kmax + 1)] + [Fraction(0)]
    return {k: ge[k] - ge[k + 1] for k in range(kmax + 1)}


def suit_family_pairs(counts6: tuple[int, ...]) -> tuple[int, int]:
    """(family level, K-Q pairs) of one suit's counts (A, 10, K, Q, J, 9), R5's Reading."""
    a, t, k, q, j = counts6[:5]
    f = min(a, t, k, q, j)
    pairs = 0 if f == 2 else (min(k - 1, q - 1) if f == 1 else min(k, q))
    return f, pairs


@lru_cache(maxsize=None)
def _suit_tables(stat_name: str, low: bool = True) -> tuple[tuple[int, int, int], ...]:
    """(cards in suit, statistic, ways) over the count patterns of one suit (3**6, or
    3**5 with the low card's count 0 when the deck has none, V5.1)."""
    stat = _SUIT_STATS[stat_name]
    rows: dict[tuple[int, int], int] = {}
    for counts in product(range(3), repeat=N_RANKS):
        if not low and counts[N_RANKS - 1] != 0:
            continue
        ways = 1
        for c in counts:
            ways *= _WAYS[c]
        key = (sum(counts), stat(counts))
        rows[key] = rows.get(key, 0) + ways
    return tuple((n, s, w) for (n, s), w in sorted(rows.items()))


_SUIT_STATS: dict[str, Callable[[tuple[int, ...]], int]] = {
    "family": lambda c: suit_family_pairs(c)[0],
    "pairs": lambda c: suit_family_pairs(c)[1],
    "has_family": lambda c: 1 if suit_family_pairs(c)[0] > 0 else 0,
    "nines": lambda c: c[5],
}


def suit_stat_distribution(stat_name: str, hand_size: int = 15,
                           rules: RuleSet = DEFAULT_RULES) -> dict[int, Fraction]:
    """Exact distribution of a statistic of ONE suit's counts (the other cards free)."""
    _check_size(hand_size, rules)
    n_cards = rules.n_cards
    suit_cards = n_cards // N_SUITS
    total = comb(n_cards, hand_size)
    dist: dict[int, int] = {}
    for n, s, w in _suit_tables(stat_name, rules.has_low_card):
        if n <= hand_size:
            dist[s] = dist.get(s, 0) + w * comb(n_cards - suit_cards, hand_size - n)
    return {s: Fraction(c, total) for s, c in sorted(dist.items()) if c}


def suit_sum_distribution(stat_name: str, hand_size: int = 15,
                          rules: RuleSet = DEFAULT_RULES) -> dict[int, Fraction]:
    """Exact distribution of the SUM over the four suits of a per-suit statistic.

    Dynamic programme over suits with state (cards so far, statistic so far)."""
    _check_size(hand_size, rules)
    state = {(0, 0): 1}
    for _ in range(N_SUITS):
        new: dict[tuple[int, int], int] = {}
        for (n0, s0), w0 in state.items():
            for n, s, w in _suit_tables(stat_name, rules.has_low_card):
                if n0 + n <= hand_size:
                    key = (n0 + n, s0 + s)
                    new[key] = new.get(key, 0) + w0 * w
        state = new
    total = comb(rules.n_cards, hand_size)
    dist: dict[int, int] = {}
    for (n, s), w in state.items():
        if n == hand_size:
            dist[s] = dist.get(s, 0) + w
    return {s: Fraction(c, total) for s, c in sorted(dist.items())}


def points_distribution(n_cards: int = 3, rules: RuleSet = DEFAULT_RULES) -> dict[int, Fraction]:
    """Exact distribution of the card points (R1) of ``n_cards`` random cards (the Tapp)."""
    _check_size(n_cards, rules)
    # bivariate generating function: cards counted by degree, points by key
    poly: dict[tuple[int, int], int] = {(0, 0): 1}
    for t in range(N_TYPES):
        p = rules.card_points[t % N_RANKS]
        ways = _ways(t, rules)
        new: dict[tuple[int, int], int] = {}
        for (n, s), w in poly.items():
            for c in range(len(ways)):
                if n + c <= n_cards and ways[c]:
                    key = (n + c, s + c * p)
                    new[key] = new.get(key, 0) + w * ways[c]
        poly = new
    total = comb(rules.n_cards, n_cards)
    return {s: Fraction(w, total) for (n, s), w in sorted(poly.items(), key=lambda x: x[0][1])
            if n == n_cards}


def exact_table(hand_size: int = 15, rules: RuleSet = DEFAULT_RULES,
                prefix: str | None = None) -> dict[tuple[str, int], Fraction]:
    """Every exactly computable census probability for a ``hand_size``-card hand.

    Returns
    -------
    dict
        ``(metric, bin) -> Fraction`` with the metric names of analyzer/batch/runs.py
        (prefix ``h<hand_size>`` unless given), plus ``tapp.points`` for the Tapp.
    """
    prefix = prefix or f"h{hand_size}"
    out: dict[tuple[str, int], Fraction] = {}

    def put(metric: str, dist: Mapping[int, Fraction]) -> None:
        for b, p in dist.items():
            out[(metric, int(b))] = p

    fam = suit_stat_distribution("family", hand_size, rules)
    pairs = suit_stat_distribution("pairs", hand_size, rules)
    nines = suit_stat_distribution("nines", hand_size, rules)
    for s in SUIT_LETTERS:  # suits are exchangeable
        put(f"{prefix}.family.{s}", fam)
        put(f"{prefix}.pairs.{s}", pairs)
        put(f"{prefix}.nines.{s}", nines)
    for r, name in enumerate(RANK_NAMES):
        put(f"{prefix}.rank.{name}", times_distribution([type_id(s, r) for s in range(N_SUITS)],
                                                  hand_size, rules))
    put(f"{prefix}.binokel", times_distribution([type_id(s, r) for s, r in rules.binokel_cards],
                                          hand_size, rules))
    put(f"{prefix}.pairs_total", suit_sum_distribution("pairs", hand_size, rules))
    put(f"{prefix}.families_total", suit_sum_distribution("has_family", hand_size, rules))
    put("tapp.points", points_distribution(rules.tapp_size, rules))
    return out


def named_probabilities(hand_size: int = 15, rules: RuleSet = DEFAULT_RULES) -> dict[str, Fraction]:
    """The headline events, by readable name (R5), for a ``hand_size``-card hand."""
    t = exact_table(hand_size, rules, prefix="h")
    g = lambda m, b: t.get((m, b), Fraction(0))  # noqa: E731
    return {
        "binokel (exactly one)": g("h.binokel", 1),
        "double binokel": g("h.binokel", 2),
        "binokel or double": g("h.binokel", 1) + g("h.binokel", 2),
        "four aces (not eight)": g("h.rank.A", 1),
        "eight aces": g("h.rank.A", 2),
        "four kings (not eight)": g("h.rank.K", 1),
        "four queens (not eight)": g("h.rank.Q", 1),
        "four jacks (not eight)": g("h.rank.J", 1),
        "family in a given suit (single)": g("h.family.C", 1),
        "double family in a given suit": g("h.family.C", 2),
        "K-Q pair counted in a given suit (>= 1)": 1 - g("h.pairs.C", 0),
        "both nines of a given suit": g("h.nines.C", 2),
        "at least one family": 1 - g("h.families_total", 0),
    }


# --------------------------------------------------------------------------- V6.3: melds by class

#: the melds of the class census (V6.3), by name: the card types of one copy of the meld
CLASS_MELD_TYPES = {
    "aces around": [type_id(s, _A) for s in range(4)],
    "kings around": [type_id(s, _K) for s in range(4)],
    "queens around": [type_id(s, _Q) for s in range(4)],
    "jacks around": [type_id(s, _J) for s in range(4)],
    "pinochle": [type_id(_S, _Q), type_id(_D, _J)],
    "flush in a given suit": [type_id(_C, r) for r in range(5)],
    "marriage in a given suit": [type_id(_C, _K), type_id(_C, _Q)],
}


def named_class_probabilities(hand_size: int | None = None,
                              rules: RuleSet = PINOCHLE_80) -> dict[str, Fraction]:
    """Headline events of a hand (``hand_size``: the game's, 20 in V6.1), exactly, by
    V6.3's names: each meld of :data:`CLASS_MELD_TYPES` at least once and twice, double
    aces and double pinochle exactly twice."""
    n = rules.hand_size if hand_size is None else hand_size
    out: dict[str, Fraction] = {}
    for name, types in CLASS_MELD_TYPES.items():
        d = times_distribution(types, n, rules)
        out[f"{name} (at least once)"] = 1 - d[0]
        out[f"double {name} (at least twice)"] = 1 - d[0] - d[1]
    out["double aces (exactly twice)"] = times_distribution(CLASS_MELD_TYPES["aces around"], n, rules)[2]
    out["double pinochle (exactly twice)"] = times_distribution(CLASS_MELD_TYPES["pinochle"], n, rules)[2]
    return out


@njit
def _class_census(n, state, deck, groups, out):
    """For ``n`` random deals, count per seat the times each meld of ``groups`` is held.

    ``groups`` int64[G, 5]: card types of a meld, -1 padded; ``out`` int64[G, 5]:
    ``out[g, k]`` += hands holding meld g exactly k times (4 hands per deal)."""
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    for _ in range(n):
        deal_counts(state, deck, cnt, deck.shape[0] // 4)     # four hands, no Dabb (V6.1)
        for p in range(4):
            for g in range(groups.shape[0]):
                m = 4
                for j in range(5):
                    t = groups[g, j]
                    if t >= 0 and cnt[p, t] < m:
                        m = cnt[p, t]
                out[g, m] += 1


def class_meld_census(deals: int, seed: int = 0) -> dict[str, dict]:
    """Monte Carlo of :data:`CLASS_MELD_TYPES` on the 80-card deck (V6.1, 4 hands of 20):
    per meld, P(held at least once / twice) from ``4 * deals`` hands (the four hands of a
    deal are dependent; the SE below treats them as independent, which slightly overstates
    precision for rare events), with the exact value beside it."""
    if not 1 <= deals <= 10_000_000:
        raise BinokelError(f"deals must be between 1 and 10000000, got {deals}")
    names = list(CLASS_MELD_TYPES)
    groups = np.full((len(names), 5), -1, dtype=np.int64)
    for g, name in enumerate(names):
        groups[g, :len(CLASS_MELD_TYPES[name])] = CLASS_MELD_TYPES[name]
    out = np.zeros((len(names), 5), dtype=np.int64)
    _class_census(int(deals), chunk_state(seed, 0), team_spec(PINOCHLE_80).deck.copy(), groups, out)
    res = {}
    hands = 4 * deals
    for g, name in enumerate(names):
        exact = times_distribution(CLASS_MELD_TYPES[name], PINOCHLE_80.hand_size, PINOCHLE_80)
        for label, k in (("at least once", 1), ("at least twice", 2)):
            p = out[g, k:].sum() / hands
            res[f"{name} ({label})"] = {
                "mc": float(p), "se": float(sqrt(p * (1 - p) / hands)), "n_hands": hands,
                "exact": float(sum(exact[j] for j in range(k, 5)))}
    return res
