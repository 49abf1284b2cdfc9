"""A duplicate match of two policies in a stock game (``binokel-2``, V7): each deal is
played twice from one seed, the policies swapping seats; a deal's score is policy A's deal
points minus policy B's over both plays (V7.4), so the cards' luck cancels.  Reported
with n, the mean, its standard error and z = mean / SE."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from analyzer.mechanics.stock_deal import StockDeal
from analyzer.search.stock_registry import policy_of


@dataclass(frozen=True)
class DuplicateResult:
    a: str
    b: str
    n: int                  # deals (each played twice)
    mean: float             # A minus B points per deal pair
    se: float
    diffs: tuple

    @property
    def z(self) -> float:
        return self.mean / self.se if self.se > 0 else float("nan")


def _play(game, seed: int, pols) -> StockDeal:
    deal = StockDeal.from_seed(game, seed)
    rng = random.Random(seed)
    while not deal.over():
        deal.apply(pols[deal.to_act()](deal, rng))
    return deal


def duplicate(game, a: str, b: str, n: int, seed: int = 0) -> DuplicateResult:
    """``n`` deals from seeds ``seed .. seed + n - 1``, each with A as forehand then as
    dealer (claims play no part: the deals start at 0 : 0, V7.5)."""
    pa, pb = policy_of(a, game), policy_of(b, game)
    diffs = []
    for s in range(seed, seed + n):
        d1 = _play(game, s, (pa, pb))
        d2 = _play(game, s, (pb, pa))
        diffs.append((d1.points(0) - d1.points(1)) + (d2.points(1) - d2.points(0)))
    m = sum(diffs) / n
    se = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1) / n) if n > 1 else float("nan")
    return DuplicateResult(a, b, n, m, se, tuple(diffs))
