"""The meld census of a table with partners (analyzer.batch.table_census; issue 24):
each game's own hand size and meld table (V4.1 + V4.4, V5.1 + V5.5, V6.1 + V6.3),
checked against the plain-Python melds of tests/oracle on random deals, and the same
numbers for any number of workers."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from analyzer.batch.runs import RunSpec, run_chunk, simulate
from analyzer.batch.table_census import census_shape, deal_table
from analyzer.mechanics.rng import chunk_state
from analyzer.mechanics.rules import get_rules
from tests.oracle import pinochle as pin_oracle
from tests.oracle import variants as var_oracle


def _oracle_totals(name: str, counts) -> list[int]:
    """The four meld totals of a hand by the rule text (tests/oracle)."""
    if name == "pinochle-80":
        return [pin_oracle.melds(list(counts), t) for t in range(4)]
    return [var_oracle.melds_total(name, list(counts), t) for t in range(4)]


def _plain_census(name: str, seed: int, chunk: int, n: int) -> dict:
    """The census rows counted in plain Python from the same deals (one deal at a time)."""
    rules = get_rules(name)
    sh = census_shape(rules)
    state, deck = chunk_state(seed, chunk), sh["deck"].copy()
    counts = np.zeros((sh["n_play"] + 1, 24), dtype=np.int64)
    rows: Counter = Counter()
    points = [int(p) for p in sh["kernel"].card_points]

    def add(metric, values):                       # one deal's values of one metric
        for v, m in Counter(values).items():
            rows[(metric, v, "count")] += m
            rows[(metric, v, "sq")] += m * m
        rows[(metric + ":dealsq", 0, "count")] += sum(values) ** 2

    for _ in range(n):
        deal_table(state, deck, sh["n_play"], sh["hand_size"], counts)
        assert [int(c.sum()) for c in counts[:-1]] == [rules.hand_size] * 4      # V4.1, V5.1, V6.1
        assert int(counts[-1].sum()) == rules.tapp_size
        assert (counts.sum(axis=0) == sh["kernel"].copies).all()                # the whole deck
        tots = [_oracle_totals(name, counts[s]) for s in range(4)]
        for t, suit in enumerate("CSHD"):
            add(f"hand.meld.{suit}", [x[t] for x in tots])
        add("hand.meld.best", [max(x) for x in tots])
        add("hand.best_trump", [x.index(max(x)) for x in tots])
        # partners 0 + 2 and 1 + 3 meld with the one trump named (V1, V4.4, V6.3)
        add("side.meld.best", [max(tots[s][t] + tots[s + 2][t] for t in range(4)) for s in (0, 1)])
        pts = sum(int(counts[-1][t]) * points[t] for t in range(24))
        rows[("dabb.points", pts, "count")] += 1
        rows[("dabb.points", pts, "sq")] += 1
    return rows


def _kernel_census(name: str, seed: int, chunk: int, n: int) -> dict:
    rows: Counter = Counter()
    for metric, b, count, sq in run_chunk("melds", seed, chunk, n, get_rules(name))["rows"]:
        rows[(metric, b, "count")] += count
        if not metric.endswith(":dealsq"):
            rows[(metric, b, "sq")] += sq
    return rows


@pytest.mark.parametrize("name", ["kreuz-48", "kreuz-40", "pinochle-80"])
def test_census_of_a_partners_game_counts_its_own_hands_and_melds_as_the_rule_text(name):
    """Every row of a chunk equals the plain-Python count of the same deals (R5 with
    V2.3/V2.5 in kreuz-48, V5.5 in kreuz-40, V6.3 in pinochle-80)."""
    want = _plain_census(name, 7, 2, 120)
    got = _kernel_census(name, 7, 2, 120)
    want.pop(("hand.best_trump:dealsq", 0, "count"))      # the kernel keeps no :dealsq of a suit index
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}


def test_team_meld_census_has_the_same_numbers_for_any_number_of_workers(tmp_path):
    """Chunks are pure functions of (seed, chunk): 1 and 2 workers give the same table;
    the means are per hand (four a deal) and per side (two a deal)."""
    spec = RunSpec("melds", 600, 5, 200, get_rules("pinochle-80"))
    a = simulate(tmp_path / "a", spec, jobs=1)
    b = simulate(tmp_path / "b", spec, jobs=2)
    assert a.table.equals(b.table) and a.teams
    assert int(a.hist("hand.meld.best").sum()) == 4 * 600
    assert int(a.hist("side.meld.best").sum()) == 2 * 600
    hand, side = a.mean("hand.meld.best"), a.mean("side.meld.best")
    assert hand.n == 2400 and side.n == 1200 and 0 < hand.se < hand.value < side.value
