"""Melds of R5 (V2.3, V2.5, V5.5): the numba kernel over packed hands and the named
breakdown for the API.  Every value comes from the RuleSet (a variant's double family,
eights, grand binokel and Dissle are data, not code).

Type F (families and pairs) is a table look-up per suit: the suit's 6 "holds one" bits
and 6 "holds two" bits index a 4096-entry table built from the RuleSet, one row plain
and one row trump.  Types Q (fours/eights), B (binokel) and D (trump nines) are a few
mask tests.  A trump changes only its own suit's F value and the nines, so all four
trumps cost little more than one.

Two kernels give the same numbers: :func:`meld_all_trumps` reads the RuleSet's
KernelRules directly; :func:`meld_all_trumps_fast` reads :class:`MeldTables` (derived
from the same RuleSet), where each suit's look-up already carries its trump bonus and the
trump nines, and types Q are one more look-up: five loads per hand for all four trumps.
Both are compiled without reference counting (see :func:`trump_free_meld`).

Hands of a deck with four copies per card (V6.1) are counted per card type (``uint8[24]``)
and meld by V6.3's classes A, B, C: :func:`meld_total_counts` / :func:`meld_all_trumps_counts`
(kernels over a compiled meld table), :func:`class_melds` (named) and
:func:`class_meld_report` (``binokel melds --json``).  Their values are the same meld
table's fields (family, pair, fours, eights, binokel).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import (N_RANKS, N_SUITS, N_TYPES, PLANE, RANK_NAMES, SUIT_SYMBOLS,
                                      SUITS, Card, Hand, Hand80, Suit, suit_symbol, type_id)
from analyzer.mechanics.rules import DEFAULT_RULES, PINOCHLE_80, RuleSet, game_kernel
from analyzer.mechanics.sampling import counts_mask

# rank indices (cards.py) of the class-A cards
_A, _T, _K, _Q, _J = range(5)

LO = np.int64((1 << N_TYPES) - 1)


@njit(_nrt=False)
def trump_free_meld(mask, kr):
    """Types Q and B of one packed hand (the part that does not depend on trump), R5.

    Compiled without numba's reference counting (``_nrt=False``: it allocates
    nothing): with it, every call that passes the KernelRules namedtuple increfs and
    decrefs all of its arrays, ~60 ns, fifty times the work itself.
    """
    lo = mask & LO
    hi = mask >> PLANE
    total = 0
    # bit r of ``quad``: rank r held in every suit (the 6-bit suit blocks ANDed); a
    # four is rare, so the per-rank test runs only when there is one
    quad = lo & (lo >> N_RANKS) & (lo >> (2 * N_RANKS)) & (lo >> (3 * N_RANKS)) & 63
    if quad != 0:
        for r in range(N_RANKS):
            if (quad >> r) & 1:
                v4 = kr.fours_value[r]
                if v4 != 0:
                    fm = kr.fours_mask[r]
                    if (hi & fm) == fm:
                        total += kr.eights_value[r]
                    else:
                        total += v4
    bm = kr.binokel_mask
    if (lo & bm) == bm:
        gm = kr.grand_binokel_mask
        if (hi & bm) == bm:
            total += kr.binokel_double
        elif kr.grand_binokel_value != 0 and (lo & gm) == gm:
            total += kr.grand_binokel_value   # V2.5: K♠ Q♠ J♦ in place of the binokel
        else:
            total += kr.binokel_single
    return total


@njit(_nrt=False, inline="llvm")
def meld_all_trumps(mask, kr, out):
    """Meld totals of one packed hand for trumps C, S, H, D into ``out[0:4]`` (R5).

    ``out[s]`` = F (suit s as trump) + Q + B + D (nines of suit s).

    Inlined into every calling kernel, by LLVM (``inline="llvm"``: compiled once, without
    reference counting; numba's IR inlining re-typed it in every caller, issue 28): called
    instead, from the reference-counted kernels of commit a3bb69d, the exchange took 50 us
    per decision instead of 46 us and the meld census 0.90 us per deal instead of 0.53 us.
    :func:`trump_free_meld` is not inlined that way: in a reference-counted caller its
    per-rank reads of the KernelRules arrays would be reference-counted inside the
    caller's loop (the exchange became 2.2x slower).
    """
    lo = mask & LO
    hi = mask >> PLANE
    common = trump_free_meld(mask, kr)
    tab = kr.suit_f_table
    i0 = (lo & 63) | ((hi & 63) << 6)
    i1 = ((lo >> 6) & 63) | (((hi >> 6) & 63) << 6)
    i2 = ((lo >> 12) & 63) | (((hi >> 12) & 63) << 6)
    i3 = ((lo >> 18) & 63) | (((hi >> 18) & 63) << 6)
    p0 = tab[0, i0]
    p1 = tab[0, i1]
    p2 = tab[0, i2]
    p3 = tab[0, i3]
    base = common + p0 + p1 + p2 + p3
    nr = kr.nine_rank
    tv = kr.trump_nine_value
    out[0] = base - p0 + tab[1, i0] + (((i0 >> nr) & 1) + ((i0 >> (nr + 6)) & 1)) * tv
    out[1] = base - p1 + tab[1, i1] + (((i1 >> nr) & 1) + ((i1 >> (nr + 6)) & 1)) * tv
    out[2] = base - p2 + tab[1, i2] + (((i2 >> nr) & 1) + ((i2 >> (nr + 6)) & 1)) * tv
    out[3] = base - p3 + tab[1, i3] + (((i3 >> nr) & 1) + ((i3 >> (nr + 6)) & 1)) * tv


@njit(_nrt=False)
def meld_total(mask, trump, kr):
    """Meld total of one packed hand with trump suit index ``trump`` (R5)."""
    lo = mask & LO
    hi = mask >> PLANE
    total = trump_free_meld(mask, kr)
    for s in range(N_SUITS):
        idx = ((lo >> (6 * s)) & 63) | (((hi >> (6 * s)) & 63) << 6)
        total += kr.suit_f_table[1 if s == trump else 0, idx]
    nine_bit = 6 * trump + kr.nine_rank
    total += (((lo >> nine_bit) & 1) + ((hi >> nine_bit) & 1)) * kr.trump_nine_value
    return total


@njit
def meld_totals(masks, kr):
    """int64[n] packed hands -> int64[n, 4] meld totals for trumps C, S, H, D (R5)."""
    n = masks.shape[0]
    out = np.empty((n, N_SUITS), dtype=np.int64)
    row = np.empty(N_SUITS, dtype=np.int64)
    for i in range(n):
        meld_all_trumps(masks[i], kr, row)
        for s in range(N_SUITS):
            out[i, s] = row[s]
    return out


class MeldTables(NamedTuple):
    """Packed look-up tables for the fastest meld kernel, derived from a RuleSet (R5).

    ``suit[idx]`` for a suit's 12-bit pattern ``idx = lo6 | hi6 << 6`` holds the plain
    type-F value in its low 32 bits and, above them, what naming that suit trump adds:
    (trump F - plain F) + trump nines (type D).  ``quad[ql | qh << 6]`` is the type-Q
    value, where bit r of ``ql`` (``qh``) says rank r is held at least once (twice) in
    every suit.  The binokel fields are those of KernelRules (type B).
    """

    suit: np.ndarray       # int64[4096]
    quad: np.ndarray       # int64[4096]
    binokel_mask: int
    binokel_single: int
    binokel_double: int
    grand_binokel_mask: int    # V2.5 (value 0: no grand binokel)
    grand_binokel_value: int


_TABLES: dict = {}
_LOW32 = np.int64(0xFFFFFFFF)


def meld_tables(rules: RuleSet = DEFAULT_RULES) -> MeldTables:
    """The :class:`MeldTables` of ``rules`` (built once per RuleSet, then cached)."""
    key = hash(rules)
    cached = _TABLES.get(key)
    if cached is not None and cached[0] == rules:
        return cached[1]
    kr = rules.kernel
    suit = np.zeros(1 << 12, dtype=np.int64)
    quad = np.zeros(1 << 12, dtype=np.int64)
    nr = kr.nine_rank
    for idx in range(1 << 12):
        lo, hi = idx & 63, idx >> 6
        plain = int(kr.suit_f_table[0, idx])
        extra = (int(kr.suit_f_table[1, idx]) - plain
                 + (((lo >> nr) & 1) + ((hi >> nr) & 1)) * kr.trump_nine_value)
        if not 0 <= plain < (1 << 31) or abs(extra) >= (1 << 30):
            raise ValueError("meld values too large for the packed meld table")
        suit[idx] = plain + (extra << 32)
        q = 0
        for r in range(N_RANKS):
            if (lo >> r) & 1 and kr.fours_value[r] != 0:   # as trump_free_meld
                q += int(kr.eights_value[r] if (hi >> r) & 1 else kr.fours_value[r])
        quad[idx] = q
    tables = MeldTables(suit, quad, int(kr.binokel_mask), int(kr.binokel_single),
                        int(kr.binokel_double), int(kr.grand_binokel_mask),
                        int(kr.grand_binokel_value))
    _TABLES[key] = (rules, tables)
    return tables


@njit(_nrt=False)
def meld_all_trumps_fast(mask, mt, out):
    """:func:`meld_all_trumps` from :class:`MeldTables`: five look-ups per hand (R5).

    Writes the totals for trumps C, S, H, D into ``out[0:4]``.
    """
    lo = mask & LO
    hi = mask >> PLANE
    ql = lo & (lo >> N_RANKS) & (lo >> (2 * N_RANKS)) & (lo >> (3 * N_RANKS)) & 63
    qh = hi & (hi >> N_RANKS) & (hi >> (2 * N_RANKS)) & (hi >> (3 * N_RANKS)) & 63
    common = mt.quad[ql | (qh << 6)]
    bm = mt.binokel_mask
    if (lo & bm) == bm:
        gm = mt.grand_binokel_mask
        if (hi & bm) == bm:
            common += mt.binokel_double
        elif mt.grand_binokel_value != 0 and (lo & gm) == gm:
            common += mt.grand_binokel_value
        else:
            common += mt.binokel_single
    e0 = mt.suit[(lo & 63) | ((hi & 63) << 6)]
    e1 = mt.suit[((lo >> 6) & 63) | (((hi >> 6) & 63) << 6)]
    e2 = mt.suit[((lo >> 12) & 63) | (((hi >> 12) & 63) << 6)]
    e3 = mt.suit[((lo >> 18) & 63) | (((hi >> 18) & 63) << 6)]
    base = common + (e0 & _LOW32) + (e1 & _LOW32) + (e2 & _LOW32) + (e3 & _LOW32)
    out[0] = base + (e0 >> 32)
    out[1] = base + (e1 >> 32)
    out[2] = base + (e2 >> 32)
    out[3] = base + (e3 >> 32)


@njit
def meld_totals_fast(masks, mt):
    """:func:`meld_totals` with :class:`MeldTables` (same result, faster)."""
    n = masks.shape[0]
    out = np.empty((n, N_SUITS), dtype=np.int64)
    row = np.empty(N_SUITS, dtype=np.int64)
    for i in range(n):
        meld_all_trumps_fast(masks[i], mt, row)
        for s in range(N_SUITS):
            out[i, s] = row[s]
    return out


def meld_table(masks, rules: RuleSet = DEFAULT_RULES) -> np.ndarray:
    """Meld totals of many hands for all four trumps.

    Parameters
    ----------
    masks : array-like of int
        Packed hands (``Hand.mask``).
    rules : RuleSet

    Returns
    -------
    numpy.ndarray
        int64 of shape (n, 4): column s is the R5 total with suit s (C, S, H, D) as trump.
    """
    return meld_totals_fast(np.ascontiguousarray(masks, dtype=np.int64), meld_tables(rules))


@dataclass(frozen=True)
class Meld:
    """One named meld: its R5 type letter, a readable name and its value."""

    kind: str      # 'F', 'Q', 'B' or 'D'
    name: str
    value: int

    def __str__(self) -> str:
        return f"{self.name} {self.value}"


@dataclass(frozen=True)
class Melds:
    """The R5 breakdown of one hand for one trump: totals per type and the named melds."""

    trump: Suit
    families_pairs: int   # type F
    fours: int            # type Q
    binokel: int          # type B
    nines: int            # type D
    melds: tuple[Meld, ...] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        return self.families_pairs + self.fours + self.binokel + self.nines

    def to_dict(self) -> dict:
        return {
            "trump": self.trump.value,
            "families_pairs": self.families_pairs,
            "fours": self.fours,
            "binokel": self.binokel,
            "nines": self.nines,
            "total": self.total,
            "melds": [{"type": m.kind, "name": m.name, "value": m.value} for m in self.melds],
        }

    def __str__(self) -> str:
        names = ", ".join(str(m) for m in self.melds) or "no melds"
        return f"trump {self.trump.symbol}: {names} = {self.total}"


_RANK_WORD = {0: "aces", 2: "kings", 3: "queens", 4: "jacks"}


@njit(_nrt=False)
def discard_dissle(disc, n, trump, kr):
    """V2.3: meld value of the trump low cards (Dissle) among the soloist's ``n``
    discarded card types ``disc``; 0 unless the variant counts them (``dissle_in_discard``)."""
    if kr.dissle_in_discard == 0 or trump < 0:
        return 0
    v = 0
    d = trump * N_RANKS + kr.nine_rank
    for i in range(n):
        if disc[i] == d:
            v += kr.trump_nine_value
    return v


def melds(hand: Hand | str, trump: Suit | str, rules: RuleSet = DEFAULT_RULES,
          discard=None) -> Melds:
    """Name and count the R5 melds of ``hand`` with ``trump`` as the trump suit.

    Parameters
    ----------
    hand : Hand or str
        Any number of cards (the meld rules do not depend on hand size), from the
        variant's deck.
    trump : Suit or str
        ``'C'``, ``'S'``, ``'H'``, ``'D'``, a symbol or a :class:`Suit`.
    rules : RuleSet
        The variant (R5; V2.5 double family 1500 and grand binokel, V5.5 eights and
        double families as two).
    discard : Hand or str, optional
        The soloist's discard: where the variant says so (V2.3) a trump low card (the
        Dissle) melds from there too; no other discarded card melds (R4).

    Returns
    -------
    Melds
        Totals per R5 type (F, Q, B, D), ``total`` and the named melds.
    """
    hand = Hand.parse(hand, rules=rules)
    trump = Suit.parse(trump)
    c = hand.counts
    found: list[Meld] = []
    f_total = 0
    for s in range(N_SUITS):
        is_trump = s == trump.index
        i = 1 if is_trump else 0
        label = ("trump " if is_trump else "") 
        a, t, k, q, j = (c[type_id(s, r)] for r in range(5))
        fam = min(a, t, k, q, j)
        sym = SUITS[s].symbol  # ♠, or Schippen under cards.card_notation("de")
        if fam == 2:
            found.append(Meld("F", f"{label}double family {sym}", rules.double_family[i]))
            pairs = 0
        elif fam == 1:
            found.append(Meld("F", f"{label}family {sym}", rules.family[i]))
            pairs = min(k - 1, q - 1)
        else:
            pairs = min(k, q)
        for _ in range(pairs):
            found.append(Meld("F", f"{label}pair {sym}", rules.pair[i]))
    f_total = sum(m.value for m in found)
    q_total = 0
    for r in range(N_RANKS):
        if rules.fours[r] == 0:
            continue
        n = min(c[type_id(s, r)] for s in range(N_SUITS))
        if n == 2:
            found.append(Meld("Q", f"eight {_RANK_WORD.get(r, RANK_NAMES[r])}", rules.eights[r]))
            q_total += rules.eights[r]
        elif n == 1:
            found.append(Meld("Q", f"four {_RANK_WORD.get(r, RANK_NAMES[r])}", rules.fours[r]))
            q_total += rules.fours[r]
    b = min(c[type_id(s, r)] for s, r in rules.binokel_cards)
    b_total = 0
    if b == 2:
        found.append(Meld("B", "double binokel", rules.binokel[1]))
        b_total = rules.binokel[1]
    elif b == 1 and rules.grand_binokel and c[type_id(1, 2)] >= 1:
        found.append(Meld("B", "grand binokel", rules.grand_binokel))   # V2.5: K♠ Q♠ J♦
        b_total = rules.grand_binokel
    elif b == 1:
        found.append(Meld("B", "binokel", rules.binokel[0]))
        b_total = rules.binokel[0]
    nines = c[type_id(trump.index, 5)] if rules.trump_nine else 0
    d_total = nines * rules.trump_nine
    word = "Dissle" if rules.low_card == "7" else "trump nine"
    for _ in range(nines):
        found.append(Meld("D", f"{word} {trump.symbol}", rules.trump_nine))
    if discard is not None and rules.dissle_in_discard and rules.trump_nine:
        dh = Hand.parse(discard, rules=rules)
        for _ in range(dh.counts[type_id(trump.index, 5)]):
            found.append(Meld("D", f"{word} {trump.symbol} (discarded, V2.3)", rules.trump_nine))
            d_total += rules.trump_nine
    return Melds(trump, f_total, q_total, b_total, d_total, tuple(found))


def meld_report(hand: Hand | str, trump: Suit | str | None = None,
                rules: RuleSet = DEFAULT_RULES) -> dict:
    """The R5 breakdown per trump and the best trump by meld, as ``binokel melds --json``.

    Inputs: a hand (any size) and optionally one trump (default: all four).  Output:
    ``{"hand": codes, "by_trump": [Melds.to_dict(), ...], "best_trump": "S",
    "best_total": 320}``; ties go to the lower suit (C S H D).
    """
    h = Hand.parse(hand, rules=rules)
    suits = [Suit.parse(trump)] if trump else list(Suit)
    results = [melds(h, s, rules) for s in suits]
    best = max(results, key=lambda m: (m.total, -m.trump.index))
    return {"rules": rules.name, "hand": h.codes(rules.low_card),
            "by_trump": [m.to_dict() for m in results],
            "best_trump": best.trump.value, "best_total": best.total}


# --------------------------------------------------------------------------- V6.3: melds by class

# A hand counted per card type (``uint8[24]`` counts 0..4, the 80-card encoding of
# cards.py) melds by V6.3's three classes; a card may serve once in each class:
#
# - A, sequence and marriages: ``f`` = trump flushes A-10-K-Q-J held (min of the five
#   trump counts), ``f * family[trump]``; the trump K-Q left over pair as royal
#   marriages, ``min(k - f, q - f) * pair[trump]``; each plain suit ``min(k, q) * pair[plain]``.
# - B, around: per rank A, K, Q, J, ``m`` = min over the suits; ``(m // 2) * eights[r] +
#   (m % 2) * fours[r]`` (triple = double + single, quadruple = two doubles).
# - C, pinochle (the binokel cards Q♠ + J♦): ``m`` = min of the two counts, valued as in B.
#
# The values are the game's meld table (the RuleSet's melds part); only class A depends
# on trump.  Whether the melds count (a trick holding a counter) is for the scoring.

_CLASS_RANK_WORDS = ("aces", "tens", "kings", "queens", "jacks")


@njit(_nrt=False)
def _repeat_value(m, single, double):
    """Value of a meld held ``m`` times: pairs of them are doubles (V6.3 B, C)."""
    return (m // 2) * double + (m % 2) * single


@njit(_nrt=False)
def trump_free_meld_counts(c, kp):
    """Classes B (arounds) and C (pinochles) of V6.3: the part that does not depend on trump.

    ``c``: uint8[24] counts; ``kp``: a compiled meld table (``ruleset.Kernel`` or the team
    kernel: ``fours_value``, ``eights_value``, ``binokel_q/j``, ``binokel_single/double``).
    Returns the points.
    """
    total = np.int64(0)
    for r in range(5):
        sv = kp.fours_value[r]
        dv = kp.eights_value[r]
        if sv != 0 or dv != 0:
            m = min(min(np.int64(c[r]), np.int64(c[6 + r])),
                    min(np.int64(c[12 + r]), np.int64(c[18 + r])))
            total += _repeat_value(m, sv, dv)
    p = min(np.int64(c[kp.binokel_q]), np.int64(c[kp.binokel_j]))
    total += _repeat_value(p, kp.binokel_single, kp.binokel_double)
    return total


@njit(_nrt=False)
def suit_meld_counts(c, trump, kp):
    """Class A (flushes, royal and plain marriages) of counts ``c`` with ``trump`` (V6.3):
    the trump values ``family[1]``, ``pair[1]``, the plain ``pair[0]`` of ``kp``."""
    total = np.int64(0)
    for s in range(N_SUITS):
        b = 6 * s
        k = np.int64(c[b + _K])
        q = np.int64(c[b + _Q])
        if s == trump:
            f = min(min(min(np.int64(c[b + _A]), np.int64(c[b + _T])), min(k, q)),
                    np.int64(c[b + _J]))
            total += f * kp.family[1] + min(k - f, q - f) * kp.pair[1]
        else:
            total += min(k, q) * kp.pair[0]
    return total


@njit(_nrt=False)
def meld_total_counts(c, trump, kp):
    """Total meld (V6.3 classes A + B + C) of counts ``c`` (uint8[24]) with ``trump``."""
    return suit_meld_counts(c, trump, kp) + trump_free_meld_counts(c, kp)


@njit(_nrt=False)
def meld_all_trumps_counts(c, kp, out):
    """``out[s]`` = :func:`meld_total_counts` with trump ``s``, for s = 0..3 (out: int64[4])."""
    common = trump_free_meld_counts(c, kp)
    for s in range(N_SUITS):
        out[s] = common + suit_meld_counts(c, s, kp)


# the melds of a side: each partner melds alone, the side adds (V4.4, V6.3)

@njit
def side_melds(hands, trump, discard, sol, tk, kr, out):
    """``out[team]`` = both partners' melds with ``trump`` (V4.4), the soloist's incl. the
    trump low cards of its discard where they meld (V2.3)."""
    out[0] = 0
    out[1] = 0
    for p in range(4):
        out[p % 2] += meld_total(counts_mask(hands[p]), trump, kr)
    if sol >= 0:
        out[sol % 2] += discard[6 * trump + tk.low_rank] * tk.dissle_value


@njit(_nrt=False)
def side_melds_counts(hands, trump, kp, out):
    """``out[team]`` = sum of the two partners' melds with ``trump`` (V6.3)."""
    out[0] = meld_total_counts(hands[0], trump, kp) + meld_total_counts(hands[2], trump, kp)
    out[1] = meld_total_counts(hands[1], trump, kp) + meld_total_counts(hands[3], trump, kp)


@dataclass(frozen=True)
class ClassMeld:
    """One named meld: its class (A, B or C of V6.3), name, points and how many times."""

    cls: str
    name: str
    times: int
    points: int


def class_melds(hand, trump, rules: RuleSet = PINOCHLE_80) -> list[ClassMeld]:
    """The melds of a hand counted per card type with ``trump`` (suit index 0..3), named
    by V6.3's classes; the values are ``rules``' meld table (``family``, ``pair``,
    ``fours``, ``eights``, ``binokel`` and its cards).

    ``hand``: a :class:`Hand80` or card text.  The points add up to :func:`meld_total_counts`.
    """
    h = Hand80.parse(hand)
    c = h.counts
    out: list[ClassMeld] = []
    sym = [suit_symbol(s) for s in range(N_SUITS)]   # German names with --cards de
    times = {1: "", 2: "double ", 3: "triple ", 4: "quadruple "}
    flush, royal, marriage = int(rules.family[1]), int(rules.pair[1]), int(rules.pair[0])
    for s in range(N_SUITS):
        k, q = c[type_id(s, _K)], c[type_id(s, _Q)]
        if s == trump:
            f = min(c[type_id(s, r)] for r in range(5))
            if f:
                out.append(ClassMeld("A", f"flush {sym[s]}", f, f * flush))
            m = min(k - f, q - f)
            if m:
                out.append(ClassMeld("A", f"royal marriage {sym[s]}", m, m * royal))
        else:
            m = min(k, q)
            if m:
                out.append(ClassMeld("A", f"marriage {sym[s]}", m, m * marriage))
    for r in range(5):
        sv, dv = int(rules.fours[r]), int(rules.eights[r])
        if not (sv or dv):
            continue
        m = min(c[type_id(s, r)] for s in range(N_SUITS))
        if m:
            out.append(ClassMeld("B", f"{times[m]}{_CLASS_RANK_WORDS[r]} around", m,
                                 (m // 2) * dv + (m % 2) * sv))
    (qs, qr), (js, jr) = rules.binokel_cards
    qt, jt = type_id(qs, qr), type_id(js, jr)
    single, double = int(rules.binokel[0]), int(rules.binokel[1])
    m = min(c[qt], c[jt])
    if m:
        out.append(ClassMeld("C", f"{times[m]}pinochle {Card(qt)} {Card(jt)}", m,
                             (m // 2) * double + (m % 2) * single))
    return out


def class_meld_total(hand, trump, rules: RuleSet = PINOCHLE_80) -> int:
    """Meld points of ``hand`` with ``trump`` through the kernel (V6.3)."""
    h = Hand80.parse(hand)
    return int(meld_total_counts(h.counts_array(), int(trump), game_kernel(rules)))


def class_meld_report(hand, trump=None, rules: RuleSet = PINOCHLE_80) -> dict:
    """``binokel melds --json`` for an 80-card hand (and the web API's ``/api/melds``):
    per trump (``trump``: one suit's letter, or None for all four) its total and named
    melds by V6.3's classes.

    Raises BinokelError (one line) on a hand of the wrong size or a fifth copy.
    """
    h = Hand80.parse(hand, size=rules.hand_size)
    suits = [Suit.parse(trump)] if trump is not None else list(SUITS)
    rows = []
    for s in suits:
        ms = class_melds(h, s.index, rules)
        rows.append({"trump": s.value, "total": sum(m.points for m in ms),
                     "melds": [{"class": m.cls, "name": m.name, "times": m.times,
                                "points": m.points} for m in ms]})
    return {"rules": rules.name, "hand": h.codes(rules.low_card), "by_trump": rows}
