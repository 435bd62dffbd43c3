"""``Grid``: an immutable Sudoku grid of any shape that parses and prints its own formats.

A grid is a puzzle (some cells empty) or a solution (all filled); it is the same value either way. Parsing is
syntax only, as in python-chess: a well-formed grid that breaks the rules (a digit twice in a row) is still a
``Grid``, and ``conflicts()``, ``is_valid()`` and ``validate()`` report what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple, Union, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from bitdoku.constraints.cages import Cage, cage_name, check_cages, combinations
from bitdoku.constraints.variant import Constraint
from bitdoku.errors import InvalidGridError, ParseError, PuzzleTypeError, ShapeError, cell_name
from bitdoku.formats.block import format_block, format_jigsaw_block, format_rows, parse_block
from bitdoku.formats.fpuzzles import format_fpuzzles, is_fpuzzles, parse_fpuzzles
from bitdoku.formats.json import format_json, parse_json
from bitdoku.formats.killer import format_killer_line, parse_killer_line
from bitdoku.formats.line import _shape_for, format_line, parse_line
from bitdoku.geometry import KILLER, Geometry, consecutive_mask
from bitdoku.shape import Shape


class Conflict(NamedTuple):
    """A digit that appears twice in one unit: ``digit 5 appears twice in row 3 (r3c2, r3c8)``; in a
    nonconsecutive grid also two consecutive digits side by side (``other`` is the second digit)."""

    digit: int
    unit: str
    cells: tuple[str, str]
    other: int = 0

    def __str__(self) -> str:
        if self.other:
            return f"digits {self.digit} and {self.other} are consecutive in {self.unit} ({', '.join(self.cells)})"
        return f"digit {self.digit} appears twice in {self.unit} ({', '.join(self.cells)})"


class Grid:
    """An N x N Sudoku grid with boxes of a given ``Shape``; cells hold 0 (empty) or a digit 1..N.

    Example
    -------
    >>> g = Grid.parse("1.3." "3..." "...." ".1..")
    >>> g.shape, g[0, 2], g.givens
    (Shape(2, 2), 3, 4)
    >>> print(g)
    1 . | 3 .
    3 . | . .
    ----+----
    . . | . .
    . 1 | . .
    >>> g.candidates(1)
    [2, 4]
    """

    __slots__ = ("_cells", "_geometry", "_shape")

    def __init__(self, cells: bytes, shape: Shape, geometry: Geometry | None = None) -> None:
        """Wrap checked cell values; use ``parse`` or ``from_array`` to build a grid from user data.

        ``geometry`` is the variant (``None`` or a classic geometry: rows, columns and boxes).
        """
        self._cells = bytes(cells)
        self._shape = shape
        if geometry is not None and geometry.shape != shape:
            raise ShapeError(f"a {geometry.shape} geometry does not fit a grid of {shape} boxes")
        self._geometry = None if geometry is None or geometry.is_classic else geometry

    # -- building -----------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, shape: Shape | str | None = None, variant: str | Geometry | None = None) -> Grid:
        """Read a puzzle line, a block picture, integer rows or JSON; infer the shape unless given.

        ``variant`` names the rules (``"x"``, ``"windoku+anti-king"``, see ``bitdoku.geometry``); for
        ``"jigsaw"`` the text is two lines, the puzzle and then its region map (or JSON with ``"regions"``); for
        ``"killer"`` it is the Killer line ``MAP SUMS [GIVENS]`` (``formats/killer.py``) or JSON with ``"cages"``.
        JSON may name its own variant, and an f-puzzles or SudokuPad link (``formats/fpuzzles.py``) brings its
        rules (a ``variant`` or ``shape`` that disagrees with them is refused).

        >>> Grid.parse("ABBC" "ADEC" "FDEC" "FFGG 4,5,9,5,5,9,3", variant="killer").cages[:2]
        (Cage(cells=(0, 4), total=4), Cage(cells=(1, 2), total=5))

        Raises ``ParseError`` for a character that is not a cell (with line, column and cell) and
        ``ShapeError`` for a cell count that fits no grid (naming the sizes that would).
        """
        if not isinstance(text, str):
            raise TypeError(f"Grid.parse() takes text, not {type(text).__name__}; use Grid.from_array for arrays")
        shape = Shape.parse(shape) if shape is not None else None
        stripped = text.strip()
        if not stripped:
            raise ParseError("empty puzzle: there are no cells to read")
        regions = None
        cages: tuple[Cage, ...] | None = None
        constraints: tuple[Constraint, ...] | None = None
        cells: bytes | list[int]
        if is_fpuzzles(stripped):
            cells, shape, variant, cages, regions, constraints = parse_fpuzzles(stripped, shape, variant)
        elif stripped.startswith("{"):
            cells, shape, named, regions, cages, constraints = parse_json(stripped, shape)
            variant = variant if variant is not None else named
            if cages is not None:
                check_cages(shape, cages, bytes(cells))
        elif _is_killer(variant):
            cells, shape, cages = parse_killer_line(stripped, shape)
        elif isinstance(variant, str) and "jigsaw" in variant.lower() and len(stripped.splitlines()) == 2:
            line, regions = stripped.splitlines()
            cells, shape = parse_line(line.strip(), shape)
        elif "\n" in stripped:
            cells, shape = parse_block(stripped, shape)
        else:
            cells, shape = parse_line(stripped, shape)
        if variant is None and regions is None:
            return cls(bytes(cells), shape)
        return cls(bytes(cells), shape, Geometry.parse(variant, shape, regions, cages, constraints))

    @classmethod
    def from_array(cls, values: ArrayLike, shape: Shape | str | None = None) -> Grid:
        """Build a grid from an N x N nested list or array, or a flat one of N*N cells (0 = empty)."""
        array = np.asarray(values)
        if array.dtype.kind not in "iu" and array.size:
            raise ParseError(f"cells must be integers, not {array.dtype}")
        flat = array.ravel().astype(np.int64)
        shape = _shape_for(flat.size, Shape.parse(shape) if shape is not None else None)
        if array.ndim == 2 and array.shape != (shape.n, shape.n):
            raise ShapeError(f"expected {shape.n} rows of {shape.n} cells, found an array of shape {array.shape}")
        bad = np.flatnonzero((flat < 0) | (flat > shape.n))
        if bad.size:
            cell = int(bad[0])
            raise ParseError(
                f"digit {int(flat[cell])} is out of range for a {shape.size_name} grid; "
                f"digits are 1-{shape.n}, 0 is empty",
                cell=cell_name(cell, shape.n),
            )
        return cls(flat.astype(np.uint8).tobytes(), shape)

    @classmethod
    def pattern(cls, shape: Shape | str = "3x3") -> Grid:
        """A valid complete grid of any shape: digit ``(box_cols * (row % box_rows) + row // box_rows + col)
        % N + 1``, each row the one above shifted by a box width, each band by one more.

        >>> Grid.pattern("2x2").to_line()
        '1234341223414123'
        """
        shape = Shape.parse(shape)
        n, r, c = shape.n, shape.box_rows, shape.box_cols
        rows, cols = np.indices((n, n))
        return cls(((c * (rows % r) + rows // r + cols) % n + 1).astype(np.uint8).tobytes(), shape)

    @classmethod
    def empty(cls, shape: Shape | str = "3x3") -> Grid:
        """The grid with no givens."""
        shape = Shape.parse(shape)
        return cls(bytes(shape.n_cells), shape)

    # -- reading --------------------------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        return self._shape

    @property
    def geometry(self) -> Geometry:
        """The rules of the grid: rows, columns and boxes, or a variant's units and relations."""
        return self._geometry if self._geometry is not None else Geometry.classic(self._shape)

    @property
    def is_classic(self) -> bool:
        """Whether the rules are the classic ones (rows, columns and boxes): ``geometry.is_classic``, in a look."""
        return self._geometry is None

    @property
    def cages(self) -> tuple[Cage, ...]:
        """A Killer's cages (``bitdoku.constraints.Cage``: cells and an optional total), none for other grids."""
        return self._geometry.cages if self._geometry is not None else ()

    @property
    def constraints(self) -> tuple[Constraint, ...]:
        """The setters' constraints (``bitdoku.constraints.Constraint``: thermometers, dots, lines), read from an
        f-puzzles link; none for other grids."""
        return self._geometry.constraints if self._geometry is not None else ()

    @property
    def variant(self) -> str:
        """The variant's name: ``"classic"``, ``"x"``, ``"jigsaw"``, ..."""
        return self.geometry.name

    def with_geometry(self, geometry: Geometry | str | None) -> Grid:
        """The same cells under other rules (a variant name or a ``Geometry``; ``None`` for classic)."""
        if geometry is None:
            return Grid(self._cells, self._shape)
        if isinstance(geometry, str) and geometry.strip().lower() == self.variant:
            return self  # the rules it has (a Killer's cages or a jigsaw's map are not in a name)
        return Grid(self._cells, self._shape, Geometry.parse(geometry, self._shape))

    def with_cells(self, cells: bytes) -> Grid:
        """Other cell values (N*N bytes, already checked) under the same shape and rules: how engines build the
        solutions of a puzzle."""
        return Grid(cells, self._shape, self._geometry)

    @property
    def n(self) -> int:
        """The number of digits (9 for a classic grid)."""
        return self._shape.n

    @property
    def cells(self) -> bytes:
        """The cell values in row-major order, one byte a cell (0 = empty)."""
        return self._cells

    @property
    def givens(self) -> int:
        """How many cells are filled."""
        return len(self._cells) - self._cells.count(0)

    def __getitem__(self, key: int | tuple[int, int]) -> int:
        """``grid[row, col]`` (0-based) or ``grid[cell]``."""
        if isinstance(key, tuple):
            row, col = key
            if not (0 <= row < self.n and 0 <= col < self.n):
                raise IndexError(f"no cell at row {row}, column {col} in a {self._shape.size_name} grid")
            return self._cells[row * self.n + col]
        return self._cells[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)

    def to_array(self) -> NDArray[np.uint8]:
        """A new N x N uint8 array of the cells."""
        # numpy's stubs type ``copy`` as ``typing.Self``, which is Any under mypy's ``python_version = "3.10"``
        return cast("NDArray[np.uint8]", np.frombuffer(self._cells, dtype=np.uint8).reshape(self.n, self.n).copy())

    def to_line(self) -> str:
        """The one-line format: ``8..........36...`` (integers separated by spaces from N = 36 on)."""
        return format_line(self._cells, self._shape)

    def to_killer_line(self) -> str:
        """A Killer as the line ``MAP SUMS [GIVENS]`` that ``Grid.parse(text, variant="killer")`` reads.

        >>> Grid.parse("AB.C" "ADDC" "..EE" "FFGG 3,1,7,5,7,7,3", variant="killer").to_killer_line()
        'AB.CADDC..EEFFGG 3,1,7,5,7,7,3'
        """
        if not self.cages:
            raise ValueError(f"a {self.variant} grid has no cages to write as a Killer line")
        return format_killer_line(self._cells, self._shape, self.cages)

    def to_fpuzzles(self) -> str:
        """The f-puzzles link of the grid and its rules (``https://f-puzzles.com/?load=...``), which f-puzzles and
        SudokuPad open and ``Grid.parse`` reads back; ``ValueError`` for rules f-puzzles has not (``windoku``).

        >>> g = Grid.parse("1.3." "3..." "...." ".1..", variant="anti-king")
        >>> g.to_fpuzzles()[:36]
        'https://f-puzzles.com/?load=N4Igzglg'
        >>> Grid.parse(g.to_fpuzzles()) == g
        True
        """
        geometry = self.geometry
        regions = geometry.region_map() if geometry.regions is not None else None
        return format_fpuzzles(self._cells, self._shape, geometry.rules, geometry.cages, regions,
                               geometry.constraints)

    def to_picture(self) -> str:
        """The boxed picture that ``str()`` prints; for a jigsaw, the cells without box lines and the region map
        beside them (box lines would draw the wrong regions); for a Killer, the cage map and sums beside them."""
        if self._geometry is not None and self._geometry.regions is not None:
            return format_jigsaw_block(self._cells, self._shape, self._geometry.region_map())
        if self.cages:
            cage_map, sums = format_killer_line(bytes(self._shape.n_cells), self._shape, self.cages).split()
            return f"{format_jigsaw_block(self._cells, self._shape, cage_map)}\nsums {sums}"
        return format_block(self._cells, self._shape)

    def to_rows(self) -> str:
        """Whitespace-separated integer rows, 0 for a blank."""
        return format_rows(self._cells, self._shape)

    def to_json(self) -> str:
        """``{"shape": "3x3", "cells": [[...], ...]}``, with ``"variant"`` (and a jigsaw's ``"regions"``) for a
        variant."""
        if self._geometry is None:
            return format_json(self._cells, self._shape)
        geometry = self._geometry
        regions = geometry.region_map() if geometry.regions is not None else None
        return format_json(self._cells, self._shape, geometry.name, regions, geometry.cages, geometry.constraints)

    def __str__(self) -> str:
        return self.to_picture()

    def __repr__(self) -> str:
        default = self._shape == Shape.for_digits(self._shape.n)
        shape = "" if default else f", shape={str(self._shape)!r}"
        if self._geometry is None:
            return f"Grid.parse({self.to_line()!r}{shape})"
        if self._geometry.regions is not None:
            text = f"{self.to_line()}\n{self._geometry.region_map()}"
            return f"Grid.parse({text!r}{shape}, variant={self.variant!r})"
        if self.cages:
            return f"Grid.parse({self.to_killer_line()!r}{shape}, variant={self.variant!r})"
        return f"Grid.parse({self.to_line()!r}{shape}, variant={self.variant!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return self._shape == other._shape and self._cells == other._cells and self._geometry == other._geometry

    def __hash__(self) -> int:
        return hash((self._shape, self._cells, self._geometry))

    # -- rules ----------------------------------------------------------------------------------------

    def candidates_mask(self, cell: int) -> int:
        """The digits still possible in a cell as bits (bit d-1 = digit d); 0 for a filled cell."""
        if self._cells[cell]:
            return 0
        seen = 0
        for peer in self._peers(cell):
            value = self._cells[peer]
            if value:
                seen |= 1 << (value - 1)
        if self._geometry is not None:
            tables = self._geometry.tables
            for neighbour in tables.adjacent[tables.adjacent_start[cell] : tables.adjacent_start[cell + 1]]:
                value = self._cells[neighbour]
                if value:
                    seen |= consecutive_mask(value, self.n)
        return ((1 << self.n) - 1) & ~seen

    def _peers(self, cell: int) -> NDArray[np.int32]:
        if self._geometry is None:
            return cast("NDArray[np.int32]", self._shape.tables.peers[cell])  # a row: numpy's stubs say Any
        tables = self._geometry.tables
        return tables.peers[tables.peer_start[cell] : tables.peer_start[cell + 1]]

    def candidates(self, cell: int) -> list[int]:
        """The digits still possible in a cell, in increasing order."""
        mask = self.candidates_mask(cell)
        return [d for d in range(1, self.n + 1) if mask >> (d - 1) & 1]

    def conflicts(self) -> list[Conflict]:
        """Every pair of equal digits in one unit (the first two cells of each digit and unit); in a variant also
        equal digits in related cells (a knight's or king's move apart) and consecutive digits side by side."""
        geometry = self.geometry
        found = []
        for unit, members in enumerate(geometry.tables.units):
            first: dict[int, int] = {}
            for cell in members:
                value = self._cells[cell]
                if not value:
                    continue
                if value in first:
                    pair = (cell_name(first[value], self.n), cell_name(int(cell), self.n))
                    found.append(Conflict(value, geometry.unit_name(unit), pair))
                else:
                    first[value] = int(cell)
        if self._geometry is not None:
            found += self._relation_conflicts(geometry)
        return found

    def _relation_conflicts(self, geometry: Geometry) -> list[Conflict]:
        """Conflicts between cells that share no unit: peer relations and consecutive neighbours."""
        tables, cells, n = geometry.tables, self._cells, self.n
        found = []
        for cell, value in enumerate(cells):
            if not value:
                continue
            for peer in geometry.relations[cell]:
                if peer > cell and cells[peer] == value:
                    pair = (cell_name(cell, n), cell_name(peer, n))
                    found.append(Conflict(value, geometry.relation(cell, peer), pair))
            for neighbour in tables.adjacent[tables.adjacent_start[cell] : tables.adjacent_start[cell + 1]]:
                other = cells[neighbour]
                if neighbour > cell and other and abs(other - value) == 1:
                    pair = (cell_name(cell, n), cell_name(int(neighbour), n))
                    found.append(Conflict(min(value, other), "neighbouring cells", pair, max(value, other)))
        return found

    def is_valid(self) -> bool:
        """Whether no digit appears twice in a unit and no Killer cage overshoots its sum (a valid puzzle may still
        have no solution)."""
        return not self.conflicts() and not self.cage_sum_errors()

    def validate(self) -> Grid:
        """Return the grid itself, or raise ``InvalidGridError`` naming the first conflict."""
        conflicts = self.conflicts()
        if conflicts:
            first = conflicts[0]
            raise InvalidGridError(str(first), cells=first.cells, unit=first.unit)
        errors = self.cage_sum_errors()
        if errors:
            raise InvalidGridError(errors[0])
        return self

    def cage_sum_errors(self) -> list[str]:
        """For each Killer cage whose digits break its sum, a sentence: they add up to more than the total, or to
        another number when the cage is full, or no different digits in its empty cells can make up the rest."""
        found = []
        for index, cage in enumerate(self.cages):
            digits = [self._cells[cell] for cell in cage.cells if self._cells[cell]]
            if cage.total is None or not digits:
                continue
            where, held, total = cage_name(self.cages, index, self.n), " + ".join(map(str, digits)), sum(digits)
            if len(digits) == len(cage.cells) and total != cage.total:
                found.append(f"{where} holds {held} = {total}, not its sum {cage.total}")
            elif total > cage.total:
                found.append(f"{where} holds {held} = {total}, over its sum {cage.total}")
            elif not any(all(mask >> (digit - 1) & 1 for digit in digits)
                         for mask in combinations(len(cage.cells), cage.total, self.n)):
                found.append(f"{where} holds {held}: no different digits in its other cells make up its sum "
                             f"{cage.total}")
        return found

    def is_solved(self) -> bool:
        """Whether every cell is filled and no rule is broken."""
        return 0 not in self._cells and self.is_valid()

    def keeps_givens_of(self, puzzle: Puzzle) -> bool:
        """Whether this grid agrees with every filled cell of ``puzzle`` (any form of a puzzle of this grid's
        shape; ``ShapeError`` for another shape)."""
        return self._keeps_givens(as_grid(puzzle, self._shape))

    def is_solution_of(self, puzzle: Puzzle) -> bool:
        """Whether this grid is solved and keeps the givens of ``puzzle`` (the check every engine passes; any form
        of a puzzle of this grid's shape)."""
        puzzle = as_grid(puzzle, self._shape)
        return self.is_solved() and self._keeps_givens(puzzle)

    def _keeps_givens(self, puzzle: Grid) -> bool:
        return all(given == 0 or given == mine for given, mine in zip(puzzle._cells, self._cells, strict=True))

    def with_digit(self, cell: int, digit: int) -> Grid:
        """A copy with one cell set (digit 0 empties it)."""
        if not 0 <= digit <= self.n:
            raise ValueError(f"digit {digit} is out of range for a {self._shape.size_name} grid")
        cells = bytearray(self._cells)
        cells[cell] = digit
        return Grid(bytes(cells), self._shape, self._geometry)


#: Every form of one puzzle that the public functions take (``as_grid``): a ``Grid``; text in any format
#: ``Grid.parse`` reads; N*N cells or N rows of N cells as integers (0 for an empty cell), in a list, a tuple or a
#: NumPy array.
Puzzle = Union["Grid", str, Sequence[int], Sequence[Sequence[int]], NDArray[np.integer]]
#: How ``Puzzle`` is said in an error.
PUZZLE_FORMS = "a Grid, text, or N*N cells or N rows of N cells as integers (a list, a tuple or a NumPy array)"


def as_grid(puzzle: Puzzle, shape: Shape | str | None = None, variant: str | Geometry | None = None) -> Grid:
    """The one conversion at the boundary of the public API: any ``Puzzle`` form to a ``Grid`` (under
    ``variant``'s rules when one is given, of ``shape`` when one is given).

    Raises ``PuzzleTypeError`` (a ``TypeError``) for what is no puzzle at all, naming what was given and what is
    accepted; ``ParseError`` or ``ShapeError`` (``ValueError``) for a puzzle that is malformed: text that does not
    parse, a wrong number of cells, digits out of range, a ``Grid`` of another shape than ``shape``.

    >>> as_grid([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]]).to_line()
    '1.....1..1.....1'
    >>> as_grid(None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bitdoku.errors.PuzzleTypeError: expected a puzzle (a Grid, text, ...), not None
    """
    if isinstance(puzzle, Grid):
        require_shape(puzzle.shape, shape)
        return puzzle if variant is None else puzzle.with_geometry(variant)
    if isinstance(puzzle, str):
        return Grid.parse(puzzle, shape, variant)
    grid = Grid.from_array(_cell_array(puzzle), shape)
    return grid if variant is None else grid.with_geometry(variant)


def require_shape(actual: Shape, wanted: Shape | str | None) -> None:
    """Raise ``ShapeError`` when a grid (or pencil marks) of shape ``actual`` comes where ``wanted`` is asked
    (None: any shape)."""
    if wanted is not None and Shape.parse(wanted) != actual:
        raise ShapeError(f"the grid has {actual} boxes, not {Shape.parse(wanted)}")


def _is_killer(variant: str | Geometry | None) -> bool:
    """Whether a variant name asks for the Killer line format."""
    return isinstance(variant, str) and KILLER in [word.strip().lower() for word in variant.split("+")]


def _cell_array(puzzle: object) -> NDArray[np.integer]:
    """The cells of a list, tuple or array form of a puzzle as an integer array of one or two dimensions."""
    if not isinstance(puzzle, (np.ndarray, list, tuple)):
        raise PuzzleTypeError(f"expected a puzzle ({PUZZLE_FORMS}), not {_described(puzzle)}")
    try:
        array = np.asarray(puzzle)
    except (ValueError, TypeError):  # rows of different lengths, or a mix NumPy cannot hold in one array
        raise ParseError("the rows of the puzzle have different lengths: expected N rows of N cells each") from None
    if array.dtype.kind == "O" or (array.dtype.kind not in "iu" and array.size):
        raise PuzzleTypeError(f"cells must be integers (0 for an empty cell), not {_kind_of_cells(array)}")
    if array.ndim not in (1, 2):
        raise ShapeError(f"expected N*N cells or N rows of N cells, not a {array.ndim}-D array of shape "
                         f"{array.shape}")
    return array


def _described(value: object) -> str:
    """A value named for an error: ``None``, ``an int (5)``, ``bytes``, ``a dict``."""
    if value is None:
        return "None"
    name = type(value).__name__
    if isinstance(value, (bytes, bytearray)):
        return name
    article = "an" if name[:1].lower() in "aeiou" else "a"
    if isinstance(value, (bool, int, float, complex)):
        return f"{article} {name} ({value!r})"
    return f"{article} {name}"


def _kind_of_cells(array: NDArray[np.generic]) -> str:
    """What the cells of a non-integer array are, for an error: ``float64``, or the Python type of an object."""
    if array.dtype.kind != "O":
        return str(array.dtype)
    odd = [cell for cell in array.ravel()[:1000] if not isinstance(cell, (int, np.integer))][:1]
    return _described(odd[0]) if odd else "objects"
