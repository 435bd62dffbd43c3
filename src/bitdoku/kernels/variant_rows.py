"""Many variant puzzles at once: the row loops of ``bitdoku.batch`` for the variant kernels.

``kernels/batch.py`` holds the classic loops; these are the same loop (one stack reused by every row, each row
writing only its own solution, status and stats, the two-slot ``stop`` of ``kernels/batch.py``) for each variant
kernel. The loop is written once (``_rows``) and takes the kernel's search as an argument: Numba compiles it
for each search it is given, a direct call as if written out. Each kernel has its own cached entry point, so a
batch of X puzzles compiles or loads the band kernel with extra units and nothing else. ``_rows`` is inlined
into each entry point: called as a function with a function argument, the entry points could not be cached
("uses dynamic globals"), and each process would compile them again.

Every entry point takes ``(puzzles, tables, limit, max_nodes, flags, solutions, status, stats, stop)``:
``tables`` is the kernel's own (``extra9.tables_for``, ``jigsaw9.tables_for``, ``nonconsecutive9.tables_for``,
``variant81.board_tables``, or ``(n, geometry.tables)`` for the cell-by-cell kernel), the rest as for
``kernels.batch.search_rows``.
"""

import numpy as np
from numba import njit

from bitdoku.kernels import extra9, jigsaw9, nonconsecutive9, variant, variant81
from bitdoku.kernels.batch import TICKET, _runs_again


@njit(cache=True, nogil=True, inline="always")
def _rows(search, workspace, puzzles, tables, limit, max_nodes, flags, solutions, status, stats, stop):
    """Search each row with ``search(workspace, cells, tables, limit, max_nodes, flags, solutions, stats, stop)``;
    a row stopped by a flag meant for an earlier row runs again (``kernels.batch``)."""
    for row in range(puzzles.shape[0]):
        stop[TICKET] += 1
        again = True
        while again:
            status[row] = search(workspace, puzzles[row], tables, limit, max_nodes, flags, solutions[row : row + 1],
                                 stats[row], stop)
            again = _runs_again(status[row], stop)


@njit(cache=True, nogil=True)
def _extra9_search(workspace, cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    states, frames = workspace
    return extra9.search_in(states, frames, cells, tables, limit, max_nodes, flags, solutions, stats, stop)


@njit(cache=True, nogil=True)
def _jigsaw9_search(workspace, cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    states, frames = workspace
    return jigsaw9.search_in(states, frames, cells, tables, limit, max_nodes, flags, solutions, stats, stop)


@njit(cache=True, nogil=True)
def _nonconsecutive9_search(workspace, cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    return nonconsecutive9.search_in(workspace, cells, tables, limit, max_nodes, flags, solutions, stats,
                                     np.ones(1, np.uint64), np.zeros(0, np.uint8), np.int64(-1), stop)


@njit(cache=True, nogil=True)
def _variant81_search(workspace, cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    return variant81.search_in(workspace, cells, tables, limit, max_nodes, flags, solutions, stats,
                               np.ones(1, np.uint64), np.zeros(0, np.uint8), np.int64(-1), stop)


@njit(cache=True, nogil=True)
def _variant_search(workspace, cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    n, geometry_tables = tables
    return variant.search_in(workspace, cells, n, geometry_tables, limit, max_nodes, flags, solutions, stats,
                             np.ones(1, np.uint64), np.zeros(0, np.uint8), -1, stop)


@njit(cache=True, nogil=True)
def _band_stack(depth, words):
    """The stack of a band kernel with a cell a frame (``extra9``, ``jigsaw9``, each with its own state words):
    states and frames."""
    return np.empty((depth, words), np.uint32), np.empty((depth, 2), np.int64)


@njit(cache=True, nogil=True)
def extra9_rows(puzzles, tables, limit, max_nodes, flags, solutions, status, stats, stop):
    """X, Windoku and other extra units (``kernels/extra9.py``)."""
    stack = _band_stack(extra9.MAX_DEPTH, extra9.STATE_WORDS)
    _rows(_extra9_search, stack, puzzles, tables, limit, max_nodes, flags, solutions, status, stats, stop)


@njit(cache=True, nogil=True)
def jigsaw9_rows(puzzles, tables, limit, max_nodes, flags, solutions, status, stats, stop):
    """9x9 jigsaw (``kernels/jigsaw9.py``)."""
    stack = _band_stack(jigsaw9.MAX_DEPTH, jigsaw9.STATE_WORDS)
    _rows(_jigsaw9_search, stack, puzzles, tables, limit, max_nodes, flags, solutions, status, stats, stop)


@njit(cache=True, nogil=True)
def nonconsecutive9_rows(puzzles, tables, limit, max_nodes, flags, solutions, status, stats, stop):
    """9x9 nonconsecutive (``kernels/nonconsecutive9.py``)."""
    _rows(_nonconsecutive9_search, nonconsecutive9.new_workspace_compiled(), puzzles, tables, limit, max_nodes,
          flags, solutions, status, stats, stop)


@njit(cache=True, nogil=True)
def variant81_rows(puzzles, tables, limit, max_nodes, flags, solutions, status, stats, stop):
    """The other 9x9 variants (``kernels/variant81.py``: anti-knight, anti-king, their combinations)."""
    _rows(_variant81_search, variant81.new_workspace(), puzzles, tables, limit, max_nodes, flags, solutions, status,
          stats, stop)


@njit(cache=True, nogil=True)
def variant_rows(puzzles, tables, limit, max_nodes, flags, solutions, status, stats, stop):
    """Variants of other sizes (``kernels/variant.py``); ``tables`` is ``(n, geometry.tables)``."""
    _rows(_variant_search, variant.new_workspace(tables[0] * tables[0]), puzzles, tables, limit, max_nodes, flags,
          solutions, status, stats, stop)
