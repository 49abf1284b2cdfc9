"""The project's numba set-up (analyzer/_jit.py): start-up without numba's BLAS probe, and
kernels inlined by LLVM (``inline="llvm"``).

``analyzer._jit`` imports numba's array registry with ``scipy.linalg.cython_blas`` hidden
(that probe imported all of scipy.linalg, ~0.35 s of every command's start-up).  These tests
pin what that may and may not change: nothing of ours loads scipy on the way to advice,
and jitted BLAS code and scipy itself still work afterwards.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def test_loading_a_cached_kernel_does_not_import_scipy_linalg():
    # melds.meld_table runs a cached kernel, i.e. numba's full registry refresh; (numba
    # itself imports the bare ``scipy`` package to check its version, ~0.03 s)
    assert _run("import sys\n"
                "from analyzer.mechanics.melds import meld_table\n"
                "assert meld_table([0]).shape == (1, 4)\n"
                "print(sorted(m for m in sys.modules if m.startswith('scipy.linalg')))") == "[]"


def test_blas_kernels_and_scipy_still_work_after_the_hidden_probe():
    # np.dot of floats in a kernel is BLAS (numba.np.linalg imports scipy when it compiles);
    # scipy.linalg must import normally afterwards (fit-opponents uses scipy.optimize)
    got = _run("import numpy as np\n"
               "import analyzer._jit as J\n"
               "import numba.np.arraymath as A\n"
               "@J.numba.njit\n"
               "def f(a, b):\n"
               "    return np.dot(a, b), np.linalg.norm(a)\n"
               "a = np.arange(5.0); b = np.ones(5)\n"
               "d, n = f(a, b)\n"
               "import scipy.linalg, scipy.optimize\n"
               "print(A._HAVE_BLAS, d == a @ b, abs(n - np.linalg.norm(a)) < 1e-12, "
               "abs(scipy.linalg.det(np.eye(3)) - 1.0) < 1e-12)")
    assert got == "False True True True"


def test_the_probe_is_left_alone_when_scipy_is_already_loaded():
    # a program that imported scipy first keeps numba's own BLAS detection
    assert _run("import scipy.linalg\n"
                "import analyzer._jit\n"
                "import numba.np.arraymath as A\n"
                "print(A._HAVE_BLAS)") == "True"


_LLVM_INLINE_MODULE = '''
import sys
import numpy as np
from analyzer._jit import compile_counts, njit

@njit(_nrt=False, inline="llvm")
def low_bits(x, n):
    return x & ((np.int64(1) << n) - 1)

@njit
def caller(xs):
    s = np.int64(0)
    for x in xs:
        s += low_bits(x, np.int64(5)) * 3 + low_bits(x >> np.int64(7), np.int64(2))
    return s

@njit
def other_caller(xs):
    s = np.int64(0)
    for x in xs:
        s += low_bits(x, np.int64(4)) * 5
    return s

xs = np.arange(-50, 200, 7, dtype=np.int64)
if sys.argv[1] == "caller":
    kernel, want = caller, sum((int(x) & 31) * 3 + ((int(x) >> 7) & 3) for x in xs)
else:
    kernel, want = other_caller, sum((int(x) & 15) * 5 for x in xs)
got = kernel(xs)
ir = next(iter(kernel.inspect_llvm().values()))
calls = [l for l in ir.splitlines() if " call " in l and "low_bits" in l]
link = next(iter(low_bits.overloads.values())).library._get_module_for_linking()
attrs = [str(a) for f in link.functions if "low_bits" in f.name and not f.is_declaration
         for a in f.attributes]
print(got == want, len(calls), any("alwaysinline" in a for a in attrs), compile_counts())
'''


def test_an_llvm_inlined_kernel_is_folded_into_its_caller_and_computes_the_same(tmp_path):
    # inline="llvm" (analyzer/_jit.njit): the helper is compiled once, marked alwaysinline
    # in the module its callers link, and LLVM leaves no call to it; the same holds in a
    # second process where the helper comes from the on-disk cache into a new caller
    src = tmp_path / "llvm_inline_probe.py"
    src.write_text(_LLVM_INLINE_MODULE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    first, second = (subprocess.run([sys.executable, str(src), which], cwd=tmp_path, env=env,
                                    capture_output=True, text=True, check=True).stdout.strip()
                     for which in ("caller", "other_caller"))
    assert first.startswith("True 0 True ") and "'compiled': 2" in first, first
    assert second.startswith("True 0 True ") and "'loaded': 1, 'compiled': 1" in second, second


_SEPARATE_MODULE = '''
import numpy as np
import analyzer._jit as J
from analyzer._jit import njit

@njit
def tiny(x):
    return x + np.int64(1)

@njit
def big(xs, k):
    s = np.int64(0)
    for i in range(xs.shape[0]):
        x = xs[i]
        if x % 3 == 0:
            s += x * k
        elif x % 5 == 1:
            s -= x // 2
        else:
            for j in range(k):
                s ^= (x << j) & 1023
    return s

@njit
def outer(xs):
    return big(xs, np.int64(4)) * 7 + tiny(xs[0])

@njit
def mid(xs):
    return big(xs, np.int64(3))

@njit
def top(xs):
    return mid(xs) * 2

def want(xs):
    s = 0
    for x in map(int, xs):
        if x % 3 == 0:
            s += x * 4
        elif x % 5 == 1:
            s -= x // 2
        else:
            for j in range(4):
                s ^= (x << j) & 1023
    return s * 7 + int(xs[0]) + 1
'''


def _probe(tmp_path, code: str) -> str:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(tmp_path) + os.pathsep + str(ROOT))
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=True).stdout.strip()


def test_a_big_callee_is_called_in_its_own_code_and_a_cached_caller_loads_it_first(tmp_path):
    # analyzer/_jit._finalize_calling_big_kernels: a callee kernel over the size limit is
    # declared in its caller (no copy of its body to optimise again) and put in the
    # caller's reload list; a small one is linked as before.  A new process that calls
    # only the caller loads it from the cache and the callee with it, with the same result.
    (tmp_path / "separate_probe.py").write_text(_SEPARATE_MODULE)
    first = _probe(tmp_path, (
        "import numpy as np, separate_probe as P, analyzer._jit as J\n"
        "J.SEPARATE_MIN_INSTRUCTIONS = 30\n"
        "xs = np.arange(-40, 90, 3, dtype=np.int64)\n"
        "ok = P.outer(xs) == P.want(xs)\n"
        "lib = next(iter(P.outer.overloads.values())).library\n"
        "name = lambda d: next(iter(d.overloads.values())).fndesc.llvm_func_name\n"
        "size = lambda d: J._instructions(next(iter(d.overloads.values())).library, name(d))\n"
        "fn = lambda d: lib._final_module.get_function(name(d))\n"
        "def defined(d):\n"
        "    try:\n"
        "        return not fn(d).is_declaration\n"
        "    except NameError:\n"
        "        return 'inlined'\n"
        "loads = sorted(x.qualname for x in lib._reload_init if isinstance(x, J._LoadKernel))\n"
        "print(ok, size(P.big) > 30 >= size(P.tiny), defined(P.big), defined(P.tiny), loads,\n"
        "      J.compile_counts())\n"))
    assert first.startswith("True True False ") and "['big']" in first, first
    assert "False False" not in first and "'compiled': 3" in first, first   # tiny: linked
    second = _probe(tmp_path, (
        "import numpy as np, separate_probe as P, analyzer._jit as J\n"
        "xs = np.arange(-40, 90, 3, dtype=np.int64)\n"
        "print(P.outer(xs) == P.want(xs), len(P.big.overloads), J.compile_counts())\n"))
    assert second.startswith("True 1 ") and "'loaded': 2, 'compiled': 0" in second, second


def test_a_cached_caller_finds_its_callee_compiled_by_another_process(tmp_path):
    # numba names a function with a per-process counter: a callee whose cache entry was
    # written by another process (two commands compiling into one cache at once) has
    # another name than the one the cached caller calls.  _LoadKernel makes that name
    # resolve to the loaded callee; without it the call jumped to address 0 (a crash).
    (tmp_path / "separate_probe.py").write_text(_SEPARATE_MODULE)
    setup = ("import numpy as np, separate_probe as P, analyzer._jit as J\n"
             "J.SEPARATE_MIN_INSTRUCTIONS = 30\n"
             "xs = np.arange(-40, 90, 3, dtype=np.int64)\n"
             "name = lambda d: next(iter(d.overloads.values())).fndesc.llvm_func_name\n")
    a = _probe(tmp_path, setup + "P.outer(xs)\nprint(name(P.big))\n")
    other = tmp_path / "other"
    other.mkdir()
    (other / "separate_probe.py").write_text(_SEPARATE_MODULE)
    os.utime(other / "separate_probe.py", (os.stat(tmp_path / "separate_probe.py").st_mtime,) * 2)
    b = _probe(other, setup + ("import numba\n"     # other functions first: other names
                               "for k in range(5):\n"
                               "    numba.njit(lambda x: x + 1)(k)\n"
                               "P.big(xs, np.int64(4))\nprint(name(P.big))\n"))
    assert a != b   # the other process's callee has another name
    import shutil
    for f in (other / "cache").rglob("separate_probe.big-*"):
        shutil.copy(f, next((tmp_path / "cache").rglob(f.name)))
    got = _probe(tmp_path, setup + "print(P.outer(xs) == P.want(xs), name(P.big), "
                                   "J.compile_counts())\n")
    assert got.startswith(f"True {b} ") and "'compiled': 0" in got, got


def test_a_kernel_linking_a_cached_small_callee_also_loads_the_big_kernel_it_calls(tmp_path):
    # mid (small, linked into its callers) calls big (separate).  Process 1 caches both;
    # process 2 loads mid from the cache and compiles top, which links mid's code in and
    # so calls big too; process 3 calls top first: top's cache entry must load big
    # (mid's loaders, kept on its cache-loaded library, passed on to top)
    (tmp_path / "separate_probe.py").write_text(_SEPARATE_MODULE)
    setup = ("import numpy as np, separate_probe as P, analyzer._jit as J\n"
             "J.SEPARATE_MIN_INSTRUCTIONS = 30\n"
             "xs = np.arange(-40, 90, 3, dtype=np.int64)\n"
             "size = lambda d: J._instructions(next(iter(d.overloads.values())).library,\n"
             "    next(iter(d.overloads.values())).fndesc.llvm_func_name)\n")
    first = _probe(tmp_path, setup + "P.mid(xs)\nprint(size(P.mid) <= 30 < size(P.big))\n")
    assert first == "True", first
    second = _probe(tmp_path, setup + "P.mid(xs)\nprint(P.top(xs) == 2 * P.mid(xs), "
                                      "J.compile_counts())\n")
    assert second.startswith("True ") and "'compiled': 1" in second, second   # top only
    third = _probe(tmp_path, setup + "print(P.top(xs) == 2 * P.big(xs, np.int64(3)), "
                                     "J.compile_counts())\n")
    assert third.startswith("True ") and "'compiled': 0" in third, third


def test_separate_linking_only_on_a_tested_numba_and_not_when_switched_off():
    from analyzer._jit import separate_linking_enabled

    assert separate_linking_enabled("0.68.1", {})
    assert not separate_linking_enabled("0.69.0", {})        # untested internals: numba's own
    assert not separate_linking_enabled("garbage", {})
    assert not separate_linking_enabled("0.68.1", {"BINOKEL_JIT_COPY_CALLEES": "1"})
    assert separate_linking_enabled("0.68.1", {"BINOKEL_JIT_COPY_CALLEES": "0"})


def test_the_finalize_patch_is_installed_on_this_numba():
    import numba
    import numba.core.codegen

    from analyzer import _jit

    on = _jit.separate_linking_enabled()
    assert on == _jit.separate_linking_enabled(numba.__version__)
    patched = numba.core.codegen.CPUCodeLibrary.finalize is _jit._finalize_calling_big_kernels
    assert patched == on
