"""Policies of a stock game (``binokel-2``, V7): random, a heuristic, and the exact solver
once the stock is gone; plus the meld orders of one hand (V7.3), which the heuristic and
the ``melds`` command share.

A policy is ``policy(deal, rng) -> action`` (actions of
:mod:`analyzer.mechanics.stock_deal`).  While the stock lasts a policy reads only what the
player to act knows (V7 "what each player knows"): its own hand and the kinds each card
was shown in, the turned trump, the cards played and shown, the card on the table, the
stock count and the scores (``_Known``); never the opponent's hidden cards or the stock
order.  Once the stock is gone every card is placed (V7.4) and the exact solver plays.
Policies never claim below the target (V7.5 Reading): a claim is offered only when it wins.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics import trick as tr
from analyzer.mechanics.stock_deal import StockDeal, rules_of
from analyzer.search.stock_solve import EndgameSolver

_A, _T, _K, _Q, _J, _LOW = range(6)


# ---------------------------------------------------------------- meld orders (V7.3)

def probe_state(game, types, trump: int) -> np.ndarray:
    """A kernel state in which seat 0 holds the card ``types`` (copies assigned in order)
    and may meld under ``trump`` while the stock lasts: the ``melds`` command's hand."""
    counts = [0] * 24
    st = np.zeros(sp.STATE_LEN, dtype=np.int64)
    for t in types:
        if counts[t] >= 2:
            raise BinokelError(f"V7.1: 3 copies of {_code(t)}; the deck holds two of each card")
        st[sp.H0] |= np.int64(1) << np.int64(2 * t + counts[t])
        counts[t] += 1
    st[sp.TRUMP] = trump
    st[sp.TURNED] = 2 * (trump * 6 + _T)       # any card of trump: no turned Dissle here
    st[sp.TO_MELD] = 0
    st[sp.LEADER] = 0
    st[sp.TABLE] = -1
    st[sp.LAST] = st[sp.WINNER] = st[sp.CLAIMED] = -1
    st[sp.SSIZE] = rules_of(game).params[sp.P_STOCK]
    return st


def _code(t: int) -> str:
    return ("A", "10", "K", "Q", "J", "7")[t % 6] + "CSHD"[t // 6]


def _melds_now(st, seat, r):
    s = st.copy()
    s[sp.TO_MELD] = seat
    mb = np.zeros(sp.MAX_MELDS, dtype=np.int64)
    pb = np.zeros(sp.MAX_MELDS, dtype=np.int64)
    n = sp.legal_melds(s, r.params, r.pat_kind, r.pat_need, mb, pb)
    return [(int(mb[i]), int(pb[i])) for i in range(n)]


def best_order(st, seat: int, r, memo=None) -> tuple[int, tuple]:
    """The most ``seat``'s present hand can still meld, one meld per won trick, keeping its
    cards (V7.3), and one order reaching it: (total, ((mask, pattern), ...)).  Exhaustive
    over every order, with a table on the kinds shown; the cards that may still be drawn
    or played are ignored.  The reference's ``best_meld_order``."""
    memo = {} if memo is None else memo
    hand = int(st[sp.H0 + seat])
    key = (hand, st[sp.SHOWN:sp.SHOWN + 48].tobytes(), int(st[sp.DISSLE_DONE]))
    if key in memo:
        return memo[key]
    best = (0, ())
    for m, p in _melds_now(st, seat, r):
        s = st.copy()
        s[sp.TO_MELD] = seat
        sp.show_meld(s, np.int64(m), p, r.params, r.pat_kind, r.pat_value)
        gain = int(s[sp.MELD0 + seat] - st[sp.MELD0 + seat])
        v, rest = best_order(s, seat, r, memo)
        if gain + v > best[0]:
            best = (gain + v, ((m, p),) + rest)
    memo[key] = best
    return best


def first_meld_table(st, seat: int, r) -> list[tuple[int, int, int, tuple]]:
    """Every meld ``seat`` may show first, with its value now and the best total of an
    order starting with it: [(mask, pattern, value, (total, order))], best first."""
    memo: dict = {}
    rows = []
    for m, p in _melds_now(st, seat, r):
        s = st.copy()
        s[sp.TO_MELD] = seat
        sp.show_meld(s, np.int64(m), p, r.params, r.pat_kind, r.pat_value)
        gain = int(s[sp.MELD0 + seat] - st[sp.MELD0 + seat])
        v, rest = best_order(s, seat, r, memo)
        rows.append((m, p, gain, (gain + v, ((m, p),) + rest)))
    rows.sort(key=lambda x: (-x[3][0], -x[2], x[1], x[0]))
    return rows


# ---------------------------------------------------------------- what the player knows

@dataclass
class _Known:
    """What the player to act knows while the stock lasts (V7): its hand, the cards it has
    seen leave play or lie shown by the opponent, the stock count."""

    seat: int
    hand: list
    seen_out: set          # physical cards played (every trick so far) or shown by the opponent
    stock_left: int
    trump: int
    table: int             # physical card led, -1


def known(deal: StockDeal) -> _Known:
    seat = deal.to_act()
    opp = 1 - seat
    seen = {e[2] for e in deal.log if e[0] == "play"}
    seen |= {c for c in deal.hand(opp) if deal.shown(c)}
    return _Known(seat, deal.hand(seat), seen, deal.stock_left(), deal.trump,
                  int(deal.st[sp.TABLE]))


# ---------------------------------------------------------------- the policies

def random_policy(deal: StockDeal, rng: random.Random):
    """Uniform over the legal actions (claims only when they win, V7.5)."""
    return rng.choice(deal.legal_actions(claims=True))


class Heuristic:
    """Rules of thumb (each a method): claim as soon as it wins; show the meld that starts
    the best order of the hand (so a trump pair before its quint major), but hold a four or
    a binokel while the eight or a bigger binokel is still possible and the stock is
    long; lead a cheap card unless a meld waits for a won trick; take a trick that is worth
    points or lets me meld with the cheapest winning card; keep trumps and aces for the
    second half; after the stock, play the exact solver's card (V7.4)."""

    #: stock cards left at which a four is still held for its eight (V7.3: an eight is shown at once)
    hold_stock = 8

    def __init__(self, game):
        self.game = game
        self.r = rules_of(game)
        self.solver = EndgameSolver(self.r)

    def __call__(self, deal: StockDeal, rng: random.Random):
        seat = deal.to_act()
        if deal.may_claim(seat):
            return ("claim",)
        if deal.st[sp.TO_MELD] >= 0:
            return self.meld(deal, seat)
        if deal.stock_left() == 0:
            return ("play", self.solver.best_play(deal))
        return ("play", self.play(deal, seat))

    # -- melds
    def _still_possible(self, deal, seat, pattern_big) -> bool:
        """Whether the cards of the bigger meld ``pattern_big`` missing from the hand are
        unseen (neither played nor shown by the opponent)."""
        k = known(deal)
        need = self.r.pat_need[deal.trump, pattern_big]
        for t in range(24):
            have = sum(1 for c in k.hand if c // 2 == t)
            if need[t] > have:
                gone = sum(1 for c in k.seen_out if c // 2 == t and c not in k.hand)
                if gone > 2 - need[t]:
                    return False
        return True

    def _bigger(self, deal, p) -> list[int]:
        """The melds of the same kind that contain meld ``p`` and are worth more (an eight
        holds its four, a grand or double binokel the binokel): once ``p`` is shown its
        cards never join them (V7.3)."""
        tr_, r = deal.trump, self.r
        need, kind, val = r.pat_need[tr_], r.pat_kind[tr_], r.pat_value[tr_]
        return [q for q in range(len(kind)) if q != p and kind[q] == kind[p] and kind[q]
                and val[q] > val[p] and (need[q] >= need[p]).all()]

    def meld(self, deal, seat):
        rows = first_meld_table(deal.st, seat, self.r)
        for m, p, value, (total, _) in rows:
            if deal.stock_left() >= self.hold_stock and any(
                    self._still_possible(deal, seat, q) for q in self._bigger(deal, p)):
                continue       # hold the four (binokel) for the eight (grand, double binokel)
            if value > 0:      # a Dissle scored before (turned or shown) gains nothing
                return ("meld", m, p)
        return ("pass",)

    # -- play while the stock lasts
    def _meld_cards(self, deal, seat) -> int:
        mask = 0
        for m, _ in _melds_now(deal.st, seat, self.r):
            mask |= m
        return mask

    def keep(self, deal, c, meld_mask) -> int:
        """How much the player wants to keep card ``c``: points, trumps and aces for the
        second half, cards of a meld still to show."""
        t = c // 2
        v = int(self.r.params[sp.P_POINTS + t])
        if t // 6 == deal.trump:
            v += 40
        if t % 6 == _A:
            v += 15
        if (meld_mask >> c) & 1 and not deal.shown(c):
            v += 30
        return v

    def play(self, deal, seat) -> int:
        legal = deal.legal_plays()
        meld_mask = self._meld_cards(deal, seat)
        pending = max((self.r.pat_value[deal.trump, p] for _, p in _melds_now(deal.st, seat, self.r)),
                      default=0)
        table = int(deal.st[sp.TABLE])
        keep = {c: self.keep(deal, c, meld_mask) for c in legal}
        if table < 0:
            if pending >= 40:   # a meld waits: lead a plain ace or ten outside the melds
                strong = [c for c in legal if (c // 2) // 6 != deal.trump
                          and (c // 2) % 6 in (_A, _T) and not (meld_mask >> c) & 1]
                if strong:
                    return min(strong, key=lambda c: ((c // 2) % 6, c))
            return min(legal, key=lambda c: (keep[c], c))
        led = table // 2
        winners = [c for c in legal if tr.beats(c // 2, led, deal.trump, self.r.beat)]
        worth = int(self.r.params[sp.P_POINTS + led])
        if winners and (pending > 0 or worth >= 10):
            return min(winners, key=lambda c: (keep[c], c))
        return min(legal, key=lambda c: (keep[c], c))


class GreedyMelds(Heuristic):
    """The heuristic, except that it always shows the meld worth most now (no order, no
    holding for a bigger meld): what the meld timing of :class:`Heuristic` is worth is
    the duplicate difference between the two (V7.3)."""

    def meld(self, deal, seat):
        opts = _melds_now(deal.st, seat, self.r)
        if not opts:
            return ("pass",)
        m, p = max(opts, key=lambda x: (self.r.pat_value[deal.trump, x[1]], -x[1]))
        return ("meld", m, p)
