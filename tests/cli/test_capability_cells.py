"""Every cell of the capability matrix is run (issue 24: "a test runs every cell of it").

``cli.capabilities`` derives the README matrix from the commands' options and the
library's own checks.  This file runs what each cell claims, with the smallest input
that exercises the command for that game:

- a cell marked "works" runs the command with ``--rules NAME`` (where it has the option)
  and must exit 0 and answer for that game (the JSON names the game, or the output does);
- where a "works" cell has no "heuristic play only" note and the command has ``--play``,
  ``--play pimc`` is run as well;
- a cell marked "not available" must refuse cleanly: exit 2, no traceback;
- a cell marked "n/a" (the game lacks what the command is about, e.g. an auction) must
  refuse cleanly too, and the line must say what the game lacks.

The page (``serve``) is run by tests/web/test_capability_cells_page.py (it needs the
server fixture).  ``warmup`` warms every game at once (tests/cli/test_warmup.py runs it
whole); its cell is checked here against the stages it runs.
Inputs are tiny (a few samples, a few deals): this pins that every path runs, not what it
answers; the answers are pinned by tests/golden.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from cli.capabilities import NA, NO, STOCK_PLAY_NOTE, YES, capabilities, games
from tests.cli.test_cli import run

CAPS = capabilities()
GAMES = {r.name: r for r in games()}


def a_hand(rules, seed: int = 0) -> str:
    """A random hand of the game's size, written with the game's low card (R1, V1-V6)."""
    from analyzer.mechanics.cards import card_code
    from analyzer.mechanics.ruleset import get_game
    from analyzer.mechanics.sampling import new_deck

    deck = new_deck(rules) // 2                    # physical card -> type
    rng = np.random.default_rng(seed)
    size = get_game(rules.name).table.hand_size
    low = get_game(rules.name).deck.low_card or "9"
    return " ".join(card_code(int(t), low) for t in sorted(rng.permutation(deck)[:size]))


def _stock(name: str) -> bool:
    """A game with a stock (V7): a deal costs ~0.1-0.2 s, so its cells run a few deals."""
    from cli.common import has_stock

    return has_stock(GAMES[name])


def _simulate_then_report(tmp_path, name, what):
    out = tmp_path / "run"
    res = run("simulate", "-n", "3" if _stock(name) else "200", "--out", str(out), "--what",
              what, "--rules", name, "-j", "1", "-q")
    if res.exit_code != 0:
        return res
    return run("report", str(out), "--out", str(tmp_path / "report"), "--rules", name)


#: the smallest runs of the commands whose options differ for a game with a stock (V7):
#: two card-play policies instead of bidding agents or a soloist's configs
STOCK_INVOCATIONS = {
    "bench": ["bench", "-w", "B2R", "--deals", "20", "--repeats", "1", "--no-baseline",
              "--json"],
    "duplicate": ["duplicate", "--deals", "2", "--policy", "heuristic", "--against", "random",
                  "--json"],
    "tournament": ["tournament", "--agents", "heuristic,random", "-g", "2", "-j", "1",
                   "--json"],
    "solve": ["solve", "--seed", "1", "--tricks-left", "3", "--json"],   # the endgame, V7.4
}


def invocation(command: str, name: str, tmp_path) -> list[str] | None:
    """The smallest ``binokel`` argument list that runs ``command`` for game ``name``
    (``None``: the command is run elsewhere, see the module docstring)."""
    from cli.common import has_stock

    if has_stock(GAMES[name]) and command in STOCK_INVOCATIONS:   # V7: policies, no auction
        return STOCK_INVOCATIONS[command]
    hand = a_hand(GAMES[name])
    record = _record(tmp_path, name) if command in ("hint", "review") else ""
    return {
        "advise": ["advise", hand, "-n", "30", "--json"],
        "analyze": ["analyze", hand, "--json"] + (["-n", "2", "--deals", "2"] if _stock(name)
                                                   else ["-n", "30"]),
        "bench": ["bench", "-w", "W2", "--deals", "20", "--repeats", "1", "--no-baseline",
                  "--json"],
        "duplicate": ["duplicate", "--deals", "2", "--config", "defenders", "--policy",
                      "pimc", "--samples", "2", "--horizon", "2", "--json"],
        "fit-defence": ["fit-defence", "--deals", "4", "--iterations", "1", "--json"],
        "fit-opponents": ["fit-opponents", "--hands", "20", "--samples", "10", "--holdout", "0",
                          "--out", str(tmp_path / "fit.json"), "-j", "1", "--json"],
        "melds": ["melds", hand, "--json"],
        "play": ["play", "--seed", "1", "--json"],
        "rules": ["rules", name],
        "solve": ["solve", "--seed", "1", "--tricks-left", "3", "--trump", "S", "--json"],
        "tournament": ["tournament", "-g", "2", "--samples", "20", "-j", "1", "--json"],
        "hint": ["hint", "--record", record, "--trick", "3", "-n", "4", "--json"],
        "review": ["review", record, "-n", "2", "--dd-max-tricks", "0", "--json"],
    }.get(command)


def _record(tmp_path, name: str) -> str:
    """A deal record of game ``name`` (``binokel play --record``): the input of ``hint``
    and ``review``, which read the game from it."""
    from analyzer.mechanics.record import format_records, in_play_seats
    from analyzer.search.record_play import play_record
    from analyzer.mechanics.ruleset import get_game

    from analyzer.errors import BinokelError

    path = tmp_path / "deal.txt"
    game = get_game(name)
    if game.stock.size:             # a stock (V7): the first two tricks of a played deal
        from analyzer.mechanics.stock_record import StockRecord
        from analyzer.search.stock_registry import record_deal

        rec = record_deal(game, 1)
        cut = rec.moves[:4]             # trick, meld decision, trick, meld decision
        path.write_text(format_records([StockRecord(rules=game, seats=rec.seats,
                                                    hands=rec.hands, turned=rec.turned,
                                                    stock=rec.stock, moves=tuple(cut))]))
        return str(path)
    try:
        path.write_text(format_records([play_record(name, seed=1, trump=0,
                                                    soloist=in_play_seats(game)[1])]))
    except BinokelError as exc:     # play --record refuses the game
        pytest.fail(f"no record of {name}: {exc}")
    return str(path)


CELLS = [(cmd, name) for cmd, row in CAPS.items() for name in row if cmd != "serve"]


def _warmup_covers(name: str) -> bool:
    """Whether ``binokel warmup`` compiles the kernels of game ``name`` (its stages)."""
    from cli.warmup_cmd import stages

    return any(f"--rules {name}" in stage for stage, _ in stages("/tmp/x"))


@pytest.mark.parametrize("command,name", CELLS, ids=[f"{c}-{n}" for c, n in CELLS])
def test_capability_cell_does_what_the_matrix_says(command, name, tmp_path):
    cell = CAPS[command][name]
    if command == "warmup":
        assert (cell.mark == YES) == _warmup_covers(name)
        return
    if command in ("report", "simulate") and cell.mark == NO:   # e.g. a stock game (V7)
        res = run("simulate", "-n", "20", "--out", str(tmp_path / "run"), "--rules", name, "-q")
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        return
    if command in ("report", "simulate"):
        what = "melds" if CAPS["simulate"][name].note == "" else "deals"
        res = _simulate_then_report(tmp_path, name, what)
        assert res.exit_code == 0, res.output
        return
    args = invocation(command, name, tmp_path)
    if args is None:
        pytest.fail(f"no invocation for {command}: add one to invocation()")
    from cli.main import load_all_commands

    has_rules = any("--rules" in p.opts for p in load_all_commands()[command].params
                    if hasattr(p, "opts"))
    if command != "rules" and (has_rules or cell.mark in (NO, NA)):
        args = args + ["--rules", name]
    res = run(*args)
    if cell.mark == NA:     # the game lacks what the command is about: said, exit 2
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        assert cell.note.split(" (")[0] in res.output, res.output
        return
    if cell.mark == NO:
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        return
    assert cell.mark == YES
    assert res.exit_code == 0, res.output
    if "--json" in args:
        start = res.stdout.index("{") if "{" in res.stdout else 0
        d = json.loads(res.stdout[start:])
        if isinstance(d, dict) and "rules" in d:
            assert d["rules"] == name
    opts = {o for p in load_all_commands()[command].params for o in getattr(p, "opts", ())}
    if ("heuristic play only" not in cell.note and STOCK_PLAY_NOTE not in cell.note
            and "--play" in opts):
        res = run(*args, "--play", "pimc")
        assert res.exit_code == 0, res.output
