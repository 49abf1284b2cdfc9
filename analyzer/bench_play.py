"""Benchmark workload W2 of issue 3: random (and heuristic) playouts.

W2, exactly: deal a uniformly random 15/15/15/3 split (the Tapp stays out, no
exchange), trump spades, forehand (seat 0) leads, all 15 tricks played, each card chosen
uniformly among the distinct legal card types (the leader: among the distinct types
held); accumulate each seat's card points.  The heuristic variant plays the same deals
with :data:`analyzer.play.POLICY_HEURISTIC` for every seat (no soloist).
"""
from __future__ import annotations

import time

import numpy as np

from ._jit import njit
from .cards import LO_MASK, N_CARDS, N_TYPES, PLANE
from .play import (LOG_COLS, POLICY_HEURISTIC, POLICY_RANDOM, _play_core, _random_core,
                   beat_table, lowest_bit)
from .rng import chunk_state
from .rules import DEFAULT_RULES, RuleSet
from .sampling import deal_random

W2_TRUMP = 1   # spades (cards.py: C=0, S=1, H=2, D=3)


@njit
def w2_batch(n, state, kr, trump, policy, sums):
    """Play ``n`` W2 deals; adds each seat's card points to ``sums`` (int64[3]).

    Returns the total card points of the Tapps (so ``sums.sum() + tapp == 250 * n``,
    R7).  Workspace is allocated once, outside the deal loop.
    """
    if policy == POLICY_RANDOM:
        return _w2_random(n, state, kr, trump, sums)
    return _w2_policy(n, state, kr, trump, policy, sums)


@njit
def _w2_random(n, state, kr, trump, sums):
    deck = _new_deck()
    masks = np.zeros(4, dtype=np.int64)
    lo = np.zeros(3, dtype=np.int64)
    hi = np.zeros(3, dtype=np.int64)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kr, beat)
    tricks = np.zeros(3, dtype=np.int64)
    cp = kr.card_points
    lo24 = np.int64(LO_MASK)
    tapp = 0
    for _ in range(n):
        deal_random(state, deck, masks)
        for p in range(3):
            lo[p] = masks[p] & lo24
            hi[p] = masks[p] >> PLANE
        _random_core(lo, hi, trump, 0, -1, state, kr, beat, sums, tricks)
        tapp += _mask_points(masks[3], cp, lo24)
    return tapp


@njit
def _w2_policy(n, state, kr, trump, policy, sums):
    deck = _new_deck()
    masks = np.zeros(4, dtype=np.int64)
    lo = np.zeros(3, dtype=np.int64)
    hi = np.zeros(3, dtype=np.int64)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kr, beat)
    pol = np.full(3, policy, dtype=np.int64)
    tricks = np.zeros(3, dtype=np.int64)
    log = np.zeros((0, LOG_COLS), dtype=np.int64)
    forced = np.zeros(0, dtype=np.int64)
    cp = kr.card_points
    lo24 = np.int64(LO_MASK)
    tapp = 0
    for _ in range(n):
        deal_random(state, deck, masks)
        for p in range(3):
            lo[p] = masks[p] & lo24
            hi[p] = masks[p] >> PLANE
        _play_core(lo, hi, np.int64(0), np.int64(0), trump, 0, -1, pol, state, kr, beat,
                   sums, tricks, log, forced, 0)
        tapp += _mask_points(masks[3], cp, lo24)
    return tapp


@njit
def _mask_points(mask, cp, lo24):
    """Card points of a packed hand (the 3-card Tapp: three set bits at most)."""
    tot = 0
    for m in (mask & lo24, mask >> PLANE):
        while m != 0:
            tot += cp[lowest_bit(m)]
            m &= m - 1
    return tot


@njit
def _new_deck():
    deck = np.empty(N_CARDS, dtype=np.uint8)
    for i in range(N_CARDS):
        deck[i] = i
    return deck


def run_w2(n: int = 1_000_000, policy: str = "random", seed: int = 0,
           rules: RuleSet = DEFAULT_RULES, repeats: int = 3) -> dict:
    """Time W2 on one core: best of ``repeats`` runs of ``n`` deals (after a warm-up).

    Returns a dict with deals, seconds, deals_per_s, mean card points per seat and the
    invariant check (seat points + Tapp points = 250 per deal, R7).
    """
    pol = POLICY_RANDOM if policy == "random" else POLICY_HEURISTIC
    kr = rules.kernel
    warm = np.zeros(3, dtype=np.int64)
    w2_batch(1000, chunk_state(seed, 1), kr, W2_TRUMP, pol, warm)  # compile / load
    best = None
    for r in range(repeats):
        sums = np.zeros(3, dtype=np.int64)
        state = chunk_state(seed, 0)
        t0 = time.perf_counter()
        tapp = w2_batch(n, state, kr, W2_TRUMP, pol, sums)
        dt = time.perf_counter() - t0
        if best is None or dt < best[0]:
            best = (dt, sums.copy(), tapp)
    dt, sums, tapp = best
    # 8 copies of each rank (4 suits x 2), + the last trick (R1, R7): 250
    total = 8 * sum(rules.card_points) + rules.last_trick_bonus
    return {
        "workload": f"W2 {policy} playout",
        "deals": n,
        "seconds": dt,
        "deals_per_s": n / dt,
        "mean_points": [float(x) / n for x in sums],
        "points_conserved": bool(int(sums.sum()) + int(tapp) == total * n),
    }
