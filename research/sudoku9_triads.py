r"""Tried in rounds 14 and 15 (NOTES-kernels.md) and not kept: tdoku's triad rule in copies of the 9x9 kernel.

A triad (three cells of a row inside a box, or of a column inside a box) holds exactly three digits. "May": the
digits that can go there; exactly three, and they leave the rest of the triad's two units. "Must": the digits whose
only places in one of its units lie in the triad; exactly three, and the other digits leave it. Fewer than three that
may, or more than three that must, is a contradiction. The rule changes the search tree (and so the first solution
of a grid with several), never a status or a solution count. This script writes variants of
``src/bitdoku/kernels/sudoku9.py`` with the rule inserted, counts their trees, checks their statuses and solution
counts against the kernel itself, and leaves the timing to ``sudoku9_ab.py``. From the repository root::

    PYTHONPATH=src python research/sudoku9_triads.py write /tmp/triads          # base.py and one file a variant
    PYTHONPATH=src python research/sudoku9_triads.py count --sets top1465 hardest
    PYTHONPATH=src python research/sudoku9_triads.py same bands_f2 both_f2    # statuses and counts vs base
    PYTHONPATH=src python benchmarks/sudoku9_ab.py time t14base=/tmp/triads/base.py \
        t14bands=/tmp/triads/bands.py --copies 2 --rounds 7 --every 2

The rule, as inserted: for each digit, its band triads as one 64-bit word (band 0 from bit 0, band 1 from bit 32,
band 2 from bit 1; LLVM loads bands 0 and 1 with one 64-bit load) and its stack triads as one 30-bit word; bit-sliced
counters over the nine digits give every triad's "may" count (saturating at 4) and "must" count (modulo 4, checked
again where it reads 3); a triad confined in its box (band triads) or column (stack triads) is "must", which at the
fixpoint of locked candidates is the same as confined in its row or box (a triad set that is a union of
permutations has a triad alone in its row exactly when it is alone in its column). Strikes go through a plain
function (they are rare: 6-17% of calls). Round 15 added ``VECTOR256`` (``vector=2``: both layouts' counters in one
intrinsic with no vector wider than 256 bits; LLVM had put ``VECTOR``'s into the 512-bit registers, which turned out
not to be the cost) and the stack-triads-only variants (``stacks*``: the transpose of ``bands``, the same node savings
for a cheaper vector); research/results/triad_rule15.md.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the maintained scripts it uses
from sudoku9_ab import BUDGETS, DATA, EDGE, SETS, load

KERNEL = Path(__file__).resolve().parents[1] / "src" / "bitdoku" / "kernels" / "sudoku9.py"
#: name -> (TRIAD_MODE, TRIAD_FILLED, TRIAD_EVERY, TRIAD_GATE, TRIAD_SKIP_FULL, strikes on[, vector, once])
VARIANTS = {
    "bands": (7, 0, 1, 0, 1, True),
    "both": (15, 0, 1, 0, 1, True),
    "bands_all": (7, 0, 1, 0, 0, True),  # also on complete grids (17-clue: 1.44 calls a puzzle instead of 0.45)
    "bands_may": (5, 0, 1, 0, 1, True),
    "bands_must": (6, 0, 1, 0, 1, True),
    "naked": (16, 0, 1, 0, 1, True),  # "may" on both layouts, candidate triads from the count planes, vector tests
    "bands_every2": (7, 0, 2, 0, 1, True),
    "both_every2": (15, 0, 2, 0, 1, True),
    "bands_f2": (7, 2, 1, 0, 1, True),  # only after a propagation that filled 2 cells or more
    "both_f2": (15, 2, 1, 0, 1, True),
    "both_f4": (15, 4, 1, 0, 1, True),
    "both_f8": (15, 8, 1, 0, 1, True),
    "bands_branch3": (7, 0, 1, 3, 1, True),  # only before a branch on 3 candidates or more
    "bands_cost": (7, 0, 1, 0, 1, False),  # counted but never applied: the rule's own cost
    "both_f2_cost": (15, 2, 1, 0, 1, False),
    "bands_vec": (7, 0, 1, 0, 1, True, True),  # the counters as vector code (VECTOR)
    "both_vec": (15, 0, 1, 0, 1, True, True),
    "both_vec_once": (15, 0, 1, 0, 1, True, True, True),
    "both_vec_f2": (15, 2, 1, 0, 1, True, True),
    "both_vec_cost": (15, 0, 1, 0, 1, False, True),
    "both_v256": (15, 0, 1, 0, 1, True, 2),  # round 15: the counters in vectors of at most 256 bits (VECTOR256)
    "both_v256_cost": (15, 0, 1, 0, 1, False, 2),
    "bands_v256": (7, 0, 1, 0, 1, True, 2),
    "stacks": (11, 0, 1, 0, 1, True),  # round 15: the stack triads only (the transpose of "bands")
    "stacks_v256": (11, 0, 1, 0, 1, True, 2),
    "stacks_v256_cost": (11, 0, 1, 0, 1, False, 2),
}

#: The rule's code (constants substituted by ``variant``), inserted before ``_propagate``.
RULE = r'''TRIAD_BASE = BOX_COLUMNS * ROW_LOW  # the first cell of each triad of a band: bit 10*row + 3*box
TRIADS3 = TRIAD_BASE | (TRIAD_BASE << 32) | (TRIAD_BASE << 1)  # band 0 at bit 0, band 1 at bit 32, band 2 at bit 1
TRIAD_EVERY = 1  # the rule runs in states k with k % TRIAD_EVERY == TRIAD_PHASE
TRIAD_PHASE = 0
TRIAD_FILLED = 0  # the rule runs only after a propagation that filled this many cells
TRIAD_SKIP_FULL = 1  # not on a complete grid
TRIAD_GATE = 0  # > 0: the rule runs before a branch on that many candidates or more, not in _propagate
TRIAD_MODE = 15  # 1: may, 2: must, 4: bands, 8: stacks, 16: naked triads by vector tests
COUNT_ROW = -1  # scratch counters: states[COUNT_ROW] (calls, strikes, contradictions)


@njit(cache=True, nogil=True, inline="always")
def _band_presence(w0, w1, w2):
    """The band triads holding a digit whose three band words are given: one bit a triad, at its first cell, band 0
    from bit 0, band 1 from bit 32, band 2 from bit 1 (a row's triads at 0, 3, 6 and band 2's at 1, 4, 7)."""
    w01 = w0 | (w1 << 32)
    return ((w01 | (w01 >> 1) | (w01 >> 2)) & (TRIAD_BASE | (TRIAD_BASE << 32))) | (
        ((w2 | (w2 >> 1) | (w2 >> 2)) & TRIAD_BASE) << 1)


@njit(cache=True, nogil=True, inline="always")
def _stack_presence(w0, w1, w2):
    """The stack triads (a column inside a band) holding a digit: bit 10*band + column."""
    w01 = w0 | (w1 << 32)
    f01 = w01 | (w01 >> 10) | (w01 >> 20)
    f2 = w2 | (w2 >> 10) | (w2 >> 20)
    return (f01 & ROW_BITS) | ((f01 >> 22) & (ROW_BITS << 10)) | ((f2 & ROW_BITS) << 20)


@njit(cache=True, nogil=True, inline="always")
def _others(present):
    """For each triad of ``present`` (either layout), whether a triad ten or twenty bits away holds the digit too:
    the same box in another row for band triads, the same column in another band for stack triads."""
    return (present >> 10) | (present >> 20) | (present << 10) | (present << 20)


@njit(cache=True, nogil=True)
def _triad_strike(states, k, spot, stack, alone):
    """Apply the triad rule at one triad (bit ``spot`` of the band or stack layout).

    ``alone``: its three digits leave the rest of its two units. Else the digits it must hold (confined to it in
    one of its units) are counted again (the counter is modulo 4) and, when there are exactly three, the other
    digits leave it. -1 on a contradiction, else the words changed.
    """
    if stack:
        band = spot // 10
        triad = np.int64(ROW_LOW) << (spot % 10)
        rest_box = BOX_BLOCK[(spot % 10) // 3] & ~triad  # the rest of the box (the triad's band)
        rest_line = triad  # the rest of the column (the other bands)
    else:
        if spot >= 32:
            band, q = 1, spot - 32
        elif (spot % 10) % 3 == 1:
            band, q = 2, spot - 1
        else:
            band, q = 0, spot
        triad = np.int64(7) << q
        rest_box = BOX_BLOCK[(q % 10) // 3] & ~triad
        rest_line = (np.int64(ROW_BITS) << (10 * (q // 10))) & ~triad  # the rest of the row (the triad's band)
    inside = np.int64(0)
    held = np.int64(0)
    for digit in range(9):
        base = 3 * digit
        word = np.int64(states[k, base + band])
        if word & triad == 0:
            continue
        held |= np.int64(1) << digit
        if stack:
            line = (np.int64(states[k, base]) * (band != 0) | np.int64(states[k, base + 1]) * (band != 1) | np.int64(
                states[k, base + 2]) * (band != 2)) & rest_line
        else:
            line = word & rest_line
        if line == 0 or word & rest_box == 0:
            inside |= np.int64(1) << digit
    if not alone:
        if popcount(inside) != 3:
            return -1 if popcount(inside) > 3 else 0
        held &= ~inside
    changed = 0
    while held != 0:
        digit = lowest_bit_index(held)
        held &= held - 1
        for b in range(3):
            word = np.int64(states[k, 3 * digit + b])
            if not alone:
                cut = word & triad if b == band else np.int64(0)
            elif b == band:
                cut = word & (rest_box | (np.int64(0) if stack else rest_line))
            else:
                cut = word & rest_line if stack else np.int64(0)
            if cut != 0:
                states[k, 3 * digit + b] = word & ~cut
                _lose(states, k, b, cut)
                states[k, S_HIDDEN_DIRTY] |= np.int64(1) << digit
                states[k, S_LOCKED_DIRTY] |= np.int64(1) << digit
                changed += 1
    return changed


@njit(cache=True, nogil=True, inline="always")
def _triad_counts(present, others, counters):
    """Add one digit to the counters of one layout: digits that may go in each triad (modulo 4, and 4 or more), digits
    that must (modulo 4), and whether some digit there may go elsewhere in its units too."""
    may0, may1, may4, must0, must1, shared = counters
    carry = may0 & present
    may0 ^= present
    may4 |= may1 & carry
    may1 ^= carry
    must = present & ~others
    must1 ^= must0 & must
    must0 ^= must
    return may0, may1, may4, must0, must1, shared | (present & others)


@borrowing
def _triad_rule(states, k):
    """Each triad's three cells hold exactly three digits: -1 on a contradiction, else the words changed."""
    b = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    s = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    for digit in range(9):
        base = 3 * digit
        w0, w1, w2 = np.int64(states[k, base]), np.int64(states[k, base + 1]), np.int64(states[k, base + 2])
        if TRIAD_MODE & 4:
            present = _band_presence(w0, w1, w2)
            b = _triad_counts(present, _others(present), b)
        if TRIAD_MODE & 8:
            present = _stack_presence(w0, w1, w2)
            s = _triad_counts(present, _others(present), s)
    changed = 0
    for layout in range(2):
        if layout == 0 and TRIAD_MODE & 4 == 0 or layout == 1 and TRIAD_MODE & 8 == 0:
            continue
        may0, may1, may4, must0, must1, shared = b if layout == 0 else s
        triads = TRIADS3 if layout == 0 else BAND_FULL
        if triads & ~may4 & ~(may0 & may1) != 0:
            return -1  # a triad where fewer than three digits may go
        spots = may0 & may1 & ~may4 & shared & triads if TRIAD_MODE & 1 else np.int64(0)
        musts = must0 & must1 & may4 & triads if TRIAD_MODE & 2 else np.int64(0)
        while spots | musts != 0:
            alone = spots != 0
            spot = lowest_bit_index(spots if alone else musts)
            if alone:
                spots &= spots - 1
            else:
                musts &= musts - 1
            count = _triad_strike(states, k, spot, layout == 1, alone)
            if count < 0:
                return -1
            changed += count
    return changed


@njit(cache=True, nogil=True)
def _naked_triad_strike(states, k, band, triad, rest_own, rest_other):
    """The three digits of a triad leave the rest of its units: ``rest_own`` in its band, ``rest_other`` in the
    others (a stack triad's column). The words changed."""
    digits = _digits_meeting(_band_words(states, k, band), triad)
    changed = 0
    while digits != 0:
        digit = lowest_bit_index(digits)
        digits &= digits - 1
        for b in range(3):
            word = np.int64(states[k, 3 * digit + b])
            cut = word & (rest_own if b == band else rest_other)
            if cut != 0:
                states[k, 3 * digit + b] = word & ~cut
                _lose(states, k, b, cut)
                states[k, S_HIDDEN_DIRTY] |= np.int64(1) << digit
                states[k, S_LOCKED_DIRTY] |= np.int64(1) << digit
                changed += 1
    return changed


@njit(cache=True, nogil=True, inline="always")
def _naked_triads(states, k):
    """A triad's three cells hold exactly three digits, so when only three may go there they leave the rest of the
    triad's row and box (band triads) or column and box (stack triads). Only triads with two or three empty cells
    of at most three candidates each can have three digits (one empty cell would be a naked single), which the
    count planes tell for every triad of a band in a few operations; only those are tested, one vector test each.
    -1 on a contradiction, else the words changed."""
    changed = 0
    for band in range(3):
        unsolved = np.int64(states[k, S_UNSOLVED + band])
        base = S_COUNT + 4 * band
        big = unsolved & (np.int64(states[k, base + 2]) | np.int64(states[k, base + 3]))  # 4 candidates or more
        pairs = (unsolved & ((unsolved >> 1) | (unsolved >> 2))) | ((unsolved >> 1) & (unsolved >> 2))
        spots = TRIAD_BASE & ~(big | (big >> 1) | (big >> 2)) & pairs
        pairs = (unsolved & ((unsolved >> 10) | (unsolved >> 20))) | ((unsolved >> 10) & (unsolved >> 20))
        columns = ROW_BITS & ~(big | (big >> 10) | (big >> 20)) & pairs
        if spots | columns == 0:
            continue
        if COUNT_ROW >= 0:
            states[COUNT_ROW, 3] += np.uint32(1)
        words = _band_words(states, k, band)
        while spots != 0:
            q = lowest_bit_index(spots)
            spots &= spots - 1
            triad = np.int64(7) << q
            if popcount(_digits_meeting(words, triad)) == 3:
                rest = ((np.int64(ROW_BITS) << (10 * (q // 10))) | BOX_BLOCK[(q % 10) // 3]) & ~triad
                changed += _naked_triad_strike(states, k, band, triad, rest, np.int64(0))
        while columns != 0:
            column = lowest_bit_index(columns)
            columns &= columns - 1
            triad = np.int64(ROW_LOW) << column
            if popcount(_digits_meeting(words, triad)) == 3:
                changed += _naked_triad_strike(states, k, band, triad, BOX_BLOCK[column // 3] & ~triad, triad)
    return changed


'''
#: Its call at the end of ``_propagate``'s loop, after locked candidates found nothing.
CALL = r'''            unsolved = np.int64(states[k, S_UNSOLVED]) | np.int64(states[k, S_UNSOLVED + 1]) | np.int64(
                states[k, S_UNSOLVED + 2])
            if TRIAD_GATE == 0 and filled >= TRIAD_FILLED and k % TRIAD_EVERY == TRIAD_PHASE and (
                    unsolved != 0 or not TRIAD_SKIP_FULL):
                count = _triad_rule(states, k) if TRIAD_MODE & 16 == 0 else _naked_triads(states, k)
                if COUNT_ROW >= 0:
                    states[COUNT_ROW, 0] += np.uint32(1)
                    states[COUNT_ROW, 1] += np.uint32(count > 0)
                    states[COUNT_ROW, 2] += np.uint32(count < 0)
                if count < 0:
                    return -1
                if count > 0:
                    continue
'''
#: Its call before a branch instead (``TRIAD_GATE`` > 0).
GATE = r'''        while TRIAD_GATE > 0 and pos >= 0 and popcount(mask) >= TRIAD_GATE:
            count = _triad_rule(states, top)
            if COUNT_ROW >= 0:
                states[COUNT_ROW, 0] += np.uint32(1)
                states[COUNT_ROW, 1] += np.uint32(count > 0)
                states[COUNT_ROW, 2] += np.uint32(count < 0)
            if count == 0:
                break
            if count > 0:
                count = _propagate(states, top, flags)
            if count < 0:
                mask = np.int64(0)
                break
            placements += count
            band, pos, mask = _choose_cell(states, top)
'''
#: The vector form of the counters (digits 1-8 in eight lanes; digit 9 by the scalar code), before ``_triad_counts``.
VECTOR = r'''

def _tally_ir(builder, lanes, saturate):
    """IR: the per-bit count over the eight i64 lanes of ``lanes`` as bit planes (bit 0, bit 1, and, with
    ``saturate``, "4 or more"), three levels of bit-sliced adders on halves of the vector."""
    i32 = ir.IntType(32)

    def half(vector, count, upper):
        start = count if upper else 0
        mask = ir.Constant(ir.VectorType(i32, count), [start + i for i in range(count)])
        return builder.shuffle_vector(vector, ir.Constant(vector.type, ir.Undefined), mask)

    lo, hi = half(lanes, 4, False), half(lanes, 4, True)
    a0, a1 = builder.xor(lo, hi), builder.and_(lo, hi)
    x0, y0, x1, y1 = half(a0, 2, False), half(a0, 2, True), half(a1, 2, False), half(a1, 2, True)
    carry = builder.and_(x0, y0)
    s0 = builder.xor(x0, y0)
    x1y1 = builder.xor(x1, y1)
    s1 = builder.xor(x1y1, carry)
    s2 = builder.or_(builder.and_(x1, y1), builder.and_(carry, x1y1))
    zero, one = ir.Constant(i32, 0), ir.Constant(i32, 1)
    p0, q0 = builder.extract_element(s0, zero), builder.extract_element(s0, one)
    p1, q1 = builder.extract_element(s1, zero), builder.extract_element(s1, one)
    carry = builder.and_(p0, q0)
    t0 = builder.xor(p0, q0)
    p1q1 = builder.xor(p1, q1)
    t1 = builder.xor(p1q1, carry)
    if not saturate:
        return [t0, t1]
    p2, q2 = builder.extract_element(s2, zero), builder.extract_element(s2, one)
    c2 = builder.or_(builder.and_(p1, q1), builder.and_(carry, p1q1))
    return [t0, t1, builder.or_(builder.or_(p2, q2), c2)]


@intrinsic
def _band_tallies8(typingctx, states, k):
    """The band-triad counters of ``_triad_counts`` for digits 1-8 of state k at once (one digit a vector lane).

    The 24 words are one vector load (digit-major, so a band's eight words are a shuffle); presence, "others", must
    and shared are vector operations, and the sums over the lanes three levels of bit-sliced adders.
    """
    if not (isinstance(states, types.Array) and states.ndim == 2 and isinstance(k, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i8, i32, i64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
        v8, v8x64 = ir.VectorType(i32, 8), ir.VectorType(i64, 8)
        array = context.make_array(signature.args[0])(context, builder, args[0])
        stride = builder.extract_value(array.strides, 0)
        row = builder.gep(builder.bitcast(array.data, i8.as_pointer()), [builder.mul(args[1], stride)])
        words = builder.load(builder.bitcast(row, ir.VectorType(i32, 32).as_pointer()), align=4)

        def splat(value, vtype=v8):
            return ir.Constant(vtype, [ir.Constant(vtype.element, value)] * vtype.count)

        def band(b):
            mask = ir.Constant(v8, [3 * d + b for d in range(8)])
            w = builder.shuffle_vector(words, ir.Constant(words.type, ir.Undefined), mask)
            spread = builder.or_(w, builder.or_(builder.lshr(w, splat(1)), builder.lshr(w, splat(2))))
            return builder.and_(spread, splat(TRIAD_BASE))

        def others(x):
            return builder.or_(builder.or_(builder.lshr(x, splat(10)), builder.lshr(x, splat(20))),
                               builder.or_(builder.shl(x, splat(10)), builder.shl(x, splat(20))))

        a = builder.or_(band(0), builder.shl(band(2), splat(1)))
        b = band(1)
        oa, ob = others(a), others(b)

        def pack(low, high):
            return builder.or_(builder.zext(low, v8x64), builder.shl(builder.zext(high, v8x64), splat(32, v8x64)))

        present = pack(a, b)
        must = pack(builder.and_(a, builder.not_(oa)), builder.and_(b, builder.not_(ob)))
        shared = pack(builder.and_(a, oa), builder.and_(b, ob))
        may = _tally_ir(builder, present, True)
        must = _tally_ir(builder, must, False)
        undefined = ir.Constant(v8x64, ir.Undefined)
        lo = builder.shuffle_vector(shared, undefined, ir.Constant(ir.VectorType(i32, 4), [0, 1, 2, 3]))
        hi = builder.shuffle_vector(shared, undefined, ir.Constant(ir.VectorType(i32, 4), [4, 5, 6, 7]))
        shared = builder.or_(lo, hi)
        any_shared = builder.extract_element(shared, ir.Constant(i32, 0))
        for lane in range(1, 4):
            any_shared = builder.or_(any_shared, builder.extract_element(shared, ir.Constant(i32, lane)))
        return context.make_tuple(builder, signature.return_type, [*may, *must, any_shared])

    return types.UniTuple(types.int64, 6)(states, k), codegen


@intrinsic
def _stack_tallies8(typingctx, states, k):
    """The stack-triad counters of ``_triad_counts`` for digits 1-8 of state k at once (as ``_band_tallies8``)."""
    if not (isinstance(states, types.Array) and states.ndim == 2 and isinstance(k, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i8, i32, i64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
        v8 = ir.VectorType(i32, 8)
        array = context.make_array(signature.args[0])(context, builder, args[0])
        stride = builder.extract_value(array.strides, 0)
        row = builder.gep(builder.bitcast(array.data, i8.as_pointer()), [builder.mul(args[1], stride)])
        words = builder.load(builder.bitcast(row, ir.VectorType(i32, 32).as_pointer()), align=4)

        def splat(value):
            return ir.Constant(v8, [ir.Constant(i32, value)] * 8)

        def fold(b):
            mask = ir.Constant(v8, [3 * d + b for d in range(8)])
            w = builder.shuffle_vector(words, ir.Constant(words.type, ir.Undefined), mask)
            spread = builder.or_(w, builder.or_(builder.lshr(w, splat(10)), builder.lshr(w, splat(20))))
            return builder.and_(spread, splat(ROW_BITS))

        c = builder.or_(fold(0), builder.or_(builder.shl(fold(1), splat(10)), builder.shl(fold(2), splat(20))))
        oc = builder.or_(builder.or_(builder.lshr(c, splat(10)), builder.lshr(c, splat(20))),
                         builder.or_(builder.shl(c, splat(10)), builder.shl(c, splat(20))))
        may = _tally_ir(builder, c, True)
        must = _tally_ir(builder, builder.and_(c, builder.not_(oc)), False)
        shared = builder.and_(c, oc)
        undefined = ir.Constant(v8, ir.Undefined)
        lo = builder.shuffle_vector(shared, undefined, ir.Constant(ir.VectorType(i32, 4), [0, 1, 2, 3]))
        hi = builder.shuffle_vector(shared, undefined, ir.Constant(ir.VectorType(i32, 4), [4, 5, 6, 7]))
        shared = builder.or_(lo, hi)
        any_shared = builder.extract_element(shared, ir.Constant(i32, 0))
        for lane in range(1, 4):
            any_shared = builder.or_(any_shared, builder.extract_element(shared, ir.Constant(i32, lane)))
        values = [builder.zext(value, i64) for value in [*may, *must, any_shared]]
        return context.make_tuple(builder, signature.return_type, values)

    return types.UniTuple(types.int64, 6)(states, k), codegen
'''
#: The scalar loop over the digits that ``VECTOR`` replaces.
LOOP = r'''    b = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    s = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    for digit in range(9):
        base = 3 * digit
        w0, w1, w2 = np.int64(states[k, base]), np.int64(states[k, base + 1]), np.int64(states[k, base + 2])
        if TRIAD_MODE & 4:
            present = _band_presence(w0, w1, w2)
            b = _triad_counts(present, _others(present), b)
        if TRIAD_MODE & 8:
            present = _stack_presence(w0, w1, w2)
            s = _triad_counts(present, _others(present), s)
'''
VECTOR_LOOP = r'''    b = _band_tallies8(states, k)
    w0, w1, w2 = np.int64(states[k, 24]), np.int64(states[k, 25]), np.int64(states[k, 26])
    present = _band_presence(w0, w1, w2)
    b = _triad_counts(present, _others(present), b)
    s = b
    if TRIAD_MODE & 8:
        s = _stack_tallies8(states, k)
        present = _stack_presence(w0, w1, w2)
        s = _triad_counts(present, _others(present), s)
'''
#: The counters of both layouts in one intrinsic whose vectors are at most 256 bits (``vector=2``).
VECTOR256 = r'''

def _tally_ir(builder, lanes, saturate):
    """IR: the per-bit count over the eight lanes of ``lanes`` as bit planes (bit 0, bit 1, and, with ``saturate``,
    "4 or more"), three levels of bit-sliced adders on halves of the vector."""
    i32 = ir.IntType(32)

    def half(vector, count, upper):
        start = count if upper else 0
        mask = ir.Constant(ir.VectorType(i32, count), [start + i for i in range(count)])
        return builder.shuffle_vector(vector, ir.Constant(vector.type, ir.Undefined), mask)

    lo, hi = half(lanes, 4, False), half(lanes, 4, True)
    a0, a1 = builder.xor(lo, hi), builder.and_(lo, hi)
    x0, y0, x1, y1 = half(a0, 2, False), half(a0, 2, True), half(a1, 2, False), half(a1, 2, True)
    carry = builder.and_(x0, y0)
    s0 = builder.xor(x0, y0)
    x1y1 = builder.xor(x1, y1)
    s1 = builder.xor(x1y1, carry)
    s2 = builder.or_(builder.and_(x1, y1), builder.and_(carry, x1y1))
    zero, one = ir.Constant(i32, 0), ir.Constant(i32, 1)
    p0, q0 = builder.extract_element(s0, zero), builder.extract_element(s0, one)
    p1, q1 = builder.extract_element(s1, zero), builder.extract_element(s1, one)
    carry = builder.and_(p0, q0)
    t0 = builder.xor(p0, q0)
    p1q1 = builder.xor(p1, q1)
    t1 = builder.xor(p1q1, carry)
    if not saturate:
        return [t0, t1]
    p2, q2 = builder.extract_element(s2, zero), builder.extract_element(s2, one)
    c2 = builder.or_(builder.and_(p1, q1), builder.and_(carry, p1q1))
    return [t0, t1, builder.or_(builder.or_(p2, q2), c2)]


def _any_ir(builder, lanes):
    """IR: the OR of the eight i32 lanes of ``lanes``."""
    i32 = ir.IntType(32)
    undefined = ir.Constant(lanes.type, ir.Undefined)
    for count in (4, 2, 1):
        lo = builder.shuffle_vector(lanes, undefined, ir.Constant(ir.VectorType(i32, count), list(range(count))))
        hi = builder.shuffle_vector(lanes, undefined,
                                    ir.Constant(ir.VectorType(i32, count), list(range(count, 2 * count))))
        lanes = builder.or_(lo, hi)
        undefined = ir.Constant(lanes.type, ir.Undefined)
    return builder.extract_element(lanes, ir.Constant(i32, 0))


@intrinsic
def _tallies8(typingctx, states, k):
    """The counters of ``_triad_counts`` for digits 1-8 of state k, band triads then stack triads (twelve words).

    No vector wider than 256 bits: the 24 words are three 8-lane loads, a band's eight words two two-source
    shuffles, and the band layout's two halves (bands 0 and 2, band 1) are tallied apart and joined as scalars.
    (With a 1024-bit load and 512-bit lanes LLVM used the zmm registers.)
    """
    if not (isinstance(states, types.Array) and states.ndim == 2 and isinstance(k, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i8, i32, i64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
        v8 = ir.VectorType(i32, 8)
        array = context.make_array(signature.args[0])(context, builder, args[0])
        stride = builder.extract_value(array.strides, 0)
        row = builder.gep(builder.bitcast(array.data, i8.as_pointer()), [builder.mul(args[1], stride)])
        loads = [builder.load(builder.bitcast(builder.gep(row, [ir.Constant(i64, 32 * i)]), v8.as_pointer()),
                              align=4) for i in range(3)]

        def splat(value):
            return ir.Constant(v8, [ir.Constant(i32, value)] * 8)

        def gather(b):
            index = [3 * d + b for d in range(8)]
            first = builder.shuffle_vector(loads[0], loads[1], ir.Constant(v8, [i if i < 16 else 0 for i in index]))
            return builder.shuffle_vector(first, loads[2], ir.Constant(
                v8, [lane if i < 16 else 8 + i - 16 for lane, i in enumerate(index)]))

        def others(x):
            return builder.or_(builder.or_(builder.lshr(x, splat(10)), builder.lshr(x, splat(20))),
                               builder.or_(builder.shl(x, splat(10)), builder.shl(x, splat(20))))

        w = [gather(b) for b in range(3)]
        values = []
        if TRIAD_MODE & 4:
            def band(x):
                spread = builder.or_(x, builder.or_(builder.lshr(x, splat(1)), builder.lshr(x, splat(2))))
                return builder.and_(spread, splat(TRIAD_BASE))

            halves = [builder.or_(band(w[0]), builder.shl(band(w[2]), splat(1))), band(w[1])]
            parts = []
            for x in halves:
                ox = others(x)
                parts.append((_tally_ir(builder, x, True), _tally_ir(builder, builder.and_(x, builder.not_(ox)), False),
                              _any_ir(builder, builder.and_(x, ox))))
            low, high = parts
            for lo, hi in zip([*low[0], *low[1], low[2]], [*high[0], *high[1], high[2]]):
                high_word = builder.shl(builder.zext(hi, i64), ir.Constant(i64, 32))
                values.append(builder.or_(builder.zext(lo, i64), high_word))
        else:
            values += [ir.Constant(i64, 0)] * 6
        if TRIAD_MODE & 8:
            def fold(x):
                spread = builder.or_(x, builder.or_(builder.lshr(x, splat(10)), builder.lshr(x, splat(20))))
                return builder.and_(spread, splat(ROW_BITS))

            c = builder.or_(fold(w[0]), builder.or_(builder.shl(fold(w[1]), splat(10)),
                                                    builder.shl(fold(w[2]), splat(20))))
            oc = others(c)
            may = _tally_ir(builder, c, True)
            must = _tally_ir(builder, builder.and_(c, builder.not_(oc)), False)
            values += [builder.zext(value, i64) for value in [*may, *must, _any_ir(builder, builder.and_(c, oc))]]
        else:
            values += [ir.Constant(i64, 0)] * 6
        return context.make_tuple(builder, signature.return_type, values)

    return types.UniTuple(types.int64, 12)(states, k), codegen
'''
VECTOR256_LOOP = r'''    t = _tallies8(states, k)
    b = (t[0], t[1], t[2], t[3], t[4], t[5])
    s = (t[6], t[7], t[8], t[9], t[10], t[11])
    w0, w1, w2 = np.int64(states[k, 24]), np.int64(states[k, 25]), np.int64(states[k, 26])
    if TRIAD_MODE & 4:
        present = _band_presence(w0, w1, w2)
        b = _triad_counts(present, _others(present), b)
    if TRIAD_MODE & 8:
        present = _stack_presence(w0, w1, w2)
        s = _triad_counts(present, _others(present), s)
'''


def variant(kernel: str, mode: int, filled: int, every: int, gate: int, skip_full: int, strikes: bool,
            vector: bool = False, once: bool = False, count_row: int = -1) -> str:
    """The kernel's text with the rule inserted before ``_propagate`` and called where its constants say.

    ``vector``: the counters by ``VECTOR``; ``once``: not again at a node after it struck there.
    """
    anchor = "\n\n@borrowing\ndef _propagate("
    rule = RULE
    counts = "\n\n@njit(cache=True, nogil=True, inline=\"always\")\ndef _triad_counts("
    if vector == 2:
        rule = rule.replace(counts, VECTOR256 + counts, 1).replace(LOOP, VECTOR256_LOOP, 1)
        assert "_tallies8(states, k)" in rule
    elif vector:
        rule = rule.replace(counts, VECTOR + counts, 1).replace(LOOP, VECTOR_LOOP, 1)
        assert "_band_tallies8(states, k)" in rule
    for name, value in (("TRIAD_MODE", mode), ("TRIAD_FILLED", filled), ("TRIAD_EVERY", every),
                        ("TRIAD_GATE", gate), ("TRIAD_SKIP_FULL", skip_full), ("COUNT_ROW", count_row)):
        rule = re.sub(rf"^{name} = -?\d+", f"{name} = {value}", rule, flags=re.M)
    if not strikes:  # a runtime test that never holds, so the counters are still computed
        rule = rule.replace("        while spots | musts != 0:\n", "        if np.int64(states[k, STATE_WORDS - 1]) != "
                            "0xFFFFFFFF:\n            spots = np.int64(0)\n            musts = np.int64(0)\n"
                            "        while spots | musts != 0:\n")
    text = kernel.replace(anchor, "\n" + rule + anchor, 1)
    ret = "            if count > 0:\n                continue\n        return filled\n"
    call = CALL
    if once:
        call = call.replace("and filled >= TRIAD_FILLED", "and not ruled and filled >= TRIAD_FILLED").replace(
            "_naked_triads(states, k)\n", "_naked_triads(states, k)\n                ruled = count > 0\n")
        start = "    naked = flags & NAKED_SINGLES != 0\n    filled = 0\n"
        text = text.replace(start, start + "    ruled = False\n", 1)
    text = text.replace(ret, ret.replace("        return filled\n", call + "        return filled\n"), 1)
    choose = "        band, pos, mask = _choose_cell(states, top)\n        if pos < 0:\n"
    text = text.replace(choose, choose.replace("        if pos < 0:\n", GATE + "        if pos < 0:\n"), 1)
    assert text.count("_triad_rule(states") == 3, "the kernel changed: the insertion points are gone"
    return text


DRIVER = """

@njit(cache=True, nogil=True)
def t14_rows(puzzles, limit, max_nodes, status, stats, counts):
    \"\"\"Search every row; the rule's calls, calls that struck and contradictions into ``counts``.\"\"\"
    states = np.zeros((MAX_DEPTH + 1, STATE_WORDS), np.uint32)
    frames = np.empty((MAX_DEPTH, 3), np.int64)
    stop = np.zeros(1, np.int64)
    solutions = np.zeros((2, 81), np.uint8)
    for row in range(puzzles.shape[0]):
        for i in range(4):
            states[MAX_DEPTH, i] = 0
        status[row] = search9_in(puzzles[row], limit, max_nodes, 7, solutions, stats[row], states, frames, stop)
        for i in range(4):
            counts[row, i] = states[MAX_DEPTH, i]
"""


def modules(names: list[str]):
    """Import the kernel and each named variant, with the counting driver appended (scratch folder of their own)."""
    scratch = Path("/tmp") / "sudoku9_triads_modules"
    scratch.mkdir(exist_ok=True)
    sys.path.insert(0, str(scratch))
    kernel = KERNEL.read_text()
    out = []
    for name in ["base", *names]:
        text = kernel if name == "base" else variant(kernel, *VARIANTS[name], count_row=82)
        text += DRIVER
        path = scratch / f"t14_{name}.py"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        out.append((name, importlib.import_module(f"t14_{name}")))
    return out


def search(module, puzzles: np.ndarray, limit: int, max_nodes: int = 10**9):
    """Statuses, stats and rule counters of every row."""
    n = puzzles.shape[0]
    status, stats, counts = np.zeros(n, np.int64), np.zeros((n, 8), np.int64), np.zeros((n, 4), np.int64)
    module.t14_rows(puzzles, limit, max_nodes, status, stats, counts)
    return status, stats, counts


def count(names: list[str], sets: list[str]) -> None:
    """Print nodes, guesses, placements and the rule's calls and strikes a puzzle (17-clue: first 10,000)."""
    for name, module in modules(names):
        for label in sets:
            puzzles = load(SETS[label], DATA)[:10_000]
            for limit in (1, 2):
                _, stats, counts = search(module, puzzles, limit)
                print(f"{name:14s} {label:8s} {'first' if limit == 1 else 'unique':6s} nodes {stats[:, 1].mean():8.3f}"
                      f" guesses {stats[:, 2].mean():8.3f} placements {stats[:, 5].mean():7.1f}"
                      f" calls {counts[:, 0].mean():7.2f} struck {counts[:, 1].mean():6.2f}", flush=True)


def same(names: list[str]) -> int:
    """Count the cases where a variant's statuses or solution counts differ from the kernel's.

    The three sets at limits 1 and 2; the edge files (as ``sudoku9_ab.py check``, plus the empty grid) at the
    (limit, budget) pairs of ``sudoku9_ab.BUDGETS``, comparing counts where neither search ran out of budget.
    """
    mods = modules(names)
    cases = [(label, load(file, DATA), limit, 10**9) for label, file in SETS.items() for limit in (1, 2)]
    for file in EDGE:
        puzzles = np.concatenate([load(file, DATA), np.zeros((1, 81), np.uint8)])
        cases += [(file, puzzles, limit, budget) for limit, budget in BUDGETS]
    bad = 0
    for label, puzzles, limit, budget in cases:
        status, stats, _ = search(mods[0][1], puzzles, limit, budget)
        for name, module in mods[1:]:
            other, other_stats, _ = search(module, puzzles, limit, budget)
            done = (status != 2) & (other != 2)  # BUDGET_EXHAUSTED: the trees differ, so may the budget's end
            wrong = int((done & (status != other)).sum() + (done & (stats[:, 0] != other_stats[:, 0])).sum())
            if wrong:
                print(f"mismatch: {name} {label} limit={limit} budget={budget}: {wrong}")
            bad += wrong
    print(f"checked {len(cases)} cases x {len(mods) - 1} variants: {bad} mismatches")
    return bad


def main() -> None:
    """Parse the command line and write, count or check."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["write", "count", "same"])
    parser.add_argument("args", nargs="*", help="write: a folder; count, same: variant names (default: all)")
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    args = parser.parse_args()
    if args.mode == "write":
        folder = Path(args.args[0])
        folder.mkdir(parents=True, exist_ok=True)
        kernel = KERNEL.read_text()
        (folder / "base.py").write_text(kernel)
        for name, spec in VARIANTS.items():
            (folder / f"{name}.py").write_text(variant(kernel, *spec))
        print(f"wrote base.py and {len(VARIANTS)} variants to {folder}")
    elif args.mode == "count":
        count(args.args or list(VARIANTS), args.sets)
    else:
        sys.exit(1 if same(args.args or list(VARIANTS)) else 0)


if __name__ == "__main__":
    main()
