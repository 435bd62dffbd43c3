"""``CandidateGrid``: the pencil-mark state of a solve, the value every technique reads.

A candidate grid holds, for each cell, its value (0 while empty) and its *candidates* as a mask (bit d-1 for
digit d). A filled cell has the mask 0, so a scan over a unit's masks sees only the open cells. The value is
immutable: ``place``, ``eliminate`` and ``apply`` return new grids, which lets every ``Step`` keep the state it
was found in. Copying is cheap (a tuple of N*N ints); the fast rater keeps its own arrays instead.

``Layout`` holds a geometry's unit and peer tables as Python tuples and sets, the form the techniques index
fastest. A candidate grid knows its geometry (``bitdoku.geometry``): a variant's units (diagonals, windows, jigsaw
regions), its peers (unit mates and the cells a knight's or king's move away) and, for nonconsecutive grids, the
orthogonal neighbours that lose digit+-1 when a digit is placed. A classic grid's layout is the shape's tables,
unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, TypeVar, Union

import numpy as np
from numpy.typing import NDArray

from bitdoku.errors import UnsupportedError, cell_name
from bitdoku.formats.pencilmarks import (
    format_candidate_picture,
    format_pencilmarks,
    looks_like_pencilmarks,
    parse_candidate_picture,
    parse_pencilmarks,
)
from bitdoku.geometry import GEOMETRIES_KEPT, Geometry, consecutive_mask
from bitdoku.grid import Grid, Puzzle, as_grid, require_shape
from bitdoku.shape import Shape


@dataclass(frozen=True)
class Layout:
    """A geometry in Python form: units (rows, columns, boxes or regions, then the extra units), each cell's
    units (row, column, box first: a classic cell has exactly these three), peers, the row, column and box (or
    jigsaw region) of each cell (0-based), and the orthogonal neighbours that may not hold consecutive digits
    (empty unless the geometry is nonconsecutive)."""

    shape: Shape
    units: tuple[tuple[int, ...], ...]
    cell_units: tuple[tuple[int, ...], ...]
    peers: tuple[frozenset[int], ...]
    row: tuple[int, ...]
    col: tuple[int, ...]
    box: tuple[int, ...]
    #: For each unit, the parts it shares with the crossing units: (other unit, cells in both). Classic: a box
    #: lists its rows, then its columns; a row or column lists its boxes. Variants: every other unit that shares
    #: two cells or more, in unit order (a jigsaw row lists its regions, a window its rows, columns and boxes).
    segments: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    geometry: Geometry
    adjacent: tuple[tuple[int, ...], ...]
    #: Each unit's cells as a bitset, and whether every unit lists its cells in increasing order (classic grids:
    #: yes), so that a unit's cells read off a bitset come in the unit's order.
    unit_bits: tuple[int, ...] = ()
    units_sorted: bool = True
    #: Each cell's peers as a bitset (the cells that see two cells: one AND), and in increasing order.
    peer_bits: tuple[int, ...] = ()
    sorted_peers: tuple[tuple[int, ...], ...] = ()
    #: Each cell's units as a bitset of unit indices: the units a change in the cell may affect.
    cell_unit_bits: tuple[int, ...] = ()

    def sees(self, a: int, b: int) -> bool:
        """Whether two different cells share a unit."""
        return b in self.peers[a]

    def common_peers(self, cells: Iterable[int]) -> frozenset[int]:
        """The cells that see every cell given (none of them included)."""
        found: frozenset[int] | None = None
        for cell in cells:
            found = self.peers[cell] if found is None else found & self.peers[cell]
        return found or frozenset()

    def unit_name(self, unit: int) -> str:
        """How people call a unit in this geometry: ``'box 3'``, ``'region F'``, ``'the main diagonal'``."""
        return self.geometry.unit_name(unit)

    def __hash__(self) -> int:
        """A layout is a pure function of its geometry: hash and compare that, not every table."""
        return hash(self.geometry)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self.geometry == other.geometry


_Units = tuple[tuple[int, ...], ...]
_Segments = tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
_Row = TypeVar("_Row")  # a CSR row as ``_csr_rows`` builds it (tuple or frozenset of ints)


def layout_of(where: Shape | Geometry) -> Layout:
    """The Python tables of a geometry, or of a shape's classic geometry (pure, cached per geometry)."""
    return _layout(where if isinstance(where, Geometry) else Geometry.classic(where))


@lru_cache(maxsize=GEOMETRIES_KEPT)
def _layout(geometry: Geometry) -> Layout:
    tables = geometry.tables
    n = geometry.shape.n
    cell_units = _csr_rows(tables.cell_unit_start, tables.cell_units, tuple)
    units = tuple(map(tuple, tables.units.tolist()))
    segments = _classic_segments(units, cell_units, n) if geometry.is_classic else _crossings(units, cell_units)
    peer_rows = _csr_rows(tables.peer_start, tables.peers, tuple)
    return Layout(
        shape=geometry.shape,
        units=units,
        cell_units=cell_units,
        peers=tuple(frozenset(row) for row in peer_rows),
        row=tuple(u[0] for u in cell_units),
        col=tuple(u[1] - n for u in cell_units),
        box=tuple(u[2] - 2 * n for u in cell_units),
        segments=segments,
        geometry=geometry,
        adjacent=_csr_rows(tables.adjacent_start, tables.adjacent, tuple),
        unit_bits=tuple(sum(1 << c for c in unit) for unit in units),
        units_sorted=all(list(unit) == sorted(unit) for unit in units),
        peer_bits=tuple(sum(1 << p for p in row) for row in peer_rows),
        sorted_peers=tuple(tuple(sorted(row)) for row in peer_rows),
        cell_unit_bits=tuple(sum(1 << u for u in row) for row in cell_units),
    )


def _csr_rows(
    start: NDArray[np.int32], items: NDArray[np.int32], kind: Callable[[list[int]], _Row]
) -> tuple[_Row, ...]:
    """A CSR table as a tuple of rows, each turned into ``kind`` (tuple or frozenset) of ints (the arrays made
    Python lists once: converting their items one by one cost most of a Killer layout's millisecond)."""
    bounds, values = start.tolist(), items.tolist()
    return tuple(kind(values[bounds[i] : bounds[i + 1]]) for i in range(len(bounds) - 1))


def _classic_segments(units: _Units, cell_units: _Units, n: int) -> _Segments:
    """Box-line segments of a classic shape: a box's rows then columns, a line's boxes."""
    segments = []
    for index, unit in enumerate(units):
        crossing = (0, 1) if index >= 2 * n else (2,)
        parts: dict[int, list[int]] = {}
        for kind in crossing:
            for cell in unit:
                parts.setdefault(cell_units[cell][kind], []).append(cell)
        segments.append(tuple((other, tuple(cells)) for other, cells in parts.items()))
    return tuple(segments)


def _crossings(units: _Units, cell_units: _Units) -> _Segments:
    """For each unit, every other unit sharing at least two of its cells, with those cells, in unit order (a
    single shared cell can lock nothing that a hidden single does not place first)."""
    segments = []
    for index, unit in enumerate(units):
        parts: dict[int, list[int]] = {}
        for cell in unit:
            for other in cell_units[cell]:
                if other != index:
                    parts.setdefault(other, []).append(cell)
        segments.append(tuple((other, tuple(cells)) for other, cells in sorted(parts.items()) if len(cells) >= 2))
    return tuple(segments)


def _digit_bitsets(masks: tuple[int, ...], n: int) -> tuple[int, ...]:
    """For each digit, the cells whose mask holds it, as a bitset: NumPy spreads the masks into one row of bits
    a digit and packs each row into bytes (3x faster than a Python loop over the candidates of a 9x9 state)."""
    spread = np.array(masks, dtype=np.uint64)[None, :] >> np.arange(n, dtype=np.uint64)[:, None]
    packed = np.packbits((spread & np.uint64(1)).astype(np.uint8), axis=1, bitorder="little")
    return tuple(int.from_bytes(row.tobytes(), "little") for row in packed)


#: The compiled finders (``logic/kernels/``) run on classic grids of at most this many digits; on variant grids
#: and larger ones their Python twins, which are also their references, run.
COMPILED_FINDERS_MAX_N = 32


def suits_compiled_finders(cg: CandidateGrid) -> bool:
    """Whether the compiled finders take this grid (classic, at most ``COMPILED_FINDERS_MAX_N`` digits)."""
    return cg.n <= COMPILED_FINDERS_MAX_N and cg.geometry.is_classic


def digits_of(mask: int) -> list[int]:
    """The digits of a mask in increasing order."""
    digits, digit = [], 1
    while mask:
        if mask & 1:
            digits.append(digit)
        mask >>= 1
        digit += 1
    return digits


class StepLike(Protocol):
    """What ``CandidateGrid.apply`` reads of a step: the digits it places and the candidates it removes, as
    (cell, digit) pairs. A ``Step`` has them; naming only them keeps this module below ``logic.step``."""

    @property
    def placements(self) -> tuple[tuple[int, int], ...]: ...

    @property
    def eliminations(self) -> tuple[tuple[int, int], ...]: ...


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

    __slots__ = ("_array", "_by_digit", "_by_unit", "_layout", "_masks", "_shape", "_values")

    def __init__(self, values: bytes, masks: tuple[int, ...], shape: Shape, geometry: Geometry | None = None) -> None:
        """Wrap checked values and masks (0 for filled cells) of a grid of ``geometry`` (classic when ``None``);
        use the class methods to build one from data."""
        self._values = bytes(values)
        self._masks = tuple(masks)
        self._shape = shape
        self._layout = layout_of(geometry if geometry is not None else shape)
        self._by_unit: tuple[tuple[tuple[int, ...], ...], ...] | None = None
        self._by_digit: tuple[int, ...] | None = None
        self._array: NDArray[np.uint64] | None = None

    # -- building -----------------------------------------------------------------------------------

    @classmethod
    def from_grid(cls, grid: Grid) -> CandidateGrid:
        """The candidates a grid's filled cells leave: ``full & ~(row | column | box)`` for each empty cell, and
        for a variant the digits of its other units, of its relation peers, and those next to its neighbours'
        digits when neighbours may not hold consecutive digits."""
        geometry = grid.geometry
        cells = grid.cells
        layout = layout_of(geometry)
        full = (1 << grid.n) - 1
        if not geometry.is_classic:
            masks = tuple(0 if value else full & ~_blocked(layout, cells, cell) for cell, value in enumerate(cells))
            return cls(cells, masks, grid.shape, geometry)
        used = []
        for unit in layout.units:
            seen = 0
            for cell in unit:
                if cells[cell]:
                    seen |= 1 << (cells[cell] - 1)
            used.append(seen)
        masks = tuple(
            0 if cells[cell] else full & ~(used[r] | used[c] | used[b])
            for cell, (r, c, b) in enumerate(layout.cell_units)
        )
        return cls(cells, masks, grid.shape, geometry)

    @classmethod
    def from_masks(cls, masks: Iterable[int], shape: Shape, geometry: Geometry | None = None) -> CandidateGrid:
        """Pencil marks as masks of a grid of ``geometry`` (classic when ``None``); a cell with one candidate is
        taken as filled with it (as the formats write)."""
        values, open_masks = bytearray(), []
        for mask in masks:
            if mask and not mask & (mask - 1):
                values.append(mask.bit_length())
                open_masks.append(0)
            else:
                values.append(0)
                open_masks.append(mask)
        return cls(bytes(values), tuple(open_masks), shape, geometry)

    @classmethod
    def parse(cls, text: str, shape: Shape | str | None = None, variant: str | Geometry | None = None) -> CandidateGrid:
        """Read pencil marks (the N*N*N-character line or the candidate picture) or a puzzle in any grid format,
        of the ``variant`` given (a name or a ``Geometry``, as ``Grid.parse`` reads it; classic by default).

        A puzzle's candidates are computed from its givens. Raises ``ParseError`` for text that is neither.
        """
        wanted = Shape.parse(shape) if shape is not None else None
        stripped = text.strip()
        marks = None
        if "\n" not in stripped and looks_like_pencilmarks(stripped):
            marks = parse_pencilmarks(stripped, wanted)
        elif "\n" in stripped and _is_picture(stripped):
            marks = parse_candidate_picture(stripped, wanted)
        if marks is None:
            return cls.from_grid(Grid.parse(text, wanted, variant=variant))
        masks, found = marks
        geometry = Geometry.parse(variant, found) if variant is not None else None
        return cls.from_masks(masks, found, geometry)

    # -- reading --------------------------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        return self._shape

    @property
    def n(self) -> int:
        return self._shape.n

    @property
    def geometry(self) -> Geometry:
        """The rules of the grid: its units, peer relations and neighbours (``bitdoku.geometry``)."""
        return self._layout.geometry

    @property
    def layout(self) -> Layout:
        """The geometry's unit and peer tables in Python form."""
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

    def digit_cells(self) -> tuple[int, ...]:
        """For each digit d (index d-1), the cells where it is a candidate, as a bitset; built on first use and
        kept with the state, so that the finders of one ladder pass share it (a unit's places of d are
        ``digit_cells()[d - 1] & layout.unit_bits[unit]``, two operations on ints instead of a scan of cells)."""
        if self._by_digit is None:
            self._by_digit = _digit_bitsets(self._masks, self.n)
        return self._by_digit

    def mask_array(self) -> NDArray[np.uint64]:
        """The masks as a uint64 array (up to 64 digits), for the compiled finders; built once per state, which
        the rungs of a ladder pass share. Do not write to it."""
        if self._array is None:
            self._array = np.array(self._masks, dtype=np.uint64)
        return self._array

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
                return f"digit {missing} has no place left in {self.layout.unit_name(index)}"
        return None

    # -- changing -------------------------------------------------------------------------------------

    def place(self, cell: int, digit: int) -> CandidateGrid:
        """A copy with ``digit`` in ``cell`` and removed from the candidates of its peers (and digit+-1 from its
        neighbours when they may not hold consecutive digits)."""
        return self.apply_changes(((cell, digit),), ())

    def eliminate(self, pairs: Iterable[tuple[int, int]]) -> CandidateGrid:
        """A copy with each (cell, digit) candidate removed."""
        return self.apply_changes((), pairs)

    def apply(self, step: StepLike) -> CandidateGrid:
        """The state after a step (a ``Step``, or anything with its two fields): its placements made, its
        eliminations removed."""
        return self.apply_changes(step.placements, step.eliminations)

    def apply_changes(
        self, placements: Iterable[tuple[int, int]], eliminations: Iterable[tuple[int, int]]
    ) -> CandidateGrid:
        """Place and eliminate in one copy (placements first)."""
        values, masks = bytearray(self._values), list(self._masks)
        peers, adjacent, n = self.layout.peers, self.layout.adjacent, self.n
        for cell, digit in placements:
            values[cell] = digit
            masks[cell] = 0
            bit = ~(1 << (digit - 1))
            for peer in peers[cell]:
                masks[peer] &= bit
            if adjacent[cell]:
                near = ~consecutive_mask(digit, n)
                for neighbour in adjacent[cell]:
                    masks[neighbour] &= near
        for cell, digit in eliminations:
            masks[cell] &= ~(1 << (digit - 1))
        return self._with_cells(bytes(values), tuple(masks))

    def _with_cells(self, values: bytes, masks: tuple[int, ...]) -> CandidateGrid:
        """A grid of the same geometry with these values and masks, sharing this grid's layout instead of looking
        it up by the geometry again (a Killer geometry's hash walks every cage, and a solve makes a grid a step)."""
        grid = CandidateGrid.__new__(CandidateGrid)
        grid._values, grid._masks, grid._shape, grid._layout = values, masks, self._shape, self._layout
        grid._by_unit = grid._by_digit = grid._array = None
        return grid

    def cleaned(self) -> CandidateGrid:
        """A copy where no open cell keeps a digit that a peer already holds, or, for nonconsecutive grids, one
        next to a neighbour's digit (pencil marks typed by hand may)."""
        masks = list(self._masks)
        layout, values = self.layout, self._values
        for cell, mask in enumerate(masks):
            if mask:
                masks[cell] = mask & ~_blocked(layout, values, cell)
        if tuple(masks) == self._masks:
            return self
        return CandidateGrid(self._values, tuple(masks), self._shape, self.geometry)

    # -- writing --------------------------------------------------------------------------------------

    def to_grid(self) -> Grid:
        """The filled cells as a ``Grid`` of the same geometry (the candidates are dropped)."""
        return Grid(self._values, self._shape, self.geometry)

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
        geometry = self.geometry
        if geometry.is_classic:
            return f"CandidateGrid.parse({self.to_pencilmarks()!r})"
        variant = geometry.name if geometry.regions is None else geometry
        return f"CandidateGrid.parse({self.to_pencilmarks()!r}, variant={variant!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CandidateGrid):
            return NotImplemented
        return (self.geometry, self._values, self._masks) == (other.geometry, other._values, other._masks)

    def __hash__(self) -> int:
        return hash((self.geometry, self._values, self._masks))


def _blocked(layout: Layout, values: bytes, cell: int) -> int:
    """The digits a cell may not take because of filled cells: its peers' digits, and the digits next to its
    neighbours' digits when neighbours may not hold consecutive digits."""
    blocked = 0
    for peer in layout.peers[cell]:
        if values[peer]:
            blocked |= 1 << (values[peer] - 1)
    for neighbour in layout.adjacent[cell]:
        if values[neighbour]:
            blocked |= consecutive_mask(values[neighbour], layout.shape.n)
    return blocked


def _is_picture(text: str) -> bool:
    """A candidate picture has box_rows lines for each row of cells, so more lines than cells a line; a grid
    picture (or integer rows) has as many lines as cells a line, and a jigsaw's puzzle line and region map are
    two lines of one word each."""
    rows = [line.replace("|", " ").split() for line in text.splitlines()]
    rows = [tokens for tokens in rows if tokens and not all(set(t) <= set("-+=") for t in tokens)]
    return bool(rows) and 1 < len(rows[0]) < len(rows)


#: What the logic functions take: every form of a puzzle (``grid.Puzzle``), or its pencil marks (a
#: ``CandidateGrid``, or its text).
LogicPuzzle = Union[Puzzle, "CandidateGrid"]


def as_logic_puzzle(puzzle: LogicPuzzle, shape: Shape | str | None = None,
                    variant: str | Geometry | None = None) -> Grid | CandidateGrid:
    """The logic functions' one conversion at the boundary: a ``CandidateGrid`` as it is, pencil marks as a
    ``CandidateGrid``, every other form of a puzzle as a ``Grid`` (``grid.as_grid``: its errors for anything else).
    A ``Grid`` is kept apart from its candidates because its givens matter (uniqueness techniques)."""
    if isinstance(puzzle, CandidateGrid):
        require_shape(puzzle.shape, shape)
        return puzzle
    if isinstance(puzzle, str):
        text = puzzle.strip()
        if "\n" in text or looks_like_pencilmarks(text):
            return CandidateGrid.parse(text, shape, variant)
    grid = as_grid(puzzle, shape, variant)
    if grid.constraints:
        kinds = sorted({constraint.kind for constraint in grid.constraints})
        raise UnsupportedError(f"logical steps for {', '.join(kinds)} are not in bitdoku yet: solve, count and "
                               "true candidates take this puzzle; explain, hint and rate do not")
    return grid


def as_candidates(puzzle: LogicPuzzle, shape: Shape | str | None = None,
                  variant: str | Geometry | None = None) -> CandidateGrid:
    """Any form of a puzzle or of its pencil marks as a ``CandidateGrid`` (a ``Grid``'s candidates computed, a
    ``CandidateGrid`` kept as is); raise ``InvalidGridError`` when filled cells clash."""
    found = as_logic_puzzle(puzzle, shape, variant)
    if isinstance(found, CandidateGrid):
        found.to_grid().validate()  # pencil marks: a cell with one candidate counts as filled
        return found
    return CandidateGrid.from_grid(found.validate())  # its filled cells are the grid's: checked once


