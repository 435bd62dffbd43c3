"""Compiled search of XY- and XYZ-Wings (the engine of ``wings.find_xy_wings`` and ``find_xyz_wings`` on classic
grids): the same wings, in the same order, as the Python finders, which stay as their readable twins and the
reference (``wings.COMPILED = False``).

Inputs: the masks (uint64[N*N]), each cell's peers in increasing order (int32[N*N, P], -1 pads), who sees whom
(bool[N*N, N*N]), XYZ or XY, the ``touched`` cells (bool[N*N]: all true for the whole state; else only wings
with a touched pivot or pincer). A wing that removes something is written as a row of ``found``: pivot, pincer a,
pincer b (pivots increasing, then pincers in the order of the pivot's sorted peers).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitdoku.logic.kernels.subsets import _bits


@njit(cache=True, nogil=True)
def wings(masks, peers, sees, xyz, touched, found):
    """Every wing that removes something; returns the rows of ``found`` (int64[R, 3]) written, -1 when full."""
    nn = masks.shape[0]
    width = peers.shape[1]
    pincers = np.empty(width, np.int64)
    count = 0
    size = 3 if xyz else 2
    for pivot in range(nn):
        pm = masks[pivot]
        if _bits(pm) != size:
            continue
        near = touched[pivot]
        if not near:
            for j in range(width):
                p = peers[pivot, j]
                if p < 0:
                    break
                if touched[p]:
                    near = True
                    break
        if not near:
            continue
        total = 0
        for j in range(width):
            c = peers[pivot, j]
            if c < 0:
                break
            m = masks[c]
            if _bits(m) != 2:
                continue
            if (xyz and m & ~pm == 0) or (not xyz and _bits(m & pm) == 1):
                pincers[total] = c
                total += 1
        for i in range(total):
            a = pincers[i]
            for j in range(i + 1, total):
                b = pincers[j]
                z = masks[a] & masks[b]
                if xyz:
                    if masks[a] == masks[b] or _bits(z) != 1:
                        continue
                elif masks[a] ^ masks[b] != pm:
                    continue
                if not (touched[pivot] or touched[a] or touched[b]):
                    continue
                removes = False
                for c in range(nn):
                    if masks[c] & z and sees[a, c] and sees[b, c] and (not xyz or sees[pivot, c]):
                        removes = True
                        break
                if removes:
                    if count == found.shape[0]:
                        return -1
                    found[count, 0] = pivot
                    found[count, 1] = a
                    found[count, 2] = b
                    count += 1
    return count
