"""The search of Killer grids: the compiled kernel of cages (``kernels/cages.py``) over ``Geometry.cage_tables``.

``engines.bitmask.search`` hands a grid with cages here, so ``bitdoku.search``, ``solve``, ``count_solutions``
and ``is_unique`` take Killers with the same budgets, time limit and ``SearchResult`` as any grid. The tables are
built once a geometry: the classic units and peers of the shape with each cage's cells made peers, and each summed
cage's (and each rule-of-45 group's) digit sets.

>>> from bitdoku.grid import Grid
>>> grid = Grid.parse("ABBC" "ADEC" "FDEC" "FFGG 4,5,9,5,5,9,3", variant="killer")
>>> result = search(grid, limit=2, max_nodes=10_000, keep=1)
>>> result.status.value, result.solution.to_line()
('unique', '1234341221434321')
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from bitdoku.engines.result import SearchResult, SearchStats, Status, conflict_result, status_of
from bitdoku.errors import InvalidGridError
from bitdoku.grid import Grid
from bitdoku.kernels import cages as kernel
from bitdoku.kernels import status as codes
from bitdoku.timelimit import TimeLimit

#: Killer grids up to this many digits (16x16); the kernel's masks hold up to 62.
MAX_N = 16


def search(puzzle: Grid, *, limit: int, max_nodes: int, keep: int, time_limit: float | None = None,
           stop: NDArray[np.int64] | None = None) -> SearchResult:
    """Find up to ``limit`` solutions of a Killer grid within ``max_nodes`` nodes, keeping the first ``keep``
    (``Status.INVALID`` for givens that break a rule or a cage, ``LIMIT`` when a budget ran out first). ``stop``:
    a flag another thread may set to end the search (``STOPPED``)."""
    if puzzle.n > MAX_N:
        raise InvalidGridError(f"Killer grids go up to {MAX_N}x{MAX_N}, not {puzzle.shape.size_name}")
    cells = np.frombuffer(puzzle.cells, dtype=np.uint8)
    candidates = np.where(cells > 0, np.left_shift(1, cells.astype(np.int64) - 1), (1 << puzzle.n) - 1)
    values = np.zeros(cells.size, dtype=np.int8)
    solutions = np.zeros((max(1, min(keep, limit)), cells.size), dtype=np.int8)
    stats = np.zeros(codes.N_STATS, dtype=np.int64)
    t = puzzle.geometry.cage_tables
    with TimeLimit(time_limit) as clock:
        flag = clock.stop if stop is None else stop
        code = kernel.search(candidates.astype(np.int64), values, t.peer_start, t.peers, t.units, t.cell_units,
                             puzzle.n, t.cage_start, t.cage_cells, t.combo_start, t.combos, limit, max_nodes,
                             solutions, stats, flag)
    count = int(stats[codes.STAT_SOLUTIONS])
    found = SearchStats(int(stats[codes.STAT_NODES]), int(stats[codes.STAT_GUESSES]),
                        int(stats[codes.STAT_BACKTRACKS]))
    kept = tuple(puzzle.with_cells(solutions[i].astype(np.uint8).tobytes()) for i in range(min(count, keep, limit)))
    if code == codes.STOPPED and time_limit is not None:
        return SearchResult(Status.LIMIT, count, kept, found, clock.reason(count, found.nodes), clock.seconds)
    if code in (codes.BUDGET_EXHAUSTED, codes.STOPPED):
        return SearchResult(Status.LIMIT, count, kept, found, f"node budget of {max_nodes:,} spent"
                            if code == codes.BUDGET_EXHAUSTED else "stopped")
    if code == codes.CONTRADICTION:  # givens that break a rule or a cage end here too (checking first cost 85 µs)
        invalid = conflict_result(puzzle) if puzzle.givens else None
        if invalid is not None:
            return invalid
        return SearchResult(Status.NO_SOLUTION, 0, (), found, "the cages and givens leave no digit for some cell")
    return SearchResult(status_of(count, limit), count, kept, found)
