"""Progress on stderr for the commands that can run past a few seconds.

One helper for every long command (advise, analyze, duplicate, tournament, fit-opponents,
fit-defence, review, solve, ...): a rich bar on stderr with what is counted, done/total,
the time so far and an estimate of the time left.  It shows only when stderr is a
terminal and the user did not pass ``--quiet``: piped or captured stderr (scripts, tests)
and ``--json`` get nothing, and stdout always holds only the results.

Why the bar starts with the first piece of work finished after :data:`DELAY` seconds
rather than at once: a bad parameter found inside the library before any work stays a
one-line error, with no blank bar line above it (the tournament found that), and an
answer within a second neither flickers a bar nor pays rich's import (~0.1 s of the
advice's start-up, tests/cli/test_lazy_imports.py).  The bar is erased when the command
ends (transient), so it never mixes with the results printed after it.

Input: the unit counted (``"deals"``), the planned total, ``quiet``.  Output: callbacks
``update(done, total=None)`` and ``advance(k=1)`` for the library's ``progress=`` hooks.
"""
from __future__ import annotations

import sys
import time

import click

DELAY = 1.0   # seconds of work before the bar appears


def speaks(quiet: bool = False, stream=None) -> bool:
    """True when progress should be shown: ``stream`` (default stderr) is a terminal and
    not ``quiet``."""
    if quiet:
        return False
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def quiet_option(f):
    """``--quiet/-q``: no progress on stderr (it shows only on a terminal anyway)."""
    return click.option("--quiet", "-q", "quiet", is_flag=True,
                        help="No progress bar on stderr (shown only on a terminal anyway).")(f)


class Bar:
    """A progress bar on stderr, or nothing (see the module docstring).

    ``Bar("deals", 200, quiet=q)`` used as a context manager; pass ``bar.update`` (for a
    ``progress(done, total)`` hook) or ``bar.advance`` (for ``progress(k)``) to the
    library.  ``stream``, ``force`` (show even when ``stream`` is no terminal) and
    ``delay`` are for tests.  ``enabled`` says whether anything may be shown.
    """

    def __init__(self, what: str, total: int | None = None, *, quiet: bool = False,
                 stream=None, force: bool = False, delay: float | None = None):
        self.what = what
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        self.force = force
        self.enabled = force or speaks(quiet, self.stream)
        self._progress = None
        self._task = None
        self._done = 0
        self._from = time.perf_counter() + (DELAY if delay is None else delay)

    def __enter__(self) -> "Bar":
        return self

    def __exit__(self, *exc) -> bool:
        self.close()
        return False

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        # enabled means a terminal was seen (or ``force``): render as on one
        console = Console(file=self.stream, force_terminal=True)
        # no total known (a report's charts): what is done and the time so far, no estimate
        estimate = (TextColumn("left"), TimeRemainingColumn()) if self.total else ()
        self._progress = Progress(TextColumn(self.what), BarColumn(), MofNCompleteColumn(),
                                  TimeElapsedColumn(), *estimate, console=console,
                                  transient=True)
        self._task = self._progress.add_task(self.what, total=self.total)
        self._progress.start()

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` units of ``total`` (default: the total given at creation) finished."""
        if not self.enabled:
            return
        if total is not None:
            self.total = total
        self._done = done
        if self._progress is None:
            if time.perf_counter() < self._from:
                return
            self._start()
        self._progress.update(self._task, completed=done, total=self.total)

    def advance(self, k: int = 1) -> None:
        """``k`` more units finished."""
        self.update(self._done + k)

    def close(self) -> None:
        """Erase the bar (idempotent)."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
