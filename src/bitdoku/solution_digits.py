"""True candidates (``bitdoku.true_candidates``): for each cell, the digits it holds in at least one solution.

What setters look at while making a puzzle: where the true candidates are one digit the puzzle is settled, and the
cells with two or more show where it is not unique yet. Each digit is decided by a search: a solution with the
digit placed proves it (and every other digit of that solution at once), a search that finds none rules it out.
So a unique puzzle costs one search a candidate left by its givens, and a puzzle with many solutions far fewer.

>>> found = true_candidates("1..." "...." "...." "...4")
>>> found.digits(1), found.digits(15), found.complete, found.is_unique
([2, 3, 4], [4], True, False)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bitdoku.engines.result import Status
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid, Puzzle, as_grid
from bitdoku.shape import Shape
from bitdoku.solver import search
from bitdoku.timelimit import check_seconds

#: Nodes one candidate's search may take by default (9x9 classic searches take a few hundred).
DEFAULT_NODES_A_CANDIDATE = 200_000


@dataclass(frozen=True)
class TrueCandidates:
    """Each cell's true candidates as a mask (bit d-1 for digit d; a given's is its digit), and whether every
    digit was decided (``complete``: no search ran out of budget or time; where one did, its digit is left out
    and ``undecided`` lists it as (cell, digit))."""

    grid: Grid
    masks: tuple[int, ...]
    undecided: tuple[tuple[int, int], ...] = ()

    @property
    def complete(self) -> bool:
        return not self.undecided

    @property
    def has_solution(self) -> bool:
        return all(self.masks)

    @property
    def is_unique(self) -> bool:
        """One digit a cell, every digit decided: the puzzle has exactly one solution."""
        return self.complete and all(mask and mask & (mask - 1) == 0 for mask in self.masks)

    def digits(self, cell: int) -> list[int]:
        """The true candidates of a cell (0-based, reading order), smallest first."""
        return [d for d in range(1, self.grid.n + 1) if self.masks[cell] >> (d - 1) & 1]


def true_candidates(
    puzzle: Puzzle,
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    shape: Shape | str | None = None,
    variant: str | Geometry | None = None,
) -> TrueCandidates:
    """For each cell, the digits it holds in at least one solution of the puzzle (every engine's rules: a Killer's
    cages, a variant's units); no digit in its open cells when it has no solution.

    ``max_nodes`` bounds each candidate's search (default ``DEFAULT_NODES_A_CANDIDATE``) and ``time_limit`` the
    whole call in seconds; a digit whose search ran out is left undecided (``TrueCandidates.undecided``), never
    guessed. Raises ``InvalidGridError`` when the givens break a rule.
    """
    grid = as_grid(puzzle, shape, variant).validate()
    budget = DEFAULT_NODES_A_CANDIDATE if max_nodes is None else max_nodes
    seconds = check_seconds(time_limit)
    deadline = None if seconds is None else time.monotonic() + seconds
    masks = [1 << (value - 1) if value else 0 for value in grid.cells]
    undecided: list[tuple[int, int]] = []
    for cell, value in enumerate(grid.cells):
        if value:
            continue
        open_digits = grid.candidates_mask(cell) & ~masks[cell]
        for digit in range(1, grid.n + 1):
            if not open_digits >> (digit - 1) & 1 or masks[cell] >> (digit - 1) & 1:
                continue  # ruled out by a peer, or proven by an earlier solution
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            result = search(grid.with_digit(cell, digit), limit=1, keep=1, max_nodes=budget, time_limit=left)
            if result.solution is not None:
                for other, found in enumerate(result.solution.cells):
                    masks[other] |= 1 << (found - 1)
            elif result.status is Status.LIMIT:
                undecided.append((cell, digit))
    return TrueCandidates(grid, tuple(masks), tuple(undecided))
