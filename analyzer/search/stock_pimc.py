"""PIMC for the stock phase of a stock game (``binokel-2``, V7): worlds consistent with
what the player to act knows, each action played on in every world with the heuristic
to the end of the stock and solved exactly afterwards (V7.4).

What the player knows (V7): its own hand with the kinds each card was shown in, the
turned trump (at the bottom of the stock, or with whoever drew it: it was face up), the
opponent's shown cards (still in its hand until played), every card played, the stock
count, the scores.  A world deals the unseen cards (the opponent's unshown cards and the
face-down stock, never the turned card, never a shown card) at random between the
opponent's hidden hand and the stock, in a random order, the turned card kept last
(:func:`sample_world`; the reference's ``sample_world``).  Once the stock is gone the game
is of perfect information and the exact solver plays.

An action's value is the mean over the worlds (the same worlds for every action) of own
deal points minus the opponent's at the end of the deal: melds make the deal non-zero-sum,
the difference makes it zero-sum.
"""
from __future__ import annotations

import random

import numpy as np

from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.stock_deal import StockDeal, cards_of
from analyzer.search.stock_policies import Heuristic


def unseen(deal: StockDeal, seat: int) -> tuple[list[int], list[int], int]:
    """(the opponent's hidden cards, the face-down stock cards, the turned card or -1 if it
    has left the stock) as ``seat`` cannot see them."""
    st = deal.st
    opp = 1 - seat
    turned = deal.turned
    hidden = [c for c in deal.hand(opp) if not deal.shown(c) and c != turned]
    stock = [int(c) for c in st[sp.STOCK + st[sp.SPOS]:sp.STOCK + st[sp.SSIZE]]]
    in_stock = bool(stock) and stock[-1] == turned
    if in_stock:
        stock = stock[:-1]
    return hidden, stock, (turned if in_stock else -1)


def sample_world(deal: StockDeal, seat: int, rng: random.Random) -> StockDeal:
    """A full deal consistent with what ``seat`` knows (module docstring); once the stock
    is gone, a copy of ``deal`` itself (perfect information, V7.4)."""
    world = deal.copy()
    if deal.stock_left() == 0:
        return world
    hidden, stock, turned = unseen(deal, seat)
    pool = hidden + stock
    rng.shuffle(pool)
    st = world.st
    opp = 1 - seat
    keep = 0
    for c in deal.hand(opp):
        if deal.shown(c) or c == deal.turned:
            keep |= 1 << c
    mask = keep
    for c in pool[:len(hidden)]:
        mask |= 1 << c
    st[sp.H0 + opp] = np.int64(mask)
    pos = int(st[sp.SPOS])
    rest = pool[len(hidden):] + ([turned] if turned >= 0 else [])
    for i, c in enumerate(rest):
        st[sp.STOCK + pos + i] = c
    return world


class Pimc:
    """PIMC while the stock lasts, the exact solver after it; ``worlds`` per decision."""

    def __init__(self, game, worlds: int = 8, seed: int = 0):
        self.game = game
        self.worlds = worlds
        self.h = Heuristic(game)
        self.rng = random.Random(seed)
        self.stats = {"decisions": 0, "rollouts": 0}

    def reseed(self, seed: int) -> None:
        """Restart the world generator (a match reseeds it per play: the same play gives
        the same decisions whatever was played before)."""
        self.rng.seed(seed)

    def _finish(self, d: StockDeal, seat: int) -> int:
        """Own minus opponent points at the end of the deal: the heuristic to the end of
        the stock, the exact solver after it."""
        own, opp = self._finish_points(d, seat)
        return own - opp

    def _finish_points(self, d: StockDeal, seat: int) -> tuple[int, int]:
        """(own, opponent's) points at the end of the deal (:meth:`_finish`); a game ended
        by a claim (V7.5) counts 1000 for its winner and 0 for the other."""
        rng = self.rng
        while not d.over() and (d.stock_left() > 0 or d.st[sp.TO_MELD] >= 0):
            d.apply(self.h(d, rng))
        if d.over():
            w = d.winner()
            if w >= 0:                 # a claim ended the game (V7.5)
                return (1000, 0) if w == seat else (0, 1000)
            return d.points(seat), d.points(1 - seat)
        v0, v1 = self.h.solver.values(d)
        own = d.points(seat) + (v0 if seat == 0 else v1)
        opp = d.points(1 - seat) + (v1 if seat == 0 else v0)
        return own, opp

    def action_points(self, deal: StockDeal, worlds: int | None = None):
        """[(action, own, opp)] for every legal action of the player to act (no claims),
        ``own``/``opp`` int arrays of the points at the end of the deal in each of the same
        sampled worlds (what :meth:`action_values` averages)."""
        seat = deal.to_act()
        n = self.worlds if worlds is None else worlds
        ws = [sample_world(deal, seat, self.rng) for _ in range(n)]
        out = []
        for a in deal.legal_actions(claims=False):
            own = np.zeros(n, dtype=np.int64)
            opp = np.zeros(n, dtype=np.int64)
            for i, w in enumerate(ws):
                d = w.copy()
                d.apply(a)
                own[i], opp[i] = self._finish_points(d, seat)
                self.stats["rollouts"] += 1
            out.append((a, own, opp))
        return out

    def action_values(self, deal: StockDeal, worlds: int | None = None):
        """[(action, mean, se, n)] for every legal action of the player to act (no claims:
        a winning claim is taken at once), over the same sampled worlds: own minus
        opponent points at the end of the deal."""
        out = []
        for a, own, opp in self.action_points(deal, worlds):
            v = (own - opp).astype(float)
            se = float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan")
            out.append((a, float(v.mean()), se, len(v)))
        return out

    def __call__(self, deal: StockDeal, rng: random.Random):
        seat = deal.to_act()
        if deal.may_claim(seat):
            return ("claim",)
        if deal.stock_left() == 0 and deal.st[sp.TO_MELD] < 0:
            return ("play", self.h.solver.best_play(deal))
        acts = deal.legal_actions(claims=False)
        if len(acts) == 1:
            return acts[0]
        self.stats["decisions"] += 1
        vals = self.action_values(deal)
        return max(vals, key=lambda x: x[1])[0]


__all__ = ["Pimc", "cards_of", "sample_world", "unseen"]
