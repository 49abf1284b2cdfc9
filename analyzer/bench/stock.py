"""Workloads of the two-hand game with a stock (``binokel bench --rules binokel-2``, V7):
random deals (B2R), heuristic deals (B2H), exact endgames with 12 and 8 cards a hand
(B2E12, B2E8), deals with PIMC (B2P) and with the fast PIMC (B2PF) for forehand.

Each runs ``n`` units on one core from ``chunk_state(seed, 0)`` (the deals' orders) and
returns a sanity figure; the rate per CPU-second is the comparable number on a shared
machine.  B2R's baseline steps the same random policy through the Python deal object
(:class:`~analyzer.mechanics.stock_deal.StockDeal`), B2PF's is B2P's PIMC with as many
worlds: the speed-up of the numba rollouts at equal work per decision.
"""
from __future__ import annotations

import random
from functools import lru_cache

import numpy as np

from analyzer._jit import njit
from analyzer.bench.registry import register
from analyzer.mechanics import stock_play as sp
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.stock_deal import StockDeal, rules_of

#: PIMC worlds per decision in B2P and B2PF (equal, so the two compare directly)
BENCH_WORLDS = 4


def _orders(n: int, seed: int) -> list[np.ndarray]:
    rs = chunk_state(seed, 0)
    return [sp.shuffled_order(rs) for _ in range(n)]


# ---------------------------------------------------------------- B2R

def b2r(n: int, seed: int = 0, rules=None) -> dict:
    """``n`` random deals (uniform over the legal actions, no claims) in one kernel
    (:func:`analyzer.mechanics.stock_play.random_deals`)."""
    r = rules_of(rules)
    out = np.zeros((int(n), 2), dtype=np.int64)
    sp.random_deals(int(n), chunk_state(seed, 0), r.params, r.beat, r.pat_kind, r.pat_value,
                    r.pat_need, out)
    return {"mean_deal_points": float(out.mean())}


def b2r_python(n: int, seed: int = 0, rules=None) -> dict:
    """B2R stepped in Python: the random policy over :class:`StockDeal`'s action lists."""
    rng = random.Random(seed)
    total = 0
    for order in _orders(n, seed):
        d = StockDeal.from_order(rules, order)
        while not d.over():
            d.apply(rng.choice(d.legal_actions(claims=False)))
        total += d.points(0) + d.points(1)
    return {"mean_deal_points": total / (2 * n)}


# ---------------------------------------------------------------- policy deals

@lru_cache(maxsize=8)
def _policy(name: str, game, worlds=None):
    from analyzer.search.stock_registry import policy_of

    return policy_of(name, game, worlds=worlds)


def _deals(n: int, seed: int, rules, names, worlds=None) -> dict:
    """``n`` deals from ``chunk_state(seed, 0)`` played by ``names`` (forehand, dealer)."""
    pols = [_policy(x, rules, worlds) for x in names]
    total = 0
    for i, order in enumerate(_orders(n, seed)):
        d = StockDeal.from_order(rules, order)
        rng = random.Random(seed * 1_000_003 + i)
        for p in pols:
            if hasattr(p, "reseed"):
                p.reseed(seed * 1_000_003 + i)
        while not d.over():
            d.apply(pols[d.to_act()](d, rng))
        total += d.points(0) - d.points(1)
    return {"mean_forehand_minus_dealer": total / n}


def b2h(n: int, seed: int = 0, rules=None) -> dict:
    """``n`` deals played by the heuristic for both seats (the exact solver after the stock)."""
    return _deals(n, seed, rules, ("heuristic", "heuristic"))


def b2p(n: int, seed: int = 0, rules=None) -> dict:
    """``n`` deals: PIMC (BENCH_WORLDS worlds, heuristic rollouts, exact endgames) for
    forehand, the heuristic for the dealer."""
    return _deals(n, seed, rules, ("pimc", "heuristic"), BENCH_WORLDS)


def b2pf(n: int, seed: int = 0, rules=None) -> dict:
    """``n`` deals: the fast PIMC (BENCH_WORLDS worlds, numba greedy rollouts) for
    forehand, the heuristic for the dealer."""
    return _deals(n, seed, rules, ("pimc-fast", "heuristic"), BENCH_WORLDS)


# ---------------------------------------------------------------- endgames

@njit
def endgame_positions(n, rs, cards, params, beat, pat_kind, pat_value, pat_need, out):
    """``n`` positions at a trick's start after the stock with ``cards`` cards a hand:
    random deals played by the random policy (no claims) up to there; ``out[i]`` gets the
    kernel state (V7.4)."""
    mbuf = np.zeros(sp.MAX_MELDS, dtype=np.int64)
    pbuf = np.zeros(sp.MAX_MELDS, dtype=np.int64)
    for i in range(n):
        st = sp.deal_order(sp.shuffled_order(rs), 0, 0, params)
        while not (sp.stock_left(st) == 0 and st[sp.TO_MELD] < 0 and st[sp.TABLE] < 0
                   and st[sp.TRICKS] == 24 - cards):
            sp.random_step(st, rs, params, beat, pat_kind, pat_value, pat_need, 0, mbuf, pbuf)
        out[i, :] = st


@lru_cache(maxsize=4)
def _positions(game, cards: int, n: int, seed: int) -> np.ndarray:
    r = rules_of(game)
    out = np.zeros((n, sp.STATE_LEN), dtype=np.int64)
    endgame_positions(n, chunk_state(seed, 1), cards, r.params, r.beat, r.pat_kind,
                      r.pat_value, r.pat_need, out)
    return out


def _solve(n: int, seed: int, rules, cards: int) -> dict:
    """``n`` exact endgame values (:meth:`EndgameSolver.value`) of random positions with
    ``cards`` cards a hand.  Making a position (a random play-out in one kernel, some
    microseconds) is timed too: small against a solve (0.5-30 ms)."""
    sts = _positions(rules, cards, int(n), int(seed))
    solver = _solver(rules)
    total = 0
    for st in sts:
        total += solver.value(StockDeal(rules, st.copy()), 0)
    return {"mean_value": total / n, "positions_searched": int(solver.stats[0])}


@lru_cache(maxsize=2)
def _solver(game):
    from analyzer.search.stock_solve import EndgameSolver

    return EndgameSolver(rules_of(game))


def b2e12(n: int, seed: int = 0, rules=None) -> dict:
    """B2E12: ``n`` exact endgames with 12 cards a hand (V7.4)."""
    return _solve(n, seed, rules, 12)


def b2e8(n: int, seed: int = 0, rules=None) -> dict:
    """B2E8: ``n`` exact endgames with 8 cards a hand (V7.4)."""
    return _solve(n, seed, rules, 8)


register("B2R", b2r, stock=True, deals=20_000,
         description="binokel-2 random deals: deal 12/12 + 24 stock, play all 24 tricks with "
                     "melds, draws and the V7.4 duties by the uniformly random policy, no claims",
         baselines={"python": (b2r_python, 200)})
register("B2H", b2h, stock=True, deals=10,
         description="binokel-2 heuristic deals: both seats the heuristic (meld orders, the "
                     "exact solver after the stock)")
register("B2E12", b2e12, stock=True, deals=10, unit="positions",
         description="binokel-2 exact endgames, 12 cards a hand: the solver's value from a "
                     "trick's start once the stock is gone (random positions)")
register("B2E8", b2e8, stock=True, deals=100, unit="positions",
         description="binokel-2 exact endgames, 8 cards a hand: the solver's value from a "
                     "trick's start (random positions)")
register("B2P", b2p, stock=True, deals=1,
         description=f"binokel-2 PIMC deals: PIMC ({BENCH_WORLDS} worlds, heuristic rollouts, "
                     "exact endgames) for forehand against the heuristic")
register("B2PF", b2pf, stock=True, deals=4,
         description=f"binokel-2 pimc-fast deals: the fast PIMC ({BENCH_WORLDS} worlds, numba "
                     "greedy rollouts) for forehand against the heuristic",
         baselines={"pimc": (b2p, 1)})
