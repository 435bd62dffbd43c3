"""Many puzzles at once: each row searched on its own, its outputs written to its own row.

``search_rows`` runs on the calling thread and releases the GIL, so a driver (``bitdoku.batch``) runs slices of
a batch on worker threads: each row writes only its own solution, status and stats, so the result is the same
for any number of threads (stumpy's rule: no shared output, no reduction needed). ``search_rows`` is a plain
function that picks one of two compiled loops, ``search_rows9`` for classic 9x9 grids and
``search_rows_generic`` for the rest, so that a 9x9 job loads (or compiles) only the 9x9 kernel: a compiled
function that could reach both would bring both along. A ``prange`` version measured the same (1.93 against
2.01 µs a 17-clue puzzle on 2 threads) but needs ``numba.set_num_threads``, a process-wide setting, to honour
``threads=``.

A time limit per puzzle (``bitdoku.timelimit.RowClock``) needs to know which row runs, so the loops take a
two-slot ``stop`` array: ``stop[TICKET]``, raised by one as each row starts, and ``stop[FLAG]``, which a watchdog
thread sets to the ticket of a row whose time is up (that row ends ``STOPPED``; the next starts afresh) or to -1
to stop every row left (a deadline for the whole call, Ctrl-C). A flag meant for a row that had already ended
(the watchdog reads the ticket, the row ends, the watchdog writes) stops the next row, which then runs again: no
row is ever stopped for another's time.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.dfs import box_rows, box_search, search_generic
from bitdoku.kernels.status import GENERIC_ONLY, STOP_FLAG, STOP_TICKET, STOPPED
from bitdoku.kernels.sudoku9 import MAX_DEPTH, STATE_WORDS, is_standard9_table, search9_in

FLAG = STOP_FLAG
TICKET = STOP_TICKET


def search_rows(puzzles, n, units, cell_units, peers, limit, max_nodes, flags, solutions, status, stats, stop=None):
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
    stop : int64[2], optional
        ``stop[FLAG]`` and ``stop[TICKET]`` (see the module): a row stopped by the flag gets ``STOPPED``. None: no
        row is stopped.

    Cost: the sum of the rows' searches.
    """
    stop = np.zeros(2, np.int64) if stop is None else stop
    rows_search(n, units, cell_units, peers, flags)(puzzles, limit, max_nodes, solutions, status, stats, stop)


def rows_search(n, units, cell_units, peers, flags):
    """``search_rows`` with its compiled loop picked once: ``run(puzzles, limit, max_nodes, solutions, status,
    stats, stop)`` for the slices of one batch (picking it means comparing the unit table with the 9x9 one, a few
    microseconds that a batch of 256-row slices paid on every slice)."""
    kernel = rows_kernel(n, units, flags)
    if kernel is search_rows9:
        def run(puzzles, limit, max_nodes, solutions, status, stats, stop):
            search_rows9(puzzles, limit, max_nodes, flags, solutions, status, stats, stop)
    elif kernel is search_rows_boxes:
        r = box_rows(n, units, flags)

        def run(puzzles, limit, max_nodes, solutions, status, stats, stop):
            search_rows_boxes(puzzles, n, r, limit, max_nodes, flags, solutions, status, stats, stop)
    else:
        def run(puzzles, limit, max_nodes, solutions, status, stats, stop):
            search_rows_generic(puzzles, n, units, cell_units, peers, limit, max_nodes, flags, solutions, status,
                                stats, stop)
    return run


def rows_kernel(n, units, flags):
    """The compiled loop ``search_rows`` runs: the 9x9 band kernel, the bitboard kernel of box shapes (not
    through ``search_generic``, so that a first batch does not compile the cell-by-cell kernel too), or that
    one for other unit tables."""
    if is_standard9_table(units) and not flags & GENERIC_ONLY:
        return search_rows9
    return search_rows_boxes if box_rows(n, units, flags) > 0 else search_rows_generic


@njit(cache=True, nogil=True)
def search_rows9(puzzles, limit, max_nodes, flags, solutions, status, stats, stop):
    """``search_rows`` for classic 9x9 puzzles, on the band kernel, sharing one stack across the rows."""
    states = np.empty((MAX_DEPTH, STATE_WORDS), np.uint32)
    frames = np.empty((MAX_DEPTH, 3), np.int64)
    for row in range(puzzles.shape[0]):
        stop[TICKET] += 1
        again = True
        while again:
            status[row] = search9_in(puzzles[row], limit, max_nodes, flags, solutions[row : row + 1], stats[row],
                                     states, frames, stop, np.int64(0), np.int64(-1), np.int64(0))
            again = _runs_again(status[row], stop)


@njit(cache=True, nogil=True)
def _runs_again(code, stop):
    """Whether a row must run again because the flag that stopped it was meant for an earlier row (cleared here);
    a row stopped for its own time clears the flag too, so the next row starts afresh."""
    flag = stop[FLAG]
    if code != STOPPED or flag < 0:
        return False
    stop[FLAG] = 0
    return flag != stop[TICKET]


@njit(cache=True, nogil=True)
def search_rows_boxes(puzzles, n, r, limit, max_nodes, flags, solutions, status, stats, stop):
    """``search_rows`` for grids of the plain box geometry with boxes of ``r`` rows, on the bitboard kernel."""
    no_guide = np.zeros(0, np.uint8)
    for row in range(puzzles.shape[0]):
        stop[TICKET] += 1
        again = True
        while again:
            rng = np.zeros(1, np.uint64)  # each row's own, as a single search has
            status[row] = box_search(puzzles[row], n, r, limit, max_nodes, flags, solutions[row : row + 1],
                                     stats[row], rng, no_guide, np.int64(-1), stop)
            again = _runs_again(status[row], stop)


@njit(cache=True, nogil=True)
def search_rows_generic(puzzles, n, units, cell_units, peers, limit, max_nodes, flags, solutions, status, stats,
                        stop):
    """``search_rows`` on the generic kernel (any shape, or a 9x9 grid with ``GENERIC_ONLY``)."""
    for row in range(puzzles.shape[0]):
        stop[TICKET] += 1
        again = True
        while again:
            status[row] = search_generic(puzzles[row], n, units, cell_units, peers, limit, max_nodes, flags,
                                         solutions[row : row + 1], stats[row], stop)
            again = _runs_again(status[row], stop)
