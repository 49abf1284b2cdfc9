"""Where were points lost? ``binokel review`` (issue 27): every card decision of a deal
record valued against the best card from that player's view (PIMC, :mod:`.hint`) and,
where the record holds every hand, in hindsight (double dummy).

A decision is a card played with more than one legal card (R6).  Its PIMC loss is
cross-fitted (:func:`analyzer.analyses.stats.cross_fit_loss`): the ``n`` worlds are split
in two halves, the best card is chosen on one half and (card points of the player's side
after that card - after the card played) measured world by world on the other half, and
vice versa; the loss is the mean of those ``n`` differences, with their paired standard
error.  Choosing the best on the very worlds it is measured on would pick, among cards
of equal worth, the one the worlds favoured by chance: a loss biased upwards (the
winner's curse; ``python -m analyzer.analyses.review_check`` measured it, docs/results.md).
The cross-fitted loss is 0 on average between equal cards, may be negative on one
decision, and errs low rather than high (the choice is made on ``n/2`` worlds).  The
``best`` card shown is PIMC's choice over all ``n`` worlds (what ``binokel hint``
prints).  The DD loss is the difference of the exact double-dummy values of the true
deal (no SE: exact).  Decisions of a seat whose
hand the record hides are not reviewed (nobody can say what it could have played).
Losses are summed per seat (the SE of a sum of independent decisions: the root of the
sum of squares).

:func:`value_series` is the deal's value trick by trick (the chart of ``binokel review
--plot``): the card points of the soloist's side (R7, the discard included, R4) expected
for the whole deal before each trick -- the points its side has taken plus the exact
double-dummy value of the rest (the leader's best card, every hand known, at most
``dd_max_tricks`` tricks left), else PIMC's value from the soloist's view (its best
card's mean over ``n`` worlds, with SE, at the soloist's first card of the trick: the
cards played before it in that trick are known to it) -- and after the last trick the
points its side actually took.  A drop between two points is the soloist's side's loss
(its mistakes, or the defence's good play); a rise, the defence's loss.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import card_code
from analyzer.mechanics.record import Deal, hide, in_play_seats
from analyzer.mechanics.trick import sides_of
from analyzer.mechanics.ruleset import RuleSet

from .hint import (DEFAULT_DD_MAX_TRICKS, DEFAULT_HORIZON, DEFAULT_WORLDS, _dd_values, _partners,
                   hint, legal_cards, supported, view_from_record)
from .stats import cross_fit_loss


@dataclass(frozen=True)
class Decision:
    trick: int
    card_no: int
    seat: int
    played: int
    best: int              # PIMC's card (chosen on all n worlds)
    loss: float            # PIMC loss in card points of the seat's side, cross-fitted
    loss_se: float
    n: int
    dd_best: int | None
    dd_loss: int | None    # hindsight loss (every hand known)
    same_world_loss: float = float("nan")   # the best's mean - the played card's on all n
                                            # worlds: biased upwards (for comparison only)


@dataclass(frozen=True)
class Review:
    rules: RuleSet
    decisions: tuple       # biggest PIMC loss first
    worlds: int
    horizon: int

    def per_seat(self) -> dict:
        out = {}
        for d in self.decisions:
            e = out.setdefault(d.seat, {"decisions": 0, "loss": 0.0, "var": 0.0, "dd_loss": 0,
                                        "dd_decisions": 0})
            e["decisions"] += 1
            e["loss"] += d.loss
            e["var"] += d.loss_se ** 2 if not math.isnan(d.loss_se) else 0.0
            if d.dd_loss is not None:
                e["dd_loss"] += d.dd_loss
                e["dd_decisions"] += 1
        return {s: {"decisions": e["decisions"], "loss": round(e["loss"], 3),
                    "loss_se": round(math.sqrt(e["var"]), 3),
                    "dd_loss": e["dd_loss"] if e["dd_decisions"] else None,
                    "dd_decisions": e["dd_decisions"]}
                for s, e in sorted(out.items())}

    def to_dict(self) -> dict:
        low = self.rules.deck.low_card
        return {"rules": self.rules.name, "worlds": self.worlds, "horizon": self.horizon,
                "per_seat": {str(s): v for s, v in self.per_seat().items()},
                "decisions": [{"trick": d.trick, "card": d.card_no, "seat": d.seat,
                               "played": card_code(d.played, low),
                               "best": card_code(d.best, low), "loss": round(d.loss, 3),
                               "loss_se": round(d.loss_se, 3), "n": d.n,
                               "dd_best": None if d.dd_best is None else card_code(d.dd_best, low),
                               "dd_loss": d.dd_loss} for d in self.decisions]}


def pimc_loss(samples: dict, best: int, played: int) -> tuple[float, float, int, float]:
    """The PIMC loss of the card ``played`` at one decision (module docstring).
    ``samples``: card -> the card points of the player's side per world, every legal card
    on the same worlds (``Hint.samples``, legal cards in order: ties go to the first, as
    PIMC breaks them); ``best``: PIMC's card on all worlds.  Returns ``(loss, se, n,
    same-world loss)``: the cross-fitted loss with its paired SE and n worlds, and the
    biased estimate ``mean(best) - mean(played)`` on all worlds, for comparison.  Needs
    at least 2 worlds (BinokelError)."""
    cards = list(samples)
    table = np.column_stack([np.asarray(samples[c], dtype=float) for c in cards])
    loss, se, n = cross_fit_loss(table, cards.index(played))
    same = float(table[:, cards.index(best)].mean() - table[:, cards.index(played)].mean())
    return loss, se, n, same


def review(rules: RuleSet, deal: Deal, n_worlds: int = DEFAULT_WORLDS,
           horizon: int = DEFAULT_HORIZON, seed: int = 0,
           dd_max_tricks: int = DEFAULT_DD_MAX_TRICKS, from_trick: int = 1,
           seats=None) -> Review:
    """Review every card decision of ``deal`` (module docstring).  Decision i uses the
    worlds of seed ``(seed, i)``: the same record and seed, the same review.
    ``from_trick``: only the decisions of that trick and later; ``seats``: only the
    decisions of these table seats (default every seat)."""
    if rules.name != deal.rules.name:
        raise BinokelError(f"review: the record is of {deal.rules.name}, not {rules.name}")
    supported(rules)
    if n_worlds < 2:
        raise BinokelError(f"review: {n_worlds} world per decision; the loss is measured on "
                           "worlds other than those that chose the best, so use at least 2")
    out = []
    i = 0
    for t, (_, cards) in enumerate(deal.tricks, 1):
        for c in range(1, len(cards) + 1):
            i += 1
            if t < from_trick:
                continue
            try:
                view = view_from_record(deal, t, c)
            except BinokelError as exc:
                if "is hidden in the record" in str(exc):
                    continue
                raise
            if seats is not None and view.seat not in seats:
                continue
            if len(legal_cards(view)) < 2:
                continue
            h = hint(rules, view, n_worlds, horizon, seed * 1000 + i, dd_max_tricks)
            played = view.next_card
            loss, se, n, same = pimc_loss(h.samples, h.best, played)
            dd = {x.card: x.dd for x in h.cards}
            dd_best = dd_loss = None
            if all(v is not None for v in dd.values()):
                dd_best = max(dd, key=lambda k: (dd[k], -k))
                dd_loss = dd[dd_best] - dd[played]
            out.append(Decision(t, c, view.seat, played, h.best, loss, se, n,
                                dd_best, dd_loss, same))
    order = sorted(out, key=lambda d: (-d.loss, d.trick, d.card_no))
    # horizon 0: no world solved exactly (a partners' table: the team PIMC plays out, V1)
    return Review(rules, tuple(order), n_worlds, 0 if _partners(rules) else horizon)


@dataclass(frozen=True)
class ValuePoint:
    trick: int             # the value before this trick; hand_size + 1: after the last
    value: float           # card points of the soloist's side for the whole deal (R7)
    se: float              # 0 for an exact value (double dummy, the result)
    n: int                 # PIMC worlds (0: exact)
    source: str            # "dd", "pimc" or "result"

    def to_dict(self) -> dict:
        return {"trick": self.trick, "value": round(self.value, 3), "se": round(self.se, 3),
                "n": self.n, "source": self.source}


def _side_points(deal: Deal, trick_no: int) -> tuple[int, list]:
    """(card points the soloist's side took in tricks 1..trick_no-1 plus the discard
    (R4, R7), the side of each table seat)."""
    r, k = deal.rules, deal.rules.kernel
    arr = np.zeros(r.table.seats, dtype=np.int64)
    sides_of(k.side_rule, k.sits_out, deal.soloist, arr)
    side = [int(x) for x in arr]
    own = side[deal.soloist]
    pts = 0
    for i, ((_, cards), w) in enumerate(zip(deal.tricks[:trick_no - 1], deal.winners())):
        if side[w] == own:
            pts += sum(int(k.card_points[c]) for c in cards)
            if i + 1 == r.table.hand_size:
                pts += r.points.last_trick
    if deal.soloist is not None and r.dabb.size and deal.discard is not None:
        pts += sum(int(k.card_points[c]) * deal.discard[c] for c in range(len(deal.discard)))
    return pts, side


def value_series(rules: RuleSet, deal: Deal, n_worlds: int = DEFAULT_WORLDS,
                 horizon: int = DEFAULT_HORIZON, seed: int = 0,
                 dd_max_tricks: int = DEFAULT_DD_MAX_TRICKS) -> tuple:
    """The deal's value for the soloist's side before each trick and after the last
    (module docstring): a tuple of :class:`ValuePoint`, one per trick plus the end.

    Needs a complete record of a trump contract with the soloist's hand and discard
    (R4); raises BinokelError (one line) otherwise.  PIMC point t uses the worlds of seed
    ``(seed, 500 + t)``: the same record and seed, the same series."""
    if rules.name != deal.rules.name:
        raise BinokelError(f"review: the record is of {deal.rules.name}, not {rules.name}")
    supported(rules)
    if deal.soloist is None or deal.trump < 0:
        raise BinokelError("review: the value series counts the soloist's card points: "
                           "it needs a trump contract (a Durch has none, R4)")
    if not deal.complete():
        raise BinokelError("review: the value series needs the whole deal in the record")
    sol = deal.soloist
    hands = deal.play_hands()
    if hands[sol] is None or (rules.dabb.size and deal.discard is None):
        raise BinokelError("review: the value series needs the soloist's hand and discard "
                           "(R4) in the record")
    k = rules.kernel
    n_tricks = rules.table.hand_size
    all_known = all(hands[s] is not None for s in in_play_seats(rules))
    mine = hide(deal, sol)
    out = []
    for t in range(1, n_tricks + 1):
        past, side = _side_points(deal, t)
        if all_known and n_tricks - t + 1 <= dd_max_tricks:
            view = view_from_record(deal, t, 1)
            dd, _ = _dd_values(view, dd_max_tricks)
            if dd is not None:
                own = side[view.seat] == side[sol]
                best = max(dd.values()) if own else min(dd.values())   # the leader's best card
                out.append(ValuePoint(t, float(past + best), 0.0, 0, "dd"))
                continue
        leader, cards = deal.tricks[t - 1]
        seat, pos = leader, 1
        while seat != sol:                       # the soloist's place in the trick (R6)
            seat, pos = int(k.next_seat[seat]), pos + 1
        view = view_from_record(mine, t, pos)
        h = hint(rules, view, n_worlds, horizon, seed * 1000 + 500 + t, 0)
        s = h.samples[h.best]                    # the side's points from here, per world
        se = float(s.std(ddof=1) / math.sqrt(len(s))) if len(s) > 1 else float("nan")
        out.append(ValuePoint(t, float(past + s.mean()), se, len(s), "pimc"))
    end, _ = _side_points(deal, n_tricks + 1)
    out.append(ValuePoint(n_tricks + 1, float(end), 0.0, 0, "result"))
    return tuple(out)


__all__ = ["Decision", "Review", "ValuePoint", "pimc_loss", "review", "value_series"]
