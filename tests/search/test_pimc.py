"""PIMC player (analyzer.search.pimc): consistent worlds, no hidden cards read (R4-R6)."""
from __future__ import annotations

import inspect
import random

import numpy as np
import pytest

from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.play import older_args, POLICY_HEURISTIC, beat_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES
from analyzer.search import pimc
from analyzer.search.pimc import (POLICY_PIMC, pimc_choose, play_deal_policies, proven_absent,
                                  sample_world, shown_counts)
from analyzer.search.solve import Solver, set_context
from tests.oracle.play import beats, legal_cards

KR = DEFAULT_RULES.kernel
RS = np.ascontiguousarray(KR.rank_strength, dtype=np.int64)


def _planes(counts):
    lo = hi = 0
    for t in range(N_TYPES):
        if counts[t] >= 1:
            lo |= 1 << t
        if counts[t] >= 2:
            hi |= 1 << t
    return lo, hi


def _counts(lo, hi):
    return [((lo >> t) & 1) + ((hi >> t) & 1) for t in range(N_TYPES)]


def _deal(rnd):
    deck = [t for t in range(24) for _ in range(2)]
    rnd.shuffle(deck)
    return [[deck[p * 15:(p + 1) * 15].count(t) for t in range(24)] for p in range(3)], \
        [deck[45:].count(t) for t in range(24)]


def _midgame(rnd):
    """A deal after the soloist (seat 0) took the Tapp and discarded 3, played by random
    legal cards for a few tricks; returns the true state and the public record."""
    hands, tapp = _deal(rnd)
    trump = rnd.randrange(4)
    sol = 0
    h18 = [hands[0][t] + tapp[t] for t in range(24)]
    pool = [t for t in range(24) for _ in range(h18[t])]
    rnd.shuffle(pool)
    disc = [pool[:3].count(t) for t in range(24)]
    hands[0] = [h18[t] - disc[t] for t in range(24)]
    shown = [list(shown_counts(h, trump)) for h in hands]
    played = [0] * 24
    absent = [0, 0, 0]
    tapp_left = list(tapp)
    beat = np.empty(24, dtype=np.int64)
    beat_table(KR, beat)
    ld = 0
    for _ in range(rnd.randrange(1, 9)):
        trick = []
        for i in range(3):
            seat = (ld + i) % 3
            c = rnd.choice(sorted(legal_cards(hands[seat], trick, trump)))
            if trick:
                w = trick[0]
                for x in trick[1:]:
                    if beats(x, w, trump):
                        w = x
                hi = trick[0]
                for x in trick[1:]:
                    if x // 6 == hi // 6 and x % 6 < hi % 6:
                        hi = x
                absent[seat] |= int(proven_absent(c, trick[0] // 6, w, hi, trump, beat, 0))
            hands[seat][c] -= 1
            played[c] += 1
            shown[seat][c] = max(0, shown[seat][c] - 1)
            if seat == sol and tapp_left[c] > 0:
                tapp_left[c] -= 1
            trick.append(c)
        w = 0
        for i in range(1, 3):
            if beats(trick[i], trick[w], trump):
                w = i
        ld = (ld + w) % 3
    return dict(hands=hands, trump=trump, soloist=sol, leader=ld, disc=disc, tapp=tapp,
                tapp_left=tapp_left, shown=shown, played=played, absent=absent)


def test_sampled_worlds_are_consistent_with_the_information_set():
    rnd = random.Random(5)
    st = chunk_state(1, 0)
    for case in range(60):
        g = _midgame(rnd)
        seat = case % 3
        sol = g["soloist"]
        own = _planes(g["hands"][seat])
        disc = np.array(g["disc"] if seat == sol else [0] * 24, dtype=np.int64)
        sizes = np.array([sum(h) for h in g["hands"]], dtype=np.int64)
        wlo = np.zeros(4, dtype=np.int64)
        whi = np.zeros(4, dtype=np.int64)
        for _ in range(10):
            ok = sample_world(st, seat, sol, np.int64(own[0]), np.int64(own[1]),
                              np.array(g["played"], dtype=np.int64), disc, sizes,
                              np.array(g["absent"], dtype=np.int64),
                              np.array(g["shown"], dtype=np.int64),
                              np.array(g["tapp_left"], dtype=np.int64), wlo, whi,
                              np.zeros(48, dtype=np.int64), np.zeros(48, dtype=np.int64))
            assert ok
            world = [_counts(int(wlo[q]), int(whi[q])) for q in range(4)]
            assert world[seat] == g["hands"][seat]
            for q in range(3):
                assert sum(world[q]) == sizes[q]
                for t in range(24):
                    if (g["absent"][q] >> t) & 1:
                        assert world[q][t] == 0            # R6 inference respected
                    assert world[q][t] >= g["shown"][q][t]  # shown melds stay (R5)
            for t in range(24):
                extra = g["disc"][t] if seat == sol else world[3][t]
                assert sum(world[q][t] for q in range(3)) + extra + g["played"][t] == 2
                if seat != sol:
                    # Tapp copies are with the soloist or in the discard (R4)
                    assert world[sol][t] + world[3][t] >= min(g["tapp_left"][t], 2 - g["played"][t] - g["hands"][seat][t])
            assert sum(world[3]) == (0 if seat == sol else 3)


def test_pimc_choose_takes_no_hidden_hand():
    # structural: the decision's inputs are the information set, nothing else
    params = list(inspect.signature(pimc_choose.py_func).parameters)
    assert params == ["w", "tt", "rs", "kr", "seat", "soloist", "trump", "leader", "k", "lsuit",
                      "wcard", "wseat", "lhigh", "tp", "own_lo", "own_hi", "played", "discard", "absent",
                      "shown", "tapp_left", "n_samples", "horizon", "state", "acc"]


def _first_card(hands, tapp, disc, trump, soloist, seat_pimc, seed):
    s = Solver(tt_bits=14)
    set_context(s.w, trump, soloist, s.tt_mask)
    lo = np.zeros(3, dtype=np.int64)
    hi = np.zeros(3, dtype=np.int64)
    for p in range(3):
        lo[p], hi[p] = _planes(hands[p])
    pol = np.full(3, POLICY_HEURISTIC, dtype=np.int64)
    pol[seat_pimc] = POLICY_PIMC
    shown = np.array([shown_counts(h, trump) for h in hands], dtype=np.int64)
    log = np.zeros(45, dtype=np.int64)
    play_deal_policies(lo, hi, np.array(disc, dtype=np.int64), np.array(tapp, dtype=np.int64),
                       shown, trump, soloist, 0, pol, 8, 5, chunk_state(seed, 0), s.w, s.tt, RS,
                       KR, np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64), log)
    return int(log[0])


def test_pimc_decision_unchanged_when_hidden_hands_are_replaced_consistently():
    # forehand (seat 0, PIMC) leads; the hidden cards (seats 1, 2 and the discard) are
    # re-dealt so that everything public stays the same: shown melds (R5), the face-up
    # Tapp with the soloist (R4).  The first card must not change.
    rnd = random.Random(11)
    checked = 0
    while checked < 12:
        hands, tapp = _deal(rnd)
        trump = rnd.randrange(4)
        soloist = rnd.choice([0, 1, 2])
        h18 = [hands[soloist][t] + tapp[t] for t in range(24)]
        pool = [t for t in range(24) for _ in range(h18[t])]
        rnd.shuffle(pool)
        disc = [pool[:3].count(t) for t in range(24)]
        hands[soloist] = [h18[t] - disc[t] for t in range(24)]
        # movable: hidden cards that are neither shown nor (for a soloist hand) Tapp copies
        shown = [shown_counts(h, trump) for h in hands]
        locs = [q for q in (1, 2)] + ([3] if soloist != 0 else [])
        holders = {1: hands[1], 2: hands[2], 3: disc}
        movable = []
        for q in locs:
            for t in range(24):
                keep = shown[q][t] if q < 3 else 0
                if q == soloist or (q == 3):
                    keep = max(keep, min(tapp[t], holders[q][t]))
                movable += [(q, t)] * (holders[q][t] - keep)
        cards = [t for _, t in movable]
        rnd.shuffle(cards)
        new = {q: list(holders[q]) for q in locs}
        for (q, t) in movable:
            new[q][t] -= 1
        for (q, _), t in zip(movable, cards):
            new[q][t] += 1
        hands_b = [hands[0], new[1], new[2]]
        disc_b = new.get(3, disc)
        if any(list(shown_counts(hands_b[q], trump)) != list(shown[q]) for q in range(3)):
            continue   # the swap made a new meld: public information would differ
        if hands_b == hands:
            continue
        a = _first_card(hands, tapp, disc, trump, soloist, 0, seed=checked)
        b = _first_card(hands_b, tapp, disc_b, trump, soloist, 0, seed=checked)
        assert a == b
        checked += 1


def test_shown_counts_follow_r5():
    # family of spades (A 10 K Q J) + a second K-Q pair: both kings and queens shown
    h = [0] * 24
    for r in range(5):
        h[6 + r] = 1
    h[6 + 2] = h[6 + 3] = 2
    h[5] = 2           # two 9C: trump nines when clubs is trump (R5 type D)
    out = shown_counts(h, 0)
    assert [out[6 + r] for r in range(6)] == [1, 1, 2, 2, 1, 0]
    assert out[5] == 2
    assert shown_counts(h, 1)[5] == 0


def test_module_states_samples_and_horizon_defaults():
    assert pimc.DEFAULT_SAMPLES > 0 and pimc.DEFAULT_HORIZON > 0



def test_heuristic_seats_of_the_deal_driver_read_the_shown_melds():
    # PIMC matches pit PIMC against the real default heuristic: a heuristic seat of
    # play_deal_policies gets the soloist's and its partner's shown, unplayed meld cards
    # (R5) as in analyzer.mechanics.play's kernel (structural, from the source), and the
    # melds change its play on some deals; heuristic-v1 seats (no melds) are reachable
    import ast

    from analyzer.mechanics.play import POLICY_HEURISTIC_V1

    tree = ast.parse(inspect.getsource(play_deal_policies.py_func))
    calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and getattr(c.func, "id", "") ==
             "_heuristic_melds"]
    assert len(calls) == 1 and [ast.unparse(a) for a in calls[0].args[-2:]] == ["kso", "ksp"]
    masks = [ast.unparse(c) for c in ast.walk(tree) if isinstance(c, ast.Call)
             and getattr(c.func, "id", "") == "_shown_mask"]
    assert masks == ["_shown_mask(shown, soloist)", "_shown_mask(shown, 3 - seat - soloist)"]
    rnd = random.Random(21)
    s = Solver(tt_bits=10)
    differ = {"melds": 0, "v1": 0}
    for i in range(40):
        hands, _ = _deal(rnd)
        trump, soloist = rnd.randrange(4), rnd.randrange(3)
        set_context(s.w, trump, soloist, s.tt_mask)
        shown = np.array([shown_counts(h, trump) for h in hands], dtype=np.int64)
        runs = []
        for pv, sh in ((POLICY_HEURISTIC, shown), (POLICY_HEURISTIC, 0 * shown),
                       (POLICY_HEURISTIC_V1, shown)):
            lo = np.zeros(3, dtype=np.int64)
            hi = np.zeros(3, dtype=np.int64)
            for p in range(3):
                lo[p], hi[p] = _planes(hands[p])
            pts, trk = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
            n = play_deal_policies(lo, hi, np.zeros(24, dtype=np.int64), np.zeros(24, dtype=np.int64),
                                   sh.copy(), trump, soloist, 0, np.full(3, pv, dtype=np.int64), 4, 2,
                                   chunk_state(i, 0), s.w, s.tt, RS, KR, pts, trk,
                                   np.zeros(0, dtype=np.int64))
            assert n == 15 and trk.sum() == 15
            runs.append(list(pts))
        differ["melds"] += runs[0] != runs[1]
        differ["v1"] += runs[0] != runs[2]
    assert differ["melds"] > 0 and differ["v1"] > 0, differ


@pytest.mark.parametrize("name", ["binokel-48", "grupp-3", "grupp-4"])
def test_heuristic_seats_of_the_deal_driver_play_card_for_card_as_the_kernel(name):
    # PIMC's gain is measured against the simulation kernel's heuristic: with heuristic
    # (and heuristic-v1, heuristic-lin, heuristic-lin2) seats only, play_deal_policies must play every card as
    # play_out_logged does on the same hands (same information: own hand, played cards,
    # R6 proofs, the soloist's discard R4, the shown unplayed melds R5). Before the
    # driver read the melds, 8-18 of 40 such deals ended differently.
    from analyzer.mechanics.play import (LOG_CARD0, LOG_COLS, POLICY_HEURISTIC_LIN,
                                         POLICY_HEURISTIC_LIN2, POLICY_HEURISTIC_V1,
                                         play_out_logged)
    from analyzer.mechanics.rules import get_rules

    rules = get_rules(name)
    kr = rules.kernel
    rs = np.ascontiguousarray(kr.rank_strength, dtype=np.int64)
    rnd = random.Random(1234)
    s = Solver(rules, tt_bits=10)
    for i in range(60):
        hands, disc = _deal(rnd)
        trump, soloist, leader = rnd.randrange(4), rnd.randrange(3), rnd.randrange(3)
        pols = np.array([rnd.choice((POLICY_HEURISTIC, POLICY_HEURISTIC, POLICY_HEURISTIC_V1,
                                     POLICY_HEURISTIC_LIN, POLICY_HEURISTIC_LIN2))
                         for _ in range(3)], dtype=np.int64)
        log = np.zeros((15, LOG_COLS), dtype=np.int64)
        kp, kt = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
        play_out_logged(np.array(hands, dtype=np.uint8), trump, leader, soloist, pols,
                        chunk_state(i, 0), kr, kp, kt, log, np.zeros(0, dtype=np.int64), 0,
                        *older_args(pols))
        kernel_cards = [int(c) for row in log for c in row[LOG_CARD0:LOG_CARD0 + 3]]
        set_context(s.w, trump, soloist, s.tt_mask)
        lo = np.zeros(3, dtype=np.int64)
        hi = np.zeros(3, dtype=np.int64)
        for p in range(3):
            lo[p], hi[p] = _planes(hands[p])
        shown = np.array([shown_counts(h, trump, rules) for h in hands], dtype=np.int64)
        dp, dt = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
        dlog = np.zeros(45, dtype=np.int64)
        play_deal_policies(lo, hi, np.array(disc, dtype=np.int64), np.zeros(24, dtype=np.int64),
                           shown, trump, soloist, leader, pols, 4, 2, chunk_state(i, 0), s.w, s.tt,
                           rs, kr, dp, dt, dlog)
        assert [int(c) for c in dlog] == kernel_cards, (i, trump, soloist, leader, list(pols))
        assert list(dp) == list(kp) and list(dt) == list(kt)


def test_pimc_worlds_takes_no_hidden_hand():
    # structural, as pimc_choose: the world loop's inputs are the information set (plus
    # the legal mask, the output arrays and the solver's scratch)
    params = list(inspect.signature(pimc.pimc_worlds.py_func).parameters)
    assert params == ["w", "tt", "rs", "kr", "seat", "soloist", "trump", "leader", "k", "lsuit",
                      "wcard", "wseat", "lhigh", "tp", "own_lo", "own_hi", "legal", "played",
                      "discard", "absent", "shown", "tapp_left", "n_samples", "horizon",
                      "state", "vals", "disc_lo", "disc_hi", "world_lo", "world_hi"]


def _world_args(g, seat):
    own = _planes(g["hands"][seat])
    disc = np.array(g["disc"] if seat == g["soloist"] else [0] * 24, dtype=np.int64)
    return own, disc, (np.array(g["played"], dtype=np.int64), disc,
                       np.array(g["absent"], dtype=np.int64), np.array(g["shown"], dtype=np.int64),
                       np.array(g["tapp_left"], dtype=np.int64))


@pytest.mark.parametrize("horizon", [7, 0])
def test_pimc_worlds_rows_are_each_sampled_worlds_solver_or_playout_values(horizon):
    # the kernel's world loop against a plain loop over the same RNG stream: sample_world,
    # then per legal card the exact double-dummy value (R6, R7; a fresh Solver per world, so
    # no table entry is shared) or the heuristic play-out; pimc_choose's means are the rows'
    rnd = random.Random(23 + horizon)
    cases = 0
    while cases < 3:
        g = _midgame(rnd)
        seat = g["leader"]
        sol = g["soloist"]
        left = sum(g["hands"][seat])
        if left > 7:
            continue
        cases += 1
        (own_lo, own_hi), disc, info = _world_args(g, seat)
        legal = own_lo
        n = 6
        s = Solver(tt_bits=14)
        set_context(s.w, g["trump"], sol, s.tt_mask)
        vals = np.zeros((n, N_TYPES))
        dlo = np.zeros(n, dtype=np.int64)
        dhi = np.zeros(n, dtype=np.int64)
        wl = np.zeros((n, 3), dtype=np.int64)
        wh = np.zeros((n, 3), dtype=np.int64)
        done = pimc.pimc_worlds(s.w, s.tt, RS, KR, seat, sol, g["trump"], g["leader"], 0, -1, -1,
                                -1, -1, np.int64(0), np.int64(own_lo), np.int64(own_hi),
                                np.int64(legal), *info, n, horizon, chunk_state(cases, 0), vals,
                                dlo, dhi, wl, wh)
        assert done == n
        st = chunk_state(cases, 0)
        sizes = np.array([left] * 3, dtype=np.int64)
        for i in range(n):
            wlo = np.zeros(4, dtype=np.int64)
            whi = np.zeros(4, dtype=np.int64)
            assert sample_world(st, seat, sol, np.int64(own_lo), np.int64(own_hi), *info[:1],
                                disc, sizes, *info[2:], wlo, whi, np.zeros(48, dtype=np.int64),
                                np.zeros(48, dtype=np.int64))
            assert (dlo[i], dhi[i]) == (wlo[3], whi[3])
            assert list(wl[i]) == list(wlo[:3]) and list(wh[i]) == list(whi[:3])
            ref = Solver(tt_bits=14)
            set_context(ref.w, g["trump"], sol, ref.tt_mask)
            pimc.set_hands(ref.w, wlo, whi)
            out = np.empty(N_TYPES, dtype=np.int64)
            pimc.dd_move_values(ref.w, ref.tt, g["leader"], 0, -1, -1, -1, -1, np.int64(0), out)
            for c in range(N_TYPES):
                if not (legal >> c) & 1:
                    assert vals[i, c] == 0.0
                elif horizon >= left:
                    assert vals[i, c] == out[c]
                else:
                    for p in range(3):
                        ref.w[pimc.W_LO + p] = wlo[p]
                        ref.w[pimc.W_HI + p] = whi[p]
                    assert vals[i, c] == pimc._rollout_after(
                        ref.w, RS, KR, seat, c, g["leader"], 0, -1, -1, -1, -1, np.int64(0),
                        sol, g["trump"])
        acc = np.zeros(N_TYPES)
        s2 = Solver(tt_bits=14)
        set_context(s2.w, g["trump"], sol, s2.tt_mask)
        best = pimc_choose(s2.w, s2.tt, RS, KR, seat, sol, g["trump"], g["leader"], 0, -1, -1, -1,
                           -1, np.int64(0), np.int64(own_lo), np.int64(own_hi), *info, n, horizon,
                           chunk_state(cases, 0), acc)
        means = vals.mean(axis=0)
        for c in range(N_TYPES):
            if (legal >> c) & 1:
                assert acc[c] == pytest.approx(means[c], abs=1e-9)
        pick = max if seat == sol else min
        assert means[best] == pick(means[c] for c in range(N_TYPES) if (legal >> c) & 1)
