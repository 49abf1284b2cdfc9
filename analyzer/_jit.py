"""Compiler flags for every numba kernel, in one place.

``cache=True`` keeps compiled kernels on disk between runs (first call compiles, later
processes load in milliseconds).  ``error_model='numpy'`` drops Python's zero-division
checks from the hot loops.  No fastmath: kernels are integer code.

Why a cache directory of our own: numba invalidates a cached kernel only when *its own*
source file changes, not when a kernel it calls in another file does (a cached
``batch`` kernel would keep running an old ``play_out``).  So the cache lives in a folder
named by a hash of every ``analyzer/**/*.py`` source: any edit to the package starts a fresh,
consistent cache.  ``NUMBA_CACHE_DIR`` set by the user still wins.
"""
from __future__ import annotations

import hashlib
import os
import weakref
from pathlib import Path

import sys

import numba
import numba.core.codegen
import numba.core.registry


def _import_numba_without_blas_probe() -> None:
    """Import ``numba.np.arraymath`` with scipy's BLAS module hidden.

    Why: numba loads its whole implementation registry before the first kernel runs (also
    for a kernel loaded from the cache), and ``numba.np.arraymath`` probes for BLAS at
    import by importing ``scipy.linalg.cython_blas``, which imports all of ``scipy.linalg``:
    ~0.35 s of every command's start-up on this machine (issue 14's 2 s target).  No kernel
    of ours calls BLAS.  With the module hidden, the probe's only effect in numba 0.68
    (``arraymath._HAVE_BLAS``) is that jitted ``np.convolve`` / ``np.correlate`` of floats
    use numba's own loop; ``np.dot`` and ``np.linalg`` in a kernel still work, because
    ``numba.np.linalg`` imports scipy when such a kernel compiles, and scipy imports
    normally afterwards (tests/test_jit.py pins both).  If scipy or numba's registry is
    already loaded, nothing is done.
    """
    key = "scipy.linalg.cython_blas"
    if key in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    sys.modules[key] = None  # ``import`` of a None entry raises ImportError at once
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if sys.modules.get(key, 0) is None:
            del sys.modules[key]


_import_numba_without_blas_probe()

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")


def _source_hash() -> str:
    h = hashlib.sha1()
    for path in sorted(Path(__file__).resolve().parent.rglob("*.py")):
        h.update(str(path.relative_to(Path(__file__).resolve().parent)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _cache_root() -> Path:
    # one root per installed copy of the package: two checkouts on one machine (or a
    # checkout and a non-editable install) must not prune each other's kernels
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    where = hashlib.sha1(str(Path(__file__).resolve().parent).encode()).hexdigest()[:12]
    return Path(base) / "binokel-analyzer" / "numba" / where


def _prune(root: Path, keep: Path, n_keep: int = 4) -> None:
    """Delete all but the newest few cache folders (each source edit makes a new one)."""
    import shutil

    try:
        dirs = sorted((d for d in root.iterdir() if d.is_dir() and d != keep),
                      key=lambda d: d.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in dirs[n_keep - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def _configure_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = _cache_root()
    target = root / _source_hash()
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # unwritable home: numba falls back to __pycache__ beside the sources
    _prune(root, keep=target)
    numba.config.CACHE_DIR = str(target)
    # the env var makes loky/dask worker processes use the same folder
    os.environ["NUMBA_CACHE_DIR"] = str(target)


_configure_cache()


class OneSignatureDispatcher(numba.core.registry.CPUDispatcher):
    """A numba dispatcher that compiles a kernel called from another kernel for the plain
    types of its arguments, never for the constants the caller passes.

    Why: numba types a constant argument of a kernel-to-kernel call as a literal
    (``play_contract(hands, -1, ...)`` as ``Literal[int](-1)``) and compiles a separate
    specialisation per pattern of constants -- with every kernel below it again.  The
    bid advice compiled ``play_contract``, ``play_out``, ``_play_core`` and each
    heuristic twice or four times that way: about half of its first-use compile time
    (docs/performance-first-use.md).  Typing the call with ``types.unliteral`` reuses the
    one ``int64`` specialisation; the caller casts its constant.  The results are the
    same (integer code; no fastmath, so LLVM folds no float differently).
    """

    #: set on a kernel made with ``inline="llvm"`` (see :func:`njit`)
    llvm_inline = False

    def add_overload(self, cres):
        """Register a compiled (or cache-loaded) signature; for an ``inline="llvm"`` kernel,
        first mark its LLVM function ``alwaysinline`` in the module that callers link in
        (and that the cache stores for them), so LLVM inlines it into every caller.
        Any other kernel's code library is noted for :func:`_finalize_calling_big_kernels`
        (a caller may call it instead of linking in a copy).

        A kernel loaded from the cache gets its loaders back in its code library's
        ``_reload_init`` (numba runs them at the load but leaves the new library's set
        empty): a kernel compiled later that links this one in (a small callee or an
        ``inline="llvm"`` helper, with its calls to big kernels) inherits them, so its own
        cache entry loads those big kernels too."""
        if cres.reload_init:
            cres.library._reload_init.update(cres.reload_init)
        if self.llvm_inline:
            mod = cres.library._get_module_for_linking()
            mod.get_function(cres.fndesc.llvm_func_name).add_function_attribute("alwaysinline")
        elif "<locals>" not in self.py_func.__qualname__:
            _CALLABLE[cres.library] = (_LoadKernel(self.py_func.__module__,
                                                   self.py_func.__qualname__,
                                                   tuple(cres.signature.args),
                                                   cres.fndesc.llvm_func_name),
                                       cres.fndesc.llvm_func_name)
        super().add_overload(cres)

    def compile(self, sig):
        """numba's ``compile``, after waiting for a helper process that compiles this kernel
        for these argument types into the cache (analyzer._compile_beside): numba then
        loads it instead of compiling it a second time."""
        beside = sys.modules.get("analyzer._compile_beside")
        if beside is not None and beside._PENDING:
            from numba.core import sigutils

            args, _ = sigutils.normalize_signature(sig)
            beside.wait_for(self, args)
        return super().compile(sig)

    def get_call_template(self, args, kws):
        from numba.core import types

        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def njit(*args, **kwargs):
    """``numba.njit`` with the project's flags (usable bare or with extra options); the
    dispatcher is a :class:`OneSignatureDispatcher`.

    ``inline="llvm"``: the kernel is compiled once, as its own function, and LLVM inlines
    it into each caller (``alwaysinline``), where ``inline="always"`` copies its numba IR
    into each caller and types and lowers it again there.  The machine code is the same
    kind (a small helper folded into its caller); the compile time is not: numba's IR
    inlining and the typing of the grown caller cost about 20 times LLVM's inlining
    (the solver's ``_lead``, docs/performance-first-use.md).  For a kernel that is not
    recursive and has no recursive call inside it (LLVM does not inline a recursive
    call).
    """
    llvm_inline = kwargs.get("inline") == "llvm"
    if llvm_inline:
        kwargs = {k: v for k, v in kwargs.items() if k != "inline"}
    opts = dict(JIT_OPTIONS)
    opts.update(kwargs)
    if args and callable(args[0]) and len(args) == 1 and not kwargs:
        return _one_signature(numba.njit(**opts)(args[0]))
    made = numba.njit(*args, **opts)
    if isinstance(made, numba.core.registry.CPUDispatcher):
        return _one_signature(made, llvm_inline)
    return lambda func: _one_signature(made(func), llvm_inline)


#: every kernel made with :func:`njit` in this process (for :func:`compile_counts`)
KERNELS: list = []


def _one_signature(disp, llvm_inline=False):
    # the class swap keeps numba's own construction (caching, options) untouched; the
    # subclass adds one flag, the typing of kernel-to-kernel calls and the LLVM inlining
    if type(disp) is numba.core.registry.CPUDispatcher:
        disp.__class__ = OneSignatureDispatcher
    disp.llvm_inline = llvm_inline
    KERNELS.append(disp)
    return disp


def compile_counts() -> dict:
    """What numba did for this process's kernels so far, from each dispatcher's own
    counters (``Dispatcher.stats``: one cache hit or miss per signature it was asked for).

    Returns ``{"loaded": signatures loaded from the on-disk cache, "compiled": signatures
    compiled, "kernels_compiled": kernels with at least one compiled signature,
    "kernels_loaded": kernels with at least one loaded one}``.  A kernel called only from
    other kernels counts too (numba compiles or loads it as its own dispatcher).
    """
    out = dict(loaded=0, compiled=0, kernels_compiled=0, kernels_loaded=0)
    for disp in KERNELS:
        st = disp.stats
        hits, misses = sum(st.cache_hits.values()), sum(st.cache_misses.values())
        out["loaded"] += hits
        out["compiled"] += misses
        out["kernels_loaded"] += hits > 0
        out["kernels_compiled"] += misses > 0
    return out


# --------------------------------------------------------------------------- separate linking
#: a callee kernel whose function has more LLVM instructions than this is called by its
#: callers in its own compiled code, not linked into them (see
#: :func:`_finalize_calling_big_kernels`).  LLVM's inliner (threshold 250-275 cost units at
#: -O3, about 5 per instruction) never inlines a function of this size that is not
#: ``alwaysinline``, so the callers' machine code is the one they had with the copy.
SEPARATE_MIN_INSTRUCTIONS = 300

#: code library of a compiled or cache-loaded kernel -> (its loader, its LLVM function name)
_CALLABLE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
#: code library -> instructions of its kernel's function (counted once, when first linked)
_SIZE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class _LoadKernel:
    """Picklable "compile or load kernel ``module.qualname`` for ``args``": numba runs it
    before it loads a cached caller (``CompileResult._rebuild`` runs the library's
    ``_reload_init`` first), so the callee's code is in the JIT engine when the caller's
    machine code, which calls it by name, is linked."""

    __slots__ = ("module", "qualname", "args", "symbol")

    def __init__(self, module: str, qualname: str, args: tuple, symbol: str):
        self.module, self.qualname, self.args, self.symbol = module, qualname, args, symbol

    def __call__(self) -> None:
        """Compile or load the kernel; if its function's name is not the one the caller
        calls, make that name resolve to it.  Why: numba's function names carry a
        per-process counter, so a callee compiled by another process (two commands
        compiling into one cache at once, the last writer's entry kept) has another name
        than the one the cached caller was linked against; unresolved, the call would jump
        to address 0.  Same kernel, same argument types: the same code."""
        import importlib

        import llvmlite.binding

        disp = importlib.import_module(self.module)
        for part in self.qualname.split("."):
            disp = getattr(disp, part)
        disp.compile(self.args)
        cres = disp.overloads[tuple(self.args)]
        name = cres.fndesc.llvm_func_name
        if name != self.symbol:
            llvmlite.binding.add_symbol(self.symbol, cres.library.get_pointer_to_function(name))

    def __reduce__(self):
        return (_LoadKernel, (self.module, self.qualname, self.args, self.symbol))

    def _key(self) -> tuple:
        return (self.module, self.qualname, self.args, self.symbol)

    def __eq__(self, other) -> bool:
        return isinstance(other, _LoadKernel) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"_LoadKernel({self.module}.{self.qualname}{self.args})"


def _instructions(library, name: str) -> int:
    """LLVM instructions of function ``name`` in the module ``library`` lends its callers."""
    n = _SIZE.get(library)
    if n is None:
        fn = library._get_module_for_linking().get_function(name)
        n = sum(1 for block in fn.blocks for _ in block.instructions)
        _SIZE[library] = n
    return n


_numba_finalize = numba.core.codegen.CPUCodeLibrary.finalize


def _finalize_calling_big_kernels(self):
    """``CPUCodeLibrary.finalize`` that links a big callee kernel by name instead of by copy.

    Why: numba links into every kernel a copy of each kernel it calls -- with everything
    those call -- and LLVM optimises and generates machine code for the whole copy again,
    at every level of a call tree (``advise_samples`` -> ``soloist_grid`` -> ... ->
    ``pimc_choose`` -> the solver: 8-11 levels).  That repeated work was about half of a
    PIMC command's first-use compile time (docs/performance-first-use.md).  Here a callee
    that is one of our kernels (:class:`OneSignatureDispatcher`, not ``inline="llvm"``) and
    has more than :data:`SEPARATE_MIN_INSTRUCTIONS` instructions is left out of the link:
    the caller keeps the declaration numba wrote, and the JIT engine resolves it to the
    callee's own machine code, compiled once.  The callee's loader (and its own
    dependencies' loaders) go into the caller's ``_reload_init``, so a caller loaded from
    the on-disk cache loads (or compiles) its callees first.  Smaller callees are linked
    as before (LLVM may inline them).  The machine code of each function is what it was:
    only the call into a big callee goes to its one copy instead of the caller's own.
    """
    keep = []
    for library in self._linking_libraries:
        entry = _CALLABLE.get(library)
        if entry is not None and _instructions(library, entry[1]) > SEPARATE_MIN_INSTRUCTIONS:
            self._reload_init.update(library._reload_init)
            self._reload_init.add(entry[0])
        else:
            keep.append(library)
    self._linking_libraries = keep
    return _numba_finalize(self)


#: numba versions whose ``CPUCodeLibrary`` internals (``_linking_libraries``,
#: ``_reload_init``, ``finalize``) this was written and tested against
SEPARATE_LINKING_NUMBA = ((0, 68),)


def separate_linking_enabled(version: str = numba.__version__,
                             environ=os.environ) -> bool:
    """Whether big callees are called rather than copied (:func:`_finalize_calling_big_kernels`).

    Only on a numba release it was tested with (the patch reads numba's private fields), and
    not when ``BINOKEL_JIT_COPY_CALLEES=1`` is set: then every kernel links copies as
    numba does by itself -- slower to compile the first time, the same results."""
    if environ.get("BINOKEL_JIT_COPY_CALLEES", "") not in ("", "0"):
        return False
    parts = version.split(".")
    try:
        major_minor = (int(parts[0]), int(parts[1]))
    except (IndexError, ValueError):
        return False
    return major_minor in SEPARATE_LINKING_NUMBA


if separate_linking_enabled():
    numba.core.codegen.CPUCodeLibrary.finalize = _finalize_calling_big_kernels
