"""Team bid advice, hand analysis and the duplicate team tournament for pinochle-80
(V6.2, V6.6)."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.analyses.analysis import analyze_pinochle_hand
from analyzer.analyses.advice import advise_bid
from analyzer.analyses.advice_samples import bid_values, unseen_deck
from analyzer.analyses.tournament import deal_hands, play_deal_pair, run_tournament
from analyzer.errors import BinokelError
from analyzer.mechanics.cards import Hand80
from analyzer.mechanics.rules import PINOCHLE_80, get_rules, team_spec
from analyzer.mechanics.melds import class_meld_total

def advise_team(hand, seat, auction, rules, samples=400, seed=0, **kw):
    """The one advice entry (analyzer.analyses.advice.advise_bid) at a partners' table."""
    return advise_bid(hand, seat, auction, rules=rules, samples=samples, seed=seed, **kw)


def advise_pinochle(hand, seat, auction, samples=400, seed=0, **kw):
    return advise_team(hand, seat, auction, PINOCHLE_80, samples, seed, **kw)


STRONG = "AH 10H KH QH JH AH 10H KH QS JD AC AS 10C 10S 10D QC JC JS QD JH"
WEAK = "10C 10C 10C 10C JC JC 10S 10S 10S 10S QS 10H 10H 10H JH JH 10D 10D 10D 10D"  # no meld


def test_v6_2_bid_table_starts_at_500_in_steps_of_10():
    a = advise_pinochle(STRONG, 0, "", samples=60)
    assert [r["bid"] for r in a.rows][:5] == [500, 510, 520, 530, 540]
    assert a.next_bid == 500
    for r in a.rows:
        assert -1e-9 <= r["p_make_lo"] <= r["p_make"] + 1e-9
        assert r["p_make"] <= r["p_make_hi"] + 1e-9 <= 1 + 2e-9
        assert r["ev_lo"] <= r["ev"] <= r["ev_hi"]


def test_v6_6_p_make_falls_with_the_bid():
    a = advise_pinochle(STRONG, 0, "", samples=80)
    pm = [r["p_make"] for r in a.rows]
    assert all(x >= y - 1e-12 for x, y in zip(pm, pm[1:]))


def test_strong_hand_bids_weak_hand_passes():
    assert sum(class_meld_total(WEAK, t) for t in range(4)) == 0
    assert advise_pinochle(STRONG, 0, "", samples=80).max_bid is not None
    assert advise_pinochle(WEAK, 0, "", samples=80).max_bid is None


def test_v6_6_score_at_a_bid_is_total_or_minus_bid():
    raw = {"team_total": np.array([[600.0] * 4, [400.0] * 4]), "other": np.zeros((2, 4)),
           "weight": np.ones(2)}
    ev, best_t, per = bid_values(raw, np.array([500, 600, 610]))
    assert list(per[0]) == [600, -500] and list(per[1]) == [600, -600]
    assert list(per[2]) == [-610, -610]


def test_partners_calls_are_evidence():
    # after partner (seat 0) bid 500 and seat 1 passed, samples are reweighted
    a = advise_pinochle(STRONG, 2, "500 pass", samples=100)
    assert a.ess < 100


def test_bad_advice_input_is_one_line_errors():
    with pytest.raises(BinokelError, match="outside 0-3"):
        advise_pinochle(STRONG, 4, "")
    with pytest.raises(BinokelError, match="out of turn"):
        advise_pinochle(STRONG, 2, "500")
    with pytest.raises(BinokelError, match="below the minimum"):
        advise_pinochle(STRONG, 1, "450")
    with pytest.raises(BinokelError, match="multiple of 10"):
        advise_pinochle(STRONG, 1, "505")
    with pytest.raises(BinokelError, match="must have 20 cards"):
        advise_pinochle("AH KH", 0, "")
    with pytest.raises(BinokelError, match="only four"):
        advise_pinochle("AH AH AH AH AH " + " ".join(["KC"] * 4 + ["QC"] * 4 + ["JC"] * 4
                                                     + ["10C"] * 3), 0, "")


def test_unseen_deck_is_the_other_60_cards():
    d = unseen_deck(Hand80.parse(STRONG).counts, team_spec(PINOCHLE_80))
    assert len(d) == 60
    assert (np.bincount(d, minlength=24) + np.array(Hand80.parse(STRONG).counts)).tolist() == \
        [0 if t % 6 == 5 else 4 for t in range(24)]


def test_v6_hand_analysis_reports_meld_and_counter_distributions():
    a = analyze_pinochle_hand(STRONG, samples=60)
    hearts = a.trumps[2]
    assert hearts["own_meld"] == 290
    assert hearts["team_counters"]["lo"] <= hearts["team_counters"]["mean"] <= hearts["team_counters"]["hi"]
    assert 0 <= hearts["team_counters"]["q10"] <= hearts["team_counters"]["q90"] <= 500
    assert hearts["team_total"]["mean"] > a.trumps[0]["team_total"]["mean"]


def test_duplicate_pair_plays_the_same_cards_twice_with_teams_swapped():
    spec = team_spec(PINOCHLE_80)
    h1 = deal_hands(3, 7, spec)
    h2 = deal_hands(3, 7, spec)
    assert (h1 == h2).all() and list(h1.sum(axis=1)) == [20] * 4 + [0]
    params = {"samples": 20, "rv1": 20, "rv2": 150}
    # rule vs rule: both arrangements are the same game with the labels swapped: X = Y
    r = play_deal_pair(("rule", "rule"), params, 3, 7, spec)
    assert r["score"][0] == r["score"][1] and r["places"] == [2, 2]


def test_tournament_is_reproducible_and_reports_se_and_z():
    a = run_tournament("advisor", "rule", deals=4, seed=5, samples=20, rules=PINOCHLE_80)
    b = run_tournament("advisor", "rule", deals=4, seed=5, samples=20, rules=PINOCHLE_80)
    assert a.to_dict() == b.to_dict()
    assert a.diff_se >= 0 and a.groups == 4 and a.to_dict()["deals"] == 4
    with pytest.raises(BinokelError):
        run_tournament("advisor", "oracle", deals=4, rules=PINOCHLE_80)


# ---------------------------------------------------------------- Binokel team games

K48 = get_rules("kreuz-48")
K_STRONG = "AS AS 10S KS QS JS AC AH AD 10C KH"
K_WEAK = "7C 7H JH 7D JD 7S QC JC 10H QD KC"


def test_v4_team_advice_table_starts_at_the_next_bid_and_dabb_names_trump():
    a = advise_team(K_STRONG, 1, "150", K48, samples=60)
    assert [r["bid"] for r in a.rows][:3] == [160, 170, 180]
    assert all(r["trump"] is None for r in a.rows)
    assert a.max_bid is not None


def test_v4_strong_hand_bids_higher_than_weak_hand():
    weak = advise_team(K_WEAK, 1, "150", K48, samples=80, seed=1).max_bid or 0
    strong = advise_team(K_STRONG, 1, "150", K48, samples=80, seed=1).max_bid
    assert strong > weak


def test_v1_bad_team_auction_inputs():
    with pytest.raises(BinokelError, match="out of turn"):
        advise_team(K_STRONG, 2, "150", K48, samples=10)
    with pytest.raises(BinokelError, match="jumps are not allowed"):
        advise_team(K_STRONG, 2, "150 170", K48, samples=10)
    with pytest.raises(BinokelError, match="must have 11 cards"):
        advise_team("AS KS", 1, "150", K48, samples=10)


def test_v4_duplicate_tournament_runs_for_a_dabb_game():
    r = run_tournament("advisor", "rule", deals=3, seed=2, samples=20, rules=K48)
    assert r.groups == 3 and r.to_dict()["rules"] == "kreuz-48"
    rr = run_tournament("rule", "rule", deals=3, seed=2, rules=K48)
    assert rr.diff == 0


def test_v4_3_advisor_table_lets_the_soloist_go_out_at_high_bids():
    from analyzer.analyses.advice import parse_hand_for
    from analyzer.analyses.advice_grid import parse_auction_for
    from analyzer.analyses.advice_samples import bid_outcome, sample_branches, soloist_contracts
    from analyzer.mechanics.exchange import CONTRACT_PLAY, CONTRACT_SURRENDER
    from analyzer.mechanics.rules import team_spec
    spec = team_spec(K48)
    h, counts = parse_hand_for(K_WEAK, spec)
    raw = sample_branches(counts, 1, parse_auction_for("150", spec), 60, 4, spec)
    bids = np.array([160, 400, 700])
    con = soloist_contracts(raw, bids)
    assert (con[0] == CONTRACT_PLAY).mean() > 0.5          # the opening bids are played
    assert (con[2] == CONTRACT_SURRENDER).all()             # 700: nobody can reach it
    for j, b in enumerate(bids):
        rel, made = bid_outcome(raw, int(b), con[j])
        out = con[j] == CONTRACT_SURRENDER
        # V4.3: going out scores -bid against the other team's melds + 30, never made
        assert np.allclose(rel[out, 0], -b - raw["out_other"][out])
        assert not made[out, 0].any()
        assert (raw["out_other"][out] >= 30).all()
    a = advise_team(K_WEAK, 1, "150", K48, samples=60, seed=4)
    assert a.rows[0]["p_out"] < 0.5 and a.rows[-1]["p_out"] > 0.9


@pytest.mark.parametrize("game", ["kreuz-48", "kreuz-40", "pinochle-80"])
def test_v4_6_v5_7_v6_6_team_game_ends_at_the_target_bidding_side_counted_first(game):
    from analyzer.analyses.tournament import play_partners_game
    from analyzer.mechanics.rules import get_rules
    spec = team_spec(get_rules(game))
    target = {"kreuz-48": 1500, "kreuz-40": 1000, "pinochle-80": 3550}[game]   # V4.6 V5.7 V6.6
    params = {"samples": 10, "rv1": 100 if game != "pinochle-80" else 20,
              "rv2": 150 if game == "pinochle-80" else 0, "partner_offset": 0}
    for g in range(3):
        rec = play_partners_game(("rule", "rule"), params, 3, g, g % 2, spec)
        tot = [0, 0]
        for i, (x, y, bid_team, bid) in enumerate(rec["rows"]):
            assert max(tot) < target                  # no earlier deal ended the game
            tot = [tot[0] + x, tot[1] + y]
        assert tuple(tot) == rec["totals"] and max(tot) >= target
        last_bidder = rec["rows"][-1][2]
        if min(tot) >= target:                        # both there: the bidding side wins
            assert rec["winner"] == last_bidder
        else:
            assert rec["winner"] == int(np.argmax(tot))


def test_team_tournament_of_whole_games_reports_win_rate_with_se_and_z():
    from analyzer.mechanics.rules import get_rules
    k40 = get_rules("kreuz-40")
    a = run_tournament("advisor", "rule", groups=3, seed=4, samples=15, rules=k40)
    b = run_tournament("advisor", "rule", groups=3, seed=4, samples=15, rules=k40)
    assert a.to_dict() == b.to_dict()
    assert a.games == 6 and a.deals >= 6 and a.target == 1000
    assert 0.0 <= a.stats[0].win_rate <= 1.0 and "game win rate" in a.summary()
    same = run_tournament("rule", "rule", groups=3, seed=4, rules=k40)
    assert same.stats[0].win_rate == 0.5 and same.diff == 0      # duplicate: the luck cancels


def test_v1_bidding_over_the_partner_is_recognised_only_in_the_duels():
    from analyzer.analyses.advice_grid import bids_over_partner
    from analyzer.analyses.advice_grid import parse_auction_for
    from analyzer.mechanics.rules import team_spec
    spec = team_spec(K48)
    # V1: seat 0 opened, seat 1 passed: seat 2 now duels its own partner
    assert bids_over_partner(parse_auction_for("150 pass", spec), 2, spec)
    assert not bids_over_partner(parse_auction_for("150", spec), 1, spec)      # an opponent holds
    assert not bids_over_partner(parse_auction_for("", spec), 0, spec)          # nobody holds
    assert not bids_over_partner(parse_auction_for("150 160 pass", spec), 2, spec)
    p80 = team_spec(PINOCHLE_80)     # V6.2 open bidding keeps the plain rule
    assert not bids_over_partner(parse_auction_for("500 pass", p80), 2, p80)


def test_v1_a_bid_over_the_partner_needs_a_significant_gain_over_passing():
    from analyzer.analyses.advice_samples import summarize_partners_advice
    n = 40
    # bidding 150 gains +25 on average over passing, but with an SE of about 60
    noisy = {"team_total": np.where(np.arange(n) % 2 == 0, 600.0, 100.0)[:, None],
             "other": np.zeros((n, 1)), "pass_rel": np.full(n, 200.0), "weight": np.ones(n)}
    assert summarize_partners_advice(noisy, 150, 10, rows=1)[0] is not None
    mb, rows, _p, _e = summarize_partners_advice(noisy, 150, 10, rows=1, over_partner=True)
    assert mb is None and rows[0]["minus_pass"] > 0 > rows[0]["minus_pass_lo"]
    # a gain of about +400 whose CI is far above 0 is still bid over the partner
    clear = dict(noisy, team_total=np.full((n, 1), 600.0),
                 pass_rel=np.where(np.arange(n) % 2 == 0, 190.0, 210.0))
    assert summarize_partners_advice(clear, 150, 10, rows=1, over_partner=True)[0] is not None


def test_v1_team_advice_says_when_the_partner_holds_the_bid():
    a = advise_team(K_WEAK, 2, "150 pass", K48, samples=20, seed=1)
    assert a.over_partner and a.to_dict()["over_partner"] is True
    assert "your partner holds the bid" in a.summary()
    assert not advise_team(K_WEAK, 1, "150", K48, samples=20, seed=1).over_partner


# --------------------------------------------------------------------------- score-aware

def test_v6_6_team_win_probability_is_certain_when_the_deal_ends_the_game_bidders_first():
    from analyzer.analyses.objectives import side_win_probability
    t = 1500
    # V6.6 / V4.6: after the deal the bidding side is counted first
    assert side_win_probability([1500], [1600], [1], t)[0] == 1.0      # we bid and reached it
    assert side_win_probability([1600], [1500], [0], t)[0] == 0.0      # they bid and reached it
    assert side_win_probability([1510], [1400], [0], t)[0] == 1.0      # only we are there
    assert side_win_probability([1400], [1510], [1], t)[0] == 0.0      # we bid, went set
    assert side_win_probability([1500], [1500], [-1], t)[0] == 0.5     # thrown in, both there


def test_team_win_probability_race_is_symmetric_and_grows_with_the_lead_and_closeness():
    from analyzer.analyses.objectives import side_win_probability
    rng = np.random.default_rng(3)
    a = rng.integers(-400, 1499, 500).astype(float)
    b = rng.integers(-400, 1499, 500).astype(float)
    p, q = side_win_probability(a, b, -1, 1500), side_win_probability(b, a, -1, 1500)
    assert np.allclose(p + q, 1.0) and ((0 < p) & (p < 1)).all()
    assert np.allclose(side_win_probability(a, a, -1, 1500), 0.5)
    assert (np.sign(p - 0.5) == np.sign(a - b)).all()
    # the same lead of 200 counts for more near the target than at the start
    assert side_win_probability([1400], [1200], -1, 1500)[0] > side_win_probability([300], [100], -1, 1500)[0]


def test_bid_scores_agree_with_the_relative_objective_and_the_pass_branch_adds_up():
    from analyzer.analyses.advice import parse_hand_for
    from analyzer.analyses.advice_grid import parse_auction_for
    from analyzer.analyses.advice_samples import bid_outcome, bid_scores, sample_branches, soloist_contracts
    for rules, hand, seat, auction in ((K48, K_WEAK, 1, "150"), (PINOCHLE_80, STRONG, 0, "")):
        spec = team_spec(rules)
        _h, counts = parse_hand_for(hand, spec)
        raw = sample_branches(counts, seat, parse_auction_for(auction, spec), 40, 2, spec)
        bids = np.array([spec.step * 16, spec.step * 30, spec.step * 60])
        con = soloist_contracts(raw, bids)
        for j, b in enumerate(bids):
            c = None if con is None else con[j]
            team, other, made = bid_scores(raw, int(b), c)
            rel, made2 = bid_outcome(raw, int(b), c)
            assert np.array_equal(team - other, rel) and np.array_equal(made, made2)
        # the pass branch: who bid, and a thrown-in deal scores 0 : 0 (V6.2)
        pb = raw["pass_bidder"]
        assert set(np.unique(pb)) <= {-1, 0, 1}
        assert (raw["pass_own"][pb == -1] == 0).all() and (raw["pass_rel"][pb == -1] == 0).all()
        assert raw["target"] == spec.tk.target_score


def test_score_aware_team_advice_bids_to_stop_the_other_team_reaching_the_target():
    from analyzer.analyses.advice_samples import summarize_partners_advice
    n = 40
    # bidding 300 loses 300 half the time: worse than passing on the deal's score (pass
    # gives +0 here: the other team plays and scores 200 against our 200)
    raw = {"team_total": np.where(np.arange(n) % 2 == 0, 500.0, 100.0)[:, None],
           "other": np.full((n, 1), 40.0), "pass_rel": np.zeros(n), "weight": np.ones(n),
           "pass_own": np.full(n, 200.0), "pass_bidder": np.zeros(n, dtype=np.int64),
           "target": 1500}
    rel = summarize_partners_advice(raw, 300, 10, rows=1)
    assert rel[0] is not None                                # +60 mean: bid on scores
    # the other team stands at 1400: if we pass, they bid, reach 1500 and win (V6.6)
    mb, rows, pe, _ = summarize_partners_advice(raw, 300, 10, rows=1, objective="win",
                                            scores=(1100, 1400))
    assert pe.mean == 0.0 and mb is not None and rows[0]["ev"] > 0.4
    # far from the end, losing 300 half the time is not worth it against a pass: race model
    raw2 = dict(raw, team_total=np.where(np.arange(n) % 2 == 0, 320.0, 100.0)[:, None])
    assert summarize_partners_advice(raw2, 300, 10, rows=1)[0] is None
    assert summarize_partners_advice(raw2, 300, 10, rows=1, objective="win", scores=(0, 0))[0] is None


def test_team_advice_with_scores_reports_the_win_objective_and_bad_scores_are_one_line():
    a = advise_team(K_WEAK, 1, "150", K48, samples=30, seed=2, scores="1300,1400")
    assert a.objective == "win" and a.scores == (1300, 1400)
    assert "P(win game)" in a.summary() and a.to_dict()["objective"] == "win"
    assert 0.0 <= a.pass_value.mean <= 1.0
    assert all(0.0 <= r["ev"] <= 1.0 for r in a.rows)
    r = advise_team(K_WEAK, 1, "150", K48, samples=30, seed=2)
    assert r.objective == "relative" and r.scores is None
    for bad, msg in (("1,2,3", "two totals"), ("1300,x", "two integers"),
                     ("1500,0", "game is over")):
        with pytest.raises(BinokelError, match=msg):
            advise_team(K_WEAK, 1, "150", K48, samples=30, scores=bad)
    with pytest.raises(BinokelError, match="needs the game scores"):
        advise_team(K_WEAK, 1, "150", K48, samples=30, objective="win")
    with pytest.raises(BinokelError, match="not one of a team game's"):
        advise_team(K_WEAK, 1, "150", K48, samples=30, objective="own", scores="0,0")


def test_team_tournament_with_the_win_objective_is_reproducible_for_any_jobs():
    a = run_tournament("advisor", "rule", groups=2, seed=6, samples=15, rules=K48,
                       objective="win")
    b = run_tournament("advisor", "rule", groups=2, seed=6, samples=15, rules=K48,
                       objective="win", n_jobs=2)
    assert a.to_dict() == b.to_dict() and a.to_dict()["objective"] == "win"
    assert "objective P(win game)" in a.summary()
    with pytest.raises(BinokelError, match="whole games"):
        run_tournament("advisor", "rule", deals=2, rules=K48, objective="win")
    with pytest.raises(BinokelError, match="advisor agent"):
        run_tournament("rule", "advisor-fit", groups=2, rules=K48, objective="win")


@pytest.mark.parametrize("game,hand", [("kreuz-48", "AS AS 10S KS QS JS AC AH AD 10C KH"),
                                       ("pinochle-80", STRONG)])
def test_team_hand_analysis_reports_progress_in_pieces_without_changing_a_number(game, hand):
    from analyzer.analyses.analysis import TEAM_PROGRESS_EVERY, analyze_team_hand

    seen = []
    n = 2 * TEAM_PROGRESS_EVERY + 10
    shown = analyze_team_hand(hand, get_rules(game), seat=1, samples=n, seed=5,
                              progress=lambda d, t: seen.append((d, t)))
    plain = analyze_team_hand(hand, get_rules(game), seat=1, samples=n, seed=5)
    assert shown.to_dict() == plain.to_dict()
    assert seen == [(TEAM_PROGRESS_EVERY, n), (2 * TEAM_PROGRESS_EVERY, n), (n, n)]
