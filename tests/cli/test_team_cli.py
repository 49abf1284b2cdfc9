"""``--rules kreuz-48 / kreuz-40 / pinochle-80`` on the command line: team advice, melds,
analysis, tournament, bench; bad input is one line with exit 2 (V1, V6.1, V6.2)."""
from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import assert_one_line_error, run

PIN = "AH 10H KH QH JH AH 10H KH QS JD AC AS 10C 10S 10D QC JC JS QD JH"
K48 = "AS AS 10S KS QS JS AC AH AD 10C KH"
K40 = "AS AS 10S KS QS AC AH AD 10C"


def test_advise_pinochle_bid_table_from_500_json():
    r = run("advise", "--rules", "pinochle-80", PIN, "--seat", "0", "-n", "40", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["rules"] == "pinochle-80" and out["table"][0]["bid"] == 500
    assert {"p_make", "p_make_lo", "p_make_hi", "ev", "ev_lo", "ev_hi"} <= set(out["table"][0])
    assert "pass_value" in out and out["team"] == 0


def test_advise_kreuz_48_seat_2_after_calls():
    r = run("advise", "--rules", "kreuz-48", K48, "--seat", "2", "--auction", "150 160 pass",
            "-n", "30")
    assert r.exit_code == 0, r.output
    assert "kreuz-48" in r.output and "advice:" in r.output


def test_advise_kreuz_40_forced_opening_respected():
    r = run("advise", "--rules", "kreuz-40", K40, "--seat", "1", "--auction", "150", "-n", "20")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("args,fragment", [
    (("advise", "--rules", "pinochle-80", "AS AS AS AS AS " + " ".join(["KC"] * 4 + ["QC"] * 4
                                                                        + ["JC"] * 4 + ["10C"] * 3)),
     "only four"),
    (("advise", "--rules", "pinochle-80", "AH KH"), "must have 20 cards"),
    (("advise", "--rules", "pinochle-80", PIN, "--seat", "4"), "outside 0-3"),
    (("advise", "--rules", "pinochle-80", PIN, "--seat", "1", "--auction", "450"), "below the minimum"),
    (("advise", "--rules", "pinochle-80", PIN, "--seat", "1", "--auction", "505"), "multiple of 10"),
    (("advise", "--rules", "pinochle-80", PIN, "--seat", "2", "--auction", "500"), "out of turn"),
    (("advise", "--rules", "kreuz-48", K48, "--seat", "3", "--auction", "150"), "out of turn"),
    (("advise", "--rules", "kreuz-48", K48, "--seat", "1", "--auction", "150 170"), "jumps are not allowed"),
    (("advise", "--rules", "kreuz-48", "AS KS", "--seat", "1"), "11 cards"),
    (("advise", "--rules", "kreuz-48", K48, "--seat", "1", "--auction", "150", "--scores", "1,2,3"),
     "two totals"),
    (("advise", "--rules", "kreuz-48", K48, "--seat", "1", "--auction", "150", "--scores", "1500,2"),
     "game is over"),
    (("advise", "--rules", "kreuz-48", K48, "--seat", "1", "--auction", "150", "--objective", "win"),
     "needs the game scores"),
    (("advise", "--rules", "kreuz-48", K48, "--seat", "1", "--auction", "150", "--scores", "0,0",
      "--lookahead"), "no --lookahead"),
    (("tournament", "--rules", "kreuz-48", "--agents", "rule,advisor-fit", "--objective", "win",
      "--groups", "2"), "advisor agent"),
    (("tournament", "--rules", "kreuz-48", "--objective", "own", "--groups", "2"), "relative"),
    (("tournament", "--rules", "kreuz-48", "--deals", "4", "--groups", "2"), "exclude each other"),
    (("tournament", "--rules", "kreuz-48", "--deals", "1"), "between 2"),
    (("tournament", "--rules", "pinochle-80", "--deals", "100001"), "between 2"),
    (("tournament", "--rules", "kreuz-48", "--deals", "4", "--objective", "win"), "whole games"),
    (("play", "--rules", "kreuz-40", "--trump", "durch"), "no Durch"),
    (("play", "--rules", "kreuz-48", "--soloist", "4"), "0-3"),
    (("play", "--rules", "pinochle-80", "--bid", "505"), "no valid bid"),
    (("analyze", "--rules", "kreuz-48", K48, "--tapp", "AS KS"), "the Dabb has 4 cards"),
    (("analyze", "--rules", "kreuz-48", K48, "--tapp", "AS AS KS QS"), "overlaps the hand"),
    (("analyze", "--rules", "kreuz-48", K48, "--seat", "5"), "outside 0-3"),
    (("analyze", "--rules", "kreuz-40", K40, "--bid", "155"), "no valid bid"),
    (("analyze", "--rules", "pinochle-80", PIN, "--tapp", "AS"), "no Dabb"),
])
def test_team_bad_input_is_one_line_exit_2(args, fragment):
    assert_one_line_error(run(*args), fragment)


def test_melds_pinochle_classes_per_trump():
    r = run("melds", "--rules", "pinochle-80", PIN, "--trump", "H", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["by_trump"][0]["total"] == 290


def test_melds_kreuz_48_uses_the_11_card_hand():
    r = run("melds", "--rules", "kreuz-48", K48)
    assert r.exit_code == 0, r.output


def test_analyze_pinochle_distributions():
    r = run("analyze", "--rules", "pinochle-80", PIN, "-n", "20", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert len(out["trumps"]) == 4 and "team_counters" in out["trumps"][0]


def test_tournament_pinochle_two_deals():
    r = run("tournament", "--rules", "pinochle-80", "--groups", "2", "--samples", "10", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["rules"] == "pinochle-80" and out["deals"] == 2 and "z" in out


def test_tournament_deals_is_the_api_match_of_single_deals_json():
    # --deals N: N deals, each twice with the teams swapped (V1 teams, V4 kreuz-48); the
    # same match as run_tournament(deals=...), every arrangement bid or thrown in
    from analyzer.analyses.tournament import run_tournament
    from analyzer.mechanics.rules import get_rules

    r = run("tournament", "--rules", "kreuz-48", "--deals", "2", "--samples", "10", "--seed", "5",
            "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["rules"] == "kreuz-48" and out["deals"] == 2 and out["games"] == 0
    c = out["contracts"]
    assert c["x_bids"] + c["y_bids"] + c["thrown"] == 4
    api = run_tournament("advisor", "rule", deals=2, seed=5, samples=10,
                         rules=get_rules("kreuz-48"))
    assert out["diff_mean"] == api.diff and out["contracts"] == api.contracts


def test_bench_lists_team_workloads_for_team_rules():
    r = run("bench", "--rules", "kreuz-48", "-w", "T2", "--deals", "200", "--repeats", "1",
            "--no-baseline", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["results"][0]["workload"] == "T2"
    assert_one_line_error(run("bench", "--rules", "kreuz-48", "-w", "W2S", "--repeats", "1"),
                          "W2S does not run kreuz-48", "T2")


def test_analyze_kreuz_48_as_soloist_with_contract_shares_json():
    r = run("analyze", "--rules", "kreuz-48", K48, "--seat", "1", "-n", "40", "--bid", "200", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["rules"] == "kreuz-48" and out["seat"] == 1 and out["bid"] == 200
    a = out["at_bid"]
    assert abs(a["p_play"] + a["p_out"] + a["p_durch"] - 1) < 1e-9    # V4.3, V4.6
    assert abs(sum(out["trump_shares"]) - 1) < 1e-9
    assert {"team_meld", "team_points", "team_total", "other_score", "p_reach"} <= set(out)


def test_analyze_kreuz_40_with_a_known_dabb_text():
    r = run("analyze", "--rules", "kreuz-40", K40, "--tapp", "KD QD JD 10H", "-n", "30")
    assert r.exit_code == 0, r.output
    assert "kreuz-40" in r.output and "at bid 150" in r.output and "go out" in r.output


@pytest.mark.parametrize("game, n_tricks, total", [("kreuz-48", 11, 250), ("kreuz-40", 9, 250),
                                                   ("pinochle-80", 20, 500)])
def test_play_team_game_json_plays_every_trick_and_scores_both_teams(game, n_tricks, total):
    r = run("play", "--rules", game, "--seed", "3", "--soloist", "1", "--trump", "H", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert len(out["tricks"]) == n_tricks and len(out["hands"]) == 4
    assert sum(out["points"]) == total          # the Dabb counts for the soloist's team (V4.2)
    assert sum(out["tricks_won"]) == n_tricks and len(out["scores"]) == 2
    assert all(len(t["cards"]) == 4 for t in out["tricks"])


def test_play_kreuz_48_durch_text_names_the_soloists_team():
    r = run("play", "--rules", "kreuz-48", "--seed", "1", "--soloist", "2", "--trump", "durch")
    assert r.exit_code == 0, r.output
    assert "Durch (no trump)" in r.output and "soloist's team 0" in r.output


def test_advise_kreuz_48_with_scores_maximizes_p_win_game_json():
    # V4.6: the game ends at 1500; with the scores the team objective is P(win game)
    r = run("advise", "--rules", "kreuz-48", K48, "--seat", "1", "--auction", "150",
            "--scores", "1300,1400", "-n", "30", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["objective"] == "win" and out["scores"] == [1300, 1400]
    assert 0.0 <= out["pass_value"]["mean"] <= 1.0
    assert all(0.0 <= row["ev"] <= 1.0 for row in out["table"])
