"""The one playout loop (analyzer.mechanics.playout.play_random) reproduces both engines'
random playouts card for card: play.py's play_out_logged (three-player games, Durch end
R4) and analyzer.search.pimc.play_deal_partners_logged (partners' tables), same deal,
same RNG state."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.mechanics import play as p3
from analyzer.mechanics.planes import planes_from_counts
from analyzer.mechanics.playout import L_COLS, log_cols, play_random
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import VARIANTS, team_kernel
from analyzer.mechanics.ruleset import GAMES
from analyzer.mechanics.trick import sides_of
from analyzer.search.pimc import play_deal_partners_logged


def _counts(game, rng):
    """uint8[table seats, 24] hands of a random deal (the Dabb, if any, left out)."""
    kern = game.kernel
    deck = np.repeat(np.arange(24), kern.copies)
    rng.shuffle(deck)
    counts = np.zeros((kern.table_seats, 24), dtype=np.uint8)
    i = 0
    for s in range(kern.table_seats):
        if kern.sits_out[s]:
            continue
        for c in deck[i:i + kern.hand_size]:
            counts[s, c] += 1
        i += kern.hand_size
    return counts


def _generic(game, counts, trump, leader, soloist, side, state):
    kern = game.kernel
    planes = np.empty((kern.table_seats, kern.k), dtype=np.int64)
    planes_from_counts(counts, kern.k, planes)
    pts, tks, cnt = (np.zeros(kern.table_seats, dtype=np.int64) for _ in range(3))
    log = np.zeros((kern.hand_size, log_cols(kern.n_play)), dtype=np.int64)
    n = play_random(planes, trump, leader, soloist, side, state, kern, pts, tks, cnt, log)
    return n, pts, tks, cnt, log


@pytest.mark.parametrize("name", ("binokel-48", "grupp-3", "grupp-4", "binokel-40"))
def test_random_playouts_equal_play_py_card_for_card(name):
    game, kr = GAMES[name], VARIANTS[name].kernel
    kern = game.kernel
    rng = np.random.default_rng(7)
    pol = np.zeros(3, dtype=np.int64)                       # POLICY_RANDOM at every seat
    for deal in range(60):
        counts = _counts(game, rng)
        durch = bool(game.scoring.durch) and deal % 4 == 0
        trump = -1 if durch else int(rng.integers(4))
        soloist = int(rng.integers(3))
        leader = soloist if durch else 0                    # R4: the soloist leads a Durch
        old_pts, old_tks = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
        old_log = np.zeros((kern.hand_size, p3.LOG_COLS), dtype=np.int64)
        n_old = p3.play_out_logged(counts[:3].copy(), trump, leader, soloist, pol,
                                   chunk_state(deal, 0), kr, old_pts, old_tks, old_log,
                                   np.zeros(0, dtype=np.int64), 0)
        side = np.arange(kern.table_seats, dtype=np.int64)  # points per seat, as play.py
        n, pts, tks, _, log = _generic(game, counts, trump, leader, soloist, side,
                                       chunk_state(deal, 0))
        assert n == n_old
        assert np.array_equal(log[:n], old_log[:n])
        assert np.array_equal(pts[:3], old_pts) and np.array_equal(tks[:3], old_tks)
        assert pts[3:].sum() == 0                           # grupp-4's dealer sits out (V3)


@pytest.mark.parametrize("name", ("kreuz-48", "kreuz-40", "pinochle-80"))
def test_random_playouts_equal_the_partners_loop_card_for_card(name):
    game, tk = GAMES[name], team_kernel(VARIANTS[name])
    kern = game.kernel
    rng = np.random.default_rng(11)
    pol = np.zeros(4, dtype=np.int64)                       # play.POLICY_RANDOM
    side = np.empty(4, dtype=np.int64)
    sides_of(kern.side_rule, kern.sits_out, -1, side)
    assert list(side) == [0, 1, 0, 1]                      # V1: partners opposite
    for deal in range(40):
        counts = _counts(game, rng)
        trump = int(rng.integers(4))
        bidder = int(rng.integers(4))
        leader = bidder if kern.bidder_leads else 0         # V6.2 / V4.5
        o_pts, o_cnt, o_tks = (np.zeros(2, dtype=np.int64) for _ in range(3))
        old_log = np.zeros((kern.hand_size, L_COLS), dtype=np.int64)
        n_old = play_deal_partners_logged(counts, trump, leader, bidder, pol, chunk_state(deal, 1),
                                    tk, np.zeros(24, dtype=np.uint8), o_pts, o_cnt, o_tks,
                                    old_log, np.zeros(0, dtype=np.int64), 0)
        n, pts, tks, cnt, log = _generic(game, counts, trump, leader, -1, side,
                                         chunk_state(deal, 1))
        assert n == n_old == kern.hand_size
        assert np.array_equal(log, old_log)
        assert np.array_equal(pts[:2], o_pts) and np.array_equal(tks[:2], o_tks)
        assert np.array_equal(cnt[:2], o_cnt)


@pytest.mark.parametrize("name", ("binokel-48", "grupp-4", "binokel-40"))
def test_specialised_random_core_equals_the_generic_loop(name):
    """play.play_out with the random policy at every seat runs the specialised, branch-free
    _random_core (kept: the generic loop is slower on W2, docs/design/engine.md); it must
    play the same cards: the same points, tricks, tricks played and RNG state after every
    deal, Durch end (R4) included."""
    game, kr = GAMES[name], VARIANTS[name].kernel
    kern = game.kernel
    rng = np.random.default_rng(3)
    side = np.arange(kern.table_seats, dtype=np.int64)
    for deal in range(150):
        counts = _counts(game, rng)
        durch = bool(game.scoring.durch) and deal % 3 == 0
        trump = -1 if durch else int(rng.integers(4))
        soloist = int(rng.integers(3)) if durch else -1
        leader = soloist if durch else int(rng.integers(3))
        st_old, st_new = chunk_state(deal, 2), chunk_state(deal, 2)
        pts, tks = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
        n_old = p3.play_out(counts[:3].copy(), trump, leader, soloist, p3.POLICY_RANDOM, st_old,
                            kr, pts, tks)
        n, g_pts, g_tks, _, _ = _generic(game, counts, trump, leader, soloist, side, st_new)
        assert n == n_old and np.array_equal(st_old, st_new)
        assert np.array_equal(g_pts[:3], pts) and np.array_equal(g_tks[:3], tks)
