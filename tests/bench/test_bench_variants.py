"""``binokel bench --rules``: W1/W2/W2H per variant (issue 10)."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.bench.registry import run_workload, w1_kernel, w1_kernel_rules
from analyzer.errors import BinokelError
from analyzer.mechanics.melds import meld_tables
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import DEFAULT_RULES, get_rules


def test_w1_for_any_deck_is_w1_for_the_48_card_deck():
    a = np.zeros((3, 4), np.int64)
    b = np.zeros((3, 4), np.int64)
    w1_kernel(chunk_state(2, 0), 3000, meld_tables(DEFAULT_RULES), a)
    w1_kernel_rules(chunk_state(2, 0), 3000, meld_tables(DEFAULT_RULES), DEFAULT_RULES.kernel, b)
    assert (a == b).all()


@pytest.mark.parametrize("name", ["grupp-3", "binokel-40"])
def test_variant_workloads_report_cards_per_second(name):
    r = get_rules(name)
    res = run_workload("W2", deals=500, repeats=1, baseline=False, rules=r)
    assert res["rules"] == name and res["cards_per_deal"] == r.n_cards
    assert res["extra"]["points_conserved"]
    res = run_workload("W1", deals=500, repeats=1, baseline=False, rules=r)
    assert res["cards_per_s"] == pytest.approx(res["deals_per_s"] * r.n_cards)


def test_workloads_without_variants_refuse_other_rules():
    with pytest.raises(BinokelError, match="binokel-48 only"):
        run_workload("S1", deals=10, repeats=1, rules=get_rules("grupp-3"))
