"""Random complete grids of any shape, from a seed: the first step of making a puzzle."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import numpy as np
from numpy.typing import NDArray

from bitdoku.engines.bitmask import geometry_kernel_tables, shape_kernel_tables
from bitdoku.engines.result import default_max_nodes
from bitdoku.errors import SearchLimitError
from bitdoku.generate.budget import Budget, BudgetSpent
from bitdoku.generate.seeds import Seed, puzzle_stream, root_sequence
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.kernels.fill import random_solution as fill_kernel
from bitdoku.kernels.status import LIMIT_REACHED
from bitdoku.kernels.variant import workspace_for
from bitdoku.shape import Shape

if TYPE_CHECKING:
    from bitdoku.engines.bitmask import KernelTables

    #: A search's reusable arrays (``kernels.variant.workspace_for``): a tuple of them, or an empty array for the
    #: bitboard kernel, which keeps its own stack.
    Workspace: TypeAlias = tuple[NDArray[np.generic], ...] | NDArray[np.uint8]

#: The most nodes one kernel call may spend, so that a driver checks its deadline between calls.
CALL_NODES = 20_000


def random_solution(
    shape: Shape | str = "3x3", *, seed: Seed = None, max_nodes: int | None = None, time_limit: float | None = None,
    variant: str | Geometry | None = None,
) -> Grid:
    """A random complete grid, found by a randomised search from the empty grid with restarts.

    Parameters
    ----------
    shape : Shape or str
        The box shape (``'3x3'`` for a classic 9x9 grid).
    seed : int, numpy Generator or None
        The same seed gives the same grid.
    max_nodes : int, optional
        The search budget (default: ``bitdoku.engines.result.default_max_nodes(shape)``).
    time_limit : float, optional
        Seconds the search may take (default: no limit beyond ``max_nodes``); checked between kernel calls of
        bounded work, so it is kept to within a fraction of a second.
    variant : str or Geometry, optional
        The rules the grid keeps (``bitdoku.geometry``): ``"x"``, ``"windoku+anti-king"``, a jigsaw ``Geometry``.

    Raises
    ------
    SearchLimitError
        When the budget runs out first (only plausible for the largest shapes with a small budget).

    Example
    -------
    >>> grid = random_solution("2x3", seed=7)
    >>> grid.is_solved(), grid == random_solution("2x3", seed=7)
    (True, True)
    """
    geometry = variant if isinstance(variant, Geometry) else Geometry.parse(variant, shape)
    shape = geometry.shape
    tables = geometry_kernel_tables(geometry)
    budget = Budget(default_max_nodes(shape) if max_nodes is None else max_nodes,
                    float("inf") if time_limit is None else time_limit)
    rng = puzzle_stream(root_sequence(seed), 0)
    try:
        cells = fill(shape, rng, budget, workspace_for(shape.n, tables[2]), tables)
    except BudgetSpent:
        raise SearchLimitError(budget.nodes, 0) from None
    finally:
        budget.close()
    return Grid(cells.tobytes(), shape, geometry)


def fill(shape: Shape, rng: NDArray[np.uint64], budget: Budget, workspace: Workspace,
         tables: KernelTables | None = None) -> NDArray[np.uint8]:
    """A random solution as a uint8 array, drawing from ``rng`` and charging ``budget``, in kernel calls short
    enough for the budget's deadline to be checked between them (``BudgetSpent`` when it runs out). ``tables``:
    a variant's (``Request.tables``; ``workspace`` from ``variant.workspace_for``), else the shape's."""
    units, cell_units, peers = shape_kernel_tables(shape) if tables is None else tables
    out = np.zeros(shape.n_cells, dtype=np.uint8)
    call_nodes = max(CALL_NODES, 4 * shape.n_cells)
    while True:
        code, spent = fill_kernel(rng, shape.n, units, cell_units, peers, min(call_nodes, budget.nodes_left()), out,
                                  workspace, budget.stop)
        if code == LIMIT_REACHED:
            budget.nodes += int(spent)  # found: the grid counts even if it took the last nodes
            return out
        budget.charge(spent)
