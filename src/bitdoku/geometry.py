"""``Geometry``: which cells of a grid must differ. Classic Sudoku, and the variants built on the same engine.

A classic grid has rows, columns and boxes. A variant changes that data and nothing else:

* extra units (each N cells, each digit once): ``x`` adds the two long diagonals, ``windoku`` adds windows, boxes
  shifted one cell in from the top-left corner with one cell between them (four 3x3 windows on 9x9);
* other units in place of the boxes: ``jigsaw`` reads a *region map*, one symbol a cell (``AAABBBCCC...``), N
  cells a symbol;
* peer relations (two cells that must differ without sharing a unit): ``anti-knight`` (a chess knight's move
  apart) and ``anti-king`` (a king's move apart);
* ``nonconsecutive``: orthogonal neighbours never hold consecutive digits;
* ``killer``: cages (``bitdoku.constraints``), sets of cells whose digits all differ and add up to a total; the
  cage mates are peers, and the kernel of cages (``kernels/cages.py``) reads the totals from ``cage_tables``.

Rules combine with ``+`` (``"x+anti-knight"``). Engines and kernels read the tables (``Geometry.tables``: units,
the units of each cell, the peers of each cell, the neighbours of each cell), so a variant is data, not code.
The classic geometry of a shape gives the same units, in the same order, as ``Shape.tables``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from bitdoku.constraints.cages import Cage, cage_symbol, combinations, unit_remainders
from bitdoku.constraints.variant import Constraint, compile_constraints, orthogonal_neighbours
from bitdoku.errors import ParseError, ShapeError, cell_name
from bitdoku.shape import Shape

CLASSIC = "classic"
JIGSAW = "jigsaw"
KILLER = "killer"
#: The name of a grid with setters' constraints (``bitdoku.constraints.variant``): they come from their data.
CONSTRAINTS = "constraints"
#: The rules a geometry may add, in the order a name lists them.
RULES = ("x", "windoku", "anti-knight", "anti-king", "nonconsecutive")
VARIANTS = (CLASSIC, JIGSAW, KILLER, CONSTRAINTS, *RULES)

_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_KING = ((-1, -1), (-1, 1), (1, -1), (1, 1))  # the orthogonal king moves share a row or a column already
_NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))


class GeometryTables(NamedTuple):
    """A geometry as read-only int32 arrays, ragged tables in CSR form (``start[i]:start[i+1]`` slices ``items``).

    ``units[u]`` lists the N cells of unit u: rows (0..N-1), columns (N..2N-1), boxes or regions (2N..3N-1), then
    the extra units (diagonals, windows). ``cell_units`` gives the units of each cell, ``peers`` the other cells
    that may not hold its digit (unit mates and the cells of peer relations), ``adjacent`` its orthogonal
    neighbours when neighbours may not hold consecutive digits (empty otherwise).
    """

    units: NDArray[np.int32]
    cell_unit_start: NDArray[np.int32]
    cell_units: NDArray[np.int32]
    peer_start: NDArray[np.int32]
    peers: NDArray[np.int32]
    adjacent_start: NDArray[np.int32]
    adjacent: NDArray[np.int32]


def _narrow(one: NDArray[np.int64], other: NDArray[np.int64]) -> bool:
    """Whether some digit leaves two related cells at most two digits each, at least one of them shared."""
    return any(bin(int(a)).count("1") <= 2 and bin(int(b)).count("1") <= 2 and int(a) & int(b)
               for a, b in zip(one.tolist(), other.tolist(), strict=True))


class CageTables(NamedTuple):
    """A Killer geometry as the kernel of cages reads it: peers (CSR, the cage mates among them), the N-cell units
    and each cell's, and the cells and digit sets (CSR) of the summed groups: the cages, then the rule of 45's
    groups (``constraints.unit_remainders``), then the setters' groups (a renban's runs; an extra region has
    none). A group without a total has no digit sets. ``arcs`` (source, target, table; int32 rows, grouped by
    source: CSR ``arc_start``) and ``arc_masks`` (a table a row, N masks) are the setters' pair relations
    (``constraints.variant``); ``arc_pairs`` (two arc indices a row) the arcs from one cell into two of its peers
    whose tables can leave both one and the same digit (``kernels.cages._paired_supports``)."""

    peer_start: NDArray[np.int32]
    peers: NDArray[np.int32]
    units: NDArray[np.int32]
    cell_units: NDArray[np.int32]
    cage_start: NDArray[np.int32]
    cage_cells: NDArray[np.int32]
    combo_start: NDArray[np.int32]
    combos: NDArray[np.int64]
    arc_start: NDArray[np.int32]
    arcs: NDArray[np.int32]
    arc_masks: NDArray[np.int64]
    arc_pairs: NDArray[np.int32]


@dataclass(frozen=True)
class Geometry:
    """The constraints of a grid: its box ``shape``, the ``rules`` it adds and, for jigsaw, its region map.

    Example
    -------
    >>> g = Geometry.parse("x")
    >>> g.name, len(g.tables.units), g.unit_name(27)
    ('x', 29, 'the main diagonal')
    >>> Geometry.parse("windoku+anti-king").name
    'windoku+anti-king'
    >>> Geometry.jigsaw("AABB" "AABB" "CCDD" "CCDD").unit_name(8)
    'region A'
    """

    shape: Shape = field(default_factory=lambda: Shape(3, 3))
    rules: frozenset[str] = frozenset()
    #: The region of each cell (0..N-1) for a jigsaw, ``None`` for boxes.
    regions: tuple[int, ...] | None = None
    #: The symbol of each region in the map it was read from (``labels[region]``).
    labels: str = ""
    #: A Killer's cages, in the reading order of their first cells (``formats/killer.py`` reads and checks them).
    cages: tuple[Cage, ...] = ()
    #: The setters' constraints (thermometers, dots, lines; ``bitdoku.constraints.variant``), as read.
    constraints: tuple[Constraint, ...] = ()

    def __post_init__(self) -> None:
        unknown = sorted(set(self.rules) - set(RULES))
        if unknown:
            raise ParseError(f"unknown variant rule {unknown[0]!r}; known: {', '.join(RULES)}")
        if self.constraints and (self.regions is not None or "windoku" in self.rules):
            other = "jigsaw" if self.regions is not None else "windoku"
            raise ParseError(f"setters' constraints go on a grid of boxes for now, not with {other!r}")
        if self.constraints:
            return  # the kernel of cages keeps the rules' peers and, for nonconsecutive, arcs of its own
        if self.cages and (self.rules or self.regions is not None):
            other = "jigsaw" if self.regions is not None else sorted(self.rules)[0]
            raise ParseError(f"killer cages go on a classic grid for now, not with {other!r}")

    # -- building -------------------------------------------------------------------------------------------

    @classmethod
    def classic(cls, shape: Shape | str = "3x3") -> Geometry:
        """Rows, columns and boxes only."""
        return _classic(Shape.parse(shape))

    @classmethod
    def parse(cls, name: str | Geometry | None, shape: Shape | str | None = None,
              regions: str | None = None, cages: tuple[Cage, ...] | None = None,
              constraints: tuple[Constraint, ...] | None = None) -> Geometry:
        """Read a variant name (``"x"``, ``"windoku+anti-knight"``, ``"jigsaw"`` with ``regions``, ``"killer"``
        with ``cages``, ``"constraints"`` with ``constraints``, ``"classic"``).

        The shape defaults to 9x9, or to the region map's size for a jigsaw.
        """
        if isinstance(name, Geometry):
            return name
        words = [w.strip().lower() for w in (name or CLASSIC).split("+")]
        if any(not w for w in words):
            raise ParseError(f"a variant is written as names joined by '+', like 'x+anti-knight', not {name!r}")
        known = set(VARIANTS)
        for word in words:
            if word not in known:
                raise ParseError(f"unknown variant {word!r}; known: {', '.join(VARIANTS)}")
        rules = frozenset(w for w in words if w in RULES)
        if (CONSTRAINTS in words) != (constraints is not None):
            raise ParseError("setters' constraints come with their data: read them from an f-puzzles link or "
                             "bitdoku's JSON" if constraints is None else
                             "constraints were given for a variant that does not name them")
        if constraints is not None:
            if JIGSAW in words or regions is not None:
                raise ParseError("setters' constraints go on a grid of boxes for now, not with a jigsaw's regions")
            return cls(Shape.parse(shape) if shape is not None else Shape(3, 3), rules, cages=tuple(cages or ()),
                       constraints=tuple(constraints))
        if (KILLER in words) != (cages is not None):
            raise ParseError("a killer needs its cages: read it with Grid.parse(text, variant='killer') from a "
                             "line 'MAP SUMS [GIVENS]' or JSON with \"cages\"" if cages is None else
                             "cages were given for a variant that is not a killer")
        if KILLER in words:
            if JIGSAW in words or regions is not None:
                raise ParseError("killer cages go on a classic grid for now, not with a jigsaw's regions")
            return cls(Shape.parse(shape) if shape is not None else Shape(3, 3), rules, cages=tuple(cages or ()))
        if JIGSAW in words:
            if regions is None:
                raise ParseError("a jigsaw needs its region map: N*N symbols, one a cell (N cells a symbol)")
            return cls.jigsaw(regions, shape, rules=rules)
        if regions is not None:
            raise ParseError("a region map was given for a variant that is not a jigsaw")
        return cls(Shape.parse(shape) if shape is not None else Shape(3, 3), rules)

    @classmethod
    def jigsaw(cls, region_map: str, shape: Shape | str | None = None,
               rules: frozenset[str] = frozenset()) -> Geometry:
        """A jigsaw from its region map: N*N symbols (letters or digits; whitespace is ignored), N cells each.

        Raises ``ParseError`` naming the cell where the map goes wrong. (N*N symbols with at most N cells a
        symbol and at most N symbols leave exactly N cells to each.)
        """
        symbols = "".join(region_map.split())
        if shape is None:
            shape = Shape.infer(len(symbols))
        shape = Shape.parse(shape)
        n = shape.n
        if len(symbols) != shape.n_cells:
            raise ShapeError(f"a {shape.size_name} region map has {shape.n_cells} symbols, found {len(symbols)}")
        labels: list[str] = []
        counts: dict[str, int] = {}
        regions = []
        for cell, symbol in enumerate(symbols):
            if not symbol.isalnum():
                raise ParseError(f"{symbol!r} is not a region symbol; regions are letters or digits",
                                 cell=cell_name(cell, n))
            if symbol not in counts:
                if len(labels) == n:
                    raise ParseError(f"region {symbol!r} is one too many: a {shape.size_name} grid has {n} "
                                     f"regions ({''.join(labels)})", cell=cell_name(cell, n))
                labels.append(symbol)
                counts[symbol] = 0
            counts[symbol] += 1
            if counts[symbol] > n:
                raise ParseError(f"region {symbol!r} has more than {n} cells", cell=cell_name(cell, n))
            regions.append(labels.index(symbol))
        return cls(shape, frozenset(rules), tuple(regions), "".join(labels))

    # -- reading --------------------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The variant name that ``parse`` reads back: ``"classic"``, ``"x"``, ``"jigsaw+anti-king"``, ..."""
        words = ([JIGSAW] if self.regions is not None else []) + ([KILLER] if self.cages else [])
        words += [CONSTRAINTS] if self.constraints else []
        return "+".join(words + [r for r in RULES if r in self.rules]) or CLASSIC

    @property
    def is_classic(self) -> bool:
        """Rows, columns and boxes only: the engines' fast classic paths apply."""
        return self.regions is None and not self.rules and not self.cages and not self.constraints

    @property
    def uses_cage_kernel(self) -> bool:
        """Whether the kernel of cages searches it: a Killer's cages or setters' constraints."""
        return bool(self.cages or self.constraints)

    @property
    def n_units(self) -> int:
        return len(self.tables.units)

    @property
    def tables(self) -> GeometryTables:
        """Units, cell units, peers and neighbours (cached; the arrays are read-only). A cage's cells are peers."""
        if self.cages or self.constraints:
            return self._killer_tables
        return _tables(self.shape, self.rules, self.regions)

    @property
    def relations(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the peers it shares no unit with (a knight's or king's move away, or in its cage): the
        cells whose equal digit is a conflict of a relation, not of a unit (cached)."""
        if self.cages or self.constraints:
            return self._killer_relations
        return _relations(self.shape, self.rules, self.regions)

    @cached_property
    def _killer_tables(self) -> GeometryTables:
        """The classic tables with each cage's cells made peers; kept with the geometry, since every Killer has
        cages of its own (a shared cache of a few geometries would rebuild them on every pass over a file)."""
        classic = _tables(self.shape, self.rules, self.regions)
        mates = _peer_matrix(self.shape, self.rules, self.regions).copy()
        pairs = [(a, b) for cage in self._distinct_groups for a in cage for b in cage if a != b]
        if pairs:
            mates[tuple(np.array(pairs, dtype=np.intp).T)] = True
        rows, peers = np.nonzero(mates)  # row-major: each cell's peers in increasing order
        peer_start = np.zeros(self.shape.n_cells + 1, dtype=np.int32)
        np.cumsum(np.bincount(rows, minlength=self.shape.n_cells), out=peer_start[1:])
        tables = classic._replace(peer_start=peer_start, peers=peers.astype(np.int32))
        for table in tables:
            table.flags.writeable = False
        return tables

    @cached_property
    def _killer_relations(self) -> tuple[tuple[int, ...], ...]:
        classic = _relations(self.shape, self.rules, self.regions)
        unit_mates = self.shape.tables.peers
        mates: list[set[int]] = [set(peers) for peers in classic]
        for group in self._distinct_groups:
            for cell in group:
                mates[cell].update(other for other in group if other != cell and other not in unit_mates[cell])
        return tuple(tuple(sorted(found)) for found in mates)

    @cached_property
    def _distinct_groups(self) -> tuple[tuple[int, ...], ...]:
        """The cells whose digits all differ beyond the units: each cage, each setters' group (``groups``)."""
        compiled = compile_constraints(self.constraints, self.shape.n)
        return tuple(cage.cells for cage in self.cages) + tuple(cells for cells, _ in compiled.groups)

    @cached_property
    def cage_tables(self) -> CageTables:
        """The kernel of cages' tables (``CageTables``), built on first use and kept with the geometry."""
        shape = self.shape
        tables = self.tables
        groups = [*self.cages, *unit_remainders(shape, self.cages)]
        compiled = compile_constraints(self.constraints, shape.n)
        cage_start, cage_cells = csr([list(group.cells) for group in groups] +
                                     [list(cells) for cells, _ in compiled.groups])
        combo_lists = [(list(combinations(len(group.cells), group.total, shape.n)) or [0])  # [0]: no set makes it
                       if group.total is not None else [] for group in groups]
        combo_lists += [list(sets or ()) for _, sets in compiled.groups]
        combo_start, _ = csr([[0] * len(sets) for sets in combo_lists])
        combos = np.array([mask for sets in combo_lists for mask in sets], dtype=np.int64)
        arc_start, arcs, arc_masks = self._arc_tables(compiled.arcs, compiled.tables)
        arc_pairs = self._arc_pairs(arc_start, arcs, arc_masks)
        classic = shape.tables
        return CageTables(tables.peer_start, tables.peers, np.ascontiguousarray(classic.units, dtype=np.int32),
                          np.ascontiguousarray(classic.cell_units, dtype=np.int32), cage_start, cage_cells,
                          combo_start, combos, arc_start, arcs, arc_masks, arc_pairs)

    def _arc_tables(self, arcs: tuple[tuple[int, int, int], ...], masks: tuple[tuple[int, ...], ...]
                    ) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int64]]:
        """The setters' arcs and their tables as arrays, with a nonconsecutive grid's neighbour pairs as arcs."""
        n = self.shape.n
        rows = list(arcs)
        tables = [list(table) for table in masks]
        if "nonconsecutive" in self.rules:
            tables.append([((1 << n) - 1) & ~((1 << d) | (1 << (d - 2) if d > 1 else 0)) for d in range(1, n + 1)])
            rows += [(cell, other, len(tables) - 1) for cell in range(self.shape.n_cells)
                     for other in orthogonal_neighbours(cell, n)]
        rows.sort()
        arc_array = np.array(rows, dtype=np.int32).reshape(-1, 3)
        arc_start = np.zeros(self.shape.n_cells + 1, dtype=np.int32)
        np.cumsum(np.bincount(arc_array[:, 0], minlength=self.shape.n_cells), out=arc_start[1:])
        mask_array = np.array(tables, dtype=np.int64).reshape(-1, n)
        return arc_start, arc_array, mask_array

    def _arc_pairs(self, arc_start: NDArray[np.int32], arcs: NDArray[np.int32], masks: NDArray[np.int64]
                   ) -> NDArray[np.int32]:
        """The pairs of arcs from one cell into two cells that must differ, where some digit of the cell leaves
        each of them at most two digits, some shared: only there can both be left one and the same digit (dots,
        X and V, whispers, clones; not a nonconsecutive grid's neighbours nor a thermometer's long ranges, which
        would cost a scan at every node and never find anything)."""
        tables = self.tables
        found = []
        for source in range(self.shape.n_cells):
            mine = range(int(arc_start[source]), int(arc_start[source + 1]))
            for first, second in itertools.combinations(mine, 2):
                one, other = int(arcs[first, 1]), int(arcs[second, 1])
                if source in (one, other) or one == other:
                    continue
                mates = tables.peers[tables.peer_start[one]:tables.peer_start[one + 1]]
                if other in mates and _narrow(masks[arcs[first, 2]], masks[arcs[second, 2]]):
                    found.append((first, second))
        return np.array(found, dtype=np.int32).reshape(-1, 2)

    def cage_of(self, cell: int) -> int:
        """The index of the cage that holds ``cell``, -1 for none."""
        return next((index for index, cage in enumerate(self.cages) if cell in cage.cells), -1)

    def region_map(self) -> str:
        """The jigsaw's region map as one line of symbols (the boxes, lettered A.., for a box geometry)."""
        n = self.shape.n
        if self.regions is not None:
            return "".join(self.labels[r] for r in self.regions)
        return "".join(_ALPHABET[self.shape.box_of(*divmod(cell, n))] for cell in range(self.shape.n_cells))

    def unit_name(self, unit: int) -> str:
        """How people call a unit: ``'row 3'``, ``'box 2'``, ``'region F'``, ``'the anti-diagonal'``, ``'window 2'``."""
        n = self.shape.n
        if unit < 2 * n or (unit < 3 * n and self.regions is None):
            return self.shape.unit_name(unit)
        if unit < 3 * n:
            return f"region {self.labels[unit - 2 * n]}"
        extra = unit - 3 * n
        if "x" in self.rules:
            if extra < 2:
                return ("the main diagonal", "the anti-diagonal")[extra]
            extra -= 2
        return f"window {extra + 1}"

    def relation(self, a: int, b: int) -> str:
        """Why two cells that share no unit must differ: ``"a knight's move apart"`` or ``"a king's move apart"``."""
        n = self.shape.n
        cage = self.cage_of(a)
        if cage >= 0 and b in self.cages[cage].cells:
            return f"cage {cage_symbol(cage)}"
        step = (abs(a // n - b // n), abs(a % n - b % n))
        if "anti-knight" in self.rules and step in ((1, 2), (2, 1)):
            return "cells a knight's move apart"
        return "cells a king's move apart"

    def __str__(self) -> str:
        return self.name


_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def consecutive_mask(digit: int, n: int) -> int:
    """The bits of digit - 1 and digit + 1 (those in 1..n): what a nonconsecutive neighbour of ``digit`` may not
    hold."""
    bit = 1 << (digit - 1)
    return ((bit << 1) | (bit >> 1)) & ((1 << n) - 1)


#: How many geometries' tables each cache keeps (this module's, the kernels', the reference engine's and the
#: logic's), the most recently used. Enough for any file on a few maps, each built once; bounded because geometries
#: come from input: a file of distinct jigsaw maps kept every map's tables for the life of the process (9x9: tens
#: of KB a map across the caches; larger shapes: up to a few MB), so a large or hostile one could exhaust memory.
GEOMETRIES_KEPT = 64


@cache
def _classic(shape: Shape) -> Geometry:
    return Geometry(shape)


def _windows(shape: Shape) -> list[NDArray[np.int32]]:
    """Windoku windows: box-sized, one cell in from the top and left edges, one cell apart."""
    n, r, c = shape.n, shape.box_rows, shape.box_cols
    cells = np.arange(n * n, dtype=np.int32).reshape(n, n)
    tops = range(1, n - r, r + 1)
    lefts = range(1, n - c, c + 1)
    return [cells[top : top + r, left : left + c].ravel() for top in tops for left in lefts]


@lru_cache(maxsize=GEOMETRIES_KEPT)
def _relations(shape: Shape, rules: frozenset[str], regions: tuple[int, ...] | None) -> tuple[tuple[int, ...], ...]:
    tables = _tables(shape, rules, regions)
    found = []
    for cell in range(shape.n_cells):
        mine = tables.cell_units[tables.cell_unit_start[cell] : tables.cell_unit_start[cell + 1]]
        mates = set(tables.units[mine].ravel().tolist())
        peers = tables.peers[tables.peer_start[cell] : tables.peer_start[cell + 1]].tolist()
        found.append(tuple(peer for peer in peers if peer not in mates))
    return tuple(found)


@lru_cache(maxsize=GEOMETRIES_KEPT)
def _peer_matrix(shape: Shape, rules: frozenset[str], regions: tuple[int, ...] | None) -> NDArray[np.bool_]:
    """Which cells are peers, as an N*N x N*N boolean matrix (read-only)."""
    tables = _tables(shape, rules, regions)
    matrix = np.zeros((shape.n_cells, shape.n_cells), dtype=np.bool_)
    rows = np.repeat(np.arange(shape.n_cells), np.diff(tables.peer_start))
    matrix[rows, tables.peers] = True
    matrix.flags.writeable = False
    return matrix


def _moves(n: int, cell: int, moves: tuple[tuple[int, int], ...]) -> list[int]:
    row, col = divmod(cell, n)
    return [(row + dr) * n + col + dc for dr, dc in moves if 0 <= row + dr < n and 0 <= col + dc < n]


def csr(lists: list[list[int]]) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """A ragged table as the kernels read it (CSR): ``start[i]:start[i + 1]`` slices ``items`` for row i."""
    start = np.zeros(len(lists) + 1, dtype=np.int32)
    start[1:] = np.cumsum([len(items) for items in lists])
    items = np.array([i for items in lists for i in items], dtype=np.int32)
    return start, items


@lru_cache(maxsize=GEOMETRIES_KEPT)
def _tables(shape: Shape, rules: frozenset[str], regions: tuple[int, ...] | None) -> GeometryTables:
    """Build the tables of one geometry (pure, so caching it changes no result)."""
    n, n_cells = shape.n, shape.n_cells
    classic = shape.tables.units
    units = list(classic[: 2 * n])
    if regions is None:
        units += list(classic[2 * n :])
    else:
        by_region = np.array(regions)
        units += [np.flatnonzero(by_region == region).astype(np.int32) for region in range(n)]
    if "x" in rules:
        units += [np.arange(n, dtype=np.int32) * (n + 1), (np.arange(n, dtype=np.int32) + 1) * (n - 1)]
    if "windoku" in rules:
        units += _windows(shape)
    unit_table = np.array(units, dtype=np.int32)
    cell_units: list[list[int]] = [[] for _ in range(n_cells)]
    for unit, members in enumerate(unit_table):
        for cell in members:
            cell_units[cell].append(unit)
    peers = []
    adjacent = []
    for cell in range(n_cells):
        mates = set(unit_table[cell_units[cell]].ravel().tolist())
        if "anti-knight" in rules:
            mates.update(_moves(n, cell, _KNIGHT))
        if "anti-king" in rules:
            mates.update(_moves(n, cell, _KING))
        mates.discard(cell)
        peers.append(sorted(mates))
        adjacent.append(_moves(n, cell, _NEIGHBOURS) if "nonconsecutive" in rules else [])
    tables = GeometryTables(unit_table, *csr(cell_units), *csr(peers), *csr(adjacent))
    for table in tables:
        table.flags.writeable = False
    return tables
