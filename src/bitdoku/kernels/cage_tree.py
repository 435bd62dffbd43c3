"""Breadth-first expansion of Killer configurations: the tree strategies' view of the kernel of cages.

The counterpart of ``frontier.py`` for grids with cages: a configuration (uint8[N*N], 0 = empty) is propagated
under the cage rules of ``cages.py`` to a fixpoint, the open cell that the kernel's own search would branch on is
chosen (fewest candidates, ties to the smallest summed group), and each of its digits makes one child, propagated
again. The children partition the parent's solutions, so ``bfs``, ``mixed`` and the parallel schedulers split a
Killer's search into parts whose counts add up. It compiles only when a tree strategy first runs on a Killer.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.bits import lowest_bit
from bitdoku.kernels.cages import _choose, _propagate, _smallest_groups
from bitdoku.kernels.frontier import OPEN, SOLVED


@njit(cache=True, nogil=True)
def expand(cells, peer_start, peers, units, cell_units, n, cage_start, cage_cells, combo_start, combos,
           arc_start, arcs, arc_masks, arc_pairs, children, kinds):
    """Write the children of one configuration ``cells`` (not mutated; givens in range) into the first rows
    of ``children`` (uint8[N, N*N]) and their ``OPEN``/``SOLVED`` kinds into ``kinds`` (int8[N]); return how
    many (0: a dead end). One that propagation alone completes has one ``SOLVED`` child, itself completed.
    The tables are ``Geometry.cage_tables``'s, as for ``cages.search``.

    Compiled as ``cages.search`` is (NOTES-killer.md, "first contact"): the root and each child go through one
    call of the inlined ``_propagate`` and ``_choose``, arrays come from ``np.empty`` and are copied by loops."""
    size = cells.size
    full = np.int64((1 << n) - 1)
    candidates = np.empty(size, np.int64)
    values = np.empty(size, np.int8)
    for cell in range(size):
        candidates[cell] = full if cells[cell] == 0 else np.int64(1) << (cells[cell] - 1)
        values[cell] = 0
    root_candidates = np.empty(size, np.int64)
    root_values = np.empty(size, np.int8)
    queue = np.empty(size, np.int64)
    seen = np.empty(cage_cells.size, np.int64)
    arc_seen = np.empty(size, np.int64)
    member = np.empty(size + 1, np.int64)
    for i in range(size + 1):
        member[i] = 0
    where = np.empty((64, 5), np.int64)
    cleared = np.empty((cage_start.size - 1, 64), np.int8)
    smallest = _smallest_groups(size, cage_start, cage_cells, combo_start)
    branch, left, count = -1, np.int64(0), 0
    while True:
        if _propagate(candidates, values, peer_start, peers, units, cell_units, full, cage_start, cage_cells,
                      combo_start, combos, arc_start, arcs, arc_masks, arc_pairs, arc_seen, queue, seen, member,
                      where, cleared):
            cell = _choose(candidates, values, smallest)
            if branch >= 0 or cell < 0:  # a child, or a root that propagation completes
                for i in range(size):
                    children[count, i] = values[i]
                kinds[count] = SOLVED if cell < 0 else OPEN
                count += 1
                if branch < 0:
                    return count
            else:  # the root: branch on its cell
                branch, left = cell, candidates[cell]
                for i in range(size):
                    root_candidates[i] = candidates[i]
                    root_values[i] = values[i]
        elif branch < 0:
            return 0
        if left == 0:
            return count
        bit = lowest_bit(left)
        left &= ~bit
        for i in range(size):
            candidates[i] = root_candidates[i]
            values[i] = root_values[i]
        candidates[branch] = bit


@njit(cache=True, nogil=True)
def expand_rows(frontier, peer_start, peers, units, cell_units, n, cage_start, cage_cells, combo_start, combos,
                arc_start, arcs, arc_masks, arc_pairs, children, kinds, parents):
    """Expand every row of ``frontier`` (uint8[K, N*N]), writing the children one after another into
    ``children`` (uint8[K*N, N*N]), ``kinds`` and ``parents`` (the frontier row of each child); return how
    many were written."""
    total = 0
    for row in range(frontier.shape[0]):
        count = expand(frontier[row], peer_start, peers, units, cell_units, n, cage_start, cage_cells,
                       combo_start, combos, arc_start, arcs, arc_masks, arc_pairs, children[total:],
                       kinds[total:])
        for i in range(total, total + count):
            parents[i] = row
        total += count
    return total
