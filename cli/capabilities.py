"""Which command works for which game: the capability matrix of README and the guide.

Nothing here names a game.  The games are the rules registry's (``VARIANTS``, every
registered RuleSet); the commands are the ``binokel`` group's (every ``cli/*_cmd.py``).
Each cell asks the command and the library what they accept, by the same checks the
command runs on real input:

- a command with a ``--rules`` option accepts every registered game (its callback is the
  registry's ``get_rules``); a command without
  one works on the default game only (``DEFAULT_RULES``), unless it has a probe below;
- a command with a ``--play`` option is asked, through ``resolve_play`` (the check its
  callback runs), whether the game can be played by PIMC; where it cannot, the cell says
  "heuristic play only"; a game with a stock (``common.has_stock``) is played by its own
  policies named as the agents, and its cell says so (``STOCK_PLAY_NOTE``);
- ``PROBES`` holds the few checks that live outside a command's options, each calling
  the library's or the page's own validator: the page (``serve``) asks ``web.params``
  which games it serves (and ``web.stock_table`` which games with a stock its table deals), ``simulate`` asks ``RunSpec`` whether the meld census runs for
  the game, ``rules`` asks the registry, ``warmup`` asks its own stages, ``hint`` and
  ``review`` ask ``analyzer.analyses.hint`` (a game with a stock:
  ``analyzer.analyses.stock_hint``; the game comes from the deal record).

``capabilities()`` returns the cells; ``markdown()`` the README table;
``python -m cli.capabilities`` prints it.  tests/cli/test_capabilities.py fails when
README's copy is out of date (regenerate: ``python -m docs.examples --update``).
"""
from __future__ import annotations

from dataclasses import dataclass

#: the cell marks of the table: works, not available, does not apply to the game (it
#: lacks what the command is about, e.g. an auction: ``common.NotApplicable``)
YES, NO, NA = "yes", "no", "n/a"


@dataclass(frozen=True)
class Cell:
    """One command for one game: ``mark`` is YES or NO; ``note`` qualifies a YES (a
    footnote of the table, e.g. "heuristic play only"), or says why NO."""

    mark: str
    note: str = ""


def _refusal(check, rules) -> str:
    """The one-line error ``check(rules)`` raises for the game, "" when it accepts it."""
    from analyzer.errors import BinokelError

    try:
        check(rules)
    except BinokelError as exc:
        return str(exc)
    return ""


def _page_serves(rules) -> Cell:
    """``serve``: the games the page serves (``web.params.page_rule_names``, the list its
    ``rules=NAME`` check answers with; any other game is HTTP 400), and the games with a
    stock that the table for two deals (``web.stock_table.serves``: its ``rules=NAME``
    check, V7) and whether the replay view steps its records (``web.replay.replays``)."""
    from web.params import page_rule_names
    from web.replay import replays
    from web.stock_table import serves

    if rules.name in page_rule_names():
        return Cell(YES)
    if serves(rules):
        return Cell(YES, TABLE_NOTE + (REPLAY_NOTE if replays(rules) else ""))
    return Cell(NO, "the page does not serve it yet (use the command line)")


#: the note of a game the page serves as the table for two only (no bid advice)
TABLE_NOTE = "the table for two (/table): a deal against the program, with hints"
#: added to it where the replay view (/replay) steps the game's deal records too
REPLAY_NOTE = "; the replay (/replay) of its deal records, with values and other lines"


def _simulate(rules) -> Cell:
    """``simulate``: played deals always; the meld census where ``RunSpec`` allows it."""
    from analyzer.batch.runs import RunSpec

    why = _refusal(lambda r: RunSpec(what="melds", n=1, seed=0, chunk_size=1, rules=r), rules)
    return Cell(YES, "played deals only (no meld census)" if why else "")


def _registry(rules) -> Cell:
    """``rules NAME``: the registry itself."""
    from analyzer.mechanics.rules import VARIANTS
    from analyzer.mechanics.ruleset import GAMES

    return Cell(YES if VARIANTS.get(rules.name, GAMES.get(rules.name)) is rules else NO)


def _fit_defence(rules) -> Cell:
    """``fit-defence``: the library's own check (``fit_defence.check_rules``: a defence
    with weights to fit at the game's table, against a lone soloist or the bidder's side
    of two partners)."""
    from analyzer.analyses.fit_defence import check_rules

    why = _refusal(check_rules, rules)
    return Cell(NO, why) if why else Cell(YES)


def _warmup(rules) -> Cell:
    """``warmup``: it warms every game its stages name (all at once, or one with --rules)."""
    from .warmup_cmd import stages

    covered = any(f"--rules {rules.name}" in stage for stage, _ in stages("/tmp/x"))
    return Cell(YES) if covered else Cell(NO, "warmup does not compile its kernels")


def _hint(rules) -> Cell:
    """``hint`` and ``review``: the game comes from the record; a game with a stock is
    valued by ``analyzer.analyses.stock_hint`` (V7), any other as
    ``analyzer.analyses.hint.supported`` says (whether its PIMC and solver exist)."""
    from analyzer.analyses.hint import supported
    from analyzer.mechanics.ruleset import get_game

    from .common import has_stock

    if has_stock(rules):
        return Cell(YES)

    why = _refusal(lambda r: supported(get_game(r.name)), rules)
    return Cell(NO, why) if why else Cell(YES)


#: checks that are not an option of the command (keyed by command name, never by game)
def _solve(rules) -> Cell:
    """``solve``: double-dummy values of any auction game; a game with a stock
    (``common.has_stock``) has perfect information only once the stock is gone, so its
    solve is that endgame (analyzer.analyses.stock_endgame, V7.4)."""
    from .common import has_stock

    return Cell(YES, "the exact endgame once the stock is gone (V7.4)") if has_stock(rules) \
        else Cell(YES)


PROBES = {"serve": _page_serves, "solve": _solve, "simulate": _simulate, "rules": _registry, "warmup": _warmup,
          "hint": _hint, "review": _hint, "fit-defence": _fit_defence}


def games() -> list:
    """Every registered game (RuleSet), in the registry's order (importing ``analyzer``
    registers every game)."""
    import analyzer  # noqa: F401
    from analyzer.mechanics.rules import VARIANTS
    from analyzer.mechanics.ruleset import GAMES

    # a game without a flat view (a stock, V7) as its nested RuleSet
    return [VARIANTS.get(n, g) for n, g in GAMES.items()]


def _options(command) -> dict:
    """{"--rules": param, ...}: the command's options by their long names."""
    return {o: p for p in command.params for o in getattr(p, "opts", ()) if o.startswith("--")}


#: the note of a command whose --play does not apply to a game with a stock (V7)
STOCK_PLAY_NOTE = "the game's card-play policies as the agents (no --play)"


def _cell(name: str, command, rules) -> Cell:
    from analyzer.mechanics.rules import DEFAULT_RULES

    from .common import has_stock
    from analyzer.search.pimc import PLAY_NAMES, resolve_play

    opts = _options(command)
    if "--rules" in opts:   # the option's own check: a game the command refuses is a NO
        from click import ClickException

        from analyzer.errors import BinokelError
        from analyzer.mechanics.rules import get_rules

        from .common import NotApplicable

        param = opts["--rules"]
        check = param.callback or (lambda ctx, p, v: get_rules(v))   # a plain name: get_rules
        try:
            check(None, param, rules.name)
        except NotApplicable as exc:
            return Cell(NA, exc.reason)
        except ClickException as exc:
            return Cell(NO, exc.format_message())
        except BinokelError as exc:
            return Cell(NO, str(exc))
    if name in PROBES:
        cell = PROBES[name](rules)
    elif "--rules" in opts:
        cell = Cell(YES)
    else:
        cell = Cell(YES if rules.name == DEFAULT_RULES.name else NO,
                    "" if rules.name == DEFAULT_RULES.name else f"{DEFAULT_RULES.name} only")
    if cell.mark == YES and "--play" in opts and has_stock(rules):
        # a game with a stock (V7) is played by its own card-play policies, named as the
        # command's agents or policies; --play (the three- and four-hand play modes) is refused
        return Cell(YES, "; ".join(x for x in (cell.note, STOCK_PLAY_NOTE) if x))
    if cell.mark == YES and "--play" in opts:
        strong = [p for p in PLAY_NAMES if p in opts["--play"].type.choices and p != "heuristic"]
        if strong and all(_refusal(lambda r, p=p: resolve_play(p, r), rules) for p in strong):
            cell = Cell(YES, "; ".join(x for x in (cell.note, "heuristic play only") if x))
    return cell


def capabilities() -> dict:
    """{command name: {game name: Cell}} for every ``binokel`` command and every game.

    Hidden commands and ``warmup``-like helpers are included as they are: the table is
    what the group offers."""
    from .main import load_all_commands

    out = {}
    for name, command in sorted(load_all_commands().items()):
        if command is None or getattr(command, "hidden", False):
            continue
        out[name] = {r.name: _cell(name, command, r) for r in games()}
    return out


def markdown(caps: dict | None = None, link_prefix: str = "docs/reference/cli.md") -> str:
    """The matrix as a Markdown table (commands down, games across) with numbered notes;
    each command links to its entry in the CLI reference at ``link_prefix``."""
    caps = capabilities() if caps is None else caps
    names = [r.name for r in games()]
    notes: list[str] = []
    lines = ["| command | " + " | ".join(f"`{n}`" for n in names) + " |",
             "|---|" + "---|" * len(names)]
    for cmd, row in caps.items():
        cells = []
        for n in names:
            c = row[n]
            mark = {YES: "✓", NA: "n/a"}.get(c.mark, "–")
            if c.note and c.mark in (YES, NA):
                if c.note not in notes:
                    notes.append(c.note)
                mark += f" {notes.index(c.note) + 1}"
            cells.append(mark)
        lines.append(f"| [`{cmd}`]({link_prefix}#binokel-{cmd}) | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("✓ works, – not available, n/a does not apply to the game. " + " ".join(
        f"{i + 1}: {note}." for i, note in enumerate(notes)))
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
