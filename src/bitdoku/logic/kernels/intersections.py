"""Compiled search of locked candidates (the engine of ``intersections`` on classic grids): the same steps, in
the same order, as the Python finder, which stays as its readable twin and the reference
(``intersections.COMPILED = False``).

Inputs: the masks (uint64[N*N]), the units to search in order (int32[K]), the layout's units (int32[U, N]), and
for each unit its segments (``Layout.segments``) as the crossing unit (int32[U, S], -1 pads) and the segment's
cells as a bitset over the unit's positions (uint64[U, S]). A digit confined to a segment that removes something
from the crossing unit is written as a row of ``found``: the unit, the digit (0-based), the segment's index; units
in the order given, digits increasing, segments in order.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def locked(masks, order, units, targets, segments, found):
    """Every locked candidate of the units of ``order``; returns how many rows of ``found`` (int64[R, 3]) were
    written, or -1 when ``found`` is too small."""
    one = np.uint64(1)
    n = units.shape[1]
    rows = 0
    for u in order:
        for d in range(n):
            bit = one << np.uint64(d)
            places = np.uint64(0)
            count = 0
            for i in range(n):
                if masks[units[u, i]] & bit:
                    places |= one << np.uint64(i)
                    count += 1
            if count < 2:
                continue
            for s in range(targets.shape[1]):
                target = targets[u, s]
                if target < 0:
                    break
                if places & ~segments[u, s]:
                    continue
                removes = False
                for i in range(n):
                    c = units[target, i]
                    if masks[c] & bit and not _in_unit_segment(units, u, segments[u, s], c, n):
                        removes = True
                        break
                if removes:
                    if rows == found.shape[0]:
                        return -1
                    found[rows, 0] = u
                    found[rows, 1] = d
                    found[rows, 2] = s
                    rows += 1
    return rows


@njit(cache=True, nogil=True)
def _in_unit_segment(units, u, segment, cell, n):
    """Whether ``cell`` is one of the segment's cells (positions of unit u in the bitmask ``segment``)."""
    for i in range(n):
        if units[u, i] == cell:
            return (segment >> np.uint64(i)) & np.uint64(1) != 0
    return False
