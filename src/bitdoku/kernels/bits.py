"""Bit tricks on masks: every one the kernels use lives here.

A mask is an unsigned integer whose bit d-1 stands for digit d. ``popcount`` and ``lowest_bit_index`` map to the
CPU's ``popcnt``, ``tzcnt`` and ``lzcnt`` through LLVM intrinsics, so they cost one instruction where the host has them.
"""

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import config
from numba.extending import intrinsic

#: Whether a kernel may use BMI2's ``pext`` (Numba compiles for this host's CPU unless told another).
HAS_PEXT = bool(llvm.get_host_cpu_features().get("bmi2", False)) and config.CPU_NAME is None and (
    config.CPU_FEATURES is None)
#: Whether pext is also fast here: AMD before Zen 3 (and its Bulldozer line) runs it as microcode, tens to hundreds
#: of cycles; there the kernels take their other form (jigsaw9's ``_unit_by_folding``, sudoku9's ``_bit_gather``
#: by shifts).
FAST_PEXT = HAS_PEXT and not llvm.get_host_cpu_name().startswith(("znver1", "znver2", "bdver", "btver"))


@intrinsic
def _ctpop(typingctx, x):
    """LLVM ``ctpop``: the number of set bits, in the argument's own integer type."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    """LLVM ``cttz``: the number of trailing zero bits (the width of the type for zero)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@intrinsic
def _ctlz(typingctx, x):
    """LLVM ``ctlz``: the number of leading zero bits (the width of the type for zero)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@njit(cache=True, nogil=True, inline="always")
def popcount(mask):
    """The number of set bits of an integer mask, as an int64."""
    return np.int64(_ctpop(mask))


@njit(cache=True, nogil=True, inline="always")
def lowest_bit_index(mask):
    """The index of the lowest set bit (digit - 1 for a digit mask); the type width for an empty mask."""
    return np.int64(_cttz(mask))


@njit(cache=True, nogil=True, inline="always")
def highest_bit_index(mask):
    """The index of the highest set bit of a nonzero int64 mask (-1 for an empty one)."""
    return np.int64(63) - np.int64(_ctlz(np.int64(mask)))


@njit(cache=True, nogil=True, inline="always")
def lowest_bit(mask):
    """The mask holding only the lowest set bit of ``mask`` (0 for 0), in the mask's own type."""
    return mask & (~mask + type(mask)(1))


@njit(cache=True, nogil=True, inline="always")
def full_mask(n):
    """The uint64 mask of digits 1..n, safe for n = 64 (where ``1 << 64`` would overflow)."""
    if n >= 64:
        return np.uint64(0xFFFFFFFFFFFFFFFF)
    return (np.uint64(1) << np.uint64(n)) - np.uint64(1)


@njit(cache=True, nogil=True, inline="always")
def digit_bit(digit):
    """The uint64 mask of one digit 1..64."""
    return np.uint64(1) << np.uint64(digit - 1)


#: ceil(4096 / d) for d = 0..64 (0 unused): ``small_quotient`` divides by a multiply and a shift with them.
_RECIPROCALS = np.array([0] + [(4096 + d - 1) // d for d in range(1, 65)], np.int64)


@njit(cache=True, nogil=True, inline="always")
def small_quotient(x, d):
    """``x // d`` for 0 <= x < 64 and 1 <= d <= 64 (rows, columns and box sides), without a division.

    Why: the box side of a grid is known only at run time, so ``row // r`` compiles to ``idiv``, 15-40 cycles, and
    the board kernel divides by box sides at every placement, pair and branching choice. With m = ceil(4096 / d),
    (x * m) >> 12 is exact here: x * m / 4096 exceeds x / d by less than 64 / 4096 = 1/64 <= 1/d, and x / d is at
    least 1/d below the next integer (tested for every x and d).
    """
    return (np.int64(x) * _RECIPROCALS[d]) >> 12
