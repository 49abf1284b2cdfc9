"""Benchmark workloads of the team games (``binokel bench --rules kreuz-48`` etc.).

Each takes the team game's RuleSet (``rules=``, compiled by rules.team_spec):

- T1, meld census: deal the 4 hands (+ the Dabb) uniformly at random, evaluate the melds
  of all four hands for all four trumps (16 values: V6.3 for pinochle-80, the RuleSet's
  meld kernel otherwise), accumulate them.  Baseline: the same in plain Python
  (Pinochle) or a Python loop over the meld kernel (2-copy decks).
- T2, random playout: T1's deal, trump clubs, seat 0 leads, every trick, each card
  uniform among the distinct legal types under the variant's duties; team card points.
- T2T: T2's deals played by the team policy at every seat (seat 0 the bidder).
- TD, a whole deal: four rule-of-thumb bidders (V6.2 or V1's duels), exchange (Dabb
  games), melds, team-policy play, scoring (V4.6, V5.7, V6.6).
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.bench.play import W2_TRUMP
from analyzer.bench.registry import register, register_table_variant
from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.game import R_SCORE
from analyzer.mechanics.melds import meld_all_trumps_counts
from analyzer.mechanics.playout import L_COLS
from analyzer.mechanics.sampling import deal_counts
from analyzer.search.pimc import play_deal_partners
from analyzer.mechanics.melds import meld_total
from analyzer.mechanics.sampling import counts_mask
from analyzer.mechanics.rules import PINOCHLE_80, team_kernel, team_spec
from analyzer.mechanics.play import POLICY_HEURISTIC, POLICY_RANDOM, beat_table
from analyzer.mechanics.rng import chunk_state


@njit
def p1_batch(n, state, deck, kp, sums):
    """T1 for the 80-card deck: V6.3 melds of 4 hands x 4 trumps."""
    cnt = np.zeros((4, N_TYPES), dtype=np.uint8)
    out = np.zeros(4, dtype=np.int64)
    for _ in range(n):
        deal_counts(state, deck, cnt, kp.hand_size)
        for p in range(4):
            meld_all_trumps_counts(cnt[p], kp, out)
            for s in range(4):
                sums[s] += out[s]


@njit
def k1_batch(n, state, deck, tk, kr, sums):
    """T1 for a 2-copy team game: melds (RuleSet's R5/V2.5/V5.5 kernel) of 4 hands x 4 trumps."""
    cnt = np.zeros((5, N_TYPES), dtype=np.uint8)
    for _ in range(n):
        deal_counts(state, deck, cnt, tk.hand_size)
        for p in range(4):
            m = counts_mask(cnt[p])
            for s in range(4):
                sums[s] += meld_total(m, s, kr)


def t1(n: int, seed: int, rules=PINOCHLE_80) -> dict:
    spec = team_spec(rules)
    sums = np.zeros(4, dtype=np.int64)
    if spec.copies == 4:
        p1_batch(n, chunk_state(seed, 0), spec.deck.copy(), spec.tk, sums)
    else:
        k1_batch(n, chunk_state(seed, 0), spec.deck.copy(), spec.tk, spec.kr, sums)
    return {"mean_meld": float(sums.sum() / (16 * n))}


def t1_python(n: int, seed: int, rules=PINOCHLE_80) -> dict:
    """T1 in plain Python: random.shuffle the deck, melds by counting: V6.3 for the 80-card
    deck; for the 2-copy team games each hand's melds through the RuleSet's meld kernel,
    called once per hand and trump from Python (a Python-loop baseline)."""
    import random

    spec = team_spec(rules)
    if spec.copies != 4:
        rng = random.Random(seed)
        deck = [int(t) for t in spec.deck]
        total = 0
        for _ in range(n):
            rng.shuffle(deck)
            for p in range(4):
                c = np.zeros(N_TYPES, dtype=np.uint8)
                for t in deck[spec.hand_size * p:spec.hand_size * (p + 1)]:
                    c[t] += 1
                m = counts_mask(c)
                total += sum(int(meld_total(m, s, spec.kr)) for s in range(4))
        return {"mean_meld": total / (16 * n)}

    rng = random.Random(seed)
    deck = [int(t) for t in team_spec(PINOCHLE_80).deck]
    r = team_kernel(PINOCHLE_80)
    around, double = [int(x) for x in r.fours_value], [int(x) for x in r.eights_value]
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
            m = min(c[r.binokel_q], c[r.binokel_j])
            common += (m // 2) * r.binokel_double + (m % 2) * r.binokel_single
            for trump in range(4):
                v = common
                for s in range(4):
                    k, q = c[s * 6 + 2], c[s * 6 + 3]
                    if s == trump:
                        f = min(c[s * 6 + x] for x in range(5))
                        v += f * r.family[1] + min(k - f, q - f) * r.pair[1]
                    else:
                        v += min(k, q) * r.pair[0]
                total += v
    return {"mean_meld": total / (16 * n)}


@njit
def kt_batch(n, state, deck, tk, policy, sums, trump=0):
    """Deal (with a Dabb when the deck is larger than four hands) and play ``n`` deals,
    trump ``trump`` (T2: clubs; W2 on this table: spades), seat 0 leads (and is the
    bidder); adds the teams' card points to ``sums``."""
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
        deal_counts(state, deck, cnt5, tk.hand_size)
        play_deal_partners(cnt5[:4], trump, 0, 0, pol, state, tk, beat, cnt5[4], pts, counting,
                           tricks, log, forced, 0)
        sums[0] += pts[0]
        sums[1] += pts[1]


def t2(n: int, seed: int, rules=PINOCHLE_80) -> dict:
    spec = team_spec(rules)
    sums = np.zeros(2, dtype=np.int64)
    kt_batch(n, chunk_state(seed, 0), spec.deck.copy(), spec.tk, POLICY_RANDOM, sums)
    return {"team0_points": float(sums[0] / n), "total": float(sums.sum() / n)}


def t2t(n: int, seed: int, rules=PINOCHLE_80) -> dict:
    spec = team_spec(rules)
    sums = np.zeros(2, dtype=np.int64)
    kt_batch(n, chunk_state(seed, 0), spec.deck.copy(), spec.tk, POLICY_HEURISTIC, sums)
    return {"team0_points": float(sums[0] / n), "total": float(sums.sum() / n)}


def td(n: int, seed: int, rules=PINOCHLE_80) -> dict:
    """TD: the team simulate chunk kernel (analyzer.batch.runs.partners_deal_chunk: deal,
    four rule bidders, exchange and contract, team play, scores) without the aggregation
    and the Parquet part that TSD adds."""
    from analyzer.batch.runs import partners_deal_table

    res = partners_deal_table(chunk_state(seed, 0), n, rules)
    return {"mean_score_team0": float(res[:, R_SCORE].mean()),
            "mean_score_team1": float(res[:, R_SCORE + 1].mean())}


def _w2_table(n: int, seed: int, policy: int, rules) -> dict:
    """W2 / W2H on a four-seat table: W2's definition (a uniformly random deal, trump
    spades, seat 0 leads, every trick) with the table's duties; card points per side."""
    spec = team_spec(rules)
    sums = np.zeros(2, dtype=np.int64)
    kt_batch(n, chunk_state(seed, 0), spec.deck.copy(), spec.tk, policy, sums, W2_TRUMP)
    return {"mean_points": [float(x) / n for x in sums], "total": float(sums.sum() / n)}


def w2_table(n: int, seed: int, rules=PINOCHLE_80) -> dict:
    """W2 (random policy) on a four-seat table (issue 24: W2 for every game)."""
    return _w2_table(n, seed, POLICY_RANDOM, rules)


def w2h_table(n: int, seed: int, rules=PINOCHLE_80) -> dict:
    """W2H on a four-seat table: the table's heuristic (the team policy) at every seat."""
    return _w2_table(n, seed, POLICY_HEURISTIC, rules)


register("T1", t1, deals=500_000, baselines={"python": (t1_python, 2_000)}, teams=True,
         description="team games meld census: deal the variant's 4 hands (+ Dabb), the melds of "
                     "all four hands for all four trumps (16 values; V6.3 / the RuleSet's melds)")
register("T2", t2, deals=100_000, teams=True,
         description="team games random playout: T1's deal, trump clubs, seat 0 leads, every "
                     "trick, each card uniform among the distinct legal types (the variant's "
                     "duties: R6, V5.6 with partner relief, V6.4), team card points")
register("T2T", t2t, deals=50_000, teams=True,
         description="team games: T2's deals played by the team policy at every seat")
register("TD", td, deals=20_000, teams=True,
         description="team games whole deal: rule-of-thumb auction (V6.2 or V1's duels), exchange "
                     "(Dabb games), melds, team-policy play, scoring (V4.6, V5.7, V6.6)")

# W1, W2, W2H for every game (issue 24): the same definitions on the four-seat tables
register_table_variant("W1", t1)
register_table_variant("W2", w2_table)
register_table_variant("W2H", w2h_table)
