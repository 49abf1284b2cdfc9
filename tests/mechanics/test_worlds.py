"""The world sampler (analyzer.mechanics.worlds) against exact enumeration
(tests/oracle/worlds.py): every drawn world is consistent with the knowledge (R2, R4 the
face-up Tapp, R5 shown melds, R6 proven voids, V4.1/V5.1/V6.1 the hand and Dabb sizes),
and on small cases the draws follow the exact distribution (chi-square)."""
from __future__ import annotations

import random

import numpy as np
import pytest
from scipy.stats import chi2

from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.ruleset import GAMES
from analyzer.mechanics.worlds import draw_world, sample_setup
from tests.oracle.worlds import world_distribution


def _draw(knowledge, n, seed):
    unseen, public, shown, absent, room, pub_places = knowledge
    P = len(room)
    places = sum(1 << p for p in range(P) if room[p] > 0)
    setup = sample_setup(np.array(unseen, dtype=np.int64), np.array(shown, dtype=np.int64),
                         np.array(public, dtype=np.int64), np.array(absent, dtype=np.int64),
                         np.int64(places), np.int64(pub_places), np.array(room, dtype=np.int64))
    st = chunk_state(seed, 0)
    out = []
    for _ in range(n):
        w = np.zeros((P, 24), dtype=np.int64)
        assert draw_world(st, *setup, w)
        out.append(w)
    return out


def _key(w):
    return tuple(tuple((t, int(w[p, t])) for t in range(24) if w[p, t]) for p in range(w.shape[0]))


def _vec(n, pairs):
    v = [0] * n
    for i, x in pairs:
        v[i] = x
    return v


# (unseen, public, shown, absent, room, pub_places): small enough to enumerate
CASES = {
    # a defender's view in a three-hand game: two hands and the hidden discard (place 2),
    # one face-up Tapp copy of type 0 (soloist = place 0, R4), a shown K (R5), a void (R6)
    "tapp-shown-void": (_vec(24, [(0, 2), (1, 1), (2, 2), (6, 2), (7, 1)]), _vec(24, [(0, 1)]),
                        [[0] * 24, _vec(24, [(2, 1)]), [0] * 24], [0, 1 << 6, 0], [3, 3, 2], 0b101),
    # a four-copy deck (V6.1): three hands, no discard, a proven void of type 3
    "four-copies": (_vec(24, [(0, 4), (3, 3), (9, 1)]), [0] * 24,
                    [[0] * 24, [0] * 24, _vec(24, [(9, 1)])], [1 << 3, 0, 0], [3, 3, 2], 0),
}


@pytest.mark.parametrize("name", list(CASES))
def test_drawn_worlds_follow_the_exact_distribution_of_consistent_deals(name):
    k = CASES[name]
    exact = world_distribution(*k)
    n = 6000
    got = {}
    for w in _draw(k, n, 11):
        got[_key(w)] = got.get(_key(w), 0) + 1
    assert set(got) <= set(exact)               # no inconsistent world, ever
    stat = sum((got.get(w, 0) - n * float(p)) ** 2 / (n * float(p)) for w, p in exact.items())
    dof = len(exact) - 1
    assert stat < chi2.ppf(0.999, dof), (stat, dof)


def _random_knowledge(rnd, game):
    """A true hidden allocation for one of ``game``'s seats and knowledge it satisfies."""
    kern = game.kernel
    n_hidden = kern.n_play - 1                  # the other hands in play
    dabb = kern.dabb_size
    P = n_hidden + (1 if dabb else 0)
    left = rnd.randrange(1, kern.hand_size + 1)  # cards still in each hand
    room = [left] * n_hidden + ([dabb] if dabb else [])
    deck = [t for t in range(24) for _ in range(int(kern.copies[t]))]
    rnd.shuffle(deck)
    cards = deck[:sum(room)]
    truth = np.zeros((P, 24), dtype=np.int64)
    i = 0
    for p in range(P):
        for _ in range(room[p]):
            truth[p, cards[i]] += 1
            i += 1
    unseen = truth.sum(axis=0)
    absent = [sum(1 << t for t in range(24) if truth[p, t] == 0 and rnd.random() < 0.3)
              for p in range(P)]
    shown = [[int(truth[p, t]) if rnd.random() < 0.2 else 0 for t in range(24)] for p in range(P)]
    pub_places = (1 | (1 << (P - 1))) if dabb else 0
    public = [int(truth[0, t] + (truth[P - 1, t] if dabb else 0)) if dabb and rnd.random() < 0.3
              else 0 for t in range(24)]
    return truth, (list(unseen), public, shown, absent, room, pub_places)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_drawn_world_is_consistent_with_the_knowledge(name):
    rnd = random.Random(name)
    for rep in range(6):
        truth, k = _random_knowledge(rnd, GAMES[name])
        unseen, public, shown, absent, room, pub_places = k
        for w in _draw(k, 20, rep):
            assert list(w.sum(axis=1)) == room                       # hand and Dabb sizes
            assert list(w.sum(axis=0)) == unseen                     # every hidden card once
            for p in range(len(room)):
                held = sum(1 << t for t in range(24) if w[p, t])
                assert held & absent[p] == 0                         # R6 proven voids
                assert all(w[p, t] >= shown[p][t] for t in range(24))    # R5 shown melds
            for t in range(24):                                      # R4 face-up Tapp
                if public[t]:
                    on_pub = sum(w[p, t] for p in range(len(room)) if (pub_places >> p) & 1)
                    assert on_pub >= public[t]
