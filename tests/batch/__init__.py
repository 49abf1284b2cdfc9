"""Tests of analyzer.batch (runs, resume, integrity)."""
import signal


def default_sigint() -> None:
    """``preexec_fn`` of a child process that a test interrupts with SIGINT (Ctrl-C).

    Why: a test suite started in the background by a non-interactive shell (``nohup``,
    ``cmd &``) inherits SIGINT *ignored* (POSIX), and Python keeps an inherited SIG_IGN, so
    the child would never see the Ctrl-C and would finish its run with exit 0.  Restoring
    the default in the child makes the test independent of how the suite was launched."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
