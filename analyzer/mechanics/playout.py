"""One playout loop for every game on the one trick step (R6, R7, R4's Durch end; issue 24).

:func:`play_random` plays a whole deal with every seat choosing uniformly among its legal
card types, for any table: hands as k bit planes (analyzer.mechanics.planes), seats in the
order of ``Kernel.next_seat`` (a seat that sits out is never reached), duties and points
from the compiled :class:`analyzer.mechanics.ruleset.Kernel`, points and tricks to
``side[winner]`` (analyzer.mechanics.trick.sides_of; pass ``side[s] = s`` for points per
seat).  It draws exactly as play.py's ``_random_core`` / ``_play_core`` and team_play's
``play_team_core`` do under the random policy (``select_bit(legal, bounded(state,
popcount(legal)))`` per card), so on the same deal and RNG state it reproduces their
playouts card for card (tests/mechanics/test_playout.py): the generic loop and the
specialised ones stay interchangeable behind their signatures.

The trick log has the layout of both engines: ``leader, n_play cards, n_play legal masks,
winner, points`` (play.py's LOG_COLS = 9 for three seats, team_play's L_COLS = 11 for four).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.kernels.bits import popcount, select_bit
from analyzer.mechanics.rng import bounded
from analyzer.mechanics.trick import add_card, close_trick, legal, relief_of


def log_cols(n_play: int) -> int:
    """Columns of a trick log for ``n_play`` seats in play."""
    return 3 + 2 * n_play


@njit(_nrt=False)
def play_random(planes, trump, leader, soloist, side, state, kern, points, tricks, counting,
                log):
    """Play one deal from ``planes`` (int64[table seats, k], consumed), every seat random.

    ``trump``: 0..3, or -1 / 4 for a Durch (no trump): play then stops at the first trick
    ``soloist`` does not win (R4, V4.6 Reading).  ``leader``: the seat that leads first.
    ``side``: int64[table seats], the scoring unit of each seat.  ``state``: RNG state
    (analyzer.mechanics.rng), advanced.  Adds to ``points`` / ``tricks`` / ``counting``
    (tricks holding a card worth points, V6.3) at ``side[winner]``; callers zero them.
    ``log``: int64[hand_size, log_cols(n_play)] or empty.  Returns the tricks played.
    """
    n_tricks = kern.hand_size
    n_play = kern.n_play
    beat = kern.beat
    cp = kern.card_points
    nxt = kern.next_seat
    fo, td, bm, ot, pr = kern.follow, kern.trump_duty, kern.beat_mode, kern.overtrump, kern.partner_relief
    k = planes.shape[1]
    durch = trump < 0 or trump > 3
    do_log = log.shape[0] > 0
    ld = leader
    for trick in range(n_tricks):
        lsuit = -1
        wcard = -1
        wseat = -1
        lhigh = -1
        tp = 0
        seat = ld
        for i in range(n_play):
            rel = relief_of(seat, wseat, side, pr)
            lg = legal(planes[seat, 0], lsuit, wcard, lhigh, trump, beat, fo, td, bm, ot, rel)
            c = select_bit(lg, bounded(state, popcount(lg)))
            b = np.int64(1) << np.int64(c)
            for j in range(k - 1, -1, -1):        # one copy: the highest plane holding it
                if planes[seat, j] & b:
                    planes[seat, j] &= ~b
                    break
            lsuit, wcard, wseat, lhigh = add_card(c, seat, lsuit, wcard, wseat, lhigh, trump, beat)
            tp += cp[c]
            if do_log:
                log[trick, 1 + i] = c
                log[trick, 1 + n_play + i] = lg
            seat = nxt[seat]
        tp = close_trick(wseat, tp, trick == n_tricks - 1, kern.last_trick_bonus, side, points,
                         tricks, counting)
        if do_log:
            log[trick, 0] = ld
            log[trick, 1 + 2 * n_play] = wseat
            log[trick, 2 + 2 * n_play] = tp
        ld = wseat
        if durch and soloist >= 0 and wseat != soloist:
            return trick + 1
    return n_tricks
