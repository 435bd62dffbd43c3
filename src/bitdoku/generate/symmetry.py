"""Symmetric clue patterns: the symmetries a generator can keep, and the orbits of cells they make.

A symmetry here is a set of motions of the N x N square (turns and reflections). A puzzle has it when its clue
pattern is unchanged by every motion of the set; the digits don't matter, and boxes don't either, so every shape
has every symmetry, 6x6 grids with 2x3 boxes included. Clues are removed an *orbit* at a time (a cell and the
cells the motions take it to), so the pattern stays symmetric throughout.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from functools import cache

import numpy as np
from numpy.typing import NDArray

from bitdoku.grid import Puzzle, as_grid
from bitdoku.shape import Shape

Motion = Callable[[int, int, int], tuple[int, int]]  # (row, col, n) -> (row, col)


class Symmetry(str, enum.Enum):
    """The symmetries of a clue pattern (names as puzzle makers use them)."""

    NONE = "none"  # no constraint
    ROTATIONAL = "rotational"  # a half turn: the classic newspaper symmetry
    QUARTER_TURN = "quarter-turn"  # quarter turns: the pattern looks the same from all four sides
    MIRROR = "mirror"  # left-right reflection
    FLIP = "flip"  # top-bottom reflection
    DIAGONAL = "diagonal"  # reflection in the main diagonal (top left to bottom right)
    ANTIDIAGONAL = "antidiagonal"  # reflection in the other diagonal
    DIHEDRAL = "dihedral"  # all eight turns and reflections at once

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, name: str | Symmetry) -> Symmetry:
        """A symmetry from its name (``'rotational'``), or a ``ValueError`` that lists the names."""
        try:
            return cls(name)
        except ValueError:
            names = ", ".join(member.value for member in cls)
            raise ValueError(f"unknown symmetry {name!r}; symmetries are {names}") from None


def _half_turn(row: int, col: int, n: int) -> tuple[int, int]:
    return n - 1 - row, n - 1 - col


def _quarter_turn(row: int, col: int, n: int) -> tuple[int, int]:
    return col, n - 1 - row


def _mirror(row: int, col: int, n: int) -> tuple[int, int]:
    return row, n - 1 - col


def _flip(row: int, col: int, n: int) -> tuple[int, int]:
    return n - 1 - row, col


def _diagonal(row: int, col: int, n: int) -> tuple[int, int]:
    return col, row


def _antidiagonal(row: int, col: int, n: int) -> tuple[int, int]:
    return n - 1 - col, n - 1 - row


#: The motions that generate each symmetry's group (the orbits are closed under them).
GENERATORS: dict[Symmetry, tuple[Motion, ...]] = {
    Symmetry.NONE: (),
    Symmetry.ROTATIONAL: (_half_turn,),
    Symmetry.QUARTER_TURN: (_quarter_turn,),
    Symmetry.MIRROR: (_mirror,),
    Symmetry.FLIP: (_flip,),
    Symmetry.DIAGONAL: (_diagonal,),
    Symmetry.ANTIDIAGONAL: (_antidiagonal,),
    Symmetry.DIHEDRAL: (_quarter_turn, _mirror),
}


def orbits(shape: Shape | str, symmetry: Symmetry | str) -> NDArray[np.int32]:
    """The orbits of the cells under a symmetry, one a row, padded with -1 (the kernels' ``orbits`` table).

    Example
    -------
    >>> orbits("2x2", "rotational")[:3].tolist()
    [[0, 15], [1, 14], [2, 13]]
    >>> orbits("3x3", "dihedral").shape
    (15, 8)
    """
    return _orbits(Shape.parse(shape), Symmetry.parse(symmetry))


@cache
def _orbits(shape: Shape, symmetry: Symmetry) -> NDArray[np.int32]:
    """``orbits``, cached per shape and symmetry (pure); the table is read-only."""
    n = shape.n
    owner = np.full(shape.n_cells, -1, dtype=np.int64)
    groups: list[list[int]] = []
    for cell in range(shape.n_cells):
        if owner[cell] >= 0:
            continue
        members = [cell]
        owner[cell] = len(groups)
        for member in members:  # grows as the motions reach new cells: a closure
            for motion in GENERATORS[symmetry]:
                row, col = motion(*divmod(member, n), n)
                image = row * n + col
                if owner[image] < 0:
                    owner[image] = len(groups)
                    members.append(image)
        groups.append(sorted(members))
    width = max(len(group) for group in groups)
    table = np.full((len(groups), width), -1, dtype=np.int32)
    for index, group in enumerate(groups):
        table[index, : len(group)] = group
    table.flags.writeable = False
    return table


def has_symmetry(puzzle: Puzzle, symmetry: Symmetry | str, *, shape: Shape | str | None = None) -> bool:
    """Whether the clue pattern of a puzzle (any form of it, ``grid.Puzzle``) is unchanged by the symmetry.

    Example
    -------
    >>> has_symmetry("1..." "...." "...." "...2", "rotational")
    True
    >>> has_symmetry("1..." "...." "...." "...2", "mirror")
    False
    """
    puzzle = as_grid(puzzle, shape)
    given = np.frombuffer(puzzle.cells, dtype=np.uint8) != 0
    table = orbits(puzzle.shape, symmetry)
    members = table >= 0
    given_in_orbit = np.where(members, given[np.where(members, table, 0)], False)
    count = given_in_orbit.sum(axis=1)
    return bool(np.all((count == 0) | (count == members.sum(axis=1))))


def reachable_clue_counts(shape: Shape | str, symmetry: Symmetry | str) -> NDArray[np.bool_]:
    """For each clue count 0..N*N, whether some union of orbits has exactly that many cells.

    >>> counts = reachable_clue_counts("3x3", "quarter-turn")
    >>> bool(counts[20]), bool(counts[21]), bool(counts[22])
    (True, True, False)
    """
    table = orbits(shape, symmetry)
    sizes = (table >= 0).sum(axis=1)
    reachable = np.zeros(int(sizes.sum()) + 1, dtype=bool)
    reachable[0] = True
    for size in sizes:  # subset sums, one orbit at a time
        reachable[size:] |= reachable[:-size].copy()
    return reachable
