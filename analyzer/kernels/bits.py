"""Bit intrinsics of the kernels: population count, trailing zeros, parallel bit extract.

A hand plane is a 24-bit (48-bit for the solver's keys) int64 mask of card types, so the
kernels count, find and pack set bits all the time.  These are LLVM intrinsics (one
machine instruction each on x86-64), usable only inside numba-compiled code; the njit
helpers :func:`popcount`, :func:`lowest_bit` and :func:`select_bit` also take plain
Python ints.  No rules and no game state here: every layer's kernels may import it.

- :func:`ctpop` - number of set bits of an int64 (LLVM ``ctpop``).
- :func:`cttz` - index of the lowest set bit of a non-zero int64 (LLVM ``cttz``).
- :func:`pext` - the bits of ``x`` at the set bits of ``m``, packed low: BMI2's ``pext``
  where the CPU has it (:data:`HAVE_BMI2`), else :func:`pext_sw`, the same in plain
  integer code (tests/kernels/test_bits.py checks both against a Python reference).
"""
from __future__ import annotations

import numpy as np
from llvmlite import binding as _llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from analyzer._jit import njit

#: whether this CPU has BMI2's pext (the solver's transposition keys use it when it does)
HAVE_BMI2 = bool(_llvm.get_host_cpu_features().get("bmi2", False))

_Z = np.int64(0)


@intrinsic
def ctpop(typingctx, x):
    """LLVM population count of an int64."""
    if x != types.int64:
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def cttz(typingctx, x):
    """LLVM count of trailing zeros of an int64 (x != 0)."""
    if x != types.int64:
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def pext_hw(typingctx, x, m):
    """BMI2 parallel bit extract: the bits of ``x`` at the set bits of ``m``, packed low."""
    if x != types.int64 or m != types.int64:
        return None
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                            "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return sig, codegen


@njit(_nrt=False, inline="always")
def pext_sw(x, m):
    """:func:`pext_hw` in plain integer code (CPUs without BMI2)."""
    r = _Z
    bit = np.int64(1)
    while m != 0:
        if x & m & -m:
            r |= bit
        bit <<= np.int64(1)
        m &= m - 1
    return r


pext = pext_hw if HAVE_BMI2 else pext_sw


@njit
def popcount(x):
    """Number of set bits of an int64."""
    return ctpop(np.int64(x))


@njit
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero int64."""
    return cttz(np.int64(x))


@njit
def select_bit(x, k):
    """Index of the k-th (0-based, from the lowest) set bit of int64 ``x``."""
    x = np.int64(x)
    for _ in range(k):
        x &= x - 1
    return cttz(x)
