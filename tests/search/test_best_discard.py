"""Best discard for a given Tapp (analyzer.search.best_discard) against brute force over
every discard and trump (R4 discard, R5 melds, R7 card points, R8 melds need a trick)."""
from __future__ import annotations

import random
from itertools import combinations

import pytest

from analyzer.errors import BinokelError
from analyzer.mechanics.cards import Card, Hand
from analyzer.search.best_discard import best_discard, discards
from tests.oracle.melds import melds_reference
from tests.oracle.play import points
from tests.oracle.solve import minimax

SUITS = "CSHD"


def _small_deal(rnd: random.Random, n: int):
    deck = [t for t in range(24) for _ in range(2)]
    rnd.shuffle(deck)
    hands = [sorted(deck[p * n:(p + 1) * n]) for p in range(3)]
    return hands, sorted(deck[3 * n:3 * n + 3])


def _brute(hands, tapp, soloist):
    """Max over every 3-card discard (physical cards, duplicates deduplicated by types)
    and trump of discard points + exact play + melds if the soloist takes a trick."""
    pool = hands[soloist] + tapp
    best = -1
    seen = set()
    for idx in combinations(range(len(pool)), 3):
        disc = tuple(sorted(pool[i] for i in idx))
        if disc in seen:
            continue
        seen.add(disc)
        kept = list(pool)
        for c in disc:
            kept.remove(c)
        counts = [[0] * 24 for _ in range(3)]
        for p in range(3):
            for c in (kept if p == soloist else hands[p]):
                counts[p][c] += 1
        dp = sum(points(c) for c in disc)
        for ti, t in enumerate(SUITS):
            v = minimax(counts, ti, soloist, 0, ())
            m = melds_reference(counts[soloist], t)["total"]
            best = max(best, dp + v + (m if v > 0 else 0))
    return best, len(seen)


def _hand(types):
    return Hand.from_cards([Card(t) for t in types])


@pytest.mark.parametrize("n, count", [(3, 10), (4, 4)])
def test_best_discard_equals_brute_force_over_all_discards(n, count):
    # exact best total over every distinct discard x trump, as brute force says
    rnd = random.Random(50 + n)
    for _ in range(count):
        hands, tapp = _small_deal(rnd, n)
        soloist = rnd.randrange(3)
        want, n_disc = _brute(hands, tapp, soloist)
        got = best_discard([_hand(h) for h in hands], soloist, _hand(tapp), max_seconds=None)
        assert got["exact"] and got["best"]["total"] == want
        assert got["candidates"] == 4 * n_disc
        assert got["solved"] + got["refuted"] + got["pruned"] == got["candidates"]
        # the reported discard and trump really give that total
        b = got["best"]
        kept = Hand.parse(b["kept"])
        assert kept + Hand.parse(b["discard"]) == _hand(hands[soloist]) + _hand(tapp)
        assert b["total"] == b["discard_points"] + b["play"] + (b["melds"] if b["play"] > 0 else 0)


def test_best_discard_with_a_candidate_cap_says_whether_it_is_still_exact():
    # one candidate only: the result is the best examined, exact only when no untested
    # candidate's bound (melds + every card point + last trick) exceeds it
    rnd = random.Random(9)
    for _ in range(6):
        hands, tapp = _small_deal(rnd, 3)
        want, _ = _brute(hands, tapp, 0)
        got = best_discard([_hand(h) for h in hands], 0, _hand(tapp), max_candidates=1)
        assert got["solved"] + got["refuted"] == 1
        assert got["best"]["total"] <= want
        if got["exact"]:
            assert got["best"]["total"] == want
        else:
            assert got["untested"] > 0 and got["untested_bound"] > got["best"]["total"]


def test_discards_are_distinct_multisets_of_the_pool():
    # identical copies are one card: AS AS 10S 9S KH -> choose 3 types with copies
    pool = Hand.parse("AS AS 10S 9S KH")
    ds = discards(pool, 3)
    assert len({d.mask for d in ds}) == len(ds) == 7
    assert all(len(d) == 3 for d in ds)


@pytest.mark.parametrize("kwargs, msg", [
    ({"tapp": "AS"}, "Tapp holds 3"),
    ({"trumps": "X"}, "trumps"),
    ({"max_seconds": 0}, "max_seconds"),
    ({"max_candidates": 0}, "max_candidates"),
    ({"soloist": 3}, "soloist"),
])
def test_best_discard_bad_input_is_one_line(kwargs, msg):
    hands = ["AS 10S", "KS QS", "JS 9S"]
    kw = {"tapp": "AH 10H KH"}
    kw.update(kwargs)
    with pytest.raises(BinokelError, match=msg) as e:
        best_discard(hands, **kw)
    assert "\n" not in str(e.value)


def test_best_discard_out_of_time_on_the_first_search_is_a_one_line_error():
    # a whole deal cannot be solved in a millisecond: the node budget stops the search
    from analyzer.mechanics.rng import chunk_state
    from analyzer.mechanics.sampling import deal_random, new_deck
    import numpy as np
    from analyzer.search.solve import Solver
    out = np.zeros(4, dtype=np.int64)
    deal_random(chunk_state(7, 0), new_deck(), out)
    hs = [Hand.from_mask(int(m)) for m in out[:3]]
    s = Solver(tt_bits=16)
    with pytest.raises(BinokelError, match="did not finish") as e:
        best_discard(hs, 0, max_seconds=0.001, solver=s)
    assert "\n" not in str(e.value)
    # the stopped search left no false table entry: the same Solver still solves exactly
    rnd = random.Random(4)
    hands, tapp = _small_deal(rnd, 3)
    got = best_discard([_hand(h) for h in hands], 1, _hand(tapp), max_seconds=None, solver=s)
    assert got["best"]["total"] == _brute(hands, tapp, 1)[0]
