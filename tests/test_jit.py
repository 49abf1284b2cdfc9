"""The project's numba set-up (analyzer/_jit.py): start-up without numba's BLAS probe.

``analyzer._jit`` imports numba's array registry with ``scipy.linalg.cython_blas`` hidden
(that probe imported all of scipy.linalg, ~0.35 s of every command's start-up).  These tests
pin what that may and may not change: nothing of ours loads scipy on the way to advice,
and jitted BLAS code and scipy itself still work afterwards.
"""
from __future__ import annotations

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
