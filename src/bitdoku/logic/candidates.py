"""``CandidateGrid``: the pencil-mark state of a solve, the value every technique reads.

A candidate grid holds, for each cell, its value (0 while empty) and its *candidates* as a mask (bit d-1 for
digit d). A filled cell has the mask 0, so a scan over a unit's masks sees only the open cells. The value is
immutable: ``place``, ``eliminate`` and ``apply`` return new grids, which lets every ``Step`` keep the state it
was found in. Copying is cheap (a tuple of N*N ints); the fast rater keeps its own arrays instead.

``Layout`` holds a shape's unit and peer tables as Python tuples and sets, the form the techniques index fastest.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from bitdoku.errors import ParseError, cell_name
from bitdoku.formats.pencilmarks import (
    format_candidate_picture,
    format_pencilmarks,
    looks_like_pencilmarks,
    parse_candidate_picture,
    parse_pencilmarks,
)
from bitdoku.grid import Grid
from bitdoku.shape import Shape

if TYPE_CHECKING:
    from bitdoku.logic.step import Step


@dataclass(frozen=True)
class Layout:
    """A shape's geometry in Python form: units (rows, columns, boxes), each cell's units, peers, and
    the row, column and box of each cell (0-based)."""

    shape: Shape
    units: tuple[tuple[int, ...], ...]
    cell_units: tuple[tuple[int, int, int], ...]
    peers: tuple[frozenset[int], ...]
    row: tuple[int, ...]
    col: tuple[int, ...]
    box: tuple[int, ...]
    #: For each unit, the parts it shares with the crossing units: (other unit, cells in both). A box lists its
    #: rows, then its columns; a row or column lists its boxes.
    segments: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]

    def sees(self, a: int, b: int) -> bool:
        """Whether two different cells share a unit."""
        return b in self.peers[a]

    def common_peers(self, cells: Iterable[int]) -> frozenset[int]:
        """The cells that see every cell given (none of them included)."""
        found: frozenset[int] | None = None
        for cell in cells:
            found = self.peers[cell] if found is None else found & self.peers[cell]
        return found or frozenset()


@cache
def layout_of(shape: Shape) -> Layout:
    """The Python tables of a shape (pure, cached per shape)."""
    tables = shape.tables
    n = shape.n
    cell_units = tuple(tuple(int(u) for u in row) for row in tables.cell_units)
    units = tuple(tuple(int(c) for c in unit) for unit in tables.units)
    segments = []
    for index, unit in enumerate(units):
        crossing = (0, 1) if index >= 2 * n else (2,)
        parts: dict[int, list[int]] = {}
        for kind in crossing:
            for cell in unit:
                parts.setdefault(cell_units[cell][kind], []).append(cell)
        segments.append(tuple((other, tuple(cells)) for other, cells in parts.items()))
    return Layout(
        shape=shape,
        units=units,
        cell_units=cell_units,  # type: ignore[arg-type]
        peers=tuple(frozenset(int(p) for p in row) for row in tables.peers),
        row=tuple(u[0] for u in cell_units),
        col=tuple(u[1] - n for u in cell_units),
        box=tuple(u[2] - 2 * n for u in cell_units),
        segments=tuple(segments),
    )


def digits_of(mask: int) -> list[int]:
    """The digits of a mask in increasing order."""
    digits, digit = [], 1
    while mask:
        if mask & 1:
            digits.append(digit)
        mask >>= 1
        digit += 1
    return digits


class CandidateGrid:
    """Cell values and candidate masks of an N x N grid; build it with ``from_grid`` or ``parse``.

    Example
    -------
    >>> cg = CandidateGrid.from_grid(Grid.parse("1.3." "3..." "...." ".1.."))
    >>> cg.candidates(1), cg.value(0), cg.candidates_mask(0)
    ([2, 4], 1, 0)
    >>> cg.place(1, 2).to_grid().to_line()
    '123.3........1..'
    """

    __slots__ = ("_by_unit", "_layout", "_masks", "_shape", "_values")

    def __init__(self, values: bytes, masks: tuple[int, ...], shape: Shape) -> None:
        """Wrap checked values and masks (0 for filled cells); use the class methods to build one from data."""
        self._values = bytes(values)
        self._masks = tuple(masks)
        self._shape = shape
        self._layout = layout_of(shape)
        self._by_unit: tuple[tuple[tuple[int, ...], ...], ...] | None = None

    # -- building -----------------------------------------------------------------------------------

    @classmethod
    def from_grid(cls, grid: Grid) -> CandidateGrid:
        """The candidates a grid's filled cells leave: ``full & ~(row | column | box)`` for each empty cell."""
        layout = layout_of(grid.shape)
        cells = grid.cells
        used = []
        for unit in layout.units:
            seen = 0
            for cell in unit:
                if cells[cell]:
                    seen |= 1 << (cells[cell] - 1)
            used.append(seen)
        full = (1 << grid.n) - 1
        masks = tuple(
            0 if cells[cell] else full & ~(used[r] | used[c] | used[b])
            for cell, (r, c, b) in enumerate(layout.cell_units)
        )
        return cls(cells, masks, grid.shape)

    @classmethod
    def from_masks(cls, masks: Iterable[int], shape: Shape) -> CandidateGrid:
        """Pencil marks as masks; a cell with one candidate is taken as filled with it (as the formats write)."""
        values, open_masks = bytearray(), []
        for mask in masks:
            if mask and not mask & (mask - 1):
                values.append(mask.bit_length())
                open_masks.append(0)
            else:
                values.append(0)
                open_masks.append(mask)
        return cls(bytes(values), tuple(open_masks), shape)

    @classmethod
    def parse(cls, text: str, shape: Shape | str | None = None) -> CandidateGrid:
        """Read pencil marks (the N*N*N-character line or the candidate picture) or a puzzle in any grid format.

        A puzzle's candidates are computed from its givens. Raises ``ParseError`` for text that is neither.
        """
        wanted = Shape.parse(shape) if shape is not None else None
        stripped = text.strip()
        if "\n" not in stripped and looks_like_pencilmarks(stripped):
            return cls.from_masks(*parse_pencilmarks(stripped, wanted))
        if "\n" in stripped and _is_picture(stripped):
            return cls.from_masks(*parse_candidate_picture(stripped, wanted))
        return cls.from_grid(Grid.parse(text, wanted))

    # -- reading --------------------------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        return self._shape

    @property
    def n(self) -> int:
        return self._shape.n

    @property
    def layout(self) -> Layout:
        """The shape's unit and peer tables in Python form."""
        return self._layout

    @property
    def values(self) -> bytes:
        """The cell values in row-major order (0 = empty)."""
        return self._values

    @property
    def masks(self) -> tuple[int, ...]:
        """The candidate mask of every cell (0 for a filled cell)."""
        return self._masks

    def value(self, cell: int) -> int:
        return self._values[cell]

    def candidates_mask(self, cell: int) -> int:
        """The candidates of a cell as bits (bit d-1 = digit d); 0 for a filled cell."""
        return self._masks[cell]

    def candidates(self, cell: int) -> list[int]:
        """The candidates of a cell in increasing order."""
        return digits_of(self._masks[cell])

    def has(self, cell: int, digit: int) -> bool:
        """Whether ``digit`` is still a candidate of ``cell``."""
        return bool(self._masks[cell] >> (digit - 1) & 1)

    def cells_with(self, unit: int, digit: int) -> tuple[int, ...]:
        """The open cells of a unit where ``digit`` is a candidate (a table built on first use)."""
        if self._by_unit is None:
            self._by_unit = self._build_by_unit()
        return self._by_unit[unit][digit - 1]

    def _build_by_unit(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For every unit and digit, the cells holding it as a candidate; fish, links and chains read this."""
        masks, n = self._masks, self.n
        table = []
        for unit in self.layout.units:
            lists: list[list[int]] = [[] for _ in range(n)]
            for cell in unit:
                mask = masks[cell]
                while mask:
                    low = mask & -mask
                    lists[low.bit_length() - 1].append(cell)
                    mask ^= low
            table.append(tuple(tuple(cells) for cells in lists))
        return tuple(table)

    def open_cells(self) -> list[int]:
        """The empty cells, in row-major order."""
        return [cell for cell, value in enumerate(self._values) if not value]

    def is_solved(self) -> bool:
        """Whether every cell is filled (the rules are checked by ``to_grid().is_solved()``)."""
        return 0 not in self._values

    def problem(self) -> str | None:
        """The first contradiction, as a sentence, or ``None``: an empty cell with no candidate left, or a digit
        that a unit still needs and no cell of the unit can take."""
        n, full = self.n, (1 << self.n) - 1
        for cell, value in enumerate(self._values):
            if not value and not self._masks[cell]:
                return f"{cell_name(cell, n)} has no candidate left"
        for index, unit in enumerate(self.layout.units):
            seen = 0
            for cell in unit:
                seen |= self._masks[cell] | (1 << (self._values[cell] - 1) if self._values[cell] else 0)
            if seen != full:
                missing = digits_of(full & ~seen)[0]
                return f"digit {missing} has no place left in {self._shape.unit_name(index)}"
        return None

    # -- changing -------------------------------------------------------------------------------------

    def place(self, cell: int, digit: int) -> CandidateGrid:
        """A copy with ``digit`` in ``cell`` and removed from the candidates of its peers."""
        return self.apply_changes(((cell, digit),), ())

    def eliminate(self, pairs: Iterable[tuple[int, int]]) -> CandidateGrid:
        """A copy with each (cell, digit) candidate removed."""
        return self.apply_changes((), pairs)

    def apply(self, step: Step) -> CandidateGrid:
        """The state after a step: its placements made, its eliminations removed."""
        return self.apply_changes(step.placements, step.eliminations)

    def apply_changes(
        self, placements: Iterable[tuple[int, int]], eliminations: Iterable[tuple[int, int]]
    ) -> CandidateGrid:
        """Place and eliminate in one copy (placements first)."""
        values, masks = bytearray(self._values), list(self._masks)
        peers = self.layout.peers
        for cell, digit in placements:
            values[cell] = digit
            masks[cell] = 0
            bit = ~(1 << (digit - 1))
            for peer in peers[cell]:
                masks[peer] &= bit
        for cell, digit in eliminations:
            masks[cell] &= ~(1 << (digit - 1))
        return CandidateGrid(bytes(values), tuple(masks), self._shape)

    def cleaned(self) -> CandidateGrid:
        """A copy where no open cell keeps a digit that a peer already holds (pencil marks typed by hand may)."""
        masks = list(self._masks)
        peers, values = self.layout.peers, self._values
        for cell, mask in enumerate(masks):
            if mask:
                for peer in peers[cell]:
                    if values[peer]:
                        mask &= ~(1 << (values[peer] - 1))
                masks[cell] = mask
        return self if tuple(masks) == self._masks else CandidateGrid(self._values, tuple(masks), self._shape)

    # -- writing --------------------------------------------------------------------------------------

    def to_grid(self) -> Grid:
        """The filled cells as a ``Grid`` (the candidates are dropped)."""
        return Grid(self._values, self._shape)

    def pencil_masks(self) -> list[int]:
        """One mask per cell as the formats write it: a filled cell as its single digit."""
        return [1 << (value - 1) if value else mask for value, mask in zip(self._values, self._masks, strict=True)]

    def to_pencilmarks(self) -> str:
        """The N*N*N-character line (729 characters for 9x9)."""
        return format_pencilmarks(self.pencil_masks(), self._shape)

    def to_picture(self) -> str:
        """The boxed picture with each cell drawn as a small block of its candidates."""
        return format_candidate_picture(self.pencil_masks(), self._shape)

    def __str__(self) -> str:
        return self.to_picture()

    def __repr__(self) -> str:
        return f"CandidateGrid.parse({self.to_pencilmarks()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CandidateGrid):
            return NotImplemented
        return (self._shape, self._values, self._masks) == (other._shape, other._values, other._masks)

    def __hash__(self) -> int:
        return hash((self._shape, self._values, self._masks))


def _is_picture(text: str) -> bool:
    """A candidate picture has box_rows lines for each row of cells, so more lines than cells a line; a grid
    picture (or integer rows) has as many lines as cells a line."""
    rows = [line.replace("|", " ").split() for line in text.splitlines()]
    rows = [tokens for tokens in rows if tokens and not all(set(t) <= set("-+=") for t in tokens)]
    return bool(rows) and len(rows) > len(rows[0])


def as_candidates(puzzle: Grid | CandidateGrid | str) -> CandidateGrid:
    """Accept a ``Grid`` (candidates computed), a ``CandidateGrid`` (kept as is) or text in any format;
    raise ``InvalidGridError`` when filled cells clash."""
    if isinstance(puzzle, CandidateGrid):
        cg = puzzle
    elif isinstance(puzzle, Grid):
        if not puzzle.geometry.is_classic:
            raise ValueError(f"the logic solver does not know {puzzle.variant!r} grids yet: classic grids only")
        cg = CandidateGrid.from_grid(puzzle.validate())
    elif isinstance(puzzle, str):
        cg = CandidateGrid.parse(puzzle)
    else:
        raise ParseError(f"expected a Grid, a CandidateGrid or text, not {type(puzzle).__name__}")
    cg.to_grid().validate()
    return cg


