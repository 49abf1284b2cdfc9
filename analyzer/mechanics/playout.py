"""The playout loops on the one trick step (R6, R7, R4's Durch end; issue 24).

:func:`play_random` plays a whole deal with every seat choosing uniformly among its legal
card types, for any table: hands as k bit planes (analyzer.mechanics.planes), seats in the
order of ``Kernel.next_seat`` (a seat that sits out is never reached), duties and points
from the compiled :class:`analyzer.mechanics.ruleset.Kernel`, points and tricks to
``side[winner]`` (analyzer.mechanics.trick.sides_of; pass ``side[s] = s`` for points per
seat).  It draws exactly as play.py's ``_random_core`` / ``_play_core`` and
analyzer.search.pimc's ``play_deal_partners`` do under the random policy
(``select_bit(legal, bounded(state, popcount(legal)))`` per card), so on the same deal and RNG state it reproduces their
playouts card for card (tests/mechanics/test_playout.py): the generic loop and the
specialised ones stay interchangeable behind their signatures.

The trick log has the layout of both engines: ``leader, n_play cards, n_play legal masks,
winner, points`` (play.py's LOG_COLS = 9 for three seats, :data:`L_COLS` = 11 for four).

:func:`play_durch_partners` plays a Durch at a partners' table (V4.6, R4) with its fixed
public-information policies, hands as uint8[4, 24] counts.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.kernels.bits import ctpop, cttz, popcount, select_bit
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.play import beat_table, unseen_counts_mask
from analyzer.mechanics.rng import bounded
from analyzer.mechanics.ruleset import SIDES_PARTNERS
from analyzer.mechanics.trick import (NO_TRUMP, add_card, close_trick, duty_modes, legal,
                                      relief_of, sides_of)

# the trick log of a four-seat table: leader, 4 cards in play order, the 4 legal masks,
# winner, points (log_cols(4) columns)
L_LEADER, L_CARD0, L_LEGAL0, L_WINNER, L_POINTS = 0, 1, 5, 9, 10
L_COLS = 11

#: the side of each seat at a partners' table, ``trick.sides_of(SIDES_PARTNERS, ...)`` (V1:
#: seat % 2): a global array is a compile-time constant to numba, so the loops allocate
#: nothing for it
SIDES_OF_PARTNERS = np.empty(4, dtype=np.int64)
sides_of(SIDES_PARTNERS, np.zeros(4, dtype=np.int64), -1, SIDES_OF_PARTNERS)


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


# --------------------------------------------------------------------------- Durch of partners

@njit(_nrt=False)
def _lowest(m, rs):
    """The type of mask ``m`` with the lowest rank strength (ties: the lowest type)."""
    best = -1
    while m != 0:
        c = cttz(m)
        m &= m - 1
        if best < 0 or rs[c] < rs[best]:
            best = c
    return best


@njit
def play_durch_partners(cnt, soloist, kp, beat, discard, log):
    """Play a Durch at a partners' table (V4.6 "Durch as V2.7", R4) from ``cnt``
    (uint8[4, 24], consumed); returns the tricks the soloist won before the first trick
    it did not win (a made Durch = all ``kp.hand_size`` tricks).

    Rules: no trump (R4, :data:`~analyzer.mechanics.trick.NO_TRUMP`); the soloist leads the
    first trick and, while the Durch stands, every trick; the duties are the game's
    (``kp.duty``, V4.5: R6, and they hold while the partner is winning the trick: a partner
    holding a led-suit card that beats the soloist's must play one).  **Reading** (V4.6):
    the soloist must win every trick himself, so the first trick the partner or an
    opponent wins ends play at once and the Durch has failed.

    Policies (public information only; deterministic): the soloist leads a card no unseen
    card can beat (its discard counts as seen), else the one with the fewest unseen
    stronger types (ties: the lowest type); the partner plays a legal card that does not
    take the trick if it has one, the lowest; an opponent takes the trick if a legal card
    can, else plays its lowest legal card.  ``kp``: the TeamKernel; ``beat`` from
    :func:`analyzer.mechanics.play.beat_table`; ``log`` int64[n, L_COLS] or empty: the
    tricks played (leader, cards, legal masks, winner, points).
    """
    rs = kp.rank_strength
    copies = kp.copies
    cp = kp.card_points
    n_tricks = 0
    for t in range(N_TYPES):
        n_tricks += cnt[soloist, t]
    pres = np.zeros(4, dtype=np.int64)
    for p in range(4):
        for t in range(N_TYPES):
            if cnt[p, t] > 0:
                pres[p] |= np.int64(1) << np.int64(t)
    known = discard.copy()          # what the soloist knows is out: its discard + played
    partner = (soloist + 2) % 4
    bm, ot = duty_modes(kp.duty)
    side = SIDES_OF_PARTNERS
    do_log = log.shape[0] > 0
    won = 0
    for trick in range(n_tricks):
        wcard = -1
        wseat = -1
        lsuit = -1
        best_led = -1
        tp = 0
        for k in range(4):
            seat = (soloist + k) % 4
            h = pres[seat]
            if k == 0:
                lg = h
                unseen = unseen_counts_mask(cnt[soloist], known, copies)
                c = -1
                nbest = 99
                m = lg
                while m != 0:
                    q = cttz(m)
                    m &= m - 1
                    nq = ctpop(unseen & beat[q])
                    if nq < nbest:
                        nbest = nq
                        c = q
            else:
                rel = relief_of(seat, wseat, side, kp.partner_relief)
                lg = legal(h, lsuit, wcard, best_led, NO_TRUMP, beat, 1, 1, bm, ot, rel)
                takes = lg & beat[wcard]
                if seat == partner:
                    c = _lowest(lg & ~takes, rs) if (lg & ~takes) != 0 else _lowest(lg, rs)
                else:
                    c = _lowest(takes, rs) if takes != 0 else _lowest(lg, rs)
            cnt[seat, c] -= 1
            if cnt[seat, c] == 0:
                pres[seat] &= ~(np.int64(1) << np.int64(c))
            known[c] += 1
            lsuit, wcard, wseat, best_led = add_card(c, seat, lsuit, wcard, wseat, best_led,
                                                     NO_TRUMP, beat)
            tp += cp[c]
            if do_log:
                log[trick, L_CARD0 + k] = c
                log[trick, L_LEGAL0 + k] = lg
        if do_log:
            log[trick, L_LEADER] = soloist
            log[trick, L_WINNER] = wseat
            log[trick, L_POINTS] = tp
        if wseat != soloist:
            break                   # V4.6 Reading / R4: the first trick lost ends the Durch
        won += 1
    return won


@njit
def play_durch_partners_logged(hands, soloist, kp, discard, log):
    """:func:`play_durch_partners` from ``hands`` (not modified) with a trick log."""
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    cnt = hands.copy()
    return play_durch_partners(cnt, soloist, kp, beat, discard, log)
