"""binokel-48 figures pinned before the variants refactor (issue 10).

Every number below was produced by the code of commit e14bcd6 (before RuleSet grew the
variant fields, the meld/play/scoring/auction kernels became data-driven and the deck
followed the rules).  Same seeds must keep giving exactly the same numbers: a change for
a new variant must not change binokel-48 (RULES.md R1-R10).  These are regression pins of
deterministic seeded code, not statistical claims.
"""
from __future__ import annotations

import numpy as np
import pytest

import analyzer as A
from analyzer.examples import example
from analyzer.mechanics.cards import Hand
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.sampling import deal_random, new_deck


def _seat0_masks(seed: int, n: int) -> list[int]:
    st = chunk_state(seed, 0)
    deck = new_deck()
    out = np.empty(4, np.int64)
    masks = []
    for _ in range(n):
        deal_random(st, deck, out)
        masks.append(int(out[0]))
    return masks


def test_binokel48_meld_census_of_seeded_deals_is_unchanged():
    masks = _seat0_masks(7, 2000)
    assert (masks[0], masks[-1]) == (206173059362, 137446810437)
    mt = A.meld_table(np.array(masks))
    assert int(mt.sum()) == 616820
    assert int(mt.max(axis=1).sum()) == 184000


def test_binokel48_seeded_playouts_are_unchanged():
    st = chunk_state(3, 0)
    out = np.empty(4, np.int64)
    deal_random(st, new_deck(), out)
    hands = [Hand.from_mask(int(out[p])) for p in range(3)]
    rec = A.play_deal(hands, "S", soloist=0, seed=5)
    assert rec.points == (47, 149, 44) and rec.tricks_won == (4, 8, 3)
    rec = A.play_deal(hands, "H", policy="random", seed=5)
    assert rec.points == (76, 115, 49) and rec.tricks_won == (6, 6, 3)


def test_binokel48_analyze_figures_are_unchanged():
    an = A.analyze_hand(example("average")["hand"], seat="middlehand", samples=200, seed=1)
    rows = [(b["bid"], b["p_make"], b["e_score"]) for b in an.to_dict()["bids"][:4]]
    # e_score pinned at e14bcd6; P(make) as defined since f657a6b (surrender = not made:
    # 0.675, 0.55, 0.445, 0.37 under the old definition, same deals)
    assert rows == [(150, 0.64, 61.595), (160, 0.525, 15.97), (170, 0.415, -19.195),
                    (180, 0.345, -40.15)]


def test_binokel48_advice_figures_are_unchanged():
    adv = A.advise_bid(example("average")["hand"], seat="middlehand", auction="150",
                       samples=300, seed=2)
    assert adv.max_bid is None
    t = adv.table
    assert list(t.bid[:4]) == [160, 170, 180, 190]
    assert list(t.p_make[:4]) == pytest.approx([0.53, 0.45666666666666667, 0.38333333333333336,
                                                0.33666666666666667], abs=1e-12)
    assert list(t.ev_score[:4]) == pytest.approx([23.183333333333334, 1.6166666666666667,
                                                  -26.513333333333332, -37.89666666666667],
                                                 abs=1e-9)
    assert adv.pass_value.mean == pytest.approx(-112.98, abs=1e-9)


def test_binokel48_tournament_figures_are_unchanged():
    tr = A.run_tournament(groups=2, seed=3, samples=40)
    assert tr.deals == 78
    assert tr.diff == pytest.approx(7.6967446259613865, abs=1e-9)
    assert tr.stats[0].points_per_deal == pytest.approx(192.75426136363637, abs=1e-9)
    assert tr.stats[1].points_per_deal == pytest.approx(185.05751673767497, abs=1e-9)


def test_binokel48_batch_runs_are_unchanged(tmp_path):
    r = A.simulate(tmp_path / "m", A.RunSpec("melds", 5000, 11, 2500), jobs=1)
    assert (r.n_deals, int(r.table["count"].sum()), int(r.table["sq"].sum())) == (
        5000, 1666256000, 1095324)
    r = A.simulate(tmp_path / "d", A.RunSpec("deals", 600, 11, 300), jobs=1)
    assert (r.n_deals, int(r.table["count"].sum()), int(r.table["sq"].sum())) == (
        600, 630844, 199055106)
