"""Random complete grids: a randomised search from the empty grid, restarted on a growing node budget.

The search is the generic one (``dfs.search_in``) with ``RANDOM_ORDER``: it branches on a random cell among those
with the fewest candidates and tries the digits in random order, so every complete grid can come out, and two
seeds give unrelated grids (not one grid relabelled). A classic 9x9 grid goes to the band kernel (its tables are
``variant.Classic9Tables``: ``sudoku9.random_solution9``), which draws the digits but keeps its own choice of
cells: 20 times cheaper.

A randomised search has a heavy tail: now and then an early choice leads into a dead region that takes many nodes
to leave. Restarting with a fresh draw after a budget that doubles each time (the geometric schedule of Walsh,
"Search in a small world", IJCAI 1999) cuts the tail off while keeping the search complete in the limit.

A geometry with nonconsecutive neighbours fills another way: a random cell among the fewest candidates wanders
there (9x9: 8,843 nodes a grid on 60 seeds), where the kernel's own branching (the fewest candidates, ties by its
score) with a random digit tried first at each cell (a *guide* of random digits, drawn afresh at each restart)
takes 5,045 on the same seeds, and one attempt at a minimal puzzle 1.2x fewer nodes in all
(benchmarks/results/nc_generate.md). Every grid can still come out (the guide that is the grid gives it). Its runs
get budgets on the Luby schedule (``restarts.luby``: 1, 1, 2, 1, 1, 2, 4, ... times ``GUIDED_RESTART_UNIT`` nodes),
not the doubling one: with a fresh guide each run, many short runs beat a few long ones (2,441 nodes a grid against
5,279 on 600 seeds, with a unit of 81), and the grids that short runs find make cheaper minimal puzzles: 9x9
nonconsecutive attempts took 1.3-1.5x fewer nodes in all, the fill's and the removal checks' (their puzzles keep
a clue more now and then: 7.04 clues on average against 6.86; benchmarks/results/nc_generate3.md). Other
geometries keep the draws above, so their puzzles stay the same.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from bitdoku.kernels import variant81
from bitdoku.kernels.restarts import luby
from bitdoku.kernels.rng import below
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

#: The guided fill's run budgets are this many nodes times the Luby sequence (module docstring): 40 made the
#: cheapest attempts of 16, 24, 40, 81 and 160 (400 seeds each, two seed ranges), and again of 24, 32, 40, 56 and
#: 81 under the border-first removal and of 24, 32, 40 and 56 with the 9x9 kernel's wider choice
#: (benchmarks/results/nc_generate5.md).
GUIDED_RESTART_UNIT = 40


@njit(cache=True, nogil=True, inline="always")
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
    guided = has_neighbours(peers)
    guide = np.zeros(n_cells if guided else 0, np.uint8)
    flags = ALL_RULES if guided else ALL_RULES | RANDOM_ORDER
    found = out.reshape(1, n_cells)
    stats = np.zeros(N_STATS, np.int64)
    budget = n_cells
    spent = 0
    run = np.int64(1)
    while spent < max_nodes:
        if guided:
            budget = luby(run) * GUIDED_RESTART_UNIT
            draw_guide(rng, n, guide)
        attempt = min(budget, max_nodes - spent)
        code = search_any(ws, empty, n, units, cell_units, peers, np.int64(1), attempt, flags, found, stats, rng, guide,
                          np.int64(-1), stop)
        spent += stats[STAT_NODES]
        if code == LIMIT_REACHED or code == STOPPED:  # noqa: SIM109 (two compares: plain for Numba)
            return code, spent
        if not guided:
            budget *= 2  # the geometric schedule (a guided run takes its Luby budget at the top of the loop)
        run += 1
    return BUDGET_EXHAUSTED, spent


@njit(cache=True, nogil=True)
def draw_guide(rng, n, guide):
    """A random digit 1..n for every cell of ``guide`` (uint8[N*N], out): the digits a guided fill tries first."""
    for cell in range(guide.shape[0]):
        guide[cell] = 1 + below(rng, n)


def has_neighbours(peers):
    """Whether a search's tables hold nonconsecutive neighbours (``variant81.Tables81`` or ``GeometryTables``
    with that rule, or ``nonconsecutive9.Nonconsecutive9Tables``): such grids get the guided fill (module
    docstring). A shape's peer table has none."""
    adjacent = getattr(peers, "adjacent", None)
    return adjacent is not None and bool(np.asarray(adjacent).any())


@overload(has_neighbours, jit_options={"cache": True, "nogil": True})
def _has_neighbours(peers):
    if not (isinstance(peers, types.BaseNamedTuple) and "adjacent" in peers.fields):  # a shape's or the band kernel's
        return lambda peers: False
    if peers.instance_class is variant81.Tables81:
        return lambda peers: variant81._has_rule(peers.adjacent)
    return lambda peers: peers.adjacent.shape[0] > 0  # GeometryTables' CSR items, nonconsecutive9's 81 rows
