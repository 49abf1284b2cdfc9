"""Shared CLI plumbing: one-line errors, hand arguments, JSON output."""
from __future__ import annotations

import json
import sys

import click

from analyzer import BinokelError, Hand


class BadInput(click.ClickException):
    """A one-line error (exit 2) raised by commands for invalid input."""

    exit_code = 2


def fail(message: str) -> "None":
    raise BadInput(message)


def parse_hand(text: str, size: int | None = None, what: str = "hand") -> Hand:
    """Parse a hand argument; bad input becomes a one-line CLI error."""
    try:
        hand = Hand.parse(text)
    except BinokelError as exc:
        raise BadInput(f"{what}: {exc}") from None
    if size is not None and len(hand) != size:
        raise BadInput(f"{what}: must have {size} cards, got {len(hand)}")
    return hand


def echo_json(obj) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


def example_epilog(*lines: str) -> str:
    r"""A help epilog 'Example:' block; ``\b`` keeps click from rewrapping it."""
    return "\b\nExample:\n" + "\n".join("  " + line for line in lines)
