"""Shared CLI plumbing (cli/common.py, cli/main.py): ``--jobs`` and ``--cards`` mean the
same in every command, strict JSON, full-width tables when piped, bare ``binokel`` helps,
and input that used to be ignored or accepted is refused in one line."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyzer.parallel import available_cores
from cli.main import cli

JOB_COMMANDS = {
    "advise": ["advise", "--example", "weak", "-n", "20"],
    "analyze": ["analyze", "--example", "weak", "-n", "20"],
    "tournament": ["tournament", "--groups", "2", "--samples", "5", "--agents", "rule,rule"],
    "simulate": ["simulate", "-n", "10", "--out", "{tmp}/run", "-q"],
    # --jobs of duplicate runs the stock game's match (V7); the other games' is one process
    "duplicate": ["duplicate", "--rules", "binokel-2", "--policy", "heuristic", "--against",
                  "random", "--deals", "2"],
}


def _run(args, **kw):
    return CliRunner().invoke(cli, args, **kw)


def _one_line_error(r, fragment):
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("binokel: error:"), r.output
    assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("name", sorted(JOB_COMMANDS))
@pytest.mark.parametrize("jobs", ["0", "-2", str(available_cores() + 1), "100000"])
def test_jobs_out_of_range_is_the_same_one_line_error_everywhere(name, jobs, tmp_path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in JOB_COMMANDS[name]]
    _one_line_error(_run(args + ["--jobs", jobs]), "must be -1 (all cores) or 1..")


@pytest.mark.parametrize("name", sorted(JOB_COMMANDS))
def test_jobs_minus_one_is_accepted_by_every_command(name, tmp_path):
    """-1 = all cores used to work only in simulate; with one chunk no worker starts."""
    args = [a.replace("{tmp}", str(tmp_path)) for a in JOB_COMMANDS[name]]
    r = _run(args + ["--jobs", "-1"])
    assert r.exit_code == 0, r.output


def test_bare_binokel_prints_the_help():
    r = _run([])
    assert r.exit_code == 0
    assert "Usage:" in r.output and "Commands:" in r.output and "advise" in r.output
    assert len(r.output.splitlines()) > 10


def test_piped_tables_are_not_wrapped_at_80_columns():
    """CliRunner's stdout is no terminal: rich used to wrap each table at 80 columns."""
    r = _run(["analyze", "--example", "strong_spades", "-n", "50"])
    assert r.exit_code == 0
    header = [line for line in r.output.splitlines() if "mean total" in line]
    assert header and "P(all tricks)" in header[0]


@pytest.mark.parametrize("args, words", [
    (["melds", "--example", "strong_spades"], ["Schippen: Ass Ass Zehn König Ober Unter Neun",
                                               "trump family Schippen 150"]),
    (["play", "--seed", "7", "--trump", "S"], ["Dabb", "Schippen-"]),
    (["advise", "--example", "strong_spades", "-n", "20"], ["Herz: König Ober"]),
    (["analyze", "--example", "strong_spades", "-n", "50"], ["Dabb"]),
])
def test_cards_de_prints_german_card_names(args, words):
    r = _run(args + ["--cards", "de"])
    assert r.exit_code == 0, r.output
    for w in words:
        assert w in r.output
    assert "♠" not in r.output.split("\n", 1)[0]
    en = _run(args)
    assert "Schippen" not in en.output and "Dabb" not in en.output


def test_cards_option_rejects_other_languages():
    # "fr" is the French-suited pack, an alias of "en" (issue 25); any other word is refused
    _one_line_error(_run(["melds", "--example", "weak", "--cards", "it"]), "--cards")


@pytest.mark.parametrize("args, fragment", [
    (["melds", "--example", "weak", "--trump", ""], "--trump: unknown suit ''"),
    (["play", "--trump", ""], "--trump: unknown suit ''"),
    (["analyze", "--example", "weak", "--tapp", ""], "--tapp is empty"),
    (["analyze", "--example", "weak", "--seat", ""], "--seat is empty"),
    (["advise", "--example", "weak", "--seat", ""], "--seat is empty"),
    (["tournament", "--trick-estimate", "-100"], "--trick-estimate"),
    (["tournament", "--trick-estimate", "100000"], "--trick-estimate"),
    (["analyze", "--example", "weak", "--plot", "x.txt"], "name it .png, .svg or .pdf"),
    (["analyze", "--example", "weak", "--plot", "plotfile"], "name it .png, .svg or .pdf"),
])
def test_empty_or_out_of_range_options_are_refused_in_one_line(args, fragment):
    _one_line_error(_run(args), fragment)


def test_json_output_is_strict_json_without_nan():
    """analyze --json printed NaN (mean meld of a trump never chosen), which is not JSON."""
    r = _run(["analyze", "--example", "weak", "-n", "40", "--json"])
    assert r.exit_code == 0
    assert "NaN" not in r.output
    json.loads(r.output, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))


@pytest.mark.parametrize("suffix, magic", [(".pdf", b"%PDF"), (".svg", b"<?xml"),
                                           (".png", b"\x89PNG")])
def test_plot_follows_the_file_extension(suffix, magic, tmp_path):
    path = tmp_path / f"hand{suffix}"
    r = _run(["analyze", "--example", "weak", "-n", "40", "--plot", str(path)])
    assert r.exit_code == 0, r.output
    assert path.read_bytes().startswith(magic)


SEED_COMMANDS = [("play",), ("bench", "-w", "W1"), ("tournament", "--groups", "2"),
                 ("advise", "--example", "average"), ("analyze", "--example", "average"),
                 ("simulate", "-n", "10", "--out", "unused-run-folder"), ("solve",),
                 ("duplicate",), ("fit-defence",), ("fit-opponents",)]


@pytest.mark.parametrize("args", SEED_COMMANDS, ids=lambda a: a[0])
def test_every_seed_option_has_the_apis_bound(args):
    """issue 25: --seed 99999999999999999999999 was accepted (the API caps at 2^63-1)."""
    from analyzer.bounds import SEED

    r = _run([*args, "--seed", "99999999999999999999999"])
    _one_line_error(r, f"must be at most {SEED.hi:,} (seeds are 64-bit integers), got "
                       "99,999,999,999,999,999,999,999")


@pytest.mark.parametrize("args,fragment", [
    (["advise", "--example", "weak", "-n", "50001"], "must be at most 50,000"),
    (["analyze", "--example", "weak", "-n", "999999999999"], "must be at most 1,000,000"),
    (["analyze", "--example", "weak", "--bid", "3010"], "must be at most 3,000"),
    (["tournament", "--groups", "100001"], "must be at most 100,000"),
    (["tournament", "--samples", "0"], "must be at least 1, got 0"),
    (["simulate", "-n", "10", "--out", "unused-run-folder", "--chunk-size", "0"], "must be at least 1"),
    (["advise", "--example", "weak", "-n", "true"], "'true' is not a whole number"),
    (["advise", "--example", "weak", "-n", "1.5"], "'1.5' is not a whole number"),
])
def test_samples_bids_groups_and_chunks_share_the_bounds_table(args, fragment):
    """Each count option reads analyzer.bounds (as the API's schemas do); analyze -n
    999999999999 was a MemoryError traceback."""
    _one_line_error(_run(args), fragment)
