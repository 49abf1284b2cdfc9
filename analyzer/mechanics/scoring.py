"""Scoring one deal (R8; surrender and Durch R4): numba kernels and their Python API.

A deal scores per side, as the RuleSet's table part says: a lone soloist against each
opponent on its own (R8; :func:`score_kernel`, one score per seat), or two sides of
partners, seats 0 + 2 against 1 + 3 (V1; :func:`score_sides`, one score per side, for the
Binokel team games V4.6, V5.7 and Pinochle V6.6 alike).  Every constant (loss factor,
going-out bonus, Durch value, rounding, when melds count, tricks in a deal) comes from the
compiled RuleSet (``KernelRules`` / the team kernel / ``ruleset.Kernel``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer._jit import njit
from analyzer.errors import BinokelError
from analyzer.mechanics.rules import DEFAULT_RULES, PINOCHLE_80, RuleSet, game_kernel

DEAL_NORMAL = 0
DEAL_SURRENDER = 1          # surrender (R4) = going out, abgehen (V2.4, V5.4)
DEAL_DURCH = 2
DEAL_OPEN_DURCH = 3         # V2.7
DEAL_THROWN_IN = 4          # V2.2: all three passed, 0 for everybody
DEAL_KINDS = {"normal": DEAL_NORMAL, "surrender": DEAL_SURRENDER, "durch": DEAL_DURCH,
              "open_durch": DEAL_OPEN_DURCH, "thrown_in": DEAL_THROWN_IN}


@njit(_nrt=False)
def round_card_points(points, r):
    """Card points rounded to the nearest ``r``, 5 up (V1); unchanged for r = 0."""
    if r <= 0:
        return points
    return (points + r // 2) // r * r


@njit(_nrt=False)
def rounded_points(points, kr):
    """V1: card points rounded to the nearest ``kr.round_to`` (5 up), or as they are."""
    return round_card_points(points, kr.round_to)


@njit
def score_kernel(kind, bid, soloist, card_points, tricks, melds, kr, out):
    """Scores of the three seats for one deal into ``out`` (int64[3]).

    Parameters
    ----------
    kind : DEAL_NORMAL, DEAL_SURRENDER or DEAL_DURCH
    bid : the soloist's bid (R3)
    soloist : seat 0..2
    card_points : int64[3] card points per seat per R7, the soloist's incl. the discard
    tricks : int64[3] tricks won per seat
    melds : int64[3] meld totals per seat with the named trump (R5; ignored in Durch)

    Rules: normal (R8): total = card points (rounded where the variant rounds, V1) +
    melds, melds only with >= 1 trick; soloist +total if >= 1 trick and total >= bid, else
    -loss_factor x bid; each opponent its own total with >= 1 trick, else 0.  Surrender /
    going out (R4, V2.4, V5.4): soloist -bid, each opponent surrender_bonus + own melds (no
    trick needed).  Durch (R4, V2.7): soloist +durch_value with every trick, else
    -durch_loss_factor x durch_value; open Durch the same with open_durch_value;
    opponents 0.  Thrown in (V2.2): 0 for everybody.
    """
    for p in range(3):
        out[p] = 0
    if kind == DEAL_THROWN_IN:
        return
    if kind == DEAL_DURCH or kind == DEAL_OPEN_DURCH:
        v = kr.durch_value if kind == DEAL_DURCH else kr.open_durch_value
        out[soloist] = v if tricks[soloist] == kr.hand_size else -kr.durch_loss_factor * v
        return
    if kind == DEAL_SURRENDER:
        for p in range(3):
            out[p] = -bid if p == soloist else kr.surrender_bonus + melds[p]
        return
    for p in range(3):
        total = rounded_points(card_points[p], kr)
        if tricks[p] > 0:
            total += melds[p]
        if p == soloist:
            out[p] = total if (tricks[p] > 0 and total >= bid) else -kr.loss_factor * bid
        else:
            out[p] = total if tricks[p] > 0 else 0


@dataclass(frozen=True)
class DealScore:
    """Scores of seats 0, 1, 2 for one deal and how they came about (R8, R4)."""

    kind: str
    soloist: int
    bid: int
    scores: tuple[int, int, int]
    totals: tuple[int, int, int]    # card points (rounded, V1) + counted melds (normal deals)
    made: bool                      # soloist's contract fulfilled (Durch: all tricks)


def score_deal(soloist: int, bid: int, card_points=(0, 0, 0), tricks=(0, 0, 0),
               melds=(0, 0, 0), *, discard_points: int = 0, kind: str = "normal",
               record=None, rules: RuleSet = DEFAULT_RULES) -> DealScore:
    """Score one deal (R8; surrender and Durch per R4).

    Parameters
    ----------
    soloist : seat 0..2
    bid : the soloist's final bid (R3)
    card_points : trick points per seat (as :func:`analyzer.play_deal` reports them,
        last-trick bonus included, discard excluded)
    tricks : tricks won per seat
    melds : meld totals per seat with the named trump (R5)
    discard_points : card points of the soloist's 3 discarded cards, added to the
        soloist's card points (R7)
    kind : ``"normal"``, ``"surrender"`` (going out), ``"durch"``, ``"open_durch"`` (V2.7)
        or ``"thrown_in"`` (V2.2)
    rules : RuleSet
        The variant: rounding (V1), going-out bonus, Durch values (V2.7).
    record : a :class:`analyzer.mechanics.play.DealRecord`; when given, its points and tricks
        replace ``card_points`` and ``tricks``

    Returns
    -------
    DealScore

    Examples
    --------
    R10: bid 200, card points incl. discard 90, trump family 150, one trick or more:

    >>> score_deal(0, 200, (90, 100, 60), (3, 6, 6), (150, 0, 0)).scores[0]
    240
    >>> score_deal(0, 200, (40, 150, 60), (3, 6, 6), (150, 0, 0)).scores[0]
    -400
    """
    if kind not in DEAL_KINDS:
        raise BinokelError(f"unknown deal kind {kind!r}: use {', '.join(DEAL_KINDS)}")
    if kind == "durch" and rules.durch_value <= 0:
        raise BinokelError(f"{rules.name} has no Durch (V5.7)")
    if kind == "open_durch" and rules.open_durch_value <= 0:
        raise BinokelError(f"{rules.name} has no open Durch (V2.7)")
    if kind == "thrown_in" and not rules.thrown_in:
        raise BinokelError(f"{rules.name} throws no deal in: forehand must open (R3)")
    if soloist not in (0, 1, 2):
        raise BinokelError(f"soloist must be seat 0, 1 or 2, got {soloist!r}")
    if record is not None:
        card_points, tricks = record.points, record.tricks_won
    cp = np.array(card_points, dtype=np.int64).reshape(-1)
    tr = np.array(tricks, dtype=np.int64).reshape(-1)
    md = np.array(melds, dtype=np.int64).reshape(-1)
    if cp.shape != (3,) or tr.shape != (3,) or md.shape != (3,):
        raise BinokelError("card_points, tricks and melds need one value per seat (3)")
    if (tr < 0).any() or tr.sum() > rules.hand_size or (cp < 0).any() or (md < 0).any():
        raise BinokelError("card points, tricks and melds must be non-negative, "
                           f"with at most {rules.hand_size} tricks in all")
    cp[soloist] += int(discard_points)
    out = np.zeros(3, dtype=np.int64)
    k = DEAL_KINDS[kind]
    score_kernel(k, int(bid), int(soloist), cp, tr, md, rules.kernel, out)
    totals = tuple(int(rules.round_points(cp[p]) + (md[p] if tr[p] > 0 else 0)) for p in range(3))
    if k in (DEAL_DURCH, DEAL_OPEN_DURCH):
        made = bool(tr[soloist] == rules.hand_size)
    elif k in (DEAL_SURRENDER, DEAL_THROWN_IN):
        made = False
    else:
        made = bool(tr[soloist] > 0 and totals[soloist] >= bid)
    return DealScore(kind, int(soloist), int(bid), tuple(int(x) for x in out), totals, made)


# --------------------------------------------------------------------------- sides of partners

@njit(_nrt=False)
def score_sides(bid_side, bid, melds, points, tricks, counting, kp, out):
    """Deal scores of the two sides of partners into ``out`` int64[2] (V1, V4.6, V5.7, V6.6).

    ``melds`` int64[2]: both partners' melds; ``points`` int64[2]: card points per side
    (the last trick and, with a Dabb, the soloist's discard included), rounded per side to
    ``kp.round_to`` (V1); ``tricks`` int64[2]: tricks won; ``counting`` int64[2]: tricks
    holding a counter.  Melds count only with a trick won (R8, V4.6), with a trick holding
    a counter where ``kp.meld_needs_counter`` (V6.3).  The bidding side scores its total
    when it won a trick and the total reaches ``bid``, else -``kp.loss_factor`` x bid
    (V4.6: 2; V6.6: 1); the other side its total with a trick, else 0.  ``bid_side`` -1:
    thrown in, 0 : 0 (V2.2, V6.2).
    """
    for side in range(2):
        if bid_side < 0:
            out[side] = 0
            continue
        tot = round_card_points(points[side], kp.round_to)
        if (counting[side] if kp.meld_needs_counter != 0 else tricks[side]) > 0:
            tot += melds[side]
        if side == bid_side:
            out[side] = tot if (tricks[side] > 0 and tot >= bid) else -kp.loss_factor * bid
        else:
            out[side] = tot if tricks[side] > 0 else 0


@njit(_nrt=False)
def score_sides_going_out(bid_side, bid, other_melds, bonus, out):
    """Going out (V4.3, V5.4): the soloist's side -bid; the other side its melds (both
    partners', with the named trump) + one ``bonus``; no trick needed, nothing played."""
    out[bid_side] = -bid
    out[1 - bid_side] = other_melds + bonus


@njit(_nrt=False)
def score_sides_durch(bid_side, made, value, loss_factor, out):
    """A Durch of a Binokel team game (V4.6 "Durch as V2.7", R4): the soloist's side
    +``value`` when the soloist won every trick (``made``), else -``loss_factor`` x
    ``value`` (V2.7: -2 x); the other side 0; no melds for anyone; the bid plays no part."""
    out[bid_side] = value if made else -loss_factor * value
    out[1 - bid_side] = 0


@dataclass(frozen=True)
class SidesDealScore:
    """A scored deal of two sides: per side the counted melds, card points and the deal
    score; ``made``: the bidding side reached its bid (V4.6, V5.7, V6.6)."""

    bid_side: int
    bid: int
    melds_counted: tuple[int, int]
    counters: tuple[int, int]
    scores: tuple[int, int]
    made: bool


def score_sides_deal(bid_side: int, bid: int, melds, points, tricks, counting,
                     rules: RuleSet = PINOCHLE_80) -> SidesDealScore:
    """Python API of :func:`score_sides` with the breakdown (per side: melds, card points,
    tricks, tricks holding a counter; ``bid_side`` -1 = thrown in)."""
    kp = game_kernel(rules)
    md, pt, tr, ct = (np.asarray(x, dtype=np.int64) for x in (melds, points, tricks, counting))
    out = np.zeros(2, dtype=np.int64)
    score_sides(int(bid_side), int(bid), md, pt, tr, ct, kp, out)
    gate = ct if kp.meld_needs_counter else tr
    mc = tuple(int(md[t]) if gate[t] > 0 else 0 for t in range(2))
    made = bool(bid_side >= 0 and tr[bid_side] > 0
                and int(round_card_points(int(pt[bid_side]), kp.round_to)) + mc[bid_side] >= bid)
    return SidesDealScore(int(bid_side), int(bid), mc, (int(pt[0]), int(pt[1])),
                          (int(out[0]), int(out[1])), made)


def sides_game_winner(totals, bid_side: int, target: int) -> int:
    """Winner after a completed deal (V6.6): the bidding side first, then the other;
    -1 while neither has reached ``target`` (the RuleSet's game end)."""
    if bid_side >= 0 and totals[bid_side] >= target:
        return bid_side
    for side in range(2):
        if totals[side] >= target:
            return side
    return -1
