"""Shared CLI plumbing: one-line errors, hand arguments, JSON output."""
from __future__ import annotations

import json
import sys

import click

from analyzer import BinokelError, Hand
from analyzer.mechanics.rules import DEFAULT_RULES, RuleSet, get_rules


class BadInput(click.ClickException):
    """A one-line error (exit 2) raised by commands for invalid input."""

    exit_code = 2


class NotApplicable(BadInput):
    """A game that lacks what a command is about (e.g. ``advise`` for a game with no
    auction): one line, exit 2, like any bad input; ``reason`` is the short why that the
    capability matrix prints ("n/a")."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


class Interrupted(Exception):
    """Ctrl-C with something to say (what was saved): printed as the one line
    ``binokel: interrupted: MESSAGE``, exit status 130."""


def fail(message: str) -> "None":
    raise BadInput(message)


def parse_hand(text: str, size: int | None = None, what: str = "hand",
               rules: RuleSet | None = None) -> Hand:
    """Parse a hand argument; bad input becomes a one-line CLI error.

    ``rules``: the variant whose deck the cards come from; the size error names it.
    """
    try:
        hand = Hand.parse(text, rules=rules)
    except BinokelError as exc:
        raise BadInput(f"{what}: {exc}") from None
    if size is not None and len(hand) != size:
        where = f" in {rules.name}" if rules is not None else ""
        raise BadInput(f"{what}: must have {size} cards{where}, got {len(hand)}")
    return hand


def console_width() -> dict:
    """rich Console arguments: the terminal's width on a terminal; piped into a file or
    another program, wide enough that no table wraps (rich would assume 80 columns)."""
    if sys.stdout.isatty():
        return {}
    return {"width": 240}


def json_safe(obj):
    """``obj`` with every NaN or infinite float replaced by None (JSON has no NaN)."""
    import math

    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item) and getattr(obj, "ndim", 1) == 0:
        return json_safe(obj.item())  # numpy scalars
    return obj


def _rules_callback(ctx, param, value) -> RuleSet:
    from analyzer.mechanics.ruleset import get_game

    try:
        game = get_game(value)
        if game.auction.form == "none":
            # rules_option's commands (advise, fit-opponents, fit-defence) are about the
            # auction and the contract it makes; the game has neither
            what = ctx.info_name if ctx is not None else "this command"
            section = game.section.split(", ")[-1]
            raise NotApplicable(
                f"--rules: {game.name} has no auction ({section}): `{what}` is about bids "
                "and contracts; for card play see `binokel hint`, for a hand's value "
                f"`binokel analyze --rules {game.name}`",
                f"no auction ({section}): no bid, no contract")
        return get_rules(value)
    except BinokelError as exc:
        raise BadInput(f"--rules: {exc}") from None


def rules_option(f):
    """``--rules NAME``: the variant (a RuleSet from the registry) passed as ``rules``.

    One stacked decorator shared by every command; an unknown name is a one-line error
    listing the registered names (exit 2).
    """
    return click.option(
        "--rules", "rules", default=DEFAULT_RULES.name, show_default=True,
        callback=_rules_callback, metavar="NAME",
        help="Rules variant, e.g. binokel-48, grupp-3, grupp-4, binokel-40 (all: `binokel rules`).",
    )(f)


def _rules_or_stock_callback(ctx, param, value):
    from analyzer.mechanics.ruleset import get_game

    try:
        game = get_game(value)
        return game if game.stock.size else get_rules(value)
    except BinokelError as exc:
        raise BadInput(f"--rules: {exc}") from None


def rules_option_with_stock(f):
    """``--rules NAME`` for a command that also plays games with a stock (V7): such a game
    arrives as its nested RuleSet (:func:`has_stock`), every other as ``rules_option``'s."""
    return click.option(
        "--rules", "rules", default=DEFAULT_RULES.name, show_default=True,
        callback=_rules_or_stock_callback, metavar="NAME",
        help="Rules variant, e.g. binokel-48, grupp-3, binokel-40, binokel-2 (all: `binokel rules`).",
    )(f)


def record_rules(ctx, param, value):
    """``--rules`` of a command that reads a deal record: None (the record's Game line
    decides) or the named game's RuleSet (one line on an unknown name)."""
    if value is None:
        return None
    from analyzer.mechanics.ruleset import get_game

    try:
        return get_game(value)
    except BinokelError as exc:
        raise BadInput(f"--rules: {exc}") from None


def check_record_rules(deal, rules) -> None:
    """One line when ``--rules`` names another game than the record's ``Game`` line."""
    if rules is not None and rules.name != deal.rules.name:
        raise BadInput(f"--rules {rules.name}: the record's deal is of {deal.rules.name} "
                       "(its Game line)")


def has_stock(rules) -> bool:
    """True for a game with a stock (V7): its commands run on analyzer.mechanics.stock_*."""
    stock = getattr(rules, "stock", None)
    return bool(stock is not None and stock.size)


def echo_json(obj) -> None:
    """Print ``obj`` as strict JSON (NaN -> null)."""
    click.echo(json.dumps(json_safe(obj), indent=2, ensure_ascii=False, allow_nan=False))


def example_epilog(*lines: str) -> str:
    r"""A help epilog 'Example:' block; ``\b`` keeps click from rewrapping it."""
    return "\b\nExample:\n" + "\n".join("  " + line for line in lines)


class BoundedInt(click.ParamType):
    """A whole number within an :class:`analyzer.bounds.Bound`: the limit the web API's
    schemas use too, refused in the same words ("must be at most 50,000 (...)").
    Underscores group digits (10_000); a boolean, a fraction or text is refused."""

    name = "integer"

    def __init__(self, bound):
        self.bound = bound

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            v = value
        else:
            text = str(value).strip()
            try:
                v = int(text.replace("_", "")) if text[:1] != "_" else int("x")
            except ValueError:
                self.fail(f"{text[:40]!r} is not a whole number", param, ctx)
        problem = self.bound.problem(v)
        if problem is not None:
            self.fail(problem, param, ctx)
        return v

    def get_metavar(self, param, ctx=None):
        return "INTEGER"


def bounded(bound) -> BoundedInt:
    """The click type of an option bounded by ``bound`` (one of analyzer.bounds)."""
    return BoundedInt(bound)


# --- shared options: one line per command (``@jobs_option()``, ``@cards_option``) --------

def _check_jobs(ctx, param, value):
    from analyzer.parallel import resolve_jobs
    try:
        resolve_jobs(value)
    except BinokelError as exc:
        raise click.BadParameter(str(exc).replace("--jobs must", "must"), ctx, param) from None
    return value


def jobs_option(default: int = 1, workers: str = "Worker processes"):
    """``--jobs/-j N``, the same in every command: 1 = this process, -1 = all cores, at
    most the cores available (analyzer.parallel.resolve_jobs); never more workers than
    chunks of work; the numbers never depend on it.  ``workers`` names what runs them
    (threads for the bid advice's short kernels)."""
    return click.option(
        "--jobs", "-j", default=default, show_default=True, type=int, callback=_check_jobs,
        help=f"{workers}: 1 = this process, -1 = all cores (at most the cores "
             "available; never more than chunks of work). Never changes the numbers.")


#: ``--cards`` spellings that name another notation: fr = the French-suited A♠ cards = en.
NOTATION_ALIASES = {"fr": "en"}
NOTATION_ALIASES_TUPLE = tuple(NOTATION_ALIASES)


def cards_option(f):
    """``--cards en|de``: print cards as A♠ (en) or with German names (de: Schippen-Ass,
    Eichel/Schippen/Herz/Schellen, Ass Zehn König Ober Unter Neun, the Tapp as "Dabb").
    ``fr`` is accepted for ``en``: the A♠ cards are the French-suited pack, and the web
    page offers them as "French suits"; one spelling would refuse what the page shows.
    Input accepts both notations always."""
    import functools

    from analyzer.mechanics.cards import NOTATIONS, card_notation

    @click.option("--cards", "card_names", type=click.Choice(NOTATIONS + NOTATION_ALIASES_TUPLE),
                  default="en", show_default=True,
                  help="Card names on output: en (A♠ 10♥; French suits, also 'fr') or de "
                       "(Schippen-Ass, Herz-Zehn; Tapp = Dabb).")
    @functools.wraps(f)
    def wrapper(*args, card_names="en", **kwargs):
        with card_notation(NOTATION_ALIASES.get(card_names, card_names)):
            return f(*args, **kwargs)

    return wrapper


def play_option(f):
    """``--play heuristic|pimc|pimc-defence``: how the deals are played after the exchange
    (analyzer.search.pimc.play_contract).  pimc: PIMC at every seat; pimc-defence: PIMC
    defenders against the heuristic soloist (strong defence).  Only the card play
    differs; a PIMC play-out costs ~3-4 ms of CPU against ~3 us, so commands lower their
    default samples."""
    from analyzer.search.pimc import PLAY_NAMES

    return click.option(
        "--play", "play", type=click.Choice(list(PLAY_NAMES)), default="heuristic",
        show_default=True,
        help="Card play after the exchange: heuristic at every seat; pimc = PIMC (sampled "
             "worlds + exact search of the last tricks) at every seat; pimc-defence = PIMC "
             "defenders, heuristic soloist. PIMC costs ~3-4 ms a deal (heuristic ~3 us); "
             "its default --samples is lower.")(f)
