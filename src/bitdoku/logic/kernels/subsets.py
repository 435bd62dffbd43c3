"""Compiled search of naked and hidden subsets (the engine of ``logic.subsets`` on classic grids): the same sets,
in the same order, as the Python finders, which stay as their readable twins and the reference
(``subsets.COMPILED = False``).

Inputs: the masks (uint64[N*N]), the layout's units (int32[U, N]), the size k. A set that removes something is
written as a row of ``found``: its unit, then (naked) the positions of its cells in the unit as a bitmask and its
digits, or (hidden) the positions of its cells and its digits; units in order, sets in the lexicographic order of
their items (cells in the unit's order for a naked set, digits increasing for a hidden one), as the Python search's
``union_groups_within`` yields them.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _bits(x):
    count = 0
    while x:
        x &= x - np.uint64(1)
        count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def next_tight_group(sets, items, k, pick, union, at):
    """The union of the next group of k of ``sets[:items]`` whose union has exactly k bits, or 0 when none is
    left; ``pick[:k]`` then holds the group's indexes. Groups come in the lexicographic order of their indexes
    (``union_groups_within``'s), pruned as soon as a partial union has more than k bits. Start a search with
    ``at[0] = 0, pick[0] = -1, union[0] = 0``; ``at[0]`` keeps the depth between calls. Shared by the subsets
    and the fish (inlined: the callers' loops stay as fast as when each wrote it out)."""
    depth = at[0]
    while depth >= 0:
        pick[depth] += 1
        if pick[depth] > items - (k - depth):
            depth -= 1
            continue
        merged = union[depth] | sets[pick[depth]]
        if _bits(merged) > k:
            continue
        if depth + 1 < k:
            union[depth + 1] = merged
            pick[depth + 1] = pick[depth]
            depth += 1
            continue
        if _bits(merged) != k:
            continue
        at[0] = depth
        return merged
    at[0] = depth
    return np.uint64(0)


@njit(cache=True, nogil=True)
def subsets(masks, units, k, hidden, found):
    """Every naked (or hidden) set of k in every unit that removes something; returns how many rows of
    ``found`` (int64[R, 3]: unit, cell positions, digits) were written, or -1 when ``found`` is too small."""
    nunits, n = units.shape
    one = np.uint64(1)
    keys = np.empty(n, np.int64)  # the items: positions (naked) or digits (hidden)
    sets = np.empty(n, np.uint64)  # their masks: digits (naked) or positions (hidden)
    places = np.empty(n, np.uint64)
    pick = np.empty(k + 1, np.int64)
    union = np.empty(k + 1, np.uint64)
    at = np.zeros(1, np.int64)
    rows = 0
    for u in range(nunits):
        items = 0
        if hidden:
            for d in range(n):
                places[d] = 0
            for i in range(n):
                m = masks[units[u, i]]
                for d in range(n):
                    if (m >> np.uint64(d)) & one:
                        places[d] |= one << np.uint64(i)
            spots = 0
            for d in range(n):
                if places[d]:
                    spots += 1
                    if _bits(places[d]) <= k:
                        keys[items] = d
                        sets[items] = places[d]
                        items += 1
            if spots <= k:
                continue
        else:
            open_cells = 0
            for i in range(n):
                m = masks[units[u, i]]
                if m:
                    open_cells += 1
                    if _bits(m) <= k:
                        keys[items] = i
                        sets[items] = m
                        items += 1
            if open_cells <= k:
                continue
        at[0] = 0
        pick[0] = -1
        union[0] = 0
        while True:
            merged = next_tight_group(sets, items, k, pick, union, at)
            if merged == 0:
                break
            if _removes(masks, units, u, n, keys, sets, pick, k, merged, hidden):
                if rows == found.shape[0]:
                    return -1
                cells = np.uint64(0)
                digits = np.uint64(0)
                for j in range(k):
                    if hidden:
                        digits |= one << np.uint64(keys[pick[j]])
                    else:
                        cells |= one << np.uint64(keys[pick[j]])
                if hidden:
                    cells = merged
                else:
                    digits = merged
                found[rows, 0] = u
                found[rows, 1] = np.int64(cells)
                found[rows, 2] = np.int64(digits)
                rows += 1
    return rows


@njit(cache=True, nogil=True)
def _removes(masks, units, u, n, keys, sets, pick, k, merged, hidden):
    """Whether the set removes a candidate: its digits from the unit's other cells (naked), the other digits from
    its cells (hidden)."""
    one = np.uint64(1)
    if hidden:
        keep = np.uint64(0)
        for j in range(k):
            keep |= one << np.uint64(keys[pick[j]])
        for i in range(n):  # noqa: SIM110 (Numba compiles loops, not any() of a generator)
            if (merged >> np.uint64(i)) & one and masks[units[u, i]] & ~keep:
                return True
        return False
    inside = np.uint64(0)
    for j in range(k):
        inside |= one << np.uint64(keys[pick[j]])
    for i in range(n):  # noqa: SIM110
        if not (inside >> np.uint64(i)) & one and masks[units[u, i]] & merged:
            return True
    return False
