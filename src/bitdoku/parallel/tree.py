"""The tree of configurations as the strategies see it: expand one node, or search one part to the end.

Both calls run compiled kernels that release the GIL, so threads that call them run in parallel. A *part*
search has its own node budget (a slice): when the slice is spent the part is expanded instead and its children
go back to the scheduler, which is how long searches stay cancellable and balanced.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from bitdoku.engines import killer
from bitdoku.engines.bitmask import kernel_tables
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.kernels import status as codes
from bitdoku.kernels.dfs import has_restarted_search, restarted_first_solution
from bitdoku.kernels.dfs import search as search_kernel
from bitdoku.kernels.frontier import SOLVED, expand, expand_rows
from bitdoku.shape import Shape

#: The node slice of a Killer part: the kernel of cages visits ~50,000 nodes a second, so about 0.1 s.
KILLER_SLICE_NODES = 5_000
#: The stop flag of a part searched without one: never set, only read.
_NEVER_STOPPED = np.zeros(1, np.int64)


@dataclass
class Tally:
    """What a strategy has found so far: solutions counted and kept, and the kernels' counters.

    ``stop`` is the search's stop flag (``bitdoku.timelimit.TimeLimit.stop``): the kernels of its parts read it,
    and the schedulers hand out no more work once it is set."""

    limit: int
    keep: int
    count: int = 0
    solutions: list[NDArray[np.uint8]] = field(default_factory=list)
    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0
    stop: NDArray[np.int64] = field(default_factory=lambda: np.zeros(1, np.int64))

    @property
    def stopped(self) -> bool:
        """Whether the stop flag is set (the time limit ran out): the search ends where it is."""
        return bool(self.stop[0] != 0)

    def spent(self, max_nodes: int) -> bool:
        """Whether the search must end unfinished: ``max_nodes`` nodes counted, or the stop flag set."""
        return self.nodes >= max_nodes or self.stopped

    @property
    def full(self) -> bool:
        """Whether ``limit`` solutions were found: the search can stop."""
        return self.count >= self.limit

    def add_solutions(self, grids: NDArray[np.uint8], count: int) -> None:
        """Count ``count`` solutions (at most up to the limit) and keep the first rows of ``grids``."""
        count = min(count, self.limit - self.count)
        self.count += count
        for row in grids[: max(0, min(count, self.keep - len(self.solutions)))]:
            self.solutions.append(row.copy())

    def add_stats(self, stats: NDArray[np.int64]) -> None:
        self.nodes += int(stats[codes.STAT_NODES])
        self.guesses += int(stats[codes.STAT_GUESSES])
        self.backtracks += int(stats[codes.STAT_BACKTRACKS])


class TreeSpec(NamedTuple):
    """What rebuilds a tree in another thread or on a Dask worker (small, picklable, hashable): the box shape of
    a classic grid or the geometry of a Killer, the rules' flags and the node slice."""

    layout: Shape | Geometry
    rules: int
    slice_nodes: int


class Tree:
    """One puzzle's configuration tree: its shape's tables, the rules, and a per-part node budget."""

    def __init__(self, shape: Shape, rules: int = codes.ALL_RULES, slice_nodes: int | None = None) -> None:
        self.shape = shape
        self.rules = rules
        self.tables = kernel_tables(shape)
        # The 9x9 kernel visits ~3 million nodes a second and the generic one ~150,000: about 0.15 s a slice,
        # which bounds how long a found solution takes to cancel the other threads.
        self.slice_nodes = slice_nodes or (500_000 if shape.n == 9 else 20_000)

    @property
    def spec(self) -> TreeSpec:
        """What ``tree_from`` rebuilds this tree from."""
        return TreeSpec(self.shape, self.rules, self.slice_nodes)

    def expand(self, cells: NDArray[np.uint8]) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
        """The children of a configuration (open ones and complete ones), as arrays."""
        n = self.shape.n
        children = np.empty((n, self.shape.n_cells), dtype=np.uint8)
        kinds = np.empty(n, dtype=np.int8)
        count = expand(cells, *self.tables, self.rules, children, kinds)
        return children[:count], kinds[:count]

    def expand_level(self, frontier: NDArray[np.uint8]) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
        """The children of every configuration of a BFS level."""
        k = len(frontier)
        children = np.empty((k * self.shape.n, self.shape.n_cells), dtype=np.uint8)
        kinds = np.empty(k * self.shape.n, dtype=np.int8)
        parents = np.empty(k * self.shape.n, dtype=np.int32)
        count = expand_rows(frontier, *self.tables, self.rules, children, kinds, parents)
        return children[:count], kinds[:count]

    def search_part(
        self, cells: NDArray[np.uint8], limit: int, keep: int, max_nodes: int, stop: NDArray[np.int64] | None = None
    ) -> tuple[int, NDArray[np.uint8], NDArray[np.int64]]:
        """Search one part to the end within ``max_nodes``, or until ``stop[0]`` is set (``STOPPED``, with the
        solutions found so far): (kernel status, solutions kept, stats)."""
        solutions = np.empty((min(keep, limit), self.shape.n_cells), dtype=np.uint8)
        stats = np.zeros(codes.N_STATS, dtype=np.int64)
        status = search_kernel(cells, *self.tables, limit, max_nodes, self.rules, solutions, stats, stop)
        return status, solutions[: min(int(stats[codes.STAT_SOLUTIONS]), len(solutions))], stats

    @property
    def has_restarts(self) -> bool:
        """Whether ``first_solution`` applies to this shape (every box shape but the classic 9x9)."""
        return cast(bool, has_restarted_search(self.shape.n, self.tables[1], self.rules))

    def first_solution(
        self, cells: NDArray[np.uint8], seed: int, max_nodes: int, stop: NDArray[np.int64]
    ) -> tuple[int, NDArray[np.uint8], NDArray[np.int64]] | None:
        """A first solution by restarted random runs from ``seed``, ended early once ``stop[0]`` is set: (kernel
        status, the solution if found, stats), or ``None`` when this shape has no restarted search (9x9)."""
        solutions = np.empty((1, self.shape.n_cells), dtype=np.uint8)
        stats = np.zeros(codes.N_STATS, dtype=np.int64)
        status = restarted_first_solution(cells, *self.tables, max_nodes, self.rules, solutions, stats,
                                          seed, stop)
        if status is None:
            return None
        return status, solutions[: int(stats[codes.STAT_SOLUTIONS])], stats


class KillerTree(Tree):
    """The configuration tree of a Killer grid: the kernel of cages searches its parts and ``cage_tree`` expands
    them, under the cages of ``geometry`` (a Killer has no restarted search: ``first_solution`` is ``None``)."""

    def __init__(self, geometry: Geometry, slice_nodes: int | None = None) -> None:
        super().__init__(geometry.shape, codes.ALL_RULES, slice_nodes or KILLER_SLICE_NODES)
        self.geometry = geometry
        tables = geometry.cage_tables
        self.cage_tables = (tables.peer_start, tables.peers, tables.units, tables.cell_units, geometry.shape.n,
                            tables.cage_start, tables.cage_cells, tables.combo_start, tables.combos,
                            tables.arc_start, tables.arcs, tables.arc_masks, tables.arc_pairs)

    @property
    def spec(self) -> TreeSpec:
        return TreeSpec(self.geometry, self.rules, self.slice_nodes)

    def expand(self, cells: NDArray[np.uint8]) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
        return self.expand_level(cells[None, :])

    def expand_level(self, frontier: NDArray[np.uint8]) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
        from bitdoku.kernels.cage_tree import expand_rows as expand_killer_rows  # compiled on first use only

        k, n = len(frontier), self.shape.n
        children = np.empty((k * n, self.shape.n_cells), dtype=np.uint8)
        kinds = np.empty(k * n, dtype=np.int8)
        parents = np.empty(k * n, dtype=np.int32)
        count = expand_killer_rows(frontier, *self.cage_tables, children, kinds, parents)
        return children[:count], kinds[:count]

    def search_part(
        self, cells: NDArray[np.uint8], limit: int, keep: int, max_nodes: int, stop: NDArray[np.int64] | None = None
    ) -> tuple[int, NDArray[np.uint8], NDArray[np.int64]]:
        solutions = np.zeros((max(1, min(keep, limit)), self.shape.n_cells), dtype=np.int8)
        stats = np.zeros(codes.N_STATS, dtype=np.int64)
        part = Grid(cells.tobytes(), self.shape, self.geometry)
        status = killer.run_kernel(part, limit, max_nodes, solutions, stats,
                                   _NEVER_STOPPED if stop is None else stop)
        found = min(int(stats[codes.STAT_SOLUTIONS]), keep, limit)
        return status, solutions[:found].astype(np.uint8), stats

    @property
    def has_restarts(self) -> bool:
        return False

    def first_solution(
        self, cells: NDArray[np.uint8], seed: int, max_nodes: int, stop: NDArray[np.int64]
    ) -> tuple[int, NDArray[np.uint8], NDArray[np.int64]] | None:
        return None


def tree_of(puzzle: Grid, rules: int = codes.ALL_RULES, slice_nodes: int | None = None) -> Tree:
    """The tree that searches ``puzzle``: a Killer's under its cages, else its box shape's (classic rules)."""
    if puzzle.geometry.uses_cage_kernel:
        return KillerTree(puzzle.geometry, slice_nodes)
    return Tree(puzzle.shape, rules, slice_nodes)


@lru_cache(maxsize=32)
def tree_from(spec: TreeSpec) -> Tree:
    """The tree a ``TreeSpec`` describes, built once a process (a worker runs many parts of one tree)."""
    if isinstance(spec.layout, Geometry):
        return KillerTree(spec.layout, spec.slice_nodes)
    return Tree(spec.layout, spec.rules, spec.slice_nodes)


def split_solved(children: NDArray[np.uint8], kinds: NDArray[np.int8]) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Separate complete children (solutions) from open ones."""
    solved = kinds == SOLVED
    return children[~solved], children[solved]
