"""PIMC for every game (issue 24): the three-seat PIMC with the exact world sampler
(analyzer.mechanics.worlds via analyzer.search.pimc.exact_setup / exact_world) on the
40-card deck with its 4-card Dabb (V5.1, V5.3), the kept sampler of the 24 x 2 deck
against the exact one, and whole PIMC deals of binokel-40 (R4-R7, V5.6)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from analyzer.mechanics.cards import N_TYPES
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from analyzer.mechanics.ruleset import get_game
from analyzer.mechanics.trick import add_card, legal, proves
from analyzer.search.pimc import (PLAY_PIMC, PLAY_PIMC_DEFENCE, exact_setup, exact_world,
                                  pimc_args, play_contract, resolve_play, sample_world,
                                  shown_counts)


def _counts(lo, hi):
    return [((int(lo) >> t) & 1) + ((int(hi) >> t) & 1) for t in range(N_TYPES)]


def _planes(counts):
    lo = hi = 0
    for t in range(N_TYPES):
        if counts[t] >= 1:
            lo |= 1 << t
        if counts[t] >= 2:
            hi |= 1 << t
    return lo, hi


def _midgame(rnd, name, tricks=None):
    """A three-seat deal of ``name`` after the soloist (seat 0) took the Tapp / Dabb and
    discarded as many cards (R4, V5.3), then a few tricks of random legal cards under the
    game's duties (trick.legal), with what each play proved (trick.proves)."""
    kern = get_game(name).kernel
    rules = get_rules(name)
    deck = [t for t in range(24) for _ in range(int(kern.copies[t]))]
    rnd.shuffle(deck)
    hs, d = kern.hand_size, kern.dabb_size
    hands = [[deck[p * hs:(p + 1) * hs].count(t) for t in range(24)] for p in range(3)]
    tapp = [deck[3 * hs:].count(t) for t in range(24)]
    trump = rnd.randrange(4)
    sol = 0
    full = [hands[0][t] + tapp[t] for t in range(24)]
    pool = [t for t in range(24) for _ in range(full[t])]
    rnd.shuffle(pool)
    disc = [pool[:d].count(t) for t in range(24)]
    hands[0] = [full[t] - disc[t] for t in range(24)]
    shown = [list(shown_counts(h, trump, rules)) for h in hands]
    played = [0] * 24
    absent = [0, 0, 0]
    tapp_left = list(tapp)
    ld = 0
    for _ in range(rnd.randrange(0, hs - 1) if tricks is None else tricks):
        ls = wc = ws = lh = -1
        for i in range(3):
            seat = (ld + i) % 3
            h = sum(1 << t for t in range(24) if hands[seat][t])
            lg = int(legal(np.int64(h), ls, wc, lh, trump, kern.beat, kern.follow, kern.trump_duty,
                           kern.beat_mode, kern.overtrump, 0))
            c = rnd.choice([t for t in range(24) if (lg >> t) & 1])
            if ls >= 0:
                absent[seat] |= int(proves(c, ls, wc, lh, trump, kern.beat, kern.follow,
                                           kern.trump_duty, kern.beat_mode, kern.overtrump, 0))
            ls, wc, ws, lh = (int(x) for x in add_card(c, seat, ls, wc, ws, lh, trump, kern.beat))
            hands[seat][c] -= 1
            played[c] += 1
            shown[seat][c] = max(0, shown[seat][c] - 1)
            if seat == sol and tapp_left[c] > 0:
                tapp_left[c] -= 1
        ld = ws
    return dict(hands=hands, trump=trump, soloist=sol, disc=disc, tapp_left=tapp_left,
                shown=shown, played=played, absent=absent, copies=[int(x) for x in kern.copies],
                dabb=d)


def _exact_worlds(g, seat, n, seed):
    sol = g["soloist"]
    lo, hi = _planes(g["hands"][seat])
    disc = np.array(g["disc"] if seat == sol else [0] * 24, dtype=np.int64)
    sizes = np.array([sum(h) for h in g["hands"]], dtype=np.int64)
    setup = exact_setup(seat, sol, np.int64(lo), np.int64(hi), np.array(g["played"], dtype=np.int64),
                        disc, sizes, np.array(g["absent"], dtype=np.int64),
                        np.array(g["shown"], dtype=np.int64),
                        np.array(g["tapp_left"], dtype=np.int64),
                        np.array(g["copies"], dtype=np.int64), g["dabb"])
    st = chunk_state(seed, 0)
    wlo = np.zeros(4, dtype=np.int64)
    whi = np.zeros(4, dtype=np.int64)
    out = []
    for _ in range(n):
        assert exact_world(st, seat, np.int64(lo), np.int64(hi), *setup,
                           np.zeros((4, 24), dtype=np.int64), wlo, whi)
        out.append([_counts(wlo[q], whi[q]) for q in range(4)])
    return out


@pytest.mark.parametrize("name", ["binokel-40", "binokel-48"])
def test_exact_worlds_are_consistent_with_the_information_set(name):
    rnd = random.Random(name)
    for case in range(24):
        g = _midgame(rnd, name)
        seat = case % 3
        sol = g["soloist"]
        sizes = [sum(h) for h in g["hands"]]
        for world in _exact_worlds(g, seat, 8, case):
            assert world[seat] == g["hands"][seat]
            for q in range(3):
                assert sum(world[q]) == sizes[q]
                for t in range(24):
                    if (g["absent"][q] >> t) & 1:
                        assert world[q][t] == 0                        # R6 / V5.6 proofs
                    assert world[q][t] >= g["shown"][q][t]             # R5 shown melds
            for t in range(24):
                extra = g["disc"][t] if seat == sol else world[3][t]
                assert sum(world[q][t] for q in range(3)) + extra + g["played"][t] == g["copies"][t]
                if seat != sol:                                        # R4: Tapp face up
                    assert world[sol][t] + world[3][t] >= min(
                        g["tapp_left"][t], g["copies"][t] - g["played"][t] - g["hands"][seat][t])
            assert sum(world[3]) == (0 if seat == sol else g["dabb"])  # V5.3: 4, R4: 3


def _marginals(worlds, places):
    acc = np.zeros((4, 24))
    for w in worlds:
        acc += np.array([[c > 0 for c in w[q]] for q in range(4)])
    return acc[places] / len(worlds)


def _kept_worlds(g, seat, n, seed):
    lo, hi = _planes(g["hands"][seat])
    sizes = np.array([sum(h) for h in g["hands"]], dtype=np.int64)
    st = chunk_state(seed, 3)
    wlo = np.zeros(4, dtype=np.int64)
    whi = np.zeros(4, dtype=np.int64)
    out = []
    for _ in range(n):
        assert sample_world(st, seat, g["soloist"], np.int64(lo), np.int64(hi),
                            np.array(g["played"], dtype=np.int64), np.zeros(24, dtype=np.int64),
                            sizes, np.array(g["absent"], dtype=np.int64),
                            np.array(g["shown"], dtype=np.int64),
                            np.array(g["tapp_left"], dtype=np.int64), wlo, whi,
                            np.zeros(48, dtype=np.int64), np.zeros(48, dtype=np.int64))
        out.append([_counts(wlo[q], whi[q]) for q in range(4)])
    return out


def test_kept_sampler_of_the_24x2_deck_equals_the_exact_one_before_anything_is_proven():
    # binokel-48 / grupp keep sample_world (the golden pins).  Where the knowledge is the
    # hand sizes only (first lead, no melds shown, Tapp not read) its room-proportional
    # dealing is exactly uniform too: the marginals P(place q holds type t) agree within
    # 5 standard errors (n = 1500 each).  With proofs, shown melds and the Tapp it is not
    # (measured in the report of issue 24: up to 0.15 off), which the exact sampler fixes.
    rnd = random.Random(4)
    n = 1500
    for case in range(3):
        g = _midgame(rnd, "binokel-48", tricks=0)
        seat = 1 + case % 2
        g["shown"] = [[0] * 24 for _ in range(3)]
        g["tapp_left"] = [0] * 24
        places = [q for q in range(4) if q != seat]
        diff = np.abs(_marginals(_kept_worlds(g, seat, n, case), places)
                      - _marginals(_exact_worlds(g, seat, n, case), places))
        assert diff.max() < 5 * np.sqrt(2 * 0.25 / n)


def test_exact_worlds_match_rejection_sampling_of_a_midgame_position():
    # the unbiased reference of a real position: deal the hidden cards uniformly, keep the
    # deals that respect every proof (R6); marginals agree within 5 standard errors
    rnd = random.Random(7)
    g = _midgame(rnd, "binokel-48")
    while sum(g["played"]) < 15:
        g = _midgame(rnd, "binokel-48")
    g["shown"] = [[0] * 24 for _ in range(3)]
    g["tapp_left"] = [0] * 24
    seat = 1
    sizes = [sum(h) for h in g["hands"]]
    hidden = [t for t in range(24) for _ in range(2 - g["hands"][seat][t] - g["played"][t])]
    rooms = [(0, sizes[0]), (2, sizes[2]), (3, 3)]
    n = 1500
    acc = []
    r = random.Random(1)
    while len(acc) < n:
        r.shuffle(hidden)
        w = [[0] * 24 for _ in range(4)]
        i = 0
        for q, k in rooms:
            for _ in range(k):
                w[q][hidden[i]] += 1
                i += 1
        if all(not (g["absent"][q] >> t) & 1 or w[q][t] == 0 for q in (0, 2) for t in range(24)):
            acc.append(w)
    diff = np.abs(_marginals(acc, [0, 2, 3]) - _marginals(_exact_worlds(g, seat, n, 2), [0, 2, 3]))
    assert diff.max() < 5 * np.sqrt(2 * 0.25 / n)


@pytest.mark.parametrize("play", [PLAY_PIMC, PLAY_PIMC_DEFENCE])
def test_binokel40_pimc_deal_credits_every_card_point(play):
    # a whole binokel-40 contract with PIMC seats (play_contract): 12 tricks, the points of
    # the 40 cards less the discard's 4, + the last trick (R7, V5.1)
    rules = get_rules("binokel-40")
    kr = rules.kernel
    assert resolve_play("pimc", rules) == PLAY_PIMC
    rnd = random.Random(play)
    g = _midgame(rnd, "binokel-40", tricks=0)
    hands = np.array(g["hands"], dtype=np.uint8)
    disc = np.array([t for t in range(24) for _ in range(g["disc"][t])], dtype=np.int64)
    pts = np.zeros(3, dtype=np.int64)
    trk = np.zeros(3, dtype=np.int64)
    n = play_contract(hands, g["trump"], 0, 0, play, chunk_state(1, 0), kr, pts, trk,
                      np.array(g["tapp_left"], dtype=np.int64), disc, *pimc_args(play))
    assert n == 12 and int(trk.sum()) == 12
    held = hands.astype(np.int64).sum(axis=0)
    assert int(pts.sum()) == int((held * kr.card_points).sum()) + kr.last_trick_bonus


def test_resolve_play_refuses_pimc_for_a_game_with_a_stock():
    """V7: a stock game has its own policies (stock_registry); this PIMC is not one."""
    from analyzer.errors import BinokelError
    from analyzer.mechanics.ruleset import get_game

    game = get_game("binokel-2")
    assert resolve_play("heuristic", game) == resolve_play("heuristic")
    for name in ("pimc", "pimc-defence"):
        with pytest.raises(BinokelError, match="V7"):
            resolve_play(name, game)
