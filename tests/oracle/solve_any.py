"""Plain-Python double-dummy minimax for any table (no pruning), written from the rules
text: R6 (duties, via tests/oracle/trick.py), R7 (card points, the last trick), R4 and
V4.6's Reading of the team Durch, V4.5 / V5.6 / V6.4 (the duties of the team games).

A position: the hands of every seat at the table (24-count lists; a seat that sits out
holds nothing), the trump suit or None (a Durch), the soloist, the leader of the current
trick and the trick's cards in play order.  Seats play in the order ``next_seat`` (the
seat after ``s``), and ``side[s]`` is s's side (partners: s % 2; three-player games:
soloist or not).  The value is the card points the soloist's *side* takes from here on
(the current trick's cards included; + the last-trick bonus, R7), the soloist's side
maximizing, the other side minimizing.  In a Durch (no trump, R4; V4.6 Reading) play
ends at the first trick the soloist does not win himself, partner or not, and that
trick credits nothing: a Durch is made exactly when the value is every remaining point.

Every legal card of every seat is tried at every node; the only shortcut is a memo of
completed-trick positions (same hands and leader = same remaining play).
"""
from __future__ import annotations

from functools import lru_cache

from tests.oracle.trick import legal_cards, winner_index


def minimax(hands, trump, soloist: int, leader: int, trick, *, play, next_seat, side,
            card_points, last_trick: int) -> int:
    """Value of the position (module docstring).  ``play``: the RuleSet's play part;
    ``card_points[t]``: points of type t; ``last_trick``: R7's bonus."""
    durch = trump is None
    n_play = sum(1 for s in next_seat if s >= 0)

    def seat_at(ld, i):
        s = ld
        for _ in range(i):
            s = next_seat[s]
        return s

    @lru_cache(maxsize=None)
    def boundary(h: tuple, ld: int) -> int:
        if sum(h[ld]) == 0:
            return 0
        return node(h, ld, ())

    def node(h: tuple, ld: int, tr: tuple) -> int:
        if len(tr) == n_play:
            w = seat_at(ld, winner_index(list(tr), trump))
            pts = sum(card_points[c] for c in tr)
            if all(sum(x) == 0 for x in h):
                pts += last_trick
            if durch:
                return pts + boundary(h, w) if w == soloist else 0
            return (pts if side[w] == side[soloist] else 0) + boundary(h, w)
        seat = seat_at(ld, len(tr))
        partner_winning = bool(tr) and side[seat_at(ld, winner_index(list(tr), trump))] == side[seat]
        held = [t for t in range(24) if h[seat][t]]
        vals = []
        for c in sorted(legal_cards(held, list(tr), trump, play, partner_winning)):
            nh = list(h)
            hs = list(nh[seat])
            hs[c] -= 1
            nh[seat] = tuple(hs)
            vals.append(node(tuple(nh), ld, tr + (c,)))
        return max(vals) if side[seat] == side[soloist] else min(vals)

    h0 = tuple(tuple(int(x) for x in hd) for hd in hands)
    return node(h0, leader, tuple(trick))


def move_values(hands, trump, soloist: int, leader: int, trick, **rules) -> dict[int, int]:
    """Value after each legal card of the seat to play (type -> value)."""
    next_seat, side = rules["next_seat"], rules["side"]
    seat = leader
    for _ in range(len(trick)):
        seat = next_seat[seat]
    partner_winning = bool(trick) and side[_winner_seat(leader, trick, trump, next_seat)] == side[seat]
    held = [t for t in range(24) if hands[seat][t]]
    out = {}
    for c in sorted(legal_cards(held, list(trick), trump, rules["play"], partner_winning)):
        nh = [list(x) for x in hands]
        nh[seat][c] -= 1
        out[c] = minimax(nh, trump, soloist, leader, tuple(trick) + (c,), **rules)
    return out


def _winner_seat(leader, trick, trump, next_seat):
    s = leader
    for _ in range(winner_index(list(trick), trump)):
        s = next_seat[s]
    return s
