"""The PIMC worlds of ``binokel hint`` at a partners' table (V1; issue 27).

:func:`team_world_values` is :func:`analyzer.search.pimc.pimc_choose_partners` with its
per-world values kept: the same knowledge (own hand, every card played, what each seat's
plays proved (R6), its own discard when it is the bidder), the same exactly uniform world
sampler (:mod:`analyzer.mechanics.worlds`, drawn in the same order from the same stream),
the same team-policy play-out after each legal card.  So the card with the best mean here
is PIMC's choice on the same worlds (tests/analyses/test_hint.py).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_TYPES
from analyzer.search.pimc import rollout_partners
from analyzer.mechanics.worlds import draw_world, sample_setup


@njit
def team_world_values(seat, legal, k, ld, lsuit, wcard, wseat, best_led, tp, own, played, ab,
                      trump, bidder, known_disc, n_worlds, state, kp, beat, bm, ot, pr,
                      vals, disc):
    """Per world, the card points the side of ``seat`` (V1: seat % 2) takes from the
    current trick on after each legal card (``vals`` float64[n_worlds, 24], written), and
    the discard's card points in that world (``disc`` int64[n_worlds]: the known discard
    of the bidder, else the world's).  Arguments as pimc_choose_partners.  Returns the number
    of worlds drawn (rows written)."""
    r = 0
    for t in range(N_TYPES):
        r += own[t]
    room = np.zeros(5, dtype=np.int64)
    places = np.int64(0)
    for i in range(4):
        q = (ld + i) % 4
        if q == seat:
            continue
        room[q] = r - 1 if i < k else r
        places |= np.int64(1) << np.int64(q)
    if seat != bidder and kp.dabb_size > 0:
        room[4] = kp.dabb_size
        places |= np.int64(1) << np.int64(4)
    unseen = np.zeros(N_TYPES, dtype=np.int64)
    for t in range(N_TYPES):
        unseen[t] = kp.copies[t] - own[t] - played[t] - known_disc[t]
    absent = np.zeros(5, dtype=np.int64)
    for q in range(4):
        absent[q] = ab[q]
    shown = np.zeros((5, N_TYPES), dtype=np.int64)
    public = np.zeros(N_TYPES, dtype=np.int64)
    g_type, act, sp, wt, nsp, room_c, tab = sample_setup(
        unseen, shown, public, absent, places, np.int64(0), room)
    wc = np.zeros((5, N_TYPES), dtype=np.int64)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    pres = np.zeros(4, dtype=np.int64)
    pl = np.zeros(N_TYPES, dtype=np.uint8)
    ab2 = np.zeros(4, dtype=np.int64)
    me = seat % 2
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
        for t in range(N_TYPES):
            vals[done, t] = 0.0
        m = legal
        while m != 0:
            c = np.int64(0)
            while ((m >> c) & 1) == 0:
                c += 1
            m &= m - 1
            for q in range(4):
                pres[q] = 0
                ab2[q] = ab[q]
                for t in range(N_TYPES):
                    cnt[q, t] = wc[q, t]
                    if wc[q, t] > 0:
                        pres[q] |= np.int64(1) << np.int64(t)
            for t in range(N_TYPES):
                pl[t] = played[t]
            vals[done, c] = rollout_partners(cnt, pres, seat, c, ld, k, lsuit, wcard, wseat,
                                          best_led, tp, pl, ab2, trump, bidder, kp, beat, bm,
                                          ot, pr, me)
        done += 1
    return done
