"""Plain-Python reference of card play (R6, R7), written straight from RULES.md.

Cards are type ints (cards.py encoding: type = suit * 6 + rank, rank 0 = A strongest,
5 = 9 weakest, R1).  Hands are lists of 24 counts.  Nothing here uses bit tricks or the
kernels' tables, so the kernels in analyzer/play.py can be checked against it.
"""
from __future__ import annotations

CARD_POINTS = (11, 10, 4, 3, 2, 0)   # R1: A 10 K Q J 9
LAST_TRICK_BONUS = 10                 # R7


def suit(t: int) -> int:
    return t // 6


def rank(t: int) -> int:
    return t % 6


def points(t: int) -> int:
    return CARD_POINTS[rank(t)]


def beats(card: int, winner: int, trump: int | None) -> bool:
    """R6: same suit and strictly higher rank, or a trump on a non-trump."""
    if suit(card) == suit(winner):
        return rank(card) < rank(winner)   # lower rank index = higher card; equal copy never
    return trump is not None and suit(card) == trump and suit(winner) != trump


def trick_winner(trick: list[int], trump: int | None) -> int:
    """Index of the winning card: the first card that no later card beats (R6)."""
    w = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[w], trump):
            w = i
    return w


def legal_cards(hand: list[int], trick: list[int], trump: int | None) -> set[int]:
    """Legal card types for the next player (R6), checking the obligations in order."""
    held = {t for t in range(24) if hand[t] > 0}
    if not trick:
        return held
    led = suit(trick[0])
    winner = trick[trick_winner(trick, trump)]
    same = {t for t in held if suit(t) == led}
    if same:
        beating = {t for t in same if beats(t, winner, trump)}
        return beating or same
    if trump is not None:
        trumps = {t for t in held if suit(t) == trump}
        if trumps:
            if suit(winner) == trump:
                over = {t for t in trumps if beats(t, winner, trump)}
                return over or trumps
            return trumps
    return held


class ReplayError(AssertionError):
    pass


def replay(hands: list[list[int]], trump: int | None, leader: int, soloist: int | None,
           cards: list[int]) -> dict:
    """Replay a deal given the cards in play order; check every card is legal.

    Returns a dict with ``legal`` (the legal set before each play, a list of sets),
    ``tricks`` (leader, cards, winner seat, points per trick), ``points`` and
    ``tricks_won`` per seat.  A Durch (trump None with a soloist) stops at the first
    trick won by another seat (R4).
    """
    hands = [list(h) for h in hands]
    n_tricks = sum(hands[0])
    pts = [0, 0, 0]
    won = [0, 0, 0]
    legal_sets = []
    tricks = []
    pos = 0
    ld = leader
    for tr in range(n_tricks):
        trick: list[int] = []
        for k in range(3):
            seat = (ld + k) % 3
            legal = legal_cards(hands[seat], trick, trump)
            legal_sets.append(legal)
            if pos >= len(cards):
                raise ReplayError("ran out of cards")
            c = cards[pos]
            pos += 1
            if c not in legal:
                raise ReplayError(f"illegal card {c} for seat {seat} (legal {sorted(legal)})")
            hands[seat][c] -= 1
            trick.append(c)
        w = (ld + trick_winner(trick, trump)) % 3
        p = sum(points(c) for c in trick) + (LAST_TRICK_BONUS if tr == n_tricks - 1 else 0)
        pts[w] += p
        won[w] += 1
        tricks.append((ld, tuple(trick), w, p))
        ld = w
        if trump is None and soloist is not None and w != soloist:
            break
    return {"legal": legal_sets, "tricks": tricks, "points": pts, "tricks_won": won,
            "hands_left": hands}


def random_playout(hands: list[list[int]], trump: int | None, leader: int,
                   soloist: int | None, draw) -> dict:
    """Play with the random policy: ``draw(n)`` -> uniform int in [0, n); the card is the
    k-th of the distinct legal types in increasing type order (as the kernel does; one
    draw per card, also when a single type is legal)."""
    hands = [list(h) for h in hands]
    n_tricks = sum(hands[0])
    cards: list[int] = []
    ld = leader
    start = [list(h) for h in hands]
    for tr in range(n_tricks):
        trick: list[int] = []
        for k in range(3):
            seat = (ld + k) % 3
            legal = sorted(legal_cards(hands[seat], trick, trump))
            c = legal[draw(len(legal))]
            hands[seat][c] -= 1
            trick.append(c)
            cards.append(c)
        w = (ld + trick_winner(trick, trump)) % 3
        ld = w
        if trump is None and soloist is not None and w != soloist:
            break
    rec = replay(start, trump, leader, soloist, cards)
    rec["cards"] = cards
    return rec
