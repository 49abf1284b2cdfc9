"""Exact meld probabilities by combinatorics over the variant's deck (R1, R2, R5; V5.1).

The deck is the RuleSet's: the 48 cards of binokel-48 and the grupp games, or the 40 of
binokel-40 (no rank-5 type: its count is always 0).  Hand sizes are the caller's (15 and
18 for the 48-card games, 12 and 16 in binokel-40).

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
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb
from typing import Callable, Iterable, Mapping

from analyzer.mechanics.cards import N_RANKS, N_SUITS, N_TYPES, RANK_NAMES, SUIT_LETTERS, type_id
from analyzer.errors import BinokelError
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet

N_CARDS = 48
_WAYS = (1, 2, 1)  # C(2, c): ways to hold c of a type's two copies


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


def _ways(t: int, rules: RuleSet) -> tuple[int, ...]:
    """C(copies, c) for c = 0, 1, 2: a type the deck lacks (V5.1) is held 0 times."""
    return _WAYS if rules.in_deck(t) else (1, 0, 0)


def count_hands(allowed: Mapping[int, Iterable[int]], hand_size: int = 15,
                rules: RuleSet = DEFAULT_RULES) -> int:
    """Number of ``hand_size``-subsets of the deck's cards whose count of each type ``t``
    in ``allowed`` lies in ``allowed[t]`` (types not named are free)."""
    _check_size(hand_size, rules)
    poly = [1]
    for t in range(N_TYPES):
        cs = set(allowed.get(t, (0, 1, 2)))
        if not cs <= {0, 1, 2}:
            raise BinokelError(f"counts of a card type are 0, 1 or 2, got {sorted(cs)}")
        w = _ways(t, rules)
        poly = _polymul(poly, [w[c] if c in cs else 0 for c in range(3)], hand_size)
    return poly[hand_size] if hand_size < len(poly) else 0


def prob_types(allowed: Mapping[int, Iterable[int]], hand_size: int = 15,
               rules: RuleSet = DEFAULT_RULES) -> Fraction:
    """P(the count of every type ``t`` in ``allowed`` lies in ``allowed[t]``), exactly."""
    return Fraction(count_hands(allowed, hand_size, rules), comb(rules.n_cards, hand_size))


def _level_probs(types: list[int], hand_size: int,
                 rules: RuleSet = DEFAULT_RULES) -> dict[int, Fraction]:
    """Distribution of min(count of t for t in types): 0, 1 or 2."""
    ge1 = prob_types({t: (1, 2) for t in types}, hand_size, rules)
    eq2 = prob_types({t: (2,) for t in types}, hand_size, rules)
    return {0: 1 - ge1, 1: ge1 - eq2, 2: eq2}


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
            for c in range(3):
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
        put(f"{prefix}.rank.{name}", _level_probs([type_id(s, r) for s in range(N_SUITS)],
                                                  hand_size, rules))
    put(f"{prefix}.binokel", _level_probs([type_id(s, r) for s, r in rules.binokel_cards],
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
