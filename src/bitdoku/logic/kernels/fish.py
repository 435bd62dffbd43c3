"""Compiled search of basic fish (the engine of ``fish.basic_fish`` on classic grids): the same fish, in the same
order, as the Python finder, which stays as its readable twin and the reference (``fish.COMPILED = False``).

Inputs: the masks (uint64[N*N]), N, the size k. A fish that removes something is written as a row of ``found``:
its digit (0-based), its base kind (0 rows, 1 columns), its base lines and its cover lines as bitmasks; digits
increasing, rows before columns, base lines in the lexicographic order of ``union_groups_within``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitdoku.logic.kernels.subsets import _bits, next_tight_group


@njit(cache=True, nogil=True)
def basic_fish(masks, n, k, found):
    """Every basic fish of size k that removes something; returns how many rows of ``found`` (int64[R, 4]) were
    written, or -1 when ``found`` is too small."""
    one = np.uint64(1)
    lines = np.empty((2, n), np.uint64)  # [kind, line] -> positions of the digit across the line
    keys = np.empty(n, np.int64)
    sets = np.empty(n, np.uint64)
    pick = np.empty(k + 1, np.int64)
    union = np.empty(k + 1, np.uint64)
    at = np.zeros(1, np.int64)
    rows = 0
    for d in range(n):
        bit = one << np.uint64(d)
        for kind in range(2):
            for line in range(n):
                lines[kind, line] = 0
        for r in range(n):
            for c in range(n):
                if masks[r * n + c] & bit:
                    lines[0, r] |= one << np.uint64(c)
                    lines[1, c] |= one << np.uint64(r)
        for kind in range(2):
            items = 0
            for line in range(n):
                count = _bits(lines[kind, line])
                if 2 <= count <= k:
                    keys[items] = line
                    sets[items] = lines[kind, line]
                    items += 1
            if items < k:
                continue
            at[0] = 0
            pick[0] = -1
            union[0] = 0
            while True:
                merged = next_tight_group(sets, items, k, pick, union, at)
                if merged == 0:
                    break
                bases = np.uint64(0)
                for j in range(k):
                    bases |= one << np.uint64(keys[pick[j]])
                removes = False
                for cover in range(n):
                    if (merged >> np.uint64(cover)) & one and lines[1 - kind, cover] & ~bases:
                        removes = True
                        break
                if removes:
                    if rows == found.shape[0]:
                        return -1
                    found[rows, 0] = d
                    found[rows, 1] = kind
                    found[rows, 2] = np.int64(bases)
                    found[rows, 3] = np.int64(merged)
                    rows += 1
    return rows
