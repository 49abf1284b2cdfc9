"""The line on the terminal while numba compiles (cli/compile_notice.py): shown while a
kernel compiles, erased afterwards, never on a stream that is not a terminal."""
from __future__ import annotations

import io

import numba

from cli.compile_notice import MESSAGE, CompileNotice, install, uninstall


def _fresh_kernel():
    # a kernel of its own (cache=False) so that this test always compiles something
    @numba.njit(cache=False)
    def f(x):
        s = 0
        for i in range(x):
            s += i * i
        return s

    return f


def test_the_notice_shows_the_message_while_compiling_and_erases_it():
    stream = io.StringIO()
    notice = install(stream, force=True)
    notice.delay = 0.0
    try:
        assert _fresh_kernel()(10) == 285
    finally:
        uninstall(notice)
    text = stream.getvalue()
    assert notice.shown and MESSAGE in text
    # erased: the last thing written is a carriage return after blanks
    assert text.endswith("\r") and text.rstrip("\r").endswith(" ")
    assert notice.seconds > 0


def test_no_notice_on_a_stream_that_is_not_a_terminal():
    assert install(io.StringIO()) is None


def test_nested_compiles_count_as_one_compilation():
    class Ev:
        data = {}

    notice = CompileNotice(io.StringIO(), delay=60.0)
    notice.on_start(Ev())
    notice.on_start(Ev())    # a called kernel compiles inside its caller
    notice.on_end(Ev())
    assert notice._thread is not None    # the outer one still runs
    notice.on_end(Ev())
    assert notice._thread is None and not notice.shown   # under the delay: nothing shown
