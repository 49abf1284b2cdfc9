"""Compiling a kernel subtree in a helper process beside the command
(analyzer/_compile_beside.py, issue 28): on an empty cache the helper compiles the target
into the on-disk cache and this process loads it from there (the same results), the
helper has ended when the command's call returns, a warm cache starts nothing, a helper
still running at exit is killed, and ``BINOKEL_COMPILE_BESIDE=0`` switches it off.

A tiny kernel tree of its own (two kernels in a module written to a temporary folder) on
its own empty ``NUMBA_CACHE_DIR``, each run a fresh Python process: a few seconds."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

KERNELS = textwrap.dedent('''
    from analyzer._jit import njit

    @njit
    def sub(x):
        s = 0
        for i in range(x):
            s += (i * 7) % 5
        return s

    @njit
    def top(x):
        return sub(x) * 3 + 1
''')

SCRIPT = textwrap.dedent('''
    import json, os, sys, time
    from numba import types
    from analyzer import _compile_beside as beside
    import tinykern
    proc = beside.start([(tinykern.sub, (types.int64,))])
    result = tinykern.top(1000)
    st = tinykern.sub.stats
    print(json.dumps(dict(
        started=proc is not None, pid=proc.pid if proc is not None else None,
        helper_ended=proc is None or proc.poll() is not None,
        result=result, sub_loaded=sum(st.cache_hits.values()),
        sub_compiled=sum(st.cache_misses.values()),
        top_loaded=sum(tinykern.top.stats.cache_hits.values()),
        locks=[f for f in os.listdir(os.environ["NUMBA_CACHE_DIR"]) if f.endswith(".lock")]
              if os.path.isdir(os.environ["NUMBA_CACHE_DIR"]) else [],
        cached=beside.is_cached(tinykern.sub, (types.int64,)))))
''')


def _run(tmp: Path, script: str, **env) -> dict:
    (tmp / "tinykern.py").write_text(KERNELS)
    full = dict(os.environ, NUMBA_CACHE_DIR=str(tmp / "cache"),
                PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp)]), **env)
    full.pop("BINOKEL_COMPILE_BESIDE", None) if "BINOKEL_COMPILE_BESIDE" not in env else None
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp, env=full,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_cold_cache_helper_compiles_the_subtree_and_the_caller_loads_it(tmp_path):
    cold = _run(tmp_path, SCRIPT)
    assert cold["started"]
    assert cold["helper_ended"] and not _alive(cold["pid"])
    assert cold["sub_loaded"] == 1 and cold["sub_compiled"] == 0   # the helper's copy
    assert cold["locks"] == [] and cold["cached"]
    expected = sum((i * 7) % 5 for i in range(1000)) * 3 + 1
    assert cold["result"] == expected
    warm = _run(tmp_path, SCRIPT)                 # warm: nothing is started
    assert not warm["started"] and warm["result"] == expected
    assert warm["top_loaded"] == 1 and warm["sub_compiled"] == 0   # (sub is linked into top)


def test_switched_off_the_process_compiles_everything_itself(tmp_path):
    got = _run(tmp_path, SCRIPT, BINOKEL_COMPILE_BESIDE="0")
    assert not got["started"]
    assert got["sub_compiled"] == 1 and got["sub_loaded"] == 0
    assert got["result"] == sum((i * 7) % 5 for i in range(1000)) * 3 + 1


def test_a_helper_still_running_at_exit_is_killed(tmp_path):
    # the command ends at once, before the helper (a fresh numba import + compile) is done
    got = _run(tmp_path, textwrap.dedent('''
        import json
        from numba import types
        from analyzer import _compile_beside as beside
        import tinykern
        proc = beside.start([(tinykern.sub, (types.int64,))])
        print(json.dumps(dict(pid=proc.pid, running=proc.poll() is None)))
    '''))
    assert got["running"]
    assert not _alive(got["pid"])
    assert not list((tmp_path / "cache").glob("*.lock"))


def test_a_live_lock_makes_a_second_process_wait_instead_of_starting_a_helper(tmp_path):
    # a --jobs worker (or another command) asking while a helper compiles: no second helper
    got = _run(tmp_path, textwrap.dedent('''
        import json, os, subprocess, sys, time
        from numba import types
        from analyzer import _compile_beside as beside
        import tinykern
        args = (types.int64,)
        lock = beside._lock_path(tinykern.sub, args)
        os.makedirs(os.path.dirname(lock), exist_ok=True)
        # a stand-in helper: runs 1.5 s, then ends without removing its lock (as if killed)
        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1.5)"])
        with open(lock, "w") as f:
            f.write(str(sleeper.pid))
        t0 = time.monotonic()
        proc = beside.start([(tinykern.sub, args)])
        pending = beside._key(tinykern.sub, args) in beside._PENDING
        beside.wait_for(tinykern.sub, args)
        waited = time.monotonic() - t0
        sleeper.wait()
        os.unlink(lock)
        print(json.dumps(dict(started=proc is not None, pending=pending, waited=waited)))
    '''))
    assert not got["started"] and got["pending"]
    assert 1.0 <= got["waited"] < 60   # until that helper's process ended, not to the bound
