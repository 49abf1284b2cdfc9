"""Worker pools (analyzer/parallel.py): one meaning of ``jobs`` everywhere, never more
workers than chunks, and workers that die with the process that started them."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from analyzer import BinokelError
from analyzer.parallel import available_cores, parallel_map, resolve_jobs

ROOT = Path(__file__).resolve().parent.parent


def test_jobs_minus_one_means_all_cores_and_chunks_bound_the_workers():
    cores = available_cores()
    assert resolve_jobs(-1) == cores
    assert resolve_jobs(1) == 1
    assert resolve_jobs(-1, n_tasks=1) == 1
    assert resolve_jobs(cores, n_tasks=10 ** 6) == cores


@pytest.mark.parametrize("bad", [0, -2, 10 ** 6, "x", 1.5, None])
def test_bad_jobs_are_one_line_errors(bad):
    with pytest.raises(BinokelError, match="--jobs must"):
        resolve_jobs(bad)


def _pid(_):
    return os.getpid()


def test_one_chunk_runs_in_this_process_whatever_jobs_says():
    """A 1-chunk job started 6 loky workers before; now it starts none."""
    assert list(parallel_map(_pid, [(0,)], -1, 1)) == [os.getpid()]


def _slow_square(x: int, delay: float):
    import threading

    time.sleep(delay)  # later chunks finish first: the order must still be the input's
    return x * x, os.getpid(), threading.get_ident()


def test_thread_workers_keep_the_order_and_stay_in_this_process():
    args = [(x, 0.05 * (4 - x)) for x in range(4)]
    got = list(parallel_map(_slow_square, args, -1, len(args), threads=True))
    assert [g[0] for g in got] == [0, 1, 4, 9]
    assert {g[1] for g in got} == {os.getpid()}
    assert len({g[2] for g in got}) == min(available_cores(), 4)  # one thread per core


def test_a_closed_thread_map_leaves_no_thread_behind():
    import threading

    before = threading.active_count()
    gen = parallel_map(_slow_square, [(x, 0.05) for x in range(8)], -1, 8, threads=True)
    next(gen)
    gen.close()  # the caller stops early (an interrupt): queued chunks are dropped
    assert threading.active_count() == before


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped) counts as gone
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_workers_exit_after_kill_9_of_their_parent():
    """After ``kill -9`` of a command, its loky workers used to live on for minutes."""
    script = textwrap.dedent("""
        import os, sys, time
        from analyzer.parallel import parallel_map
        def pid(_):
            return os.getpid()
        print(*sorted(set(parallel_map(pid, [(i,) for i in range(8)], 2, 8))), flush=True)
        time.sleep(120)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True)
    try:
        workers = [int(x) for x in proc.stdout.readline().split()]
        assert workers and proc.pid not in workers
        assert all(_alive(w) for w in workers)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.2)
    assert not any(_alive(w) for w in workers)
