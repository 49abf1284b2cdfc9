"""The PIMC worlds of ``binokel hint`` at a partners' table (V1; issue 27).

:func:`team_world_values` is :func:`analyzer.search.pimc.pimc_choose_partners` with its
per-world values kept: the same knowledge (own hand, every card played, what each seat's
plays proved (R6), its own discard when it is the bidder, the face-up Dabb's cards in the
bidder's hand or discard, R4), the same exactly uniform world
sampler (:mod:`analyzer.mechanics.worlds`, drawn in the same order from the same stream),
the same value of each legal card in each world (:func:`~analyzer.search.pimc.partners_world_row`:
exact double dummy once at most ``horizon`` tricks are left, else the team-policy
play-out).  So the card with the best mean here is PIMC's choice on the same worlds with
the same horizon (tests/analyses/test_hint_partners_exact.py).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.worlds import draw_world
from analyzer.search.pimc import partners_world_row, world_setup_partners


@njit
def team_world_values(seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp, own, played, ab,
                      trump, bidder, known_disc, n_worlds, state, kp, beat, bm, ot, pr,
                      vals, disc, exact, dd, hands_out, dabb_up):
    """Per world, the card points the side of ``seat`` (V1: seat % 2) takes from the
    current trick on after each legal card (``vals`` float64[n_worlds, 24], written), and
    the discard's card points in that world (``disc`` int64[n_worlds]: the known discard
    of the bidder, else the world's).  Arguments as pimc_choose_partners; ``exact``: solve
    every world exactly with the workspace ``dd``
    (:func:`analyzer.search.solve_any.world_workspace`, reused for every world);
    ``hands_out`` (uint8[n_worlds, 5, 24], or 0 rows: not written) the world's cards per
    place now (seats 0-3, the discard 4), which the auction weights read
    (analyzer.analyses.hint_auction); ``dabb_up`` int64[24] the face-up Dabb's copies the
    bidder has not played (R4: in its hand or discard in every world).  Returns the number
    of worlds drawn (rows written)."""
    g_type, act, sp, wt, nsp, room_c, tab = world_setup_partners(seat, k, ld, own, played, ab,
                                                                 bidder, known_disc, kp, dabb_up)
    wc = np.zeros((5, N_TYPES), dtype=np.int64)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    pres = np.zeros(4, dtype=np.int64)
    pl = np.zeros(N_TYPES, dtype=np.uint8)
    ab2 = np.zeros(4, dtype=np.int64)
    dv = np.zeros(N_TYPES, dtype=np.int64)
    row = np.zeros(N_TYPES, dtype=np.float64)
    cp = kp.card_points
    done = 0
    for _ in range(n_worlds):
        for q in range(5):
            for t in range(N_TYPES):
                wc[q, t] = 0
        if not draw_world(state, g_type, act, sp, wt, nsp, room_c, tab, wc):
            continue
        for t in range(N_TYPES):
            wc[seat, t] = own[t]
        d = 0
        for t in range(N_TYPES):
            d += cp[t] * (known_disc[t] if seat == bidder else wc[4, t])
        disc[done] = d
        if hands_out.shape[0] > 0:
            for q in range(5):
                for t in range(N_TYPES):
                    hands_out[done, q, t] = wc[q, t]
        for t in range(N_TYPES):
            row[t] = 0.0
        partners_world_row(wc, seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp, played,
                           ab, trump, bidder, kp, beat, bm, ot, pr, exact, dd, dv, cnt, pres,
                           ab2, pl, row)
        for t in range(N_TYPES):
            vals[done, t] = row[t]
        done += 1
    return done
