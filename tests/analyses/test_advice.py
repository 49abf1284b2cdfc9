"""The bid advisor (R3, R4, R8, R9): table shape and monotonicity, passing, inference,
score-awareness, reproducibility, honesty of inputs, and the ``binokel advise`` command."""
from __future__ import annotations

import inspect
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer import BinokelError
from analyzer.analyses.advice import advise_bid
from analyzer.analyses.advice_samples import advise_samples
from analyzer.analyses.objectives import win_probability
from analyzer.examples import example
from cli.main import cli

STRONG = example("strong_spades")["hand"]
AVERAGE = example("average")["hand"]
WEAK = example("weak")["hand"]


@pytest.fixture(scope="module")
def avg_rh():
    return advise_bid(AVERAGE, "rearhand", "150 160 170 180 190 200 pass", samples=400, seed=3)


def test_p_make_never_rises_with_the_bid(avg_rh):
    """R8: made at B+10 implies made at B on the same deal, so P(make) is non-increasing
    (also with inference weights, which are the same for every bid)."""
    for adv in (avg_rh, advise_bid(STRONG, "forehand", samples=300, seed=1)):
        p = adv.table.p_make.to_numpy()
        assert len(p) >= 3
        assert np.all(np.diff(p) <= 1e-12)
        assert np.all(adv.table.p_make_lo <= adv.table.p_make + 1e-12)
        assert np.all(adv.table.p_make_hi >= adv.table.p_make - 1e-12)


def test_table_starts_at_the_next_legal_bid_r3(avg_rh):
    """R3: after '... 200 pass' rearhand's first possible call is 210."""
    assert avg_rh.next_bid == 210 and int(avg_rh.table.bid.iloc[0]) == 210
    assert list(np.diff(avg_rh.table.bid)) == [10] * (len(avg_rh.table) - 1)


def test_recommendation_is_where_soloist_ev_stops_beating_pass(avg_rh):
    """'Bid to B' means E[objective | soloist at B] >= E[objective | pass] up to B."""
    for adv in (avg_rh, advise_bid(STRONG, "middlehand", "150", samples=300, seed=2)):
        rows = adv.table
        if adv.max_bid is None:
            assert rows.minus_pass.iloc[0] < 0
        else:
            upto = rows[rows.bid <= adv.max_bid]
            assert (upto.minus_pass >= 0).all()
            nxt = rows[rows.bid == adv.max_bid + 10]
            assert nxt.empty or nxt.minus_pass.iloc[0] < 0


def test_strong_hand_bids_high_weak_forehand_stops_at_150():
    """A trump family + binokel hand bids far beyond 300; a hopeless forehand is told to
    stop at the forced 150 (R3) with the cost of surrendering (R4)."""
    strong = advise_bid(STRONG, "forehand", samples=300, seed=1)
    assert strong.max_bid is not None and strong.max_bid >= 350
    weak = advise_bid(WEAK, "forehand", samples=300, seed=1)
    assert weak.forced_open and weak.max_bid is None
    assert "150" in weak.explanation and "surrender" in weak.explanation
    assert weak.surrender["bid"] == 150 and 0.0 <= weak.surrender["p_chosen"] <= 1.0


def test_inference_weights_samples_by_opponents_calls(avg_rh):
    """Inference: a middlehand that bid to 200 must hold a strong hand, so samples are
    reweighted (effective size below n) and passing to that opponent is worth less."""
    plain = advise_bid(AVERAGE, "rearhand", "150 160 170 180 190 200 pass", samples=400, seed=3,
                       inference=False)
    assert plain.ess == 400 and avg_rh.ess < 400
    assert avg_rh.pass_value.mean < plain.pass_value.mean


def test_same_seed_same_numbers_any_jobs():
    a = advise_bid(AVERAGE, "middlehand", "150", samples=600, seed=9, n_jobs=1)
    b = advise_bid(AVERAGE, "middlehand", "150", samples=600, seed=9, n_jobs=2)
    assert a.table.equals(b.table) and a.max_bid == b.max_bid


def test_r3_illegal_or_finished_auction_and_wrong_turn_rejected():
    """R3: the auction is validated; it must be the advised seat's turn."""
    with pytest.raises(BinokelError, match=r"R3"):
        advise_bid(AVERAGE, "middlehand", "150 170", samples=10)
    with pytest.raises(BinokelError, match=r"rearhand's call, not middlehand's.*R3"):
        advise_bid(AVERAGE, "middlehand", "150 160 pass", samples=10)
    with pytest.raises(BinokelError, match=r"auction is over.*R3"):
        advise_bid(AVERAGE, "rearhand", "150 pass pass", samples=10)
    with pytest.raises(BinokelError, match="15 cards"):
        advise_bid("AS 10S", "forehand", samples=10)
    with pytest.raises(BinokelError, match="scores"):
        advise_bid(AVERAGE, "forehand", scores=(1, 2), samples=10)


def test_r9_win_probability_terminal_cases():
    """R9: a finished game is worth 1 to its winner, 0 to the others."""
    totals = np.array([[1500, 1600, 0], [1400, 1550, 1520], [1400, 1550, 1550], [100, 0, 0]],
                      dtype=float)
    sol = np.array([0, 0, 0, 1])
    w0 = win_probability(totals, sol, 0, 1500)
    w1 = win_probability(totals, sol, 1, 1500)
    assert w0[0] == 1.0 and w1[0] == 0.0           # soloist reached: soloist wins
    assert w1[1] == 1.0 and w0[1] == 0.0           # both opponents: the higher one
    assert 0.0 < w1[2] < 1.0                       # tie of opponents: play on (race estimate)
    assert w0[3] > 1 / 3                           # the leader of an open game is favoured
    total = sum(win_probability(totals[3:], sol[3:], p, 1500)[0] for p in range(3))
    assert abs(total - 1.0) < 1e-12


def test_scores_near_game_end_change_the_advice():
    """R9: with forehand at 1450 about to win as a defender, middlehand's passing is
    nearly hopeless, so the score-aware advice bids far higher than the deal-score one."""
    rel = advise_bid(AVERAGE, "middlehand", "150", samples=400, seed=4)
    aware = advise_bid(AVERAGE, "middlehand", "150", scores=(1450, 1300, 1000), samples=400, seed=4)
    assert aware.objective == "win" and rel.objective == "relative"
    assert aware.pass_value.mean < 0.1
    assert (aware.max_bid or 0) > (rel.max_bid or 0)


def test_advisor_kernel_sees_no_hidden_cards():
    """Honesty by construction: the sampling kernel gets the advised hand, the unseen deck
    and the public auction only; no argument can carry another player's cards."""
    params = list(inspect.signature(advise_samples.py_func).parameters)
    assert params[:3] == ["hand_counts", "seat", "deck"]
    assert not any("opp" in p and "estimate" not in p for p in params)
    sig = inspect.signature(advise_bid).parameters
    # progress receives chunk counts only (the web page's progress bar); play names the
    # card-play mode (a string), not cards
    assert set(sig) == {"hand", "seat", "auction", "scores", "objective", "samples", "seed",
                        "n_jobs", "inference", "rules", "progress", "lookahead", "opponents",
                        "play"}


def test_cli_advise_example_and_json():
    runner = CliRunner()
    r = runner.invoke(cli, ["advise", "--example", "weak", "-n", "200"])
    assert r.exit_code == 0, r.output
    assert "forced 150" in r.output and "P(make)" in r.output
    r = runner.invoke(cli, ["advise", AVERAGE, "--seat", "rearhand", "--auction", "150 160 pass",
                            "--scores", "900,1200,400", "-n", "200", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["objective"] == "win" and d["auction"] == [150, 160, "pass"]
    assert d["table"][0]["bid"] == 170 and "p_make_lo" in d["table"][0]


@pytest.mark.parametrize("args, fragment", [
    (["advise", AVERAGE, "--auction", "150 170"], "R3"),
    (["advise", AVERAGE, "--seat", "dealer"], "seat"),
    (["advise", AVERAGE, "--scores", "1,2"], "three game scores"),
    (["advise", "AS AS AS"], "error"),
    (["advise"], "HAND"),
    (["advise", AVERAGE, "-n", "0"], "samples"),
])
def test_cli_advise_bad_input_one_line_exit_2(args, fragment):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2
    assert fragment in r.output and r.output.count("\n") <= 1 and "Traceback" not in r.output


def test_cli_advise_help_has_example():
    r = CliRunner().invoke(cli, ["advise", "--help"])
    assert r.exit_code == 0 and "Example:" in r.output and "binokel advise" in r.output


def test_progress_callback_counts_chunks_and_changes_no_number():
    seen = []
    with_cb = advise_bid(AVERAGE, seat="middlehand", auction="150", samples=1200, seed=3,
                         progress=lambda done, total: seen.append((done, total)))
    plain = advise_bid(AVERAGE, seat="middlehand", auction="150", samples=1200, seed=3)
    assert with_cb.to_dict() == plain.to_dict()
    assert seen[:3] == [(1, 3), (2, 3), (3, 3)]     # chunks of 500, 500, 200


def test_advice_rows_are_what_the_dataframe_gave():
    """The advice prints and serialises its ``rows`` (no pandas on the advise path); the
    DataFrame ``table`` holds the same figures, and ``to_dict`` gives the records pandas
    gave before (``bid`` an int, every other column a float, same order)."""
    import pandas as pd

    for adv in (advise_bid(STRONG, "forehand", samples=300, seed=1),
                advise_bid(STRONG, "forehand", samples=300, seed=1, lookahead=True)):
        frame = pd.DataFrame(list(adv.rows))
        assert len(adv.table) == len(adv.rows) >= 3
        assert str(adv.table["bid"].dtype) == "int64"
        assert all(str(t) == "float64" for t in adv.table.dtypes.iloc[1:])
        records = adv.to_dict()["table"]
        assert records == frame.to_dict(orient="records")
        for rec, ref in zip(records, frame.to_dict(orient="records")):
            assert [type(v) for v in rec.values()] == [type(v) for v in ref.values()]
            assert list(rec) == list(ref)
