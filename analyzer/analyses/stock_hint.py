"""``hint`` and ``review`` for a game with a stock (``binokel-2``, docs/VARIANTS.md V7;
issue 27): every legal action of a decision (a card, a meld, no meld, a claim) valued from
the player's view, and every decision of a recorded deal valued against the best.

The view is structural: a position is read from the record *as the player to act saw it*
(:func:`analyzer.mechanics.stock_record.hide`, cut at the decision), so nothing the player
could not see reaches the valuation.  While the stock lasts the values are PIMC's
(:class:`analyzer.search.stock_pimc.Pimc`: worlds consistent with that view, each action
played on in every world with the heuristic to the end of the stock and solved exactly
afterwards): mean ± SE over n worlds, the same worlds for every action, so the best action
is PIMC's choice.  Once the stock is gone both hands are known (V7.4) and each card gets
its exact value (:class:`analyzer.search.stock_solve.EndgameSolver`): ``n = "exact"``.

Values are points from the decision to the end of the deal: ``own`` the player's, ``diff``
own minus the opponent's (what PIMC maximises; melds make a deal non-zero-sum, V7.3).  A
game ended by a claim in a play-out counts 1000 for its winner (V7.5).  A winning claim is
listed as the action that wins the game.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.stock_record import StockRecord, hide, replay, token

from .stats import cross_fit_loss

#: bounds of what a user may ask: worlds per decision of a hint, of a review (every
#: decision of a deal: up to 36)
MAX_WORLDS, MAX_REVIEW_WORLDS = 400, 100


class _Stop(Exception):
    pass


def _decision_of(deal) -> tuple[str, int, int]:
    """(phase, trick, card): ``("play", T, K)`` before card K of trick T, ``("meld", T, 0)``
    the meld decision after trick T."""
    st = deal.st
    if st[sp.TO_MELD] >= 0:
        return "meld", int(st[sp.TRICKS]), 0
    return "play", int(st[sp.TRICKS]) + 1, 1 if st[sp.TABLE] < 0 else 2


def decisions(rec: StockRecord) -> list[tuple]:
    """Every decision the record holds, in order: ``(phase, trick, card, seat, action,
    label)`` (the action as the StockDeal applies it and as the player saw it; implied
    passes included, the claim last)."""
    out = []

    def note(deal, a, mi):
        ph, t, k = _decision_of(deal)
        out.append((ph, t, k, deal.to_act(), a, _label(deal, a)))

    replay(rec, on_decision=note)
    return out


def prefix(rec: StockRecord, phase: str, trick: int, card: int) -> StockRecord:
    """The record cut just before a decision (its moves up to it; no claim, no points)."""
    moves = []
    k = 0
    for m in rec.moves:
        if m[0] == "trick":
            k += 1
            if phase == "play" and k == trick:
                if card == 2:
                    moves.append(("trick", m[1], m[2][:1]))
                break
            if phase == "meld" and k > trick:
                break
        elif m[0] in ("meld", "pass") and phase == "meld" and k == trick:
            break
        moves.append(m)
    return replace(rec, moves=tuple(moves), claim=None, points=None, lines={})


def position(rec: StockRecord, trick: int | None = None, card: int | None = None,
             meld: bool = False):
    """The decision asked for: before card ``card`` (1 lead, 2 reply) of trick ``trick``,
    or (``meld``) the meld decision after trick ``trick``; default the first decision the
    record does not hold.  Returns ``(phase, trick, card, seat, the label of the action
    in the record or None)``; BinokelError (one line) when the record has no such decision."""
    ds = decisions(rec)
    if trick is None:
        if rec.complete():
            raise BinokelError("hint: the deal in the record is over; give --trick for a "
                               "decision it holds (V7.4, V7.5)")
        deal = replay(prefix(rec, "play", 10 ** 6, 1), upto=None)
        ph, t, k = _decision_of(deal)
        return ph, t, k, deal.to_act(), None
    want = ("meld", trick, 0) if meld else ("play", trick, card or 1)
    for d in ds:
        if d[:3] == want:
            return (*want, d[3], d[5])
    full = replay(replace(rec, claim=None, points=None))
    if not full.over() and _decision_of(full) == want:
        return (*want, full.to_act(), None)
    what = (f"a meld decision after trick {trick}" if meld else f"card {card or 1} of trick "
            f"{trick}")
    raise BinokelError(f"hint: the record holds no {what} (melds only after a won trick "
                       "while the stock lasts, V7.3; 24 tricks, V7.2)")


def view_deal(rec: StockRecord, phase: str, trick: int, card: int, seat: int):
    """The StockDeal at the decision, built from ``seat``'s view of the record only."""
    v = prefix(hide(rec, seat), phase, trick, card)
    if v.hands[seat] is None:
        raise BinokelError(f"hint: seat {seat}'s hand is hidden in the record (`Hand {seat} ?`): "
                           "its decision needs its cards")
    if any(m[0] == "draw" and any(s == seat and t is None for s, t in m[1]) for m in v.moves):
        raise BinokelError(f"hint: a card seat {seat} drew is hidden in the record (`Draw "
                           f"{seat}:?`): its decision needs its cards (V7.2)")
    return replay(v)


def _label(deal, a) -> str:
    """An action as the player sees it: a card token (``KS/p``), ``meld NAME VALUE:
    CARDS``, ``pass`` or ``claim`` (the labels of the hint and of the replay page)."""
    if a[0] == "play":
        c = int(a[1])
        return token(c // 2, deal.shown(c))
    if a[0] == "meld":
        mask, p = int(a[1]), int(a[2])
        cards = " ".join(token(c // 2, deal.shown(c)) for c in range(48) if (mask >> c) & 1)
        return f"meld {deal.meld_name(p)} {deal.meld_value(p)}: {cards}"
    return a[0]


action_label = _label


@dataclass
class ActionValue:
    """One action: ``diff``/``own`` points from here (means), their SEs (0 exact),
    ``n`` worlds or ``"exact"``; per-world arrays for paired comparisons."""

    action: tuple
    label: str
    diff: float | None
    diff_se: float | None
    own: float | None
    own_se: float | None
    n: object
    diffs: np.ndarray | None = None
    wins_game: bool = False


_SOLVERS: dict = {}


def _solver(r):
    """One exact solver (and its transposition table) per compiled stock game."""
    from analyzer.search.stock_solve import EndgameSolver

    key = id(r.params)
    if key not in _SOLVERS:
        _SOLVERS[key] = (r, EndgameSolver(r))
    return _SOLVERS[key][1]


def value_actions(deal, worlds: int, seed: int) -> tuple[list[ActionValue], bool]:
    """Every legal action of the player to act valued from its view (module docstring);
    returns (values, exact).  ``deal`` must already be the player's view."""
    from analyzer.search.stock_pimc import Pimc

    seat = deal.to_act()
    cur_own, cur_opp = deal.points(seat), deal.points(1 - seat)
    out: list[ActionValue] = []
    exact = deal.stock_left() == 0 and deal.st[sp.TO_MELD] < 0
    if exact:
        solver = _solver(deal.r)
        for a in deal.legal_actions(claims=False):
            d = deal.copy()
            d.apply(a)
            if d.over():
                own, opp = d.points(seat), d.points(1 - seat)
            else:
                v = solver.values(d)
                own, opp = d.points(seat) + v[seat], d.points(1 - seat) + v[1 - seat]
            o, df = own - cur_own, (own - opp) - (cur_own - cur_opp)
            out.append(ActionValue(a, _label(deal, a), float(df), 0.0, float(o), 0.0, "exact",
                                   np.array([df], dtype=float)))
    else:
        if not 1 <= worlds <= MAX_WORLDS:
            raise BinokelError(f"hint: {worlds} worlds; use 1 to {MAX_WORLDS}")
        pimc = Pimc(deal.game, worlds=worlds, seed=seed)
        for a, own, opp in pimc.action_points(deal):
            o = (own - cur_own).astype(float)
            df = ((own - opp) - (cur_own - cur_opp)).astype(float)
            n = len(df)

            def se(x):
                return float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")

            out.append(ActionValue(a, _label(deal, a), float(df.mean()), se(df),
                                   float(o.mean()), se(o), n, df))
    if deal.may_claim(seat):
        out.append(ActionValue(("claim",), "claim", None, None, None, None, "exact",
                               wins_game=True))
    return out, bool(exact)


def best_of(values: list[ActionValue]) -> ActionValue:
    """The best action: a winning claim (it ends the game won, V7.5), else the highest
    mean of ``diff`` (PIMC's choice: the first of equals, in the legal order)."""
    for v in values:
        if v.wins_game:
            return v
    return max(values, key=lambda v: v.diff)


@dataclass
class StockHint:
    rules: str
    seat: int
    phase: str
    trick: int
    card: int
    hand: list
    shown_by_opponent: list
    table: str | None
    stock_left: int
    points: tuple
    values: list
    exact: bool
    worlds: int
    best: str
    played: str | None
    margin: dict | None = None

    def to_dict(self) -> dict:
        return {
            "rules": self.rules, "seat": self.seat, "phase": self.phase, "trick": self.trick,
            "card": self.card, "hand": self.hand, "opponent_shown": self.shown_by_opponent,
            "table": self.table, "stock_left": self.stock_left, "points": list(self.points),
            "exact": self.exact, "worlds": "exact" if self.exact else self.worlds,
            "actions": [{"action": v.label, "diff": v.diff, "diff_se": v.diff_se,
                         "own": v.own, "own_se": v.own_se, "n": v.n,
                         "wins_game": v.wins_game} for v in self.values],
            "best": self.best, "best_margin": self.margin, "played_in_record": self.played,
        }


def stock_hint(rec: StockRecord, trick: int | None = None, card: int | None = None,
               meld: bool = False, worlds: int = 40, seed: int = 0) -> StockHint:
    """Every legal action at a decision of a stock record, valued from the view of the
    player to act (module docstring)."""
    ph, t, k, seat, played = position(rec, trick, card, meld)
    deal = view_deal(rec, ph, t, k, seat)
    vals, exact = value_actions(deal, worlds, seed)
    best = best_of(vals)
    table = int(deal.st[sp.TABLE])
    opp = 1 - seat
    return StockHint(
        rules=rec.rules.name, seat=seat, phase=ph, trick=t, card=k,
        hand=[token(c // 2, deal.shown(c)) for c in deal.hand(seat)],
        shown_by_opponent=[token(c // 2, deal.shown(c)) for c in deal.hand(opp) if deal.shown(c)],
        table=None if table < 0 else token(table // 2, 0), stock_left=deal.stock_left(),
        points=(deal.points(seat), deal.points(opp)), values=vals, exact=exact,
        worlds=worlds, best=best.label,
        played=played, margin=best_margin(vals))


# ----------------------------------------------------------------------------- review

def best_margin(values: list[ActionValue]) -> dict | None:
    """The hint's best action against the runner-up, on the same worlds: ``{"over":
    label, "margin": mean diff, "se": paired SE, "n": worlds, "within_noise": margin <
    2 SE}``; None when there is no runner-up or the best is a winning claim.  The margin is
    measured on the worlds that chose the best, so it is optimistic; within 2 SE the worlds
    do not tell the two apart."""
    vals = [v for v in values if not v.wins_game and v.diff is not None]
    if len(vals) < 2 or any(v.wins_game for v in values):
        return None
    ranked = sorted(vals, key=lambda v: -v.diff)
    b, r = ranked[0], ranked[1]
    d = b.diffs - r.diffs
    n = len(d)
    exact = b.n == "exact"
    se = 0.0 if exact else (float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan"))
    m = float(d.mean())
    return {"over": r.label, "margin": m, "se": se, "n": "exact" if exact else n,
            "within_noise": bool(not exact and not m > 2 * se)}



@dataclass
class StockReview:
    rules: str
    worlds: int
    decisions: list       # dicts, biggest loss first
    per_seat: dict

    def to_dict(self) -> dict:
        return {"rules": self.rules, "worlds": self.worlds, "decisions": self.decisions,
                "per_seat": self.per_seat}


def stock_review(rec: StockRecord, worlds: int = 4, seed: int = 0,
                 from_trick: int = 1) -> StockReview:
    """Every decision of the record with more than one legal action (claims aside),
    valued from its player's view against the best action there: the loss in ``diff``
    points (own minus opponent's to the end of the deal).  While the stock lasts PIMC over
    ``worlds`` worlds, the loss cross-fitted (:func:`cross_fit_loss`: the best chosen on
    one half of the worlds, measured on the other; a paired SE; it may be negative), so a
    decision between equal actions costs 0 on average; ``best`` is PIMC's choice on all
    the worlds.  After the stock the exact loss (SE 0, n exact), which is also the loss in
    hindsight: every card is known then (V7.4).  A seat whose hand the record hides is skipped;
    ``from_trick``: only the decisions of that trick and later (a bound on the work)."""
    if not 2 <= worlds <= MAX_REVIEW_WORLDS:
        raise BinokelError(f"review: {worlds} worlds per decision; use 2 to {MAX_REVIEW_WORLDS} "
                           "(the loss is measured on other worlds than those choosing the best)")
    out = []
    for i, (ph, t, k, seat, a, label) in enumerate(decisions(rec)):
        if a[0] == "claim" or t < from_trick:
            continue
        try:
            deal = view_deal(rec, ph, t, k, seat)
        except BinokelError:
            continue                     # that seat's cards are hidden
        if len(deal.legal_actions(claims=False)) < 2:
            continue
        vals, exact = value_actions(deal, worlds, seed + i)
        vals = [v for v in vals if not v.wins_game]
        best = best_of(vals)
        p = next(j for j, v in enumerate(vals) if v.label == label)
        mine = vals[p]
        if exact:
            loss, se, n = float(best.diff - mine.diff), 0.0, "exact"
        else:
            loss, se, n = cross_fit_loss(np.column_stack([v.diffs for v in vals]), p)
        out.append({"phase": ph, "trick": t, "card": k, "seat": seat, "played": mine.label,
                    "best": best.label, "loss": loss, "loss_se": se, "n": n, "exact": exact})
    per = {}
    for s in (0, 1):
        mine = [x for x in out if x["seat"] == s]
        ex = [x for x in mine if x["exact"]]
        pm = [x for x in mine if not x["exact"]]
        per[str(s)] = {"decisions": len(mine),
                       "loss": float(sum(x["loss"] for x in mine)),
                       "loss_se": float(np.sqrt(sum(x["loss_se"] ** 2 for x in pm))),
                       "pimc_decisions": len(pm), "pimc_loss": float(sum(x["loss"] for x in pm)),
                       "exact_decisions": len(ex), "exact_loss": float(sum(x["loss"] for x in ex))}
    out.sort(key=lambda x: -x["loss"])
    return StockReview(rec.rules.name, worlds, out, per)


__all__ = ["stock_hint", "action_label", "stock_review", "value_actions", "best_of", "cross_fit_loss",
           "best_margin", "position", "view_deal",
           "decisions", "prefix", "StockHint", "StockReview", "MAX_WORLDS",
           "MAX_REVIEW_WORLDS"]
