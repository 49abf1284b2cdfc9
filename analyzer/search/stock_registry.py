"""The one policy registry of a stock game (``binokel-2``, V7): names -> policies of
:mod:`analyzer.search.stock_policies`, :mod:`analyzer.search.stock_pimc` and
:mod:`analyzer.search.stock_pimc_fast`, and one deal
played by them."""
from __future__ import annotations

import random

from analyzer.errors import BinokelError
from analyzer.mechanics.stock_deal import StockDeal
from analyzer.search.stock_pimc import Pimc
from analyzer.search.stock_pimc_fast import DEFAULT_WORLDS, PimcFast
from analyzer.search.stock_policies import GreedyMelds, Heuristic, random_policy


def policy_of(name: str, game, worlds: int | None = None):
    """The policy registered as ``name`` for a stock game; ``worlds`` sets a PIMC policy's
    worlds per decision where the name does not (``pimc-N``, ``pimc-fast-N``)."""
    if name == "random":
        return random_policy
    if name == "heuristic":
        return Heuristic(game)
    if name == "greedy-melds":
        return GreedyMelds(game)
    for prefix, cls, default in (("pimc-fast", PimcFast, DEFAULT_WORLDS), ("pimc", Pimc, 8)):
        if name == prefix:
            return cls(game, worlds=default if worlds is None else worlds)
        tail = name[len(prefix) + 1:]
        if name.startswith(prefix + "-") and tail.isdigit() and int(tail) > 1:
            return cls(game, worlds=int(tail))                     # NAME-N: N worlds
    raise BinokelError(f"unknown policy {name!r} for {game.name}: use {', '.join(POLICIES)}")


#: the policies of a stock game (name -> one-line description)
POLICIES = {"heuristic": "rules of thumb while the stock lasts, the exact solver after it (V7.4)",
            "random": "uniform over the legal actions",
            "greedy-melds": "the heuristic, always showing the meld worth most now (V7.3)",
            "pimc": "PIMC over worlds of the player's knowledge while the stock lasts "
                    "(heuristic rollouts, exact endgame), the exact solver after it",
            "pimc-fast": "PIMC over worlds of the player's knowledge with numba greedy "
                         "rollouts (32 worlds; pimc-fast-N: N), the exact solver after the "
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
