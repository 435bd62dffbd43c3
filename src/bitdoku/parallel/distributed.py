"""Search on a Dask cluster: files of puzzles as chunks of rows, and one hard puzzle as a farm of sub-puzzles.

This is the only module that imports Dask (the extra ``bitdoku[dask]``), and only when one of its functions
runs. Functions take a ``dask.distributed.Client`` from the caller and never start a cluster themselves
(``connect`` and ``local_client`` are the CLI's helpers for that). What travels is plain ``uint8`` arrays one
way and the batch kernel's own outputs (solutions, codes, counters) or a ``WorkResult`` the other way: never
``Grid`` objects.

Batches: ``solve_chunks`` runs the same batch kernel as ``bitdoku.batch.solve_many`` on each chunk
(``bitdoku.batch.search_batch``), one thread per worker process, keeps a bounded number of chunks on the cluster,
and hands each result on in input order; ``solve_many`` writes them into one ``BatchResult``. A chunk that still
fails after Dask's retries comes back as a ``ChunkFailure``, so it costs its own rows, not the run. A worker that
dies mid-run costs nothing: the scheduler runs its chunks again elsewhere.

One puzzle: ``search`` drives the master-worker farm of ``bitdoku.parallel.farm`` with Dask futures. Counts
add up over the sub-puzzles; once the limit is reached the tasks still running are cancelled.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from bitdoku.batch import (
    BatchResult,
    BatchRules,
    as_variant_batch,
    batch_result,
    check_many,
    checked_budget,
    default_threads,
    killer_array,
    killer_rows,
    search_batch,
    search_killer_rows,
)
from bitdoku.engines.bitmask import public_statuses
from bitdoku.engines.result import SearchResult, conflict_result, default_max_nodes
from bitdoku.errors import BitdokuError, MissingExtraError
from bitdoku.geometry import Geometry
from bitdoku.grid import Puzzle, as_grid
from bitdoku.kernels import status as codes
from bitdoku.parallel.farm import SchedulerStats, run_farm
from bitdoku.parallel.run import result_of, start_tree
from bitdoku.parallel.tree import TreeSpec
from bitdoku.parallel.work import WorkResult, work
from bitdoku.shape import Shape
from bitdoku.timelimit import TimeLimit, check_seconds

if TYPE_CHECKING:
    from distributed import Client, Future, LocalCluster

#: Node budget of one farm task on a cluster, by grid size: 9x9 (~3 M nodes/s) and any other (~150 k nodes/s).
#: A task costs ~1-3 ms of scheduling and transfer on top of its kernel time, against ~20 µs on a thread
#: pool, so a slice here is four times the thread version's (about 0.6 s of kernel time): the overhead stays
#: under 1% and a found solution still stops the search within one slice (see benchmarks/NOTES-dask.md).
CLUSTER_SLICE_NODES = {9: 2_000_000}
OTHER_SLICE_NODES = 80_000
#: Configurations a worker thread is given before the farm stops expanding (the thread farm's fixed 320 is
#: ~10 ms of Dask round trip each on small trees; parts that spend their slice are split later anyway).
THRESHOLD_PER_WORKER = 16
#: Dask retries a failed chunk this many times before reporting it (a worker's death is not counted here:
#: the scheduler moves the lost tasks to another worker by itself).
RETRIES = 2


class ChunkFailure(NamedTuple):
    """A chunk that failed on the cluster after its retries: its index, its row count and what went wrong."""

    index: int  # type: ignore[assignment]  # shadows tuple.index, which nothing calls on a ChunkFailure
    rows: int
    message: str


# ----------------------------------------------------------------------------------------------- batches


def solve_chunks(
    client: Client,
    chunks: Iterable[ArrayLike | tuple[ArrayLike, Shape] | tuple[ArrayLike, Shape, BatchRules]],
    *,
    shape: Shape | str | None = None,
    variant: str | Geometry | None = None,
    limit: int = 1,
    max_nodes: int | None = None,
    rules: int = codes.ALL_RULES,
    in_flight: int | None = None,
    scatter: bool = False,
    stats: SchedulerStats | None = None,
    time_limit: float | None = None,
) -> Iterator[tuple[int, BatchResult | ChunkFailure]]:
    """Search each chunk of puzzles on the cluster and yield ``(chunk index, result)`` in input order.

    Parameters
    ----------
    client : distributed.Client
        The caller's client; its workers need the same bitdoku version.
    chunks : iterable of arrays, or of ``(array, shape)`` pairs or ``(array, shape, geometry)`` triples
        Each a ``(k, N*N)`` uint8 array (one task each). Read lazily: at most ``in_flight`` chunks are
        on the cluster or waiting to be handed on, so memory stays bounded for any file size. A pair gives
        the chunk's own shape, for streams that mix shapes (a 6x6 puzzle can be 2x3 or 3x2); a triple also
        the chunk's own rules (a variant ``Geometry``, None for classic), for streams that mix them.
    shape : Shape or str, optional
        The shape of every chunk (default: from each chunk's width).
    variant : str or Geometry, optional
        The rules of every chunk that does not bring its own (default: classic), as for
        ``bitdoku.batch.solve_many``.
    limit, max_nodes, rules, time_limit
        As for ``bitdoku.batch.solve_many``, per row (the worker times its rows).
    in_flight : int, optional
        Chunks submitted and not yet handed on, at most (default: twice the cluster's threads, plus 2).
    scatter : bool
        Send each chunk with ``client.scatter`` before its task instead of inside it (measured slower on
        one machine; see benchmarks/NOTES-dask.md).
    stats : SchedulerStats, optional
        Filled in with the run's tasks, kernel seconds and wall time (for ``overhead_us``).

    Returns
    -------
    iterator of (int, BatchResult or ChunkFailure)
        One item a chunk, in input order. A chunk that raised on its worker three times (the first try and
        ``RETRIES``) is a ``ChunkFailure``; a chunk of zero rows is searched here, without a task.

    Raises
    ------
    MissingExtraError
        When Dask is not installed.
    """
    for index, puzzles, chunk_shape, geometry, reply in _replies(client, chunks, shape, variant, limit, max_nodes,
                                                                 rules, in_flight, scatter, stats, time_limit):
        if isinstance(reply, ChunkFailure):
            yield index, reply
        else:
            budget = checked_budget(chunk_shape, geometry, limit, max_nodes)
            yield index, batch_result(puzzles, *_widened(reply), limit, chunk_shape, budget,
                                      check_seconds(time_limit), geometry)


def solve_many(
    client: Client,
    puzzles: ArrayLike | Iterable[Puzzle],
    *,
    shape: Shape | str | None = None,
    variant: str | Geometry | None = None,
    chunk_size: int = 4096,
    limit: int = 1,
    max_nodes: int | None = None,
    rules: int = codes.ALL_RULES,
    scatter: bool = False,
    stats: SchedulerStats | None = None,
    time_limit: float | None = None,
) -> BatchResult:
    """``bitdoku.batch.solve_many`` on a cluster: the same ``BatchResult``, searched in chunks of rows
    (``time_limit``: seconds for each row, and ``variant``: the rules of every row, as there).

    ``chunk_size`` is the rows of a task at most: the last tasks are shorter (``task_slices``). Each chunk's
    reply is written into the result's arrays as it comes back, while the workers search the rest: putting
    chunk results together at the end cost 0.04-0.45 s after a batch of 1 s (benchmarks/NOTES-dask.md).

    Raises
    ------
    BitdokuError
        When a chunk failed on the cluster (the message names its rows and the worker's error).
    MissingExtraError
        When Dask is not installed.

    Example
    -------
    >>> from distributed import Client
    >>> with Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0") as client:
    ...     solve_many(client, ["..3..4.221......", "11..............", "1..............."], limit=2).statuses
    [<Status.UNIQUE: 'unique'>, <Status.INVALID: 'invalid'>, <Status.MULTIPLE: 'multiple'>]
    """
    check_many(puzzles)
    if not isinstance(puzzles, np.ndarray):
        puzzles = list(cast("Iterable[Puzzle]", puzzles))
    killers = killer_rows(puzzles, shape, variant) if isinstance(puzzles, list) else None
    if killers is not None:
        geometry: BatchRules = tuple(grid.geometry for grid in killers)
        array, shape = killer_array(killers)
    else:
        array, shape, geometry = as_variant_batch(puzzles, shape, variant)
    budget = checked_budget(shape, geometry, limit, max_nodes)
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, not {chunk_size}")
    time_limit = check_seconds(time_limit)
    k = len(array)
    per_row = geometry if isinstance(geometry, tuple) else None
    whole = BatchResult(array, np.zeros_like(array), np.zeros(k, np.uint8), np.zeros(k, np.int64),
                        np.zeros((k, codes.N_STATS), np.int64), np.zeros(k, np.int8), shape, budget, time_limit,
                        None if per_row is not None else geometry, per_row)  # type: ignore[arg-type]
    slices = task_slices(len(array), chunk_size, _total_threads(client))
    chunks = ((array[rows], shape, per_row[rows] if per_row is not None else geometry) for rows in slices)
    for index, _, _, _, reply in _replies(client, chunks, None, None, limit, max_nodes, rules, None, scatter,
                                          stats, time_limit):
        rows = slices[index]
        if isinstance(reply, ChunkFailure):
            raise BitdokuError(f"rows {rows.start + 1:,}-{rows.stop:,} failed on the cluster: {reply.message}")
        _fill(whole, rows, reply, limit)
    return whole


def task_slices(rows: int, chunk_size: int, workers: int) -> list[slice]:
    """The rows of each task: ``chunk_size`` while plenty are left, then a quarter of what is left for each
    worker (down to a quarter of ``chunk_size``), so that the last tasks are short and the workers finish
    together instead of one waiting for the other's last full chunk (guided self-scheduling)."""
    slices, start, smallest = [], 0, max(1, chunk_size // 4)
    while start < rows:
        size = min(chunk_size, max(smallest, -(-(rows - start) // (2 * workers))))
        slices.append(slice(start, min(rows, start + size)))
        start += size
    return slices


def _fill(whole: BatchResult, rows: slice, reply: _Reply, limit: int) -> None:
    """Write a chunk's reply into the rows of the batch's result, with the counts and statuses it implies (done
    as each reply comes back, while the workers search the rest, rather than once at the end)."""
    solutions, kernel_codes, counters, _ = reply
    whole.solutions[rows], whole.kernel_codes[rows], whole.stats[rows] = solutions, kernel_codes, counters
    whole.counts[rows] = whole.stats[rows, codes.STAT_SOLUTIONS]
    whole.status_codes[rows] = public_statuses(whole.kernel_codes[rows], whole.counts[rows], limit)


def concatenate(results: list[BatchResult]) -> BatchResult:
    """One ``BatchResult`` from the results of consecutive chunks (of one shape, rules and node budget), in
    order."""
    first = results[0]
    arrays = [np.concatenate([getattr(r, name) for r in results]) for name in _ROW_FIELDS]
    # mypy cannot count ``*arrays``: the six row fields (``_ROW_FIELDS``), all before ``shape``
    return BatchResult(*arrays, shape=first.shape, max_nodes=first.max_nodes,  # type: ignore[misc, arg-type]
                       time_limit=first.time_limit, geometry=first.geometry)


_ROW_FIELDS = ("puzzles", "solutions", "status_codes", "counts", "stats", "kernel_codes")

#: What every chunk's task is searched with: the solution limit, node budget, rules and a row's time limit.
_ChunkOptions = tuple[int, int | None, int, float | None]


#: A worker's reply for one chunk (``_solve_chunk``): solutions, kernel codes, counters and seconds taken.
_Reply = tuple[NDArray[np.uint8], NDArray[np.int8], NDArray[np.integer], float]


def _replies(
    client: Client, chunks: Iterable[ArrayLike | tuple[ArrayLike, Shape] | tuple[ArrayLike, Shape, BatchRules]],
    shape: Shape | str | None, variant: str | Geometry | None, limit: int, max_nodes: int | None, rules: int,
    in_flight: int | None, scatter: bool, stats: SchedulerStats | None, time_limit: float | None,
) -> Iterator[tuple[int, NDArray[np.uint8], Shape, BatchRules, _Reply | ChunkFailure]]:
    """Search each chunk on the cluster and yield ``(index, puzzles, shape, rules, reply or failure)`` in input
    order, at most ``in_flight`` chunks on the cluster or waiting (``solve_chunks`` says the rest)."""
    distributed = _dask()
    fixed = Shape.parse(shape) if shape is not None else None
    workers = _total_threads(client)
    in_flight = in_flight if in_flight is not None else 2 * workers + 2
    if in_flight < 1:
        raise ValueError(f"in_flight must be at least 1, not {in_flight}")
    stats = stats if stats is not None else SchedulerStats()
    stats.workers = workers
    start = time.perf_counter()
    options = (limit, max_nodes, rules, check_seconds(time_limit))
    source = enumerate(chunks)
    running = distributed.as_completed()
    rows_of: dict[Any, tuple[int, NDArray[np.uint8], Shape, BatchRules]] = {}  # future -> its chunk
    # finished, waiting for the chunks before them
    ready: dict[int, tuple[int, NDArray[np.uint8], Shape, BatchRules, _Reply | ChunkFailure]] = {}
    submitted = handed_on = 0
    exhausted = False
    try:
        while True:
            while not exhausted and submitted - handed_on < in_flight:
                item = next(source, None)
                if item is None:
                    exhausted = True
                    break
                index, (array, chunk_shape, geometry) = item[0], _chunk_of(item[1], fixed, variant)
                checked_budget(chunk_shape, geometry, limit, max_nodes)
                if len(array):
                    future = _submit_chunk(client, array, chunk_shape, geometry, options, scatter)
                    rows_of[future] = (index, array, chunk_shape, geometry)
                    running.add(future)
                    stats.tasks += 1
                else:  # nothing to ship: an empty reply, made here
                    ready[index] = (index, array, chunk_shape, geometry,
                                    _solve_chunk(array, chunk_shape, *options, geometry))
                submitted += 1
            while handed_on in ready:
                yield ready.pop(handed_on)
                handed_on += 1
            if handed_on == submitted:
                if exhausted:
                    return
                continue
            future = next(running)  # the chunk at handed_on is still running, so this never runs dry
            index, array, chunk_shape, geometry = rows_of.pop(future)
            ready[index] = (index, array, chunk_shape, geometry, _outcome(future, index, len(array), stats))
    finally:
        if rows_of:  # the caller stopped early: free the cluster
            client.cancel(list(rows_of))  # type: ignore[no-untyped-call]  # distributed's Client.cancel is unannotated
        stats.wall_seconds += time.perf_counter() - start


def _solve_chunk(puzzles: NDArray[np.uint8], shape: Shape, limit: int, max_nodes: int | None, rules: int,
                 time_limit: float | None = None, geometry: BatchRules = None) -> _Reply:
    """The task a worker runs: one chunk on one thread; returns only what the client cannot derive.

    The reply is the solutions, the kernel codes, the counters in the narrowest integer type that holds them
    (most fit 16 bits: a quarter of the bytes), and the seconds it took; the client holds the puzzles and
    derives statuses and counts (``batch_result``). On fast batches the bytes moved are the cost.
    """
    start = time.perf_counter()
    budget = checked_budget(shape, geometry, limit, max_nodes)
    if isinstance(geometry, tuple):  # Killers: each row its own cages
        solutions, kernel_codes, counters = search_killer_rows(puzzles, shape, geometry, limit, budget, 1, time_limit)
    else:
        solutions, kernel_codes, counters = search_batch(puzzles, shape, geometry, limit, budget, 1, rules,
                                                         time_limit)
    return solutions, kernel_codes, _narrowed(counters), time.perf_counter() - start


def _narrowed(counters: NDArray[np.int64]) -> NDArray[np.integer]:
    """``counters`` in the narrowest integer type that holds every one of them."""
    if not counters.size:
        return counters
    return counters.astype(np.promote_types(np.min_scalar_type(counters.min()), np.min_scalar_type(counters.max())))


def _widened(reply: _Reply) -> tuple[NDArray[np.uint8], NDArray[np.int8], NDArray[np.int64]]:
    """A reply's solutions, kernel codes and counters as ``BatchResult`` holds them (counters as int64)."""
    solutions, kernel_codes, counters, _ = reply
    return solutions, kernel_codes, counters.astype(np.int64)


def _submit_chunk(client: Client, array: NDArray[np.uint8], shape: Shape, geometry: BatchRules,
                  options: _ChunkOptions, scatter: bool) -> Future[_Reply]:
    """Start one chunk's task; the array goes inside the task, or ahead of it with ``scatter``."""
    payload = client.scatter(array, hash=False) if scatter else array  # type: ignore[no-untyped-call]  # unannotated
    return client.submit(_solve_chunk, payload, shape, *options, geometry, pure=False, retries=RETRIES)


def _chunk_of(item: ArrayLike | tuple[ArrayLike, Shape | None] | tuple[ArrayLike, Shape | None, BatchRules],
              fixed: Shape | None,
              variant: str | BatchRules) -> tuple[NDArray[np.uint8], Shape, BatchRules]:
    """An input chunk as a checked uint8 array, its shape and its rules (None: classic)."""
    if not isinstance(item, tuple):
        item = (item, fixed)
    array, shape, variant = item if len(item) == 3 else (*item, variant)
    if isinstance(variant, tuple):  # Killers: one geometry a row
        checked, shape_of_rows, _ = as_variant_batch(array, shape)
        if len(variant) != len(checked) or any(not g.cages or g.shape != shape_of_rows for g in variant):
            raise ValueError("a chunk of Killers has one Killer geometry of its shape a row")
        return checked, shape_of_rows, variant
    return as_variant_batch(array, shape, variant)


def _outcome(future: Future[_Reply], index: int, rows: int, stats: SchedulerStats) -> _Reply | ChunkFailure:
    """A finished chunk's reply, or the ``ChunkFailure`` that says why not."""
    try:
        reply = future.result()
    except Exception as error:  # the worker's exception, re-raised here by Dask: report it, go on
        return ChunkFailure(index, rows, f"{type(error).__name__}: {error}")
    stats.kernel_seconds += reply[-1]
    return reply

# ----------------------------------------------------------------------------------------------- one puzzle


def search(
    client: Client,
    puzzle: Puzzle,
    *,
    limit: int = 2,
    keep: int = 1,
    max_nodes: int | None = None,
    rules: int = codes.ALL_RULES,
    threshold: int | None = None,
    slice_nodes: int | None = None,
    stats: SchedulerStats | None = None,
    workers: int | None = None,
    time_limit: float | None = None,
) -> SearchResult:
    """Search one hard puzzle with the master-worker farm, its sub-puzzles run as Dask tasks.

    The same result (count, status) as ``bitdoku.search(puzzle, limit=limit)``; which solutions are kept
    may differ when there are more than ``limit``. Worth it only for big trees (millions of nodes).

    Parameters
    ----------
    limit, keep, max_nodes
        As for ``bitdoku.search``: stop at ``limit`` solutions, keep the first ``keep``, spend at most
        ``max_nodes`` nodes (checked between tasks, so a run may overshoot by a slice a worker).
    threshold : int, optional
        Configurations generated by expansion tasks before workers search theirs to the end (default:
        ``THRESHOLD_PER_WORKER`` a worker thread, at least 32; the thread farm's 320 makes hundreds of tiny
        tasks, each paying a Dask round trip of ~10 ms).
    slice_nodes : int, optional
        Node budget of one task (default: ``CLUSTER_SLICE_NODES``).
    stats : SchedulerStats, optional
        Filled in with the farm's tasks, kernel seconds and wall time.
    workers : int, optional
        Tasks run at once (default: every worker thread of the cluster); the experiment varies it.
    time_limit : float, optional
        Seconds the search may take (None: no limit). When they run out the tasks under way are cancelled and
        the result is ``Status.LIMIT`` with the time limit's reason, as for ``bitdoku.search``.

    Raises
    ------
    ParseError
        When ``puzzle`` is not a grid.
    MissingExtraError
        When Dask is not installed.
    """
    distributed = _dask()
    grid = as_grid(puzzle)
    max_nodes = default_max_nodes(grid.shape) if max_nodes is None else max_nodes
    if min(limit, max_nodes) < 1 or keep < 0:
        raise ValueError(f"limit and max_nodes must be at least 1, keep at least 0: not {limit}, {max_nodes}, {keep}")
    invalid = conflict_result(grid)
    if invalid is not None:
        return invalid
    slice_nodes = slice_nodes or CLUSTER_SLICE_NODES.get(grid.shape.n, OTHER_SLICE_NODES)
    tree, tally, root = start_tree(grid, limit=limit, keep=keep, rules=rules, slice_nodes=slice_nodes)
    workers = workers or _total_threads(client)
    threshold = threshold or max(32, THRESHOLD_PER_WORKER * workers)
    farm_stats = stats if stats is not None else SchedulerStats()
    tasks = _FarmTasks(client, distributed, stopped=lambda: tally.full or tally.spent(max_nodes),
                       poll=None if time_limit is None else FARM_POLL_SECONDS)
    with TimeLimit(time_limit) as clock:
        tally.stop = clock.stop
        try:
            finished = run_farm(tree, root, tally, max_nodes, workers=workers, submit=tasks.submit,
                                wait_first=tasks.wait_first, threshold=threshold, farm_stats=farm_stats)
        finally:
            tasks.cancel_all()
    return result_of(grid, tally, finished, max_nodes, clock)


#: How often a cluster search with a time limit looks at its clock while it waits for a task.
FARM_POLL_SECONDS = 0.05


class _FarmTasks:
    """The farm's ``submit`` and ``wait_first`` over Dask futures.

    ``run_farm`` waits for every busy task before it returns; on a cluster a busy task may be a whole slice
    away, so once the search has stopped (limit reached or budget spent) the remaining tasks are cancelled
    at once and read as empty results.
    """

    def __init__(self, client: Client, distributed: ModuleType, stopped: Callable[[], bool],
                 poll: float | None = None) -> None:
        self.client, self.distributed, self.stopped, self.poll = client, distributed, stopped, poll
        self.busy: dict[Any, _FarmTask] = {}

    def submit(self, fn: Callable[..., WorkResult], *args: object) -> _FarmTask:
        future = self.client.submit(fn, *args, pure=False, retries=RETRIES)
        task = self.busy[future] = _FarmTask(future)
        return task

    def wait_first(self, tasks: set[_FarmTask]) -> list[_FarmTask]:
        """The tasks done, waiting for one; every task (read as cancelled) once the search has stopped, which
        a time limit makes it do while it waits: then the wait wakes every ``poll`` seconds to look."""
        futures = [task.future for task in tasks]
        while not self.stopped():
            try:
                done = self.distributed.wait(futures, timeout=self.poll, return_when="FIRST_COMPLETED").done
            except TimeoutError:  # Dask's is the built-in one
                continue
            return [self.busy.pop(future) for future in done]
        self.cancel_all()
        return list(tasks)

    def cancel_all(self) -> None:
        if self.busy:
            self.client.cancel(list(self.busy))  # type: ignore[no-untyped-call]  # Client.cancel is unannotated
        for task in self.busy.values():
            task.cancelled = True
        self.busy.clear()


class _FarmTask:
    """A Dask future as the farm sees it: ``result()`` of a cancelled task is an empty ``WorkResult``."""

    def __init__(self, future: Future[WorkResult]) -> None:
        self.future = future
        self.cancelled = False

    def result(self) -> WorkResult:
        if self.cancelled:
            return WorkResult(np.empty((0, 0), np.uint8), np.empty((0, 0), np.uint8), 0,
                              np.zeros(codes.N_STATS, np.int64), False, 0.0)
        return self.future.result()


# ----------------------------------------------------------------------------------------------- clusters


def connect(address: str | None) -> tuple[Client, LocalCluster | None]:
    """A client for ``address``, and the cluster started for it (close both when done; the CLI's helper).

    ``None`` or ``"local"`` starts a cluster on this machine (``local_client``). Anything else
    (``tcp://host:8786``) is the address of a running ``dask scheduler``; that client keeps Dask's settings (it
    gathers through the scheduler, since the workers of a remote cluster may not be reachable from here).
    """
    if address is None or address == "local":
        return local_client()
    return _dask().Client(address), None


def local_client(workers: int | None = None) -> tuple[Client, LocalCluster]:
    """A cluster of ``workers`` single-threaded worker processes on this machine (default: one a core) and a
    client for it (close both when done).

    The client gathers results straight from the workers, not through the scheduler (one copy of each reply
    through a socket instead of two). The workers skip Dask's statistical profiler, which samples each worker's
    stack every 10 ms on its event loop, for the dashboard's profile page only: a worker's event loop then took
    a quarter less CPU during a fast batch (benchmarks/NOTES-dask.md).
    """
    distributed = _dask()
    import dask

    with dask.config.set({"distributed.worker.profile.enabled": False}):
        cluster = distributed.LocalCluster(n_workers=workers or default_threads(), threads_per_worker=1,
                                           processes=True, dashboard_address=":0")
    return distributed.Client(cluster, direct_to_workers=True), cluster


def warm_up(client: Client, shapes: Iterable[Shape | str] = (Shape(3, 3),)) -> None:
    """Compile (or load from Numba's cache) the kernels on every worker: one tiny task each, before timing."""
    _dask()
    shapes = [Shape.parse(shape) for shape in shapes]
    futures = [client.submit(_warm_worker, shapes, workers=[address], allow_other_workers=False, pure=False)
               for address in client.nthreads()]  # type: ignore[no-untyped-call]  # Client.nthreads is unannotated
    client.gather(futures)  # type: ignore[no-untyped-call]  # Client.gather is unannotated


def _warm_worker(shapes: list[Shape]) -> None:
    """Run a chunk's task and the farm's kernels once on an empty grid of each shape."""
    for shape in shapes:
        empty = np.zeros((1, shape.n_cells), np.uint8)
        _solve_chunk(empty, shape, 1, None, codes.ALL_RULES)
        spec = TreeSpec(shape, codes.ALL_RULES, 1000)
        work(empty[0], spec, False, 1, 1)
        work(empty[0], spec, True, 1, 1)


def _total_threads(client: Client) -> int:
    """Worker threads on the cluster now (at least 1, so a cluster still starting gets work queued)."""
    return max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]  # Client.nthreads is unannotated


def _dask() -> ModuleType:
    """``dask.distributed``, imported on first use, or the error that says how to install it."""
    try:
        import distributed
    except ImportError:
        raise MissingExtraError("distributed solving", "dask") from None
    return distributed


