"""What the commands print (issue 25): tables that cover the answer, card names in the
game's spelling and notation, numbers that are numbers, one auction notation, truthful
help."""
from __future__ import annotations

import json
import re

import pytest

from analyzer.analyses.advice_grid import ROWS_PAST, SMALL_P_MAKE, table_extent
from analyzer.analyses.stats import reach_table, reach_text
from analyzer.analyses.tournament import AgentStats, TournamentResult, z_text
from analyzer.mechanics.bidding import validate_auction
from analyzer.mechanics.rules import get_rules
from reports.cells import pct as _pct
from tests.cli.test_cli import run

PIN = "AS AS 10S 10S KS KS QS QS JS JS AH 10H KH QH AC KC QC AD QD JD"
K48 = "AH AH 10H KH QH JH AS 10S KC QC 7D"
SUIT_SIGNS = set("♣♠♥♦")


# --------------------------------------------------------------- tables cover the answer

def _covers(table, max_bid, step):
    """The table shows the recommended bid and reaches past it: to P(make) < 1 % or
    ROWS_PAST bids beyond, whichever comes first."""
    bids = [r["bid"] for r in table]
    assert max_bid in bids
    past = [r for r in table if r["bid"] > max_bid]
    assert past, "a row past the recommended bid"
    assert past[-1]["p_make"] < SMALL_P_MAKE or past[-1]["bid"] >= max_bid + ROWS_PAST * step


@pytest.mark.parametrize("args,step", [
    (("--rules", "pinochle-80", "--seat", "3", "--auction", "500 510 pass", PIN), 10),
    (("--rules", "kreuz-48", "--seat", "1", "--auction", "150", K48), 10),
])
def test_team_advice_table_reaches_past_the_bid_it_recommends(args, step):
    """V6.2 / V4: the table used to stop after 20 rows (520-710) while saying "bid up to
    910", the end of a grid too short for the hand."""
    r = run("advise", *args, "-n", "300", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["max_bid"] is not None
    _covers(out["table"], out["max_bid"], step)
    text = run("advise", *args, "-n", "300").output
    said = int(re.search(r"bid up to (\d+)", text).group(1))
    assert said == out["max_bid"]
    # the recommended bid is on a printed row (alone or in a merged run "a-b")
    shown = [tuple(int(x) for x in m.split("-")) for m in re.findall(r"^\s+(\d+(?:-\d+)?)\s",
                                                                       text, re.M)]
    assert any(lo <= said <= (hi[0] if hi else lo) for lo, *hi in shown)


def test_team_advice_text_merges_identical_rows_like_the_three_player_table():
    r = run("advise", "--rules", "pinochle-80", "--seat", "3", "--auction", "500 510 pass",
            PIN, "-n", "300")
    assert re.search(r"^\s+520-\d+\s", r.output, re.M), r.output


def test_three_player_table_extent_reaches_past_the_recommendation_to_small_p_make():
    p = [1.0] * 30 + [0.5, 0.2, 0.05, 0.005, 0.0]
    assert table_extent(p, 29) == 34          # ends with the first P(make) below 1 %
    assert table_extent([1.0] * 60, 40) == 40 + ROWS_PAST + 1
    assert table_extent([0.0] * 10, -1) == 3  # pass: the first rows still show why


def test_team_analysis_p_total_reaches_past_the_hand_s_mean_total():
    """V4.6: P(team total >= bid) stopped at the 20th bid, below a mean total of 425."""
    r = run("analyze", "--rules", "kreuz-48", K48, "-n", "300", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    reach = out["p_reach"]
    assert reach[-1]["bid"] > out["team_total"]["mean"] + 50
    assert reach[-1]["p"] < 0.001
    text = run("analyze", "--rules", "kreuz-48", K48, "-n", "300").output
    line = next(x for x in text.splitlines() if "P(total >= bid)" in x)
    assert f"{reach[-1]['bid']}:" in line or f"-{reach[-1]['bid']}:" in line


def test_reach_table_runs_to_negligible_and_text_never_rounds_to_certainty():
    rows = reach_table([300] * 997 + [900] * 3, 150, 10)
    assert rows[-1]["bid"] == 910 and rows[-1]["p"] == 0
    text = reach_text(rows)
    assert "150-300: 100%" in text and "310-900: <1%" in text and "910: 0%" in text
    assert ">99%" in reach_text([{"bid": 150, "p": 0.997, "lo": 0.99, "hi": 1.0}])


# ------------------------------------------------------------ card names and notation

def test_kreuz_48_json_names_the_seven_of_diamonds_7d_not_9d():
    """V1: kreuz-48 plays with sevens; the text said ♦ 7 while the JSON said 9D."""
    r = run("advise", K48, "--rules", "kreuz-48", "--seat", "1", "--auction", "150",
            "-n", "50", "--json")
    assert r.exit_code == 0, r.output
    hand = json.loads(r.output)["hand"].split()
    assert "7D" in hand and "9D" not in hand
    r = run("analyze", "--rules", "kreuz-48", K48, "-n", "50", "--json")
    assert "7D" in json.loads(r.output)["hand"].split()


def test_grupp_3_analysis_json_spells_the_low_card_7():
    """V1: grupp-3's deck has sevens: hand, Tapp and discard codes say 7."""
    from analyzer.analyses.analysis import analyze_hand
    res = analyze_hand("AS AS 10S KS QS JS 7S KH QH AC AD 10D KD QD JD", None, "forehand",
                       samples=20, seed=0, rules=get_rules("grupp-3"))
    d = res.to_dict()
    assert "7S" in d["hand"].split() and "9S" not in d["hand"].split()
    codes = " ".join(res.deals["tapp"]) + " " + " ".join(res.deals["discard"])
    assert "9" not in codes.replace("10", "")


def test_cards_de_names_suits_in_team_analysis_and_pinochle_melds():
    """--cards de: the trump shares of the team analysis and Pinochle's meld names were
    printed with ♣ ♠ ♥ ♦ ("marriage ♥")."""
    r = run("analyze", "--rules", "kreuz-48", "--cards", "de", K48, "-n", "50")
    assert r.exit_code == 0, r.output
    assert not SUIT_SIGNS & set(r.output), r.output
    assert "Herz" in r.output
    r = run("melds", "--rules", "pinochle-80", "--cards", "de", PIN)
    assert r.exit_code == 0, r.output
    assert not SUIT_SIGNS & set(r.output), r.output
    assert "marriage Herz" in r.output


def test_cards_de_names_suits_in_the_team_advice_table():
    r = run("advise", "--rules", "pinochle-80", "--cards", "de", "--seat", "3", "--auction",
            "500 510 pass", PIN, "-n", "50")
    assert r.exit_code == 0, r.output
    assert not SUIT_SIGNS & set(r.output), r.output


def test_cards_fr_is_the_french_suited_notation_the_page_offers():
    """The page's "French suits" are --cards en; --cards fr was refused."""
    fr = run("melds", "--cards", "fr", "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD")
    en = run("melds", "--cards", "en", "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD")
    assert fr.exit_code == 0, fr.output
    assert fr.output == en.output


def test_page_labels_are_the_cli_notations():
    from pathlib import Path
    html = (Path(__file__).parents[2] / "web" / "static" / "index.html").read_text()
    values = re.findall(r'<select id="labels">(.*?)</select>', html, re.S)[0]
    assert re.findall(r'<option value="(\w+)"', values) == ["en", "de"]


# ------------------------------------------------------------- numbers are numbers

def test_team_tournament_says_z_is_not_estimable_instead_of_nan():
    """kreuz-48, 1 game pair: every game pair split 1 : 1, SE 0, printed "z = +nan"."""
    nan = float("nan")
    res = TournamentResult(("advisor", "rule"), 1, 2, 9, 1,
                           [AgentStats("advisor", 10.0, nan, 0.5, 0.0, 1, 1, 9, 160.0),
                            AgentStats("rule", 5.0, nan, 0.5, 0.0, 1, 1, 9, 150.0)],
                           5.0, nan, nan, 0.0, nan,
                           {"rules": "kreuz-48", "samples": 50, "objective": "relative",
                            "play": "heuristic"}, win_z=nan, target=1000, partners=True)
    text = res.summary()
    assert "nan" not in text.lower() and "not estimable" in text
    d = res.to_dict()
    assert d["z"] is None and d["win_z"] is None
    json.dumps(d, allow_nan=False)
    assert z_text(2.5, 10, "game pairs", " against 50%") == "z = +2.50 against 50%"
    assert "standard error 0" in z_text(float("nan"), 4, "game pairs")


def test_team_tournament_cli_of_two_groups_prints_no_nan():
    r = run("tournament", "--rules", "kreuz-48", "--groups", "2", "--samples", "20",
            "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "nan" not in r.output.lower(), r.output


@pytest.mark.parametrize("x,text", [(0.0083, "0.83%"), (0.5, "50%"), (0.12345, "12.345%"),
                                    (0.0, "0%"), (0.000012, "0.0012%")])
def test_report_percentages_have_no_trailing_zeros(x, text):
    """Report shares printed as 0.8300%."""
    assert _pct(x) == text


def test_team_auctions_print_like_three_player_auctions():
    """Every auction prints its calls with the game's seat names (R2, V1, V6.1): one
    AuctionState.describe for the chain of duels and open bidding."""
    three = validate_auction("150 160 pass").describe()
    assert three == "forehand 150, middlehand 160, forehand pass"   # R3: the first duel
    team = validate_auction("500 510 pass", get_rules("pinochle-80")).describe()
    assert team == "first 500, second 510, third pass"
    duel = validate_auction([150, 160, 0], get_rules("kreuz-40")).describe()
    assert duel == "forehand 150, middlehand 160, forehand pass"


def test_advise_help_says_jobs_are_threads_and_not_for_team_games():
    """-j is threads in advise (sample_rounds runs nogil kernels on a thread pool); the
    team games' advice runs in one thread."""
    r = run("advise", "--help")
    text = " ".join(r.output.split())
    assert "Threads of this one process" in text and "team game" in text
    assert "worker processes" not in text.lower()
