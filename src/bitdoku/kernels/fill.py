"""Random complete grids: a randomised search from the empty grid, restarted on a growing node budget.

The search is the generic one (``dfs.search_in``) with ``RANDOM_ORDER``: it branches on a random cell among those
with the fewest candidates and tries the digits in random order, so every complete grid can come out, and two
seeds give unrelated grids (not one grid relabelled). A classic 9x9 grid goes to the band kernel (its tables are
``variant.Classic9Tables``: ``sudoku9.random_solution9``), which draws the digits but keeps its own choice of
cells: 20 times cheaper.

A randomised search has a heavy tail: now and then an early choice leads into a dead region that takes many nodes
to leave. Restarting with a fresh draw after a budget that doubles each time (the geometric schedule of Walsh,
"Search in a small world", IJCAI 1999) cuts the tail off while keeping the search complete in the limit.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.status import (
    ALL_RULES,
    BUDGET_EXHAUSTED,
    LIMIT_REACHED,
    N_STATS,
    RANDOM_ORDER,
    STAT_NODES,
    STOPPED,
)
from bitdoku.kernels.variant import search_any


@njit(cache=True, nogil=True)
def random_solution(rng, n, units, cell_units, peers, max_nodes, out, ws, stop):
    """Write a random complete grid of the shape into ``out``.

    Parameters
    ----------
    rng : uint64[1]
        A ``rng.py`` state; advanced.
    n, units, cell_units, peers
        The shape's N and tables, as for ``dfs.search``, with ``variant.Classic9Tables`` as ``peers`` for the
        classic 9x9 grid; or a variant's, its ``GeometryTables`` as ``peers`` (``variant.search_any``).
    max_nodes : int
        Search nodes to spend at most, over all restarts.
    out : uint8[N*N]
        Out: the grid, when one was found.
    ws : tuple
        A ``variant.workspace_for(n, peers)`` to work in.
    stop : int64[1]
        Read at every node: once another thread sets ``stop[0]`` (a deadline), the call returns ``STOPPED``.

    Returns
    -------
    (int, int)
        ``LIMIT_REACHED`` when ``out`` holds a grid, else ``BUDGET_EXHAUSTED`` or ``STOPPED``; and the nodes spent.

    Cost: for 9x9 a few dozen nodes with no restart, almost always; larger shapes restart now and then.
    """
    n_cells = n * n
    empty = np.zeros(n_cells, np.uint8)
    no_guide = np.zeros(0, np.uint8)
    found = out.reshape(1, n_cells)
    stats = np.zeros(N_STATS, np.int64)
    budget = n_cells
    spent = 0
    while spent < max_nodes:
        attempt = min(budget, max_nodes - spent)
        code = search_any(ws, empty, n, units, cell_units, peers, 1, attempt, ALL_RULES | RANDOM_ORDER, found,
                          stats, rng, no_guide, -1, stop)
        spent += stats[STAT_NODES]
        if code == LIMIT_REACHED or code == STOPPED:  # noqa: SIM109 (two compares: plain for Numba)
            return code, spent
        budget *= 2
    return BUDGET_EXHAUSTED, spent
