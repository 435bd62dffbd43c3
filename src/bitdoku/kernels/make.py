"""Attempts at puzzles for many rows in one call: fill a random grid, shuffle the orbits, remove clues.

For small grids an attempt takes a fraction of a millisecond, so a driver that called ``fill`` and ``dig`` from
Python for each one would spend its time in Python and, on several threads, queue for the GIL. ``attempt_rows``
makes one attempt for each row of a slice in a single GIL-free call; the driver keeps or retries each row. Every
row draws from its own random state, so a row's attempts are the same whatever slice or thread it runs in.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.dig import (
    DIG_CHECKS,
    DIG_NODES,
    DIG_REMOVED,
    DIG_UNDECIDED,
    N_DIG_COUNTERS,
    edge_first,
    removable_clues,
    remove_clues,
)
from bitdoku.kernels.fill import has_neighbours, random_solution
from bitdoku.kernels.rng import shuffle
from bitdoku.kernels.status import COMPLETE, LIMIT_REACHED
from bitdoku.kernels.variant import workspace_for

#: Slots of the ``outcome`` out-array of ``attempt_rows``, one row an attempt.
MADE = 0  # 1 when the attempt made a unique puzzle (0: the fill spent its nodes)
FILL_NODES = 1  # nodes the random grid took
CHECKS = 2  # the removal pass's counters (``dig.DIG_*``)
CHECK_NODES = 3
UNDECIDED = 4
REMOVED = 5
MINIMAL = 6  # 1 proven minimal, 0 a clue could go (or a check was undecided), -1 not checked
N_OUTCOME = 7


@njit(cache=True, nogil=True)
def attempt_rows(rngs, n, units, cell_units, peers, orbits, target, check_nodes, check_rules, max_nodes, check_minimal,
                 puzzles, solutions, outcome, stop):
    """Make one attempt at a puzzle for each row.

    Parameters
    ----------
    rngs : uint64[k, 1]
        One ``rng.py`` state a row; advanced.
    n, units, cell_units, peers
        The shape's N and tables.
    orbits : int32[n_orbits, width]
        The symmetry's orbits (``dig.remove_clues``).
    target, check_nodes, check_rules
        As for ``dig.remove_clues``: the fewest clues to keep (0: all that can go), one check's node budget and
        the rules of its search.
    max_nodes : int
        Nodes the random grid may take; the removal pass takes what it needs (small grids only).
    check_minimal : bool
        After a complete pass with every check decided, test each clue left (``dig.removable_clues``).
    puzzles, solutions : uint8[k, N*N]
        Out: each row's puzzle and its solution.
    outcome : int64[k, N_OUTCOME]
        Out: the slots above.
    stop : int64[1]
        Read at every node: once another thread sets ``stop[0]`` (a deadline), the row under way is given up
        (``MADE`` 0) and so are the rows after it.
    """
    n_cells = n * n
    ws = workspace_for(n, peers)
    counters = np.zeros(N_DIG_COUNTERS, np.int64)
    removable = np.zeros(n_cells, np.bool_)
    order = np.empty(orbits.shape[0], np.int32)
    for row in range(rngs.shape[0]):
        rng = rngs[row]
        outcome[row, :] = 0
        outcome[row, MINIMAL] = -1
        code, spent = random_solution(rng, n, units, cell_units, peers, max_nodes, solutions[row], ws, stop)
        outcome[row, FILL_NODES] = spent
        if stop[0] != 0:
            continue
        if code != LIMIT_REACHED:
            continue
        outcome[row, MADE] = 1
        for i in range(order.shape[0]):
            order[i] = i
        shuffle(rng, order)
        if has_neighbours(peers):  # nonconsecutive: the border first (``dig.edge_first``)
            edge_first(order, orbits, n)
        for cell in range(n_cells):  # a loop, not a slice copy: that compiles Numba's shape-mismatch error (~2 s)
            puzzles[row, cell] = solutions[row, cell]
        counters[:] = 0
        remove_clues(puzzles[row], solutions[row], n, units, cell_units, peers, orbits, order, np.int64(0), target,
                     check_nodes, check_rules, np.int64(1 << 62), counters, stop)
        outcome[row, REMOVED] = counters[DIG_REMOVED]
        if check_minimal and target == 0 and counters[DIG_UNDECIDED] == 0:
            counters[DIG_REMOVED] = 0
            status = removable_clues(puzzles[row], solutions[row], n, units, cell_units, peers, check_nodes,
                                     check_rules, removable, counters, stop)
            outcome[row, MINIMAL] = 1 if status == COMPLETE and counters[DIG_REMOVED] == 0 else 0
        outcome[row, CHECKS] = counters[DIG_CHECKS]
        outcome[row, CHECK_NODES] = counters[DIG_NODES]
        outcome[row, UNDECIDED] = counters[DIG_UNDECIDED]
        if stop[0] != 0:
            outcome[row, MADE] = 0  # the pass was cut short: not a finished attempt
