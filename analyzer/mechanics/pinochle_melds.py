"""Melds of double-deck Pinochle (V6.3): the numba kernel over per-type counts and the
named breakdown for the API.

A hand is ``uint8[24]`` counts 0..4 (80-card encoding, cards.py).  Three classes, a card
may serve once in each class (V6.3):

- A, sequence and marriages: ``f`` = trump flushes A-10-K-Q-J held (min of the five
  trump counts), ``f * flush``; the trump K-Q left over pair as royal marriages,
  ``min(k - f, q - f) * royal_marriage``; each plain suit ``min(k, q) * marriage``.
- B, around: per rank A, K, Q, J, ``m`` = min over the suits; ``(m // 2) * double +
  (m % 2) * single`` (triple = double + single, quadruple = two doubles).
- C, pinochle Q♠ + J♦: ``m`` = min of the two counts, valued as in B.

Only class A depends on trump.  Whether the melds count (a trick holding a counter) is
for the scoring (team_scoring).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.mechanics.cards import N_SUITS, Card, Hand80, suit_symbol, type_id
from analyzer.mechanics.team_rules import PINOCHLE_RULES, TeamRuleSet, team_kernel

_A, _T, _K, _Q, _J = range(5)
_RANK_WORDS = ("aces", "tens", "kings", "queens", "jacks")


@njit(_nrt=False)
def _repeat_value(m, single, double):
    """Value of a meld held ``m`` times: pairs of them are doubles (V6.3 B, C)."""
    return (m // 2) * double + (m % 2) * single


@njit(_nrt=False)
def trump_free_meld80(c, kp):
    """Classes B (arounds) and C (pinochles) of V6.3: the part that does not depend on trump.

    ``c``: uint8[24] counts; ``kp``: TeamKernel.  Returns the points.
    """
    total = np.int64(0)
    for r in range(5):
        sv = kp.around[r]
        dv = kp.double_around[r]
        if sv != 0 or dv != 0:
            m = min(min(np.int64(c[r]), np.int64(c[6 + r])),
                    min(np.int64(c[12 + r]), np.int64(c[18 + r])))
            total += _repeat_value(m, sv, dv)
    p = min(np.int64(c[kp.pinochle_q]), np.int64(c[kp.pinochle_j]))
    total += _repeat_value(p, kp.pinochle_single, kp.pinochle_double)
    return total


@njit(_nrt=False)
def class_a_meld80(c, trump, kp):
    """Class A (flushes, royal and plain marriages) of counts ``c`` with ``trump`` (V6.3)."""
    total = np.int64(0)
    for s in range(N_SUITS):
        b = 6 * s
        k = np.int64(c[b + _K])
        q = np.int64(c[b + _Q])
        if s == trump:
            f = min(min(min(np.int64(c[b + _A]), np.int64(c[b + _T])), min(k, q)),
                    np.int64(c[b + _J]))
            total += f * kp.flush + min(k - f, q - f) * kp.royal_marriage
        else:
            total += min(k, q) * kp.marriage
    return total


@njit(_nrt=False)
def meld80(c, trump, kp):
    """Total meld (V6.3 classes A + B + C) of counts ``c`` (uint8[24]) with ``trump``."""
    return class_a_meld80(c, trump, kp) + trump_free_meld80(c, kp)


@njit(_nrt=False)
def meld80_all_trumps(c, kp, out):
    """``out[s]`` = :func:`meld80` with trump ``s``, for s = 0..3 (out: int64[4])."""
    common = trump_free_meld80(c, kp)
    for s in range(N_SUITS):
        out[s] = common + class_a_meld80(c, s, kp)


# --------------------------------------------------------------------------- Python API

@dataclass(frozen=True)
class PinochleMeld:
    """One named meld: its class (A, B or C of V6.3), name, points and how many times."""

    cls: str
    name: str
    times: int
    points: int


def pinochle_melds(hand, trump, rules: TeamRuleSet = PINOCHLE_RULES) -> list[PinochleMeld]:
    """The melds of a Pinochle hand with ``trump`` (suit index 0..3), named (V6.3).

    ``hand``: a :class:`Hand80` or card text.  The points add up to :func:`meld80`.
    """
    h = Hand80.parse(hand)
    c = h.counts
    kp = team_kernel(rules)
    out: list[PinochleMeld] = []
    sym = [suit_symbol(s) for s in range(N_SUITS)]   # German names with --cards de
    times = {1: "", 2: "double ", 3: "triple ", 4: "quadruple "}
    for s in range(N_SUITS):
        k, q = c[type_id(s, _K)], c[type_id(s, _Q)]
        if s == trump:
            f = min(c[type_id(s, r)] for r in range(5))
            if f:
                out.append(PinochleMeld("A", f"flush {sym[s]}", f, f * kp.flush))
            m = min(k - f, q - f)
            if m:
                out.append(PinochleMeld("A", f"royal marriage {sym[s]}", m, m * kp.royal_marriage))
        else:
            m = min(k, q)
            if m:
                out.append(PinochleMeld("A", f"marriage {sym[s]}", m, m * kp.marriage))
    for r in range(5):
        sv, dv = int(kp.around[r]), int(kp.double_around[r])
        if not (sv or dv):
            continue
        m = min(c[type_id(s, r)] for s in range(N_SUITS))
        if m:
            out.append(PinochleMeld("B", f"{times[m]}{_RANK_WORDS[r]} around", m,
                                    (m // 2) * dv + (m % 2) * sv))
    qt, jt = kp.pinochle_q, kp.pinochle_j
    m = min(c[qt], c[jt])
    if m:
        out.append(PinochleMeld("C", f"{times[m]}pinochle {Card(qt)} {Card(jt)}", m,
                                (m // 2) * kp.pinochle_double + (m % 2) * kp.pinochle_single))
    return out


def pinochle_meld_total(hand, trump, rules: TeamRuleSet = PINOCHLE_RULES) -> int:
    """Meld points of ``hand`` with ``trump`` through the kernel (V6.3)."""
    h = Hand80.parse(hand)
    return int(meld80(h.counts_array(), int(trump), team_kernel(rules)))


def pinochle_meld_report(hand, trump=None, rules: TeamRuleSet = PINOCHLE_RULES) -> dict:
    """``binokel melds --json`` for an 80-card hand (and the web API's ``/api/melds``):
    per trump (``trump``: one suit's letter, or None for all four) its total and named
    melds by V6.3's classes.

    Raises BinokelError (one line) on a hand of the wrong size or a fifth copy.
    """
    from analyzer.mechanics.cards import SUITS, Suit

    h = Hand80.parse(hand, size=rules.hand_size)
    suits = [Suit.parse(trump)] if trump is not None else list(SUITS)
    rows = []
    for s in suits:
        ms = pinochle_melds(h, s.index, rules)
        rows.append({"trump": s.value, "total": sum(m.points for m in ms),
                     "melds": [{"class": m.cls, "name": m.name, "times": m.times,
                                "points": m.points} for m in ms]})
    return {"rules": rules.name, "hand": h.codes(rules.low_card), "by_trump": rows}
