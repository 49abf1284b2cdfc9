"""Run folders of the two-hand game (``simulate --rules binokel-2``, V7): the same numbers
for any --jobs, resume, damaged parts detected, the metrics add up (V7.4)."""
from __future__ import annotations

import pytest

from analyzer.batch.runs import RunSpec, load_run, part_path, simulate
from analyzer.batch.stock_runs import stock_deal_table
from analyzer.errors import BinokelError
from analyzer.mechanics.ruleset import get_game

GAME = get_game("binokel-2")
SPEC = RunSpec(what="deals", n=4, seed=3, chunk_size=2, rules=GAME)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("stock")
    one = simulate(base / "one", SPEC, jobs=1)
    two = simulate(base / "two", SPEC, jobs=2)
    return base, one, two


def test_same_numbers_for_any_jobs(runs):
    _, one, two = runs
    assert one.n_deals == two.n_deals == 4
    assert one.table.equals(two.table)


def test_the_metrics_add_up_per_deal_v7_4(runs):
    """Card points and the last trick make 250 a deal; points = melds + card points."""
    _, run, _ = runs
    n = run.n_deals
    tot = {m: sum(b * c for b, c in zip(*run.counts(m))) for m in run.table.index.levels[0]}
    assert tot["stock.cards.seat.0"] + tot["stock.cards.seat.1"] == 250 * n
    for s in (0, 1):
        assert tot[f"stock.points.seat.{s}"] == tot[f"stock.melds.seat.{s}"] + tot[f"stock.cards.seat.{s}"]
        assert run.counts(f"stock.points.seat.{s}")[1].sum() == n
    assert tot["stock.diff"] == tot["stock.points.seat.0"] - tot["stock.points.seat.1"]
    assert run.rules is GAME and run.stock and "policy" in run.manifest


def test_a_chunk_is_the_same_deals_every_time():
    a = stock_deal_table(3, 1, 2, GAME)
    assert (a == stock_deal_table(3, 1, 2, GAME)).all()
    assert not (a == stock_deal_table(3, 0, 2, GAME)).all()


def test_resume_redoes_only_a_missing_or_damaged_part(runs):
    base, one, _ = runs
    folder = base / "one"
    part_path(folder, 1).unlink()
    assert load_run(folder).chunks_done == 1
    again = simulate(folder, SPEC, jobs=1)
    assert again.table.equals(one.table)
    p = part_path(folder, 0)
    p.write_bytes(p.read_bytes()[:-40] + b"\0" * 40)
    with pytest.raises(BinokelError, match="damaged or foreign part"):
        load_run(folder)
    fixed = simulate(folder, SPEC, jobs=1)
    assert any("set aside" in n for n in fixed.notes) and fixed.table.equals(one.table)


def test_a_run_with_other_parameters_is_refused(runs):
    base, _, _ = runs
    with pytest.raises(BinokelError, match="never mixed"):
        simulate(base / "one", RunSpec(what="deals", n=4, seed=4, chunk_size=2, rules=GAME))


def test_no_meld_census_of_a_stock_game():
    with pytest.raises(BinokelError, match="V7"):
        RunSpec(what="melds", n=4, seed=1, chunk_size=2, rules=GAME)
