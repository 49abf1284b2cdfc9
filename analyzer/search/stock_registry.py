"""The one policy registry of a stock game (``binokel-2``, V7): names -> policies of
:mod:`analyzer.search.stock_policies`, :mod:`analyzer.search.stock_pimc` and
:mod:`analyzer.search.stock_pimc_fast`, and one deal
played by them."""
from __future__ import annotations

import random

from analyzer.errors import BinokelError
from analyzer.mechanics.stock_deal import StockDeal
from analyzer.search.stock_pimc import Pimc
from analyzer.search.stock_pimc_fast import PimcFast
from analyzer.search.stock_policies import GreedyMelds, Heuristic, random_policy


def policy_of(name: str, game):
    """The policy registered as ``name`` for a stock game."""
    if name == "random":
        return random_policy
    if name == "heuristic":
        return Heuristic(game)
    if name == "greedy-melds":
        return GreedyMelds(game)
    if name == "pimc" or (name.startswith("pimc-") and name[5:].isdigit() and int(name[5:]) > 1):
        return Pimc(game) if name == "pimc" else Pimc(game, worlds=int(name[5:]))   # pimc-N: N worlds
    if name == "pimc-fast":
        return PimcFast(game)
    if name.startswith("pimc-fast-") and name[10:].isdigit() and int(name[10:]) > 1:
        return PimcFast(game, worlds=int(name[10:]))              # pimc-fast-N: N worlds
    raise BinokelError(f"unknown policy {name!r} for {game.name}: use {', '.join(POLICIES)}")


#: the policies of a stock game (name -> one-line description)
POLICIES = {"heuristic": "rules of thumb while the stock lasts, the exact solver after it (V7.4)",
            "random": "uniform over the legal actions",
            "greedy-melds": "the heuristic, always showing the meld worth most now (V7.3)",
            "pimc": "PIMC over worlds of the player's knowledge while the stock lasts "
                    "(heuristic rollouts, exact endgame), the exact solver after it",
            "pimc-fast": "PIMC over worlds of the player's knowledge with numba greedy "
                         "rollouts (16 worlds; pimc-fast-N: N), the exact solver after the "
                         "stock (V7.4)"}


def play_deal(game, seed: int, policies=("heuristic", "heuristic"), before=(0, 0),
              rng_seed: int | None = None) -> StockDeal:
    """One deal from ``seed`` played to its end (or a claim) by ``policies`` per seat."""
    deal = StockDeal.from_seed(game, seed, before)
    pols = [policy_of(p, game) for p in policies]
    rng = random.Random(seed if rng_seed is None else rng_seed)
    while not deal.over():
        deal.apply(pols[deal.to_act()](deal, rng))
    return deal
