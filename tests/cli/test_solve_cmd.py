"""``binokel solve`` (cli/solve_cmd.py)."""
from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

from cli.main import cli


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def test_solve_position_line_json_gives_value_and_each_legal_card():
    r = _run("solve", "--position", "S 0 1 AS,10H KD QS,JC 9C", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["value"] == 13 and d["moves"] == {"JC": 13} and d["to_play"] == 2


def test_solve_position_with_two_choices_marks_the_best():
    # Durch (N), soloist 0 leads AC,9H: AC wins 25 then 9H loses; 9H first loses at once
    r = _run("solve", "--position", "N 0 0 AC,9H 10C,AH KC,QH -")
    assert r.exit_code == 0, r.output
    assert "AC        25  best" in r.output and "9H         0" in r.output


def test_solve_bad_position_is_one_line_error():
    r = _run("solve", "--position", "S 0 1 AS,10H KD")
    assert r.exit_code == 2
    assert "7 fields" in r.output and r.output.count("\n") == 1


def test_solve_tricks_left_needs_trump():
    r = _run("solve", "--seed", "3", "--tricks-left", "5")
    assert r.exit_code == 2 and "--trump" in r.output


def test_solve_deal_position_after_heuristic_play():
    r = _run("solve", "--seed", "3", "--tricks-left", "4", "--trump", "H", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["tricks_left"] == 4 and d["value"] in d["moves"].values()


SMALL = ["--hand", "AS 10S KH", "--hand", "QS JC 9D", "--hand", "AC 10D KD", "--tapp", "JS QH AD"]


def test_solve_best_discard_json_is_the_api_result():
    from analyzer.search.best_discard import best_discard
    r = _run("solve", *SMALL, "--soloist", "1", "--best-discard", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    want = best_discard(["AS 10S KH", "QS JC 9D", "AC 10D KD"], 1, "JS QH AD", max_seconds=60)
    assert d["exact"] is True and d["best"] == want["best"] and d["candidates"] == want["candidates"]


def test_solve_best_discard_text_says_whether_it_is_exact():
    r = _run("solve", *SMALL, "--best-discard", "--max-candidates", "1")
    assert r.exit_code == 0, r.output
    assert "best discard" in r.output
    assert ("exact: the best of all" in r.output) != ("NOT proven best" in r.output)


def test_solve_best_discard_bad_combinations_are_one_line_errors():
    for args, msg in ((["--seed", "3", "--tapp", "AS AS AH"], "--best-discard"),
                      (["--seed", "3", "--best-discard", "--tricks-left", "3"], "whole deal"),
                      ([*SMALL, "--best-discard", "--trump", "N"], "Durch"),
                      ([*SMALL[:6], "--tapp", "JS QH", "--best-discard"], "Tapp holds 3")):
        r = _run("solve", *args)
        assert r.exit_code == 2, (args, r.output)
        assert msg in r.output and r.output.count("\n") == 1, (args, r.output)


def test_solve_with_nothing_to_solve_names_the_options_and_exits_2():
    # no default deal is invented (issue 28): one line naming what to give
    r = _run("solve")
    assert r.exit_code == 2, r.output
    assert r.output.count("\n") == 1 and "nothing to solve" in r.output
    for option in ("--seed", "--hand", "--position"):
        assert option in r.output


def test_solve_whole_deal_past_its_time_limit_prints_the_rows_reached_and_exits_3(monkeypatch):
    # a whole deal needs far more than 2 M nodes per row: a 0.01 s budget runs out;
    # stderr as a terminal (cli.progress.speaks), so the progress lines are printed
    import cli.solve_cmd

    monkeypatch.setattr(cli.solve_cmd, "speaks", lambda quiet=False: not quiet)
    r = _run("solve", "--seed", "7", "--time-limit", "0.01")
    assert r.exit_code == 3, r.output
    assert "solving 5 contracts double dummy" in r.stderr
    assert "not solved (time limit)" in r.stdout
    line = [x for x in r.stderr.splitlines() if x.startswith("binokel: time limit")]
    assert len(line) == 1 and "0.01 s reached" in line[0] and "not solved" in line[0]
    # a progress line after each row (its count of rows done)
    assert all(f"({k}/5, " in r.stderr for k in range(1, 6))


def test_solve_whole_deal_json_says_the_table_is_incomplete():
    r = _run("solve", "--seed", "7", "--time-limit", "0.01", "--json")
    assert r.exit_code == 3, r.output
    d = json.loads(r.stdout)
    assert d["complete"] is False and d["time_limit"] == 0.01
    assert [row["trump"] for row in d["rows"]] == list("CSHDN")
    unsolved = [row for row in d["rows"] if "solved" in row]
    assert unsolved and all(row == {"trump": row["trump"], "solved": False} for row in unsolved)
    assert "solving" not in r.stderr   # --json: no progress lines


def test_solve_whole_deal_progress_lines_only_on_a_terminal_and_never_with_quiet(monkeypatch):
    import cli.solve_cmd

    piped = _run("solve", "--seed", "7", "--time-limit", "0.01")   # CliRunner: no terminal
    assert piped.exit_code == 3 and "solving" not in piped.stderr and "/5, " not in piped.stderr
    assert "binokel: time limit" in piped.stderr      # the outcome is still said
    monkeypatch.setattr(cli.solve_cmd, "speaks", lambda quiet=False: not quiet)
    quiet = _run("solve", "--seed", "7", "--time-limit", "0.01", "--quiet")
    assert quiet.exit_code == 3 and "solving" not in quiet.stderr and "/5, " not in quiet.stderr
    assert "not solved (time limit)" in quiet.stdout


def test_solve_time_limit_with_a_position_is_one_line_error():
    r = _run("solve", "--seed", "3", "--tricks-left", "2", "--trump", "H", "--time-limit", "5")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "--time-limit" in r.output


# --------------------------------------------------------------------------- --rules NAME (issue 24)

ALL_GAMES = ["binokel-48", "grupp-3", "grupp-4", "binokel-40", "kreuz-48", "kreuz-40",
             "pinochle-80"]


@pytest.mark.parametrize("game", ALL_GAMES)
def test_solve_seeded_position_answers_for_every_game(game):
    # every game: the deal of a seed, its play record to 3 tricks left, every legal card's
    # value for the soloist (three-player games) or the soloist's side (partners, V1)
    r = _run("solve", "--rules", game, "--seed", "4", "--tricks-left", "3", "--trump", "H",
             "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    best = max(d["moves"].values()) if (d["to_play"] - d["soloist"]) % (
        2 if game in ("kreuz-48", "kreuz-40", "pinochle-80") else 3) == 0 else min(d["moves"].values())
    assert d["tricks_left"] == 3 and d["value"] == best


def test_solve_team_position_counts_the_partners_points_together():
    # kreuz-40, hearts trump: soloist 0 leads AH; its partner (seat 2, V1) holds the other
    # ace and the side takes both tricks: 11+10+11+10 + ... + the last trick's 10 (R7)
    line = "H 0 0 AH,KS 10H,QS AH,JS KH,QS -"
    r = _run("solve", "--rules", "kreuz-40", "--position", line, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["to_play"] == 0 and len(d["hands"]) == 4
    cp = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
    every = sum(cp[c[:-1]] for h in d["hands"] for c in h.split()) + 10
    assert d["value"] == every


def test_solve_grupp_cards_are_sevens_and_the_dealer_sits_out():
    # V1: rank 5 is a 7 in grupp-4; V3: the dealer (seat 3) holds no cards and is no seat
    # of the position line
    r = _run("solve", "--rules", "grupp-4", "--position", "S 0 1 AS,10H KD QS,JC 7C")
    assert r.exit_code == 0, r.output
    assert "3 dealer (sits out) -" in r.output and "JC        13  best" in r.output
    r = _run("solve", "--rules", "grupp-4", "--position", "S 0 1 AS,10H KD QS,JC 9C")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "9C" in r.output


def test_solve_refuses_what_the_game_lacks_in_one_line():
    for args, msg in [
        (["--rules", "kreuz-40", "--seed", "1", "--tricks-left", "3", "--trump", "N"], "no Durch"),
        (["--rules", "pinochle-80", "--seed", "1"], "at most 60 cards = 15 tricks left"),
        (["--rules", "pinochle-80", "--seed", "1", "--best-discard"], "no Dabb"),
        (["--rules", "kreuz-48", "--seed", "1", "--best-discard"], "out of reach"),
        (["--rules", "binokel-40", "--seed", "1", "--tricks-left", "13", "--trump", "S"],
         "deals 12 tricks"),
        (["--rules", "binokel-48", "--seed", "1", "--soloist", "3"], "seats 0, 1, 2"),
        (["--rules", "kreuz-48", "--position", "S 0 1 AS KD QS"], "8 fields"),
    ]:
        r = _run("solve", *args)
        assert r.exit_code == 2, (args, r.output)
        assert msg in r.output and r.output.count("\n") == 1, (args, r.output)


def test_solve_team_deal_table_under_a_time_limit_is_partial_and_exits_3():
    r = _run("solve", "--rules", "kreuz-48", "--seed", "7", "--time-limit", "0.01", "--json")
    assert r.exit_code == 3, r.output
    d = json.loads(r.stdout)
    assert [row["trump"] for row in d["rows"]] == list("CSHDN")   # kreuz-48 has a Durch (V4.6)
    assert d["complete"] is False


def test_solve_binokel_40_table_has_no_durch_row_and_a_dabb_of_four():
    # V5.7: no Durch; V5.1: the Dabb of 4 is the discard; a small deal through --hand
    r = _run("solve", "--rules", "binokel-40", "--seed", "5", "--time-limit", "0.01", "--json")
    assert r.exit_code == 3, r.output
    d = json.loads(r.stdout)
    assert [row["trump"] for row in d["rows"]] == list("CSHD")
    assert all(len(h.split()) == 12 for h in d["hands"])


def test_solve_best_discard_says_its_budget_on_a_terminal_before_the_first_search(monkeypatch):
    import cli.solve_cmd

    assert "best discard: each" not in _run("solve", *SMALL, "--best-discard").stderr
    monkeypatch.setattr(cli.solve_cmd, "speaks", lambda quiet=False: not quiet)
    r = _run("solve", *SMALL, "--best-discard", "--time-limit", "30")
    assert r.exit_code == 0, r.output
    assert "best discard: each candidate discard solved double dummy" in r.stderr
    assert "at most 30 s (--time-limit SECONDS)" in r.stderr
    assert "best discard: each" not in _run("solve", *SMALL, "--best-discard", "-q").stderr
