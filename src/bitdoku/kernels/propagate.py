"""Deduction rules for any shape, run to a fixpoint: naked singles, hidden singles and locked candidates.

The rules work on a *workspace*, a tuple of arrays allocated once per search (``new_workspace``):

``value``  uint8[N*N]   the digit of each cell, 0 when empty
``cand``   uint64[N*N]  the candidates of each empty cell (the digit's own bit once it is filled)
``trail_cells``, ``trail_masks``  int32/uint64[N*N*(N+1)]  the undo log: every changed mask, with its old value
``queue``  int32[N*N]   cells that became naked singles and wait to be filled
``counters`` int64[4]   trail length, queue length, cells filled, a stamp for ``line_stamp``
``line_stamp`` int64[3N]  which lines the locked-candidates pass has already seen in the current box

Masks only ever shrink along a search path, and each change is logged before it happens, so undoing to a trail
mark restores any earlier state exactly (the trail holds at most N+1 entries per cell: N bit removals and one
fill). A contradiction is a ``False`` return value, never an exception (Norvig's ``None``).
"""

import numpy as np
from numba import njit

from bitdoku.kernels.bits import digit_bit, full_mask, lowest_bit_index
from bitdoku.kernels.status import HIDDEN_SINGLES, LOCKED_CANDIDATES, NAKED_SINGLES

TRAIL_LENGTH = 0
QUEUE_LENGTH = 1
FILLED = 2
STAMP = 3


@njit(cache=True, nogil=True)
def new_workspace(n_cells, n):
    """Allocate the arrays of one search (see the module docstring); memory is O(N^3) bytes, about 3 MB at N=64."""
    value = np.zeros(n_cells, np.uint8)
    cand = np.zeros(n_cells, np.uint64)
    trail_cells = np.empty(n_cells * (n + 1), np.int32)
    trail_masks = np.empty(n_cells * (n + 1), np.uint64)
    queue = np.empty(n_cells, np.int32)
    counters = np.zeros(4, np.int64)
    line_stamp = np.full(3 * n, -1, np.int64)
    return value, cand, trail_cells, trail_masks, queue, counters, line_stamp


@njit(cache=True, nogil=True)
def reset_workspace(ws):
    """Empty a workspace for the next search: no cell filled, nothing logged or queued.

    The stamp counter keeps running, so ``line_stamp`` entries from earlier searches never match a new stamp.
    """
    ws[0][:] = 0
    counters = ws[5]
    counters[TRAIL_LENGTH] = 0
    counters[QUEUE_LENGTH] = 0
    counters[FILLED] = 0


@njit(cache=True, nogil=True, inline="always")
def _log(ws, cell):
    """Save a cell's mask (and, for a fill, mark it with -cell-1 so undo empties the cell) before changing it."""
    cand, trail_cells, trail_masks, counters = ws[1], ws[2], ws[3], ws[5]
    top = counters[TRAIL_LENGTH]
    trail_cells[top] = cell
    trail_masks[top] = cand[cell if cell >= 0 else -cell - 1]
    counters[TRAIL_LENGTH] = top + 1


@njit(cache=True, nogil=True)
def undo(ws, mark):
    """Restore the state the trail had when its length was ``mark``."""
    value, cand, trail_cells, trail_masks, counters = ws[0], ws[1], ws[2], ws[3], ws[5]
    top = counters[TRAIL_LENGTH]
    while top > mark:
        top -= 1
        cell = trail_cells[top]
        if cell < 0:
            cell = -cell - 1
            value[cell] = 0
        cand[cell] = trail_masks[top]
    counters[TRAIL_LENGTH] = mark


@njit(cache=True, nogil=True, inline="always")
def eliminate(ws, cell, bit, naked):
    """Remove a digit from an empty cell's candidates; False if it leaves none. Queues new naked singles."""
    cand, queue, counters = ws[1], ws[4], ws[5]
    mask = cand[cell]
    if mask & bit == 0:
        return True
    _log(ws, cell)
    mask &= ~bit
    cand[cell] = mask
    if mask == 0:
        return False
    if naked and mask & (mask - np.uint64(1)) == 0:
        queue[counters[QUEUE_LENGTH]] = cell
        counters[QUEUE_LENGTH] += 1
    return True


@njit(cache=True, nogil=True)
def assign(ws, peers, cell, digit, naked):
    """Fill an empty cell with a digit (one of its candidates) and remove the digit from its peers."""
    value, cand = ws[0], ws[1]
    bit = digit_bit(digit)
    if value[cell] != 0 or cand[cell] & bit == 0:
        return False
    _log(ws, -cell - 1)
    value[cell] = digit
    cand[cell] = bit
    ws[5][FILLED] += 1
    for i in range(peers.shape[1]):
        peer = peers[cell, i]
        if value[peer] == 0 and not eliminate(ws, peer, bit, naked):
            return False
    return True


@njit(cache=True, nogil=True)
def _fill_naked_singles(ws, peers):
    """Fill every queued cell that still has one candidate, including the ones its filling queues."""
    value, cand, queue, counters = ws[0], ws[1], ws[4], ws[5]
    head = 0
    while head < counters[QUEUE_LENGTH]:
        cell = queue[head]
        head += 1
        if value[cell] == 0 and not assign(ws, peers, cell, lowest_bit_index(cand[cell]) + 1, True):
            return False
    counters[QUEUE_LENGTH] = 0
    return True


@njit(cache=True, nogil=True)
def _fill_hidden_singles(ws, n, units, peers, naked):
    """Fill each digit that has one place left in a unit; returns (consistent, anything filled).

    Also catches a digit with no place in a unit. The ``once``/``twice`` masks are a bit-sliced counter of how
    many cells of the unit allow each digit.
    """
    value, cand = ws[0], ws[1]
    full = full_mask(n)
    filled = False
    for unit in range(units.shape[0]):
        once = np.uint64(0)
        twice = np.uint64(0)
        placed = np.uint64(0)
        for i in range(n):
            cell = units[unit, i]
            mask = cand[cell]
            if value[cell] != 0:
                placed |= mask
            else:
                twice |= once & mask
                once |= mask
        if placed | once != full:
            return False, filled
        hidden = once & ~twice & ~placed
        while hidden != 0:
            digit = lowest_bit_index(hidden) + 1
            hidden &= hidden - np.uint64(1)
            bit = digit_bit(digit)
            found = False
            for i in range(n):
                cell = units[unit, i]
                if value[cell] == 0 and cand[cell] & bit != 0:
                    found = True
                    if not assign(ws, peers, cell, digit, naked):
                        return False, filled
                    break
            if not found:
                return False, filled
            filled = True
    return True, filled


@njit(cache=True, nogil=True)
def _lock_line(ws, n, units, cell_units, box, line, kind, naked):
    """Pointing and claiming on one box-line intersection; returns (consistent, anything eliminated)."""
    value, cand = ws[0], ws[1]
    inside = np.uint64(0)
    box_rest = np.uint64(0)
    for i in range(n):
        cell = units[box, i]
        if value[cell] == 0:
            if cell_units[cell, kind] == line:
                inside |= cand[cell]
            else:
                box_rest |= cand[cell]
    line_rest = np.uint64(0)
    for i in range(n):
        cell = units[line, i]
        if value[cell] == 0 and cell_units[cell, 2] != box:
            line_rest |= cand[cell]
    pointing = inside & ~box_rest & line_rest  # the box needs these digits in this line: the line's rest loses them
    claiming = inside & ~line_rest & box_rest  # the line needs these digits in this box: the box's rest loses them
    changed = False
    while pointing != 0:
        bit = pointing & (~pointing + np.uint64(1))
        pointing &= ~bit
        for i in range(n):
            cell = units[line, i]
            if value[cell] == 0 and cell_units[cell, 2] != box and cand[cell] & bit != 0:
                changed = True
                if not eliminate(ws, cell, bit, naked):
                    return False, changed
    while claiming != 0:
        bit = claiming & (~claiming + np.uint64(1))
        claiming &= ~bit
        for i in range(n):
            cell = units[box, i]
            if value[cell] == 0 and cell_units[cell, kind] != line and cand[cell] & bit != 0:
                changed = True
                if not eliminate(ws, cell, bit, naked):
                    return False, changed
    return True, changed


@njit(cache=True, nogil=True)
def _lock_candidates(ws, n, units, cell_units, naked):
    """Run pointing and claiming on every box against its rows and its columns; returns (consistent, changed)."""
    counters, line_stamp = ws[5], ws[6]
    changed = False
    for box in range(2 * n, 3 * n):
        for kind in range(2):
            counters[STAMP] += 1
            stamp = counters[STAMP]
            for i in range(n):
                line = cell_units[units[box, i], kind]
                if line_stamp[line] == stamp:
                    continue
                line_stamp[line] = stamp
                ok, line_changed = _lock_line(ws, n, units, cell_units, box, line, kind, naked)
                changed |= line_changed
                if not ok:
                    return False, changed
    return True, changed


@njit(cache=True, nogil=True)
def propagate(ws, n, units, cell_units, peers, flags):
    """Apply the rules switched on in ``flags`` until none changes anything.

    Parameters
    ----------
    ws : tuple
        The workspace (module docstring); ``value``, ``cand``, the trail and ``counters`` are mutated.
    n : int
        Digits of the shape.
    units, cell_units, peers : int32 arrays
        ``Shape.tables``.
    flags : int
        ``NAKED_SINGLES | HIDDEN_SINGLES | LOCKED_CANDIDATES`` bits; 0 runs nothing beyond what filling did.

    Returns
    -------
    bool
        False on a contradiction (an empty cell without candidates, or a digit without a place in a unit).

    Cost: O(N^2) per hidden-singles pass and O(N^2 * (box_rows + box_cols)) per locked-candidates pass.
    """
    naked = flags & NAKED_SINGLES != 0
    ok = True
    while ok:
        ok = _fill_naked_singles(ws, peers)
        if not ok:
            break
        if flags & HIDDEN_SINGLES:
            ok, filled = _fill_hidden_singles(ws, n, units, peers, naked)
            if filled or not ok:
                continue
        if flags & LOCKED_CANDIDATES:
            ok, changed = _lock_candidates(ws, n, units, cell_units, naked)
            if changed or not ok:
                continue
        break
    ws[5][QUEUE_LENGTH] = 0
    return ok
