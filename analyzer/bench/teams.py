"""Benchmark workloads of the team games: pinochle-80 (P1, P2, P2T, PD) and the Binokel team games.

- P1, meld census: deal a uniformly random 20/20/20/20 split of the 80 cards (V6.1),
  evaluate the melds (V6.3) of all four hands for all four trumps (16 values),
  accumulate them.  Baseline: the same in plain Python.
- P2, random playout: P1's deal, trump clubs, seat 0 leads, 20 tricks, each card uniform
  among the distinct legal types (V6.4); accumulate the teams' counters (V6.5).
- P2T: P2's deals played by the team policy at every seat (seat 0 the bidder).
- PD, a whole deal: four rule-of-thumb bidders (V6.2), melds, team-policy play, V6.6
  scoring.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.bench.registry import register
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.team_bidding import (DEFAULT_PARTNER_ALLOWANCE, DEFAULT_TEAM_TRICK_ESTIMATE,
                                             DEFAULT_TRICK_VALUE)
from analyzer.mechanics.team_game import RES_COLS, R_SCORE, kreuz_rule_deal, rule_deal80
from analyzer.mechanics.pinochle_melds import meld80_all_trumps
from analyzer.mechanics.team_play import (L_COLS, POLICY_RANDOM, POLICY_TEAM, deal80, deal_team,
                                          new_deck80, play80_core, play_team_core)
from analyzer.mechanics.team_rules import PINOCHLE_RULES, team_spec, team_kernel
from analyzer.mechanics.play import beat_table
from analyzer.mechanics.rng import chunk_state


@njit
def p1_batch(n, state, deck, kp, sums):
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    out = np.zeros(4, dtype=np.int64)
    for _ in range(n):
        deal80(state, deck, cnt)
        for p in range(4):
            meld80_all_trumps(cnt[p], kp, out)
            for s in range(4):
                sums[s] += out[s]


def p1(n: int, seed: int) -> dict:
    sums = np.zeros(4, dtype=np.int64)
    p1_batch(n, chunk_state(seed, 0), new_deck80(), team_kernel(PINOCHLE_RULES), sums)
    return {"mean_meld": float(sums.sum() / (16 * n))}


def p1_python(n: int, seed: int) -> dict:
    """P1 in plain Python: random.shuffle the 80 cards, melds of V6.3 by counting."""
    import random

    rng = random.Random(seed)
    deck = [int(t) for t in new_deck80()]
    r = team_kernel(PINOCHLE_RULES)
    around, double = [int(x) for x in r.around], [int(x) for x in r.double_around]
    total = 0
    for _ in range(n):
        rng.shuffle(deck)
        for p in range(4):
            c = [0] * 24
            for t in deck[20 * p:20 * p + 20]:
                c[t] += 1
            common = 0
            for rk in range(5):
                m = min(c[s * 6 + rk] for s in range(4))
                common += (m // 2) * double[rk] + (m % 2) * around[rk]
            m = min(c[r.pinochle_q], c[r.pinochle_j])
            common += (m // 2) * r.pinochle_double + (m % 2) * r.pinochle_single
            for trump in range(4):
                v = common
                for s in range(4):
                    k, q = c[s * 6 + 2], c[s * 6 + 3]
                    if s == trump:
                        f = min(c[s * 6 + x] for x in range(5))
                        v += f * r.flush + min(k - f, q - f) * r.royal_marriage
                    else:
                        v += min(k, q) * r.marriage
                total += v
    return {"mean_meld": total / (16 * n)}


@njit
def kt_batch(n, state, deck, tk, policy, sums):
    """Deal (with a Dabb when the deck is larger than four hands) and play ``n`` deals,
    trump clubs, seat 0 leads (and is the bidder); adds the teams' card points to
    ``sums``."""
    cnt5 = np.zeros((5, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    pol = np.full(4, policy, dtype=np.int64)
    pts = np.zeros(2, dtype=np.int64)
    counting = np.zeros(2, dtype=np.int64)
    tricks = np.zeros(2, dtype=np.int64)
    log = np.zeros((0, L_COLS), dtype=np.int64)
    forced = np.zeros(0, dtype=np.int64)
    for _ in range(n):
        deal_team(state, deck, cnt5, tk.hand_size)
        play_team_core(cnt5[:4], 0, 0, 0, pol, state, tk, beat, cnt5[4], pts, counting, tricks,
                       log, forced, 0)
        sums[0] += pts[0]
        sums[1] += pts[1]


def p2(n: int, seed: int) -> dict:
    sums = np.zeros(2, dtype=np.int64)
    kt_batch(n, chunk_state(seed, 0), new_deck80(), team_kernel(PINOCHLE_RULES), POLICY_RANDOM, sums)
    return {"team0_counters": float(sums[0] / n), "total": float(sums.sum() / n)}


def p2t(n: int, seed: int) -> dict:
    sums = np.zeros(2, dtype=np.int64)
    kt_batch(n, chunk_state(seed, 0), new_deck80(), team_kernel(PINOCHLE_RULES), POLICY_TEAM, sums)
    return {"team0_counters": float(sums[0] / n), "total": float(sums.sum() / n)}


@njit
def pd_batch(n, state, deck, kp, tv, allowance, sums):
    hands = np.zeros((4, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kp, beat)
    pol = np.full(4, POLICY_TEAM, dtype=np.int64)
    res = np.zeros(RES_COLS, dtype=np.int64)
    for _ in range(n):
        deal80(state, deck, hands)
        rule_deal80(hands, tv, allowance, pol, state, kp, beat, cnt, res)
        sums[0] += res[R_SCORE]
        sums[1] += res[R_SCORE + 1]


def pd(n: int, seed: int) -> dict:
    sums = np.zeros(2, dtype=np.int64)
    pd_batch(n, chunk_state(seed, 0), new_deck80(), team_kernel(PINOCHLE_RULES), DEFAULT_TRICK_VALUE,
             DEFAULT_PARTNER_ALLOWANCE, sums)
    return {"mean_score_team0": float(sums[0] / n), "mean_score_team1": float(sums[1] / n)}


register("P1", p1, deals=1_000_000, baselines={"python": (p1_python, 5_000)},
         description="pinochle-80 meld census: deal a random 20/20/20/20 split of the 80 cards, "
                     "melds (V6.3) of all four hands for all four trumps (16 values)")
register("P2", p2, deals=200_000,
         description="pinochle-80 random playout: P1's deal, trump clubs, seat 0 leads, 20 tricks, "
                     "each card uniform among the distinct legal types (V6.4), team counters (V6.5)")
register("P2T", p2t, deals=100_000,
         description="pinochle-80: P2's deals played by the team policy at every seat")
register("PD", pd, deals=50_000,
         description="pinochle-80 whole deal: rule-of-thumb auction (V6.2), melds, team-policy "
                     "play, scoring (V6.6)")


# --------------------------------------------------------------------------- Binokel teams

@njit
def kd_batch(n, state, deck, tk, kr, estimate, sums):
    hands = np.zeros((5, N_TYPES), dtype=np.uint8)
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(tk, beat)
    pol = np.full(4, POLICY_TEAM, dtype=np.int64)
    res = np.zeros(RES_COLS, dtype=np.int64)
    for _ in range(n):
        deal_team(state, deck, hands, tk.hand_size)
        kreuz_rule_deal(hands, estimate, pol, state, tk, kr, beat, cnt, res)
        sums[0] += res[R_SCORE]
        sums[1] += res[R_SCORE + 1]


def _kd(name):
    def fn(n: int, seed: int) -> dict:
        from analyzer.mechanics.rules import get_rules
        spec = team_spec(get_rules(name))
        sums = np.zeros(2, dtype=np.int64)
        kd_batch(n, chunk_state(seed, 0), spec.deck.copy(), spec.tk, spec.kr,
                 DEFAULT_TEAM_TRICK_ESTIMATE, sums)
        return {"mean_score_team0": float(sums[0] / n), "mean_score_team1": float(sums[1] / n)}
    return fn


def _kt(name, policy):
    def fn(n: int, seed: int) -> dict:
        from analyzer.mechanics.rules import get_rules
        spec = team_spec(get_rules(name))
        sums = np.zeros(2, dtype=np.int64)
        kt_batch(n, chunk_state(seed, 0), spec.deck.copy(), spec.tk, policy, sums)
        return {"team0_points": float(sums[0] / n), "total": float(sums.sum() / n)}
    return fn
