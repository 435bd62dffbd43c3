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


def search(puzzle: Grid, *, limit: int, max_nodes: int, keep: int, time_limit: float | None = None) -> SearchResult:
    """Find up to ``limit`` solutions of a Killer grid within ``max_nodes`` nodes, keeping the first ``keep``
    (``Status.INVALID`` for givens that break a rule or a cage, ``LIMIT`` when a budget ran out first)."""
    solutions = np.zeros((max(1, min(keep, limit)), puzzle.shape.n_cells), dtype=np.int8)
    stats = np.zeros(codes.N_STATS, dtype=np.int64)
    with TimeLimit(time_limit) as clock:
        code = run_kernel(puzzle, limit, max_nodes, solutions, stats, clock.stop)
    count = int(stats[codes.STAT_SOLUTIONS])
    found = SearchStats(int(stats[codes.STAT_NODES]), int(stats[codes.STAT_GUESSES]),
                        int(stats[codes.STAT_BACKTRACKS]))
    kept = tuple(puzzle.with_cells(solutions[i].astype(np.uint8).tobytes()) for i in range(min(count, keep, limit)))
    if code == codes.INVALID:
        return conflict_result(puzzle) or SearchResult(Status.INVALID, 0, reason="a given is out of range")
    if code == codes.STOPPED:
        return SearchResult(Status.LIMIT, count, kept, found, clock.reason(count, found.nodes), clock.seconds)
    if code == codes.BUDGET_EXHAUSTED:
        return SearchResult(Status.LIMIT, count, kept, found, f"node budget of {max_nodes:,} spent")
    if code == codes.CONTRADICTION:
        return SearchResult(Status.NO_SOLUTION, 0, (), found, "the cages and givens leave no digit for some cell")
    return SearchResult(status_of(count, limit), count, kept, found)


def run_kernel(puzzle: Grid, limit: int, max_nodes: int, solutions: NDArray[np.int8], stats: NDArray[np.int64],
               stop: NDArray[np.int64]) -> int:
    """The kernel's status code for one Killer grid (``INVALID`` for givens that break a rule or a cage), its
    first solutions in the rows of ``solutions`` and its counters added to ``stats``; ``stop[0] != 0`` ends it
    (``STOPPED``). What ``search`` and the batch (``bitdoku.solve_many``) share."""
    if puzzle.n > MAX_N:
        raise InvalidGridError(f"Killer grids go up to {MAX_N}x{MAX_N}, not {puzzle.shape.size_name}")
    cells = np.frombuffer(puzzle.cells, dtype=np.uint8)
    if cells.max(initial=0) > puzzle.n:
        return codes.INVALID
    candidates = np.where(cells > 0, np.left_shift(1, cells.astype(np.int64) - 1), (1 << puzzle.n) - 1)
    values = np.zeros(cells.size, dtype=np.int8)
    t = puzzle.geometry.cage_tables
    code = int(kernel.search(candidates.astype(np.int64), values, t.peer_start, t.peers, t.units, t.cell_units,
                             puzzle.n, t.cage_start, t.cage_cells, t.combo_start, t.combos, limit, max_nodes,
                             solutions, stats, stop))
    if code == codes.CONTRADICTION and puzzle.givens and conflict_result(puzzle) is not None:
        return codes.INVALID  # givens that break a rule or a cage end here too (checking first cost 85 µs)
    return code
