"""``solve`` for a game with a stock (``binokel-2``, docs/VARIANTS.md V7): the exact
endgame of a seeded deal.

While the stock lasts a player does not know the other's hand, so there is no
double-dummy value to give; once the stock is gone every card not in one's own hand and
not yet played is in the other's (V7.4), and the rest of the deal is a game of perfect
information that :class:`analyzer.search.stock_solve.EndgameSolver` solves exactly.

:func:`endgame_of_seed` deals the seeded deal (the deal ``binokel play --rules binokel-2
--seed N`` shows), plays it with the heuristic on both seats (the same policies and
random stream as ``play``) until the stock is gone and the requested number of tricks is
left, and :func:`solve_endgame` values every legal card of the player to act: the points
that player still makes with perfect play on both sides (card points of the tricks it
takes, the last trick, its Dissles still to come; V7.4) and the final difference to the
opponent.  Exact, no sampling: ``n`` is not a Monte Carlo count here.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from analyzer.errors import BinokelError
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.stock_deal import StockDeal
from analyzer.mechanics.stock_record import token
from analyzer.search.stock_registry import policy_of

from .stock_hint import best_of, value_actions


def _at_trick_start(deal: StockDeal) -> bool:
    """No card on the table and no meld decision pending: a trick is about to be led."""
    return int(deal.st[sp.TABLE]) < 0 and int(deal.st[sp.TO_MELD]) < 0


def _in_endgame(deal: StockDeal) -> bool:
    return deal.stock_left() == 0 and int(deal.st[sp.TO_MELD]) < 0


def endgame_of_seed(game, seed: int, tricks_left: int | None = None) -> StockDeal:
    """The seeded deal played by the heuristic (both seats) until the stock is gone and,
    with ``tricks_left``, until that many tricks are left (at the lead of a trick).

    Inputs: ``game`` a RuleSet with a stock (V7), ``seed``, ``tricks_left`` in
    1..hand size or None (the first lead after the stock is gone: the whole endgame).
    Raises BinokelError (one line, V7.x) when the deal ends before that point (a claim,
    V7.5) or ``tricks_left`` is out of range."""
    size = game.table.hand_size
    if tricks_left is not None and not 1 <= tricks_left <= size:
        raise BinokelError(f"--tricks-left: the endgame of {game.name} has {size} tricks "
                           f"(V7.4), got {tricks_left}")
    deal = StockDeal.from_seed(game, seed)
    pols = [policy_of("heuristic", game)] * 2
    rng = random.Random(seed)        # play's random stream: the same deal as `play --seed`
    while not deal.over():
        if _in_endgame(deal) and _at_trick_start(deal) and (
                tricks_left is None or len(deal.hand(deal.to_act())) == tricks_left):
            return deal
        deal.apply(pols[deal.to_act()](deal, rng))
    raise BinokelError(f"the heuristic's deal of seed {seed} ended before that point "
                       f"(a claim, V7.5): try another --seed")


@dataclass
class EndgameSolution:
    """The exact values of a stock game's endgame position (V7.4).

    ``values``: (card, points the player to act still makes, final difference own minus
    opponent's from here), best first; ``points``: each seat's points so far (cards
    taken and melds shown, V7.3); ``hands``: both hands, open."""

    rules: str
    seed: int
    trump: str
    to_act: int
    tricks_left: int
    points: tuple
    hands: list
    table: str | None
    values: list
    best: str

    def to_dict(self) -> dict:
        return {"rules": self.rules, "seed": self.seed, "trump": self.trump,
                "to_act": self.to_act, "tricks_left": self.tricks_left,
                "points": list(self.points), "hands": self.hands, "table": self.table,
                "moves": [{"card": c, "own": own, "diff": d} for c, own, d in self.values],
                "best": self.best, "exact": True}


def solve_endgame(deal: StockDeal, seed: int = 0) -> EndgameSolution:
    """Every legal card of the player to act in an endgame position (stock gone, V7.4)
    valued exactly (module docstring).  Raises BinokelError while the stock lasts."""
    if not _in_endgame(deal):
        raise BinokelError("V7.4: the exact endgame starts once the stock is gone")
    seat = deal.to_act()
    vals, exact = value_actions(deal, worlds=1, seed=seed)
    assert exact                                   # the stock is gone: the solver's values
    cards = [v for v in vals if v.label != "claim"]
    rows = sorted(((v.label, int(v.own), int(v.diff)) for v in cards), key=lambda r: -r[2])
    table = int(deal.st[sp.TABLE])
    return EndgameSolution(
        rules=deal.game.name, seed=seed, trump="CSHD"[deal.trump], to_act=seat,
        tricks_left=len(deal.hand(seat)), points=(deal.points(0), deal.points(1)),
        hands=[" ".join(token(c // 2, 0) for c in deal.hand(s)) for s in (0, 1)],
        table=None if table < 0 else token(table // 2, 0), values=rows,
        best=best_of(cards).label)
