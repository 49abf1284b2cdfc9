"""Replay a deal record step by step (issue 27: the page's replay view, ``/replay``).

Input: a :class:`~analyzer.mechanics.record.Deal` (a parsed record of a game without a
stock; a game with a stock, V7, is stepped by :mod:`analyzer.analyses.stock_replay`, and
:func:`check_replayable`, asked of the RuleSet, refuses it here).  Output:

- :func:`steps`: the positions of the record, one before each card it holds and one after
  the last: every hand the record holds (the soloist's after the exchange, R4), the trick
  on the table (R6), the last complete trick and its winner, card points and tricks per
  seat so far (R7: the last trick's bonus), the seat to play, its legal cards (R6 and the
  game's duties) and the card the record plays there;
- :func:`values_at`: every legal card of the seat to play valued from that player's view
  by :func:`analyzer.analyses.hint.hint` (PIMC, mean +- SE over n worlds) and, with every
  hand in the record, exactly by double dummy (the same numbers as ``binokel hint``);
- :func:`line_at`: what another card would have changed: the deal played out from the
  step after that card and after the card the record plays, both by the same method
  (double dummy when every hand is known and few tricks are left, else PIMC from each
  player's own view), each scored (R7, R8; V1 team scores, V4.6, V6.6), and the score
  difference per scoring unit.

Nothing here tests a game's name: the table, the Dabb and the sides come from the RuleSet.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import N_TYPES, card_code
from analyzer.mechanics.record import DURCH, OPEN_DURCH, OUT, Deal, in_play_seats
from analyzer.mechanics.rules import team_kernel
from analyzer.mechanics.scoring import score_sides
from analyzer.mechanics.trick import add_card, legal, relief_of, sides_of

from .hint import (DEFAULT_DD_MAX_TRICKS, DEFAULT_HORIZON, DEFAULT_WORLDS, Hint, hint,
                   view_from_record)

#: the longest record text read (a deal is ~1 kB; a file of many deals is cut by deal_no)
MAX_RECORD_CHARS = 200_000
#: PIMC worlds per decision of a PIMC line (each of up to 80 decisions runs its own hint)
LINE_WORLDS = 16


def check_replayable(rules) -> None:
    """Raise BinokelError (one line) for a game whose deals this module cannot step: one
    with a stock (V7.2: its deals are stepped by :mod:`analyzer.analyses.stock_replay`).
    Asked of the RuleSet."""
    stock = getattr(rules, "stock", None)
    if stock is not None and getattr(stock, "size", 0):
        raise BinokelError(f"{rules.name} has a stock: its deals are stepped by "
                           "analyzer.analyses.stock_replay (V7.2)")


def load(text: str, deal_no: int = 1, max_chars: int = MAX_RECORD_CHARS):
    """(deal ``deal_no`` (1-based) of the record ``text``, the number of deals in it): a
    :class:`~analyzer.mechanics.record.Deal`, or for a game with a stock a
    :class:`~analyzer.mechanics.stock_record.StockRecord` (V7; step it with
    :mod:`analyzer.analyses.stock_replay`).  A bad record raises the record module's
    one-line RecordError (its line number and rule)."""
    from analyzer.mechanics.record import parse_records

    if len(text) > max_chars:
        raise BinokelError(f"record too large ({len(text)} characters; at most {max_chars})")
    deals = parse_records(text)
    if not 1 <= deal_no <= len(deals):
        raise BinokelError(f"deal {deal_no}: the record holds {len(deals)} deal(s)")
    return deals[deal_no - 1], len(deals)


@dataclass(frozen=True)
class Step:
    """The position before card ``index`` (0-based over the whole record) is played.

    ``trick_no``/``card_no``: 1-based place of that card; ``to_play``: the seat to play
    (None once the deal is over); ``hands``: per table seat the counts (24 ints) held now,
    None where hidden or sitting out (V3); ``trick``: (seat, card) of the trick on the
    table; ``last``: (leader, ((seat, card), ...), winner) of the last complete trick or
    None; ``points``/``won``: card points and tricks per table seat so far (R7; the
    discard is counted at the end, R4); ``legal``: the legal card types of ``to_play``
    (empty where its hand is hidden); ``next_card``: the card the record plays here.
    """

    index: int
    trick_no: int
    card_no: int
    to_play: int | None
    hands: tuple
    trick: tuple
    last: tuple | None
    points: tuple
    won: tuple
    legal: tuple
    next_card: int | None


class _Walk:
    """The running state of a deal's play: hands, trick, points (R6, R7)."""

    def __init__(self, deal: Deal):
        r = self.rules = deal.rules
        k = self.k = r.kernel
        self.trump = deal.trump
        self.sol = -1 if deal.soloist is None else deal.soloist
        self.side = np.zeros(r.table.seats, dtype=np.int64)
        sides_of(k.side_rule, k.sits_out, self.sol, self.side)
        self.hands = [None if h is None else list(h) for h in deal.play_hands()]
        self.points = [0] * r.table.seats
        self.won = [0] * r.table.seats
        seats = in_play_seats(r)
        self.n_play = len(seats)
        self.leader = seats[0]
        if deal.contract in (DURCH, OPEN_DURCH) or (r.play.first_lead == "bidder"
                                                   and deal.soloist is not None):
            self.leader = deal.soloist                  # R4, V6.2
        self.trick: list[tuple[int, int]] = []
        self.last = None
        self.t_no = 1
        self.durch = deal.contract in (DURCH, OPEN_DURCH)
        self.ls = self.wc = self.ws = self.lh = -1

    def to_play(self) -> int:
        seat = self.leader
        for _ in self.trick:
            seat = int(self.k.next_seat[seat])
        return seat

    def over(self) -> bool:
        if self.t_no > self.rules.table.hand_size:
            return True
        # a Durch ends with the first trick the soloist does not win (R4)
        return self.durch and any(self.won[s] for s in range(len(self.won)) if s != self.sol)

    def legal(self) -> tuple:
        seat = self.to_play()
        h = self.hands[seat]
        if h is None or self.over():
            return ()
        k = self.k
        lo = sum(1 << t for t in range(N_TYPES) if h[t] > 0)
        rel = relief_of(seat, self.ws, self.side, k.partner_relief)
        m = int(legal(np.int64(lo), self.ls, self.wc, self.lh, self.trump, k.beat, k.follow,
                      k.trump_duty, k.beat_mode, k.overtrump, rel))
        return tuple(t for t in range(N_TYPES) if (m >> t) & 1)

    def play(self, c: int) -> None:
        seat = self.to_play()
        k = self.k
        self.ls, self.wc, self.ws, self.lh = (int(x) for x in add_card(
            c, seat, self.ls, self.wc, self.ws, self.lh, self.trump, k.beat))
        if self.hands[seat] is not None:
            self.hands[seat][c] -= 1
        self.trick.append((seat, c))
        if len(self.trick) == self.n_play:               # R6, R7: the trick to its winner
            p = sum(int(k.card_points[x]) for _, x in self.trick)
            if self.t_no == self.rules.table.hand_size:
                p += self.rules.points.last_trick
            self.points[self.ws] += p
            self.won[self.ws] += 1
            self.last = (self.leader, tuple(self.trick), self.ws)
            self.leader, self.trick = self.ws, []
            self.ls = self.wc = self.ws = self.lh = -1
            self.t_no += 1


def _cards(deal: Deal) -> list[int]:
    return [c for _, cards in deal.tricks for c in cards]


def steps(deal: Deal) -> list[Step]:
    """Every position of the record (module docstring): ``len(cards) + 1`` steps."""
    check_replayable(deal.rules)
    w = _Walk(deal)
    cards = _cards(deal)
    out = []
    for i in range(len(cards) + 1):
        over = w.over() or (i == len(cards) and deal.complete())
        out.append(Step(index=i, trick_no=w.t_no, card_no=len(w.trick) + 1,
                        to_play=None if over else w.to_play(),
                        hands=tuple(None if h is None else tuple(h) for h in w.hands),
                        trick=tuple(w.trick), last=w.last, points=tuple(w.points),
                        won=tuple(w.won), legal=() if over else w.legal(),
                        next_card=cards[i] if i < len(cards) else None))
        if i < len(cards):
            w.play(cards[i])
    return out


def _position(deal: Deal, index: int) -> tuple[int, int]:
    """(trick, card) 1-based of step ``index``; BinokelError when the record has no such
    step."""
    n = len(_cards(deal))
    if not 0 <= index <= n:
        raise BinokelError(f"step {index}: the record has steps 0-{n}")
    n_play = len(in_play_seats(deal.rules))
    return index // n_play + 1, index % n_play + 1


def values_at(deal: Deal, index: int, worlds: int = DEFAULT_WORLDS, seed: int = 0,
              horizon: int = DEFAULT_HORIZON,
              dd_max_tricks: int = DEFAULT_DD_MAX_TRICKS) -> Hint:
    """Every legal card at step ``index`` valued from the view of the seat to play: exactly
    :func:`~analyzer.analyses.hint.hint` of
    :func:`~analyzer.analyses.hint.view_from_record` (PIMC over ``worlds`` worlds of
    ``seed``; double dummy with every hand known and at most ``dd_max_tricks`` tricks
    left).  BinokelError (one line) for a step without a decision."""
    check_replayable(deal.rules)
    t, c = _position(deal, index)
    if index == len(_cards(deal)) and deal.complete():
        raise BinokelError(f"step {index}: the deal is over, nobody is to play")
    view = view_from_record(deal, t, c)
    return hint(deal.rules, view, worlds, horizon, seed, dd_max_tricks)


# --------------------------------------------------------------------------- lines

def _unit(deal: Deal, seat: int) -> int:
    """Scoring unit of a seat: its team (partners, V1) or its place among the seats in play."""
    if deal.rules.table.sides == "partners":
        return seat % 2
    return deal.in_play.index(seat)


def outcome(deal: Deal) -> dict:
    """Card points (R7: the last trick's bonus, the discard for the soloist, R4), tricks
    and the deal score (R8; V1 team scores: V4.6 / V5.7 with a Dabb, V6.6 without) per
    scoring unit of a complete ``deal``.  ``score`` is None where the record lacks what
    it needs (bid, melds, the discard)."""
    from analyzer.mechanics.rules import get_rules
    from analyzer.mechanics.scoring import score_deal

    r, k = deal.rules, deal.rules.kernel
    units = deal.units()
    pts, won, counting = [0] * units, [0] * units, [0] * units
    trick_pts = 0
    for i, ((_, cards), w) in enumerate(zip(deal.tricks, deal.winners())):
        p = sum(int(k.card_points[c]) for c in cards)
        u = _unit(deal, w)
        counting[u] += 1 if p > 0 else 0          # V6.3: a trick holding a counter
        if i + 1 == r.table.hand_size:
            p += r.points.last_trick
        pts[u] += p
        trick_pts += p
        won[u] += 1
    disc = None
    if deal.soloist is not None and r.dabb.size and deal.discard is not None:
        disc = sum(int(k.card_points[c]) * deal.discard[c] for c in range(N_TYPES))
    score = None
    sol = deal.soloist
    durch = deal.contract in (DURCH, OPEN_DURCH)
    if sol is not None and deal.bid is not None and deal.contract not in (None, OUT) and \
            (deal.melds is not None or durch) and (disc is not None or not r.dabb.size):
        su = _unit(deal, sol)
        flat = get_rules(r.name)
        if r.table.sides == "partners":
            score = _team_score(deal, flat, su, pts, won, counting, disc or 0)
        else:
            kind = "open_durch" if deal.contract == OPEN_DURCH else "durch" if durch else "normal"
            sc = score_deal(su, deal.bid, pts, won, deal.melds or (0,) * units,
                            discard_points=disc or 0, kind=kind, rules=flat)
            score = tuple(int(x) for x in sc.scores)
    shown = list(pts)
    if disc is not None:
        shown[_unit(deal, sol)] += disc
    return {"points": tuple(shown), "won": tuple(won), "score": score}


def _team_score(deal, flat, su, pts, won, counting, disc):
    """V1 team scores by score_sides: with a Dabb the discard counts for the soloist's
    side (V4.6); melds need a trick, or a counting trick where the game says so (V6.6).
    A Durch: None (hint refuses it)."""
    if deal.contract in (DURCH, OPEN_DURCH):
        return None
    tk = team_kernel(flat)
    out = np.zeros(2, dtype=np.int64)
    p = np.array(pts, dtype=np.int64)
    m = np.array(deal.melds, dtype=np.int64)
    if deal.rules.dabb.size:
        p[su] += disc
    score_sides(su, deal.bid, m, p, np.array(won, dtype=np.int64),
                np.array(counting, dtype=np.int64), tk, out)
    return (int(out[0]), int(out[1]))


def _with_cards(deal: Deal, cards: list[int]) -> Deal:
    """``deal`` with its play replaced by ``cards`` (tricks led by each winner, R6); the
    recorded results dropped (they belong to the recorded play)."""
    w = _Walk(deal)
    tricks, cur, lead = [], [], w.leader
    for c in cards:
        if not cur:
            lead = w.leader
        cur.append(c)
        w.play(c)
        if len(cur) == w.n_play:
            tricks.append((lead, tuple(cur)))
            cur = []
    if cur:
        tricks.append((lead, tuple(cur)))
    return replace(deal, tricks=tuple(tricks), points=None, won=None, score=None)


def _play_out(deal: Deal, cards: list[int], method: str, worlds: int, seed: int,
              horizon: int):
    """Continue the play ``cards`` to the end of the deal: each seat plays the card the
    ``method`` picks (``dd``: the best double-dummy card for its side; ``pimc``: hint's
    best from its own view).  Returns (cards of the whole deal, the completed Deal)."""
    from analyzer.search.solve_any import card_values, dd_solver

    cards = list(cards)
    solver = dd_solver(deal.rules) if method == "dd" else None
    trump = None if deal.trump < 0 else "CSHD"[deal.trump]
    i = 0
    while True:
        w = _Walk(deal)
        for c in cards:
            w.play(c)
        if w.over():
            break
        seat = w.to_play()
        lg = w.legal()
        if len(lg) == 1:
            pick = lg[0]
        elif method == "dd":
            hands = [h if h is not None else [0] * N_TYPES for h in w.hands]
            vals = card_values(deal.rules, [tuple(h) for h in hands], trump, deal.soloist,
                               w.leader, tuple(c for _, c in w.trick), solver)
            mine = w.side[seat] == w.side[deal.soloist]
            pick = sorted(lg, key=lambda t: (-vals[t] if mine else vals[t], t))[0]
        else:
            part = _with_cards(deal, cards)
            h = hint(deal.rules, view_from_record(part), worlds, horizon, seed * 1000 + i, 0)
            pick = h.best
        cards.append(pick)
        i += 1
    return cards, _with_cards(deal, cards)


def line_at(deal: Deal, index: int, card: int, worlds: int = LINE_WORLDS, seed: int = 0,
            horizon: int = DEFAULT_HORIZON, dd_max_tricks: int = DEFAULT_DD_MAX_TRICKS) -> dict:
    """What ``card`` (a card type) at step ``index`` would have changed (module docstring).

    Needs every hand in the record (a line is played on the true cards).  The method is
    double dummy when at most ``dd_max_tricks`` tricks are left at the step, else PIMC
    (``worlds`` worlds per decision, each seat from its own view).  Returns a dict: method,
    the step, the card, the seat to play, ``alt`` and ``played`` (each: the cards played
    from the step on as (trick number, seat, card), the winner of every trick of the deal
    (R6) and :func:`outcome`), and
    ``diff`` (alt - played per scoring unit: card points and score).  BinokelError (one
    line) for a hidden hand, an illegal card or a step without a decision."""
    check_replayable(deal.rules)
    st = steps(deal)
    _position(deal, index)
    s = st[index]
    if s.to_play is None:
        raise BinokelError(f"step {index}: the deal is over, nobody is to play")
    hidden = [q for q in in_play_seats(deal.rules) if s.hands[q] is None]
    if hidden:
        raise BinokelError(f"a line is played on the true cards: the record hides the hand of "
                           f"seat {hidden[0]} (PIMC values from the player's view need no line)")
    if deal.soloist is None or deal.contract in (None, OUT):
        raise BinokelError("the record has no soloist with a played contract (R4)")
    low = deal.rules.deck.low_card
    if card not in s.legal:
        raise BinokelError(f"step {index}: seat {s.to_play} may not play "
                           f"{card_code(card, low)}: the legal cards are "
                           + " ".join(card_code(t, low) for t in s.legal) + " (R6)")
    tricks_left = deal.rules.table.hand_size - s.trick_no + 1
    method = "dd" if tricks_left <= dd_max_tricks else "pimc"
    prefix = _cards(deal)[:index]
    out = {"method": method, "index": index, "seat": s.to_play, "card": card,
           "worlds": worlds if method == "pimc" else None}
    for key, first in (("alt", card), ("played", s.next_card)):
        if first is None:
            out[key] = None
            continue
        full, done = _play_out(deal, prefix + [first], method, worlds, seed, horizon)
        out[key] = {"cards": _seated(deal, full)[index:], "outcome": outcome(done),
                    "winners": tuple(done.winners())}
    if out["played"] is not None:
        a, p = out["alt"]["outcome"], out["played"]["outcome"]
        out["diff"] = {"points": tuple(x - y for x, y in zip(a["points"], p["points"])),
                       "score": None if a["score"] is None or p["score"] is None
                       else tuple(x - y for x, y in zip(a["score"], p["score"]))}
    else:
        out["diff"] = None
    return out


def _seated(deal: Deal, cards: list[int]) -> list[tuple[int, int, int]]:
    """(trick number, seat, card) of each card of a play."""
    w = _Walk(deal)
    out = []
    for c in cards:
        out.append((w.t_no, w.to_play(), c))
        w.play(c)
    return out


__all__ = ["Step", "load", "steps", "values_at", "line_at", "outcome", "check_replayable",
           "LINE_WORLDS"]
