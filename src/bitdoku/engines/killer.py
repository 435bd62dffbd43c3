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

from functools import lru_cache

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
#: The stop flag of searches without a time limit: never set, only read (by any thread).
_NEVER_STOPPED = np.zeros(1, np.int64)


@lru_cache(maxsize=MAX_N + 1)
def _digit_bits(n: int) -> NDArray[np.int64]:
    """The root candidates of a cell by its value: every digit for 0, the digit's bit for 1..n."""
    bits = np.array([(1 << n) - 1, *(1 << d for d in range(n))], dtype=np.int64)
    bits.flags.writeable = False
    return bits


def search(puzzle: Grid, *, limit: int, max_nodes: int, keep: int, time_limit: float | None = None) -> SearchResult:
    """Find up to ``limit`` solutions of a Killer grid within ``max_nodes`` nodes, keeping the first ``keep``
    (``Status.INVALID`` for givens that break a rule or a cage, ``LIMIT`` when a budget ran out first)."""
    solutions = np.zeros((max(1, min(keep, limit)), puzzle.shape.n_cells), dtype=np.int8)
    stats = np.zeros(codes.N_STATS, dtype=np.int64)
    clock = None
    if time_limit is None:  # no watchdog to arm (an easy Killer's whole search is ~100 µs)
        code = run_kernel(puzzle, limit, max_nodes, solutions, stats, _NEVER_STOPPED)
    else:
        with TimeLimit(time_limit) as clock:
            code = run_kernel(puzzle, limit, max_nodes, solutions, stats, clock.stop)
    counters = stats.tolist()
    count = counters[codes.STAT_SOLUTIONS]
    found = SearchStats(counters[codes.STAT_NODES], counters[codes.STAT_GUESSES], counters[codes.STAT_BACKTRACKS])
    kept = tuple(puzzle.with_cells(solutions[i].astype(np.uint8).tobytes()) for i in range(min(count, keep, limit)))
    if code == codes.INVALID:
        return conflict_result(puzzle) or SearchResult(Status.INVALID, 0, reason="a given is out of range")
    if code == codes.STOPPED and clock is not None:
        return SearchResult(Status.LIMIT, count, kept, found, clock.reason(count, found.nodes), clock.seconds)
    if code == codes.BUDGET_EXHAUSTED:
        return SearchResult(Status.LIMIT, count, kept, found, f"node budget of {max_nodes:,} spent")
    if code == codes.CONTRADICTION:
        why = "the constraints" if puzzle.geometry.constraints else "the cages"
        return SearchResult(Status.NO_SOLUTION, 0, (), found, f"{why} and givens leave no digit for some cell")
    return SearchResult(status_of(count, limit), count, kept, found)


def run_kernel(puzzle: Grid, limit: int, max_nodes: int, solutions: NDArray[np.int8], stats: NDArray[np.int64],
               stop: NDArray[np.int64], seed: int = 0) -> int:
    """The kernel's status code for one Killer grid (``INVALID`` for givens that break a rule or a cage), its
    first solutions in the rows of ``solutions`` and its counters added to ``stats``; ``stop[0] != 0`` ends it
    (``STOPPED``). What ``search`` and the batch (``bitdoku.solve_many``) share. ``seed`` 0 tries each branching
    cell's digits from the lowest; another (1 to 2**62) in a random order drawn from it: the Killer generator
    fills its random solutions with this kernel, so that a first ``generate`` compiles one kernel, not two."""
    if puzzle.n > MAX_N:
        raise InvalidGridError(f"Killer grids go up to {MAX_N}x{MAX_N}, not {puzzle.shape.size_name}")
    cells = np.frombuffer(puzzle.cells, dtype=np.uint8)
    try:
        candidates = _digit_bits(puzzle.n)[cells]  # a given's bit, or every digit for an empty cell
    except IndexError:
        return codes.INVALID  # a given above N
    values = np.zeros(cells.size, dtype=np.int8)
    t = puzzle.geometry.cage_tables
    code = int(kernel.search(candidates, values, t.peer_start, t.peers, t.units, t.cell_units,
                             puzzle.n, t.cage_start, t.cage_cells, t.combo_start, t.combos, t.arc_start, t.arcs,
                             t.arc_masks, t.arc_pairs, limit, max_nodes, solutions, stats, stop, seed))
    if code == codes.CONTRADICTION and puzzle.givens and conflict_result(puzzle) is not None:
        return codes.INVALID  # givens that break a rule or a cage end here too (checking first cost 85 µs)
    return code
