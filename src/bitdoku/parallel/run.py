"""Run a strategy on one puzzle and report it as a ``SearchResult``, like every other search."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from bitdoku.engines.result import SearchResult, SearchStats, Status, conflict_result, status_of
from bitdoku.grid import Grid
from bitdoku.kernels import status as codes
from bitdoku.parallel.portfolio import run_portfolio
from bitdoku.parallel.strategies import SEQUENTIAL
from bitdoku.parallel.threads import THREADED
from bitdoku.parallel.tree import Tally, Tree, tree_of
from bitdoku.timelimit import TimeLimit

PARALLEL: dict[str, Callable[[Tree, NDArray[np.uint8], Tally, int, int], bool]] = {
    **THREADED,
    "portfolio": lambda tree, root, tally, max_nodes, threads: run_portfolio(tree, root, tally, max_nodes,
                                                                             threads=threads),
}
STRATEGIES = (*SEQUENTIAL, *PARALLEL)


def search_tree(
    puzzle: Grid, *, strategy: str, limit: int, keep: int, max_nodes: int, threads: int | None = None,
    rules: int = codes.ALL_RULES, slice_nodes: int | None = None, time_limit: float | None = None,
) -> SearchResult:
    """Search ``puzzle`` with a named strategy (``bitdoku.parallel.run.STRATEGIES``) on ``threads`` threads,
    for at most ``time_limit`` seconds (None: no limit): the kernels of the parts under way read the limit's stop
    flag, and no part starts after it is set."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; strategies are {', '.join(STRATEGIES)}")
    invalid = conflict_result(puzzle)
    if invalid is not None:
        return invalid
    tree, tally, root = start_tree(puzzle, limit=limit, keep=keep, rules=rules, slice_nodes=slice_nodes)
    with TimeLimit(time_limit) as clock:
        tally.stop = clock.stop
        if strategy in SEQUENTIAL:
            finished = SEQUENTIAL[strategy](tree, root, tally, max_nodes)
        else:
            from bitdoku.batch import default_threads

            finished = PARALLEL[strategy](tree, root, tally, max_nodes, threads or default_threads())
    return result_of(puzzle, tally, finished, max_nodes, clock)


def start_tree(
    puzzle: Grid, *, limit: int, keep: int, rules: int, slice_nodes: int | None
) -> tuple[Tree, Tally, NDArray[np.uint8]]:
    """What every tree strategy starts from: the puzzle's tree (its shape's, or its cages' for a Killer), an empty
    tally, the root cells."""
    root = np.frombuffer(puzzle.cells, dtype=np.uint8).copy()
    return tree_of(puzzle, rules, slice_nodes), Tally(limit=limit, keep=keep), root


def result_of(puzzle: Grid, tally: Tally, finished: bool, max_nodes: int,
              clock: TimeLimit | None = None) -> SearchResult:
    """The ``SearchResult`` of a tally: ``LIMIT`` when the budget or the time limit (``clock``, when the search
    had one) ran out before the limit was reached."""
    stats = SearchStats(nodes=tally.nodes, guesses=tally.guesses, backtracks=tally.backtracks)
    solutions = tuple(puzzle.with_cells(row.tobytes()) for row in tally.solutions)
    if not finished and not tally.full:
        if clock is not None and clock.seconds is not None and clock.reached:
            reason = clock.reason(tally.count, tally.nodes)
            return SearchResult(Status.LIMIT, tally.count, solutions, stats, reason, clock.seconds)
        reason = f"node budget of {max_nodes:,} spent"
        return SearchResult(Status.LIMIT, tally.count, solutions, stats, reason)
    return SearchResult(status_of(tally.count, tally.limit), tally.count, solutions, stats)
