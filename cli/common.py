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


def _rules_callback(ctx, param, value) -> RuleSet:
    try:
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
        help="Rules variant: binokel-48, grupp-3, grupp-4, binokel-40 (see `binokel rules`).",
    )(f)


def echo_json(obj) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


def example_epilog(*lines: str) -> str:
    r"""A help epilog 'Example:' block; ``\b`` keeps click from rewrapping it."""
    return "\b\nExample:\n" + "\n".join("  " + line for line in lines)
