"""Clue removal and minimality: the Python side of ``kernels/dig.py``.

``remove_clues`` drives the compiled removal pass in calls of bounded work (so deadlines and Ctrl-C are honoured
between them); ``removable_clues`` and ``is_minimal`` answer the question a puzzle maker asks of any puzzle:
could a clue go?
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np
from numpy.typing import NDArray

from bitdoku.engines.bitmask import geometry_kernel_tables, shape_kernel_tables
from bitdoku.engines.result import Status, default_max_nodes
from bitdoku.errors import InvalidGridError, SearchLimitError
from bitdoku.generate.budget import Budget
from bitdoku.geometry import Geometry
from bitdoku.grid import Puzzle, as_grid
from bitdoku.kernels import dig
from bitdoku.kernels.status import ALL_RULES, HIDDEN_SINGLES, LIMIT_REACHED, NAKED_SINGLES
from bitdoku.shape import Shape
from bitdoku.solver import search

if TYPE_CHECKING:
    from bitdoku.engines.bitmask import KernelTables

#: The rules of a uniqueness check that may take as many nodes as it needs, on a classic grid: naked and hidden
#: singles, whose nodes are cheaper than with locked candidates too (the generic kernel; 9x9 always runs its own
#: full set). Variants check with every rule (``exact_check_rules``).
EXACT_CHECK_RULES = NAKED_SINGLES | HIDDEN_SINGLES


def exact_check_rules(geometry: Geometry) -> int:
    """The rules of an uncapped uniqueness check on ``geometry``: ``EXACT_CHECK_RULES`` for a classic grid, all
    rules for a variant, whose extra units make locked candidates pay many times over (9x9 minimal anti-knight
    puzzles: 7,466 check nodes an attempt with singles alone, 1,030 with locked candidates, 3.3x the puzzles a
    second; jigsaw 4-6x; benchmarks/results/variant_nodes.md)."""
    return EXACT_CHECK_RULES if geometry.is_classic else ALL_RULES
#: The most nodes one removal call may spend before it returns to the driver (well under a second).
CALL_NODES = 20_000


@dataclass
class RemovalCounters:
    """What a removal pass did: uniqueness checks, their nodes, checks cut off by their budget, clues removed."""

    checks: int = 0
    nodes: int = 0
    undecided: int = 0
    removed: int = 0

    def add(self, counters: NDArray[np.int64]) -> None:
        self.checks += int(counters[dig.DIG_CHECKS])
        self.nodes += int(counters[dig.DIG_NODES])
        self.undecided += int(counters[dig.DIG_UNDECIDED])
        self.removed += int(counters[dig.DIG_REMOVED])


def remove_clues(
    solution: NDArray[np.uint8],
    shape: Shape,
    orbits: NDArray[np.int32],
    order: NDArray[np.int32],
    *,
    target: int,
    check_nodes: int,
    check_rules: int,
    budget: Budget,
    tables: KernelTables | None = None,
) -> tuple[NDArray[np.uint8], RemovalCounters]:
    """Start from the full ``solution`` and remove the orbits in ``order`` while the puzzle stays unique, down to
    ``target`` clues at the fewest; charges ``budget`` (``BudgetSpent`` when it runs out). ``tables``: a variant's
    (``engines.bitmask.geometry_kernel_tables``), else the shape's."""
    units, cell_units, peers = shape_kernel_tables(shape) if tables is None else tables
    puzzle = solution.copy()
    counters = np.zeros(dig.N_DIG_COUNTERS, dtype=np.int64)
    total = RemovalCounters()
    position = 0
    while position < len(order):
        counters[:] = 0
        position = dig.remove_clues(puzzle, solution, shape.n, units, cell_units, peers, orbits, order, position,
                                    target, min(check_nodes, budget.nodes_left()), check_rules, CALL_NODES,
                                    counters, budget.stop)
        total.add(counters)
        budget.charge(counters[dig.DIG_NODES])
    return puzzle, total


def removable_clues(puzzle: Puzzle, *, max_nodes: int | None = None, shape: Shape | str | None = None,
                    variant: str | Geometry | None = None) -> list[int]:
    """The cells (0-based) of the clues that could each be removed with the puzzle staying unique.

    ``puzzle`` is any form of a puzzle (``grid.Puzzle``: a ``Grid``, text, cells in a list or an array; ``shape``
    and ``variant`` for the forms that do not say them).

    Empty for a minimal puzzle; a variant's clues are checked under its rules. Raises ``InvalidGridError`` unless
    the puzzle has exactly one solution, and ``SearchLimitError`` if a check needs more than ``max_nodes`` nodes
    (default: the shape's search budget).

    Example
    -------
    >>> removable_clues("..3." ".4.2" "214." "....")
    [8, 10]
    """
    puzzle = as_grid(puzzle, shape, variant)
    budget = default_max_nodes(puzzle.shape) if max_nodes is None else max_nodes
    result = search(puzzle, limit=2, max_nodes=budget)
    if result.status is not Status.UNIQUE:
        if result.status is Status.LIMIT:
            raise SearchLimitError(budget, result.count, result.stats)
        raise InvalidGridError(f"only a unique puzzle can be minimal, and this one is {result.status}")
    units, cell_units, peers = geometry_kernel_tables(puzzle.geometry)
    cells = np.frombuffer(puzzle.cells, dtype=np.uint8).copy()
    solution = np.frombuffer(result.solution.cells, dtype=np.uint8).copy()  # type: ignore[union-attr]
    removable = np.zeros(puzzle.shape.n_cells, dtype=np.bool_)
    counters = np.zeros(dig.N_DIG_COUNTERS, dtype=np.int64)
    code = dig.removable_clues(cells, solution, puzzle.shape.n, units, cell_units, peers, budget,
                               exact_check_rules(puzzle.geometry),
                               removable, counters, np.zeros(1, np.int64))
    if code == LIMIT_REACHED:  # a check spent its budget: some clue is undecided
        raise SearchLimitError(budget, 1)
    # numpy's stubs give ``tolist`` Any under mypy's ``python_version = "3.10"`` (list[int] under 3.11)
    return cast("list[int]", np.flatnonzero(removable).tolist())


def is_minimal(puzzle: Puzzle, *, max_nodes: int | None = None, shape: Shape | str | None = None,
               variant: str | Geometry | None = None) -> bool:
    """Whether a unique puzzle loses its uniqueness without any one of its clues (see ``removable_clues``, which
    takes the same arguments).

    Example
    -------
    >>> is_minimal("..3." ".4.2" "214." "....")  # r3c1 and r3c3 could each go
    False
    >>> is_minimal(".23." "...." "2..4" "....")
    True
    """
    return not removable_clues(puzzle, max_nodes=max_nodes, shape=shape, variant=variant)
