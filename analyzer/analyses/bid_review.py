"""The auction of a deal record reviewed (``binokel review``, issue 27): every call of a
seat whose hand the record holds, valued against the best call from that player's view.

Inputs of one call (and nothing else: structural, :func:`call_view`): the caller's hand
(the record as that seat saw it, :func:`analyzer.mechanics.record.hide`), its seat and
the calls before it.  Never the other hands, the Dabb or the later calls.

The model (the machinery of ``binokel advise --lookahead``, analyzer.analyses.lookahead)
---------------------------------------------------------------------------------------
The options at a call are *pass* and *bid on*: in a chain of duels (R3; V1, V2.2, V5.2)
the only bid is the next one, a step above the standing bid; in open bidding (V6.2) any
multiple of the step above it.  What "bid on" means after the call is a plan, "bid up to
M": raise by the minimum while the next bid is at most M, then pass.  Per sampled deal
(the unseen cards dealt at random to the other seats and the Dabb, R2; weighted by how
likely the other seats' sampled hands made the calls before this one, R3 inference),
the auction is finished once for "pass now" and once for every M of the look-ahead's
bid grid (the other seats bid as the look-ahead's default opponent model says), the
seat that buys the contract exchanges and the deal is played and scored (R4, R8;
V4.6, V5.7, V6.6).  An option's value is its expected score over the samples:

- at a lone soloist's table (R2) the caller's own deal score minus the mean of the two
  opponents' (R8; ``binokel advise``'s default objective, "relative": the game is a
  race, R9).  Not the own score alone: a call moves the opponents' scores as much as
  the caller's (passing hands the contract to one of them), and by its own score alone
  every hand would rather be soloist than defend, a weak one too;
- at a partners' table (V1) the caller's team's deal score minus the other team's (the
  team look-ahead's objective, V4.6, V5.7, V6.6; its only one).

Both are in deal-score points (R8), as the exchange's review.

The call taken stands for the plans it is consistent with: a pass for "pass now"; a bid
B for every plan with M >= B.  A jump in open bidding (V6.2: B above the next bid) is
valued as those plans with the price at least B where the caller buys the contract
(it said B); the jump's effect on the others' calls (they now face B) is not modelled,
and "bid on by the minimum" stays among the options to compare it with.
The loss of the call is the value of the best option minus the value of the best plan
consistent with the call, in that deal score: 0 when the best plan would have made the
same call, positive for a pass below the player's best limit and for a bid above it.
It is cross-fitted (:func:`analyzer.analyses.stats.cross_fit_loss`, weighted): the
samples are split in two halves, both bests are chosen on one half and the difference
measured sample by sample on the other, and vice versa, so options of equal worth cost 0
on average (and a loss may be slightly negative); its SE is the paired one at Kish's
effective sample size.  The ``best`` call shown is the look-ahead's recommendation over
all samples (``binokel advise --lookahead`` with the objective above): pass, or the
next bid as the first step of "up to M".

Not reviewed (said in the note or skipped): a game without an auction (V7.1), a record
without one, a forced opening (R3, V5.2: forehand must open, no choice), a call of a
seat whose hand the record hides, a call no sampled deal fits (every inference weight 0).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.bounds import BID_REVIEW_DEFAULT, BID_REVIEW_SAMPLES
from analyzer.errors import BinokelError
from analyzer.mechanics.bidding import PASS, auction_form
from analyzer.mechanics.record import Deal, hide, in_play_seats
from analyzer.mechanics.rules import get_rules

from .advice_grid import parse_auction_for, partners_spec
from .lookahead import (_partners_plan, default_partners_model, lookahead_max_bid,
                        partners_model, partners_plan_values, plan_values, simulate_lookahead,
                        simulate_partners_lookahead)
from .opponents import resolve_opponents
from .stats import cross_fit_loss
from .weighted_stats import effective_sample_size

#: samples per call (analyzer.bounds: the CLI reads it without importing the kernels)
DEFAULT_BID_SAMPLES = BID_REVIEW_DEFAULT
#: the seed offset of the calls (the card decisions use 1.., the value series 500+, the
#: exchange 900): call i uses ``seed * 1000 + 700 + i``
SEED_OFFSET = 700
LONE_UNIT = "own deal score minus the opponents' mean (R8)"
TEAM_UNIT = "team's deal score minus the other team's (V4.6, V5.7, V6.6)"


@dataclass(frozen=True)
class CallDecision:
    """One reviewed call: ``call_no`` (1 = the auction's first call), the table ``seat``,
    the ``call`` made and the ``best`` call (``PASS`` = 0, else a bid), the best plan's
    limit ``best_limit`` (None = pass), the cross-fitted ``loss`` with its paired
    ``loss_se`` over ``n`` samples (``ess`` effective), ``options`` valued (pass + the
    plans), the same-sample loss (biased upwards, for comparison) and the ``unit``."""

    call_no: int
    seat: int
    call: int
    best: int
    best_limit: int | None
    loss: float
    loss_se: float
    n: int
    ess: float
    options: int
    same_world_loss: float
    unit: str

    def to_dict(self) -> dict:
        name = lambda c: "pass" if c == PASS else c     # noqa: E731
        return {"call_no": self.call_no, "seat": self.seat, "call": name(self.call),
                "best": name(self.best), "best_limit": self.best_limit,
                "loss": round(self.loss, 3), "loss_se": round(self.loss_se, 3), "n": self.n,
                "effective_n": round(self.ess, 1), "options": self.options,
                "same_world_loss": round(self.same_world_loss, 3), "unit": self.unit}


def call_view(deal: Deal, i: int):
    """What the seat making call ``i`` (0-based) of ``deal.auction`` knew: ``(table
    seat, its hand's counts or None when the record hides it, the calls before it)``.
    Built from :func:`~analyzer.mechanics.record.hide` (the record as that seat saw it)
    and the first ``i`` calls: nothing else of the record reaches the valuation."""
    seat = deal.auction[i][0]
    mine = hide(deal, seat)
    return seat, mine.hands[seat], tuple(c for _, c in deal.auction[:i])


def _plans(flat, spec, counts, q: int, state, samples: int, seed: int):
    """The look-ahead at one call: ``(res, values[n, K + 1], weights[n], bids[K], best
    j)`` (column 0 = pass now, column j = bid up to ``bids[j - 1]``; module docstring), or
    None when no sampled deal fits the calls before it (every weight 0, R3 inference)."""
    if spec is None:
        model = resolve_opponents(None, True, flat)
        res = simulate_lookahead(counts, q, state, samples, [seed], 1, True, flat, model)
    else:
        model = partners_model(default_partners_model(spec), spec)
        res = simulate_partners_lookahead(counts, q, state, samples, seed, spec, model, model,
                                          True)
    w = np.asarray(res["weight"], dtype=float)
    if not np.isfinite(w).all() or w.sum() <= 0:
        return None
    if spec is None:
        vals = plan_values(res, q, "relative", None, flat)
        _mb, j, _V = lookahead_max_bid(res, q, "relative", None, flat, vals)
    else:
        vals = partners_plan_values(res, q)
        j = _partners_plan(res, q, state, spec)[-1][1]
    return res, vals, w, np.asarray(res["bids"]), int(j)


def review_auction(deal: Deal, samples: int = DEFAULT_BID_SAMPLES, seed: int = 0,
                   seats=None) -> tuple[tuple, str]:
    """Every call of ``deal``'s auction valued from its caller's view (module docstring).

    ``samples``: sampled deals per call (at least 2: the loss is measured on the half that
    did not choose the best); ``seats``: only the calls of these table seats (default
    every seat).  Returns ``(calls, note)``: the :class:`CallDecision` of every reviewed
    call in auction order, and a line saying what was not reviewed and why ("" when every
    call was).  Call i uses the seed ``seed * 1000 + 700 + i``: the same record and seed,
    the same review.  Raises BinokelError (one line) on a call its seat could not make
    then (R3, V1, V6.2)."""
    rules = deal.rules
    if rules.auction.form == "none":
        return (), f"no auction in {rules.name}: trump is turned up (V7.1)"
    if not deal.auction:
        return (), "not reviewed: the record has no auction (R3)"
    if samples < 2:
        raise BinokelError(f"review: {samples} sample per call; the loss is measured on "
                           "samples other than those that chose the best, so use at least 2")
    BID_REVIEW_SAMPLES.check(samples, "review: --bid-samples")
    flat = get_rules(rules.name)
    spec = partners_spec(flat)
    kr = flat if spec is None else spec
    in_play = in_play_seats(rules)
    forced = auction_form(flat).forced_opening
    unit = LONE_UNIT if spec is None else TEAM_UNIT
    out, hidden, forced_calls, unfit = [], 0, 0, []
    for i in range(len(deal.auction)):
        seat, hand, before = call_view(deal, i)
        call = deal.auction[i][1]
        state = parse_auction_for(list(before), kr)
        try:
            parse_auction_for(list(before) + [call], kr)
        except BinokelError as exc:
            raise BinokelError(f"review: Auction call {i + 1}: {exc}") from None
        q = state.to_move
        if in_play[q] != seat:
            sec = "V6.2" if state.form == "open" else ("V1" if spec is not None else "R3")
            raise BinokelError(f"review: Auction call {i + 1} is seat {in_play[q]}'s turn, not "
                               f"seat {seat}'s ({sec})")
        if seats is not None and seat not in seats:
            continue
        if forced and not before:
            forced_calls += 1          # R3, V5.2: forehand must open; no choice to value
            continue
        if hand is None:
            hidden += 1
            continue
        counts = np.asarray(hand, dtype=np.uint8)
        got = _plans(flat, spec, counts, q, state, samples, seed * 1000 + SEED_OFFSET + i + 1)
        if got is None:
            unfit.append(i + 1)     # no sampled deal explains the calls before it (R3)
            continue
        res, vals, w, bids, j_best = got
        if call == PASS:
            taken = [0]
        else:
            reach = [j + 1 for j in range(len(bids)) if bids[j] >= call]
            taken = reach or [len(bids)]
            if call > state.next_bid and spec is not None:
                # a jump (V6.2): the same plans, paying at least the jump where it buys
                jump = partners_plan_values(res, q, floor=call)[:, taken]
                taken = list(range(vals.shape[1], vals.shape[1] + len(taken)))
                vals = np.hstack([vals, jump])
        loss, se, n = cross_fit_loss(vals, taken, w)
        V = (w[:, None] * vals).sum(axis=0) / w.sum()
        same = float(V.max() - V[taken].max())
        best = PASS if j_best == 0 else int(state.next_bid)   # the plan's first step
        limit = None if j_best == 0 else int(bids[j_best - 1])
        out.append(CallDecision(i + 1, seat, call, best, limit, loss, se, n,
                                effective_sample_size(w), len(bids) + 1, same, unit))
    notes = []
    if forced_calls:
        notes.append("the forced opening (R3, V5.2) is no decision")
    if hidden:
        notes.append(f"{hidden} call(s) of hidden hands not reviewed")
    if unfit:
        notes.append(f"call(s) {', '.join(map(str, unfit))} not reviewed: no sampled deal fits "
                     "the calls before them (R3 inference)")
    return tuple(out), "; ".join(notes)


def auction_totals(calls) -> dict:
    """Per table seat: ``{"calls", "loss", "loss_se"}`` summed over its reviewed calls
    (the SE of a sum of independent estimates: the root of the sum of squares)."""
    out = {}
    for c in calls:
        e = out.setdefault(c.seat, [0, 0.0, 0.0])
        e[0] += 1
        e[1] += c.loss
        e[2] += c.loss_se ** 2 if not math.isnan(c.loss_se) else 0.0
    return {s: {"calls": k, "loss": round(v, 3), "loss_se": round(math.sqrt(var), 3)}
            for s, (k, v, var) in sorted(out.items())}


__all__ = ["CallDecision", "DEFAULT_BID_SAMPLES", "auction_totals", "call_view",
           "review_auction"]
