"""Long commands speak (cli/progress.py; issue 28): a bar with done/total, the time so far
and an estimate of the time left on stderr, only on a terminal and never with --quiet;
commands with nothing to do say so in one line; counts are bounded (analyzer/bounds.py)."""
from __future__ import annotations

import io
import re

import pytest
from click.testing import CliRunner

import cli.progress
from cli.main import cli as binokel
from cli.progress import Bar, speaks


class _Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _plain(text: str) -> str:
    """``text`` without terminal escape sequences and carriage returns."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "\n")


def _run(*args):
    return CliRunner().invoke(binokel, list(args))


def test_bar_on_a_terminal_shows_what_done_of_total_elapsed_and_time_left():
    out = _Terminal()
    with Bar("deals", 4, stream=out, delay=0) as bar:
        bar.update(1)
        bar.advance(3)
    text = _plain(out.getvalue())
    assert "deals" in text and "4/4" in text and "left" in text
    assert re.search(r"\d:\d\d:\d\d", text)          # elapsed / remaining time columns


def test_bar_takes_a_total_learnt_from_the_first_update():
    out = _Terminal()
    with Bar("chunks of deals", stream=out, delay=0) as bar:
        bar.update(2, 8)
        bar.update(8, 8)
    assert "8/8" in _plain(out.getvalue())


def test_bar_without_a_total_counts_and_times_but_claims_no_estimate():
    out = _Terminal()
    with Bar("charts written", stream=out, delay=0) as bar:
        bar.update(3)
    text = _plain(out.getvalue())
    assert "charts written" in text and "3/?" in text and "left" not in text


def test_bar_prints_nothing_when_the_stream_is_no_terminal():
    out = io.StringIO()
    with Bar("deals", 3, stream=out, delay=0) as bar:
        bar.update(3)
    assert not bar.enabled and out.getvalue() == ""


def test_bar_prints_nothing_with_quiet_on_a_terminal():
    out = _Terminal()
    with Bar("deals", 3, stream=out, quiet=True, delay=0) as bar:
        bar.update(3)
    assert not bar.enabled and out.getvalue() == ""
    assert speaks(False, out) and not speaks(True, out) and not speaks(False, io.StringIO())


def test_bar_waits_its_delay_so_a_quick_answer_shows_no_bar():
    out = _Terminal()
    with Bar("deals", 3, stream=out, delay=60) as bar:
        bar.update(1)
        bar.update(3)
    assert bar.enabled and out.getvalue() == ""


@pytest.mark.parametrize("command", ["advise", "analyze", "duplicate", "tournament",
                                     "fit-opponents", "fit-defence", "review", "solve",
                                     "simulate", "hint", "bench", "report"])
def test_every_long_command_takes_quiet(command):
    r = _run(command, "--help")
    assert r.exit_code == 0 and "--quiet" in r.output


def _as_terminal(monkeypatch):
    """Commands run as if stderr were a terminal, the bar from the first update."""
    monkeypatch.setattr(cli.progress, "speaks", lambda quiet=False, stream=None: not quiet)
    monkeypatch.setattr(cli.progress, "DELAY", 0.0)


def test_advise_shows_its_chunks_on_a_terminal_and_prints_the_same_answer(monkeypatch):
    args = ["advise", "--example", "strong_spades", "-n", "300", "--jobs", "1"]
    piped = _run(*args)
    assert piped.exit_code == 0 and piped.stderr == ""
    _as_terminal(monkeypatch)
    shown = _run(*args)
    assert shown.exit_code == 0 and shown.stdout == piped.stdout
    assert "sampled deals (chunks)" in _plain(shown.stderr) and "left" in shown.stderr
    quiet = _run(*args, "--quiet")
    assert quiet.stdout == piped.stdout and quiet.stderr == ""


def test_team_analyze_counts_its_samples_on_a_terminal(monkeypatch):
    args = ["analyze", "--rules", "kreuz-48", "AS AS 10S KS QS JS AC AH AD 10C KH", "--seat",
            "1", "-n", "60", "--json"]
    piped = _run(*args)
    assert piped.exit_code == 0 and piped.stderr == ""
    _as_terminal(monkeypatch)
    assert _run(*args).stderr == ""                      # --json: never a bar
    shown = _run(*args[:-1])
    assert shown.exit_code == 0, shown.output
    assert "samples" in _plain(shown.stderr) and "60/60" in _plain(shown.stderr)


def test_duplicate_shows_a_bar_of_deals_on_a_terminal_not_a_line_per_50(monkeypatch):
    args = ["duplicate", "--deals", "3", "--policy", "heuristic", "--config", "soloist"]
    piped = _run(*args)
    assert piped.exit_code == 0, piped.output
    assert piped.stderr == ""                      # not a terminal: nothing on stderr
    _as_terminal(monkeypatch)
    shown = _run(*args)
    # the same results (the table's last column, seconds per deal, is a timing)
    assert shown.exit_code == 0
    assert [x.rsplit(None, 1)[0] for x in shown.stdout.splitlines() if x.strip()] == \
        [x.rsplit(None, 1)[0] for x in piped.stdout.splitlines() if x.strip()]
    assert "3/3" in _plain(shown.stderr) and "left" in shown.stderr


def test_review_counts_the_cards_reviewed_on_a_terminal(monkeypatch, tmp_path):
    record = tmp_path / "deal.txt"
    assert _run("play", "--seed", "3", "--soloist", "1", "--trump", "H",
                "--record", str(record)).exit_code == 0
    args = ["review", str(record), "-n", "2", "--from-trick", "14", "--dd-max-tricks", "0"]
    _as_terminal(monkeypatch)
    shown = _run(*args)
    assert shown.exit_code == 0, shown.output
    assert "cards reviewed" in _plain(shown.stderr) and "6/6" in _plain(shown.stderr)
    assert _run(*args, "--quiet").stderr == ""


def test_hint_counts_its_worlds_on_a_terminal_with_the_same_answer(monkeypatch, tmp_path):
    record = tmp_path / "deal.txt"
    assert _run("play", "--seed", "3", "--record", str(record)).exit_code == 0
    args = ["hint", "--record", str(record), "--trick", "13", "--card", "1", "-n", "5"]
    piped = _run(*args)
    assert piped.exit_code == 0 and piped.stderr == "", piped.output
    _as_terminal(monkeypatch)
    shown = _run(*args)
    assert shown.stdout == piped.stdout
    assert "worlds" in _plain(shown.stderr) and "5/5" in _plain(shown.stderr)
    assert _run(*args, "-q").stderr == ""


def test_simulate_prints_no_bar_into_a_pipe_only_its_result(tmp_path):
    r = _run("simulate", "-n", "1000", "--out", str(tmp_path / "run"), "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert r.stderr == "" and "1,000 deals" in r.stdout


def test_report_counts_its_charts_on_a_terminal(monkeypatch, tmp_path):
    _as_terminal(monkeypatch)
    r = _run("report", "--sample", "--out", str(tmp_path / "rep"))
    assert r.exit_code == 0, r.output
    assert "charts written" in _plain(r.stderr) and "4/?" in _plain(r.stderr)
    assert "report:" in r.stdout and "report:" not in r.stderr


@pytest.mark.parametrize("args,fragment", [
    (["review"], "nothing to review: give a deal RECORD file"),
    (["report"], "nothing to report: give a RUN folder"),
    (["advise"], "give a HAND"),
    (["hint"], "--record FILE is needed"),
    (["solve"], "nothing to solve"),
    (["simulate"], "nothing to simulate: give -n DEALS and --out FOLDER"),
    (["simulate", "-n", "10"], "nothing to simulate: give --out FOLDER"),
])
def test_a_command_with_nothing_to_do_says_so_in_one_line(args, fragment):
    r = _run(*args)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and fragment in r.stderr, r.stderr


@pytest.mark.parametrize("args,fragment", [
    (["bench", "--deals", "10_000_000_000"], "at most 1,000,000,000 (10^9 deals"),
    (["bench", "--baseline-deals", "10_000_000_000"], "at most 1,000,000,000"),
    (["bench", "--repeats", "101"], "at most 100 (the median"),
    (["bench", "--repeats", "0"], "at least 1"),
    (["serve", "--workers", "65"], "at most 64 (each worker is a process"),
    (["serve", "--workers", "0"], "at least 1"),
])
def test_bench_and_serve_counts_are_bounded_in_one_line_naming_the_bound(args, fragment):
    r = _run(*args)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and fragment in r.stderr, r.stderr
