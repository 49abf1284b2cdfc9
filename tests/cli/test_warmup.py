"""``binokel warmup`` (cli/warmup_cmd.py): every command's kernels for every game and every
``--play`` compiled (or loaded) in one go, with a line per stage saying how many kernel
signatures numba compiled and loaded; afterwards a command of each kind compiles nothing
(numba's own cache counters, analyzer._jit.compile_counts; no timing is asserted)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from analyzer.mechanics.rules import DEFAULT_RULES, VARIANTS
from analyzer.mechanics.ruleset import get_game
from analyzer.search.pimc import PLAY_NAMES
from cli.main import cli
from cli.warmup_cmd import sample_hand, stages

ROOT = Path(__file__).resolve().parents[2]

# one command of each kind, with other sizes than warmup's stages: the argument types of
# the kernels must not depend on them
KINDS = {
    "advise": ["advise", "--example", "strong_spades", "-n", "40"],
    "advise --rules kreuz-48": ["advise", "--rules", "kreuz-48",
                                "AS AS 10S KS QS JS AC AH AD 10C KH", "--seat", "2",
                                "--auction", "150 160 pass", "-n", "30"],
    "advise --rules pinochle-80": ["advise", "--rules", "pinochle-80", "--seat", "2",
                                   "--auction", "500 pass", "-n", "20",
                                   "AH 10H KH QH JH AH 10H KH QS JD AC AS 10C 10S 10D QC "
                                   "JC JS QD JH"],
    "advise --play pimc-defence": ["advise", "--example", "strong_spades", "--play",
                                   "pimc-defence", "-n", "3", "--jobs", "2"],
    "analyze": ["analyze", "--example", "strong_spades", "-n", "40"],
    "play": ["play", "--seed", "7"],
    "solve --position": ["solve", "--position", "N 0 0 AC,9H 10C,AH KC,QH -"],
    "simulate": ["simulate", "-n", "300", "--out", "{tmp}/run", "--jobs", "1", "--quiet"],
    "tournament": ["tournament", "--groups", "2", "--samples", "3"],
    "duplicate": ["duplicate", "--deals", "3", "--samples", "3"],
}

_CHILD = """
import json, sys, tempfile
from click.testing import CliRunner
from cli.main import cli
from analyzer._jit import compile_counts
kinds = json.loads(sys.argv[1])
out = {}
with tempfile.TemporaryDirectory() as tmp:
    for kind, args in kinds.items():
        before = compile_counts()
        r = CliRunner().invoke(cli, [a.replace("{tmp}", tmp) for a in args])
        after = compile_counts()
        out[kind] = [r.exit_code, after["compiled"] - before["compiled"],
                     after["loaded"] - before["loaded"], r.output[-300:]]
print(json.dumps(out))
"""


# a game with a stock (V7): one command of each of its kinds, other sizes and seeds than
# warmup's stock stages (the record is written by the first, read by the next)
STOCK_KINDS = {
    "play": ["play", "--rules", "binokel-2", "--seed", "7", "--record", "{tmp}/d.txt"],
    "hint (PIMC)": ["hint", "--record", "{tmp}/d.txt", "--trick", "3", "-n", "3"],
    "hint (exact)": ["hint", "--record", "{tmp}/d.txt", "--trick", "17", "--card", "2"],
    "duplicate pimc-fast": ["duplicate", "--rules", "binokel-2", "--deals", "2", "--policy",
                            "pimc-fast-3", "--against", "heuristic"],
}


def test_warmup_stages_cover_every_game_and_every_play():
    names = [name for name, _ in stages("/tmp/x")]
    for game in VARIANTS:
        for command in ("melds", "play", "advise", "analyze", "simulate", "tournament"):
            assert f"{command} --rules {game}" in names
    for play in PLAY_NAMES:
        if play != "heuristic":
            assert f"advise --play {play}" in names and f"analyze --play {play}" in names
            # every game has both PIMC modes, on its own kernels (worlds, team_play)
            for game in VARIANTS:
                if game != DEFAULT_RULES.name:
                    for command in ("advise", "analyze", "tournament"):
                        assert f"{command} --play {play} --rules {game}" in names
    assert {"solve --position", "solve (deal table, best discard)"} <= set(names)


def test_sample_hand_is_a_hand_of_the_game():
    from analyzer.mechanics.cards import Hand

    for rules in VARIANTS.values():
        assert len(Hand.parse(sample_hand(rules), rules=rules)) == rules.hand_size


def test_warmup_reports_what_it_compiled_and_afterwards_commands_compile_nothing():
    r = CliRunner().invoke(cli, ["warmup"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("compiling the numba kernels")
    per_stage = re.findall(r"compiled (\d+), loaded (\d+)", r.output)
    assert len(per_stage) == len(stages("/tmp/x"))
    assert "FAILED" not in r.output and "now loads its kernels from the cache" in r.output
    # a fresh process (nothing in memory) with the same cache folder: every kind of
    # command loads its kernels, none compiles
    got = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(KINDS)], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    res = json.loads(got.stdout.strip().splitlines()[-1])
    for kind, (status, compiled, loaded, tail) in res.items():
        assert status == 0, (kind, tail)
        assert compiled == 0, (kind, compiled)
    assert sum(loaded for _, _, loaded, _ in res.values()) > 0



def test_warmup_rules_warms_one_game_and_refuses_an_unknown_name_in_one_line():
    """``--rules NAME``: that game's stages only (the meld census of a partners table too);
    the default game's also the stages of the commands that run it alone."""
    from analyzer.mechanics.rules import DEFAULT_RULES, get_rules

    kreuz = [name for name, _ in stages("/tmp/x", game=get_rules("kreuz-48"))]
    assert kreuz and all(name.endswith("--rules kreuz-48") for name in kreuz)
    assert "simulate --what melds --rules kreuz-48" in kreuz
    default = [name for name, _ in stages("/tmp/x", game=DEFAULT_RULES)]
    assert "solve --position" in default and not any("grupp-3" in n for n in default)
    r = CliRunner().invoke(cli, ["warmup", "--rules", "kreuz-99"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "unknown rules 'kreuz-99'" in r.output


def test_a_game_with_a_stock_gets_its_own_stages_from_its_ruleset_V7():
    """The RuleSet says it has a stock (cli.common.has_stock): play (and its record), a
    hint while the stock lasts (PIMC) and after it (the exact solve, V7.4), a review and
    pimc-fast; in the full warmup too; the other games' stages run no stock game."""
    from analyzer.mechanics.ruleset import GAMES
    from cli.common import has_stock

    stock = [g for g in GAMES.values() if has_stock(g)]
    assert stock
    every = [name for name, _ in stages("/tmp/x")]
    for g in stock:
        mine = [name for name, _ in stages("/tmp/x", game=g)]
        assert all(name.endswith(f"--rules {g.name}") for name in mine)
        for kind in ("play", "hint (PIMC)", "hint (exact)", "review",
                     "duplicate --policy pimc-fast", "analyze", "simulate", "tournament"):
            assert f"{kind} --rules {g.name}" in mine and f"{kind} --rules {g.name}" in every
    flat = [name for name, _ in stages("/tmp/x", game=VARIANTS["binokel-48"])]
    assert not any(f"--rules {g.name}" in name for name in flat for g in stock)


def test_warmup_rules_binokel_2_counts_its_kernels_and_then_they_only_load_V7():
    """``warmup --rules binokel-2`` in a fresh process: every stage runs, the stages that
    play report the signatures they compiled or loaded (the stock kernels are counted);
    afterwards, in another fresh process, its commands compile nothing."""
    got = subprocess.run([sys.executable, "-m", "cli.main", "warmup", "--rules", "binokel-2"],
                         cwd=ROOT, capture_output=True, text=True)
    assert got.returncode == 0, got.stdout + got.stderr
    per_stage = {m[0]: (int(m[1]), int(m[2])) for m in re.findall(
        r"^  (.+?) +[\d.]+ s +[\d.]+ s  compiled (\d+), loaded (\d+)", got.stdout, re.M)}
    assert list(per_stage) == [name for name, _ in stages("/tmp/x", game=get_game("binokel-2"))]
    for stage in ("play --rules binokel-2", "hint (PIMC) --rules binokel-2",
                  "duplicate --policy pimc-fast --rules binokel-2"):
        assert sum(per_stage[stage]) > 0, (stage, got.stdout)
    assert "FAILED" not in got.stdout
    child = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(STOCK_KINDS)], cwd=ROOT,
                           capture_output=True, text=True, check=True)
    res = json.loads(child.stdout.strip().splitlines()[-1])
    for kind, (status, compiled, loaded, tail) in res.items():
        assert status == 0, (kind, tail)
        assert compiled == 0, (kind, compiled)
    assert res["play"][2] > 0 and res["duplicate pimc-fast"][2] > 0
