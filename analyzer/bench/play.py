"""Benchmark workload W2 of issue 3: random (and heuristic) playouts.

W2, exactly: deal a uniformly random 15/15/15/3 split (the Tapp stays out, no
exchange), trump spades, forehand (seat 0) leads, all 15 tricks played, each card chosen
uniformly among the distinct legal card types (the leader: among the distinct types
held); accumulate each seat's card points.  The heuristic variant plays the same deals
with :data:`analyzer.mechanics.play.POLICY_HEURISTIC` for every seat (no soloist); W2S
plays them with seat 0 as the soloist (knowing the Tapp as its discard) against two
defenders, so the defence's rules run, with ``heuristic-v1`` as the same-run baseline.
"""
from __future__ import annotations

import numpy as np

from analyzer._jit import njit
from analyzer.kernels.bits import lowest_bit
from analyzer.mechanics.cards import LO_MASK, N_CARDS, N_TYPES, PLANE
from analyzer.mechanics.play import (LOG_COLS, POLICY_HEURISTIC, POLICY_HEURISTIC_LIN,
                                     POLICY_HEURISTIC_LIN2,
                                     POLICY_HEURISTIC_V1, POLICY_NAMES,
                                     POLICY_RANDOM, _play_core, _random_core, beat_table,
                                     older_args)
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet
from analyzer.mechanics.sampling import deal_random, deal_rules, new_deck, physical_deck

W2_TRUMP = 1   # spades (cards.py: C=0, S=1, H=2, D=3)


@njit
def w2_batch(n, state, kr, trump, policy, sums):
    """Play ``n`` W2 deals; adds each seat's card points to ``sums`` (int64[3]).

    Returns the total card points of the Tapps (so ``sums.sum() + tapp == 250 * n``,
    R7).  Workspace is allocated once, outside the deal loop.
    """
    # two loops, not one with a branch per deal: with _play_core in the same loop the
    # random playout ran 9% slower (1.35 vs 1.48 M deals/s, measured)
    if policy == POLICY_RANDOM:
        return _w2_random(n, state, kr, trump, sums)
    return _w2_policy(n, state, kr, trump, policy, sums)


@njit
def _w2_random(n, state, kr, trump, sums):
    deck = physical_deck(kr)   # the variant's deck (V5.1)
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
        deal_rules(state, deck, kr, masks)
        for p in range(3):
            lo[p] = masks[p] & lo24
            hi[p] = masks[p] >> PLANE
        _random_core(lo, hi, trump, 0, -1, state, kr, beat, sums, tricks)
        tapp += _mask_points(masks[3], cp, lo24)
    return tapp


@njit
def w2_soloist_batch(n, state, kr, trump, policy, sums, older=None):
    """W2's deals with seat 0 as soloist (the Tapp is its discard, R4) and ``policy``
    at every seat; adds the card points to ``sums``; returns the Tapps' card points.
    ``older``: ``play.older_args(policy)`` (heuristic-v1, -lin, -lin2)."""
    return _w2_deals(n, state, kr, trump, policy, sums, 0, older)


@njit
def _w2_policy(n, state, kr, trump, policy, sums):
    return _w2_deals(n, state, kr, trump, policy, sums, -1)


@njit
def _w2_deals(n, state, kr, trump, policy, sums, soloist, older=None):
    """``n`` deals of the variant's deck played out with ``policy`` at every seat, seat 0
    leading; ``soloist`` 0: seat 0 plays and holds the Tapp as its discard (R4), -1: no
    soloist, the Tapp is set aside.  Adds card points to ``sums``; returns the Tapps'
    card points."""
    deck = physical_deck(kr)   # the variant's deck (V5.1)
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
        deal_rules(state, deck, kr, masks)
        for p in range(3):
            lo[p] = masks[p] & lo24
            hi[p] = masks[p] >> PLANE
        if soloist >= 0:
            tlo = masks[3] & lo24
            thi = masks[3] >> PLANE
        else:
            tlo = np.int64(0)
            thi = np.int64(0)
        _play_core(lo, hi, tlo, thi, trump, 0, soloist, pol, state, kr, beat, sums, tricks,
                   log, forced, 0, older)
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


def _w2(n: int, seed: int, policy: int, rules: RuleSet = DEFAULT_RULES) -> dict:
    sums = np.zeros(3, dtype=np.int64)
    tapp = w2_batch(int(n), chunk_state(seed, 0), rules.kernel, W2_TRUMP, policy, sums)
    total = 8 * sum(rules.card_points) + rules.last_trick_bonus   # 250 (R1, R7; V5.1)
    return {"mean_points": [float(x) / n for x in sums],
            "points_conserved": bool(int(sums.sum()) + int(tapp) == total * n)}


def w2(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES) -> dict:
    """W2 (random policy) for ``n`` deals: mean card points per seat and the R7 check."""
    return _w2(n, seed, POLICY_RANDOM, rules)


def w2_heuristic(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES) -> dict:
    """W2's deals played by the heuristic policy at every seat (no soloist)."""
    return _w2(n, seed, POLICY_HEURISTIC, rules)


def _w2s(n: int, seed: int, policy: int, rules: RuleSet) -> dict:
    sums = np.zeros(3, dtype=np.int64)
    tapp = w2_soloist_batch(int(n), chunk_state(seed, 0), rules.kernel, W2_TRUMP, policy, sums,
                            *older_args(policy))
    total = 8 * sum(rules.card_points) + rules.last_trick_bonus
    return {"soloist_points": (float(sums[0]) + float(tapp)) / n,
            "points_conserved": bool(int(sums.sum()) + int(tapp) == total * n)}


def w2_soloist(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES) -> dict:
    """W2's deals, seat 0 soloist, the heuristic (improved defence) at every seat."""
    return _w2s(n, seed, POLICY_HEURISTIC, rules)


def w2_soloist_v1(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES) -> dict:
    """:func:`w2_soloist` with ``heuristic-v1`` at every seat (the baseline)."""
    return _w2s(n, seed, POLICY_HEURISTIC_V1, rules)


def w2_soloist_lin(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES) -> dict:
    """:func:`w2_soloist` with ``heuristic-lin`` at every seat (its linear-scored defence)."""
    return _w2s(n, seed, POLICY_HEURISTIC_LIN, rules)


def w2_soloist_lin2(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES) -> dict:
    """:func:`w2_soloist` with ``heuristic-lin2`` at every seat (its richer linear defence)."""
    return _w2s(n, seed, POLICY_HEURISTIC_LIN2, rules)


def w2_python(n: int, seed: int = 0, rules: RuleSet = DEFAULT_RULES) -> dict:
    """W2 in plain Python (``random.shuffle``, lists of counts): the baseline."""
    import random
    rnd = random.Random(seed)
    deck = [int(c) for c in new_deck(rules)]
    hs = rules.hand_size
    cp = [rules.card_points[t % 6] for t in range(N_TYPES)]
    strength = [-(t % 6) for t in range(N_TYPES)]
    trump = W2_TRUMP
    sums = [0, 0, 0]
    for _ in range(n):
        rnd.shuffle(deck)
        hands = [[0] * N_TYPES for _ in range(3)]
        for i in range(3 * hs):
            hands[i // hs][deck[i] >> 1] += 1
        leader = 0
        for trick in range(hs):
            cards = []
            win = -1
            for k in range(3):
                seat = (leader + k) % 3
                held = [t for t in range(N_TYPES) if hands[seat][t]]
                if k == 0:
                    legal = held
                else:
                    w = cards[win]
                    led = cards[0] // 6
                    same = [t for t in held if t // 6 == led]
                    trumps = [t for t in held if t // 6 == trump]
                    if same:
                        up = [t for t in same if w // 6 == led and strength[t] > strength[w]]
                        legal = up or same
                    elif trumps:
                        up = [t for t in trumps if w // 6 != trump or strength[t] > strength[w]]
                        legal = up or trumps
                    else:
                        legal = held
                c = legal[rnd.randrange(len(legal))]
                hands[seat][c] -= 1
                cards.append(c)
                if k == 0 or (c // 6 == cards[win] // 6 and strength[c] > strength[cards[win]]) \
                        or (c // 6 == trump and cards[win] // 6 != trump):
                    win = k
            winner = (leader + win) % 3
            sums[winner] += sum(cp[c] for c in cards) + (rules.last_trick_bonus if trick == hs - 1 else 0)
            leader = winner
    return {"mean_points": [x / n for x in sums]}


# --------------------------------------------------------------------------- policy duel

@njit
def soloist_trump(lo, hi, kr):
    """A simple trump choice from one hand: the longest suit, ties to the most card points."""
    best = 0
    best_v = -1
    for s in range(4):
        v = 0
        for t in range(6 * s, 6 * s + 6):
            c = ((lo >> t) & 1) + ((hi >> t) & 1)
            v += c * (1000 + kr.card_points[t])
        if v > best_v:
            best_v = v
            best = s
    return best


@njit
def duel_kernel(n, deal_state, play_state, kr, pol_soloist, pol_defender, out, tapp_out,
                older=None):
    """Soloist's card points on ``n`` random deals, each played three times (soloist seat
    0, 1, 2: seats rotated), forehand leading, trump = the soloist's longest suit.

    ``out``: int64[n, 3] soloist trick points per rotation (discard excluded);
    ``tapp_out``: int64[n] Tapp points (out of play: the soloist's discard).  Deals come
    from ``deal_state`` alone, so runs with other policies see the same deals (paired).
    """
    deck = _new_deck()
    masks = np.zeros(4, dtype=np.int64)
    lo = np.zeros(3, dtype=np.int64)
    hi = np.zeros(3, dtype=np.int64)
    beat = np.empty(N_TYPES, dtype=np.int64)
    beat_table(kr, beat)
    pol = np.zeros(3, dtype=np.int64)
    pts = np.zeros(3, dtype=np.int64)
    tricks = np.zeros(3, dtype=np.int64)
    log = np.zeros((0, LOG_COLS), dtype=np.int64)
    forced = np.zeros(0, dtype=np.int64)
    lo24 = np.int64(LO_MASK)
    for i in range(n):
        deal_random(deal_state, deck, masks)
        tapp_out[i] = _mask_points(masks[3], kr.card_points, lo24)
        for r in range(3):
            for p in range(3):
                lo[p] = masks[p] & lo24
                hi[p] = masks[p] >> PLANE
                pts[p] = 0
                tricks[p] = 0
                pol[p] = pol_soloist if p == r else pol_defender
            trump = soloist_trump(lo[r], hi[r], kr)
            # the soloist knows the 3 cards in no hand (here the Tapp, as its discard)
            dlo = masks[3] & lo24
            dhi = masks[3] >> PLANE
            _play_core(lo, hi, dlo, dhi, trump, 0, r, pol, play_state, kr, beat, pts, tricks,
                       log, forced, 0, older)
            out[i, r] = pts[r]


def _gain(c) -> dict:
    return {"gain": c.mean, "se": c.se, "lo": c.lo, "hi": c.hi, "n": c.n}


def policy_duel(n: int = 20_000, seed: int = 0, rules: RuleSet = DEFAULT_RULES,
                policies: tuple[str, ...] = ("random", "heuristic")) -> dict:
    """Paired comparison of play policies on the same deals, seats rotated.

    Every (soloist policy, defenders' policy) pair from ``policies`` plays the same ``n``
    deals three times each (each seat soloist once).  The unit is a deal (mean over its
    three rotations), so standard errors are over ``n`` independent deals.

    Returns
    -------
    dict
        ``configs``: for each "soloist/defenders" pair, the soloist's mean card points
        (trick points + the Tapp as its discard, R7) and the defenders' (both together),
        each with se and n; ``diffs``: paired gains (same deals) when the soloist, or
        the two defenders, switch from ``policies[0]`` to ``policies[-1]``, with se and
        95% CI.
    """
    from analyzer.analyses.stats import mean_ci, paired_diff_ci
    kr = rules.kernel
    total = 8 * sum(rules.card_points) + rules.last_trick_bonus
    res = {}
    for ps in policies:
        for pd in policies:
            out = np.zeros((n, 3), dtype=np.int64)
            tapp = np.zeros(n, dtype=np.int64)
            duel_kernel(int(n), chunk_state(seed, 0), chunk_state(seed, 1), kr,
                        POLICY_NAMES[ps], POLICY_NAMES[pd], out, tapp,
                        *older_args([POLICY_NAMES[ps], POLICY_NAMES[pd]]))
            sol = out.mean(axis=1) + tapp
            res[f"{ps}/{pd}"] = sol
    configs = {}
    for key, sol in res.items():
        m = mean_ci(sol)
        d = mean_ci(total - sol)
        configs[key] = {"soloist": m.mean, "soloist_se": m.se, "defenders": d.mean,
                        "defenders_se": d.se, "n": m.n}
    diffs = {}
    a, b = policies[0], policies[-1]   # baseline policy, challenger
    if a != b:
        # the soloist switches from a to b, defenders fixed: gain in the soloist's points
        for pd in (a, b):
            diffs[f"soloist {b} vs {a} (defenders {pd})"] = _gain(
                paired_diff_ci(res[f"{b}/{pd}"], res[f"{a}/{pd}"]))
        # the defenders switch from a to b: gain in the defenders' points
        for ps in (a, b):
            diffs[f"defenders {b} vs {a} (soloist {ps})"] = _gain(
                paired_diff_ci(res[f"{ps}/{a}"], res[f"{ps}/{b}"]))
    return {"deals": n, "seed": seed, "configs": configs, "diffs": diffs}


def _register() -> None:
    from analyzer.bench.registry import register
    register("W2", w2,
             description=("random playout: deal a uniformly random 15/15/15/3 split (Tapp "
                          "out, no exchange), trump spades, forehand leads, 15 tricks, each "
                          "card uniform among the distinct legal card types (leader: among "
                          "the distinct types held), accumulate each seat's card points"),
             deals=1_000_000, baselines={"python": (w2_python, 5_000)}, variant_aware=True)
    register("W2H", w2_heuristic,
             description=("W2's deals (trump spades, forehand leads, 15 tricks) played by "
                          "the heuristic policy at every seat, no soloist"),
             deals=200_000, variant_aware=True)
    register("W2S", w2_soloist,
             description=("W2's deals (trump spades, forehand leads, 15 tricks) with seat 0 "
                          "as soloist (the Tapp as its discard), the heuristic at every seat "
                          "(the defenders' rules of _defend, shown melds tracked); baseline "
                          "heuristic-v1 on the same deals"),
             deals=200_000, baselines={"heuristic-v1": (w2_soloist_v1, 200_000),
                                       "heuristic-lin": (w2_soloist_lin, 200_000),
                                       "heuristic-lin2": (w2_soloist_lin2, 200_000)},
             variant_aware=True)


if __name__ != "__main__":   # run as a script, the module itself is imported below
    _register()


def format_duel(res: dict) -> str:
    """Plain-text table of :func:`policy_duel`'s result."""
    lines = [f"policy duel: {res['deals']:,} deals x 3 rotations (seed {res['seed']}); "
             "card points incl. the Tapp as the soloist's discard (R7), mean ± SE"]
    lines.append(f"{'soloist/defenders':<22}{'soloist':>16}{'defenders':>16}")
    for key, c in res["configs"].items():
        lines.append(f"{key:<22}{c['soloist']:>9.2f} ± {c['soloist_se']:.2f}"
                     f"{c['defenders']:>9.2f} ± {c['defenders_se']:.2f}")
    lines.append("paired gains in the switching side's card points (same deals):")
    for key, d in res["diffs"].items():
        lines.append(f"  {key:<52}{d['gain']:+8.2f} ± {d['se']:.2f} "
                     f"(95% CI {d['lo']:+.2f} .. {d['hi']:+.2f})")
    return "\n".join(lines)


if __name__ == "__main__":   # python -m analyzer.bench.play [deals] [seed]
    import sys

    from analyzer.bench import play as _mod   # the importable module (kernels cached there)
    args = [int(a) for a in sys.argv[1:3]]
    print(_mod.format_duel(_mod.policy_duel(*args)))
