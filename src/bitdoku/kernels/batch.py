"""Many puzzles at once: a ``prange`` over chunks of rows, each row searched on its own.

Rows are split into fixed chunks of ``CHUNK_ROWS``; a chunk reuses one 9x9 stack for all its rows, and each row
writes only its own solution, status and stats, so the result is the same for any number of threads (stumpy's
rule: no shared output, no reduction needed).
"""

import numpy as np
from numba import njit, prange

from bitdoku.kernels.dfs import search_generic
from bitdoku.kernels.status import GENERIC_ONLY
from bitdoku.kernels.sudoku9 import MAX_DEPTH, STATE_WORDS, is_standard9, search9_in

CHUNK_ROWS = 32


@njit(cache=True, nogil=True)
def _search_range(puzzles, first, stop, n, units, cell_units, peers, limit, max_nodes, flags, solutions, status, stats,
                  specialised):
    """Search rows first..stop-1 one after the other, sharing one 9x9 stack."""
    states = np.empty((MAX_DEPTH, STATE_WORDS), np.uint32)
    frames = np.empty((MAX_DEPTH, 3), np.int64)
    for row in range(first, stop):
        out = solutions[row : row + 1]
        if specialised:
            code = search9_in(puzzles[row], limit, max_nodes, flags, out, stats[row], states, frames)
        else:
            code = search_generic(puzzles[row], n, units, cell_units, peers, limit, max_nodes, flags, out, stats[row])
        status[row] = code


@njit(cache=True, nogil=True, parallel=True)
def search_many(puzzles, n, units, cell_units, peers, limit, max_nodes, flags, solutions, status, stats):
    """Search every row of ``puzzles`` with ``dfs.search``'s rules, in parallel over rows.

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

    Cost: the sum of the rows' searches, divided over the threads Numba runs (``numba.set_num_threads``).
    """
    rows = puzzles.shape[0]
    chunks = (rows + CHUNK_ROWS - 1) // CHUNK_ROWS
    specialised = n == 9 and flags & GENERIC_ONLY == 0 and is_standard9(units)
    for chunk in prange(chunks):
        _search_range(puzzles, chunk * CHUNK_ROWS, min(rows, (chunk + 1) * CHUNK_ROWS), n, units, cell_units, peers,
                      limit, max_nodes, flags, solutions, status, stats, specialised)


@njit(cache=True, nogil=True)
def search_rows(puzzles, n, units, cell_units, peers, limit, max_nodes, flags, solutions, status, stats):
    """``search_many`` on the calling thread only: for drivers that run slices in their own threads (nogil)."""
    specialised = n == 9 and flags & GENERIC_ONLY == 0 and is_standard9(units)
    _search_range(puzzles, 0, puzzles.shape[0], n, units, cell_units, peers, limit, max_nodes, flags, solutions,
                  status, stats, specialised)
