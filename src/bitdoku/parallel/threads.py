"""Parallel search of one puzzle over threads, as in the study: a shared stack (pt_dfs), a shared queue
(pt_mix) and a master-worker farm (farm).

Workers call GIL-free kernels, so threads really run in parallel. pt_dfs: each thread takes a configuration
from a shared stack, expands it, keeps one child and pushes the others; once the stack holds enough work for
everyone it searches its configuration to the end. pt_mix: children go to a shared FIFO queue, and a thread
that sees more than ``PENDING_LIMIT`` (320) pending configurations searches its own to the end. A sequential
search has a node slice; when it is spent the configuration is split and its children go back, so a found
solution cancels the others within one slice and no thread idles while another holds a huge subtree.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np
from numpy.typing import NDArray

from bitdoku.kernels import status as codes
from bitdoku.parallel.farm import SchedulerStats, run_farm
from bitdoku.parallel.tree import Tally, Tree
from bitdoku.parallel.work import WorkResult, work

PENDING_LIMIT = 320


class _SharedWork:
    """Pending configurations shared by the threads: a stack (LIFO) or a queue (FIFO), with the bookkeeping
    that tells when all work is done (nothing pending and nobody busy) or stopped."""

    def __init__(self, root: np.ndarray, lifo: bool) -> None:
        self.items: deque[np.ndarray] = deque([root])
        self.lifo = lifo
        self.busy = 0
        self.stopped = False
        self.cond = threading.Condition()

    def take(self) -> np.ndarray | None:
        with self.cond:
            while not self.items and self.busy and not self.stopped:
                self.cond.wait()
            if self.stopped or not self.items:
                return None
            self.busy += 1
            return self.items.pop() if self.lifo else self.items.popleft()

    def give(self, children: Iterable[NDArray[np.uint8]]) -> None:
        with self.cond:
            self.items.extend(children)
            self.cond.notify_all()

    def finished(self) -> None:
        with self.cond:
            self.busy -= 1
            self.cond.notify_all()

    def stop(self) -> None:
        with self.cond:
            self.stopped = True
            self.cond.notify_all()

    def pending(self) -> int:
        return len(self.items)


def run_shared(tree: Tree, root: NDArray[np.uint8], tally: Tally, max_nodes: int, *, threads: int, lifo: bool,
               scheduler_stats: SchedulerStats | None = None) -> bool:
    """pt_dfs (``lifo=True``) or pt_mix (``lifo=False``); returns False when the node budget or the time ran
    out."""
    shared, lock = _SharedWork(root, lifo), threading.Lock()
    counters = scheduler_stats or SchedulerStats()
    counters.workers = threads
    start = time.perf_counter()
    cut = threading.Event()
    enough = 2 * threads if lifo else PENDING_LIMIT

    failures: list[BaseException] = []

    def worker() -> None:
        try:
            work_loop()
        except BaseException as error:  # never leave the others waiting on a task that will not finish
            failures.append(error)
            shared.stop()

    def work_loop() -> None:
        task = shared.take()
        while task is not None:
            result = work(task, tree.spec, shared.pending() >= enough, max(1, tally.limit - tally.count),
                          tally.keep, tally.stop)
            with lock:
                counters.tasks += 1
                counters.kernel_seconds += result.kernel_seconds
            keep_local = _record(result, tally, lock, shared, lifo, max_nodes, cut)
            if keep_local is None:
                shared.finished()
                task = shared.take()
            else:
                task = keep_local

    pool = [threading.Thread(target=worker, daemon=True) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    counters.wall_seconds = time.perf_counter() - start
    if failures:
        raise failures[0]
    return not cut.is_set() or tally.full


def _record(result: WorkResult, tally: Tally, lock: threading.Lock, shared: _SharedWork, lifo: bool,
            max_nodes: int, cut: threading.Event) -> NDArray[np.uint8] | None:
    """Merge one task's result; return the child this thread goes on with (pt_dfs), else None. ``cut`` is set
    when the node budget or the time runs out first (a flag set as the last part ends also counts: a search
    that may be whole is reported cut, never the other way round)."""
    with lock:
        tally.add_stats(result.stats)
        tally.add_solutions(result.solutions, result.count)
        stop = tally.full or tally.spent(max_nodes)
        if stop and not tally.full:
            cut.set()
    if stop:
        shared.stop()
        return None
    children: list[NDArray[np.uint8]] = list(result.children)
    if lifo and children:
        shared.give(children[1:])
        return children[0]
    shared.give(children)
    return None


def run_threaded_farm(tree: Tree, root: NDArray[np.uint8], tally: Tally, max_nodes: int, *, threads: int,
                      farm_stats: SchedulerStats | None = None) -> bool:
    """The farm with a thread pool as its workers (their parts read the search's stop flag)."""
    with ThreadPoolExecutor(max_workers=threads) as pool:
        return run_farm(tree, root, tally, max_nodes, workers=threads,
                        submit=lambda fn, *args: pool.submit(fn, *args, stop=tally.stop),
                        wait_first=lambda futures: wait(futures, return_when=FIRST_COMPLETED).done,
                        farm_stats=farm_stats)


#: Each strategy as ``strategy(tree, root, tally, max_nodes, threads) -> finished``.
THREADED: dict[str, Callable[[Tree, NDArray[np.uint8], Tally, int, int], bool]] = {
    "pt_dfs": lambda tree, root, tally, max_nodes, threads: run_shared(tree, root, tally, max_nodes,
                                                                       threads=threads, lifo=True),
    "pt_mix": lambda tree, root, tally, max_nodes, threads: run_shared(tree, root, tally, max_nodes,
                                                                       threads=threads, lifo=False),
    "farm": lambda tree, root, tally, max_nodes, threads: run_threaded_farm(tree, root, tally, max_nodes,
                                                                            threads=threads),
}

__all__ = ["THREADED", "codes"]
