"""Sequential strategies over the configuration tree: depth-first, breadth-first and mixed.

``dfs`` is the compiled engine's own search (one kernel call). ``bfs`` expands the tree level by level (a
queue), keeping whole levels in memory, which is why it is the slowest and needs a memory bound. ``mixed``
expands breadth-first until the frontier holds ``frontier_size`` configurations, then searches each one
depth-first: the study's finding was that depth-first wins sequentially.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from bitdoku.kernels import status as codes
from bitdoku.parallel.tree import Tally, Tree, split_solved

#: BFS stops (Status.LIMIT) rather than hold more configurations than this in one level.
MAX_FRONTIER = 2_000_000

#: Configurations of a BFS level expanded in one kernel call.
EXPAND_ROWS = 4096

#: The kernel statuses of a part search that did not see its whole subtree.
_CUT = (codes.BUDGET_EXHAUSTED, codes.STOPPED)


def run_dfs(tree: Tree, root: NDArray[np.uint8], tally: Tally, max_nodes: int) -> bool:
    """One depth-first kernel search; returns False when the node budget or the time ran out."""
    status, solutions, stats = tree.search_part(root, tally.limit, tally.keep, max_nodes, tally.stop)
    tally.add_stats(stats)
    tally.add_solutions(solutions, int(stats[codes.STAT_SOLUTIONS]))
    return status not in _CUT


def run_bfs(tree: Tree, root: NDArray[np.uint8], tally: Tally, max_nodes: int) -> bool:
    """Expand level by level until no open configuration is left (or the limit, budget, time or memory bound)."""
    level = root[None, :]
    while len(level) and not tally.full:
        if tally.spent(max_nodes) or len(level) > MAX_FRONTIER:
            return False
        level = _expand_level(tree, level, tally)
    return tally.full or not tally.stopped  # a level cut short by the flag leaves the tree unfinished


def run_mixed(tree: Tree, root: NDArray[np.uint8], tally: Tally, max_nodes: int, frontier_size: int = 320) -> bool:
    """BFS until the frontier holds ``frontier_size`` configurations, then DFS on each of them in turn."""
    level = root[None, :]
    while 0 < len(level) < frontier_size and not tally.full:
        if tally.spent(max_nodes):
            return False
        level = _expand_level(tree, level, tally)
    for part in level:
        if tally.full:
            break
        if tally.stopped:
            return False
        remaining = max_nodes - tally.nodes
        if remaining <= 0:
            return False
        status, solutions, stats = tree.search_part(part, tally.limit - tally.count, tally.keep, remaining,
                                                    tally.stop)
        tally.add_stats(stats)
        tally.add_solutions(solutions, int(stats[codes.STAT_SOLUTIONS]))
        if status in _CUT:
            return False
    return tally.full or not tally.stopped


def _expand_level(tree: Tree, level: NDArray[np.uint8], tally: Tally) -> NDArray[np.uint8]:
    """Expand one BFS level: count its complete children, return the open ones (one node per configuration
    expanded and per child made). The level goes to the kernel ``EXPAND_ROWS`` configurations at a time, so the
    children arrays of one call stay small and a time limit is seen between calls (a whole level of a 9x9 count
    took a second); once the flag is set, the rest of the level is left unexpanded."""
    open_parts = []
    for start in range(0, len(level), EXPAND_ROWS):
        if tally.stopped:
            break
        rows = level[start : start + EXPAND_ROWS]
        children, kinds = tree.expand_level(rows)
        tally.nodes += len(rows) + len(children)
        open_children, solved = split_solved(children, kinds)
        tally.add_solutions(solved, len(solved))
        open_parts.append(open_children)
    return np.concatenate(open_parts) if open_parts else level[:0]


SEQUENTIAL = {"dfs": run_dfs, "bfs": run_bfs, "mixed": run_mixed}
