"""Depth-first search with minimum remaining values on an explicit stack, for every shape (N = 4..64).

``search`` is the public kernel: it routes a classic 9x9 grid to the specialised ``sudoku9`` kernel and every
other shape (or any grid when ``flags`` has ``GENERIC_ONLY``) to ``search_generic``, which hands grids of the
plain box geometry to the bitboard kernel (``boards``) and keeps the rest: other unit tables, and the
cross-check. The cell-by-cell search here keeps one state and an undo trail (``propagate``), so its memory is
O(N^3) whatever the depth. The bitboard kernel copies its (N*N + N) words a depth instead: 5 KB for 25x25,
33 KB for 64x64, where a search thousands of guesses deep can take a hundred MB (the stack doubles as needed).
"""

import numpy as np
from numba import njit

from bitdoku.kernels import boards
from bitdoku.kernels.bits import digit_bit, full_mask, lowest_bit_index, popcount
from bitdoku.kernels.boards import RESTART_UNIT, first_solution, is_box_geometry
from bitdoku.kernels.jit import borrowing
from bitdoku.kernels.propagate import (
    FILLED,
    QUEUE_LENGTH,
    TRAIL_LENGTH,
    assign,
    clear_pending,
    new_workspace,
    propagate,
    queue_all_units,
    reset_workspace,
    undo,
)
from bitdoku.kernels.rng import below, new_state, random_bit
from bitdoku.kernels.status import (
    BUDGET_EXHAUSTED,
    COMPLETE,
    CONTRADICTION,
    GENERIC_ONLY,
    INVALID,
    LIMIT_REACHED,
    NAKED_SINGLES,
    NO_RESTARTS,
    RANDOM_ORDER,
    STAT_BACKTRACKS,
    STAT_GUESSES,
    STAT_MAX_DEPTH,
    STAT_NODES,
    STAT_PLACEMENTS,
    STAT_SOLUTIONS,
    STOPPED,
)
from bitdoku.kernels.sudoku9 import is_standard9_table, no_stop, search9, search9_in

#: The seed of the random runs of a restarted first-solution search when the caller gives none.
RESTART_SEED = 0x5EED


@njit(cache=True, nogil=True)
def _load_givens(ws, cells, n, cell_units):
    """Fill the workspace from the givens; -1 when fine, else INVALID or CONTRADICTION (no search needed)."""
    value, cand = ws[0], ws[1]
    seen = np.zeros(3 * n, np.uint64)
    for cell in range(n * n):
        digit = np.int64(cells[cell])
        if digit == 0:
            continue
        if digit > n:
            return INVALID
        bit = digit_bit(digit)
        for kind in range(3):
            unit = cell_units[cell, kind]
            if seen[unit] & bit != 0:
                return INVALID
            seen[unit] |= bit
        value[cell] = digit
        cand[cell] = bit
    full = full_mask(n)
    for cell in range(n * n):
        if value[cell] == 0:
            mask = full & ~(seen[cell_units[cell, 0]] | seen[cell_units[cell, 1]] | seen[cell_units[cell, 2]])
            if mask == 0:
                return CONTRADICTION
            cand[cell] = mask
    queue_all_units(ws, n)
    return -1


@borrowing
def _queue_naked_singles(ws, n_cells):
    """Queue the empty cells that already have one candidate, so the first propagation fills them."""
    value, cand, queue, counters = ws[0], ws[1], ws[4], ws[5]
    for cell in range(n_cells):
        mask = cand[cell]
        if value[cell] == 0 and mask & (mask - np.uint64(1)) == 0:
            queue[counters[QUEUE_LENGTH]] = cell
            counters[QUEUE_LENGTH] += 1


@borrowing
def _choose_cell(ws, n_cells, good_enough):
    """The empty cell with the fewest candidates (the first such), or -1 when the grid is full.

    Stops at the first cell with ``good_enough`` candidates: 2 once naked singles are filled, else 1.
    """
    value, cand = ws[0], ws[1]
    best = -1
    best_count = 1 << 30
    for cell in range(n_cells):
        if value[cell] == 0:
            count = popcount(cand[cell])
            if count < best_count:
                best = cell
                best_count = count
                if count <= good_enough:
                    break
    return best


@borrowing
def _choose_cell_at_random(ws, n_cells, rng):
    """An empty cell with the fewest candidates, drawn at random among the ties; -1 when the grid is full."""
    value, cand = ws[0], ws[1]
    best = -1
    best_count = 1 << 30
    ties = 0
    for cell in range(n_cells):
        if value[cell] == 0:
            count = popcount(cand[cell])
            if count < best_count:
                best, best_count, ties = cell, count, 1
            elif count == best_count:
                ties += 1
                if below(rng, ties) == 0:  # reservoir sampling: each tie kept with probability 1/ties
                    best = cell
    return best


@njit(cache=True, nogil=True)
def search_generic(cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, stop):
    """Count and collect solutions of a grid of any shape by MRV depth-first search with propagation.

    Same contract as ``search`` (whose docstring has the details); never routes to the 9x9 kernel.
    """
    ws = new_workspace(n * n, n)
    no_rng = np.zeros(1, np.uint64)
    no_guide = np.zeros(0, np.uint8)
    return search_in(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, no_rng,
                     no_guide, -1, stop)


@njit(cache=True, nogil=True)
def box_rows(n, units, flags):
    """The rows of a box when ``units`` is the plain box geometry that the bitboard kernel assumes (and ``flags``
    do not ask for the generic kernel), else 0."""
    r = units[2 * n, n - 1] // n + 1  # the first box's last cell is in row box_rows - 1
    if flags & GENERIC_ONLY == 0 and is_box_geometry(units, n, r):
        return r
    return 0


@njit(cache=True, nogil=True, inline="always")
def box_search(cells, n, r, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop):
    """``search_in`` for a grid of the plain box geometry (boxes of ``r`` rows), on the bitboard kernel: a first
    solution (``limit`` 1, no guide) restarts on a schedule unless ``flags`` has ``NO_RESTARTS``."""
    if restarts(limit, guide.shape[0] > 0, changed_cell, flags):
        return boards.search(cells, n, r, limit, max_nodes, flags, solutions, stats, restart_rng(flags, rng), guide,
                             changed_cell, stop, np.int64(RESTART_UNIT))
    return boards.search(cells, n, r, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop,
                         np.int64(0))


@njit(cache=True, nogil=True)
def restarts(limit, guided, changed_cell, flags):
    """Whether a search of the bitboard kernel is a first-solution search that restarts (``first_solution``)."""
    return limit == 1 and not guided and changed_cell < 0 and flags & NO_RESTARTS == 0


@njit(cache=True, nogil=True)
def restart_rng(flags, rng):
    """The random state of restarted runs: the caller's with ``RANDOM_ORDER``, else a fixed seed (one puzzle,
    one answer)."""
    return rng if flags & RANDOM_ORDER else np.full(1, RESTART_SEED, np.uint64)


@njit(cache=True, nogil=True)
def search_in(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
              changed_cell, stop):
    """``search_generic`` in a workspace the caller reuses, with two extras for the generator.

    ``guide`` (uint8[N*N], or empty for none) is a solution to steer by: at each branch its digit is tried first.
    ``changed_cell`` (-1 for none) loses ``guide[changed_cell]`` from its candidates before the search. Clue removal
    asks whether a puzzle has a solution other than ``guide`` that differs in that cell; such a solution is
    usually ``guide`` changed in a few cells, so steering by ``guide`` finds it in a few nodes.
    With ``RANDOM_ORDER`` in ``flags`` the search branches on a random cell among those with the fewest
    candidates and tries digits in random order, drawing from ``rng`` (a ``rng.py`` state array, advanced);
    otherwise ``rng`` is not touched. The workspace comes from ``new_workspace(N*N, N)`` and may hold anything
    from an earlier search. ``stop`` (int64[1]) ends the search with ``STOPPED`` once another thread sets it.

    Grids of the plain box geometry go to the bitboard kernel (``boards``), where a first-solution search
    (``limit`` 1, no guide) restarts on a schedule unless ``flags`` has ``NO_RESTARTS``; its random runs draw
    from ``rng`` with ``RANDOM_ORDER``, else from a fixed seed, so that a puzzle always gets the same answer.
    """
    r = box_rows(n, units, flags)
    if r > 0:
        return box_search(cells, n, r, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop)
    stats[:] = 0
    n_cells = n * n
    reset_workspace(ws)
    status = _load_givens(ws, cells, n, cell_units)
    if status >= 0:
        return status
    stats[STAT_NODES] = 1
    if changed_cell >= 0 and ws[0][changed_cell] == 0:
        ws[1][changed_cell] &= ~digit_bit(guide[changed_cell])
        if ws[1][changed_cell] == 0:
            return COMPLETE
    naked = flags & NAKED_SINGLES != 0
    if naked:
        _queue_naked_singles(ws, n_cells)
    if not propagate(ws, n, units, cell_units, peers, flags):
        return COMPLETE
    status = _depth_first(ws, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                          stop)
    stats[STAT_PLACEMENTS] = ws[5][FILLED]
    return status


@njit(cache=True, nogil=True)
def _depth_first(ws, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng, guide, stop):
    """The branching loop of ``search_in``, from a propagated root.

    A frame of the stack holds the branching cell, the candidates still to try and the trail mark to undo to.
    """
    n_cells = n * n
    value, cand, counters = ws[0], ws[1], ws[5]
    naked = flags & NAKED_SINGLES != 0
    randomised = flags & RANDOM_ORDER != 0
    guided = guide.shape[0] == n_cells
    frame_cell = np.empty(n_cells + 1, np.int64)
    frame_rest = np.empty(n_cells + 1, np.uint64)
    frame_mark = np.empty(n_cells + 1, np.int64)
    good_enough = 2 if naked else 1
    top = 0
    status = COMPLETE
    while True:
        cell = _choose_cell_at_random(ws, n_cells, rng) if randomised else _choose_cell(ws, n_cells, good_enough)
        if cell < 0:
            found = stats[STAT_SOLUTIONS]
            if found < solutions.shape[0]:
                solutions[found, :] = value
            stats[STAT_SOLUTIONS] = found + 1
            if found + 1 >= limit:
                status = LIMIT_REACHED
                break
        else:
            if popcount(cand[cell]) > 1:
                stats[STAT_GUESSES] += 1
            frame_cell[top] = cell
            frame_rest[top] = cand[cell]
            frame_mark[top] = counters[TRAIL_LENGTH]
            top += 1
            stats[STAT_MAX_DEPTH] = max(stats[STAT_MAX_DEPTH], top)
        advanced = False
        while top > 0 and status == COMPLETE:
            frame = top - 1
            undo(ws, frame_mark[frame])
            rest = frame_rest[frame]
            if rest == 0:
                top -= 1
                continue
            if guided and rest & digit_bit(guide[frame_cell[frame]]) != 0:
                digit = np.int64(guide[frame_cell[frame]])
            elif randomised:
                digit = random_bit(rng, rest) + 1
            else:
                digit = lowest_bit_index(rest) + 1
            frame_rest[frame] = rest & ~digit_bit(digit)
            if stats[STAT_NODES] >= max_nodes:
                status = BUDGET_EXHAUSTED
                break
            if stop[0] != 0:
                status = STOPPED
                break
            stats[STAT_NODES] += 1
            clear_pending(ws)
            if assign(ws, peers, cell_units, frame_cell[frame], digit, naked) and propagate(
                ws, n, units, cell_units, peers, flags
            ):
                advanced = True
                break
            stats[STAT_BACKTRACKS] += 1
        if not advanced:
            break
    return status


def restarted_first_solution(cells, n, units, cell_units, peers, max_nodes, flags, solutions, stats, seed, stop):
    """A first solution by the restarted random runs of ``boards.first_solution``, drawn from ``seed`` and ended
    early when another thread sets ``stop[0]``: one member of a portfolio. Same arguments and statuses as
    ``search`` with ``limit`` 1; returns ``None`` (nothing searched) when the grid has no restarted search: a
    classic 9x9 grid (its kernel has no heavy tail to cut) or unit tables other than boxes.
    """
    if not has_restarted_search(n, units, flags):
        return None
    r = units[2 * n, n - 1] // n + 1
    return first_solution(cells, n, r, max_nodes, flags, solutions, stats, new_state(seed), RESTART_UNIT, stop)


def has_restarted_search(n, units, flags):
    """Whether ``restarted_first_solution`` applies: box geometry other than the classic 9x9, and no
    ``GENERIC_ONLY``."""
    r = units[2 * n, n - 1] // n + 1
    return n != 9 and not flags & GENERIC_ONLY and bool(is_box_geometry(units, n, r))


def search(cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, stop=None):
    """Search a puzzle for up to ``limit`` solutions within a node budget.

    Parameters
    ----------
    cells : uint8[N*N]
        The puzzle, row-major, 0 for an empty cell; not mutated.
    n : int
        Digits of the shape (N).
    units, cell_units, peers : int32[3N, N], int32[N*N, 3], int32[N*N, P]
        ``Shape.tables`` of the shape.
    limit : int
        Stop after this many solutions (>= 1).
    max_nodes : int
        The node budget (> 0). A node is a search state: the root, then one per candidate tried at a branch point.
    flags : int
        Bits from ``status``: ``NAKED_SINGLES | HIDDEN_SINGLES | LOCKED_CANDIDATES`` (``ALL_RULES``) choose the
        rules run at each node (0 is plain MRV backtracking); ``GENERIC_ONLY`` keeps a 9x9 grid off the
        specialised kernel.
    solutions : uint8[K, N*N]
        Out: the first min(found, K) solutions, in the order found. K may be 0.
    stats : int64[N_STATS]
        Out: counters, slots ``STAT_*`` in ``status``.
    stop : int64[1], optional
        A flag read where the node budget is checked: once another thread sets ``stop[0]`` (a time limit, a
        cancelled request) the search ends with ``STOPPED`` and its counters so far. None: nothing stops it.

    Returns
    -------
    int
        ``COMPLETE`` (everything searched; ``stats[STAT_SOLUTIONS]`` solutions exist), ``LIMIT_REACHED``,
        ``BUDGET_EXHAUSTED``, ``STOPPED``, ``INVALID`` (a duplicate or out-of-range given) or ``CONTRADICTION`` (an
        empty cell whose peers' givens hold every digit; zero solutions, no search).

    Cost: at most ``max_nodes`` propagations; memory O(N^3) (generic) or 16 KB (9x9). Never raises.

    A Python function, not a compiled one: a compiled dispatcher would compile every kernel it may reach, and a
    first 9x9 run would wait for the 16x16/25x25 kernels too (70 s against 20 s).
    """
    kernel, r = kernel_for(n, units, limit, flags)
    stop = no_stop(stop)
    if kernel is search9_in:
        return search9(cells, limit, max_nodes, flags, solutions, stats, stop)
    if kernel is search_generic:
        return search_generic(cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats,
                              stop)
    rng = np.zeros(1, np.uint64)
    if restarts(limit, False, -1, flags):
        return first_solution(cells, n, r, max_nodes, flags, solutions, stats, restart_rng(flags, rng),
                              RESTART_UNIT, stop)
    return boards.search_boards(cells, n, r, limit, max_nodes, flags, solutions, stats, rng, np.zeros(0, np.uint8),
                                -1, stop)


def kernel_for(n, units, limit, flags):
    """The compiled function that ``search`` runs for these arguments, and the box rows it needs (0 if none).

    ``search`` calls it from Python, not through ``box_search``, so that a first call compiles that one kernel
    only (a 4x4 count compiles ``boards.search``, not also the cell-by-cell kernel: measured 62 s of compiling
    against 13 s); ``cache.is_compiled`` asks it whether a call will compile.
    """
    if n == 9 and flags & GENERIC_ONLY == 0 and is_standard9_table(units):
        return search9_in, 0  # through search9, which is plain Python
    r = box_rows(n, units, flags)
    if r == 0:
        return search_generic, 0
    return boards.search, r
