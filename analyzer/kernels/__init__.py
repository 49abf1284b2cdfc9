"""Kernels: numba code over plain integers and arrays, below the policies and the search.

Each module holds one concern of ENGINE.md's kernel layer; today :mod:`analyzer.kernels.bits`
(bit intrinsics), the rest of the play and deal kernels still live in analyzer.mechanics.
"""
