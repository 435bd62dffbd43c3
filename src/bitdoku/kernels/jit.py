"""How kernel helpers are compiled: ``@borrowing`` (no Numba runtime) and ``@inlined`` (inlined by LLVM).

``@borrowing``: Numba's ``njit`` without its runtime.

Why: a function compiled with Numba's runtime (NRT, its reference counting and allocator) takes a reference to each
array argument on entry and drops it on exit, two atomic operations (``lock inc``, ``lock dec``) and two calls a
call, unless Numba's reference-count pruning can prove them useless; in the search kernels it mostly cannot (a
helper with loops and calls keeps them). A helper called for every placement or every digit of a search node paid
them thousands of times a search. Compiled without the runtime: a 25x25 node of the bitboard kernel took 0.90 of
its time, a node of the generic kernel (whose helpers take a workspace of nine arrays) 0.20, the logic's cell
forcing search 0.57 (0.49 to 0.28 ms; benchmarks/results/borrowing.md and rate_speed3.md).

A helper may use ``@borrowing`` when it only reads and writes the arrays it is given, and allocates none: no
``np.empty``, ``np.zeros``, array copies or functions that allocate or raise through the runtime (``np.max``
does). Numba refuses to compile one that does (a typing error names the call), so a mistake cannot go unseen. The
functions that allocate (the search drivers, the stack's growth) keep ``njit(cache=True, nogil=True)`` and call
the borrowing helpers as any other function: the arrays stay owned by the caller.
"""

from collections.abc import Callable
from typing import Any

from numba import njit
from numba.core import config
from numba.core.registry import CPUDispatcher


def borrowing(function: Callable[..., Any]) -> Any:
    """``njit(cache=True, nogil=True)`` without Numba's runtime: for helpers that only borrow arrays (above)."""
    return njit(cache=True, nogil=True, _nrt=False)(function)


class _CompiledOnly(CPUDispatcher):
    """The dispatcher of an ``@inlined`` helper: compiled code calls it, Python may not (it has no Python entry
    point, and Numba's own dispatcher would jump to a null address, killing the process)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{self.py_func.__module__}.{self.py_func.__qualname__} is inlined into compiled code and "
                        "has no Python entry point: call it from an @njit function")


def inlined(function: Callable[..., Any]) -> Any:
    """``@borrowing`` for a small helper called from several places in the kernels: compiled once and inlined by
    LLVM at each call site (``forceinline``), with no Python entry point.

    Why not Numba's ``inline="always"``: that copies the helper's Numba IR into every caller, re-reading its
    bytecode for each site, and types, rewrites and lowers each copy again, which is where a first compile spent
    most of its time. Numba's own inlining stays the tool for a helper with a single call site that would
    otherwise be a library of its own on the way from an entry point to the work (benchmarks/NOTES-compile.md).

    The helper gets no Python wrapper (``no_cpython_wrapper``, ``no_cfunc_wrapper``): a wrapper is lowered and
    compiled for nothing when only compiled code calls the function (14% of the 16x16 kernel's first compile).
    Calling it from Python raises ``TypeError``. Pass it typed values, not literals (``np.int64(0)``, not ``0``):
    a literal compiles a copy of the helper for that value.
    """
    if config.DISABLE_JIT:  # NUMBA_DISABLE_JIT=1: plain Python, for tracebacks and coverage
        return function
    options = {"nopython": True, "boundscheck": None, "nogil": True, "forceinline": True,
               "no_cpython_wrapper": True, "no_cfunc_wrapper": True, "_nrt": False}
    dispatcher = _CompiledOnly(py_func=function, locals={}, targetoptions=options)
    dispatcher.enable_caching()
    return dispatcher
