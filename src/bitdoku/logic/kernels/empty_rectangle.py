"""Compiled search of Empty Rectangles (the engine of ``single_digit.find_empty_rectangles`` on classic grids):
the same rectangles and links, in the same order, as the Python finder, which stays as its readable twin and the
reference (``single_digit.COMPILED = False``).

Inputs: the masks (uint64[N*N]), N, the bands' row masks and the stacks' column masks (uint64[B], uint64[S], in
order), the digits to search (a bitmask, bit d for digit d + 1). Each empty rectangle with a link is written as a
row of ``found``: digit (0-based), band mask, stack mask, row, column, the strong link's cells (near, far), the
target cell and the link's unit; digits increasing, then bands, stacks, the box's (row, column) pairs, the links in
columns before those in rows, each in increasing order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitdoku.logic.kernels.subsets import _bits


@njit(cache=True, nogil=True)
def empty_rectangles(masks, n, bands, stacks, digits, found):
    """Every empty rectangle step; returns how many rows of ``found`` (int64[R, 9]) were written, or -1 when
    ``found`` is too small."""
    one = np.uint64(1)
    full = (one << np.uint64(n)) - one
    rows_of = np.empty(n, np.uint64)
    cols_of = np.empty(n, np.uint64)
    count = 0
    for d in range(n):
        if not (digits >> d) & 1:
            continue
        bit = one << np.uint64(d)
        for i in range(n):
            rows_of[i] = 0
            cols_of[i] = 0
        for r in range(n):
            for c in range(n):
                if masks[r * n + c] & bit:
                    rows_of[r] |= one << np.uint64(c)
                    cols_of[c] |= one << np.uint64(r)
        for band in bands:
            for stack in stacks:
                in_box = 0
                for r in range(n):
                    if (band >> np.uint64(r)) & one and rows_of[r] & stack:
                        in_box += 1
                if in_box < 2:
                    continue
                for row in range(n):
                    if not ((band >> np.uint64(row)) & one and rows_of[row] & stack):
                        continue
                    row_part = rows_of[row] & stack
                    others = np.uint64(0)
                    for r in range(n):
                        if r != row and (band >> np.uint64(r)) & one:
                            others |= rows_of[r] & stack
                    if _bits(others) != 1 or not row_part & ~others:
                        continue
                    col = _low(others)
                    # links in columns meeting the rectangle's row outside the box
                    spots = ~stack & rows_of[row] & full
                    for link_col in range(n):
                        if not (spots >> np.uint64(link_col)) & one:
                            continue
                        ends = cols_of[link_col]
                        other = ends & ~(one << np.uint64(row))
                        if _bits(ends) == 2 and not other & band:
                            far = _low(other)
                            if (rows_of[far] >> np.uint64(col)) & one:
                                if count == found.shape[0]:
                                    return -1
                                _write(found, count, d, band, stack, row, col, row * n + link_col,
                                       far * n + link_col, far * n + col, n + link_col)
                                count += 1
                    spots = ~band & cols_of[col] & full
                    for link_row in range(n):
                        if not (spots >> np.uint64(link_row)) & one:
                            continue
                        ends = rows_of[link_row]
                        other = ends & ~(one << np.uint64(col))
                        if _bits(ends) == 2 and not other & stack:
                            far = _low(other)
                            if (cols_of[far] >> np.uint64(row)) & one:
                                if count == found.shape[0]:
                                    return -1
                                _write(found, count, d, band, stack, row, col, link_row * n + col,
                                       link_row * n + far, row * n + far, link_row)
                                count += 1
    return count


@njit(cache=True, nogil=True)
def _low(x):
    """The index of the only (or lowest) set bit."""
    i = 0
    while not (x >> np.uint64(i)) & np.uint64(1):
        i += 1
    return i


@njit(cache=True, nogil=True)
def _write(found, row_index, d, band, stack, row, col, near, far, target, unit):
    found[row_index, 0] = d
    found[row_index, 1] = np.int64(band)
    found[row_index, 2] = np.int64(stack)
    found[row_index, 3] = row
    found[row_index, 4] = col
    found[row_index, 5] = near
    found[row_index, 6] = far
    found[row_index, 7] = target
    found[row_index, 8] = unit
