"""Where were points lost? ``binokel review`` (issue 27): every card decision of a deal
record valued against the best card from that player's view (PIMC, :mod:`.hint`) and,
where the record holds every hand, in hindsight (double dummy); and the soloist's decision
before play, the exchange (discard, trump, going out, Durch; R4, V2.7).

The exchange (:func:`review_exchange`) is valued with ``binokel hint --exchange``'s
machinery (:func:`analyzer.analyses.exchange_hint.option_scores`): from the soloist's
view only (its hand, the Dabb and the bid: the record as the soloist saw it,
:func:`analyzer.mechanics.record.hide`), every candidate option -- the shortlist's
(discard, trump) pairs, going out, Durch -- and the option the record shows are played
on the same worlds of the defenders' hands (common random numbers); the loss, in the
soloist's deal score (R8, R4), is cross-fitted exactly as a card's
(:func:`analyzer.analyses.stats.cross_fit_loss`: equal options cost 0 on average) with
its paired SE.  It has no hindsight value (solving the whole deal per option is
minutes).  Its units differ from the card decisions' (score, not card points), so the
per-seat totals keep it in its own column.  At a partners' table with a Dabb (kreuz-48
V4, kreuz-40 V5) the same, in the soloist's side's deal score, the partner's hand as
hidden as the opponents'.  A game without a Dabb has no exchange (R4), and the review
says so (``exchange_note``), as it does for a record that hides the soloist's hand or
the Dabb.  A Durch at a partners' table (V4.6) has its exchange reviewed but not its card
decisions (the team play-outs do not stop at the soloist's first lost trick, R4; the
review says so in ``decisions_note``).

The auction (:mod:`.bid_review`, :func:`~analyzer.analyses.bid_review.review_auction`):
every call of a seat whose hand the record holds, valued from its caller's view only (its
hand and the calls before it) with ``binokel advise --lookahead``'s machinery: pass now
against every plan "bid on up to M" (R3; V1, V6.2), the loss of the call taken against
the best option cross-fitted with its paired SE, in the caller's deal score at a lone
soloist's table (R8) and in its team's deal score minus the other team's at a partners'
table (V4.6, V5.7, V6.6): its own column of the per-seat totals, as the exchange's.  The
forced opening (R3, V5.2) is no decision; a game without an auction (V7.1) or a record
without one says so in ``auction_note``.

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
from analyzer.mechanics.cards import SUIT_LETTERS, card_code
from analyzer.mechanics.record import DURCH, OPEN_DURCH, OUT, Deal, hide, in_play_seats
from analyzer.mechanics.trick import sides_of
from analyzer.mechanics.ruleset import RuleSet

from .hint import (DEFAULT_DD_MAX_TRICKS, DEFAULT_HORIZON, DEFAULT_WORLDS, _dd_values,
                   hint, legal_cards, resolve_horizon, supported, view_from_record)
from .exchange_hint import DEFAULT_K as EXCHANGE_K
from .exchange_hint import DEFAULT_WORLDS as EXCHANGE_WORLDS
from .exchange_hint import DURCH as EX_DURCH
from .exchange_hint import OPEN_DURCH as EX_OPEN_DURCH
from .exchange_hint import (PLAY, check_exchange_game, exchange_view_from_record, has_partners,
                            option_scores, uses_auction, weigh_rows)
from .bid_review import DEFAULT_BID_SAMPLES, auction_totals, review_auction
from .stats import cross_fit_loss
from .weighted_stats import weighted_mean


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
    ess: float | None = None   # Kish's effective n of the auction weights (None: uniform, R3)


@dataclass(frozen=True)
class ExchangeDecision:
    """The soloist's exchange (R4): ``played`` and ``best`` (the best mean over all the
    worlds) as option labels, the cross-fitted loss in the soloist's deal score (R8; its
    side's at a partners' table, V4.6, V5.7: ``unit``) with
    its paired SE over ``n`` worlds, ``options`` valued, and the same-world loss (biased
    upwards, for comparison)."""

    seat: int
    played: str
    best: str
    loss: float
    loss_se: float
    n: int
    options: int
    same_world_loss: float
    unit: str = "deal score (R8)"   # a partners' table: the side's (V4.6, V5.7)
    ess: float | None = None        # Kish's effective n of the auction weights (None: uniform)
    dropped: int = 0                # worlds of auction weight 0 left out (R3)

    def to_dict(self) -> dict:
        return {"seat": self.seat, "played": self.played, "best": self.best,
                "loss": round(self.loss, 3), "loss_se": round(self.loss_se, 3), "n": self.n,
                "options": self.options, "same_world_loss": round(self.same_world_loss, 3),
                "unit": self.unit,
                "effective_n": None if self.ess is None else round(self.ess, 1),
                "dropped_worlds": self.dropped}


@dataclass(frozen=True)
class Review:
    rules: RuleSet
    decisions: tuple       # biggest PIMC loss first
    worlds: int
    horizon: int
    exchange: ExchangeDecision | None = None
    exchange_note: str = ""     # why there is no exchange decision ("" when there is one)
    decisions_note: str = ""    # why the card decisions were not valued ("" when they were)
    calls: tuple = ()           # the auction's reviewed calls (bid_review.CallDecision), in order
    auction_note: str = ""      # what of the auction was not reviewed, and why
    auction_samples: int = 0    # sampled deals per call (0: the auction was not reviewed)

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
        x = self.exchange
        if x is not None:
            out.setdefault(x.seat, {"decisions": 0, "loss": 0.0, "var": 0.0, "dd_loss": 0,
                                    "dd_decisions": 0})
        bids = auction_totals(self.calls)
        for s in bids:
            out.setdefault(s, {"decisions": 0, "loss": 0.0, "var": 0.0, "dd_loss": 0,
                               "dd_decisions": 0})
        return {s: {"decisions": e["decisions"], "loss": round(e["loss"], 3),
                    "loss_se": round(math.sqrt(e["var"]), 3),
                    "dd_loss": e["dd_loss"] if e["dd_decisions"] else None,
                    "dd_decisions": e["dd_decisions"],
                    # the exchange: deal score (R8), not card points: its own column
                    "exchange_loss": round(x.loss, 3) if x is not None and x.seat == s else None,
                    "exchange_loss_se": (round(x.loss_se, 3) if x is not None and x.seat == s
                                         else None),
                    # the calls of the auction: a deal score too (R8; V1 the team's), own column
                    "auction_calls": bids[s]["calls"] if s in bids else 0,
                    "auction_loss": bids[s]["loss"] if s in bids else None,
                    "auction_loss_se": bids[s]["loss_se"] if s in bids else None}
                for s, e in sorted(out.items())}

    def to_dict(self) -> dict:
        low = self.rules.deck.low_card
        return {"rules": self.rules.name, "worlds": self.worlds, "horizon": self.horizon,
                "per_seat": {str(s): v for s, v in self.per_seat().items()},
                "exchange": None if self.exchange is None else self.exchange.to_dict(),
                "exchange_note": self.exchange_note,
                "decisions_note": self.decisions_note,
                # R3: the card decisions' worlds weighted by the other seats' calls
                "auction_weights": any(d.ess is not None for d in self.decisions),
                "auction": [c.to_dict() for c in self.calls],
                "auction_note": self.auction_note, "auction_samples": self.auction_samples,
                "decisions": [{"trick": d.trick, "card": d.card_no, "seat": d.seat,
                               "played": card_code(d.played, low),
                               "best": card_code(d.best, low), "loss": round(d.loss, 3),
                               "loss_se": round(d.loss_se, 3), "n": d.n,
                               "effective_n": None if d.ess is None else round(d.ess, 1),
                               "dd_best": None if d.dd_best is None else card_code(d.dd_best, low),
                               "dd_loss": d.dd_loss} for d in self.decisions]}


def pimc_loss(samples: dict, best: int, played: int,
              weights=None) -> tuple[float, float, int, float]:
    """The PIMC loss of the card ``played`` at one decision (module docstring).
    ``samples``: card -> the card points of the player's side per world, every legal card
    on the same worlds (``Hint.samples``, legal cards in order: ties go to the first, as
    PIMC breaks them); ``best``: PIMC's card on all worlds.  Returns ``(loss, se, n,
    same-world loss)``: the cross-fitted loss with its paired SE and n worlds, and the
    biased estimate ``mean(best) - mean(played)`` on all worlds, for comparison.  Needs
    at least 2 worlds (BinokelError).  ``weights`` (``Hint.weights``: the worlds' auction
    weights, R3, or None): the loss and the same-world estimate are weighted, the SE at
    Kish's effective n (:func:`~analyzer.analyses.stats.cross_fit_loss`)."""
    cards = list(samples)
    table = np.column_stack([np.asarray(samples[c], dtype=float) for c in cards])
    loss, se, n = cross_fit_loss(table, cards.index(played), weights)
    if weights is None:
        same = float(table[:, cards.index(best)].mean() - table[:, cards.index(played)].mean())
    else:
        w = np.asarray(weights, dtype=float)
        diff = table[:, cards.index(best)] - table[:, cards.index(played)]
        same = float((w * diff).sum() / w.sum())
    return loss, se, n, same


def review(rules: RuleSet, deal: Deal, n_worlds: int = DEFAULT_WORLDS,
           horizon: int | None = DEFAULT_HORIZON, seed: int = 0,
           dd_max_tricks: int = DEFAULT_DD_MAX_TRICKS, from_trick: int = 1,
           seats=None, exchange_worlds: int = EXCHANGE_WORLDS,
           auction_samples: int = DEFAULT_BID_SAMPLES, progress=None,
           auction_weights: bool | None = None) -> Review:
    """Review every card decision of ``deal``, the soloist's exchange and the calls of
    the auction (module docstring).  Decision i uses the worlds of seed ``(seed, i)``, the
    exchange ``exchange_worlds`` worlds of seed ``(seed, 900)``, call i ``auction_samples``
    sampled deals of seed ``(seed, 700 + i)`` (0: the auction is not reviewed): the same
    record and seed, the same review.  ``from_trick``: only the decisions of that trick
    and later (the exchange and the auction only from trick 1); ``seats``: only the
    decisions of these table seats (default every seat).  ``horizon`` None: the table's
    (:func:`analyzer.analyses.hint.default_horizon`).  ``progress(done, total)``:
    called after each card of the tricks reviewed (the command line's progress bar); it
    changes no number.  ``auction_weights``: the card decisions' worlds, and the
    exchange's (:func:`review_exchange`), weighted by the other seats' calls as ``binokel
    hint`` does (None: when the record holds an auction, R3); the losses weighted with
    them."""
    if rules.name != deal.rules.name:
        raise BinokelError(f"review: the record is of {deal.rules.name}, not {rules.name}")
    supported(rules)
    horizon = resolve_horizon(rules, horizon)
    if n_worlds < 2:
        raise BinokelError(f"review: {n_worlds} world per decision; the loss is measured on "
                           "worlds other than those that chose the best, so use at least 2")
    out = []
    i = 0
    # a Durch at a partners' table (V4.6): its card decisions have no PIMC value (the team
    # play-outs do not stop at the soloist's first lost trick, R4), its exchange has one
    cards_note = ("not valued: a Durch at a partners' table (the team play-outs do not end "
                  "at the soloist's first lost trick, R4)"
                  if has_partners(rules) and deal.soloist is not None and deal.contract in
                  (DURCH, OPEN_DURCH) else "")
    tricks = () if cards_note else deal.tricks
    total = sum(len(cards) for t, (_, cards) in enumerate(tricks, 1) if t >= from_trick)
    done = 0
    for t, (_, cards) in enumerate(tricks, 1):
        for c in range(1, len(cards) + 1):
            i += 1
            if t < from_trick:
                continue
            if progress is not None and done:
                progress(done, total)
            done += 1
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
            h = hint(rules, view, n_worlds, horizon, seed * 1000 + i, dd_max_tricks,
                     auction_weights=auction_weights)
            played = view.next_card
            loss, se, n, same = pimc_loss(h.samples, h.best, played, h.weights)
            dd = {x.card: x.dd for x in h.cards}
            dd_best = dd_loss = None
            if all(v is not None for v in dd.values()):
                dd_best = max(dd, key=lambda k: (dd[k], -k))
                dd_loss = dd[dd_best] - dd[played]
            out.append(Decision(t, c, view.seat, played, h.best, loss, se, n,
                                dd_best, dd_loss, same, h.ess))
    if progress is not None and done:
        progress(done, total)
    order = sorted(out, key=lambda d: (-d.loss, d.trick, d.card_no))
    if seats is not None and deal.soloist not in seats:
        ex, note = None, "not reviewed: the soloist's seat is not among the seats reviewed"
    elif from_trick > 1:
        ex, note = None, f"not reviewed: --from-trick {from_trick} (the exchange precedes trick 1)"
    else:
        try:
            ex, note = review_exchange(rules, deal, exchange_worlds, seed * 1000 + 900,
                                       auction_weights), ""
        except BinokelError as exc:
            ex, note = None, str(exc).replace("--exchange: ", "", 1)
    if auction_samples == 0:
        calls, a_note = (), "not reviewed (--no-auction)"
    elif from_trick > 1:
        calls, a_note = (), f"not reviewed: --from-trick {from_trick} (the auction precedes trick 1)"
    else:
        calls, a_note = review_auction(deal, auction_samples, seed, seats)
    return Review(rules, tuple(order), n_worlds, horizon, ex, note,
                  cards_note, calls, a_note, auction_samples)


def _label(kind: str, discard, trump: int, low: str) -> str:
    """An option's label as ``binokel hint --exchange`` prints it (Option.label)."""
    if kind == OUT:
        return "go out"
    what = SUIT_LETTERS[trump] if kind == PLAY else kind
    return f"{what} discard {' '.join(card_code(t, low) for t in discard)}"


def _exchange_played(deal: Deal) -> tuple:
    """The option the record's soloist took, as :func:`analyzer.analyses.exchange_hint.
    option_scores` names it: ``(kind, discard types, trump)`` (R4).  One-line
    BinokelError when the record hides the discard."""
    if deal.contract == OUT:
        return (OUT, (), -1)
    if deal.discard is None:
        raise BinokelError("not reviewed: the record hides the soloist's discard (R4)")
    disc = tuple(t for t in range(len(deal.discard)) for _ in range(deal.discard[t]))
    kind = {DURCH: EX_DURCH, OPEN_DURCH: EX_OPEN_DURCH}.get(deal.contract, PLAY)
    return (kind, disc, deal.trump if kind == PLAY else -1)


def review_exchange(rules: RuleSet, deal: Deal, worlds: int = EXCHANGE_WORLDS,
                    seed: int = 0, auction_weights: bool | None = None) -> ExchangeDecision:
    """The soloist's exchange of ``deal`` valued from its view (module docstring).

    ``auction_weights`` (None: on when the record holds an auction): the worlds weighted
    by the other seats' calls as ``binokel hint --exchange`` weights them (R3;
    :func:`analyzer.analyses.exchange_hint.weigh_rows`): the cross-fitted loss and the
    means weighted, the SE at Kish's effective n, worlds of weight 0 left out (``n`` the
    worlds kept).

    At a partners' table with a Dabb (V4.2-V4.6, V5.3-V5.7) the options and worlds are
    :func:`analyzer.analyses.exchange_hint.side_option_scores`' (the partner's hand hidden
    like the opponents'), the loss in the side's deal score.  Raises a one-line
    BinokelError saying why there is none: no Dabb (R4), no soloist, bid or contract, the
    soloist's hand, the Dabb or the discard hidden in the record."""
    check_exchange_game(rules)
    if deal.soloist is None or deal.bid is None or deal.contract is None:
        raise BinokelError("not reviewed: the record has no soloist, bid and contract (R3, R4)")
    if worlds < 2:
        raise BinokelError(f"review: {worlds} world for the exchange; the loss is measured on "
                           "worlds other than those that chose the best, so use at least 2")
    cards, bid, seat = exchange_view_from_record(deal)   # the soloist's view only
    played = _exchange_played(deal)
    use_w = uses_auction(rules, deal.auction, auction_weights)
    got = {} if use_w else None
    rows, j = option_scores(rules, cards, bid, seat, EXCHANGE_K, worlds, seed, played, got)
    wts = ess = None
    dropped = 0
    if use_w:
        rows, wts, ess, dropped = weigh_rows(rules, deal.auction, got, rows)
    table = np.column_stack([r[3] for r in rows])
    loss, se, n = cross_fit_loss(table, j, wts)
    means = (table.mean(axis=0) if wts is None
             else (wts[:, None] * table).sum(axis=0) / wts.sum())
    b = int(np.argmax(means))
    low = rules.deck.low_card
    unit = "side's deal score (V4.6, V5.7)" if has_partners(rules) else "deal score (R8)"
    return ExchangeDecision(deal.soloist, _label(*rows[j][:3], low), _label(*rows[b][:3], low),
                            loss, se, n, len(rows), float(means[b] - means[j]), unit, ess,
                            dropped)


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
                 horizon: int | None = DEFAULT_HORIZON, seed: int = 0,
                 dd_max_tricks: int = DEFAULT_DD_MAX_TRICKS,
                 auction_weights: bool | None = None) -> tuple:
    """The deal's value for the soloist's side before each trick and after the last
    (module docstring): a tuple of :class:`ValuePoint`, one per trick plus the end.

    Needs a complete record of a trump contract with the soloist's hand and discard
    (R4); raises BinokelError (one line) otherwise.  PIMC point t uses the worlds of seed
    ``(seed, 500 + t)``: the same record and seed, the same series.  ``auction_weights``:
    as :func:`review` (the worlds weighted by the other seats' calls, R3; the point's mean
    weighted, its SE and n at Kish's effective n)."""
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
        h = hint(rules, view, n_worlds, horizon, seed * 1000 + 500 + t, 0,
                 auction_weights=auction_weights)
        s = h.samples[h.best]                    # the side's points from here, per world
        if h.weights is None:
            se = float(s.std(ddof=1) / math.sqrt(len(s))) if len(s) > 1 else float("nan")
            out.append(ValuePoint(t, float(past + s.mean()), se, len(s), "pimc"))
        else:
            e = weighted_mean(s, h.weights, h.ess)
            out.append(ValuePoint(t, float(past + e.mean), e.se if h.ess > 1 else float("nan"),
                                  len(s), "pimc"))
    end, _ = _side_points(deal, n_tricks + 1)
    out.append(ValuePoint(n_tricks + 1, float(end), 0.0, 0, "result"))
    return tuple(out)


__all__ = ["Decision", "ExchangeDecision", "Review", "ValuePoint", "pimc_loss", "review",
           "review_exchange", "value_series"]
