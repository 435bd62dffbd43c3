"""Many puzzles at once: each row searched on its own, its outputs written to its own row.

``search_rows`` runs on the calling thread and releases the GIL, so a driver (``bitdoku.batch``) runs slices of
a batch on worker threads: each row writes only its own solution, status and stats, so the result is the same
for any number of threads (stumpy's rule: no shared output, no reduction needed). ``search_rows`` is a plain
function that picks one of two compiled loops, ``search_rows9`` for classic 9x9 grids and
``search_rows_generic`` for the rest, so that a 9x9 job loads (or compiles) only the 9x9 kernel: a compiled
function that could reach both would bring both along. A ``prange`` version measured the same (1.93 against
2.01 µs a 17-clue puzzle on 2 threads) but needs ``numba.set_num_threads``, a process-wide setting, to honour
``threads=``.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.dfs import box_rows, box_search, search_generic
from bitdoku.kernels.status import GENERIC_ONLY
from bitdoku.kernels.sudoku9 import MAX_DEPTH, STATE_WORDS, is_standard9_table, search9_in


def search_rows(puzzles, n, units, cell_units, peers, limit, max_nodes, flags, solutions, status, stats):
    """Search every row of ``puzzles`` on the calling thread (the GIL released).

    Parameters
    ----------
    puzzles : uint8[B, N*N]
        One puzzle a row; not mutated.
    n, units, cell_units, peers, limit, max_nodes, flags
        As for ``dfs.search``; the budget and limit apply to each row on its own.
    solutions : uint8[B, N*N]
        Out: the first solution of each row (left untouched for a row without one).
    status : int8[B] or int32[B]
        Out: each row's status code; a row with bad givens gets ``INVALID`` and the others carry on.
    stats : int64[B, N_STATS]
        Out: each row's counters.

    Cost: the sum of the rows' searches.
    """
    kernel = rows_kernel(n, units, flags)
    if kernel is search_rows9:
        search_rows9(puzzles, limit, max_nodes, flags, solutions, status, stats)
    elif kernel is search_rows_boxes:
        search_rows_boxes(puzzles, n, box_rows(n, units, flags), limit, max_nodes, flags, solutions, status, stats)
    else:
        search_rows_generic(puzzles, n, units, cell_units, peers, limit, max_nodes, flags, solutions, status, stats)


def rows_kernel(n, units, flags):
    """The compiled loop ``search_rows`` runs: the 9x9 band kernel, the bitboard kernel of box shapes (not
    through ``search_generic``, so that a first batch does not compile the cell-by-cell kernel too), or that
    one for other unit tables."""
    if is_standard9_table(units) and not flags & GENERIC_ONLY:
        return search_rows9
    return search_rows_boxes if box_rows(n, units, flags) > 0 else search_rows_generic


@njit(cache=True, nogil=True)
def search_rows9(puzzles, limit, max_nodes, flags, solutions, status, stats):
    """``search_rows`` for classic 9x9 puzzles, on the band kernel, sharing one stack across the rows."""
    states = np.empty((MAX_DEPTH, STATE_WORDS), np.uint32)
    frames = np.empty((MAX_DEPTH, 3), np.int64)
    for row in range(puzzles.shape[0]):
        status[row] = search9_in(puzzles[row], limit, max_nodes, flags, solutions[row : row + 1], stats[row], states,
                                 frames)


@njit(cache=True, nogil=True)
def search_rows_boxes(puzzles, n, r, limit, max_nodes, flags, solutions, status, stats):
    """``search_rows`` for grids of the plain box geometry with boxes of ``r`` rows, on the bitboard kernel."""
    no_guide = np.zeros(0, np.uint8)
    for row in range(puzzles.shape[0]):
        rng = np.zeros(1, np.uint64)  # each row's own, as a single search has
        status[row] = box_search(puzzles[row], n, r, limit, max_nodes, flags, solutions[row : row + 1], stats[row],
                                 rng, no_guide, np.int64(-1))


@njit(cache=True, nogil=True)
def search_rows_generic(puzzles, n, units, cell_units, peers, limit, max_nodes, flags, solutions, status, stats):
    """``search_rows`` on the generic kernel (any shape, or a 9x9 grid with ``GENERIC_ONLY``)."""
    for row in range(puzzles.shape[0]):
        status[row] = search_generic(puzzles[row], n, units, cell_units, peers, limit, max_nodes, flags,
                                     solutions[row : row + 1], stats[row])
