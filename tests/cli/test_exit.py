"""How the ``binokel`` script ends (cli.main.leave): the fast exit keeps what a normal
exit guarantees (status, flushed output, atexit handlers) and steps aside when a worker
pool may need the interpreter's teardown."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str):
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_fast_exit_keeps_the_status_the_output_and_the_atexit_handlers():
    out = _run("import atexit, sys\n"
               "from cli.main import leave\n"
               "atexit.register(lambda: print('handler ran', file=sys.stderr))\n"
               "print('answer', end='')\n"  # unflushed: no newline, a pipe is block-buffered
               "leave(3)\n"
               "print('not reached')\n")
    assert (out.returncode, out.stdout, out.stderr) == (3, "answer", "handler ran\n")


def test_exit_status_follows_sys_exit_rules():
    assert _run("from cli.main import leave\nleave(None)").returncode == 0
    out = _run("from cli.main import leave\nleave('binokel: error: x')")
    assert (out.returncode, out.stderr) == (1, "binokel: error: x\n")


def test_normal_exit_when_a_worker_pool_was_imported():
    # with joblib loaded, the interpreter's own exit runs (its finalizers see a live
    # interpreter): shown by an object's __del__, which os._exit would skip
    out = _run("import joblib\n"
               "from cli.main import leave\n"
               "class Noisy:\n"
               "    def __del__(self):\n"
               "        print('finalized')\n"
               "keep = Noisy()\n"
               "leave(0)\n")
    assert (out.returncode, out.stdout) == (0, "finalized\n")


def test_the_console_script_answers_and_reports_bad_input_in_one_line():
    ok = subprocess.run([sys.executable, "-m", "cli.main", "rules"], cwd=ROOT,
                        capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0 and "binokel-48" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "cli.main", "advise", "AS,AS"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("binokel: error:")
