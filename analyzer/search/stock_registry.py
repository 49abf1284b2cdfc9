"""The one policy registry of a stock game (``binokel-2``, V7): names -> policies of
:mod:`analyzer.search.stock_policies` and :mod:`analyzer.search.stock_pimc`, and one deal
played by them."""
from __future__ import annotations

import random

from analyzer.errors import BinokelError
from analyzer.mechanics.stock_deal import StockDeal
from analyzer.search.stock_pimc import Pimc
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
    raise BinokelError(f"unknown policy {name!r} for {game.name}: use {', '.join(POLICIES)}")


#: the policies of a stock game (name -> one-line description)
POLICIES = {"heuristic": "rules of thumb while the stock lasts, the exact solver after it (V7.4)",
            "random": "uniform over the legal actions",
            "greedy-melds": "the heuristic, always showing the meld worth most now (V7.3)",
            "pimc": "PIMC over worlds of the player's knowledge while the stock lasts "
                    "(heuristic rollouts, exact endgame), the exact solver after it"}


def play_deal(game, seed: int, policies=("heuristic", "heuristic"), before=(0, 0),
              rng_seed: int | None = None) -> StockDeal:
    """One deal from ``seed`` played to its end (or a claim) by ``policies`` per seat."""
    deal = StockDeal.from_seed(game, seed, before)
    pols = [policy_of(p, game) for p in policies]
    rng = random.Random(seed if rng_seed is None else rng_seed)
    while not deal.over():
        deal.apply(pols[deal.to_act()](deal, rng))
    return deal


def record_deal(game, seed: int, policies=("heuristic", "heuristic"), before=(0, 0),
                source: str = "", with_deal: bool = False):
    """The deal :func:`play_deal` plays (the same seeded deal, policies and rng) as a deal
    record (:class:`analyzer.mechanics.stock_record.StockRecord`; ``play --record``);
    ``with_deal``: (record, the played StockDeal)."""
    from analyzer.mechanics.stock_record import Recorder

    rc = Recorder(StockDeal.from_seed(game, seed, before))
    pols = [policy_of(p, game) for p in policies]
    rng = random.Random(seed)
    while not rc.deal.over():
        rc.apply(pols[rc.deal.to_act()](rc.deal, rng))
    rec = rc.record(source=source, before=before)
    return (rec, rc.deal) if with_deal else rec
