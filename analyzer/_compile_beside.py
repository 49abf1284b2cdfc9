"""Compile a kernel subtree in a second process while this one compiles the rest (issue 28).

Why: numba compiles on one core, and a command's first use on an empty cache compiles
its whole kernel tree in one process (``advise --play pimc``: ~40 s on a quiet 2-core
machine, docs/performance-first-use.md).  With the separate linking of analyzer/_jit.py a
big kernel is compiled once and called by its callers, so an independent subtree (the
PIMC search with the double-dummy solver below it) can be compiled by another process
into the same on-disk cache; this process loads it from there when its own typing
reaches it, instead of compiling it again.

:func:`start` is given ``(dispatcher, argument types)`` targets.  For each target that is
not in the cache yet (a read of the kernel's cache index: a warm run starts nothing) it
starts ONE helper process, ``python -m analyzer._compile_beside``, which compiles the
targets into ``NUMBA_CACHE_DIR`` and exits.  A lock file in the cache folder names the
helper: a second process (a ``--jobs N`` worker, another command) that asks for the same
targets meanwhile starts no second helper and waits for the first one.  When this process
is about to compile a target for exactly those argument types
(:meth:`analyzer._jit.OneSignatureDispatcher.compile`), it first waits for the helper (at
most :data:`WAIT_S` seconds; a helper that died or is late is not waited for), then
numba loads the kernel from the cache -- or compiles it itself when it is not there.  A
helper still running when the command exits is killed (numba writes its cache files
atomically: a half-written entry is never read).  Results do not depend on any of this:
the same kernel for the same argument types is the same machine code, loaded or compiled.

Switched off by ``BINOKEL_COMPILE_BESIDE=0`` (then the command compiles everything itself,
as before), and when the kernel has no on-disk cache.
"""
from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import time

#: the longest a process waits for a helper before it compiles the kernel itself
WAIT_S = 240.0

#: (module, qualname, argument types) -> the helper (Popen, or a pid of another process's
#: helper) this process waits for before it compiles that kernel for those types
_PENDING: dict = {}
#: helpers this process started (killed at exit if still running)
_STARTED: list = []


def enabled(environ=os.environ) -> bool:
    """Whether :func:`start` may start a helper (``BINOKEL_COMPILE_BESIDE`` not ``0``)."""
    return environ.get("BINOKEL_COMPILE_BESIDE", "1").strip() not in ("0", "")


def _key(disp, args) -> tuple:
    return (disp.py_func.__module__, disp.py_func.__qualname__, tuple(args))


def is_cached(disp, args) -> bool:
    """Whether ``disp``'s on-disk cache index holds an entry for argument types ``args``
    (a kernel without a cache counts as cached: nothing to do beside it)."""
    cache = getattr(disp, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if cache_file is None:
        return True
    try:
        index = cache_file._load_index()
    except Exception:   # an unreadable index: numba itself will treat it as empty
        return False
    args = tuple(args)
    return any(tuple(key[0]) == args for key in index)


def _lock_path(disp, args) -> str:
    import hashlib

    cache_file = disp._cache._cache_file
    h = hashlib.sha1(repr(_key(disp, args)).encode()).hexdigest()[:16]
    return os.path.join(cache_file._cache_path, f"beside-{disp.py_func.__qualname__}-{h}.lock")


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (an ended one its parent has not reaped yet does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def start(targets) -> "subprocess.Popen | None":
    """Compile ``targets`` (``[(dispatcher, argument types), ...]``) in a helper process
    unless they are all in the cache already or another process's helper compiles them.

    Returns the helper started (None: none was needed, or it is switched off).  Never
    raises: anything unexpected means no helper, and this process compiles as before.
    """
    if not enabled():
        return None
    try:
        todo = [(d, tuple(a)) for d, a in targets if not is_cached(d, a)]
        if not todo or not os.access(todo[0][0]._cache._cache_file._cache_path, os.W_OK):
            return None   # all cached, or a cache the helper could not write to
        lock = _lock_path(*todo[0])
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                with open(lock) as f:
                    pid = int(f.read().strip() or 0)
            except (OSError, ValueError):
                pid = 0
            if pid and _alive(pid):
                for d, a in todo:     # someone else's helper compiles them: wait for it
                    _PENDING[_key(d, a)] = (pid, lock, time.monotonic())
                return None
            os.unlink(lock)   # a stale lock (its helper died): take it over
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        payload = pickle.dumps([_key(d, a) for d, a in todo] + [lock])
        env = dict(os.environ)
        # the helper imports this copy of the package (and its cache folder, the same
        # NUMBA_CACHE_DIR), whatever its working directory holds
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
        proc = subprocess.Popen([sys.executable, "-m", "analyzer._compile_beside"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=env)
        os.write(fd, str(proc.pid).encode())
        os.close(fd)
        proc.stdin.write(payload)
        proc.stdin.close()
        _STARTED.append((proc, lock))
        for d, a in todo:
            _PENDING[_key(d, a)] = (proc, lock, time.monotonic())
        return proc
    except Exception:
        return None


def wait_for(disp, args) -> None:
    """Called before ``disp`` compiles argument types ``args``: if a helper compiles that
    kernel for those types, wait until it ends (at most :data:`WAIT_S` seconds from its
    start), so numba finds the kernel in the cache.  Otherwise return at once."""
    if not _PENDING:
        return
    entry = _PENDING.pop(_key(disp, args), None)
    if entry is None:
        return
    helper, lock, since = entry
    deadline = since + WAIT_S
    while time.monotonic() < deadline:
        if isinstance(helper, subprocess.Popen):
            if helper.poll() is not None:
                return
        elif not os.path.exists(lock) or not _alive(helper):
            return
        time.sleep(0.05)


@atexit.register
def _stop_helpers() -> None:
    """Kill a helper that is still compiling when the command ends (nothing outlives it)."""
    for proc, lock in _STARTED:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        try:
            if os.path.exists(lock):
                with open(lock) as f:
                    if f.read().strip() == str(proc.pid):
                        os.unlink(lock)
        except OSError:
            pass


def _main() -> None:
    """The helper: compile each (module, qualname, argument types) read from stdin, then
    remove the lock file."""
    import importlib

    *keys, lock = pickle.loads(sys.stdin.buffer.read())
    try:
        for module, qualname, args in keys:
            disp = importlib.import_module(module)
            for part in qualname.split("."):
                disp = getattr(disp, part)
            disp.compile(tuple(args))
    finally:
        try:
            os.unlink(lock)
        except OSError:
            pass


if __name__ == "__main__":
    _main()
