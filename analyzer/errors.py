"""The one exception type for bad input; the CLI prints its message as one line (exit 2)."""


class BinokelError(ValueError):
    """Bad input: the message is a single line that names the problem."""
