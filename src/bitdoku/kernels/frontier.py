"""Breadth-first expansion: one configuration into its children, for splitting a search tree into parts.

A *configuration* is a grid (uint8[N*N], 0 = empty). Expanding it propagates the rules to a fixpoint, picks the
empty cell with the fewest candidates and makes one child per candidate: the grid with that digit placed and
the rules propagated again (the study's "fix a cell with the fewest candidates to each of its values,
propagate forced cells"). The children partition the solutions of the parent, so solution counts of the
children add up to the parent's, and any child's solution is one of the parent's.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.bits import lowest_bit_index
from bitdoku.kernels.dfs import _choose_cell, _load_givens, _queue_naked_singles
from bitdoku.kernels.propagate import TRAIL_LENGTH, assign, clear_pending, new_workspace, propagate, undo
from bitdoku.kernels.status import NAKED_SINGLES

#: Kinds of child: a configuration with empty cells left, or a complete grid (a solution).
OPEN = 0
SOLVED = 1


@njit(cache=True, nogil=True)
def expand(cells, n, units, cell_units, peers, flags, children, kinds):
    """Write the children of one configuration.

    Parameters
    ----------
    cells : uint8[N*N]
        The configuration (not mutated); its givens must be valid (no duplicate, no digit above N).
    n, units, cell_units, peers, flags
        As for ``dfs.search``.
    children : uint8[N, N*N]
        Out: the children, first ``count`` rows.
    kinds : int8[N]
        Out: ``OPEN`` or ``SOLVED`` for each child.

    Returns
    -------
    int
        ``count`` >= 0: the number of children (0 for a dead end). A configuration that propagation alone
        completes has one ``SOLVED`` child, itself completed.

    Cost: one propagation per candidate of the chosen cell; memory O(N^3) for the workspace.
    """
    n_cells = n * n
    ws = new_workspace(n_cells, n)
    value, cand, counters = ws[0], ws[1], ws[5]
    if _load_givens(ws, cells, n, cell_units) >= 0:
        return 0
    naked = flags & NAKED_SINGLES != 0
    if naked:
        _queue_naked_singles(ws, n_cells)
    if not propagate(ws, n, units, cell_units, peers, flags):
        return 0
    cell = _choose_cell(ws, n_cells, 2 if naked else 1)
    if cell < 0:
        children[0, :] = value
        kinds[0] = SOLVED
        return 1
    mark = counters[TRAIL_LENGTH]
    rest = cand[cell]
    count = 0
    while rest:
        digit = lowest_bit_index(rest) + 1
        rest &= rest - np.uint64(1)
        clear_pending(ws)
        if assign(ws, peers, cell_units, cell, digit, naked) and propagate(ws, n, units, cell_units, peers, flags):
            children[count, :] = value
            kinds[count] = SOLVED if _choose_cell(ws, n_cells, 1) < 0 else OPEN
            count += 1
        undo(ws, mark)
    return count


@njit(cache=True, nogil=True)
def expand_rows(frontier, n, units, cell_units, peers, flags, children, kinds, parents):
    """Expand every row of ``frontier`` (uint8[K, N*N]); write all children one after another.

    ``children`` (uint8[K*N, N*N]), ``kinds`` (int8[K*N]) and ``parents`` (int32[K*N], the frontier row each
    child came from) are outputs; returns how many children were written. Cost: the sum of the expansions.
    """
    total = 0
    for row in range(frontier.shape[0]):
        count = expand(frontier[row], n, units, cell_units, peers, flags, children[total:], kinds[total:])
        parents[total : total + count] = row
        total += count
    return total
