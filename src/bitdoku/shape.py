"""Box shapes and the geometry tables that every layer reads.

A grid with boxes of ``box_rows x box_cols`` cells has N = box_rows * box_cols digits and N*N cells. Its
geometry is data, not code: a table of *units* (each a list of N cells), the units of each cell, and the
peers of each cell. Engines and kernels only read these tables, so a variant (a diagonal, irregular regions)
is a new table, not a new code path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from bitdoku.errors import ShapeError

MIN_DIGITS = 4
MAX_DIGITS = 64

#: Conventions for sizes whose box shape is not a square: 6x6 has 2x3 boxes, 12x12 has 3x4, and so on.
_ALPHABET_LIMIT = 35


class Tables(NamedTuple):
    """The geometry of one shape as read-only NumPy arrays (int32 cell and unit indices).

    ``units[u]`` lists the N cells of unit u: rows are units 0..N-1, columns N..2N-1 and boxes 2N..3N-1.
    ``cell_units[cell]`` gives the row, column and box unit of a cell. ``peers[cell]`` lists the
    3N - box_rows - box_cols - 1 other cells that share a unit with it.
    """

    units: NDArray[np.int32]
    cell_units: NDArray[np.int32]
    peers: NDArray[np.int32]


@dataclass(frozen=True, order=True)
class Shape:
    """The box shape of a grid: ``Shape(3, 3)`` is the classic 9x9 Sudoku, ``Shape(2, 3)`` a 6x6 one.

    Example
    -------
    >>> s = Shape(2, 3)
    >>> s.n, s.n_cells, str(s), s.size_name
    (6, 36, '2x3', '6x6')
    >>> Shape.infer(81)
    Shape(3, 3)
    """

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        for name in ("box_rows", "box_cols"):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
                raise ShapeError(f"{name} must be a positive integer, not {value!r}")
        n = self.box_rows * self.box_cols
        if self.box_rows < 2 or self.box_cols < 2 or not MIN_DIGITS <= n <= MAX_DIGITS:
            raise ShapeError(
                f"boxes of {self.box_rows}x{self.box_cols} make no grid bitdoku supports; "
                f"boxes need at least 2 rows and 2 columns and {MIN_DIGITS} to {MAX_DIGITS} cells"
            )

    def __repr__(self) -> str:
        return f"Shape({self.box_rows}, {self.box_cols})"

    def __str__(self) -> str:
        return f"{self.box_rows}x{self.box_cols}"

    @property
    def n(self) -> int:
        """The number of digits, which is also the length of a row, a column and a box."""
        return self.box_rows * self.box_cols

    @property
    def n_cells(self) -> int:
        """The number of cells, N*N."""
        return self.n * self.n

    @property
    def size_name(self) -> str:
        """The grid size as people say it: ``'9x9'``."""
        return f"{self.n}x{self.n}"

    @property
    def uses_alphabet(self) -> bool:
        """Whether one character a cell can write every digit (N <= 35: ``1-9A-Z``)."""
        return self.n <= _ALPHABET_LIMIT

    @property
    def tables(self) -> Tables:
        """Units, cell units and peers (cached per shape; the arrays are read-only)."""
        return _tables(self.box_rows, self.box_cols)

    def box_of(self, row: int, col: int) -> int:
        """The 0-based box index of a cell, boxes numbered left to right, top to bottom."""
        return (row // self.box_rows) * self.box_rows + col // self.box_cols

    def unit_name(self, unit: int) -> str:
        """``'row 3'``, ``'column 5'`` or ``'box 2'`` (1-based) for a unit index."""
        kind, index = divmod(unit, self.n)
        return f"{('row', 'column', 'box')[kind]} {index + 1}"

    @classmethod
    def parse(cls, text: str | Shape) -> Shape:
        """Read ``'3x3'`` (box rows x box columns) or pass a ``Shape`` through."""
        if isinstance(text, Shape):
            return text
        parts = [part.strip() for part in str(text).lower().replace("*", "x").split("x")]
        if len(parts) != 2 or not all(part.isdecimal() for part in parts):  # what int() reads, unlike isdigit
            raise ShapeError(f"a shape is written as box rows x box columns, like '3x3' or '2x3', not {text!r}")
        return cls(int(parts[0]), int(parts[1]))

    @classmethod
    def for_digits(cls, n: int) -> Shape:
        """The conventional box shape of an N x N grid: square boxes, else the squarest with fewer rows."""
        root = math.isqrt(n)
        for rows in range(root, 1, -1):
            if n % rows == 0 and MIN_DIGITS <= n <= MAX_DIGITS:
                return cls(rows, n // rows)
        raise ShapeError(
            f"a {n}x{n} grid has no box shape; sizes that fit: {', '.join(supported_sizes())}"
        )

    @classmethod
    def infer(cls, n_cells: int) -> Shape:
        """The shape of a grid of ``n_cells`` cells, or a ``ShapeError`` that names the sizes that fit."""
        return _infer(n_cells)


def supported_sizes() -> list[str]:
    """Every grid size with a box shape, as ``'9x9'`` strings in increasing order."""
    sizes = []
    for n in range(MIN_DIGITS, MAX_DIGITS + 1):
        if any(n % r == 0 for r in range(2, math.isqrt(n) + 1)):
            sizes.append(f"{n}x{n}")
    return sizes


def _nearest_sizes(n_cells: int) -> str:
    """Name the grid sizes closest to a wrong cell count, so the fix is obvious."""
    counts = sorted(
        (abs(int(s.split("x")[0]) ** 2 - n_cells), int(s.split("x")[0]) ** 2, s) for s in supported_sizes()
    )
    near = sorted(counts[:2], key=lambda item: item[1])
    return "nearest sizes: " + " or ".join(f"{count} cells ({size})" for _, count, size in near)


@cache
def _infer(n_cells: int) -> Shape:
    """``Shape.infer``, cached because every parse asks it (an error is not cached: it is raised anew)."""
    n = math.isqrt(n_cells)
    if n * n == n_cells and MIN_DIGITS <= n <= MAX_DIGITS:
        try:
            return Shape.for_digits(n)
        except ShapeError:
            pass
    raise ShapeError(f"found {n_cells} cells, which fits no grid; {_nearest_sizes(n_cells)}")


@cache
def _tables(box_rows: int, box_cols: int) -> Tables:
    """Build the unit and peer tables of one shape (pure, so caching it changes no result)."""
    n = box_rows * box_cols
    cells = np.arange(n * n, dtype=np.int32).reshape(n, n)
    rows = [cells[i, :] for i in range(n)]
    cols = [cells[:, j] for j in range(n)]
    boxes = [
        cells[br : br + box_rows, bc : bc + box_cols].ravel()
        for br in range(0, n, box_rows)
        for bc in range(0, n, box_cols)
    ]
    units = np.array(rows + cols + boxes, dtype=np.int32)
    cell_units = np.empty((n * n, 3), dtype=np.int32)
    for unit, members in enumerate(units):
        cell_units[members, unit // n] = unit
    n_peers = 3 * n - box_rows - box_cols - 1
    peers = np.empty((n * n, n_peers), dtype=np.int32)
    for cell in range(n * n):
        mates = np.unique(units[cell_units[cell]].ravel())
        peers[cell] = mates[mates != cell]
    for table in (units, cell_units, peers):
        table.flags.writeable = False
    return Tables(units, cell_units, peers)
