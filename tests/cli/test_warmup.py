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

from analyzer.mechanics.rules import VARIANTS
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


def test_warmup_stages_cover_every_game_and_every_play():
    names = [name for name, _ in stages("/tmp/x")]
    for game in VARIANTS:
        for command in ("melds", "play", "advise", "analyze", "simulate", "tournament"):
            assert f"{command} --rules {game}" in names
    for play in PLAY_NAMES:
        if play != "heuristic":
            assert f"advise --play {play}" in names and f"analyze --play {play}" in names
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
