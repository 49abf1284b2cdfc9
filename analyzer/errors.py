"""The one exception type for bad input; the CLI prints its message as one line (exit 2)."""


class BinokelError(ValueError):
    """Bad input: the message is a single line that names the problem."""


def clip_input(text: str, width: int = 60) -> str:
    """Echo at most ``width`` characters of user input in a message."""
    return text if len(text) <= width else text[:width - 1] + "…"


class RecordError(BinokelError):
    """A bad deal record: one line naming the line number and the rule it breaks
    (analyzer.mechanics.record, analyzer.mechanics.stock_record)."""
