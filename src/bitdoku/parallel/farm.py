"""The master-worker farm: the master hands configurations to idle workers on demand, deepest first.

As in the study: workers expand the configurations they get and send the children back, until the master has
seen ``threshold`` configurations (320); from then on it tells workers to search theirs to the end. Once the
limit is reached (the first solution, in solve mode) it hands out no more work. The master only needs
``submit(fn, *args) -> future`` and ``wait_first(futures) -> done futures``, so the same loop drives a thread
pool or a Dask cluster.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from bitdoku.parallel.tree import Tally, Tree
from bitdoku.parallel.work import WorkResult, work

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    class WorkFuture(Protocol):
        """What ``submit`` gives back and ``wait_first`` hands on: a task whose ``result()`` is its
        ``WorkResult`` (a ``concurrent.futures.Future``, or ``distributed``'s wrapper of a Dask future)."""

        def result(self) -> WorkResult: ...

    _Future = TypeVar("_Future", bound=WorkFuture)

THRESHOLD = 320


@dataclass
class SchedulerStats:
    """What a parallel run (threads or cluster) cost beyond its kernels: tasks handed out, worker threads,
    kernel seconds summed over the tasks (measured where they ran) and the run's wall-clock seconds."""

    tasks: int = 0
    workers: int = 0
    kernel_seconds: float = 0.0
    wall_seconds: float = 0.0

    @property
    def overhead_us(self) -> float:
        """Microseconds a task cost beyond its kernel: (wall x workers - kernel seconds) / tasks.

        This charges each task with everything its worker did not spend in a kernel (scheduling, shipping,
        waiting and idling at the end of the run), so it is an upper bound of the true cost.
        """
        if not self.tasks:
            return 0.0
        return (self.wall_seconds * self.workers - self.kernel_seconds) / self.tasks * 1e6


def run_farm(
    tree: Tree,
    root: NDArray[np.uint8],
    tally: Tally,
    max_nodes: int,
    *,
    workers: int,
    submit: Callable[..., _Future],
    wait_first: Callable[[set[_Future]], Iterable[_Future]],
    threshold: int = THRESHOLD,
    farm_stats: SchedulerStats | None = None,
) -> bool:
    """Run the farm to the end; returns False when the node budget ran out, or the time (``tally.stop``)."""
    farm_stats = farm_stats or SchedulerStats()
    farm_stats.workers = workers
    start = time.perf_counter()
    order = itertools.count()  # ties on depth: first come, first served
    heap = [(0, next(order), root)]
    busy: dict[_Future, int] = {}  # task -> the depth of its configuration
    generated, budget_ok = 1, True
    spec = tree.spec
    while heap or busy:
        while heap and len(busy) < workers and budget_ok and not tally.full:
            negative_depth, _, cells = heapq.heappop(heap)
            sequential = generated >= threshold
            limit = max(1, tally.limit - tally.count)
            future = submit(work, cells, spec, sequential, limit, tally.keep)
            busy[future] = -negative_depth
            farm_stats.tasks += 1
        if not busy:
            break
        for future in wait_first(set(busy)):
            depth = busy.pop(future)
            result: WorkResult = future.result()
            farm_stats.kernel_seconds += result.kernel_seconds
            tally.add_stats(result.stats)
            tally.add_solutions(result.solutions, result.count)
            for child in result.children:
                heapq.heappush(heap, (-(depth + 1), next(order), child))  # deepest first
            generated += len(result.children)
        if tally.spent(max_nodes):
            budget_ok = False
        if tally.full or not budget_ok:
            heap.clear()
    farm_stats.wall_seconds = time.perf_counter() - start
    return budget_ok or tally.full
