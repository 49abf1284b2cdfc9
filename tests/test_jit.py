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
