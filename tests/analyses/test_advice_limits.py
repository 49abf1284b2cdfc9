"""The bid advisor (analyzer/analyses/advice.py) at the edges: end-of-game scores, monster
hands, tiny samples, absurd auctions and random input (R3, R4, R8, R9).

Each test here pins a defect of issue 9 that once crashed or misled the user."""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import BinokelError, DEFAULT_RULES, Hand
from analyzer.analyses.advice import MAX_SAMPLES, advise_bid
from analyzer.analyses.advice_grid import total_bound
from analyzer.analyses.advice_result import BidAdvice
from analyzer.examples import example
from cli.main import cli

WEAK = example("weak")["hand"]
STRONG = example("strong_spades")["hand"]
AVERAGE = example("average")["hand"]
# double family of spades + double binokel (Q♠ Q♠ J♦ J♦): totals far above 740
MONSTER = "AS AS 10S 10S KS KS QS QS JS JS JD JD 9S 9S AH"


@pytest.mark.parametrize("scores", [(1300, 1300, 1300), (1000, 1000, 1000), (1450, 1200, 1200)])
def test_end_of_game_scores_give_advice_not_indexerror_r9(scores):
    """Score-aware advice may recommend a bid where P(make) is already negligible (denying
    an opponent near 1500, R9); the table must still hold that row (was IndexError)."""
    adv = advise_bid(WEAK, scores=scores, samples=200, seed=0)
    assert adv.objective == "win"
    if adv.max_bid is not None:
        assert adv.max_bid in set(adv.table.bid)
        assert str(adv.max_bid) in adv.explanation
    json.dumps(adv.to_dict(), allow_nan=False)


def test_one_sample_with_scores_gives_advice_and_a_warning():
    adv = advise_bid(STRONG, samples=1, scores=(900, 1200, 400), seed=0)
    assert adv.max_bid is None or adv.max_bid in set(adv.table.bid)
    assert any("only 1 sampled deals" in n for n in adv.notes)
    assert "only 1 sampled deals" in adv.summary()


def test_cli_end_of_game_advice_is_clean_text_and_json():
    runner = CliRunner()
    for extra in ([], ["--json"]):
        r = runner.invoke(cli, ["advise", "--example", "weak", "--scores", "1300,1300,1300",
                                "-n", "100", *extra])
        assert r.exit_code == 0, r.output
        assert "Traceback" not in r.output
    json.loads(r.output)


def test_total_bound_covers_the_best_meld_plus_all_card_points_r5_r7():
    """250 card points (R7) + the best meld of hand + any Tapp (R5): the strong example
    (trump family ♠ 150 + binokel 40 + pairs/families) can never exceed it."""
    b = total_bound(Hand.parse(STRONG).counts_array(), DEFAULT_RULES)
    assert 250 + 320 <= b < 250 + 2000
    # double family of spades as trump (1500) + double binokel (300): at least 2050
    assert total_bound(Hand.parse(MONSTER).counts_array(), DEFAULT_RULES) >= 250 + 1800


def test_monster_hand_grid_runs_until_p_make_is_negligible():
    """R3/R8: the grid used to stop at 740 with P(make) still 100%. It now runs past every
    total the hand can reach; the recommendation is inside the table and the last row's
    P(make) is only what a Durch (R4, scored without the bid) can still make."""
    adv = advise_bid(MONSTER, samples=120, seed=1)
    assert adv.max_bid is not None and adv.max_bid > 740
    assert adv.max_bid in set(adv.table.bid)
    p = adv.table.p_make.to_numpy()
    assert p[-1] < p[0]
    assert "bid up to" in adv.explanation or "at least" in adv.explanation


def test_grid_of_an_ordinary_hand_keeps_its_sixty_bids():
    """The extension never shortens the grid (binokel-48's numbers stay as pinned)."""
    from analyzer.analyses.advice_grid import GRID_SIZE, bid_grid
    g = bid_grid(160, Hand.parse(WEAK).counts_array(), DEFAULT_RULES)
    assert len(g) == GRID_SIZE and g[0] == 160 and set(np.diff(g)) == {10}


def test_sentence_names_what_ev_is():
    adv = advise_bid(STRONG, samples=100, seed=0)
    assert "EV (own − opponents' mean)" in adv.explanation
    adv = advise_bid(STRONG, samples=100, seed=0, objective="own")
    assert "EV (own score)" in adv.explanation


def test_rearhand_without_auction_says_what_it_assumes_r3():
    adv = advise_bid(AVERAGE, "rearhand", samples=50, seed=0)
    assert any("assumed forehand opened 150" in n for n in adv.notes)
    with pytest.raises(BinokelError, match="rearhand calls once forehand or middlehand has passed"):
        advise_bid(AVERAGE, "rearhand", "150", samples=50)


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(scores=(1600, 0, 0)), "game is over (R9)"),
    (dict(scores=(0, 0, -10**7)), "not a game score"),
    (dict(seat=""), "seat is empty"),
    (dict(samples=MAX_SAMPLES + 1), "between 1 and"),
    (dict(samples=0), "between 1 and"),
    (dict(scores=("a", 1, 2)), "whole numbers"),
])
def test_out_of_range_inputs_are_one_line_errors(kwargs, fragment):
    with pytest.raises(BinokelError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        advise_bid(STRONG, **{"samples": 10, **kwargs})


def test_absurd_auction_is_refused_and_not_echoed_whole():
    """An auction up to 200,140 gave NaN intervals; a wrong-turn error echoed 129 KB."""
    calls = " ".join(str(b) for b in range(150, 200_150, 10))
    with pytest.raises(BinokelError) as exc:
        advise_bid(AVERAGE, "middlehand" if len(calls.split()) % 2 else "forehand", calls,
                   samples=10)
    assert len(str(exc.value)) < 300
    with pytest.raises(BinokelError) as exc:
        advise_bid(AVERAGE, "rearhand", calls, samples=10)
    assert len(str(exc.value)) < 400


@pytest.mark.parametrize("args, fragment", [
    (["--seat", ""], "--seat is empty"),
    (["--scores", "1600,0,0"], "game is over"),
])
def test_cli_empty_seat_and_finished_game_are_one_line(args, fragment):
    r = CliRunner().invoke(cli, ["advise", "--example", "average", "-n", "10", *args])
    assert r.exit_code == 2 and fragment in r.output and len(r.output.strip().splitlines()) == 1


def _auction(draw, n_calls):
    """A legal R3 auction prefix of up to ``n_calls`` calls (often one call too many)."""
    calls, standing, turn = [150], 150, 1
    alive = {0, 1}
    stage = 0
    for _ in range(n_calls):
        if draw(st.booleans()):
            calls.append("pass")
            alive.discard(turn)
            if stage == 0:
                stage, alive = 1, alive | {2}
                turn = 2
            else:
                break
        else:
            standing += 10
            calls.append(standing)
            turn = next(s for s in sorted(alive) if s != turn) if len(alive) > 1 else turn
    return " ".join(map(str, calls))


@st.composite
def advisor_inputs(draw):
    seat = draw(st.sampled_from(["forehand", "middlehand", "rearhand", 0, 1, 2, "", "left", 3]))
    if draw(st.booleans()):
        auction = _auction(draw, draw(st.integers(0, 6)))
    else:
        auction = draw(st.sampled_from(["", "150 170", "160", "150 160 pass pass pass", "x",
                                        "150 160 pass 170 pass"]))
    scores = draw(st.one_of(st.none(), st.lists(st.integers(-3000, 2000), min_size=0,
                                                max_size=4)))
    samples = draw(st.integers(-2, 40))
    objective = draw(st.sampled_from([None, "relative", "own", "win", "best"]))
    return dict(seat=seat, auction=auction, scores=scores, samples=samples,
                objective=objective, seed=draw(st.integers(0, 2**31)),
                inference=draw(st.booleans()))


@settings(max_examples=30)
@given(advisor_inputs())
def test_advise_bid_random_input_gives_a_result_or_binokel_error(kw):
    """Property: whatever the scores, auction, seat and sample count, advise_bid returns a
    BidAdvice whose recommendation is in its table, or raises BinokelError; nothing else."""
    try:
        adv = advise_bid(AVERAGE, **kw)
    except BinokelError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(adv, BidAdvice)
    assert adv.max_bid is None or adv.max_bid in set(adv.table.bid)
    assert adv.explanation and len(adv.table) >= 1
    json.dumps(adv.to_dict(), allow_nan=False)


def test_advice_says_which_exchange_its_numbers_were_made_with_r4():
    """The trump the soloist branch names (shares) and, per bid, how often it surrenders
    or plays Durch: a column of the table and a line of the summary."""
    adv = advise_bid(STRONG, samples=200, seed=0)
    shares = dict(adv.trumps)
    assert set(shares) == {"C", "S", "H", "D"} and abs(sum(shares.values()) - 1) < 1e-9
    assert adv.trumps[0][0] == "S" and shares["S"] > 0.8  # trump family in spades
    assert {"p_surrender", "p_durch"} <= set(adv.table.columns)
    text = adv.summary()
    assert "surr./Durch" in text and "trump ♠" in text
    assert adv.to_dict()["trumps"][0]["trump"] == "S"
