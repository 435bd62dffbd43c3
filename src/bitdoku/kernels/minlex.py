"""The canonical form (minlex) of a 9x9 grid, built row by row over a bounded set of tied candidates.

Definition: among the 3,359,232 symmetries of the grid (transposition, band order, row order inside each band,
stack order, column order inside each stack) and the 9! relabellings, take the smallest string of 81 digits
read row by row, 0 for an empty cell. For one symmetry the best relabelling numbers the digits 1, 2, 3, ... in
order of first appearance, so a digit met for the first time is always worth ``next label``.

Branch and bound, one output row at a time. A *candidate* is a partial symmetry that produced the best rows so
far: the transposition, the original rows used (and the band being read), where each output column comes from,
and the labels given so far. For output row k every candidate tries every original row allowed next (the rest
of its band, or any row of an unused band at rows 0, 3 and 6), writes it in its best arrangement, and only
those equal to the best row of the step survive (a smaller one empties the list). Three facts keep this small:

* Columns still empty in every row used so far (*free* columns) are interchangeable inside their stack, and a
  stack whose three columns are free is interchangeable with the other free stacks. They stay unordered sets:
  free stacks fill the first output stacks, and inside a stack the free columns fill its first positions.
  Placing a row moves a zero before anything else (0 is the smallest value, whatever the labels), so the free
  columns and stacks that get a digit are ordered right after the ones that stay empty; only the order of those
  that got a digit is enumerated, and every order that ties becomes its own candidate.
* Two empty rows of one band, and two empty bands, are exchanged by a symmetry that maps the grid onto itself,
  so only the first of them is tried: the empty grid needs two candidates, not 2,592.
* The comparison stops at the first cell larger than the best row.

Nothing assumes a valid grid: repeated digits are arranged by the same enumeration. The set of tied candidates
is exact, so the answer is the minimum; it is bounded by the capacity of the arrays passed in, and a row whose
ties overflow them gets ``OVERFLOW`` (a full grid ties 23,328 ways on its first row; puzzles rarely pass 100).

A candidate is three int64 words:

* ``w0``: bits 0-8 the original rows used, 9-10 the band being read, 11 the transposition, 12-20 the free
  original columns, 21-24 the next label;
* ``w1``: nibble p (bits 4p..4p+3) the original column at output position p, or ``FREE`` (15);
* ``w2``: nibble d the label of digit d (0 while d has not appeared).

Rows are packed too: an original row is a word with the digit of column c in nibble c, and a written row is a
36-bit number with position 0 in its highest nibble, so that comparing two rows is comparing two integers. The
row helpers take and return only scalars: Numba counts references around every call that passes an array,
and that cost 15% when the row writer took three (see benchmarks/NOTES-canon.md).
"""

import numpy as np
from numba import njit

from bitdoku.kernels.bits import lowest_bit_index, popcount

#: Status codes of ``minlex9`` and ``minlex_rows``: the canonical form was written.
OK = 0
#: More tied candidates than the arrays hold: use an exhaustive method for this row (its output is partial).
OVERFLOW = 1
#: A cell holds a value above 9.
INVALID = 2
STATUS_NAMES = ("OK", "OVERFLOW", "INVALID")

#: Tied candidates kept per step by default: room for a full grid's first row (18 rows x 1,296 orders).
DEFAULT_CAPACITY = 1 << 15
CANDIDATE_WORDS = 3

FREE = 15
ALL_FREE = (1 << 36) - 1
USED_ROWS = 0x1FF
BAND_SHIFT = 9
FLIP_SHIFT = 11
FREE_SHIFT = 12
NEXT_SHIFT = 21
NO_ROW = 1 << 40  # above every written row: the best row of a step before any candidate is tried


def _permutation_table():
    """PERMUTATIONS[n, k]: the k-th ordering of n items (k < n!), for n = 0..3."""
    table = np.zeros((4, 6, 3), dtype=np.int64)
    orders = {1: [(0,)], 2: [(0, 1), (1, 0)], 3: [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]}
    for n, perms in orders.items():
        for k, perm in enumerate(perms):
            table[n, k, :n] = perm
    return table


FACTORIALS = np.array([1, 1, 2, 6], dtype=np.int64)
PERMUTATIONS = _permutation_table()


def new_candidates(capacity=DEFAULT_CAPACITY):
    """The two candidate arrays ``minlex9`` swaps between steps: int64[capacity, CANDIDATE_WORDS] each."""
    return np.empty((capacity, CANDIDATE_WORDS), np.int64), np.empty((capacity, CANDIDATE_WORDS), np.int64)


@njit(cache=True, nogil=True)
def _load(cells, digits, masks):
    """Pack each row of the grid and of its transpose: ``digits[t, row]`` (nibble c the digit of column c) and
    ``masks[t, row]`` (bit c set when column c is filled); False if a value is above 9."""
    digits[:] = 0
    masks[:] = 0
    for cell in range(81):
        value = np.int64(cells[cell])
        if value > 9:
            return False
        if value != 0:
            row = cell // 9
            col = cell % 9
            digits[0, row] |= value << (4 * col)
            digits[1, col] |= value << (4 * row)
            masks[0, row] |= 1 << col
            masks[1, col] |= 1 << row
    return True


@njit(cache=True, nogil=True, inline="always")
def _first_empty_only(rows, empty_rows):
    """Drop from a row mask every empty row but the first of its band (they are interchangeable)."""
    for band in range(3):
        empty = rows & empty_rows & (7 << (3 * band))
        rows ^= empty & (empty - 1)
    return rows


@njit(cache=True, nogil=True, inline="always")
def _next_rows(step, used, band, empty_rows):
    """The original rows that may become output row ``step``: the rest of the band being read, or at a band's
    start the rows of the unused bands (of several entirely empty bands, only the first)."""
    if step % 3 != 0:
        return _first_empty_only((7 << (3 * band)) & ~used, empty_rows)
    rows = 0
    empty_band_seen = False
    for other in range(3):
        members = 7 << (3 * other)
        if used & members != 0:
            continue
        if empty_rows & members == members:
            if empty_band_seen:
                continue
            empty_band_seen = True
        rows |= members
    return _first_empty_only(rows, empty_rows)


@njit(cache=True, nogil=True, inline="always")
def _nth_bit(bits, n):
    """The index of the n-th (0-based) set bit of ``bits``."""
    for _ in range(n):
        bits &= bits - 1
    return lowest_bit_index(bits)


@njit(cache=True, nogil=True, inline="always")
def _free_stacks(w1, free_cols, mask):
    """How the free stacks meet a row: (free output stacks, free stacks the row fills as a bit set, free stacks
    it leaves empty, number of orders to try for the newly filled stacks and columns)."""
    n_free = 0  # free output stacks form a prefix
    while n_free < 3 and (w1 >> (4 * (3 * n_free + 2))) & 15 == FREE:
        n_free += 1
    filled = 0
    empty = 0
    orders = 1
    for stack in range(3):
        members = 7 << (3 * stack)
        placed = free_cols & mask & members
        if free_cols & members == members:
            if placed != 0:
                filled |= 1 << stack
            else:
                empty += 1
        orders *= FACTORIALS[popcount(placed)]
    return n_free, filled, empty, orders * FACTORIALS[popcount(filled)]


@njit(cache=True, nogil=True, inline="always")
def _arrange(w1, free_cols, mask, n_free, filled, empty, index):
    """The column nibbles once the row's newly filled free stacks and columns are put in order number ``index``,
    a mixed-radix number: the order of the filled stacks, then that of each original stack's filled columns.

    Empty free stacks keep the first output stacks, and empty free columns the first positions of their stack.
    """
    n_filled = popcount(filled)
    stack_order = index % FACTORIALS[n_filled]
    index //= FACTORIALS[n_filled]
    columns = w1
    for out_stack in range(empty, 3):
        if out_stack >= n_free:
            stack = ((w1 >> (4 * (3 * out_stack + 2))) & 15) // 3
        else:
            stack = _nth_bit(filled, PERMUTATIONS[n_filled, stack_order, out_stack - empty])
        members = free_cols & (7 << (3 * stack))
        placed = members & mask
        if placed == 0:
            continue
        n_placed = popcount(placed)
        order = index
        for lower in range(stack):
            order //= FACTORIALS[popcount(free_cols & mask & (7 << (3 * lower)))]
        order %= FACTORIALS[n_placed]
        first = 3 * out_stack + popcount(members) - n_placed  # after the columns that stay free
        for i in range(n_placed):
            shift = 4 * (first + i)
            col = _nth_bit(placed, PERMUTATIONS[n_placed, order, i])
            columns = (columns & ~(np.int64(FREE) << shift)) | (col << shift)
    return columns


@njit(cache=True, nogil=True, inline="always")
def _write_row(columns, labels, next_label, digits, best):
    """Write an original row (``digits``) under ``columns``, labelling new digits, and compare it with ``best``.

    Returns (verdict, row, labels, next label): verdict -1 when larger (stopped at the first larger cell, the
    rest unset), 0 equal, 1 smaller. ``row`` has position 0 in its highest nibble, so order is integer order.
    """
    row = np.int64(0)
    smaller = False
    for position in range(9):
        col = (columns >> (4 * position)) & 15
        value = np.int64(0)
        if col != FREE:
            digit = (digits >> (4 * col)) & 15
            if digit != 0:
                value = (labels >> (4 * digit)) & 15
                if value == 0:
                    value = next_label
                    labels |= next_label << (4 * digit)
                    next_label += 1
        row = (row << 4) | value
        if not smaller:
            prefix = best >> (4 * (8 - position))
            if row > prefix:
                return -1, row, labels, next_label
            smaller = row < prefix
    return (1 if smaller else 0), row, labels, next_label


@njit(cache=True, nogil=True, inline="always")
def _extend(w0, w1, w2, row, digits, mask, best, following, count):
    """Write original ``row`` as the next output row of candidate (w0, w1, w2) in each order of its newly filled
    free stacks and columns, and store the orders that tie with the best row in ``following``; one that beats
    it becomes the best row and restarts the list.

    Returns (tied candidates, best row). The count may pass the capacity: then only the first ones are stored.
    """
    free_cols = (w0 >> FREE_SHIFT) & 0x1FF
    flip = (w0 >> FLIP_SHIFT) & 1
    n_free, filled, empty, orders = _free_stacks(w1, free_cols, mask)
    for index in range(orders):
        columns = _arrange(w1, free_cols, mask, n_free, filled, empty, index)
        verdict, written, labels, next_label = _write_row(columns, w2, (w0 >> NEXT_SHIFT) & 15, digits, best)
        if verdict < 0:
            continue
        if verdict > 0:
            best = written
            count = 0
        if count < following.shape[0]:
            used = (w0 & USED_ROWS) | (1 << row)
            following[count, 0] = (used | ((row // 3) << BAND_SHIFT) | (flip << FLIP_SHIFT)
                                   | ((free_cols & ~mask) << FREE_SHIFT) | (next_label << NEXT_SHIFT))
            following[count, 1] = columns
            following[count, 2] = labels
        count += 1
    return count, best


@njit(cache=True, nogil=True)
def minlex9(cells, out, current, following, digits, masks):
    """The canonical form of one 9x9 grid.

    Parameters
    ----------
    cells : uint8[81]
        The grid, row by row, 0 for an empty cell; not mutated. Any values 0..9, valid or not.
    out : uint8[81]
        Out: the canonical form (partial when the status is not ``OK``).
    current, following : int64[capacity, CANDIDATE_WORDS]
        Work arrays for the tied candidates (``new_candidates``); their capacity bounds the ties kept.
    digits, masks : int64[2, 9]
        Work arrays: the packed rows of the grid and of its transpose.

    Returns ``OK``, ``OVERFLOW`` (more ties than the capacity at some row) or ``INVALID`` (a value above 9).
    Cost: for each output row, (tied candidates) x (rows allowed next) x (orders of newly filled free columns)
    row writes of 9 cells, most stopped after a few cells: about 55 for a 17-clue puzzle.
    """
    if not _load(cells, digits, masks):
        return INVALID
    empty_rows = 0  # bit 9 * flip + row: an empty row of the grid (flip 0) or of its transpose (flip 1)
    for flip in range(2):
        for row in range(9):
            if masks[flip, row] == 0:
                empty_rows |= 1 << (9 * flip + row)
    for flip in range(2):
        current[flip, 0] = (flip << FLIP_SHIFT) | (0x1FF << FREE_SHIFT) | (1 << NEXT_SHIFT)
        current[flip, 1] = ALL_FREE
        current[flip, 2] = 0
    count = 2
    for step in range(9):
        best = np.int64(NO_ROW)
        tied = 0
        for i in range(count):
            w0 = current[i, 0]
            flip = (w0 >> FLIP_SHIFT) & 1
            rows = _next_rows(step, w0 & USED_ROWS, (w0 >> BAND_SHIFT) & 3, (empty_rows >> (9 * flip)) & 0x1FF)
            while rows != 0:
                row = lowest_bit_index(rows)
                rows &= rows - 1
                tied, best = _extend(w0, current[i, 1], current[i, 2], row, digits[flip, row], masks[flip, row],
                                     best, following, tied)
        if tied > current.shape[0]:
            return OVERFLOW
        for position in range(9):
            out[9 * step + position] = (best >> (4 * (8 - position))) & 15
        current, following = following, current
        count = tied
    return OK


@njit(cache=True, nogil=True)
def minlex_rows(puzzles, out, status, current, following):
    """The canonical form of every row of a batch, on the calling thread (the GIL released).

    Parameters
    ----------
    puzzles : uint8[k, 81]
        One 9x9 grid a row; not mutated.
    out : uint8[k, 81]
        Out: each row's canonical form (to be replaced where the status is not ``OK``).
    status : int8[k]
        Out: each row's status (``OK``, ``OVERFLOW`` or ``INVALID``).
    current, following : int64[capacity, CANDIDATE_WORDS]
        Work arrays shared by the rows (``new_candidates``).

    Cost: the sum of the rows' ``minlex9``; 1.5 MB of work arrays at the default capacity.
    """
    digits = np.empty((2, 9), np.int64)
    masks = np.empty((2, 9), np.int64)
    for row in range(puzzles.shape[0]):
        status[row] = minlex9(puzzles[row], out[row], current, following, digits, masks)
