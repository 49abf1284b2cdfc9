"""The ``binokel`` command line: help with examples for every command, one-line errors
with exit status 2 (never a traceback), and the foundation commands ``melds``/``bench``."""
from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from cli.main import cli

STRONG = "AS AS 10S KS QS JS 9S KH QH AC AD 10D KD QD JD"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def assert_one_line_error(result, *fragments):
    """Exit 2, exactly one line on stderr 'binokel: error: ...', no traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("binokel: error: ")
    for frag in fragments:
        assert frag in lines[0]


def _all_commands(group: click.Group, prefix=()):
    # list_commands/get_command: the group loads its command modules on use
    for name in sorted(group.list_commands(None)):
        cmd = group.get_command(None, name)
        path = prefix + (name,)
        yield path, cmd
        if isinstance(cmd, click.Group):
            yield from _all_commands(cmd, path)


COMMANDS = list(_all_commands(cli))


def test_commands_are_registered():
    names = {p[0] for p, _ in COMMANDS}
    assert {"melds", "bench"} <= names


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=" ".join)
def test_every_command_help_shows_an_example(path):
    """Every registered command (later ones included) ends its --help with an Example
    block holding at least one runnable ``binokel ...`` line."""
    result = run(*path, "--help")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Example" in out
    example = out[out.index("Example"):]
    assert any(line.strip().startswith("binokel ") for line in example.splitlines())


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=" ".join)
def test_every_command_unknown_option_is_one_line_error(path):
    assert_one_line_error(run(*path, "--no-such-option-xyz"), "no-such-option-xyz")


@pytest.mark.parametrize("args", [
    ("play",), ("bench", "-w", "W1"), ("tournament", "--groups", "2"),
    ("advise", "--example", "average"), ("analyze", "--example", "average"),
    ("simulate", "-n", "10", "--out", "unused-run-folder"),
], ids=lambda a: a[0])
def test_negative_seed_is_one_line_error(args):
    """A seed is a non-negative integer (numpy.random.SeedSequence); -1 is bad input."""
    assert_one_line_error(run(*args, "--seed", "-1"), "seed")


def test_group_help_and_version():
    result = run("--help")
    assert result.exit_code == 0 and "melds" in result.output and "bench" in result.output
    result = run("--version")
    assert result.exit_code == 0 and "binokel" in result.output


# ------------------------------------------------------------------ melds

def test_melds_breakdown_for_every_trump():
    result = run("melds", STRONG)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "trump family ♠ 150" in out and "pair ♥ 20" in out and "binokel 40" in out
    assert "best trump by meld: ♠ S (320)" in out


def test_melds_one_trump_json():
    result = run("melds", STRONG, "--trump", "S", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["best_trump"] == "S" and data["best_total"] == 320
    [only] = data["by_trump"]
    assert (only["families_pairs"], only["fours"], only["binokel"], only["nines"]) == (
        270, 0, 40, 10)


def test_melds_builtin_example():
    result = run("melds", "--example", "strong_spades", "--json")
    assert result.exit_code == 0 and json.loads(result.output)["best_total"] == 320


def test_melds_unknown_token():
    assert_one_line_error(run("melds", STRONG.replace("KH", "XH")), "bad card token", "XH")


def test_melds_third_copy():
    assert_one_line_error(run("melds", STRONG.replace("KS", "AS")), "only two")


@pytest.mark.parametrize("hand", ["AS KS", STRONG + " 9H", ""])
def test_melds_wrong_card_count(hand):
    result = run("melds", hand)
    assert_one_line_error(result)
    if hand:
        assert "15 cards" in result.stderr


def test_melds_unknown_trump():
    assert_one_line_error(run("melds", STRONG, "--trump", "X"), "unknown suit")


def test_melds_missing_or_double_input_and_unknown_example():
    assert_one_line_error(run("melds"), "HAND")
    assert_one_line_error(run("melds", STRONG, "--example", "weak"), "not both")
    assert_one_line_error(run("melds", "--example", "nope"), "unknown example")


def test_unknown_command_and_option_are_one_line():
    assert_one_line_error(run("frobnicate"))
    assert_one_line_error(run("melds", STRONG, "--frob"))


# ------------------------------------------------------------------ bench

def test_bench_list():
    result = run("bench", "--list")
    assert result.exit_code == 0 and result.output.startswith("W1: meld census")


def test_bench_w1_json_small():
    result = run("bench", "-w", "W1", "--deals", "2000", "--repeats", "2",
                 "--baseline-deals", "50", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    [w1] = data["results"]
    assert w1["workload"] == "W1" and w1["deals"] == 2000 and len(w1["runs"]) == 2
    assert w1["deals_per_s"] > 0 and {b["name"] for b in w1["baselines"]} == {"numpy", "python"}
    assert all(b["deals"] == 50 and b["speedup"] > 0 for b in w1["baselines"])
    assert 40 < w1["extra"]["mean_meld"] < 120        # R5 totals of random hands
    assert data["machine"]["cores"] >= 1


def test_bench_table_output():
    result = run("bench", "-w", "W1", "--deals", "1000", "--repeats", "1", "--no-baseline")
    assert result.exit_code == 0, result.output
    assert "W1" in result.stdout and "deals/s" in result.stdout and "meld census" in result.stdout


@pytest.mark.parametrize("args,frag", [(("-w", "W99"), "unknown workload"),
                                       (("--repeats", "0"), "--repeats"),
                                       (("--deals", "0"), "--deals"),
                                       (("--baseline-deals", "-1"), "--baseline-deals"),
                                       (("--deals", "many"), "many")])
def test_bench_bad_input(args, frag):
    assert_one_line_error(run("bench", *args), frag)


# ------------------------------------------------------------------ property-based

def _no_traceback(result):
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert len(result.stderr.splitlines()) == 1


CARDISH = st.text(alphabet="AaTtKkQqJj9810 ,♠♣♥♦SCHDschd-", max_size=80)


@settings(max_examples=60)
@given(st.one_of(st.text(max_size=60), CARDISH))
def test_cli_melds_random_hand_text_never_tracebacks(text):
    _no_traceback(run("melds", text))


@settings(max_examples=40)
@given(st.text(max_size=12))
def test_cli_melds_random_trump_never_tracebacks(text):
    _no_traceback(run("melds", STRONG, "--trump", text))


@settings(max_examples=40)
@given(st.lists(st.text(max_size=12), min_size=1, max_size=3))
def test_cli_random_arguments_never_traceback(args):
    if args[0] in cli.list_commands(None) or args[0].startswith("-"):
        args = ["x" + args[0]] + args[1:]    # random text, never a real command
    _no_traceback(run(*args))
