"""The look-ahead advisor (R3, R4, R8): its auctions against a plain-Python R3 reference,
the plan's consistency on every sampled deal, the decision rule, reproducibility, honesty
of inputs, and ``binokel advise --lookahead``."""
from __future__ import annotations

import inspect
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer import BinokelError
from analyzer.analyses.advice import advise_bid
from analyzer.analyses.lookahead import (LookaheadAdvice, lookahead_max_bid, lookahead_samples,
                                         plan_auctions, simulate_lookahead)
from analyzer.analyses.opponents import get_opponent_model
from analyzer.examples import example
from analyzer.mechanics.bidding import PASS, threshold_auction, validate_auction
from analyzer.mechanics.cards import Hand
from analyzer.mechanics.rules import DEFAULT_RULES
from cli.main import cli

STRONG = example("strong_spades")["hand"]
AVERAGE = example("average")["hand"]
WEAK = example("weak")["hand"]
KR = DEFAULT_RULES.kernel


def _reference_plan(calls, seat, my_max, opp_max):
    """R3 from the calls on, in plain Python: replay the calls made, then every seat
    raises while the next bid is at most its maximum (this seat's = my_max, 0 = pass)."""
    made = list(calls)

    def max_of(p, so_far):
        return my_max if p == seat else opp_max[p]

    # threshold_auction asks each seat once; replay the given calls by forcing them
    sol, bid, full = threshold_auction(
        lambda p, so_far: (max(max_of(p, so_far), max((c for i, c in enumerate(made) if c != PASS and
                                                       _seat_of(made, i) == p), default=0))
                           if len(so_far) >= len(made) or _seat_of(so_far + [0], len(so_far)) != p
                           else max_of(p, so_far)),
        DEFAULT_RULES)
    return sol, bid, full


def _seat_of(calls, i):
    return validate_auction(calls[:i]).to_move if i else 0


@pytest.mark.parametrize("calls, seat", [("", 0), ("150", 1), ("150 pass", 2), ("150 160", 0),
                                         ("150 160 170 pass", 2), ("150 160 pass", 2)])
def test_plan_auctions_agree_with_r3_reference(calls, seat):
    """Every plan's auction (pass now, or bid up to M) ends as R3 says: checked against
    validate_auction replaying the calls one by one with threshold bidders."""
    st = validate_auction(calls)
    assert st.to_move == seat or not st.calls
    rng = np.random.default_rng(len(calls) + seat)
    nxt = (st.standing + 10) if st.calls else 150
    bids = nxt + 10 * np.arange(12, dtype=np.int64)
    kstate = np.array(st.kernel_state() if st.calls else (0, 0, 1, 150), dtype=np.int64)
    for _ in range(40):
        opp_max = {p: int(rng.choice([0, 150, 160, 170, 180, 200, 230, 300])) for p in range(3)}
        for p in range(3):   # a seat's maximum is never below what it already said
            opp_max[p] = max(opp_max[p], st.lo[p])
        maxb = np.array([opp_max[p] for p in range(3)], dtype=np.int64)
        sol = np.empty(13, dtype=np.int64)
        bid = np.empty(13, dtype=np.int64)
        plan_auctions(maxb, seat, bids, kstate, KR, sol, bid)
        for j in range(13):
            my = 0 if j == 0 else int(bids[j - 1])
            seq = [c for _, c in st.calls] if st.calls else [150]
            # plain R3: keep calling until validate_auction says finished
            while True:
                s = validate_auction(seq)
                if s.finished:
                    break
                p = s.to_move
                m = my if p == seat else opp_max[p]
                seq.append(s.standing + 10 if s.standing + 10 <= m else PASS)
            assert (sol[j], bid[j]) == (s.soloist, s.standing), (calls, opp_max, my, seq)


@pytest.fixture(scope="module")
def mh_res():
    h = Hand.parse(AVERAGE).counts_array().astype(np.uint8)
    return simulate_lookahead(h, 1, validate_auction("150"), 400, 5, 1, True, DEFAULT_RULES,
                              get_opponent_model("advisor"))


def test_each_plan_scores_the_deal_at_the_price_it_is_bought(mh_res):
    """On every deal: bidding up to M, you are soloist at most at M, and then your scores are
    the static table's at that price (R8); a plan that wins at b wins at b with any higher
    maximum too (a threshold bidder that won never needed to go further)."""
    r = mh_res
    bids = r["bids"]
    n, J = r["la_sol"].shape
    for i in range(n):
        won_at = None
        for j in range(1, J):
            if r["la_sol"][i, j] == 1:
                b = r["la_bid"][i, j]
                assert b <= bids[j - 1]
                k = (b - bids[0]) // 10
                assert (r["la_scores"][i, j] == r["sol_scores"][i, k]).all()
                if won_at is None:
                    won_at = b
                assert b == won_at
            else:
                assert won_at is None and r["la_bid"][i, j] > bids[j - 1] - 10 * (j > 0)
        # passing now: middlehand is never soloist (R3)
        assert r["la_sol"][i, 0] != 1


def test_decision_picks_the_best_plan_and_breaks_silent_ties_by_the_static_rule():
    """Synthetic plans: the highest mean wins; a run of exactly equal plans extends only as
    far as the static break-even bid."""
    n = 4
    bids = np.array([160, 170, 180, 190], dtype=np.int64)
    res = dict(weight=np.ones(n), bids=bids, next_bid=160,
               la_sol=np.full((n, 5), 1), la_bid=np.full((n, 5), 160),
               la_scores=np.zeros((n, 5, 3), dtype=np.int64),
               sol_scores=np.zeros((n, 4, 3), dtype=np.int64),
               sol_made=np.ones((n, 4), dtype=np.uint8), pass_scores=np.zeros((n, 3)),
               pass_soloist=np.full(n, 0))
    res["la_sol"][:, 0] = 0
    res["la_scores"][:, :, 1] = [0, 10, 30, 30, 30]       # plans: pass, 160, 170, 180, 190
    res["sol_scores"][:, :, 1] = [20, 10, 5, -5]          # static: break-even at 180
    res["pass_scores"] = res["la_scores"][:, 0, :]
    mb, j, V = lookahead_max_bid(res, 1, "own", None, DEFAULT_RULES)
    assert (mb, j) == (180, 3) and V[3] == 30
    res["la_scores"][:, :, 1] = [50, 10, 30, 30, 30]      # passing is best
    assert lookahead_max_bid(res, 1, "own", None, DEFAULT_RULES)[0] is None


def test_strong_hand_buys_high_weak_forehand_stops_at_150():
    strong = advise_bid(STRONG, "forehand", samples=300, seed=1, lookahead=True)
    assert isinstance(strong, LookaheadAdvice) and strong.max_bid >= 300
    assert strong.p_soloist.mean > 0.9 and "you become soloist" in strong.explanation
    t = strong.table
    plan = t[t.bid == strong.max_bid].iloc[0]
    assert plan.p_buy_by == pytest.approx(strong.p_soloist.mean)
    assert t.p_buy_at.sum() == pytest.approx(strong.p_soloist.mean)
    assert np.all(np.diff(t.p_soloist) >= -1e-12)          # a higher maximum never buys less
    weak = advise_bid(WEAK, "forehand", samples=300, seed=1, lookahead=True, opponents="rule")
    assert weak.max_bid is None and "forced 150" in weak.explanation
    # against advisor-like opponents (who nearly always raise) a weak forehand may bid on
    # only to raise the price the buyer must make: then the advice says so
    push = advise_bid(WEAK, "forehand", samples=300, seed=1, lookahead=True)
    if push.max_bid is not None and push.p_soloist.mean < 0.05:
        assert "price" in push.explanation


def test_lookahead_same_seed_same_numbers_any_jobs():
    a = advise_bid(AVERAGE, "middlehand", "150", samples=1000, seed=7, lookahead=True)
    b = advise_bid(AVERAGE, "middlehand", "150", samples=1000, seed=7, lookahead=True, n_jobs=2)
    assert a.to_dict() == b.to_dict()


def test_static_advice_with_the_advisor_opponent_model():
    adv = advise_bid(AVERAGE, "rearhand", "150 160 pass", samples=300, seed=2, opponents="advisor")
    assert not isinstance(adv, LookaheadAdvice) and adv.table.bid.iloc[0] == 170
    with pytest.raises(BinokelError, match="unknown opponent model"):
        advise_bid(AVERAGE, "middlehand", "150", samples=50, lookahead=True, opponents="oracle")


def test_lookahead_kernel_sees_no_hidden_cards():
    """Honesty by construction: the kernel gets the advised hand, the unseen deck and the
    public auction; the opponents exist only as samples drawn inside it."""
    params = list(inspect.signature(lookahead_samples.py_func).parameters)
    assert params[:3] == ["hand_counts", "seat", "deck"]
    assert not any(p.startswith("opp_hand") or p == "hands" for p in params)


def test_cli_advise_lookahead_text_json_and_errors():
    runner = CliRunner()
    r = runner.invoke(cli, ["advise", "--example", "strong_spades", "--lookahead", "-n", "300"])
    assert r.exit_code == 0, r.output
    assert "look-ahead" in r.output and "P(soloist)" in r.output and "you become soloist" in r.output
    r = runner.invoke(cli, ["advise", AVERAGE, "--seat", "middlehand", "--auction", "150",
                            "--lookahead", "--opponents", "rule", "-n", "200", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["lookahead"] is True and d["opponents"] == "rule" and "p_buy_by" in d["table"][0]
    r = runner.invoke(cli, ["advise", AVERAGE, "--lookahead", "--opponents", "oracle"])
    assert r.exit_code == 2 and r.output.count("\n") <= 1 and "Traceback" not in r.output


def test_lookahead_follows_the_variant_auction_and_deal_sizes():
    """V2.2: in grupp-3 forehand may pass at once ("weg"), and when all three pass the deal
    is thrown in and scores 0 for everybody; V5.1: binokel-40 deals 12 + 4."""
    from analyzer.mechanics.rules import get_rules

    g3 = get_rules("grupp-3")
    weak = "10C JC JC 7C 7C JS 7S 7S KH JH 7H 7H QD 7D 7D"
    h = Hand.parse(weak, rules=g3).counts_array().astype(np.uint8)
    res = simulate_lookahead(h, 0, validate_auction("", g3), 300, 3, 1, True, g3,
                             get_opponent_model("rule"))
    thrown = res["la_sol"][:, 0] == -1
    assert thrown.any() and (res["la_scores"][thrown, 0] == 0).all()
    assert (res["la_sol"][:, 1:] != -1).all()       # once forehand opens, someone plays
    adv = advise_bid(weak, "forehand", samples=300, seed=3, lookahead=True, rules=g3)
    assert not adv.forced_open and adv.next_bid == 150
    b40 = get_rules("binokel-40")
    adv = advise_bid("AS 10S KS QS JS AH QH JH KC QC 10C JD", "middlehand", "150", samples=200,
                     seed=1, lookahead=True, rules=b40, opponents="rule")
    assert adv.max_bid is not None and adv.rules == "binokel-40"


def test_partners_games_answer_lookahead_with_the_one_result_type():
    """Partners' games (V1, V4-V6) look ahead with their partner in the plan
    (tests/analyses/test_lookahead_partners.py) and answer the same LookaheadAdvice;
    --opponents without it is refused, not ignored."""
    from analyzer.mechanics.rules import get_rules

    adv = advise_bid("AS AS 10S KS QS JS AC AH AD 10C KH", 2, "150 160 pass",
                     rules=get_rules("kreuz-48"), lookahead=True, samples=50)
    assert isinstance(adv, LookaheadAdvice) and adv.partners and adv.to_dict()["lookahead"]
    with pytest.raises(BinokelError, match="needs --lookahead"):
        advise_bid("AS AS 10S KS QS JS AC AH AD 10C KH", 2, "150 160 pass",
                   rules=get_rules("kreuz-48"), opponents="advisor")
