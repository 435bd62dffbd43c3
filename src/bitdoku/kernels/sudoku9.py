"""The specialised 9x9 search: digit-major band bitboards, propagated with word-wide bit tricks.

Representation (the idea of JCZSolve and tdoku's band layout, written here from scratch): for each digit d and
each band b (three rows), one 30-bit word holds the cells of the band where d may still go, 10 bits a row
(bit ``10*r + c``; bits 9, 19 and 29 stay zero as guards). A filled cell stays set in its own digit's word and is
cleared from the others; ``unsolved`` words (one a band) say which cells are still empty. Each band also keeps its
empty cells' candidate counts as four bit planes (``S_COUNT``), kept exact by every write that clears a candidate.
A state is ``STATE_WORDS`` uint32 words, copied to the next depth on a guess.

Why digit-major: every rule becomes a few operations on whole words instead of a loop over cells.

* Naked singles: the count planes give every cell with one candidate, and every empty cell with none, in a few
  operations a band. A write that clears candidates subtracts one from their cells' counts (``_lose``, a
  bit-sliced borrow chain), so a pass reads 4 words a band instead of counting over the nine digit words: the
  work is done where a candidate went, not by a scan (benchmarks/NOTES-kernels.md, round 10).
* Hidden singles in rows: a SWAR "has exactly one bit" test on the three 9-bit rows of a word at once, using
  the guard bits to stop borrows. Columns and boxes come from the same ``once``/``twice`` counting over rows.
* Locked candidates: inside a band the three rows and three boxes of a digit must form a permutation of
  *triads* (box-row intersections), and the same holds for stacks and columns. ``PERMUTATIONS[p]`` is the union
  of the permutations inside a 9-bit triad set p (0 when there is none), which implies pointing and claiming and
  a little more.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from bitdoku.kernels.bits import FAST_PEXT, lowest_bit_index, popcount
from bitdoku.kernels.jit import borrowing, inlined
from bitdoku.kernels.rng import hashed_bit
from bitdoku.kernels.status import (
    ALL_RULES,
    BUDGET_EXHAUSTED,
    COMPLETE,
    CONTRADICTION,
    HIDDEN_SINGLES,
    INVALID,
    LIMIT_REACHED,
    LOCKED_CANDIDATES,
    NAKED_SINGLES,
    RANDOM_ORDER,
    STAT_BACKTRACKS,
    STAT_GUESSES,
    STAT_MAX_DEPTH,
    STAT_NODES,
    STAT_PLACEMENTS,
    STAT_SOLUTIONS,
    STAT_SPECIALISED,
    STOPPED,
)

S_UNSOLVED = 27
S_HIDDEN_DIRTY = 30  # digits whose words changed since hidden singles last looked at them
S_LOCKED_DIRTY = 31  # the same for locked candidates
S_COUNT = 32  # bit `plane` of each empty cell's candidate count: word S_COUNT + 4*band + plane (filled: garbage)
STATE_WORDS = 44
MAX_DEPTH = 82

ROW_LOW = (1 << 0) | (1 << 10) | (1 << 20)  # the lowest bit of each row
GUARDS = ROW_LOW << 9  # the zero bit above each row
ROW_BITS = 0x1FF
BAND_FULL = ROW_BITS * ROW_LOW
BOX_COLUMNS = 0x49  # the first column of each box, in a 9-bit column mask


def _build_tables():
    """Cell positions, the masks a placement keeps, and the triad permutation tables."""
    cell_band = np.arange(81, dtype=np.int64) // 27
    cell_pos = np.array([10 * ((cell % 27) // 9) + cell % 9 for cell in range(81)], dtype=np.int64)
    keep_same = np.zeros(30, dtype=np.int64)
    keep_other = np.zeros(30, dtype=np.int64)
    box_block = np.array([(7 << (3 * k)) * ROW_LOW for k in range(3)], dtype=np.int64)
    for pos in range(30):
        row, col = divmod(pos, 10)
        if col == 9:
            continue
        seen = (ROW_BITS << (10 * row)) | box_block[col // 3]
        keep_same[pos] = (BAND_FULL & ~seen) | (1 << pos)
        keep_other[pos] = BAND_FULL & ~((1 << col) * ROW_LOW)
    permutations = np.zeros(512, dtype=np.int64)
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    for triads in range(512):
        union = 0
        for perm in perms:
            bits = sum(1 << (3 * row + perm[row]) for row in range(3))
            if triads & bits == bits:
                union |= bits
        permutations[triads] = union
    triad_cells = np.zeros(512, dtype=np.int64)
    for triads in range(512):
        cells = 0
        for row in range(3):
            for box in range(3):
                if triads >> (3 * row + box) & 1:
                    cells |= 7 << (10 * row + 3 * box)
        triad_cells[triads] = cells
    units = np.zeros((27, 9), dtype=np.int32)
    for i in range(9):
        units[i] = np.arange(9) + 9 * i
        units[9 + i] = np.arange(9) * 9 + i
        units[18 + i] = [27 * (i // 3) + 3 * (i % 3) + 9 * r + c for r in range(3) for c in range(3)]
    return cell_band, cell_pos, keep_same, keep_other, box_block, permutations, triad_cells, units


CELL_BAND, CELL_POS, KEEP_SAME, KEEP_OTHER, BOX_BLOCK, PERMUTATIONS, TRIAD_CELLS, STANDARD_UNITS = _build_tables()
PEERS_SAME = BAND_FULL & ~KEEP_SAME  # the peers of a cell inside its own band
COLUMN = BAND_FULL & ~KEEP_OTHER  # a cell's column inside a band
POS_CELL = np.array([9 * (pos // 10) + pos % 10 for pos in range(30)], dtype=np.int64)  # band position -> cell of band


def _peer_lanes():
    """A cell's peers in the three bands as one row of four uint32 lanes a (band, position), for ``_pair_score``:
    its row and box (``PEERS_SAME``) in its own band's lane, its column (``COLUMN``) in the other two, 0 in the
    fourth (so that whatever a 4-word load brings there counts for nothing)."""
    lanes = np.zeros((3, 30, 4), dtype=np.uint32)
    for band in range(3):
        for lane in range(3):
            lanes[band, :, lane] = PEERS_SAME if lane == band else COLUMN
    return lanes


PEER_LANES = _peer_lanes()


@intrinsic
def _borrowed(typingctx, array):
    """The same array without its memory-manager pointer: a borrowed view, valid while ``array`` lives.

    Numba increments and decrements an array's reference count (a locked add) around the calls and inlined
    functions that take the array, dozens of times a node; with no memory-manager pointer those calls only test
    for null. Worth 2% on forum_hardest_1106, 4-8% on the easy sets (benchmarks/NOTES-kernels.md, round 3).
    """
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        source = context.make_array(signature.args[0])(context, builder, args[0])
        view = context.make_array(signature.return_type)(context, builder)
        view.meminfo = context.get_constant_null(types.MemInfoPointer(types.voidptr))
        view.parent = context.get_constant_null(types.pyobject)
        view.nitems = source.nitems
        view.itemsize = source.itemsize
        view.data = source.data
        view.shape = source.shape
        view.strides = source.strides
        return view._getvalue()

    return array(array), codegen


@intrinsic
def _digits_meeting(typingctx, words, cells):
    """The digits whose band word (of the nine ``_band_words``) meets the band mask ``cells``, as a 9-bit mask.

    A cell's candidates when ``cells`` is one bit. One vector test (digits 1-8 in eight 32-bit lanes, digit 9
    alone) instead of nine shifts, masks and ORs: scoring a bivalue cell in ``_choose_cell`` spent about 40 of its
    ~90 instructions on that gather. LLVM lowers the vector code for whatever the CPU has (with AVX-512: a
    broadcast, one ``vptestmd`` and a ``kmov``; the vector of words is built once a band, outside the cell loop).
    Used by ``_choose_cell`` and the naked pass: 3.2-3.6% on the hard sets (benchmarks/NOTES-kernels.md, round 13).
    Not in ``_place`` (its nine stores stay; 0.5% slower there), and not as one 16-lane vector with digit 9 inside
    (512-bit registers on this Xeon: every gain lost).
    """
    if not (isinstance(words, types.UniTuple) and words.count == 9 and isinstance(cells, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        tuple_value, cells_value = args
        i32, i64 = ir.IntType(32), ir.IntType(64)
        lanes = ir.VectorType(i32, 8)
        vector = ir.Constant(lanes, ir.Undefined)
        for digit in range(8):
            word = builder.trunc(builder.extract_value(tuple_value, digit), i32)
            vector = builder.insert_element(vector, word, ir.Constant(i32, digit))
        splat = builder.insert_element(ir.Constant(lanes, ir.Undefined), builder.trunc(cells_value, i32),
                                       ir.Constant(i32, 0))
        splat = builder.shuffle_vector(splat, ir.Constant(lanes, ir.Undefined), ir.Constant(lanes, None))
        held = builder.icmp_unsigned("!=", builder.and_(vector, splat), ir.Constant(lanes, None))
        low = builder.zext(builder.bitcast(held, ir.IntType(8)), i64)
        ninth = builder.icmp_unsigned("!=", builder.and_(builder.extract_value(tuple_value, 8), cells_value),
                                      ir.Constant(i64, 0))
        return builder.or_(low, builder.shl(builder.zext(ninth, i64), ir.Constant(i64, 8)))

    return types.int64(words, cells), codegen


@intrinsic
def _pair_score(typingctx, states, k, first, second, peer_lanes, band, pos, t0, t1, t2):
    """The branching score of a two-candidate cell (``_best_in_band``) with digits ``first`` and ``second``
    (0-based): for each digit, the peers that hold it, plus twice those of them with two candidates (``t0``-``t2``,
    one mask a band).

    A digit's three band words (3 * digit + band) are adjacent in a state, so one 4-word load gets them all, in
    the lanes of a ``PEER_LANES`` row (``peer_lanes[band, pos]``, one load too); the fourth word (the next
    digit's, or ``S_UNSOLVED`` after digit 9) meets the row's zero lane. Then an AND and a 64-bit popcount
    per half for each digit and each weight, and one add across the halves: ~40 instructions a cell, where
    the scalar form (each digit's words shifted into one 60-bit word, the band picked by branches) took ~70.
    Plain LLVM vector IR, valid on any CPU: with AVX-512 VPOPCNTDQ the popcounts are single instructions. For an
    AVX2 target LLVM lowers them to byte-table code (same results): there the kernel ran 1% slower than with the
    scalar form, and a scalar popcount of each half was no better (round 17a in benchmarks/NOTES-kernels.md).
    """
    if not (isinstance(states, types.Array) and isinstance(peer_lanes, types.Array)):
        return None

    def codegen(context, builder, signature, args):
        states_value, k_value, first_value, second_value, lanes_value, band_value, pos_value = args[:7]
        i32, i64 = ir.IntType(32), ir.IntType(64)
        words4 = ir.VectorType(i32, 4)
        halves = ir.VectorType(i64, 2)

        def load_row(array_type, array_value, indices):
            array = context.make_array(array_type)(context, builder, array_value)
            pointer = cgutils.get_item_pointer(context, builder, array_type, array, indices)
            row = builder.load(builder.bitcast(pointer, words4.as_pointer()))
            row.align = 4
            return row

        masks = load_row(signature.args[4], lanes_value, [band_value, pos_value, ir.Constant(i64, 0)])
        twos = ir.Constant(words4, [0, 0, 0, 0])
        for band in range(3):
            twos = builder.insert_element(twos, builder.trunc(args[7 + band], i32), ir.Constant(i32, band))
        twos = builder.and_(twos, masks)

        def peers_holding(digit):
            index = builder.mul(digit, ir.Constant(i64, 3))
            return builder.and_(load_row(signature.args[0], states_value, [k_value, index]), masks)

        first_peers, second_peers = peers_holding(first_value), peers_holding(second_value)
        ctpop = cgutils.get_or_insert_function(builder.module, ir.FunctionType(halves, [halves]), "llvm.ctpop.v2i64")
        add_halves = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [halves]),
                                                    "llvm.vector.reduce.add.v2i64")

        def count(words):
            return builder.call(ctpop, [builder.bitcast(words, halves)])

        peers = builder.add(count(first_peers), count(second_peers))
        bivalue = builder.add(count(builder.and_(first_peers, twos)), count(builder.and_(second_peers, twos)))
        score = builder.add(peers, builder.shl(bivalue, ir.Constant(halves, [1, 1])))
        return builder.call(add_halves, [score])

    return types.int64(states, k, first, second, peer_lanes, band, pos, t0, t1, t2), codegen


@intrinsic
def _hidden_cells(typingctx, states, k, first, second):
    """The hidden-singles scans of two digits in state k as ``(missing, c0, c1, c2)`` for ``first``, then the same
    four for ``second``: ``missing`` nonzero when a row, column or box has no place for the digit, ``c0``-``c2``
    the empty cells of each band alone in their row, column or box.

    A digit's three band words are adjacent in a state (3 * digit + band): one 4-word load puts them in three
    32-bit lanes (the fourth, the next word, is zeroed), so the row SWAR, the boxes and the column folds run once
    for the three bands, and what the bands share (a column held in another band, a box column in none) is two
    lane rotations. Two digits fill the two halves of one 8-lane vector, for the price of about one: the pass
    scans ~3.6 digits before one places a cell. Plain LLVM vector IR, valid on any CPU.
    """
    if not (isinstance(states, types.Array) and isinstance(first, types.Integer)
            and isinstance(second, types.Integer)):
        return None
    result = types.UniTuple(types.int64, 8)

    def codegen(context, builder, signature, args):
        states_value, k_value, first_value, second_value = args
        i8, i32, i64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
        quarter, lanes = ir.VectorType(i32, 4), ir.VectorType(i32, 8)
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, states_value)

        def splat(value):
            return ir.Constant(lanes, [value & 0xFFFFFFFF] * 8)

        three = ir.Constant(lanes, ([0xFFFFFFFF] * 3 + [0]) * 2)

        def load(index):
            pointer = cgutils.get_item_pointer(context, builder, array_type, array, [k_value, index])
            row = builder.load(builder.bitcast(pointer, quarter.as_pointer()))
            row.align = 4
            return row

        def both(low, high):
            return builder.and_(builder.shuffle_vector(low, high, ir.Constant(lanes, list(range(8)))), three)

        def rotate(vector, order):
            order = order + [lane + 4 for lane in order]
            return builder.shuffle_vector(vector, ir.Constant(lanes, ir.Undefined), ir.Constant(lanes, order))

        def shr(vector, bits):
            return builder.lshr(vector, splat(bits))

        def words(digit):
            digit = builder.sext(digit, i64) if digit.type != i64 else digit
            return load(builder.mul(digit, ir.Constant(i64, 3)))

        w = both(words(first_value), words(second_value))
        unsolved = load(ir.Constant(i64, S_UNSOLVED))
        unsolved = both(unsolved, unsolved)
        minus = builder.sub(builder.or_(w, splat(GUARDS)), splat(ROW_LOW))
        rows = builder.and_(splat(GUARDS), builder.xor(builder.add(builder.and_(w, minus), splat(BAND_FULL)),
                                                       splat(-1)))
        singles = builder.and_(w, builder.sub(rows, shr(rows, 9)))  # (rows >> 9) * ROW_BITS
        for block in BOX_BLOCK:
            x = builder.and_(w, splat(int(block)))
            alone = builder.icmp_unsigned("==", builder.and_(x, builder.sub(x, splat(1))), splat(0))
            singles = builder.or_(singles, builder.select(alone, x, splat(0)))
        w10, w20 = shr(w, 10), shr(w, 20)
        fold = builder.and_(builder.or_(builder.or_(w, w10), w20), splat(ROW_BITS))
        many = builder.or_(builder.or_(builder.and_(w, w10), builder.and_(w, w20)), builder.and_(w10, w20))
        box_columns = builder.or_(builder.or_(fold, shr(fold, 1)), shr(fold, 2))
        others = builder.or_(rotate(fold, [1, 2, 0, 3]), rotate(fold, [2, 0, 1, 3]))
        # A column of this band's word is a single only if no other band holds it: the other bands' own counts
        # matter only where this word has a place, and there the fold test already says "two places".
        multi = builder.or_(builder.and_(many, splat(ROW_BITS)), others)
        anywhere = builder.or_(fold, others)
        every_box = builder.and_(builder.and_(box_columns, rotate(box_columns, [1, 2, 0, 3])),
                                 rotate(box_columns, [2, 0, 1, 3]))
        missing = builder.or_(builder.xor(builder.and_(minus, splat(GUARDS)), splat(GUARDS)), builder.or_(
            builder.xor(anywhere, splat(ROW_BITS)),
            builder.xor(builder.and_(every_box, splat(BOX_COLUMNS)), splat(BOX_COLUMNS))))
        missing = builder.icmp_unsigned("!=", builder.and_(missing, three), splat(0))
        missing = builder.zext(builder.bitcast(missing, i8), i64)
        single_columns = builder.and_(builder.xor(multi, splat(-1)), splat(ROW_BITS))
        columns = builder.or_(builder.or_(single_columns, builder.shl(single_columns, splat(10))),
                              builder.shl(single_columns, splat(20)))
        cells = builder.and_(builder.or_(singles, builder.and_(w, columns)), unsolved)
        values = []
        for half in range(2):
            values.append(builder.and_(missing, ir.Constant(i64, 0xF << (4 * half))))
            values += [builder.zext(builder.extract_element(cells, ir.Constant(i32, 4 * half + band)), i64)
                       for band in range(3)]
        return context.make_tuple(builder, result, values)

    return result(states, k, first, second), codegen


def _bit_gather(mask, pext=None):
    """An intrinsic ``f(value)``: the bits of ``value`` under the constant ``mask``, packed to the low end in order.

    One ``pext`` (BMI2) where the target has it, in place of the shifts, masks and multiplications that packed a
    digit's triads for the ``PERMUTATIONS`` lookups of ``_locked_candidates`` (~3% on the hard sets,
    NOTES-kernels.md, round 18b); elsewhere the same bits by one shift and mask per run of adjacent mask bits
    (same results on every CPU), also where ``pext`` is slow (AMD before Zen 3 runs it as microcode: ``FAST_PEXT``).
    ``pext``: True or False forces a form (tests), None takes ``pext`` where it is there and fast.
    """
    runs = []  # (lowest bit, length, packed position) of each run of adjacent bits in mask
    bit, packed = 0, 0
    while mask >> bit:
        if mask >> bit & 1:
            length = 0
            while mask >> (bit + length) & 1:
                length += 1
            runs.append((bit, length, packed))
            packed += length
            bit += length
        else:
            bit += 1

    @intrinsic
    def gather(typingctx, value):
        if not isinstance(value, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            word = args[0]
            if word.type != i64:
                word = builder.sext(word, i64) if signature.args[0].signed else builder.zext(word, i64)
            if pext or (pext is None and FAST_PEXT):
                native = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                                        "llvm.x86.bmi.pext.64")
                return builder.call(native, [word, ir.Constant(i64, mask)])
            out = ir.Constant(i64, 0)
            for low, length, position in runs:
                part = builder.and_(builder.lshr(word, ir.Constant(i64, low)), ir.Constant(i64, (1 << length) - 1))
                out = builder.or_(out, builder.shl(part, ir.Constant(i64, position)))
            return out

        return types.int64(value), codegen

    return gather


_row_triad_bits = _bit_gather(BOX_COLUMNS * ROW_LOW)  # the first column of each box-row triad, one bit a triad
_stack_triad_bits = _bit_gather(7 * (1 | 1 << 9 | 1 << 18))  # stack 0's columns in the three bands' folds


@inlined
def _band_words(states, k, band):
    """The nine digit words of a band, for ``_digits_meeting``."""
    return (np.int64(states[k, band]), np.int64(states[k, 3 + band]), np.int64(states[k, 6 + band]),
            np.int64(states[k, 9 + band]), np.int64(states[k, 12 + band]), np.int64(states[k, 15 + band]),
            np.int64(states[k, 18 + band]), np.int64(states[k, 21 + band]), np.int64(states[k, 24 + band]))


def is_standard9_table(units) -> bool:
    """``is_standard9`` for Python callers, without compiling anything (the dispatchers that pick a kernel)."""
    return units.shape == STANDARD_UNITS.shape and bool(np.array_equal(units, STANDARD_UNITS))


@njit(cache=True, nogil=True)
def is_standard9(units):
    """Whether a units table is the classic 9x9 one (rows, columns, 3x3 boxes), which this kernel assumes."""
    if units.shape[0] != 27 or units.shape[1] != 9:
        return False
    for unit in range(27):
        for i in range(9):
            if units[unit, i] != STANDARD_UNITS[unit, i]:
                return False
    return True


@inlined
def _lose(states, k, band, removed):
    """Subtract one from the count of each cell in ``removed`` (bit-sliced, branch-free): every write that clears
    candidates from empty cells calls it, which keeps the counts exact without a recount."""
    base = S_COUNT + 4 * band
    c0 = np.int64(states[k, base])
    c1 = np.int64(states[k, base + 1])
    c2 = np.int64(states[k, base + 2])
    c3 = np.int64(states[k, base + 3])
    borrow = removed & ~c0
    states[k, base] = c0 ^ removed
    states[k, base + 1] = c1 ^ borrow
    borrow &= ~c1
    states[k, base + 2] = c2 ^ borrow
    borrow &= ~c2
    states[k, base + 3] = c3 ^ borrow


@njit(cache=True, nogil=True, inline="always")
def _recount(states, k):
    """Set the count planes of every band from the digit words (bit-sliced addition over the nine digits): once, for
    the givens."""
    for band in range(3):
        c0 = np.int64(0)
        c1 = np.int64(0)
        c2 = np.int64(0)
        c3 = np.int64(0)
        for digit in range(9):
            carry = np.int64(states[k, 3 * digit + band])
            c0, carry = c0 ^ carry, c0 & carry
            c1, carry = c1 ^ carry, c1 & carry
            c2, carry = c2 ^ carry, c2 & carry
            c3 = c3 ^ carry
        base = S_COUNT + 4 * band
        states[k, base] = c0
        states[k, base + 1] = c1
        states[k, base + 2] = c2
        states[k, base + 3] = c3


@inlined
def _keep_digit(states, k, digit, band, own, other):
    """Keep only ``own`` of ``digit``'s word in ``band`` and ``other`` of its words in the other two bands, and
    count the candidates that went: the one write of a placement. One loop over the bands (a select, no branch)
    rather than three written-out updates: each inlined ``_lose`` costs compile time, and this form ran 3% faster
    on the hard sets too (benchmarks/NOTES-kernels.md, round 10)."""
    for b in range(3):
        mask = own if b == band else other
        word = np.int64(states[k, 3 * digit + b])
        states[k, 3 * digit + b] = word & mask
        _lose(states, k, b, word & ~mask)


@inlined
def _place(states, k, digit, band, pos):
    """Fill cell ``pos`` of ``band`` with ``digit`` (0-based) in state k; False if the digit is not a candidate."""
    bit = np.int64(1) << pos
    word = np.int64(states[k, 3 * digit + band])
    if word & bit == 0:
        return False
    clear = ~bit
    touched = np.int64(1) << digit
    for other in range(9):
        other_word = np.int64(states[k, 3 * other + band])
        touched |= ((other_word >> pos) & 1) << other
        states[k, 3 * other + band] = other_word & clear
    states[k, S_HIDDEN_DIRTY] |= touched
    states[k, S_LOCKED_DIRTY] |= touched
    states[k, 3 * digit + band] = word  # the loop above cleared the cell from its own digit too
    _keep_digit(states, k, digit, band, KEEP_SAME[pos], KEEP_OTHER[pos])
    states[k, S_UNSOLVED + band] &= clear
    return True


@inlined
def _place_all(states, k, digit, band, cells):
    """Fill every cell of a band mask with one digit; the number filled, or -1 on a contradiction.

    Inlined at its three sites in ``_hidden_singles`` (one a band, the band a constant in each): 4-5% on 17-clue,
    1-3% on the hard sets (benchmarks/NOTES-kernels.md, round 12; one inlined site in a loop over the bands gained
    nothing). By LLVM, with the band a typed value that it folds at each site: Numba's inlining of three copies
    cost 0.55 s of first compile for the same speed (benchmarks/NOTES-compile.md).
    """
    count = 0
    while cells != 0:
        pos = lowest_bit_index(cells)
        cells &= cells - 1
        if not _place(states, k, digit, band, pos):
            return -1
        count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def _naked_singles(states, k, naked):
    """Fill the cells with one candidate; -1 if an empty cell has none, else the number filled.

    Inlined into ``_propagate``, its one caller, as are the other two passes: 2% on the hard sets, 7% on the
    count-all tree (benchmarks/NOTES-kernels.md, round 10).
    """
    filled = 0
    for band in range(3):
        unsolved = np.int64(states[k, S_UNSOLVED + band])
        base = S_COUNT + 4 * band
        c0 = np.int64(states[k, base])
        high = np.int64(states[k, base + 1]) | np.int64(states[k, base + 2]) | np.int64(states[k, base + 3])
        if unsolved & ~(c0 | high) != 0:
            return -1
        if not naked:
            continue
        singles = unsolved & c0 & ~high
        if singles == 0:
            continue
        # A naked single holds no other digit, so placing it only touches its own digit's three words.
        touched = _digits_meeting(_band_words(states, k, band), singles)
        digits = touched
        while digits != 0:
            digit = lowest_bit_index(digits)
            digits &= digits - 1
            word = np.int64(states[k, 3 * digit + band])
            cells = singles & word
            keep = np.int64(BAND_FULL)
            while cells != 0:
                pos = lowest_bit_index(cells)
                cells &= cells - 1
                if word & (np.int64(1) << pos) == 0:
                    return -1  # a peer single took the same digit
                word &= KEEP_SAME[pos]
                keep &= KEEP_OTHER[pos]
                filled += 1
            _keep_digit(states, k, digit, band, word, keep)
        states[k, S_UNSOLVED + band] = unsolved & ~singles
        states[k, S_HIDDEN_DIRTY] |= touched
        states[k, S_LOCKED_DIRTY] |= touched
    return filled


@njit(cache=True, nogil=True, inline="always")
def _hidden_singles(states, k):
    """Fill each digit's only place in a row, column or box; -1 if a digit has no place in a unit.

    Returns after the first digit that placed a cell, leaving the digits not yet scanned dirty: the naked pass that
    follows is cheap and fills the cells this one freed, so the next scans see a fuller grid. 6-10% fewer digit
    scans, more cells placed by the cheaper naked pass, 2-4% on every set (benchmarks/NOTES-kernels.md, round 11;
    scanning on through newly dirty digits instead lost 6-9% in round 6). Inlined into ``_propagate``, its one
    caller: 2-3% on the hard sets (round 10). A digit's scan is ``_hidden_cells``, its three bands in the lanes of
    one vector, one test for every unit (a box is empty when its three columns are empty in its band's fold):
    3.5-5% on every set over the scalar scan with bands 0 and 1 in one 64-bit word (round 18a).
    """
    filled = 0
    dirty = np.int64(states[k, S_HIDDEN_DIRTY])
    states[k, S_HIDDEN_DIRTY] = 0
    while dirty != 0:
        digit = lowest_bit_index(dirty)
        dirty &= dirty - 1
        second = lowest_bit_index(dirty) if dirty != 0 else digit
        scans = _hidden_cells(states, k, digit, second)
        for half in range(2):  # the second digit's scan stands only if the first one placed nothing
            if half == 1:
                if second == digit:
                    break
                digit = second
                dirty &= dirty - 1
            missing, c0, c1, c2 = scans[4 * half], scans[4 * half + 1], scans[4 * half + 2], scans[4 * half + 3]
            if missing != 0:
                return -1  # a row, column or box without the digit
            if c0 != 0:
                count = _place_all(states, k, digit, np.int64(0), c0)
                if count < 0:
                    return -1
                filled += count
            if c1 != 0:
                count = _place_all(states, k, digit, np.int64(1), c1)
                if count < 0:
                    return -1
                filled += count
            if c2 != 0:
                count = _place_all(states, k, digit, np.int64(2), c2)
                if count < 0:
                    return -1
                filled += count
            if filled != 0:  # back to the naked pass; the digits not scanned yet stay dirty
                states[k, S_HIDDEN_DIRTY] |= dirty
                return filled
    return filled


@njit(cache=True, nogil=True, inline="always")
def _row_triads(word):
    """The 9-bit set of box-row triads of a band word that hold a candidate: bit 3*row + box."""
    return _row_triad_bits(word | (word >> 1) | (word >> 2))


@njit(cache=True, nogil=True, inline="always")
def _strike_bands(states, k, base, allowed0, allowed1, allowed2):
    """Keep only the ``allowed`` triads of a digit's three band words (base = 3 * digit); the bands changed."""
    changed = 0
    for band in range(3):
        allowed = allowed0 if band == 0 else (allowed1 if band == 1 else allowed2)
        word = np.int64(states[k, base + band])
        cut = word & ~TRIAD_CELLS[allowed]
        if cut != 0:
            states[k, base + band] = word & ~cut
            _lose(states, k, band, cut)
            changed += 1
    return changed


@njit(cache=True, nogil=True, inline="always")
def _locked_candidates(states, k):
    """Keep only triads that lie on a row/box and a column/stack permutation; -1 on a contradiction, else changes.

    Each layout's three triad sets are looked up first and tested at once (one branch a layout, nearly always
    not taken): the strikes are rare. With the triads packed by ``pext`` (``_bit_gather``) a scan that strikes
    nothing costs ~45% less than before: 3.5-4% on the hard sets, 2-3% on 17-clue (NOTES-kernels.md, round 18b)."""
    changed = 0
    dirty = np.int64(states[k, S_LOCKED_DIRTY])
    states[k, S_LOCKED_DIRTY] = 0
    while dirty != 0:
        digit = lowest_bit_index(dirty)
        dirty &= dirty - 1
        before = changed
        base = 3 * digit
        triads0 = _row_triads(np.int64(states[k, base]))
        triads1 = _row_triads(np.int64(states[k, base + 1]))
        triads2 = _row_triads(np.int64(states[k, base + 2]))
        allowed0 = PERMUTATIONS[triads0]
        allowed1 = PERMUTATIONS[triads1]
        allowed2 = PERMUTATIONS[triads2]
        # allowed - 1 < 0 for a triad set without a permutation (an empty one too, where allowed == triads == 0)
        if (allowed0 ^ triads0) | (allowed1 ^ triads1) | (allowed2 ^ triads2) != 0 or (
                (allowed0 - 1) | (allowed1 - 1) | (allowed2 - 1)) < 0:
            if allowed0 == 0 or allowed1 == 0 or allowed2 == 0:
                return -1
            changed += _strike_bands(states, k, base, allowed0, allowed1, allowed2)
        w01 = np.int64(states[k, base]) | (np.int64(states[k, base + 1]) << 32)
        w2 = np.int64(states[k, base + 2])
        # the 9-bit column presence of each band, stacked as a 27-bit word: bit 9*band + column
        f01 = w01 | (w01 >> 10) | (w01 >> 20)
        f2 = w2 | (w2 >> 10) | (w2 >> 20)
        columns = (f01 & ROW_BITS) | ((f01 >> 23) & (ROW_BITS << 9)) | ((f2 & ROW_BITS) << 18)
        triads0 = _stack_triad_bits(columns)
        triads1 = _stack_triad_bits(columns >> 3)
        triads2 = _stack_triad_bits(columns >> 6)
        allowed0 = PERMUTATIONS[triads0]
        allowed1 = PERMUTATIONS[triads1]
        allowed2 = PERMUTATIONS[triads2]
        if (allowed0 ^ triads0) | (allowed1 ^ triads1) | (allowed2 ^ triads2) != 0 or (
                (allowed0 - 1) | (allowed1 - 1) | (allowed2 - 1)) < 0:
            for stack in range(3):
                triads = triads0 if stack == 0 else (triads1 if stack == 1 else triads2)
                allowed = allowed0 if stack == 0 else (allowed1 if stack == 1 else allowed2)
                if allowed == 0:
                    return -1
                if allowed != triads:
                    drop = triads & ~allowed
                    shift = 3 * stack
                    for band in range(3):
                        lost = (drop >> (3 * band)) & 7
                        if lost != 0:
                            old = np.int64(states[k, base + band])
                            cut = old & ((lost << shift) * ROW_LOW)
                            states[k, base + band] = old & ~cut
                            _lose(states, k, band, cut)
                    changed += 1
        if changed != before:
            states[k, S_HIDDEN_DIRTY] |= np.int64(1) << digit
            states[k, S_LOCKED_DIRTY] |= np.int64(1) << digit
    return changed


@borrowing
def _propagate(states, k, flags):
    """Run the rules in ``flags`` on state k to a fixpoint; the number of cells filled, or -1 on a contradiction.

    ``@borrowing`` (compiled without Numba's runtime), as is ``search9_in``: with the runtime, every inlined
    pass took and dropped a reference to ``states``, a call to NRT_incref and one to
    NRT_decref a pass. On a borrowed view those calls only test for null, but they are opaque to LLVM, which
    (presumably) must keep the state in memory around them: 2.5-3% on every set (benchmarks/NOTES-kernels.md,
    round 12; the same decorator on the helpers before they were inlined here changed nothing,
    results/borrowing.md). ``_load_givens`` keeps the runtime: without it 17-clue was 2% slower.
    """
    naked = flags & NAKED_SINGLES != 0
    filled = 0
    while True:
        count = _naked_singles(states, k, naked)
        if count < 0:
            return -1
        filled += count
        if count > 0:
            continue
        if flags & HIDDEN_SINGLES:
            count = _hidden_singles(states, k)
            if count < 0:
                return -1
            filled += count
            if count > 0:
                continue
        if flags & LOCKED_CANDIDATES:
            count = _locked_candidates(states, k)
            if count < 0:
                return -1
            if count > 0:
                continue
        return filled


@inlined
def _best_in_band(states, k, band, t0, t1, t2, best):
    """``best`` (score, band, pos) updated with the two-candidate cells of one band (``_choose_cell``'s score).

    A cell's score is, for each of its two digits, the peers holding the digit plus twice those of them with two
    candidates (``_pair_score``: both digits' words in 4-lane vectors, one load each; 2.5-3% on hardest against
    the scalar gathers, NOTES-kernels.md, round 17a). The cell's two digits come from one vector test over the
    band's words (``_digits_meeting``, the vector built once a band): 2.5-3% on the hard sets against a nine-word
    shift-and-OR gather a cell (round 13)."""
    best_score, best_band, best_pos = best
    two = t0 if band == 0 else (t1 if band == 1 else t2)
    words = _band_words(states, k, band)
    while two != 0:
        pos = lowest_bit_index(two)
        two &= two - 1
        # digits 1-8 of the cell, and bit 8 set as a stop: a two-candidate cell's second digit is 9 when only one of
        # digits 1-8 is there (so the ninth word is never read here)
        digits = (_digits_meeting(words, np.int64(1) << pos) & 0xFF) | 0x100
        first = lowest_bit_index(digits)
        second = lowest_bit_index(digits & (digits - 1))
        score = _pair_score(states, k, first, second, PEER_LANES, band, pos, t0, t1, t2)
        if score > best_score:
            best_score, best_band, best_pos = score, np.int64(band), pos
    return best_score, best_band, best_pos


@njit(cache=True, nogil=True, inline="always")
def _fewest_candidates(states, k):
    """The first empty cell (band, then position order) with the fewest candidates, as (band, pos): for a grid
    without a one- or two-candidate cell, where ``_choose_cell`` has no bivalue cell to score."""
    best_band = np.int64(-1)
    best_pos = np.int64(-1)
    best_count = 10
    for band in range(3):
        base = S_COUNT + 4 * band
        c0 = np.int64(states[k, base])
        c1 = np.int64(states[k, base + 1])
        c2 = np.int64(states[k, base + 2])
        c3 = np.int64(states[k, base + 3])
        cells = np.int64(states[k, S_UNSOLVED + band])
        while cells != 0:
            pos = lowest_bit_index(cells)
            cells &= cells - 1
            count = ((c0 >> pos) & 1) + 2 * ((c1 >> pos) & 1) + 4 * ((c2 >> pos) & 1) + 8 * ((c3 >> pos) & 1)
            if count < best_count:
                best_band, best_pos, best_count = band, pos, count
    return best_band, best_pos


@njit(cache=True, nogil=True)
def _choose_cell(states, k):
    """An empty cell with the fewest candidates, as (band, pos, digit mask); pos -1 when the grid is full.

    Among two-candidate cells, the one whose digits appear most often among its peers, the peers with two
    candidates counted three times (``_best_in_band``): on forum_hardest_1106 that takes 235 nodes a puzzle
    where the band with the most empty cells took 428. The cells with three or more candidates are scanned only
    when no band has a two-candidate cell (``_fewest_candidates``; 1.4 of hardest's 61 choices a puzzle): a scan
    of each band without one, as before, went over 426 cells a puzzle for nothing.
    """
    best_band = -1
    best_pos = -1
    one_found = False
    t0 = np.int64(0)
    t1 = np.int64(0)
    t2 = np.int64(0)
    for band in range(3):
        unsolved = np.int64(states[k, S_UNSOLVED + band])
        base = S_COUNT + 4 * band
        c0 = np.int64(states[k, base])
        c1 = np.int64(states[k, base + 1])
        high = np.int64(states[k, base + 2]) | np.int64(states[k, base + 3])
        one = unsolved & c0 & ~(c1 | high)
        two = unsolved & c1 & ~(c0 | high)
        if one != 0:
            best_band, best_pos, one_found = band, lowest_bit_index(one), True
            break
        if band == 0:
            t0 = two
        elif band == 1:
            t1 = two
        else:
            t2 = two
    if not one_found:
        if (t0 | t1 | t2) == 0:
            best_band, best_pos = _fewest_candidates(states, k)
        elif popcount(t0) + popcount(t1) + popcount(t2) == 1:
            best_band = 0 if t0 != 0 else (1 if t1 != 0 else 2)
            best_pos = lowest_bit_index(t0 | t1 | t2)
        else:
            best = (np.int64(-1), np.int64(best_band), np.int64(best_pos))
            for band in range(3):
                best = _best_in_band(states, k, band, t0, t1, t2, best)
            best_band, best_pos = best[1], best[2]
    mask = np.int64(0)
    if best_pos >= 0:
        mask = _digits_meeting(_band_words(states, k, best_band), np.int64(1) << best_pos)
    return best_band, best_pos, mask


@njit(cache=True, nogil=True)
def _write_solution(states, k, out):
    """Read the digits of a solved state into a uint8[81] row.

    Word by word (a solved band holds each digit once a row, so every loop runs three times and predicts well),
    not cell by cell: a search over the nine digits of each cell ends at a random digit, a mispredicted branch a
    cell, which was a fifth of a 17-clue puzzle's time (benchmarks/NOTES-kernels.md, round 11).
    """
    for band in range(3):
        for digit in range(9):
            word = np.int64(states[k, 3 * digit + band])
            while word != 0:
                pos = lowest_bit_index(word)
                word &= word - 1
                out[27 * band + POS_CELL[pos]] = digit + 1


@njit(cache=True, nogil=True, inline="always")
def _load_given(states, digit, band, pos):
    """Clear a given's own digit from its peers (state 0) and note its cell (state 1); -1, or INVALID."""
    if digit > 9:
        return INVALID
    base = 3 * (digit - 1)
    own = np.int64(states[0, base + band])
    bit = np.int64(1) << pos
    if own & bit == 0:
        return INVALID  # an earlier given of the same digit sees this cell
    keep = KEEP_OTHER[pos]
    states[0, base] &= keep
    states[0, base + 1] &= keep
    states[0, base + 2] &= keep
    states[0, base + band] = own & KEEP_SAME[pos]
    states[1, base + band] |= bit
    states[0, S_UNSOLVED + band] &= ~bit
    return -1


@njit(cache=True, nogil=True)
def _load_givens(cells, states):
    """Set state 0 from the givens; -1 when fine, else INVALID or CONTRADICTION.

    Not one ``_place`` a given (each clears its cell from nine words): a given clears only its own digit's peers,
    and the cells of all givens leave the other digits' words at the end, with one mask a band. Same state as
    placing them one by one (state 1, free before the search, holds each digit's given cells meanwhile). Two
    equal digits in a unit, or a digit above 9, are INVALID. The givens of a band are found as a mask first,
    not by a test a cell (which branches at random): with the arrays ``search9_in`` borrows, 4-5% of a 17-clue
    puzzle (benchmarks/NOTES-kernels.md, round 11).
    """
    for i in range(STATE_WORDS):
        states[0, i] = BAND_FULL if i < S_UNSOLVED + 3 else 0
        states[1, i] = 0
    for band in range(3):
        # The band's given cells as a mask first: a test a cell branches at random (givens sit anywhere).
        givens = np.int64(0)
        for i in range(27):
            givens |= np.int64(cells[27 * band + i] != 0) << i
        while givens != 0:
            i = lowest_bit_index(givens)
            givens &= givens - 1
            status = _load_given(states, np.int64(cells[27 * band + i]), band, CELL_POS[27 * band + i])
            if status >= 0:
                return status
    for band in range(3):
        filled = BAND_FULL & ~np.int64(states[0, S_UNSOLVED + band])
        for digit in range(9):
            states[0, 3 * digit + band] &= ~(filled & ~np.int64(states[1, 3 * digit + band]))
    states[0, S_HIDDEN_DIRTY] = 0x1FF
    states[0, S_LOCKED_DIRTY] = 0x1FF
    _recount(states, np.int64(0))
    for band in range(3):
        base = S_COUNT + 4 * band
        some = np.int64(states[0, base]) | np.int64(states[0, base + 1]) | np.int64(states[0, base + 2]) | np.int64(
            states[0, base + 3])
        if np.int64(states[0, S_UNSOLVED + band]) & ~some != 0:  # not a naked pass: it would be a 2nd inlined copy
            return CONTRADICTION  # an empty cell without candidates
    return -1


def new_stack():
    """The per-search arrays of ``search9_in``: states uint32[MAX_DEPTH, STATE_WORDS], frames int64[MAX_DEPTH, 3]."""
    return np.empty((MAX_DEPTH, STATE_WORDS), np.uint32), np.empty((MAX_DEPTH, 3), np.int64)


@borrowing
def search9_in(cells, limit, max_nodes, flags, solutions, stats, states, frames, stop, seed, exclude_cell,
               exclude_digit):
    """``search9`` with its stack passed in (``states`` uint32[82, 44], ``frames`` int64[82, 3]), for batches,
    and the generator's two searches: with ``RANDOM_ORDER`` in ``flags`` the digits are tried in an order drawn
    from ``seed`` (``random_solution9``), and with ``exclude_cell`` >= 0 the search starts with ``exclude_digit``
    struck from that empty cell (``other_solution9``; -1: none). Plain searches pass 0, -1, 0.

    One compiled entry for the three: every entry point is compiled with the whole search inside it, so three
    entries cost the generator three compiles of the kernel, and the compiled callers above them as many copies
    (benchmarks/NOTES-compile.md).

    A frame holds the branching cell (band, position) and the digits still to try. State ``top`` is the current
    one; trying a digit copies the frame's state one level up, except for the last digit, which is placed in
    the frame's own state (nothing is left to come back to).
    """
    # Every array borrowed, not only ``states``: the reference counts taken around the calls below (locked adds)
    # were 0.08 µs a search, 3% of a 17-clue puzzle (benchmarks/NOTES-kernels.md, round 11).
    cells, solutions, stats = _borrowed(cells), _borrowed(solutions), _borrowed(stats)
    states, frames, stop = _borrowed(states), _borrowed(frames), _borrowed(stop)
    stats[:] = 0
    stats[STAT_SPECIALISED] = 1
    status = _load_givens(cells, states)
    if status >= 0:
        return status
    if exclude_cell >= 0:
        _exclude(states, exclude_cell, exclude_digit)
    return _search_loaded(limit, max_nodes, flags, solutions, stats, states, frames, seed, stop)


@njit(cache=True, nogil=True, inline="always")
def _exclude(states, cell, digit):
    """Strike ``digit`` from the empty ``cell`` of state 0 (its count and dirty marks kept exact)."""
    word = 3 * (digit - 1) + CELL_BAND[cell]
    removed = np.int64(states[0, word]) & (np.int64(1) << CELL_POS[cell])
    states[0, word] &= ~removed
    _lose(states, np.int64(0), CELL_BAND[cell], removed)
    states[0, S_HIDDEN_DIRTY] |= np.int64(1) << (digit - 1)
    states[0, S_LOCKED_DIRTY] |= np.int64(1) << (digit - 1)


@njit(cache=True, nogil=True, inline="always")
def other_solution9(cells, cell, digit, max_nodes, stats, states, frames, stop):
    """Whether a classic 9x9 puzzle has a solution without ``digit`` in the empty ``cell``: the uniqueness test of
    clue removal (a puzzle that was unique with the clue ``cell = digit`` stays unique without it exactly when
    no solution puts another digit there).

    Same stack and counters as ``search9_in``. Returns ``LIMIT_REACHED`` when such a solution exists,
    ``COMPLETE`` when none does, ``BUDGET_EXHAUSTED`` when ``max_nodes`` ran out first, ``STOPPED`` when ``stop[0]``
    was set, ``INVALID`` or ``CONTRADICTION`` for givens that break the rules. Cost: one first-solution search.
    """
    no_solutions = np.empty((0, 81), np.uint8)
    return search9_in(cells, np.int64(1), max_nodes, np.int64(ALL_RULES), no_solutions, stats, states, frames, stop,
                      np.int64(0), np.int64(cell), np.int64(digit))


@njit(cache=True, nogil=True, inline="always")
def random_solution9(seed, max_nodes, out, stats, states, frames, stop):
    """Search the empty 9x9 grid with digits tried in an order drawn from ``seed``, for a random complete grid.

    The branching cells are the usual ones; each digit is drawn by hashing ``seed`` with the node number
    (``rng.hashed_bit``), so the deterministic search pays nothing for this. ``out``: uint8[1, 81]. Returns
    ``LIMIT_REACHED`` with a grid in ``out``, ``BUDGET_EXHAUSTED`` (restart with another seed) or ``STOPPED``.
    """
    return search9_in(np.zeros(81, np.uint8), np.int64(1), max_nodes, np.int64(ALL_RULES | RANDOM_ORDER), out, stats,
                      states, frames, stop, seed, np.int64(-1), np.int64(0))


@njit(cache=True, nogil=True, inline="always")
def _search_loaded(limit, max_nodes, flags, solutions, stats, states, frames, seed, stop):
    """The search of ``search9_in`` from the givens already loaded in state 0 (stats zeroed by the caller).

    With ``RANDOM_ORDER`` in ``flags``, digits are tried in an order drawn from ``seed`` (``random_solution9``).
    ``stop`` (int64[1]) is read where the node budget is checked: once ``stop[0]`` is not 0 (a time limit ran out
    on another thread) the search returns ``STOPPED`` with its counters so far.

    Written for a short first compile (the first ``bitdoku solve`` waits for it): the helpers are called with
    typed variables, never a literal ``0`` or ``False`` (Numba would compile a second copy of each helper, and of
    everything it calls, for the literal type), and states are copied word by word (a slice copy brings in
    Numba's shape-mismatch error, which compiles a dozen string functions). Numba inlines it into ``search9_in``:
    as a function of its own, its whole kernel went through LLVM once more for nothing, 0.9 s of the first compile
    (benchmarks/NOTES-compile.md).
    """
    stats[STAT_NODES] = 1
    top = np.int64(0)
    filled = _propagate(states, top, flags)
    if filled < 0:
        return COMPLETE
    placements = filled
    status = COMPLETE
    while True:
        band, pos, mask = _choose_cell(states, top)
        if pos < 0:
            found = stats[STAT_SOLUTIONS]
            if found < solutions.shape[0]:
                _write_solution(states, top, solutions[found])
            stats[STAT_SOLUTIONS] = found + 1
            if found + 1 >= limit:
                status = LIMIT_REACHED
                break
        else:
            if mask & (mask - 1) != 0:
                stats[STAT_GUESSES] += 1
            frames[top, 0] = band
            frames[top, 1] = pos
            frames[top, 2] = mask
            top += 1
            stats[STAT_MAX_DEPTH] = max(stats[STAT_MAX_DEPTH], top)
        advanced = False
        while top > 0:
            frame = top - 1
            rest = frames[frame, 2]
            if rest == 0:
                top -= 1
                continue
            if stats[STAT_NODES] >= max_nodes:
                status = BUDGET_EXHAUSTED
                break
            if stop[0] != 0:
                status = STOPPED
                break
            stats[STAT_NODES] += 1
            if flags & RANDOM_ORDER:
                digit = hashed_bit(seed + stats[STAT_NODES], rest)
                rest &= ~(np.int64(1) << digit)
            else:
                digit = lowest_bit_index(rest)
                rest &= rest - 1
            frames[frame, 2] = rest
            if rest != 0:
                for word in range(STATE_WORDS):  # a loop, not a slice copy: see _search_loaded's docstring
                    states[frame + 1, word] = states[frame, word]
                target = frame + 1
            else:
                top -= 1  # the frame is used up: its state becomes the child
                target = frame
            band = frames[frame, 0]
            filled = -1
            if _place(states, target, digit, band, frames[frame, 1]):
                filled = _propagate(states, target, flags)
            if filled >= 0:
                placements += filled + 1
                advanced = True
                break
            stats[STAT_BACKTRACKS] += 1
        if not advanced:
            break
    stats[STAT_PLACEMENTS] = placements
    return status


def search9(cells, limit, max_nodes, flags, solutions, stats, stop=None):
    """Search a classic 9x9 puzzle (3x3 boxes) for up to ``limit`` solutions within a node budget.

    Same parameters, counters and status codes as ``dfs.search`` without the shape tables (which it assumes
    standard: check with ``is_standard9``); cells uint8[81], solutions uint8[K, 81], stats int64[N_STATS].
    Memory: 16 KB of stack, allocated per call. Cost per node: a few hundred word operations per rule pass.
    ``stop``: an int64[1] flag another thread may set to end the search (``STOPPED``); None for none.

    A Python function: as a compiled one it would add a layer that the first compile pays for again (0.5 s of
    the first ``bitdoku solve``), to save a microsecond of allocation a call.
    """
    return search9_in(cells, limit, max_nodes, flags, solutions, stats, *new_stack(), no_stop(stop), 0, -1, 0)


def no_stop(stop):
    """``stop``, or a fresh flag that nobody sets when it is None: the Python wrappers' default."""
    return np.zeros(1, np.int64) if stop is None else stop
