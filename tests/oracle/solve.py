"""Plain-Python double-dummy minimax (no pruning), written from RULES.md R4, R6, R7.

The value of a position is the card points the soloist takes from it on (cards of the
tricks won, the current trick included; +10 for the last trick, R7), soloist maximizing,
the two defenders minimizing.  In a Durch (no trump, R4) play ends at the first trick a
defender wins.  Every legal card of every seat is tried at every node (no alpha-beta, no
move ordering, no table): the only shortcut is a memo of *completed-trick* positions
(same remaining hands and leader = same remaining play), which changes no value.
Rules come from tests/oracle/play.py (itself written from R6), not from the kernels.
"""
from __future__ import annotations

from functools import lru_cache

from tests.oracle.play import LAST_TRICK_BONUS, legal_cards, points, trick_winner


def minimax(hands, trump, soloist: int, leader: int, trick=(), legal=legal_cards) -> int:
    """Value of the position: ``hands`` = three 24-count lists (cards not yet played),
    ``trump`` = suit index or None (Durch), ``trick`` = types already in the trick;
    ``legal(hand counts, trick, trump)``: the play duties (default R6)."""
    durch = trump is None

    @lru_cache(maxsize=None)
    def boundary(h: tuple, ld: int) -> int:
        if sum(h[ld]) == 0:
            return 0
        return node(h, ld, ())

    def node(h: tuple, ld: int, tr: tuple) -> int:
        if len(tr) == 3:
            w = (ld + trick_winner(list(tr), trump)) % 3
            pts = sum(points(c) for c in tr)
            if all(sum(x) == 0 for x in h):
                pts += LAST_TRICK_BONUS
            if w == soloist:
                return pts + boundary(h, w)
            return 0 if durch else boundary(h, w)
        seat = (ld + len(tr)) % 3
        vals = []
        for c in sorted(legal(list(h[seat]), list(tr), trump)):
            nh = list(h)
            hs = list(nh[seat])
            hs[c] -= 1
            nh[seat] = tuple(hs)
            vals.append(node(tuple(nh), ld, tr + (c,)))
        return max(vals) if seat == soloist else min(vals)

    h0 = tuple(tuple(int(x) for x in hd) for hd in hands)
    return node(h0, leader, tuple(trick))


def move_values(hands, trump, soloist: int, leader: int, trick=()) -> dict[int, int]:
    """Value after each legal card of the seat to play (type -> value)."""
    seat = (leader + len(trick)) % 3
    out = {}
    for c in sorted(legal_cards(list(hands[seat]), list(trick), trump)):
        nh = [list(x) for x in hands]
        nh[seat][c] -= 1
        out[c] = minimax(nh, trump, soloist, leader, tuple(trick) + (c,))
    return out
