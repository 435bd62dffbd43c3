"""Deduction rules for any shape, run to a fixpoint: naked singles, hidden singles and locked candidates.

The rules work on a *workspace*, a tuple of arrays allocated once per search (``new_workspace``):

``value``  uint8[N*N]   the digit of each cell, 0 when empty
``cand``   uint64[N*N]  the candidates of each empty cell (the digit's own bit once it is filled)
``trail_cells``, ``trail_masks``  int32/uint64[N*N*(N+1)]  the undo log: every changed mask, with its old value
``queue``  int32[N*N]   cells that became naked singles and wait to be filled
``counters`` int64[6]   trail length, queue length, cells filled, a stamp for ``line_stamp``, and the head and
                        size of the unit queue
``line_stamp`` int64[3N]  which lines the full-scan locked-candidates pass has already seen in the current box
``dirty``  uint8[3N]    1 for a unit waiting in the unit queue
``units``  int32[3N]    the unit queue: units whose cells changed since the rules last looked at them (a ring)

Masks only ever shrink along a search path, and each change is logged before it happens, so undoing to a trail
mark restores any earlier state exactly (the trail holds at most N+1 entries per cell: N bit removals and one
fill). A contradiction is a ``False`` return value, never an exception (Norvig's ``None``).

``propagate`` is incremental: a change to a cell puts its row, column and box on the unit queue, and hidden
singles and locked candidates look only at queued units. On 25x25 grids that made a search node about N times
cheaper than scanning every unit on every pass (``benchmarks/NOTES-kernels.md``, round 5); the full scan stays
(``FULL_SCAN``) as the slow twin the tests compare it with. Both reach the same fixpoint (the rules only remove
candidates, so the closure does not depend on the order), hence the same search tree.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.bits import digit_bit, full_mask, lowest_bit_index
from bitdoku.kernels.jit import borrowing
from bitdoku.kernels.status import FULL_SCAN, HIDDEN_SINGLES, LOCKED_CANDIDATES, NAKED_SINGLES

TRAIL_LENGTH = 0
QUEUE_LENGTH = 1
FILLED = 2
STAMP = 3
UNITS_HEAD = 4
UNITS_SIZE = 5


@njit(cache=True, nogil=True)
def new_workspace(n_cells, n):
    """Allocate the arrays of one search (see the module docstring); memory is O(N^3) bytes, about 3 MB at N=64."""
    value = np.zeros(n_cells, np.uint8)
    cand = np.zeros(n_cells, np.uint64)
    trail_cells = np.empty(n_cells * (n + 1), np.int32)
    trail_masks = np.empty(n_cells * (n + 1), np.uint64)
    queue = np.empty(n_cells, np.int32)
    counters = np.zeros(6, np.int64)
    line_stamp = np.full(3 * n, -1, np.int64)
    dirty = np.zeros(3 * n, np.uint8)
    units = np.empty(3 * n, np.int32)
    return value, cand, trail_cells, trail_masks, queue, counters, line_stamp, dirty, units


@borrowing
def reset_workspace(ws):
    """Empty a workspace for the next search: no cell filled, nothing logged or queued.

    The stamp counter keeps running, so ``line_stamp`` entries from earlier searches never match a new stamp.
    """
    ws[0][:] = 0
    counters = ws[5]
    counters[TRAIL_LENGTH] = 0
    counters[FILLED] = 0
    clear_pending(ws)


@borrowing
def clear_pending(ws):
    """Forget the cells and units queued for the rules (after a contradiction, before the next branch)."""
    counters, dirty = ws[5], ws[7]
    counters[QUEUE_LENGTH] = 0
    dirty[:] = 0
    counters[UNITS_HEAD] = 0
    counters[UNITS_SIZE] = 0


@borrowing
def queue_all_units(ws, n):
    """Queue every unit: the rules look at the whole grid once (after the givens are loaded)."""
    clear_pending(ws)
    for unit in range(3 * n):
        _queue_unit(ws, unit)


@njit(cache=True, nogil=True, inline="always")
def _queue_unit(ws, unit):
    counters, dirty, units = ws[5], ws[7], ws[8]
    if dirty[unit] == 0:
        dirty[unit] = 1
        units[(counters[UNITS_HEAD] + counters[UNITS_SIZE]) % units.shape[0]] = unit
        counters[UNITS_SIZE] += 1


@njit(cache=True, nogil=True, inline="always")
def _touch(ws, cell_units, cell):
    """Queue the row, column and box of a cell whose candidates changed."""
    _queue_unit(ws, cell_units[cell, 0])
    _queue_unit(ws, cell_units[cell, 1])
    _queue_unit(ws, cell_units[cell, 2])


@njit(cache=True, nogil=True, inline="always")
def _next_unit(ws):
    """Take the unit at the head of the unit queue."""
    counters, dirty, units = ws[5], ws[7], ws[8]
    unit = units[counters[UNITS_HEAD]]
    counters[UNITS_HEAD] = (counters[UNITS_HEAD] + 1) % units.shape[0]
    counters[UNITS_SIZE] -= 1
    dirty[unit] = 0
    return unit


@njit(cache=True, nogil=True, inline="always")
def _log(ws, cell):
    """Save a cell's mask (and, for a fill, mark it with -cell-1 so undo empties the cell) before changing it."""
    cand, trail_cells, trail_masks, counters = ws[1], ws[2], ws[3], ws[5]
    top = counters[TRAIL_LENGTH]
    trail_cells[top] = cell
    trail_masks[top] = cand[cell if cell >= 0 else -cell - 1]
    counters[TRAIL_LENGTH] = top + 1


@borrowing
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
def eliminate(ws, cell_units, cell, bit, naked):
    """Remove a digit from an empty cell's candidates; False if it leaves none. Queues new naked singles and
    the cell's units."""
    cand, queue, counters = ws[1], ws[4], ws[5]
    mask = cand[cell]
    if mask & bit == 0:
        return True
    _log(ws, cell)
    mask &= ~bit
    cand[cell] = mask
    if mask == 0:
        return False
    _touch(ws, cell_units, cell)
    if naked and mask & (mask - np.uint64(1)) == 0:
        queue[counters[QUEUE_LENGTH]] = cell
        counters[QUEUE_LENGTH] += 1
    return True


@borrowing
def assign(ws, peers, cell_units, cell, digit, naked):
    """Fill an empty cell with a digit (one of its candidates) and remove the digit from its peers."""
    value, cand = ws[0], ws[1]
    bit = digit_bit(digit)
    if value[cell] != 0 or cand[cell] & bit == 0:
        return False
    _log(ws, -cell - 1)
    value[cell] = digit
    cand[cell] = bit
    ws[5][FILLED] += 1
    _touch(ws, cell_units, cell)
    for i in range(peers.shape[1]):
        peer = peers[cell, i]
        if value[peer] == 0 and not eliminate(ws, cell_units, peer, bit, naked):
            return False
    return True


@borrowing
def _fill_naked_singles(ws, peers, cell_units):
    """Fill every queued cell that still has one candidate, including the ones its filling queues."""
    value, cand, queue, counters = ws[0], ws[1], ws[4], ws[5]
    head = 0
    while head < counters[QUEUE_LENGTH]:
        cell = queue[head]
        head += 1
        if value[cell] == 0 and not assign(ws, peers, cell_units, cell, lowest_bit_index(cand[cell]) + 1, True):
            return False
    counters[QUEUE_LENGTH] = 0
    return True


@borrowing
def _fill_hidden_singles(ws, n, units, cell_units, peers, naked):
    """Hidden singles in every unit (``_hidden_in_unit`` on each); returns (consistent, anything filled)."""
    filled = False
    for unit in range(units.shape[0]):
        ok, found = _hidden_in_unit(ws, n, units, cell_units, peers, unit, naked)
        filled |= found
        if not ok:
            return False, filled
    return True, filled


@borrowing
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
                if not eliminate(ws, cell_units, cell, bit, naked):
                    return False, changed
    while claiming != 0:
        bit = claiming & (~claiming + np.uint64(1))
        claiming &= ~bit
        for i in range(n):
            cell = units[box, i]
            if value[cell] == 0 and cell_units[cell, kind] != line and cand[cell] & bit != 0:
                changed = True
                if not eliminate(ws, cell_units, cell, bit, naked):
                    return False, changed
    return True, changed


@borrowing
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


@borrowing
def _propagate_full(ws, n, units, cell_units, peers, flags):
    """``propagate`` by scanning every unit on every pass: the slow twin (``FULL_SCAN``)."""
    naked = flags & NAKED_SINGLES != 0
    ok = True
    while ok:
        ok = _fill_naked_singles(ws, peers, cell_units)
        if not ok:
            break
        if flags & HIDDEN_SINGLES:
            ok, filled = _fill_hidden_singles(ws, n, units, cell_units, peers, naked)
            if filled or not ok:
                continue
        if flags & LOCKED_CANDIDATES:
            ok, changed = _lock_candidates(ws, n, units, cell_units, naked)
            if changed or not ok:
                continue
        break
    clear_pending(ws)
    return ok


@borrowing
def _hidden_in_unit(ws, n, units, cell_units, peers, unit, naked):
    """Hidden singles in one unit: (consistent, anything filled). Also catches a digit with no place there.

    The ``once``/``twice`` masks are a bit-sliced counter of how many open cells of the unit allow each digit.
    """
    value, cand = ws[0], ws[1]
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
    if placed | once != full_mask(n):
        return False, False
    hidden = once & ~twice & ~placed
    filled = False
    while hidden != 0:
        digit = lowest_bit_index(hidden) + 1
        hidden &= hidden - np.uint64(1)
        bit = digit_bit(digit)
        found = False
        for i in range(n):
            cell = units[unit, i]
            if value[cell] == 0 and cand[cell] & bit != 0:
                if not assign(ws, peers, cell_units, cell, digit, naked):
                    return False, filled
                found = filled = True
                break
        if not found:  # its one place was filled by another hidden digit of this unit
            return False, filled
    return True, filled


@borrowing
def _confined(ws, units, unit, first, count, stride, step, segments):
    """Digits that the open cells of a unit hold in exactly one of its segments.

    The unit's cells are ``units[unit, ...]`` read as ``segments`` segments of ``count`` cells: segment s holds
    positions ``first + s*stride + k*step`` for k < count. Bit-sliced counting over the segments' unions.
    """
    value, cand = ws[0], ws[1]
    once = np.uint64(0)
    twice = np.uint64(0)
    for s in range(segments):
        union = np.uint64(0)
        for k in range(count):
            cell = units[unit, first + s * stride + k * step]
            if value[cell] == 0:
                union |= cand[cell]
        twice |= once & union
        once |= union
    return once & ~twice


@borrowing
def _segment_union(ws, units, unit, start, count, step):
    value, cand = ws[0], ws[1]
    union = np.uint64(0)
    for k in range(count):
        cell = units[unit, start + k * step]
        if value[cell] == 0:
            union |= cand[cell]
    return union


@borrowing
def _clear_outside(ws, n, units, cell_units, target, keep_kind, keep_unit, digits, naked):
    """Remove ``digits`` from the open cells of unit ``target`` that are not in ``keep_unit`` (a unit of kind
    ``keep_kind``: 0 row, 1 column, 2 box); (consistent, anything removed)."""
    value, cand = ws[0], ws[1]
    changed = False
    for i in range(n):
        cell = units[target, i]
        if value[cell] == 0 and cell_units[cell, keep_kind] != keep_unit and cand[cell] & digits != 0:
            changed = True
            rest = cand[cell] & digits
            while rest != 0:
                bit = rest & (~rest + np.uint64(1))
                rest &= ~bit
                if not eliminate(ws, cell_units, cell, bit, naked):
                    return False, changed
    return True, changed


@borrowing
def _locked_in_unit(ws, n, r, c, units, cell_units, unit, naked):
    """Locked candidates seen from one unit: a box's digits confined to one of its rows or columns leave the
    rest of that line (pointing); a line's digits confined to one box leave the rest of that box (claiming).
    Returns (consistent, anything removed)."""
    changed = False
    kind = unit // n
    if kind == 2:  # a box: r row segments of c cells, c column segments of r cells (cells stored row by row)
        for lines, count, stride, step, line_kind in ((r, c, c, 1, 0), (c, r, 1, c, 1)):
            confined = _confined(ws, units, unit, 0, count, stride, step, lines)
            for s in range(lines if confined != 0 else 0):
                digits = _segment_union(ws, units, unit, s * stride, count, step) & confined
                if digits != 0:
                    line = cell_units[units[unit, s * stride], line_kind]
                    ok, removed = _clear_outside(ws, n, units, cell_units, line, 2, unit, digits, naked)
                    changed |= removed
                    if not ok:
                        return False, changed
        return True, changed
    width = c if kind == 0 else r  # a row crosses boxes c cells at a time, a column r cells at a time
    confined = _confined(ws, units, unit, 0, width, width, 1, n // width)
    for s in range(n // width if confined != 0 else 0):
        digits = _segment_union(ws, units, unit, s * width, width, 1) & confined
        if digits != 0:
            box = cell_units[units[unit, s * width], 2]
            ok, removed = _clear_outside(ws, n, units, cell_units, box, kind, unit, digits, naked)
            changed |= removed
            if not ok:
                return False, changed
    return True, changed


@borrowing
def propagate(ws, n, units, cell_units, peers, flags):
    """Apply the rules switched on in ``flags`` until none changes anything.

    Parameters
    ----------
    ws : tuple
        The workspace (module docstring); ``value``, ``cand``, the trail, the queues and ``counters`` are mutated.
    n : int
        Digits of the shape.
    units, cell_units, peers : int32 arrays
        ``Shape.tables``.
    flags : int
        ``NAKED_SINGLES | HIDDEN_SINGLES | LOCKED_CANDIDATES`` bits; 0 runs nothing beyond what filling did.
        ``FULL_SCAN`` runs the slow twin.

    Returns
    -------
    bool
        False on a contradiction (an empty cell without candidates, or a digit without a place in a unit).

    Cost: O(N) per queued unit and rule; a unit is queued again only when one of its cells changes.
    """
    if flags & FULL_SCAN:
        return _propagate_full(ws, n, units, cell_units, peers, flags)
    naked = flags & NAKED_SINGLES != 0
    counters, queued = ws[5], ws[8]
    r = units[2 * n, n - 1] // n + 1  # the first box's last cell is in row box_rows - 1
    c = n // r
    ok = True
    while ok:
        ok = _fill_naked_singles(ws, peers, cell_units)
        if not ok or counters[UNITS_SIZE] == 0:
            break
        if flags & HIDDEN_SINGLES:
            filled = False
            head, size = counters[UNITS_HEAD], counters[UNITS_SIZE]
            for i in range(size):
                ok, found = _hidden_in_unit(ws, n, units, cell_units, peers, queued[(head + i) % queued.shape[0]],
                                            naked)
                filled |= found
                if not ok:
                    break
            if filled or not ok:
                continue
        # A unit leaves the queue once hidden singles (above) and locked candidates have both found nothing in it.
        # The first change starts the round again, so that no unit leaves the queue with a hidden single that
        # the change made: the fixpoint is the full scan's.
        size = counters[UNITS_SIZE]
        for _ in range(size):
            unit = _next_unit(ws)
            if flags & LOCKED_CANDIDATES:
                ok, changed = _locked_in_unit(ws, n, r, c, units, cell_units, unit, naked)
                if changed or not ok:
                    break
    if not ok:
        clear_pending(ws)
    counters[QUEUE_LENGTH] = 0
    return ok
