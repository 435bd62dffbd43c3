"""Solve and count Killer Sudoku on the compiled constraint kernel (``kernels/cages.py``).

``search`` is the one entry point, with the budgets and the ``SearchResult`` of ``bitdoku.search``; ``solve`` and
``count_solutions`` are its short forms. The kernel's tables are built once a puzzle: the classic units and peers
of the shape, each cage's cells made peers of one another, and each summed cage's digit sets.

>>> line = "ABBC" "ADEC" "FDEC" "FFGG 4,5,9,5,5,9,3"
>>> solve(line).to_line()
'1234341221434321'
>>> count_solutions(line), count_solutions("AABB" "CDDB" "CEFF" "GEHH 3,9,5,5,4,7,4,3", limit=10)
(1, 2)
"""

from __future__ import annotations

import numpy as np

from bitdoku.constraints.cages import Killer
from bitdoku.engines.bitmask import stats_of
from bitdoku.engines.result import SearchResult, Status, checked, default_max_nodes, status_of
from bitdoku.errors import InvalidGridError, PuzzleTypeError
from bitdoku.grid import Grid
from bitdoku.kernels import cages as kernel
from bitdoku.kernels import status as codes
from bitdoku.shape import Shape

#: Killer grids up to this many digits (16x16); the kernel's masks hold up to 62.
MAX_N = 16


def as_killer(puzzle: Killer | str, shape: Shape | str | None = None) -> Killer:
    """A ``Killer``, or one read from its line (``Killer.parse``)."""
    if isinstance(puzzle, Killer):
        return puzzle
    if isinstance(puzzle, str):
        return Killer.parse(puzzle, shape)
    raise PuzzleTypeError(f"expected a Killer puzzle (a Killer, or a line 'MAP SUMS [GIVENS]'), not "
                          f"{type(puzzle).__name__}")


def search(puzzle: Killer | str, *, limit: int = 2, max_nodes: int | None = None,
           shape: Shape | str | None = None) -> SearchResult:
    """Search a Killer puzzle for up to ``limit`` solutions within ``max_nodes`` nodes (default: the shape's
    budget), as ``bitdoku.search`` does for other grids: ``Status.UNIQUE`` when one solution is proven the only
    one, ``LIMIT`` when the budget ran out first."""
    killer = as_killer(puzzle, shape)
    n = killer.shape.n
    if n > MAX_N:
        raise InvalidGridError(f"Killer grids go up to {MAX_N}x{MAX_N}, not {killer.shape.size_name}")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    budget = default_max_nodes(killer.shape, classic=False) if max_nodes is None else max_nodes
    cells = np.frombuffer(killer.givens.cells, dtype=np.uint8)
    full = (1 << n) - 1
    candidates = np.where(cells > 0, np.left_shift(1, cells.astype(np.int64) - 1), full).astype(np.int64)
    values = np.zeros(cells.size, dtype=np.int8)
    solution = np.zeros(cells.size, dtype=np.int8)
    stats = np.zeros(codes.N_STATS, dtype=np.int64)
    t = killer.tables
    code = kernel.search(candidates, values, t.peer_start, t.peers, t.units, t.cell_units, n, t.cage_start,
                         t.cage_cells, t.combo_start, t.combos, limit, budget, solution, stats, np.zeros(1, np.int64))
    count = int(stats[codes.STAT_SOLUTIONS])
    found = stats_of(stats)
    solutions = (Grid(solution.astype(np.uint8).tobytes(), killer.shape),) if count else ()
    if code in (codes.BUDGET_EXHAUSTED, codes.STOPPED):
        return SearchResult(Status.LIMIT, count, solutions, found, reason=f"the node budget of {budget} ran out")
    return SearchResult(status_of(count, limit), count, solutions, found)


def solve(puzzle: Killer | str, *, max_nodes: int | None = None, shape: Shape | str | None = None) -> Grid | None:
    """A solution of a Killer puzzle, or None when it has none (``SearchLimitError`` when the budget runs out)."""
    result = checked(search(puzzle, limit=1, max_nodes=max_nodes, shape=shape))
    return result.solution


def count_solutions(puzzle: Killer | str, *, limit: int = 2, max_nodes: int | None = None,
                    shape: Shape | str | None = None) -> int:
    """The number of solutions, counted up to ``limit`` (exact below it)."""
    return checked(search(puzzle, limit=limit, max_nodes=max_nodes, shape=shape)).count
