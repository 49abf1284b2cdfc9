"""Plain-Python reference of double-deck partnership Pinochle (V6), written straight from
the rules text, for checking the kernels in analyzer/mechanics/pinochle_*.py.

Cards are type ints (cards.py: type = suit * 6 + rank, rank 0 = A strongest .. 4 = J;
no 9s in the 80-card deck, V6.1).  A hand is a list of 24 counts (0..4).  Nothing here
uses bit masks or the kernels' tables.
"""
from __future__ import annotations

A, T, K, Q, J = range(5)
COUNTERS = {"a": (10, 10, 10, 0, 0), "b": (10, 10, 5, 5, 0)}   # V6.5 a) and b)
LAST_TRICK = 20                                                 # V6.5
AROUND = {A: (100, 1000), K: (80, 800), Q: (60, 600), J: (40, 400)}   # V6.3 class B
PINOCHLE = (40, 300)                                            # V6.3 class C
SPADES, DIAMONDS = 1, 3


def suit(t: int) -> int:
    return t // 6


def rank(t: int) -> int:
    return t % 6


def ct(hand, s, r) -> int:
    return hand[s * 6 + r]


def times_value(m: int, single: int, double: int) -> int:
    """V6.3: double = two of each; triple = a double + a single; quadruple = two doubles."""
    return {0: 0, 1: single, 2: double, 3: double + single, 4: 2 * double}[m]


def melds(hand, trump: int) -> int:
    """V6.3: classes A, B, C; a card serves once per class."""
    total = 0
    # class A: k trump flushes score 150 k; trump K-Q not in a flush 40 each; plain K-Q 20
    for s in range(4):
        kings, queens = ct(hand, s, K), ct(hand, s, Q)
        if s == trump:
            flushes = min(ct(hand, s, r) for r in (A, T, K, Q, J))
            total += 150 * flushes
            total += 40 * min(kings - flushes, queens - flushes)
        else:
            total += 20 * min(kings, queens)
    # class B: one of the rank in every suit (no tens)
    for r, (single, double) in AROUND.items():
        total += times_value(min(ct(hand, s, r) for s in range(4)), single, double)
    # class C: Q♠ + J♦
    total += times_value(min(ct(hand, SPADES, Q), ct(hand, DIAMONDS, J)), *PINOCHLE)
    return total


def beats(card: int, winner: int, trump: int) -> bool:
    """Same suit and strictly higher, or a trump on a plain card (V6.4, V1)."""
    if suit(card) == suit(winner):
        return rank(card) < rank(winner)
    return suit(card) == trump


def winner_index(trick: list[int], trump: int) -> int:
    """The first card that no later card beats: of identical copies the first wins."""
    w = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[w], trump):
            w = i
    return w


def legal(hand, trick: list[int], trump: int) -> set[int]:
    """V6.4: follow suit; on a trump lead a trump higher than any in the trick if
    possible; without the led suit, a trump (no overtrump duty); else any card."""
    held = {t for t in range(24) if hand[t] > 0}
    if not trick:
        return held
    led = suit(trick[0])
    same = {t for t in held if suit(t) == led}
    if same:
        if led == trump:
            top = max((c for c in trick if suit(c) == trump), key=lambda c: -rank(c))
            higher = {t for t in same if rank(t) < rank(top)}
            if higher:
                return higher
        return same
    trumps = {t for t in held if suit(t) == trump}
    return trumps if trumps else held


def trick_points(trick: list[int], option: str = "a") -> int:
    return sum(COUNTERS[option][rank(c)] for c in trick)


def score(bid_team: int, bid: int, melds2, points2, counting2) -> tuple[int, int]:
    """V6.6 with V6.3's counting-trick condition; bid_team -1 = thrown in."""
    if bid_team < 0:
        return (0, 0)
    out = []
    for team in range(2):
        m = melds2[team] if counting2[team] else 0
        total = m + points2[team]
        if team == bid_team:
            out.append(total if total >= bid else -bid)
        else:
            out.append(total)
    return tuple(out)


def auction(maxima, min_bid: int = 500, step: int = 10) -> tuple[int, int]:
    """V6.2 with threshold bidders raising minimally: (bidder or -1, bid)."""
    active = [True] * 4
    high, holder = 0, -1
    seat = 0
    while True:
        want = min_bid if high == 0 else high + step
        if want <= maxima[seat]:
            high, holder = want, seat
        else:
            active[seat] = False
        if not any(active) or (sum(active) == 1 and holder >= 0 and active[holder]):
            return (holder, high) if holder >= 0 else (-1, 0)
        seat = (seat + 1) % 4
        while not active[seat]:
            seat = (seat + 1) % 4
