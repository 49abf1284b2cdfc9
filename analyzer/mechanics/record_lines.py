"""Line-level pieces of the deal record reader, shared by the auction games' records
(:mod:`analyzer.mechanics.record`) and the stock game's (:mod:`analyzer.mechanics.stock_record`):
the one-line error naming the line, and a seat written as its number or its name."""
from __future__ import annotations

from analyzer.errors import RecordError, clip_input


def fail(line: int, msg: str, where: str = "") -> "None":
    """Raise the record's one-line error: ``[where: ]line N: msg`` (msg names the rule)."""
    raise RecordError(f"{where}line {line}: {msg}")


def seat_index(tok: str, seats, line: int, where: str, rule: str) -> int:
    """The seat ``tok`` names, as its number (0 .. len(seats) - 1) or a name of the Seats
    line (case-insensitive); anything else fails citing ``rule`` (R2, V7)."""
    t = tok.strip()
    if t.isdigit() and int(t) < len(seats):
        return int(t)
    for i, name in enumerate(seats):
        if t.lower() == name.lower():
            return i
    fail(line, f"unknown seat {clip_input(t)!r}: use 0-{len(seats) - 1} or a name of the "
               f"Seats line ({rule})", where)
