"""One trick step for every game (R6, V5.6, V6.4; issue 24): legal cards under the game's
duties, the trick's winner, points to the winner's side, and what a play proves.

Everything is numba over plain ints and int64 arrays, read from the one compiled
:class:`analyzer.mechanics.ruleset.Kernel`; no function here knows a game's name, its
seat count or whether it has partners.

A trick in progress is four ints, kept by the caller as locals (numba keeps them in
registers): ``lsuit`` (suit of the led card, -1 before the lead), ``wcard`` / ``wseat``
(the card now winning and who played it), ``lhigh`` (the strongest card of the led suit
in the trick: ``wcard`` unless the trick is trumped).  :func:`add_card` advances them.

Trump: a suit 0..3, or no trump (a Durch, R4): ``-1`` (play.py) or :data:`NO_TRUMP` (``4``,
the partners' loops); both hold no card.

Seats and sides: ``side`` is an int64 array over the table's seats (:func:`sides_of`):
three-player games side = (seat != soloist), partners seat % 2, -1 for a seat that sits
out (V3).  Points and tricks go to ``side[winner]``; partner relief (V5.6) holds when the
seat's side is winning.

The duties (the play part of the RuleSet, compiled to ints):

- ``follow``: holding the led suit, play it (R6.1); the beat duty ``beat_mode`` names the
  card to beat if able: :data:`BEAT_WINNER` the trick's winner (R6.1: once the trick is
  trumped, no led-suit card beats it), :data:`BEAT_LED_HIGH` the led suit's highest
  even when trumped (V5.6), :data:`BEAT_TRUMP_LEAD` the highest trump on a trump lead
  only (V6.4), :data:`BEAT_NONE` none.
- ``trump_duty``: without the led suit, play a trump if held (R6.2); ``overtrump``: beat a
  trump that wins the trick if able (R6.2, V5.6; not V6.4).
- ``relief``: the caller's side wins the trick and the game lifts the beat and trump
  duties then (V5.6, kreuz-40); following suit stays.

The winner (R6): a card beats the winner when it is of the same suit and strictly
higher, or a trump on a non-trump, so of two identical copies the first played wins.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.ruleset import (BEAT_LED_HIGH, BEAT_NONE, BEAT_TRUMP_LEAD,  # noqa: F401
                                        BEAT_WINNER, SIDES_PARTNERS)


#: the trump argument of a Durch at a partners' table (R4: no trump): a suit index no card
#: has, so :func:`suit_bits` holds no type and no card is ever a trump
NO_TRUMP = 4

#: ``TeamKernel.duty`` (analyzer.mechanics.rules): the duty table of a game with partners
#: as one int: R6 (kreuz-48, V4.5), V5.6 (kreuz-40), V6.4 (pinochle-80)
DUTY_R6, DUTY_V56, DUTY_V64 = 0, 1, 2


@njit(_nrt=False)
def duty_modes(duty):
    """``(beat_mode, overtrump)`` of :func:`legal` for a ``TeamKernel.duty``: R6 beat the
    winner and overtrump, V5.6 beat the led suit's highest and overtrump, V6.4 head a
    trump lead only, no overtrump.  Transitional: goes when the partners' loops read the
    one compiled Kernel (``ruleset.Kernel.beat_mode`` / ``overtrump``)."""
    if duty == DUTY_V64:
        return BEAT_TRUMP_LEAD, 0
    if duty == DUTY_V56:
        return BEAT_LED_HIGH, 1
    return BEAT_WINNER, 1


@njit(_nrt=False)
def suit_bits(s):
    """Plane-0 mask of the six types of suit ``s`` (type = suit * 6 + rank); no bit of the
    24 types for ``s`` outside 0..3."""
    if s < 0 or s > 3:
        return np.int64(0)
    return np.int64(63) << np.int64(6 * s)


@njit(_nrt=False)
def is_trump(c, trump):
    """Card ``c`` is a trump (no card is under no trump: ``c // 6`` is 0..3, never -1 or 4)."""
    return c // 6 == trump


@njit(_nrt=False)
def beats(c, wcard, trump, beat):
    """True when card ``c`` beats the trick's winner ``wcard`` (R6): same suit and strictly
    stronger (``beat[wcard]`` holds the stronger types of its suit), or a trump on a
    non-trump.  An identical copy is not stronger: the first played keeps the trick."""
    if (beat[wcard] >> np.int64(c)) & 1:
        return True
    return is_trump(c, trump) and not is_trump(wcard, trump)


@njit(_nrt=False)
def beat_target(lsuit, wcard, lhigh, trump, beat_mode):
    """The card a follower of the led suit must beat if able, or -1 (R6.1, V5.6, V6.4)."""
    if beat_mode == BEAT_WINNER:
        return wcard if wcard // 6 == lsuit else -1      # a trumped trick: no led card beats
    if beat_mode == BEAT_LED_HIGH:
        return lhigh
    if beat_mode == BEAT_TRUMP_LEAD:
        return lhigh if lsuit == trump else -1
    return -1


@njit(_nrt=False)
def legal(h, lsuit, wcard, lhigh, trump, beat, follow, trump_duty, beat_mode, overtrump,
          relief):
    """Legal card types (a mask) for a seat whose hand's plane 0 is ``h``.

    ``lsuit`` < 0: the seat leads and may play any card held (R4, R6).  Otherwise the
    duties of the module docstring, in R6's order: the led suit (beating the
    :func:`beat_target` if able), else a trump (overtrumping a winning trump if able),
    else any card.
    """
    if lsuit < 0:
        return h
    f = h & (np.int64(63) << np.int64(6 * lsuit))     # the led suit (lsuit is 0..3 here)
    if f != 0:
        if follow == 0:
            return h
        if relief != 0:
            return f
        tgt = beat_target(lsuit, wcard, lhigh, trump, beat_mode)
        if tgt >= 0:
            b = f & beat[tgt]
            if b != 0:
                return b
        return f
    if relief != 0 or trump_duty == 0:
        return h
    t = h & suit_bits(trump)
    if t != 0:
        if overtrump != 0 and is_trump(wcard, trump):
            b = t & beat[wcard]
            if b != 0:
                return b
        return t
    return h


@njit(_nrt=False)
def proves(c, lsuit, wcard, lhigh, trump, beat, follow, trump_duty, beat_mode, overtrump,
           relief):
    """Types a follower is proven not to hold after playing ``c`` to the trick
    (``lsuit``, ``wcard``, ``lhigh`` before ``c``): the duties of :func:`legal` read
    backwards, i.e. every type x such that ``c`` would not be legal from the hand {c, x}.

    Not following proves a void in the led suit and, under the trump duty (no relief),
    a void in trumps when ``c`` is no trump, or no trump beating a winning trump when
    ``c`` undertrumps under the overtrump duty.  Following without beating the beat
    target proves no card that beats it.
    """
    if follow == 0:
        return np.int64(0)
    nv = np.int64(0)
    if c // 6 != lsuit:
        nv = np.int64(63) << np.int64(6 * lsuit)
        if relief == 0 and trump_duty != 0 and 0 <= trump <= 3:
            if c // 6 != trump:
                nv |= suit_bits(trump)
            elif overtrump != 0 and is_trump(wcard, trump) and (beat[wcard] >> np.int64(c)) & 1 == 0:
                nv |= beat[wcard]
        return nv
    if relief == 0:
        tgt = beat_target(lsuit, wcard, lhigh, trump, beat_mode)
        if tgt >= 0 and (beat[tgt] >> np.int64(c)) & 1 == 0:
            nv = beat[tgt]
    return nv


@njit(_nrt=False)
def add_card(c, seat, lsuit, wcard, wseat, lhigh, trump, beat):
    """The trick after ``seat`` plays ``c``: returns ``(lsuit, wcard, wseat, lhigh)``.

    The first card leads; a later card takes the trick when it :func:`beats` the winner,
    and becomes ``lhigh`` when it is a stronger card of the led suit.
    """
    if lsuit < 0:
        return c // 6, c, seat, c
    if (beat[lhigh] >> np.int64(c)) & 1:
        lhigh = c
    if beats(c, wcard, trump, beat):
        return lsuit, c, seat, lhigh
    return lsuit, wcard, wseat, lhigh


@njit(_nrt=False)
def relief_of(seat, wseat, side, partner_relief):
    """1 when ``seat``'s duties are relieved: the game has partner relief (V5.6) and the
    trick's winner ``wseat`` is on ``seat``'s side."""
    if partner_relief == 0 or wseat < 0:
        return 0
    return 1 if side[wseat] == side[seat] else 0


@njit(_nrt=False)
def sides_of(side_rule, sits_out, soloist, out):
    """Fill ``out`` (int64[table seats]) with each seat's side for one deal.

    Partners (V1): seat % 2.  A soloist game: 0 for the soloist, 1 for the others (R8);
    without a soloist (``soloist`` < 0) every seat is its own side.  A seat that sits out
    (V3) gets -1.
    """
    for s in range(out.shape[0]):
        if sits_out[s] != 0:
            out[s] = -1
        elif side_rule == SIDES_PARTNERS:
            out[s] = s % 2
        elif soloist < 0:
            out[s] = s
        else:
            out[s] = 0 if s == soloist else 1


@njit(_nrt=False)
def close_trick(wseat, tp, last, bonus, side, points, tricks, counting):
    """Credit a finished trick to the winner's side: ``points[side]`` += card points ``tp``
    (+ ``bonus`` on the ``last`` trick, R7), ``tricks[side]`` += 1, and ``counting[side]``
    += 1 when the trick holds a card worth points (V6.3).  Returns the points credited."""
    w = side[wseat]
    if tp > 0:
        counting[w] += 1
    if last:
        tp += bonus
    points[w] += tp
    tricks[w] += 1
    return tp
