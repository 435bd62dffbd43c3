"""Many puzzles at once: ``solve_many`` and ``count_many`` over a ``(k, N*N)`` uint8 array, on every core.

The rows are cut into slices and each slice is searched by a compiled, GIL-free kernel on a thread pool, so
``threads`` is an ordinary argument (no global Numba setting) and every row writes only its own outputs: the
results are the same for any number of threads. One bad row gets its own status and never fails the batch.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from bitdoku.engines import killer
from bitdoku.engines.bitmask import (
    STATUSES,
    explain_status,
    kernel_tables,
    public_statuses,
    stats_of,
    variant_kernel,
)
from bitdoku.engines.result import SearchResult, Status, default_max_nodes
from bitdoku.errors import ParseError, PuzzleTypeError, ShapeError
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid, Puzzle, as_grid
from bitdoku.kernels import status as codes
from bitdoku.kernels.batch import rows_search
from bitdoku.shape import Shape
from bitdoku.timelimit import RowClock, TimeLimit, check_seconds

#: Rows of the last slices of a batch on the thread pool, at most: small enough that the threads finish together
#: when some rows are much harder. Small batches are cut finer (``TASKS_PER_THREAD``).
SLICE_ROWS = 256
#: Tasks per thread that a batch is cut into when it is too small to fill ``SLICE_ROWS``-row slices.
TASKS_PER_THREAD = 32
#: Rows of a slice while much of a big batch is left, at most: a slice costs ~20 µs of Python around the kernel
#: (the call, its arguments and the row clock), 2-3 % of a 256-row slice of easy puzzles.
BIG_SLICE_ROWS = 4096
#: While a batch is big, a slice takes this share of the rows left over the threads (guided self-scheduling).
GUIDED_SHARE = 8


@dataclass(frozen=True)
class BatchResult:
    """What a batch search returns, one row per puzzle.

    ``solutions``: uint8 (k, N*N), the first solution of each row (zeros where there is none).
    ``status_codes``: uint8 (k,), indices into ``bitdoku.batch.STATUSES`` (use ``statuses`` or ``status(i)``).
    ``counts``: int64 (k,), solutions found (at most the limit). ``stats``: int64 (k, N_STATS), the kernel's
    counters, columns named by ``bitdoku.kernels.status.STAT_NAMES``. ``time_limit``: the seconds each row had
    (None: no limit). ``geometry``: the variant of every row, None for classic grids.
    """

    puzzles: NDArray[np.uint8]
    solutions: NDArray[np.uint8]
    status_codes: NDArray[np.uint8]
    counts: NDArray[np.int64]
    stats: NDArray[np.int64]
    kernel_codes: NDArray[np.int8]
    shape: Shape
    max_nodes: int
    time_limit: float | None = None
    #: The variant's rules, shared by every row (None: classic).
    geometry: Geometry | None = None
    #: The rules of each row where they differ from row to row (a batch of Killers: each its cages), else None.
    geometries: tuple[Geometry, ...] | None = None

    def __len__(self) -> int:
        return len(self.status_codes)

    def status(self, row: int) -> Status:
        return cast(Status, STATUSES[self.status_codes[row]])  # numpy's stubs type a uint8 array's item as Any

    @property
    def statuses(self) -> list[Status]:
        return [STATUSES[code] for code in self.status_codes]

    def summary(self) -> Counter[Status]:
        """How many rows ended in each status."""
        counts = np.bincount(self.status_codes, minlength=len(STATUSES))
        return Counter({status: int(counts[i]) for i, status in enumerate(STATUSES) if counts[i]})

    def result(self, row: int) -> SearchResult:
        """Row ``row`` as the ``SearchResult`` that ``bitdoku.search`` would give (with one solution kept)."""
        status = self.status(row)
        solution = (self._grid(self.solutions[row], row),) if status.has_solution else ()
        code = int(self.kernel_codes[row])
        reason = None
        if code in (codes.INVALID, codes.CONTRADICTION, codes.BUDGET_EXHAUSTED, codes.STOPPED):  # they need a sentence
            reason = explain_status(code, self._grid(self.puzzles[row], row), self.max_nodes, self.time_limit,
                                    self.stats[row])
        time_limit = self.time_limit if code == codes.STOPPED else None
        return SearchResult(status, int(self.counts[row]), solution, stats_of(self.stats[row]), reason, time_limit)

    def _grid(self, cells: NDArray[np.uint8], row: int) -> Grid:
        geometry = self.geometries[row] if self.geometries is not None else self.geometry
        return Grid(cells.tobytes(), self.shape, geometry)


def solve_many(
    puzzles: ArrayLike | Iterable[Puzzle],
    *,
    shape: Shape | str | None = None,
    variant: str | Geometry | None = None,
    limit: int = 1,
    max_nodes: int | None = None,
    threads: int | None = None,
    rules: int = codes.ALL_RULES,
    time_limit: float | None = None,
) -> BatchResult:
    """Solve every row of a ``(k, N*N)`` array (or a list of grids or puzzle lines), on ``threads`` cores.

    ``limit=1`` stops at the first solution of each row; ``limit=2`` also proves uniqueness. Raises only
    when the whole input is wrong (not integers, a row length that fits no grid); a bad row gets
    ``Status.INVALID``. ``time_limit`` (seconds, None for none) applies to each row, as ``max_nodes`` does: a
    row still searching after it ends with ``Status.LIMIT`` and the rest go on (a limit for the whole call would
    leave the rows after a hard one unanswered; ``bitdoku.timelimit``).

    ``variant`` (a name such as ``"x"``, or a ``Geometry``: a jigsaw's carries its region map) puts every row
    under the variant's rules, searched by its compiled kernel (``engines.bitmask.variant_kernel``) with the
    loop of ``kernels/variant_rows.py``. Grids that carry a variant need no ``variant``: a batch takes one set
    of rules, so grids under different rules (jigsaws of different maps) go in separate calls; Killers are the
    exception: each row keeps its own cages (``BatchResult.geometries``), searched by the kernel of cages.

    Example
    -------
    >>> result = solve_many(["..3..4.221......", "1.3.3.........1.", "11.............."], limit=2)
    >>> [str(s) for s in result.statuses]
    ['unique', 'multiple', 'invalid']
    >>> result.solutions[0]
    array([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1], dtype=uint8)
    """
    check_many(puzzles)
    if not isinstance(puzzles, np.ndarray):
        puzzles = list(cast("Iterable[Puzzle]", puzzles))  # check_many: an iterable
        killers = killer_rows(puzzles, shape, variant)
        if killers is not None:
            return solve_killers(killers, limit=limit, max_nodes=max_nodes, threads=threads, time_limit=time_limit)
    array, shape, geometry = as_variant_batch(puzzles, shape, variant)
    max_nodes = checked_budget(shape, geometry, limit, max_nodes)
    outputs = search_batch(array, shape, geometry, limit, max_nodes, threads, rules, time_limit)
    return batch_result(array, *outputs, limit, shape, max_nodes, check_seconds(time_limit), geometry)


def killer_rows(puzzles: list[Puzzle], shape: Shape | str | None, variant: str | Geometry | None) -> list[Grid] | None:
    """The grids of a batch of Killers (text read under ``variant="killer"``, or grids with cages), None for a
    batch of anything else; a batch that mixes Killers with other grids is refused."""
    named_killer = isinstance(variant, str) and "killer" in variant.lower()
    if not named_killer and not any(isinstance(item, Grid) and item.geometry.uses_cage_kernel for item in puzzles):
        return None
    grids = [as_grid(item, shape, variant if named_killer else None) for item in puzzles]
    others = sorted({grid.variant for grid in grids if not grid.geometry.uses_cage_kernel})
    if others:
        raise ParseError(f"a batch of Killers (or of grids with setters' constraints) takes those grids only, not "
                         f"{', '.join(others)} grids: search them in separate calls")
    shapes = {grid.shape for grid in grids}
    if len(shapes) > 1:
        raise ShapeError(f"a batch takes grids of one shape, not {', '.join(sorted(map(str, shapes)))}")
    return grids


def killer_array(grids: Sequence[Grid]) -> tuple[NDArray[np.uint8], Shape]:
    """The cells of a batch of Killers (``killer_rows``: one shape) as a ``(k, N*N)`` array, and that shape (9x9
    for no rows)."""
    if not grids:
        return np.zeros((0, 81), np.uint8), Shape(3, 3)
    return as_puzzle_array(grids)


def solve_killers(grids: Sequence[Grid], *, limit: int, max_nodes: int | None, threads: int | None,
                  time_limit: float | None) -> BatchResult:
    """``solve_many`` of Killer grids (one shape, each its own cages): each row on the kernel of cages, the rows
    spread over ``threads`` threads, ``time_limit`` seconds a row."""
    array, shape = killer_array(grids)
    geometries = tuple(grid.geometry for grid in grids)
    budget = checked_budget(shape, geometries, limit, max_nodes)
    check_seconds(time_limit)
    outputs = search_killer_rows(array, shape, geometries, limit, budget, threads, time_limit)
    return batch_result(array, *outputs, limit, shape, budget, time_limit, geometries=geometries)


def search_killer_rows(
    array: NDArray[np.uint8], shape: Shape, geometries: Sequence[Geometry], limit: int, max_nodes: int,
    threads: int | None = None, time_limit: float | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.int8], NDArray[np.int64]]:
    """``search_batch`` for rows that each have their own cages (``geometries[row]``): the kernel's outputs, from
    which ``batch_result`` derives the rest (a Dask worker sends back only these)."""
    k, cells = array.shape
    solutions = np.zeros_like(array)
    kernel_codes = np.zeros(k, dtype=np.int8)
    stats = np.zeros((k, codes.N_STATS), dtype=np.int64)

    def run(start: int, end: int) -> None:
        first = np.zeros((1, cells), dtype=np.int8)
        for row in range(start, end):
            grid = Grid(array[row].tobytes(), shape, geometries[row])
            with TimeLimit(time_limit) as clock:
                kernel_codes[row] = killer.run_kernel(grid, limit, max_nodes, first, stats[row], clock.stop)
            solutions[row] = first[0]

    run_sliced(run, k, threads)
    return solutions, kernel_codes, stats


def search_batch(
    array: NDArray[np.uint8], shape: Shape, geometry: Geometry | None, limit: int, max_nodes: int,
    threads: int | None = None, rules: int = codes.ALL_RULES, time_limit: float | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.int8], NDArray[np.int64]]:
    """The kernel's own outputs for the rows of a checked array (``as_variant_batch``, ``checked_budget``): the
    first solutions, the kernel's codes and its counters, from which ``batch_result`` derives the rest (a Dask
    worker sends back only these)."""
    k = len(array)
    solutions = np.zeros_like(array)
    kernel_codes = np.zeros(k, dtype=np.int8)
    stats = np.zeros((k, codes.N_STATS), dtype=np.int64)
    search = _rows_search(shape, geometry, rules)
    clock = RowClock(time_limit)

    def run(start: int, end: int) -> None:
        with clock.slot() as stop:
            search(array[start:end], limit, max_nodes, solutions[start:end], kernel_codes[start:end],
                   stats[start:end], stop)

    run_sliced(run, k, threads)
    return solutions, kernel_codes, stats


#: The rules of a batch's rows: None (classic), one ``Geometry`` for every row, or one a row (Killers).
BatchRules = Geometry | tuple[Geometry, ...] | None


def checked_budget(shape: Shape, geometry: BatchRules, limit: int, max_nodes: int | None) -> int:
    """The node budget of each row (``max_nodes``, or the default for the shape and rules), once ``limit`` and it
    are known to be at least 1."""
    max_nodes = default_max_nodes(shape, classic=geometry is None) if max_nodes is None else max_nodes
    if limit < 1 or max_nodes < 1:
        raise ValueError(f"limit and max_nodes must be at least 1, not {limit} and {max_nodes}")
    return max_nodes


def batch_result(
    puzzles: NDArray[np.uint8], solutions: NDArray[np.uint8], kernel_codes: NDArray[np.int8],
    stats: NDArray[np.int64], limit: int, shape: Shape, max_nodes: int, time_limit: float | None = None,
    geometry: BatchRules = None, geometries: tuple[Geometry, ...] | None = None,
) -> BatchResult:
    """The ``BatchResult`` of rows searched with ``limit``: their counts and statuses follow from the kernel's
    codes and counters (so that a batch put together from chunks, as on a Dask cluster, needs only those)."""
    counts = stats[:, codes.STAT_SOLUTIONS].copy()
    statuses = public_statuses(kernel_codes, counts, limit)
    if isinstance(geometry, tuple):
        geometry, geometries = None, geometry
    return BatchResult(puzzles, solutions, statuses, counts, stats, kernel_codes, shape, max_nodes, time_limit,
                       geometry, geometries)


def as_variant_batch(
    puzzles: ArrayLike | Iterable[Puzzle], shape: Shape | str | None = None,
    variant: str | Geometry | None = None,
) -> tuple[NDArray[np.uint8], Shape, Geometry | None]:
    """``as_puzzle_array``, and the rules of every row: ``variant``'s geometry, or the one its grids carry (None
    for classic grids). Text is read under ``variant`` (a jigsaw's two lines bring their own map)."""
    check_many(puzzles)
    if not isinstance(puzzles, np.ndarray):
        puzzles = list(cast("Iterable[Puzzle]", puzzles))  # check_many: an iterable
        if variant is not None and puzzles and isinstance(puzzles[0], str):
            puzzles = [as_grid(text, shape, variant) for text in puzzles]
            variant = None  # each grid carries the rules now
    array, shape = as_puzzle_array(puzzles, shape)
    return array, shape, _batch_geometry(puzzles, shape, variant)


def _batch_geometry(puzzles: ArrayLike | Sequence[Puzzle], shape: Shape,
                    variant: str | Geometry | None) -> Geometry | None:
    """The one variant geometry of a batch (None for classic): ``variant``'s, or the one its grids carry."""
    if variant is not None:
        if isinstance(variant, Geometry) and variant.shape != shape:
            raise ShapeError(f"a {variant.shape} geometry does not fit a batch of {shape} grids")
        geometry: Geometry | None = Geometry.parse(variant, shape)
    else:
        items = puzzles if isinstance(puzzles, list) and any(isinstance(item, Grid) for item in puzzles) else []
        geometries = {item.geometry if isinstance(item, Grid) else Geometry.classic(shape) for item in items}
        if len(geometries) > 1:
            names = ", ".join(sorted(g.name for g in geometries))
            raise ParseError(f"a batch takes grids under one set of rules, not several ({names}; jigsaws of "
                             "different region maps count as different rules): search them in separate calls")
        geometry = geometries.pop() if geometries else None
    if geometry is not None and geometry.constraints:
        raise ParseError("setters' constraints come with each grid: pass a list of Grid objects, not an array "
                         "under one geometry")
    return None if geometry is None or geometry.is_classic else geometry


def _rows_search(shape: Shape, geometry: Geometry | None, rules: int) -> Callable[..., None]:
    """``search(puzzles, limit, max_nodes, solutions, status, stats, stop)`` over rows: the classic loops of
    ``kernels/batch.py``, or the variant kernel's loop of ``kernels/variant_rows.py``."""
    if geometry is None:
        return cast("Callable[..., None]", rows_search(*kernel_tables(shape), rules))
    from bitdoku.kernels import variant_rows

    name, tables = variant_kernel(geometry, rules)
    rows = getattr(variant_rows, f"{name}_rows")

    def variant(puzzles: NDArray[np.uint8], limit: int, max_nodes: int, solutions: NDArray[np.uint8],
                status: NDArray[np.int8], stats: NDArray[np.int64], stop: NDArray[np.int64]) -> None:
        rows(puzzles, tables, limit, max_nodes, rules, solutions, status, stats, stop)

    return variant


def count_many(
    puzzles: ArrayLike | Iterable[Puzzle],
    *,
    shape: Shape | str | None = None,
    variant: str | Geometry | None = None,
    limit: int = 2,
    max_nodes: int | None = None,
    threads: int | None = None,
    rules: int = codes.ALL_RULES,
    time_limit: float | None = None,
) -> BatchResult:
    """Count the solutions of every row up to ``limit`` (2 by default: a uniqueness check); see ``solve_many``.

    Example
    -------
    >>> count_many([".............." "..", "..3..4.221......"], limit=1000).counts
    array([288,   1])
    >>> count_many(["1" + "." * 15, "1" * 16], variant="x").statuses
    [<Status.MULTIPLE: 'multiple'>, <Status.INVALID: 'invalid'>]
    """
    return solve_many(puzzles, shape=shape, variant=variant, limit=limit, max_nodes=max_nodes, threads=threads,
                      rules=rules, time_limit=time_limit)


def default_threads() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def run_sliced(run: Callable[[int, int], None], rows: int, threads: int | None) -> None:
    """Call ``run(start, stop)`` over slices of ``rows`` on ``threads`` worker threads, and wait for them.

    The workers are daemon threads and the caller waits in an interruptible join: Ctrl-C reaches the caller
    at once, even in the middle of a long compiled search (which cannot be stopped, and is simply not waited
    for at exit). An exception in a worker stops the others after their current slice and is raised here.
    """
    threads = default_threads() if threads is None else threads
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    if rows < 1:
        return
    next_slice = _guided_slices(rows, threads)
    lock = threading.Lock()
    failures: list[BaseException] = []

    def work() -> None:
        while not failures:
            with lock:
                rows_to_run = next(next_slice, None)
            if rows_to_run is None:
                return
            try:
                run(*rows_to_run)
            except BaseException as error:  # handed to the caller below
                failures.append(error)

    workers = [threading.Thread(target=work, daemon=True) for _ in range(min(threads, rows))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise failures[0]


def _guided_slices(rows: int, threads: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of each slice of ``rows``, in order: a share of what is left (up to ``BIG_SLICE_ROWS``)
    while much is left, then ``SLICE_ROWS`` (or 1/``TASKS_PER_THREAD`` of a thread's share of a small batch), so
    that big batches pay the per-slice cost a few hundred times and the last slices are as short as ever."""
    last = max(1, min(SLICE_ROWS, -(-rows // (threads * TASKS_PER_THREAD))))
    start = 0
    while start < rows:
        size = max(last, min(BIG_SLICE_ROWS, (rows - start) // (threads * GUIDED_SHARE)))
        yield start, min(start + size, rows)
        start += size


def as_puzzle_array(
    puzzles: ArrayLike | Iterable[Puzzle], shape: Shape | str | None = None
) -> tuple[NDArray[np.uint8], Shape]:
    """A C-contiguous uint8 ``(k, N*N)`` array and its shape, from an array of puzzles (``(k, N*N)``, or
    ``(k, N, N)`` boards) or from an iterable of puzzles in any form (``grid.Puzzle``: grids, text, lists, arrays).

    Values outside 0..N in an integer array are kept out of range (so their rows come back ``INVALID``),
    never wrapped into another digit by the cast to uint8. One puzzle where many are expected (a ``Grid``, a
    line of text), ``None`` or a number raise ``PuzzleTypeError``.
    """
    shape = Shape.parse(shape) if shape is not None else None
    check_many(puzzles)
    if not isinstance(puzzles, np.ndarray):
        puzzles = list(cast("Iterable[Puzzle]", puzzles))  # check_many: an iterable
        if puzzles and not _is_flat_row(puzzles[0]):  # the first item says: rows of cells, or puzzles
            grids = [as_grid(p, shape) for p in puzzles]
            shape = shape or grids[0].shape
            if any(g.shape != shape for g in grids):
                raise ShapeError("every puzzle of a batch must have the same shape")
            return np.frombuffer(b"".join(g.cells for g in grids), np.uint8).reshape(len(grids), -1).copy(), shape
    try:
        array = np.asarray(puzzles)
    except (ValueError, TypeError):  # rows of different lengths
        raise ParseError("the puzzles of a batch have different numbers of cells: every row must have N*N") from None
    if array.ndim == 3 and array.shape[1] == array.shape[2]:  # boards: N rows of N cells each
        array = array.reshape(array.shape[0], -1)
    if array.ndim != 2:
        raise ShapeError(f"a batch is a 2-D array with one puzzle a row, not an array of shape {array.shape}")
    if array.dtype.kind not in "iu":
        raise PuzzleTypeError(f"a batch holds integers, not {array.dtype}; convert it with .astype(np.uint8)")
    shape = shape or Shape.infer(array.shape[1])
    if array.shape[1] != shape.n_cells:
        raise ShapeError(f"expected {shape.n_cells} cells a row for a {shape.size_name} grid, found {array.shape[1]}")
    if array.dtype != np.uint8:
        out_of_range = ((array < 0) | (array > shape.n)).any(axis=1)
        array = np.clip(array, 0, 255).astype(np.uint8)
        array[out_of_range, 0] = 255
    return np.ascontiguousarray(array), shape


def check_many(puzzles: object) -> None:
    """Raise ``PuzzleTypeError`` unless ``puzzles`` can be many puzzles: an array or an iterable, not one puzzle (a
    ``Grid``, a line of text), bytes, ``None`` or a number."""
    if isinstance(puzzles, (Grid, str)):
        raise PuzzleTypeError("expected many puzzles (a 2-D array with one puzzle a row, or a list of puzzles), not "
                              "one puzzle; for one, use solve, count_solutions or search")
    if puzzles is None or isinstance(puzzles, (bytes, bytearray)) or not isinstance(puzzles, (np.ndarray, Iterable)):
        raise PuzzleTypeError("expected many puzzles (a 2-D array with one puzzle a row, or a list of puzzles), not "
                              f"{'None' if puzzles is None else type(puzzles).__name__}")


def _is_flat_row(puzzle: object) -> bool:
    """Whether a batch's item is a row of integer cells (a flat list or array), which NumPy stacks as it is."""
    if isinstance(puzzle, np.ndarray):
        return puzzle.ndim == 1 and puzzle.dtype.kind in "iu"
    return isinstance(puzzle, (list, tuple)) and all(isinstance(cell, (int, np.integer)) for cell in puzzle)


def verify_solutions(puzzles: NDArray[np.uint8], solutions: NDArray[np.uint8], shape: Shape) -> NDArray[np.bool_]:
    """For each row: is ``solutions[i]`` a complete valid grid that keeps every given of ``puzzles[i]``?

    Independent of the kernels (NumPy on the unit table), so benchmarks and tests trust nothing they time.
    """
    units = shape.tables.units
    digits = np.sort(solutions[:, units], axis=2)  # (k, 3N, N): every unit sorted
    complete: NDArray[np.bool_] = (digits == np.arange(1, shape.n + 1, dtype=np.uint8)).all(axis=(1, 2))
    kept: NDArray[np.bool_] = ((puzzles == 0) | (puzzles == solutions)).all(axis=1)
    return complete & kept
