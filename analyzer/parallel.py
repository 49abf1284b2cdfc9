"""Worker processes for every command: one meaning of ``jobs``, and workers that never
outlive the process that started them.

``jobs`` means the same everywhere (API and ``--jobs``): ``1`` runs in this process,
``k`` uses ``k`` loky worker processes, ``-1`` one per available core.  More workers than
cores never speed up these CPU-bound kernels and each loky worker costs ~150 MB, so a
request above the number of cores is refused (one line); and never more workers are
started than there are chunks of work (a 1-chunk job runs in this process).

The loky pool is joblib's (``joblib.parallel_config(backend="loky")``) with two changes
of its defaults: an initializer starts a watchdog thread in each worker that exits the
worker once its parent is gone (after ``kill -9`` of the command loky's workers used to
linger for minutes, ~150 MB each), and idle workers are shut down after
``IDLE_TIMEOUT`` seconds instead of 300.
"""
from __future__ import annotations

import os
import threading
import time
import warnings
from typing import Callable, Iterable, Iterator

from analyzer.errors import BinokelError

# An interrupted run closes the result generator early; joblib then warns that finished
# tasks went unused.  That is expected (their chunks are simply redone on resume) and
# would follow the one-line "interrupted" message, so it is silenced - only this one (and
# its twin for tasks still running at the interrupt, which joblib words differently).
warnings.filterwarnings("ignore", message=r".*tasks have been successfully executed",
                        category=UserWarning)
warnings.filterwarnings("ignore", message=r".*still being processed by the workers have been "
                        r"cancelled", category=UserWarning)

IDLE_TIMEOUT = 30       # seconds an idle loky worker waits for more work
WATCH_PERIOD = 0.5      # seconds between a worker's checks that its parent still lives


def available_cores() -> int:
    """CPU cores this process may run on (its affinity mask, else ``os.cpu_count()``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def resolve_jobs(jobs, n_tasks: int | None = None) -> int:
    """The number of workers to use for ``jobs`` (see the module docstring).

    Parameters
    ----------
    jobs : int
        -1 (all cores) or 1 .. ``available_cores()``.
    n_tasks : int, optional
        Chunks of work; the result is never larger.

    Raises BinokelError (one line) for 0, values below -1, non-integers and more than
    the number of cores.
    """
    cores = available_cores()
    try:
        j = int(jobs)
        if j != jobs:
            raise ValueError
    except (TypeError, ValueError):
        raise BinokelError(f"--jobs must be a whole number, got {str(jobs)[:40]!r}") from None
    if j == -1:
        j = cores
    elif j < 1 or j > cores:
        raise BinokelError(f"--jobs must be -1 (all cores) or 1..{cores} (the cores this "
                           f"machine offers), got {j}")
    if n_tasks is not None:
        j = min(j, max(1, int(n_tasks)))
    return j


def _watch_parent(parent_pid: int) -> None:
    """loky worker initializer: exit this worker as soon as its parent has died."""

    def watch() -> None:
        while True:
            time.sleep(WATCH_PERIOD)
            if os.getppid() != parent_pid:
                os._exit(3)

    threading.Thread(target=watch, name="binokel-parent-watch", daemon=True).start()


def parallel_map(func: Callable, args: Iterable[tuple], jobs, n_tasks: int,
                 ordered: bool = True, threads: bool = False) -> Iterator:
    """``func(*a)`` for each ``a`` of ``args``, in this process or on loky workers.

    Yields the results as they come (in order, or as finished with ``ordered=False``);
    results never depend on ``jobs``.  ``n_tasks`` = ``len(args)`` bounds the workers.
    ``threads=True`` runs the ``jobs`` workers as threads of this process instead: for
    work that is a numba ``nogil`` kernel with little Python around it (the bid advice's
    chunks, ~0.1 s each), where starting loky workers (~1 s) would cost more than the
    work; the results are the same, and ordered.
    """
    n = resolve_jobs(jobs, n_tasks)
    if n == 1:
        for a in args:
            yield func(*a)
        return
    if threads:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=n, thread_name_prefix="binokel-chunk") as pool:
            futures = [pool.submit(func, *a) for a in args]
            try:
                for f in futures:
                    yield f.result()
            finally:
                for f in futures:  # an interrupt or a closed generator: drop what is left
                    f.cancel()
        return
    import joblib

    with joblib.parallel_config(backend="loky", initializer=_watch_parent,
                                initargs=(os.getpid(),), idle_worker_timeout=IDLE_TIMEOUT):
        par = joblib.Parallel(n_jobs=n, return_as="generator" if ordered else
                              "generator_unordered")
        yield from par(joblib.delayed(func)(*a) for a in args)
