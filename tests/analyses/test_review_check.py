"""``analyzer.analyses.review_check`` (issue 27): the review of the heuristic defenders'
decisions beside the gain ``binokel duplicate --config defenders`` measures, on the same
deals.  Checks the fields and that both halves are what they say (not the agreement)."""
from __future__ import annotations

import pytest

from analyzer.analyses.review_check import main, review_check
from analyzer.analyses.strength import duplicate_match
from analyzer.mechanics.rules import get_rules


@pytest.fixture(scope="module")
def out():
    return review_check(2, seed=1, samples=2, horizon=2, dd_max_tricks=4)


def test_the_gain_is_binokel_duplicates_defenders_figure(out):
    # the same deals, auction, exchange and RNG streams as duplicate_match (R3, R4):
    # the soloist's points with the heuristic defence minus with PIMC's (R7)
    dup = duplicate_match(2, 1, ("defenders",), 2, 2, rules=get_rules("binokel-48"))
    assert out["n"] == 2 and out["duplicate_gain"]["n"] == 2
    assert out["duplicate_gain"]["mean"] == pytest.approx(
        -dup["configs"]["defenders"]["card_points"]["mean"])
    assert dup["base_card_points"] == pytest.approx(
        sum(r["base"] for r in out["per_deal"]) / 2)


def test_the_review_sums_the_defenders_decisions_per_deal(out):
    rows = out["per_deal"]
    assert out["decisions"] == sum(r["decisions"] for r in rows) > 0
    assert 0 < out["dd_decisions"] <= out["decisions"]
    assert out["review_loss_pimc"]["mean"] == pytest.approx(
        sum(r["loss_pimc"] for r in rows) / 2)
    assert out["review_loss_same_world"]["mean"] == pytest.approx(
        sum(r["loss_same_world"] for r in rows) / 2)
    # hindsight losses are exact and never negative (the best card's value, R6); so is
    # the old same-world PIMC loss (PIMC's best is the best mean on those worlds)
    assert all(r["loss_dd"] >= 0 and r["loss_same_world"] >= 0 for r in rows)
    for k in ("diff_pimc", "diff_same_world", "diff_held_out", "diff_dd"):
        assert out[k]["n"] == 2
    assert out["diff_pimc"]["mean"] == pytest.approx(
        out["duplicate_gain"]["mean"] - out["review_loss_pimc"]["mean"])


def test_a_partners_table_is_refused_in_one_line(capsys):
    assert main(["--deals", "1", "--rules", "kreuz-48"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "V1" in err[0]
