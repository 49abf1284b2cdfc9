"""Jobs: each question runs in its own worker process, with progress and cancel.

Why processes and not the event loop or threads: a Monte Carlo run is seconds of CPU;
on the event loop it would freeze every other tab, and a thread cannot be stopped in the
middle of a kernel.  A child process can be terminated at once (cancel), and a second tab
is served meanwhile.  The children are forked from a *forkserver* that imported the
library and loaded its kernels once (:mod:`web._preload`), so a job starts in
milliseconds with warm kernels and without inheriting the server's threads or sockets.

At most ``max_running`` jobs compute at a time (default: the number of cores); more wait
in a queue; more than ``max_jobs`` unfinished jobs are refused (HTTP 429), so a flood of
requests cannot hold the machine.  Finished jobs are forgotten after ``keep_s`` seconds.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
import uuid
from dataclasses import dataclass, field

from .params import BadRequest

_CTX = None
_CTX_LOCK = threading.Lock()


def context():
    """The forkserver context whose server has the library and its kernels loaded."""
    global _CTX
    with _CTX_LOCK:
        if _CTX is None:
            ctx = mp.get_context("forkserver")
            ctx.set_forkserver_preload(["web._preload"])
            _CTX = ctx
        return _CTX


def start_forkserver() -> None:
    """Start the forkserver now (it warms the kernels) rather than on the first question."""
    from multiprocessing import forkserver

    context()
    forkserver.ensure_running()


@dataclass
class Job:
    id: str
    kind: str
    kwargs: dict
    state: str = "queued"            # queued, running, done, error, cancelled
    done: int = 0
    total: int = 0
    result: dict | None = None
    error: str | None = None
    status: int = 200                # HTTP status of the outcome (4xx/5xx for errors)
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    cpu_s: float | None = None       # the worker's CPU seconds (user + system), once done
    cancel_requested: bool = False
    process: object = None
    finished_event: threading.Event = field(default_factory=threading.Event)

    @property
    def is_finished(self) -> bool:
        return self.state in ("done", "error", "cancelled")

    def view(self) -> dict:
        """The job as the API shows it (``result`` only once done)."""
        out = {"id": self.id, "kind": self.kind, "state": self.state, "done": self.done,
               "total": self.total}
        if self.started is not None:
            out["elapsed_s"] = round((self.finished or time.monotonic()) - self.started, 3)
        if self.cpu_s is not None:
            out["cpu_s"] = round(self.cpu_s, 3)
        if self.state == "done":
            out["result"] = self.result
        if self.state in ("error", "cancelled"):
            out["error"] = self.error
            out["status"] = self.status
        return out


class JobManager:
    """Runs jobs in worker processes: submit, look up, cancel, shut down."""

    def __init__(self, max_running: int | None = None, max_jobs: int = 32, keep_s: float = 600.0,
                 time_limit_s: float = 600.0):
        self.max_running = max_running or max(1, os.cpu_count() or 1)
        self.max_jobs = max_jobs
        self.keep_s = keep_s
        self.time_limit_s = time_limit_s
        self._slots = threading.BoundedSemaphore(self.max_running)
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._closed = False

    # ----------------------------------------------------------------- public
    def submit(self, kind: str, kwargs: dict) -> Job:
        with self._lock:
            self._forget_old()
            if self._closed:
                raise BadRequest("server is shutting down", 503)
            busy = sum(not j.is_finished for j in self._jobs.values())
            if busy >= self.max_jobs:
                raise BadRequest(f"too many questions at once ({busy} unfinished): wait or cancel some", 429)
            job = Job(uuid.uuid4().hex[:16], kind, kwargs)
            self._jobs[job.id] = job
        threading.Thread(target=self._run, args=(job,), daemon=True, name=f"job-{job.id}").start()
        return job

    def get(self, job_id: str) -> Job:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise BadRequest(f"no job {job_id[:40]!r} (unknown, or finished more than "
                             f"{self.keep_s:.0f} s ago)", 404)
        return job

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        with self._lock:
            if job.is_finished:
                return job
            job.cancel_requested = True
            proc = job.process
        if proc is not None:
            proc.terminate()       # SIGTERM: stops a kernel mid-loop; the reader thread sees EOF
        return job

    def shutdown(self) -> None:
        with self._lock:
            self._closed = True
            jobs = list(self._jobs.values())
        for j in jobs:
            if not j.is_finished:
                self.cancel(j.id)

    # ----------------------------------------------------------------- internals
    def _forget_old(self) -> None:
        now = time.monotonic()
        for k in [k for k, j in self._jobs.items()
                  if j.is_finished and now - (j.finished or now) > self.keep_s]:
            del self._jobs[k]

    def _finish(self, job: Job, state: str, *, result=None, error=None, status=200) -> None:
        with self._lock:
            if job.is_finished:
                return
            job.state, job.result, job.error, job.status = state, result, error, status
            job.finished = time.monotonic()
            job.process = None
        job.finished_event.set()

    def _run(self, job: Job) -> None:
        with self._slots:
            with self._lock:
                if job.cancel_requested:
                    cancelled = True
                else:
                    cancelled = False
                    job.state = "running"
                    job.started = time.monotonic()
            if cancelled:
                self._finish(job, "cancelled", error="cancelled", status=409)
                return
            self._run_process(job)

    def _run_process(self, job: Job) -> None:
        from .worker import run_job

        ctx = context()
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=run_job, args=(job.kind, job.kwargs, send), daemon=True)
        try:
            proc.start()
        except Exception as exc:  # noqa: BLE001 - e.g. out of processes: the server keeps serving
            self._finish(job, "error", error=f"could not start a worker: {exc}", status=503)
            return
        send.close()
        with self._lock:
            job.process = proc
            stop = job.cancel_requested
        if stop:
            proc.terminate()
        deadline = time.monotonic() + self.time_limit_s
        outcome = None
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    proc.terminate()
                    outcome = ("error", 503, f"stopped after {self.time_limit_s:.0f} s: ask for fewer samples")
                    break
                if not recv.poll(min(left, 1.0)):
                    continue
                try:
                    msg = recv.recv()
                except (EOFError, OSError):
                    break
                if msg[0] == "progress":
                    job.done, job.total = msg[1], msg[2]
                else:
                    outcome = msg
                    break
        finally:
            recv.close()
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join()
        if job.cancel_requested:
            self._finish(job, "cancelled", error="cancelled", status=409)
        elif outcome is None:
            self._finish(job, "error", error=f"the worker stopped unexpectedly (exit code {proc.exitcode})",
                         status=500)
        elif outcome[0] == "result":
            job.done = job.total = max(job.total, 1)
            job.cpu_s = outcome[2]
            self._finish(job, "done", result=outcome[1])
        else:
            self._finish(job, "error", error=outcome[2], status=outcome[1])
