"""Replay a deal record of a game with a stock (``binokel-2``, docs/VARIANTS.md V7) step by
step: the replay view of the page (``/replay``, issue 27) for the two-hand game.

Input: a :class:`~analyzer.mechanics.stock_record.StockRecord` (a parsed record; the
RuleSet has a stock part, never asked by the game's name).  Output:

- :func:`steps`: one step before every decision the record holds (a card to play, the
  winner's meld or none after a trick while the stock lasts, a claim; V7.2, V7.3, V7.5;
  the passes a record leaves implied included) and one after the last: both hands (the
  kinds each card was shown in, V7.3; ``None`` for a hand the record hides), the turned
  trump card while it lies under the stock (V7.1) and the cards left in the stock, the
  trick on the table, the last complete trick and its winner, the melds shown so far, the
  draws after the last trick (V7.2), deal points per seat so far (melds, Dissles, card
  points, the last trick: V7.4), the seat to act, its legal actions and the record's;
- :func:`values_at`: every legal action at a step valued from the player's view by
  :func:`analyzer.analyses.stock_hint.stock_hint` (PIMC over worlds of what the player
  knows while the stock lasts, mean +- SE over n; exact once it is gone, V7.4);
- :func:`line_at`: what another action would have changed: the deal played on from the
  step after that action and after the record's, on the record's true cards (both hands
  and the stock), each seat deciding from its own view (PIMC with numba greedy rollouts,
  :class:`analyzer.search.stock_pimc_fast.PimcFast`, while the stock lasts; the exact
  solver after it, V7.4), and the difference in deal points per seat.

The trump-seven exchange some two-hand games have is not a rule of V7 (the turned 7 is
the dealer's Dissle, V7.1), so no step offers it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.stock_record import StockRecord, replay, token

from .stock_hint import action_label, decisions, stock_hint

#: worlds of a hint on the page: PIMC plays every action on in each world with the
#: heuristic and solves the endgame exactly (~1 s a world early in a deal on a busy core)
DEFAULT_WORLDS, MAX_WORLDS = 8, 64
#: worlds per decision of a line's PIMC (numba rollouts: ~0.6 s for a whole deal at 32)
DEFAULT_LINE_WORLDS, MAX_LINE_WORLDS = 16, 32


def has_stock(rules) -> bool:
    """True for a game with a stock (V7): asked of the RuleSet's stock part."""
    stock = getattr(rules, "stock", None)
    return bool(stock is not None and stock.size)


@dataclass(frozen=True)
class StockStep:
    """The position before decision ``index`` of the record (module docstring).

    ``phase``: "play", "meld" or "over"; ``trick_no``/``card_no``: the trick and its card
    (1 lead, 2 reply; 0 at a meld decision, after trick ``trick_no``); ``hands``: per seat
    the card tokens held (``KS/p``: shown in a pair, V7.3) or None (hidden);
    ``trick``: (seat, token) on the table; ``last``: (leader, ((seat, token), ...),
    winner) or None; ``melds``: (seat, name, value, tokens) shown so far; ``draws``:
    (seat, token or None) drawn after the last trick; ``points``: deal points per seat;
    ``won``: tricks per seat; ``stock_left``: cards still to draw (the turned one
    included); ``turned``: the turned card while it is in the stock, else None;
    ``legal``: labels of the legal actions of ``to_play`` (empty where its hand is
    hidden); ``next``: the label of the record's action (None after the last);
    ``before``: the game score of each seat before the deal (V7.5)."""

    index: int
    phase: str
    trick_no: int
    card_no: int
    to_play: int | None
    hands: tuple
    trick: tuple
    last: tuple | None
    melds: tuple
    draws: tuple
    points: tuple
    won: tuple
    stock_left: int
    turned: str | None
    legal: tuple
    next: str | None
    before: tuple


def _visible(rec: StockRecord) -> tuple[bool, bool]:
    """Per seat: does the record show every card that seat holds in the deal (its hand
    and every card it draws; V7.2)?  A hidden draw hides the hand from then on: shown
    conservatively as hidden throughout."""
    out = []
    for s in (0, 1):
        ok = rec.hands[s] is not None
        if ok and rec.stock is None:
            ok = all(t is not None for m in rec.moves if m[0] == "draw"
                     for q, t in m[1] if q == s)
        out.append(ok)
    return tuple(out)


def _snapshots(rec: StockRecord) -> list:
    """(StockDeal copy before each decision, its decision tuple) and the deal at the end:
    [(deal, decision or None), ...]; the deal is replayed on one world consistent with
    the record (stock_record.world_order): a hidden hand's cards there are not shown."""
    ds = decisions(rec)
    snaps = []
    end = replay(rec, on_decision=lambda deal, a, mi: snaps.append(deal.copy()))
    out = list(zip(snaps, ds))
    out.append((end, None))
    return out


def _step(i: int, deal, dec, visible, rec) -> StockStep:
    st = deal.st
    over = deal.over()
    seat = None if over else deal.to_act()
    meld = not over and int(st[sp.TO_MELD]) >= 0
    tricks = int(st[sp.TRICKS])
    table = int(st[sp.TABLE])
    hands = tuple(tuple(token(c // 2, deal.shown(c)) for c in deal.hand(s)) if visible[s]
                  else None for s in (0, 1))
    # the log: tricks won, the draws after the last trick; the cards of the tricks and
    # melds as the record writes them (the kinds a card was shown in when played, V7.3)
    won, draws = [0, 0], []
    winners = []
    for e in deal.log:
        if e[0] == "trick":
            winners.append(int(e[1]))
            won[int(e[1])] += 1
            draws = []
        elif e[0] == "draw":
            q, c = e[1], e[2]
            draws.append((q, token(c // 2, 0) if visible[q] or c == deal.turned else None))
    rt = [m for m in rec.moves if m[0] == "trick"]
    last = None
    if tricks:
        m = rt[tricks - 1]
        last = (m[1], _seated(m), winners[-1])
    trick = _seated(rt[tricks])[:1] if table >= 0 else ()
    n_melds = sum(1 for e in deal.log if e[0] == "meld")
    melds = tuple((m[1], m[2], m[3], tuple(token(t, k) for t, k in m[4]))
                  for m in rec.moves if m[0] == "meld")[:n_melds]
    legal, nxt = (), None
    if seat is not None and visible[seat]:
        legal = tuple(action_label(deal, a) for a in deal.legal_actions())
    if dec is not None:
        nxt = dec[5]
    left = deal.stock_left()
    turned = token(deal.turned // 2, 0) if left > 0 else None
    return StockStep(index=i, phase="over" if over else "meld" if meld else "play",
                     trick_no=tricks if meld or over else tricks + 1,
                     card_no=0 if meld or over else (1 if table < 0 else 2),
                     to_play=seat, hands=hands, trick=trick, last=last,
                     melds=melds, draws=tuple(draws),
                     points=(deal.points(0), deal.points(1)), won=tuple(won),
                     stock_left=left, turned=turned, legal=legal, next=nxt,
                     before=tuple(int(x) for x in rec.before))


def _seated(move) -> tuple:
    """((seat, token), ...) of a record's trick move (leader first)."""
    return tuple(((move[1] + j) % 2, token(t, k)) for j, (t, k) in enumerate(move[2]))


def steps(rec: StockRecord) -> list[StockStep]:
    """Every position of the record (module docstring): one per decision, one after."""
    vis = _visible(rec)
    return [_step(i, d, dec, vis, rec) for i, (d, dec) in enumerate(_snapshots(rec))]


def check_step(rec: StockRecord, index: int, n_steps: int | None = None) -> None:
    """BinokelError (one line) for a step the record does not have."""
    n = len(decisions(rec)) if n_steps is None else n_steps - 1
    if not 0 <= index <= n:
        raise BinokelError(f"step {index}: the record has steps 0-{n}")


def values_at(rec: StockRecord, index: int, worlds: int = DEFAULT_WORLDS, seed: int = 0):
    """Every legal action at step ``index`` valued from the view of the player to act:
    exactly :func:`~analyzer.analyses.stock_hint.stock_hint` at that decision (PIMC over
    ``worlds`` worlds of ``seed`` while the stock lasts, exact after it, V7.4).
    BinokelError (one line) for a step without a decision or a hidden hand."""
    ds = decisions(rec)
    check_step(rec, index, len(ds) + 1)
    if not 1 <= worlds <= MAX_WORLDS:
        raise BinokelError(f"worlds: {worlds}; use 1 to {MAX_WORLDS}")
    if index < len(ds):
        ph, t, k = ds[index][:3]
        return stock_hint(rec, t, k or None, ph == "meld", worlds, seed)
    if rec.complete():
        raise BinokelError(f"step {index}: the deal is over, nobody is to act (V7.4, V7.5)")
    return stock_hint(rec, None, None, False, worlds, seed)


def _play_on(deal, worlds: int, seed: int) -> tuple[list, object]:
    """Play ``deal`` to its end or a claim, each seat by PimcFast from its own view (the
    exact solver after the stock, V7.4).  Returns (events, the finished deal): events
    are ``(trick_no, seat, kind, label)`` with kind play, meld, pass or claim."""
    from analyzer.search.stock_pimc_fast import PimcFast

    pol = PimcFast(deal.game, worlds=worlds)
    rng = random.Random(seed)
    events = []
    while not deal.over():
        a = pol(deal, rng)
        seat = deal.to_act()
        t = int(deal.st[sp.TRICKS]) + (0 if deal.st[sp.TO_MELD] >= 0 else 1)
        events.append((t, seat, a[0], action_label(deal, a)))
        deal.apply(a)
    return events, deal


def _outcome(deal, before) -> dict:
    """Deal points per seat (V7.4), the game score after it and the claimant (V7.5)."""
    pts = (deal.points(0), deal.points(1))
    claim = next((e[1] for e in deal.log if e[0] == "claim"), None)
    return {"points": pts, "game": tuple(b + p for b, p in zip(before, pts)),
            "claim": claim, "game_winner": None if deal.winner() < 0 else deal.winner()}


def line_at(rec: StockRecord, index: int, action: str,
            worlds: int = DEFAULT_LINE_WORLDS, seed: int = 0) -> dict:
    """What ``action`` (a label of the step's legal actions: a card token, ``pass``, a
    meld's label, ``claim``) would have changed (module docstring).  Returns a dict:
    method ("exact" once the stock is gone, else "pimc"), the step, the seat, the action,
    ``alt`` and ``played`` (events from the step on, the winner of each trick from the
    step on, and the outcome: points, game, claim) and ``diff`` (alt - played deal points
    per seat).  BinokelError (one line) for a hidden hand or stock, an illegal action or a
    step without a decision."""
    if not 1 <= worlds <= MAX_LINE_WORLDS:
        raise BinokelError(f"worlds: {worlds}; use 1 to {MAX_LINE_WORLDS}")
    snaps = _snapshots(rec)
    check_step(rec, index, len(snaps))
    hidden = [s for s in (0, 1) if rec.hands[s] is None]
    if hidden:
        raise BinokelError(f"a line is played on the true cards: the record hides the hand of "
                           f"seat {hidden[0]} (the values from the player's view need no line)")
    if rec.stock is None:
        raise BinokelError("a line is played on the true cards: the record hides the stock "
                           "(`Stock ?`, V7.2; the values from the player's view need no line)")
    deal, dec = snaps[index]
    if deal.over():
        raise BinokelError(f"step {index}: the deal is over, nobody is to act (V7.4, V7.5)")
    acts = {action_label(deal, a): a for a in deal.legal_actions()}
    want = action.strip()
    if want not in acts:
        up = {k.upper(): k for k in acts}
        want = up.get(want.upper(), want)
    if want not in acts:
        raise BinokelError(f"step {index}: {want[:60]!r} is no legal action of seat "
                           f"{deal.to_act()}: its legal actions are " + ", ".join(acts)
                           + " (V7.2-V7.5)")
    method = "exact" if deal.stock_left() == 0 and deal.st[sp.TO_MELD] < 0 else "pimc"
    out = {"method": method, "index": index, "seat": deal.to_act(), "action": want,
           "worlds": worlds if method == "pimc" else None,
           "trick": int(deal.st[sp.TRICKS]) + (0 if deal.st[sp.TO_MELD] >= 0 else 1)}
    for key, a in (("alt", acts[want]), ("played", None if dec is None else dec[4])):
        if a is None:
            out[key] = None
            continue
        d = deal.copy()
        first = (out["trick"], d.to_act(), a[0], action_label(d, a))
        d.apply(a)
        events, done = _play_on(d, worlds, seed)
        n0 = sum(1 for e in deal.log if e[0] == "trick")
        out[key] = {"events": [first] + events, "outcome": _outcome(done, rec.before),
                    "winners": [int(e[1]) for e in done.log if e[0] == "trick"][n0:],
                    "first_trick": n0 + 1}
    if out["played"] is not None:
        a, p = out["alt"]["outcome"], out["played"]["outcome"]
        out["diff"] = {"points": tuple(x - y for x, y in zip(a["points"], p["points"]))}
    else:
        out["diff"] = None
    return out


def sample(game, seed: int) -> StockRecord:
    """The record ``binokel play --rules NAME --seed SEED --policy heuristic --record
    FILE`` writes (the heuristic at both seats, V7)."""
    from analyzer.search.stock_registry import record_deal

    src = f"binokel play --rules {game.name} --seed {seed} --policy heuristic"
    return record_deal(game, seed, ("heuristic", "heuristic"), source=src)


__all__ = ["StockStep", "steps", "values_at", "line_at", "sample", "has_stock", "check_step",
           "DEFAULT_WORLDS", "MAX_WORLDS", "DEFAULT_LINE_WORLDS", "MAX_LINE_WORLDS"]
