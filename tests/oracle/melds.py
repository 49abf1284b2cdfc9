"""Plain-Python reference meld counter, written straight from RULES.md R5.

It shares nothing with analyzer/mechanics/melds.py or the RuleSet's tables: the R5 values are
copied here from the rule text, and the counting follows the text literally, one
suit / rank / card at a time.  The fast kernels are checked against it.

A hand is 24 counts (0, 1 or 2) in the project's card order: index ``suit * 6 + rank``,
suits C S H D, ranks A 10 K Q J 9 (R1).
"""
from __future__ import annotations

SUITS = "CSHD"
SYMBOLS = "♣♠♥♦"
RANKS = ("A", "10", "K", "Q", "J", "9")

# R5 type F table: (trump, plain)
FAMILY = (150, 100)
DOUBLE_FAMILY = (1500, 1000)
PAIR = (40, 20)
# R5 type Q: one of each suit / all eight copies (instead of the four)
FOUR = {"A": 100, "K": 80, "Q": 60, "J": 40}
EIGHT = 1000
# R5 type B: Q♠ + J♦; both copies of both instead
BINOKEL = 40
DOUBLE_BINOKEL = 300
# R5 type D: each trump nine
TRUMP_NINE = 10


def count(counts, suit: str, rank: str) -> int:
    return int(counts[SUITS.index(suit) * 6 + RANKS.index(rank)])


def suit_melds(counts, suit: str) -> list[tuple[str, tuple[int, int]]]:
    """Type F melds of one suit: [(name, (trump value, plain value)), ...] (R5)."""
    held = {r: count(counts, suit, r) for r in ("A", "10", "K", "Q", "J")}
    # how many complete A-10-K-Q-J runs the suit holds (each needs its own copies)
    families = 0
    while all(v > 0 for v in held.values()):
        families += 1
        for r in held:
            held[r] -= 1
    if families == 2:
        # "double family (both copies of A-10-K-Q-J)": no pairs, nothing is left
        return [("double family", DOUBLE_FAMILY)]
    found = [("family", FAMILY)] if families == 1 else []
    # pairs only from the K and Q not used in the family
    kings, queens = held["K"], held["Q"]
    while kings > 0 and queens > 0:
        found.append(("pair", PAIR))
        kings -= 1
        queens -= 1
    return found


def trump_free_melds(counts) -> list[tuple[str, str, int]]:
    """Types Q and B (they do not depend on trump): [(kind, name, value), ...] (R5)."""
    named = []
    words = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}
    for r, value in FOUR.items():   # tens and nines: no four (R5)
        per_suit = [count(counts, s, r) for s in SUITS]
        if all(c == 2 for c in per_suit):
            named.append(("Q", f"eight {words[r]}", EIGHT))
        elif all(c >= 1 for c in per_suit):
            named.append(("Q", f"four {words[r]}", value))
    qs, jd = count(counts, "S", "Q"), count(counts, "D", "J")
    if qs == 2 and jd == 2:
        named.append(("B", "double binokel", DOUBLE_BINOKEL))
    elif qs >= 1 and jd >= 1:
        named.append(("B", "binokel", BINOKEL))
    return named


def melds_reference(counts, trump: str, _parts=None) -> dict:
    """R5 melds of a hand (24 counts) with ``trump`` in ``'CSHD'``.

    Returns ``{"F": int, "Q": int, "B": int, "D": int, "total": int, "named": [(kind,
    name, value), ...]}`` with names as the API writes them (``"trump family ♠"``,
    ``"pair ♥"``, ``"four aces"``, ``"eight kings"``, ``"binokel"``, ``"double
    binokel"``, ``"trump nine ♠"``).
    """
    per_suit, free = _parts or ([suit_melds(counts, s) for s in SUITS], trump_free_melds(counts))
    named = []
    for s, sym, found in zip(SUITS, SYMBOLS, per_suit):
        is_trump = s == trump
        for name, (trump_value, plain_value) in found:
            named.append(("F", f"{'trump ' if is_trump else ''}{name} {sym}",
                          trump_value if is_trump else plain_value))
    named.extend(free)
    nines = count(counts, trump, "9")
    named.extend([("D", f"trump nine {SYMBOLS[SUITS.index(trump)]}", TRUMP_NINE)] * nines)
    sums = {kind: sum(v for k, _, v in named if k == kind) for kind in "FQBD"}
    sums["total"] = sum(sums.values())
    sums["named"] = named
    return sums


def totals_reference(counts) -> list[int]:
    """The four R5 totals [C, S, H, D] of a hand (24 counts)."""
    parts = ([suit_melds(counts, s) for s in SUITS], trump_free_melds(counts))
    return [melds_reference(counts, s, parts)["total"] for s in SUITS]


def counts_from_codes(text: str) -> list[int]:
    """24 counts from ASCII codes like ``'AS 10S KS'`` (used to state test hands
    without the parser under test)."""
    counts = [0] * 24
    for tok in text.split():
        rank, suit = tok[:-1], tok[-1]
        counts[SUITS.index(suit) * 6 + RANKS.index(rank)] += 1
    return counts
