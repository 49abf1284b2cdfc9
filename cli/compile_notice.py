"""A line on the terminal while numba compiles: the first use of a command after installing
or updating compiles its kernels (seconds to tens of seconds, docs/performance-first-use.md)
and would otherwise leave the screen silent.

:func:`install` (called by the ``binokel`` console script) listens to numba's
``numba:compile`` events (numba.core.event; a kernel loaded from the cache sends none).
While any compilation runs for longer than :data:`DELAY` seconds, stderr shows
``binokel: compiling kernels (first use; cached for later runs) ... 12 s``, rewritten in
place every second; the line is erased when the compilation ends, so the command's own
output is not interleaved with it.  Only on a terminal: piped or captured stderr (scripts,
tests, ``--json`` into a file) gets nothing.
"""
from __future__ import annotations

import sys
import threading
import time

from numba.core import event

MESSAGE = "binokel: compiling kernels (first use; cached for later runs; `binokel warmup` " \
          "does all)"
DELAY = 0.5   # seconds of compiling before the line appears (no flicker for tiny kernels)


class CompileNotice(event.Listener):
    """numba listener that shows :data:`MESSAGE` with the compile seconds so far on
    ``stream`` while the outermost compilation runs (nested compiles of called kernels
    are part of it; compiles in worker threads are counted once)."""

    def __init__(self, stream, delay: float = DELAY, every: float = 1.0):
        self.stream = stream
        self.delay = delay
        self.every = every
        self.seconds = 0.0          # compile seconds of this process so far
        self.shown = False          # whether the line was ever shown
        self._lock = threading.Lock()
        self._depth = 0
        self._start = 0.0
        self._stop = threading.Event()
        self._thread = None
        self._width = 0

    def on_start(self, ev) -> None:
        with self._lock:
            self._depth += 1
            if self._depth > 1:
                return
            self._start = time.perf_counter()
            self._stop.clear()
            self._thread = threading.Thread(target=self._tick, daemon=True,
                                            name="binokel-compile-notice")
            self._thread.start()

    def on_end(self, ev) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth > 0:
                return
            self.seconds += time.perf_counter() - self._start
            thread, self._thread = self._thread, None
            self._stop.set()
        if thread is not None:
            thread.join()
        self._erase()

    def _tick(self) -> None:
        if self._stop.wait(self.delay):
            return
        while True:
            secs = self.seconds + time.perf_counter() - self._start
            self._write(f"\r{MESSAGE} ... {secs:.0f} s")
            if self._stop.wait(self.every):
                return

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            return
        self.shown = True
        self._width = max(self._width, len(text) - 1)

    def _erase(self) -> None:
        if self._width:
            try:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self._width = 0


def install(stream=None, force: bool = False) -> "CompileNotice | None":
    """Show :data:`MESSAGE` on ``stream`` (default stderr) while numba compiles, if it is a
    terminal (or ``force``).  Returns the listener, or None when not installed."""
    stream = sys.stderr if stream is None else stream
    if not force:
        try:
            if not stream.isatty():
                return None
        except (AttributeError, ValueError):
            return None
    notice = CompileNotice(stream)
    event.register("numba:compile", notice)
    return notice


def uninstall(notice: CompileNotice) -> None:
    """Stop listening (tests)."""
    event.unregister("numba:compile", notice)
