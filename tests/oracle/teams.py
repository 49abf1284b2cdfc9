"""Plain-Python reference of the four-handed Binokel team games (V1, V4, V5), written
straight from the rules text, for checking the kernels in analyzer/mechanics/team_*.py.

Cards are type ints (cards.py: type = suit * 6 + rank, rank 0 = A strongest .. 5 = the
low card).  A hand is a list of 24 counts.  Seats 0..3, partners opposite.
"""
from __future__ import annotations

from tests.oracle.pinochle import beats, rank, suit, winner_index  # noqa: F401  (V1: same trick rules)


def legal(hand, trick: list[int], trump: int, duty: str, partner_winning: bool = False,
          relief: bool = False) -> set[int]:
    """Legal cards for the next player.

    duty "R6" (V4.5): follow and beat the trick's winning card if a card of the led suit
    can; else trump, overtrump if the trick is trumped and possible, else any trump; else
    free.  The duties hold while the partner is winning.
    duty "V5.6": follow and beat the highest card of the led suit if you can, even when
    the trick is already trumped; without the led suit, trump and beat the highest trump
    if you can; else free.  ``relief`` (kreuz-40): the beat and trump duties are lifted
    while the partner is winning the trick (following suit stays).
    """
    held = {t for t in range(24) if hand[t] > 0}
    if not trick:
        return held
    led = suit(trick[0])
    win = trick[winner_index(trick, trump)]
    lifted = relief and partner_winning
    same = {t for t in held if suit(t) == led}
    if same:
        if lifted:
            return same
        if duty == "V5.6":
            top = min((c for c in trick if suit(c) == led), key=rank)
            higher = {t for t in same if rank(t) < rank(top)}
        else:
            higher = {t for t in same if suit(win) == led and rank(t) < rank(win)}
        return higher or same
    if lifted:
        return held
    trumps = {t for t in held if suit(t) == trump}
    if trumps:
        if suit(win) == trump:
            over = {t for t in trumps if rank(t) < rank(win)}
            if over:
                return over
        return trumps
    return held


def duel_auction(maxima, start: int = 150, step: int = 10, forced: bool = True):
    """V1 chain of duels for four with threshold bidders: (soloist or -1, bid).

    Seat 0 against seat 1 until one passes, the survivor against seat 2, then seat 3;
    raises exactly +step; a pass is final.  Forced: seat 0 opens at ``start``; else a
    seat with no bid standing may open or pass (V2.2).
    """
    holder, high = -1, 0
    for challenger in range(4):
        if holder < 0:
            if (forced and challenger == 0) or maxima[challenger] >= start:
                holder, high = challenger, start
            continue
        to_move, other = challenger, holder
        while True:
            if maxima[to_move] >= high + step:
                high += step
                to_move, other = other, to_move
            else:
                holder = other
                break
    return (holder, high) if holder >= 0 else (-1, 0)


def round10(points: int) -> int:
    """V1: nearest 10, 5 up."""
    return (points + 5) // 10 * 10


def score(sol_team: int, bid: int, melds, points, tricks, rounding: bool = True):
    """V4.6 / V5.7: soloist team total (rounded card points + melds with a team trick)
    >= bid scores +total, else -2 x bid; the other team its total with a trick, else 0."""
    out = []
    for team in range(2):
        pts = round10(points[team]) if rounding else points[team]
        total = pts + (melds[team] if tricks[team] else 0)
        if team == sol_team:
            out.append(total if tricks[team] and total >= bid else -2 * bid)
        else:
            out.append(total if tricks[team] else 0)
    return tuple(out)
