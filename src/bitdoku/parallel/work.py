"""The unit of work every scheduler hands out: expand a configuration, or search it to the end.

``work`` is a plain module-level function of arrays, integers and a ``TreeSpec``, so the same call runs on a thread
or is shipped to a Dask worker (which rebuilds the tree from the spec, once a process).
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from bitdoku.kernels import status as codes
from bitdoku.parallel.tree import Tree, TreeSpec, split_solved, tree_from

#: A part that spends its node slice is split into at least this many pieces. Each spent slice is wasted work,
#: and a tree of W nodes needs about W / (slice x SPLIT_PARTS) of them: the waste is about W / SPLIT_PARTS.
SPLIT_PARTS = 64


class WorkResult(NamedTuple):
    """What one task found: open children to schedule, solutions (kept rows and their count), and stats.

    ``finished`` is False when a sequential search spent its slice: its partial count is dropped, and the
    configuration comes back as ``children`` so the search goes on in smaller parts.
    """

    children: NDArray[np.uint8]
    solutions: NDArray[np.uint8]
    count: int  # type: ignore[assignment]  # shadows tuple.count, which nothing calls on a WorkResult
    stats: NDArray[np.int64]
    finished: bool
    kernel_seconds: float


def work(
    cells: NDArray[np.uint8], spec: TreeSpec, sequential: bool, limit: int, keep: int,
    stop: NDArray[np.int64] | None = None,
) -> WorkResult:
    """Expand ``cells`` (``sequential=False``) or search it within ``slice_nodes`` nodes (``True``), ending early
    once ``stop[0]`` is set (threads share the search's flag; a Dask task has none and ends with its slice).

    A stopped part counts the solutions it found (they are real, and nothing searches that part again)."""
    tree = tree_from(spec)
    slice_nodes = spec.slice_nodes
    start = time.perf_counter()
    stats = np.zeros(codes.N_STATS, dtype=np.int64)
    if sequential:
        status, solutions, stats = tree.search_part(cells, limit, keep, slice_nodes, stop)
        if status != codes.BUDGET_EXHAUSTED:
            count = int(stats[codes.STAT_SOLUTIONS])
            empty = np.empty((0, cells.size), np.uint8)
            return WorkResult(empty, solutions, count, stats, True, time.perf_counter() - start)
    parts = SPLIT_PARTS if sequential else 1
    open_children, solved = _split(tree, cells, parts, stats)
    return WorkResult(open_children, solved, len(solved), stats, not sequential, time.perf_counter() - start)


def _split(tree: Tree, cells: NDArray[np.uint8], parts: int,
           stats: NDArray[np.int64]) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Expand breadth-first until at least ``parts`` open configurations (or none) are left: one level for a
    plain expansion, a few for a part that spent its slice, so its pieces are likely to fit in one."""
    level, solved_rows = cells[None, :], []
    while True:
        children, kinds = tree.expand_level(level)
        stats[codes.STAT_NODES] += len(level) + len(children)
        level, solved = split_solved(children, kinds)
        solved_rows.append(solved)
        if len(level) >= parts or not len(level):
            return level, np.concatenate(solved_rows)
