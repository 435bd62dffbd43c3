"""Clue removal that keeps a puzzle unique: the loop of the generator, compiled.

A puzzle with the unique solution S stays unique without its clue ``cell = S[cell]`` exactly when no solution of
the smaller puzzle puts another digit there: one first-solution search with that digit struck out
(``sudoku9.other_solution9`` for 9x9, ``dfs.search_in`` with an excluded digit for other shapes, picked by
``variant.search_any`` from the tables' type), cheaper than counting to two. Clues go in *orbits* (the cells a
symmetry maps onto each other) and an orbit goes as a whole.
For an orbit c1..ck the checks split the other solutions by the first cell where they differ from S: check j
gives c1..c(j-1) their digits back, strikes S[cj] out of cj and leaves the rest empty, so no solution is looked
at twice.

Removal is monotone: a clue that could not go once can never go after more clues have gone (fewer clues, more
solutions). So one pass over the orbits in random order gives a puzzle from which no orbit can be removed; with
one cell an orbit, a minimal puzzle. Nonconsecutive geometries take the random order ring by ring from the border
in (``edge_first``): their last checks cost less so.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.status import BUDGET_EXHAUSTED, COMPLETE, LIMIT_REACHED, N_STATS, STAT_NODES, STOPPED
from bitdoku.kernels.variant import search_any, workspace_for

#: Slots of the ``counters`` out-array of ``remove_clues`` and ``removable_clues``.
DIG_CHECKS = 0  # uniqueness checks run
DIG_NODES = 1  # search nodes they spent
DIG_UNDECIDED = 2  # checks that spent ``check_nodes`` before answering (the clues stayed)
DIG_REMOVED = 3  # clues removed (remove_clues) or found removable (removable_clues)
N_DIG_COUNTERS = 4


@njit(cache=True, nogil=True)
def edge_first(order, orbits, n):
    """Reorder ``order`` (int32[n_orbits], in place, stably) so that the orbits nearest the grid's edge come first:
    those on the border, then those one cell in, and so on to the centre (an orbit's ring is its first cell's; the
    symmetries map rings onto themselves).

    Why: a removal pass keeps the clues that the late checks cannot take, and the late checks are the costly
    ones. In a nonconsecutive grid a clue inside the grid strikes its digit's neighbours from four cells, one on
    the border from three or two; with the border tried first the clues that stay lie inside, and the last checks,
    on puzzles of those clues, cost less: 9x9 nonconsecutive removal passes took 1.6x fewer nodes, their puzzles
    about as many clues (benchmarks/results/nc_generate4.md). Other geometries keep the random order."""
    rings = n // 2 + 1
    ring = np.empty(order.shape[0], np.int64)
    for i in range(order.shape[0]):
        row, column = divmod(np.int64(orbits[order[i], 0]), n)
        ring[i] = min(row, column, n - 1 - row, n - 1 - column)
    sorted_order = np.empty_like(order)
    filled = 0
    for level in range(rings):
        for i in range(order.shape[0]):
            if ring[i] == level:
                sorted_order[filled] = order[i]
                filled += 1
    for i in range(order.shape[0]):  # a loop, not a slice copy (Numba's shape-mismatch error: its strings)
        order[i] = sorted_order[i]


@njit(cache=True, nogil=True, inline="always")
def _new_checker(n, peers):
    """What the checks of one call share: (the search's workspace, stats, an empty solutions array, an unused
    random state)."""
    return (workspace_for(n, peers), np.zeros(N_STATS, np.int64), np.empty((0, n * n), np.uint8),
            np.zeros(1, np.uint64))


@njit(cache=True, nogil=True, inline="always")
def _other_solution(puzzle, solution, cell, n, units, cell_units, peers, check_nodes, check_rules, checker, stop):
    """A kernel status for "has the puzzle a solution without ``solution[cell]`` in ``cell``" (see the module);
    ``check_rules`` are the generic search's rules (the 9x9 kernel always runs all of its own). The search's
    counters land in ``checker[1]``."""
    ws, stats, no_solutions, no_rng = checker
    return search_any(ws, puzzle, n, units, cell_units, peers, np.int64(1), check_nodes, check_rules, no_solutions,
                      stats, no_rng, solution, cell, stop)


@njit(cache=True, nogil=True, inline="always")
def remove_clues(puzzle, solution, n, units, cell_units, peers, orbits, order, position, target, check_nodes,
                 check_rules, max_nodes, counters, stop):
    """Remove the orbits ``order[position:]`` one after the other, each only if the puzzle stays unique.

    Parameters
    ----------
    puzzle : uint8[N*N]
        A puzzle whose only solution is ``solution``, with every cell of the orbits still to try given; mutated:
        the clues removed become 0.
    solution : uint8[N*N]
        Its solution.
    n, units, cell_units, peers
        The shape's N and tables, as for ``dfs.search`` (``variant.Classic9Tables`` as ``peers`` for 9x9), or a
        variant's (``fill.random_solution``).
    orbits : int32[n_orbits, width]
        The cells of each orbit, padded with -1.
    order : int32[n_orbits]
        The order in which to try the orbits.
    position : int
        Where in ``order`` to start (resume from an earlier call's return value).
    target : int
        Never go below this many clues: an orbit that would is skipped; the call ends when the puzzle has exactly
        ``target`` clues. 0 for a minimal puzzle.
    check_nodes : int
        The node budget of one check; a check that spends it keeps its clues (counted as undecided).
    check_rules : int
        The rules of a check's search on shapes other than 9x9 (``status.ALL_RULES`` or fewer). With a small
        ``check_nodes``, all rules decide more checks within it; with no cap, naked and hidden singles alone are
        faster (cheaper nodes): 16x16 minimal puzzles 31 % faster (benchmarks/RESULTS.md, issue 9).
    max_nodes : int
        The nodes this call may spend; it returns after the check that spends them, so that a driver can show
        progress and stop on time.
    counters : int64[N_DIG_COUNTERS]
        Out: ``DIG_*`` counters, added to.
    stop : int64[1]
        Read at every node of the checks: once another thread sets ``stop[0]`` (a deadline), the call returns at
        once, the orbit under check given back and left to try again (its check was not decided).

    Returns
    -------
    int
        The position to resume from: ``len(order)`` when the pass is over or the target was reached.
    """
    n_cells = n * n
    checker = _new_checker(n, peers)
    stats = checker[1]
    clues = 0
    for cell in range(n_cells):
        clues += puzzle[cell] != 0
    spent = 0
    while position < order.shape[0] and clues > target and spent < max_nodes:
        orbit = orbits[order[position]]
        position += 1
        size = 0
        while size < orbit.shape[0] and orbit[size] >= 0:
            size += 1
        if clues - size < target:
            continue
        for i in range(size):
            puzzle[orbit[i]] = 0
        unique = True
        for i in range(size):
            cell = np.int64(orbit[i])  # the type removable_clues passes: one compiled check, not two
            code = _other_solution(puzzle, solution, cell, n, units, cell_units, peers, check_nodes, check_rules,
                                   checker, stop)
            counters[DIG_CHECKS] += 1
            counters[DIG_NODES] += stats[STAT_NODES]
            spent += stats[STAT_NODES]
            puzzle[cell] = solution[cell]
            if code == STOPPED:
                for j in range(size):
                    puzzle[orbit[j]] = solution[orbit[j]]
                return position - 1
            if code == BUDGET_EXHAUSTED:
                counters[DIG_UNDECIDED] += 1
            if code != COMPLETE:
                unique = False
                break
        if unique:
            for i in range(size):
                puzzle[orbit[i]] = 0
            clues -= size
            counters[DIG_REMOVED] += size
        else:
            for i in range(size):
                puzzle[orbit[i]] = solution[orbit[i]]
    return position if clues > target else order.shape[0]


@njit(cache=True, nogil=True, inline="always")
def removable_clues(puzzle, solution, n, units, cell_units, peers, check_nodes, check_rules, removable, counters,
                    stop):
    """Mark each clue whose removal alone would leave the unique ``puzzle`` unique: none for a minimal puzzle.

    ``solution``: its solution; ``check_nodes`` and ``check_rules`` as for ``remove_clues``; ``removable``:
    bool[N*N], out (True for such a clue); ``counters`` as for ``remove_clues`` (``DIG_REMOVED`` counts the
    removable clues; an undecided check marks nothing). ``puzzle`` is restored before returning.
    Returns ``LIMIT_REACHED`` if some check was undecided, ``STOPPED`` as soon as another thread sets ``stop[0]``,
    else ``COMPLETE``. Cost: one check a clue.
    """
    n_cells = n * n
    checker = _new_checker(n, peers)
    stats = checker[1]
    status = COMPLETE
    for cell in range(n_cells):
        removable[cell] = False
        if puzzle[cell] == 0:
            continue
        puzzle[cell] = 0
        code = _other_solution(puzzle, solution, cell, n, units, cell_units, peers, check_nodes, check_rules, checker,
                               stop)
        puzzle[cell] = solution[cell]
        if code == STOPPED:
            return STOPPED
        counters[DIG_CHECKS] += 1
        counters[DIG_NODES] += stats[STAT_NODES]
        if code == COMPLETE:
            removable[cell] = True
            counters[DIG_REMOVED] += 1
        elif code == BUDGET_EXHAUSTED:
            counters[DIG_UNDECIDED] += 1
            status = LIMIT_REACHED
    return status
