"""Compiled search of Skyscrapers and 2-String Kites (the engines of ``single_digit.find_skyscrapers`` and
``find_two_string_kites`` on classic grids): the same patterns, in the same order, as the Python finders, which stay
as their readable twins and the reference (``single_digit.COMPILED = False``).

Inputs: the masks (uint64[N*N]), N, the box of each cell (int32[N*N]), who sees whom (bool[N*N, N*N]), the digits
to search (bool[N]). A pattern that removes something is written as a row of ``found``: digit (0-based), the two
links' units, then the four cells in the order the finder names them (skyscraper: base a, roof a, base b, roof b;
kite: near and far of the row link, near and far of the column link).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitdoku.kernels.jit import borrowing


@njit(cache=True, nogil=True)
def _line_links(masks, n, bit, kind, links):
    """The strong links of the digit in the lines of ``kind`` (0 rows, 1 columns), lines increasing: rows of
    ``links`` (first cell, second cell, unit); returns how many."""
    count = 0
    for line in range(n):
        a = -1
        b = -1
        places = 0
        for i in range(n):
            c = line * n + i if kind == 0 else i * n + line
            if masks[c] & bit:
                places += 1
                if places == 1:
                    a = c
                elif places == 2:
                    b = c
        if places == 2:
            links[count, 0] = a
            links[count, 1] = b
            links[count, 2] = kind * n + line
            count += 1
    return count


@njit(cache=True, nogil=True)
def _removes(masks, bit, sees, p, q, a1, a2, b1, b2):
    """Whether a cell seeing both p and q, off the four pattern cells, holds the digit."""
    for c in range(masks.shape[0]):
        if masks[c] & bit and sees[p, c] and sees[q, c] and c != a1 and c != a2 and c != b1 and c != b2:
            return True
    return False


@borrowing
def _record(found, row, d, u1, u2, e1, e2, e3, e4):
    """Write one pattern as row ``row`` of ``found``: its digit, its two links' units, its four end cells (the
    order each finder documents)."""
    found[row, 0] = d
    found[row, 1] = u1
    found[row, 2] = u2
    found[row, 3] = e1
    found[row, 4] = e2
    found[row, 5] = e3
    found[row, 6] = e4


@njit(cache=True, nogil=True)
def skyscrapers(masks, n, sees, digits, found):
    """Every skyscraper that removes something; returns the rows of ``found`` (int64[R, 7]) written, -1 when
    full."""
    links = np.empty((n, 3), np.int64)
    count = 0
    for d in range(n):
        if not (digits >> d) & 1:
            continue
        bit = np.uint64(1) << np.uint64(d)
        for kind in range(2):
            total = _line_links(masks, n, bit, kind, links)
            for i in range(total):
                for j in range(i + 1, total):
                    a1, a2, u1 = links[i, 0], links[i, 1], links[i, 2]
                    b1, b2, u2 = links[j, 0], links[j, 1], links[j, 2]
                    for sa in range(2):
                        base_a, roof_a = (a1, a2) if sa == 0 else (a2, a1)
                        for sb in range(2):
                            base_b, roof_b = (b1, b2) if sb == 0 else (b2, b1)
                            # the crossing line: a column for row links, a row for column links
                            if kind == 0:
                                same = base_a % n == base_b % n and roof_a % n != roof_b % n
                            else:
                                same = base_a // n == base_b // n and roof_a // n != roof_b // n
                            if not same or not _removes(masks, bit, sees, roof_a, roof_b, a1, a2, b1, b2):
                                continue
                            if count == found.shape[0]:
                                return -1
                            _record(found, count, d, u1, u2, base_a, roof_a, base_b, roof_b)
                            count += 1
    return count


@njit(cache=True, nogil=True)
def kites(masks, n, box, sees, digits, found):
    """Every 2-String Kite that removes something; returns the rows of ``found`` (int64[R, 7]) written, -1 when
    full."""
    rows = np.empty((n, 3), np.int64)
    cols = np.empty((n, 3), np.int64)
    count = 0
    for d in range(n):
        if not (digits >> d) & 1:
            continue
        bit = np.uint64(1) << np.uint64(d)
        nrows = _line_links(masks, n, bit, 0, rows)
        ncols = _line_links(masks, n, bit, 1, cols)
        for i in range(nrows):
            r1, r2, row_unit = rows[i, 0], rows[i, 1], rows[i, 2]
            for j in range(ncols):
                c1, c2, col_unit = cols[j, 0], cols[j, 1], cols[j, 2]
                if r1 == c1 or r1 == c2 or r2 == c1 or r2 == c2:  # noqa: SIM109 (tuples cost in Numba)
                    continue
                for sr in range(2):
                    near_r, far_r = (r1, r2) if sr == 0 else (r2, r1)
                    for sc in range(2):
                        near_c, far_c = (c1, c2) if sc == 0 else (c2, c1)
                        if box[near_r] != box[near_c]:
                            continue
                        if not _removes(masks, bit, sees, far_r, far_c, r1, r2, c1, c2):
                            continue
                        if count == found.shape[0]:
                            return -1
                        _record(found, count, d, row_unit, col_unit, near_r, far_r, near_c, far_c)
                        count += 1
    return count
