"""Sequential strategies over the configuration tree: depth-first, breadth-first and mixed.

``dfs`` is the compiled engine's own search (one kernel call). ``bfs`` expands the tree level by level (a
queue), keeping whole levels in memory, which is why it is the slowest and needs a memory bound. ``mixed``
expands breadth-first until the frontier holds ``frontier_size`` configurations, then searches each one
depth-first: the study's finding was that depth-first wins sequentially.
"""

from __future__ import annotations

from bitdoku.kernels import status as codes
from bitdoku.parallel.tree import Tally, Tree, split_solved

#: BFS stops (Status.LIMIT) rather than hold more configurations than this in one level.
MAX_FRONTIER = 2_000_000

#: The kernel statuses of a part search that did not see its whole subtree.
_CUT = (codes.BUDGET_EXHAUSTED, codes.STOPPED)


def run_dfs(tree: Tree, root, tally: Tally, max_nodes: int) -> bool:
    """One depth-first kernel search; returns False when the node budget or the time ran out."""
    status, solutions, stats = tree.search_part(root, tally.limit, tally.keep, max_nodes, tally.stop)
    tally.add_stats(stats)
    tally.add_solutions(solutions, int(stats[codes.STAT_SOLUTIONS]))
    return status not in _CUT


def run_bfs(tree: Tree, root, tally: Tally, max_nodes: int) -> bool:
    """Expand level by level until no open configuration is left (or the limit, budget, time or memory bound)."""
    level = root[None, :]
    while len(level) and not tally.full:
        if tally.nodes >= max_nodes or tally.stopped or len(level) > MAX_FRONTIER:
            return False
        level = _expand_level(tree, level, tally)
    return True


def run_mixed(tree: Tree, root, tally: Tally, max_nodes: int, frontier_size: int = 320) -> bool:
    """BFS until the frontier holds ``frontier_size`` configurations, then DFS on each of them in turn."""
    level = root[None, :]
    while 0 < len(level) < frontier_size and not tally.full:
        if tally.nodes >= max_nodes or tally.stopped:
            return False
        level = _expand_level(tree, level, tally)
    for part in level:
        if tally.full:
            break
        remaining = max_nodes - tally.nodes
        if remaining <= 0:
            return False
        status, solutions, stats = tree.search_part(part, tally.limit - tally.count, tally.keep, remaining,
                                                    tally.stop)
        tally.add_stats(stats)
        tally.add_solutions(solutions, int(stats[codes.STAT_SOLUTIONS]))
        if status in _CUT:
            return False
    return True


def _expand_level(tree: Tree, level, tally: Tally):
    """Expand one BFS level: count its complete children, return the open ones (one node per configuration
    expanded and per child made)."""
    children, kinds = tree.expand_level(level)
    tally.nodes += len(level) + len(children)
    open_children, solved = split_solved(children, kinds)
    tally.add_solutions(solved, len(solved))
    return open_children


SEQUENTIAL = {"dfs": run_dfs, "bfs": run_bfs, "mixed": run_mixed}
