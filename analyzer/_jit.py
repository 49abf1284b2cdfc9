"""Compiler flags for every numba kernel, in one place.

``cache=True`` keeps compiled kernels on disk between runs (first call compiles, later
processes load in milliseconds).  ``error_model='numpy'`` drops Python's zero-division
checks from the hot loops.  No fastmath: kernels are integer code.
"""
from __future__ import annotations

import numba

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")


def njit(*args, **kwargs):
    """``numba.njit`` with the project's flags (usable bare or with extra options)."""
    opts = dict(JIT_OPTIONS)
    opts.update(kwargs)
    if args and callable(args[0]) and len(args) == 1 and not kwargs:
        return numba.njit(**opts)(args[0])
    return numba.njit(*args, **opts)
