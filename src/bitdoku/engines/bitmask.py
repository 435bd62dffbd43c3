"""The compiled bitmask engine: hands puzzles to the Numba kernels and turns their codes into results.

The kernels (``bitdoku.kernels``) check the givens, propagate naked and hidden singles and locked
candidates, and branch on the cell with the fewest candidates. This module is the only place that knows how
their status codes and stats slots map onto ``Status`` and ``SearchStats``.
"""

from __future__ import annotations

import threading
from importlib import import_module
from typing import TYPE_CHECKING, TypeAlias, cast

import numpy as np
from numpy.typing import NDArray

from bitdoku.engines import killer
from bitdoku.engines.result import SearchResult, SearchStats, Status, status_of
from bitdoku.errors import cell_name
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.kernels import status as codes
from bitdoku.kernels.dfs import search as search_kernel
from bitdoku.kernels.sudoku9 import new_stack as search9_stack
from bitdoku.kernels.sudoku9 import search9_in
from bitdoku.shape import Shape
from bitdoku.timelimit import TimeLimit, limit_reason

if TYPE_CHECKING:
    from bitdoku.geometry import GeometryTables
    from bitdoku.kernels.nonconsecutive9 import Nonconsecutive9Tables
    from bitdoku.kernels.variant import BoxTables, Classic9Tables
    from bitdoku.kernels.variant81 import Tables81

    #: The ``(units, cell_units, peers)`` the generator's kernels take (``geometry_kernel_tables``): the peers slot
    #: holds the tables whose type picks the search.
    KernelTables: TypeAlias = tuple[
        NDArray[np.int32], NDArray[np.int32],
        BoxTables | Classic9Tables | Nonconsecutive9Tables | Tables81 | GeometryTables,
    ]

#: The cells of the variant grids that go to the 9x9 variant kernels (``variant_kernel``).
N_CELLS_81 = 81


def search(puzzle: Grid, *, limit: int, max_nodes: int, keep: int, rules: int = codes.ALL_RULES,
           time_limit: float | None = None, band_kernels: bool = True) -> SearchResult:
    """Find up to ``limit`` solutions of a puzzle with the compiled search, keeping the first ``keep``; a search
    still running after ``time_limit`` seconds (None: no limit) ends with ``Status.LIMIT`` and says so.
    ``band_kernels=False`` keeps every 9x9 variant on the digit-major kernel (``variant81``), whose node counts
    a caller's budget may have been chosen by (``generate.regions``: the same budget decides the same maps)."""
    if time_limit is None and puzzle.is_classic and puzzle.n == 9 and rules & codes.GENERIC_ONLY == 0:
        return _search9(puzzle, limit, max_nodes, keep, rules)
    if puzzle.geometry.uses_cage_kernel:
        return killer.search(puzzle, limit=limit, max_nodes=max_nodes, keep=keep, time_limit=time_limit)
    solutions = np.zeros((min(keep, limit), puzzle.shape.n_cells), dtype=np.uint8)
    stats = np.zeros(codes.N_STATS, dtype=np.int64)
    with TimeLimit(time_limit) as clock:
        code = _run_kernel(puzzle, limit, max_nodes, rules, solutions, stats, clock.stop, band_kernels)
    count = int(stats[codes.STAT_SOLUTIONS])
    kept = tuple(puzzle.with_cells(solutions[i].tobytes()) for i in range(min(count, len(solutions))))
    if code == codes.STOPPED:
        reason: str | None = clock.reason(count, int(stats[codes.STAT_NODES]))
        return SearchResult(Status.LIMIT, count, kept, stats_of(stats), reason, clock.seconds)
    reason = explain_status(code, puzzle, max_nodes)
    return SearchResult(public_status(code, count, limit), count, kept, stats_of(stats), reason)


class _Workspace9(threading.local):
    """Each thread's arrays for the 9x9 kernel, made once: a call that made them afresh (stack, counters, stop
    flag, solutions) spent as long on them as a 17-clue puzzle's whole search."""

    def __init__(self) -> None:
        self.states, self.frames = search9_stack()
        self.stats = np.zeros(codes.N_STATS, dtype=np.int64)
        self.stop = np.zeros(1, np.int64)  # never set: a search with a time limit gets its own (``TimeLimit``)
        self.solutions = np.zeros((2, N_CELLS_81), dtype=np.uint8)


_WORKSPACE9 = _Workspace9()


def _search9(puzzle: Grid, limit: int, max_nodes: int, keep: int, rules: int) -> SearchResult:
    """``search`` of a classic 9x9 grid without a time limit, straight to the band kernel: the way from a call to
    ``bitdoku.solve`` to the kernel costs a few microseconds, about what the kernel takes for an easy puzzle."""
    work = _WORKSPACE9
    kept = min(keep, limit)
    solutions = work.solutions if kept <= 2 else np.zeros((kept, N_CELLS_81), dtype=np.uint8)
    code = search9_in(np.frombuffer(puzzle.cells, dtype=np.uint8), limit, max_nodes, rules, solutions[:kept],
                      work.stats, work.states, work.frames, work.stop, 0, -1, 0)
    counters = work.stats.tolist()
    count = counters[codes.STAT_SOLUTIONS]
    found = tuple(puzzle.with_cells(solutions[i].tobytes()) for i in range(min(count, kept))) if kept else ()
    stats = SearchStats(counters[codes.STAT_NODES], counters[codes.STAT_GUESSES], counters[codes.STAT_BACKTRACKS])
    if code in (codes.COMPLETE, codes.LIMIT_REACHED):  # the common case, cheaply
        return SearchResult(status_of(count, limit), count, found, stats)
    return SearchResult(public_status(code, count, limit), count, found, stats, explain_status(code, puzzle, max_nodes))


def _run_kernel(puzzle: Grid, limit: int, max_nodes: int, rules: int, solutions: NDArray[np.uint8],
                stats: NDArray[np.int64], stop: NDArray[np.int64], band_kernels: bool = True) -> int:
    """The kernel's status code for a puzzle: the classic kernels (``dfs.search``), or ``variant_kernel``'s."""
    cells = np.frombuffer(puzzle.cells, dtype=np.uint8)
    if puzzle.geometry.is_classic:
        units, cell_units, peers = puzzle.shape.tables
        return cast(int, search_kernel(cells, puzzle.n, units, cell_units, peers, limit, max_nodes, rules, solutions,
                                       stats, stop))
    name, tables = variant_kernel(puzzle.geometry, rules, band_kernels)
    if name == "variant":
        from bitdoku.kernels.variant import search as variant_search

        n, geometry_tables = cast("tuple[int, GeometryTables]", tables)  # the "variant" kernel's tables
        return cast(int, variant_search(cells, n, geometry_tables, limit, max_nodes, rules, solutions, stats, stop))
    kernel = import_module(f"bitdoku.kernels.{name}")
    return cast(int, kernel.search(cells, tables, limit, max_nodes, rules, solutions, stats, stop))


def variant_kernel(geometry: Geometry, rules: int = codes.ALL_RULES, band_kernels: bool = True) -> tuple[str, object]:
    """The kernel that searches grids of a variant geometry (a module of ``bitdoku.kernels``) and its tables.

    For 9x9: the band kernel with extra units (``extra9``: X, Windoku, no relation between cells, 2-4x faster
    there), the band kernel with regions (``jigsaw9``: jigsaw) or the band kernel with the nonconsecutive relation
    (``nonconsecutive9``), else the digit-major one (``variant81``: the others, and all of them without
    ``band_kernels`` or with ``RANDOM_ORDER``); for other sizes the cell-by-cell one (``variant``, whose tables are
    ``(n, geometry.tables)``). Each kernel is compiled on the first grid it takes. ``kernels/variant_rows.py`` has
    the batch loop of each (``<name>_rows``).
    """
    if geometry.shape.n_cells != N_CELLS_81:
        return "variant", (geometry.shape.n, geometry.tables)
    if band_kernels and rules & codes.RANDOM_ORDER == 0:
        for name in ("extra9", "jigsaw9", "nonconsecutive9"):
            tables = import_module(f"bitdoku.kernels.{name}").tables_for(geometry)
            if tables is not None:
                return name, tables
    from bitdoku.kernels.variant81 import board_tables

    return "variant81", board_tables(geometry)


def warm_up(shape: Shape, limit: int = 1, *, geometry: Geometry | None = None) -> None:
    """Compile the kernel that searches of this shape and ``limit`` run (or load it from Numba's cache) by
    searching a solved grid: no search work, so the next call's time is the search alone. ``geometry``: a
    variant's, whose kernel is its own (``variant_kernel``); searched from the empty grid for one node."""
    if geometry is None or geometry.is_classic:
        search(Grid.pattern(shape), limit=limit, max_nodes=1, keep=0)
    else:
        search(Grid.empty(shape).with_geometry(geometry), limit=limit, max_nodes=1, keep=0)


def will_compile(shape: Shape, limit: int = 1, *, batch: bool = False, geometry: Geometry | None = None) -> bool:
    """Whether the first search of this shape and ``limit`` (or the first batch, ``solve_many``) in this process
    compiles its kernel, its code being neither loaded nor in Numba's cache; False when that cannot be told.
    ``geometry``: a variant's, whose kernels are its own (``variant_kernel``: ``search``, or ``<name>_rows`` in
    ``kernels/variant_rows.py`` for a batch)."""
    from bitdoku.kernels.batch import rows_kernel
    from bitdoku.kernels.cache import is_compiled
    from bitdoku.kernels.dfs import kernel_for

    if geometry is not None and geometry.uses_cage_kernel:
        from bitdoku.kernels import cages

        return is_compiled(cages.search) is False
    if geometry is not None and not geometry.is_classic:
        name, _ = variant_kernel(geometry)
        module = "variant_rows" if batch else name
        kernel = getattr(import_module(f"bitdoku.kernels.{module}"), f"{name}_rows" if batch else "search")
        return is_compiled(kernel) is False
    units = shape.tables[0]
    kernel = rows_kernel(shape.n, units, codes.ALL_RULES) if batch else kernel_for(shape.n, units, limit,
                                                                                    codes.ALL_RULES)[0]
    return is_compiled(kernel) is False


def public_status(code: int, count: int, limit: int) -> Status:
    """The ``Status`` of a kernel's return code and solution count."""
    if code == codes.INVALID:
        return Status.INVALID
    if code == codes.BUDGET_EXHAUSTED or code == codes.STOPPED:
        return Status.LIMIT
    if code == codes.CONTRADICTION:
        return Status.NO_SOLUTION
    return status_of(count, limit)


def public_statuses(codes_array: NDArray[np.integer], counts: NDArray[np.integer], limit: int) -> NDArray[np.uint8]:
    """``public_status`` for a whole batch, as indices into ``STATUSES`` (vectorised: no Python loop per row)."""
    found = np.where(counts >= 2, STATUS_INDEX[Status.MULTIPLE], STATUS_INDEX[Status.NO_SOLUTION])
    one = STATUS_INDEX[Status.UNIQUE] if limit >= 2 else STATUS_INDEX[Status.SOLVED]
    found = np.where(counts == 1, one, found)
    out = np.where(codes_array == codes.INVALID, STATUS_INDEX[Status.INVALID], found)
    out = np.where((codes_array == codes.BUDGET_EXHAUSTED) | (codes_array == codes.STOPPED), STATUS_INDEX[Status.LIMIT],
                   out)
    out = np.where(codes_array == codes.CONTRADICTION, STATUS_INDEX[Status.NO_SOLUTION], out)
    return out.astype(np.uint8)


#: The order of ``Status`` values in batch status arrays.
STATUSES: tuple[Status, ...] = tuple(Status)
STATUS_INDEX = {status: index for index, status in enumerate(STATUSES)}


def stats_of(stats: NDArray[np.int64]) -> SearchStats:
    """The public counters of one kernel stats row."""
    return SearchStats(
        nodes=int(stats[codes.STAT_NODES]),
        guesses=int(stats[codes.STAT_GUESSES]),
        backtracks=int(stats[codes.STAT_BACKTRACKS]),
    )


def explain_status(code: int, puzzle: Grid, max_nodes: int, time_limit: float | None = None,
                   stats: NDArray[np.int64] | None = None) -> str | None:
    """The sentence behind an ``INVALID``, ``CONTRADICTION``, spent budget or time limit (``time_limit`` and the
    row's ``stats`` say what it was and what was done); ``None`` otherwise."""
    if code == codes.STOPPED:
        counters = np.zeros(codes.N_STATS, np.int64) if stats is None else stats
        return limit_reason(time_limit or 0.0, None, int(counters[codes.STAT_SOLUTIONS]),
                            int(counters[codes.STAT_NODES]))
    if code == codes.INVALID:
        problems = [str(conflict) for conflict in puzzle.conflicts()] or puzzle.cage_sum_errors()
        return problems[0] if problems else "a given is out of range"
    if code == codes.CONTRADICTION:
        return _empty_cell_reason(puzzle)
    if code == codes.BUDGET_EXHAUSTED:
        return f"node budget of {max_nodes:,} spent"
    return None


def _empty_cell_reason(puzzle: Grid) -> str:
    for cell, value in enumerate(puzzle.cells):
        if value == 0 and puzzle.candidates_mask(cell) == 0:
            held_by = "its row, column and box hold" if puzzle.geometry.is_classic else "its peers rule out"
            return f"{cell_name(cell, puzzle.n)} has no candidate left: {held_by} every digit"
    return "the givens leave a cell with no candidate"


def kernel_tables(shape: Shape) -> tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]:
    """The arguments that describe a shape to every kernel: N and its unit, cell-unit and peer tables."""
    units, cell_units, peers = shape.tables
    return shape.n, units, cell_units, peers


def shape_kernel_tables(shape: Shape) -> KernelTables:
    """The ``(units, cell_units, peers)`` the generator's kernels take for a classic grid: the shape's tables with
    the peers wrapped as ``kernels.variant.Classic9Tables`` for 9x9 and ``kernels.variant.BoxTables`` for the
    other shapes, so that their searches run (and compile) the band kernel alone, or the bitboard kernel alone."""
    from bitdoku.kernels.variant import BoxTables, Classic9Tables

    units, cell_units, peers = shape.tables
    if shape.n_cells != N_CELLS_81:
        return units, cell_units, BoxTables(peers, np.int64(shape.box_rows))
    return units, cell_units, Classic9Tables(peers)


def geometry_kernel_tables(geometry: Geometry) -> KernelTables:
    """The ``(units, cell_units, peers)`` the generator's kernels (``fill``, ``dig``, ``make``) take: the shape's
    tables, or for a variant its units, cell units and whole ``GeometryTables`` in the ``peers`` slot
    (``kernels.variant.search_any`` picks the variant search by that argument's type). A 9x9 variant's are
    ``variant81``'s bitboard tables, or for 9x9 nonconsecutive the band kernel's (``kernels/nonconsecutive9.py``:
    the same search nodes at ~0.6x the time of a node, benchmarks/results/nc_generate2.md)."""
    if geometry.is_classic:
        return shape_kernel_tables(geometry.shape)
    tables = geometry.tables
    if geometry.shape.n_cells == N_CELLS_81:
        from bitdoku.kernels import nonconsecutive9
        from bitdoku.kernels.variant81 import board_tables

        relation = nonconsecutive9.tables_for(geometry)
        if relation is not None:
            return tables.units, tables.cell_units, relation

        return tables.units, tables.cell_units, board_tables(geometry)
    return tables.units, tables.cell_units, tables
