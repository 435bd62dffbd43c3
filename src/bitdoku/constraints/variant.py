"""The variant setters' constraints (f-puzzles' names) as data: pair relations, digit sets and one-cell parities.

A ``Constraint`` is what a setter draws: a thermometer's cells from the bulb, a dot between two cells, a renban
line. The engines never see it as drawn; they see what it compiles to (``compile_constraints``):

* **arcs**: "the digit of cell b is one that the digit of cell a allows", a table of N masks each (bit e-1 of
  ``table[d-1]`` set when a = d allows b = e). A pair relation is two arcs, one each way; a one-cell rule (odd,
  even) is an arc from a cell to itself, whose table keeps a digit only for itself. The kernel keeps each arc's
  target to the digits its source's candidates allow (arc consistency), which on a thermometer is exactly its
  bounds reasoning: r2c1 of a 4-cell bulb-first thermometer is at least 2 and at most 7;
* **groups**: cells whose digits all differ (an extra region, a renban line) and, for a renban, the digit sets
  they may hold (every run of consecutive digits as long as the line): the kernel of cages' sets, as a Killer
  cage's sums are.

Kinds read in this round (f-puzzles' keys): ``thermometer``, ``difference`` (white dot, value 1 unless given),
``ratio`` (black dot, value 2 unless given), ``xv`` (value 10 for X, 5 for V), ``whispers`` (neighbours on the
line differ by at least the value, 5 unless given), ``palindrome``, ``renban``, ``clone`` (``cells`` then the
same number of ``others``), ``minimum`` / ``maximum`` (a cell below / above its orthogonal neighbours), ``odd``,
``even``, ``extraregion``, and ``nonconsecutive`` (two orthogonal neighbours not consecutive). ``negative``
marks the pairs a setter's "all dots given" leaves without a dot: the relation must not hold there.

Each kind also says, in plain Python, whether digits keep it (``broken``): the reference engine's oracle.

>>> thermo = Constraint("thermometer", (0, 4, 8))
>>> constraint_name(thermo, 4)
'thermometer r1c1-r3c1'
>>> broken(thermo, {0: 2, 4: 2}, 4), broken(thermo, {0: 1, 4: 3}, 4)
(True, False)
>>> compiled = compile_constraints((thermo,), 4)
>>> [format(mask, "04b") for mask in compiled.tables[compiled.arcs[0][2]]]  # r1c1 = 1, 2, 3, 4 leaves r2c1
['1110', '1100', '1000', '0000']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from bitdoku.errors import ParseError, cell_name

#: Kinds whose cells form a line, each neighbour pair on it related.
LINES = ("thermometer", "whispers", "renban", "palindrome")
#: Kinds on two orthogonally adjacent cells (a dot, an X or a V), and the one-pair rule of nonconsecutive.
DOTS = ("difference", "ratio", "xv", "nonconsecutive")
#: Kinds on one cell.
CELLS = ("odd", "even", "minimum", "maximum")
#: Every kind a ``Constraint`` may be.
KINDS = (*LINES, *DOTS, *CELLS, "clone", "extraregion")
#: The value of a kind when the setter gives none.
DEFAULT_VALUES = {"difference": 1, "ratio": 2, "whispers": 5, "xv": 10}


@dataclass(frozen=True)
class Constraint:
    """One constraint as drawn: its ``kind`` (f-puzzles' name), its cells (0-based; a line's from its start, a
    thermometer's from the bulb), a ``value`` where the kind has one (a dot's difference or ratio, X's 10 or V's 5,
    a whisper's gap), ``others`` for a clone's copy, and ``negative`` for a pair that must *not* keep the
    relation (no dot where all dots are given)."""

    kind: str
    cells: tuple[int, ...]
    value: int | None = None
    others: tuple[int, ...] = ()
    negative: bool = False

    @property
    def amount(self) -> int:
        """The value the rule uses: the given one or the kind's default."""
        return self.value if self.value is not None else DEFAULT_VALUES.get(self.kind, 0)


def constraint_name(constraint: Constraint, n: int) -> str:
    """``thermometer r1c1-r4c1``, ``white dot r1c1-r1c2``, ``not X r2c2-r2c3``: how errors and steps name it."""
    label = {"difference": "white dot", "ratio": "black dot", "extraregion": "extra region"}.get(
        constraint.kind, constraint.kind)
    if constraint.kind == "xv":
        label = {10: "X", 5: "V"}.get(constraint.amount, f"sum {constraint.amount}")
    if constraint.negative:
        label = f"not {label}"
    cells = constraint.cells
    joined = "-".join(cell_name(cell, n) for cell in ((cells[0], cells[-1]) if constraint.kind in LINES
                                                     and len(cells) > 2 else cells))
    return f"{label} {joined}"


# -- the relations, as the oracle reads them ----------------------------------------------------------------


def _pair_rule(constraint: Constraint) -> Callable[[int, int], bool]:
    """The relation two related cells of the constraint keep, as a predicate on (first digit, second digit)."""
    kind, value = constraint.kind, constraint.amount
    rule: Callable[[int, int], bool]
    if kind in ("thermometer", "minimum"):
        rule = _less
    elif kind == "maximum":
        rule = _greater
    elif kind == "difference":
        rule = lambda a, b: abs(a - b) == value  # noqa: E731  (one line a kind)
    elif kind == "ratio":
        rule = lambda a, b: a == value * b or b == value * a  # noqa: E731
    elif kind == "xv":
        rule = lambda a, b: a + b == value  # noqa: E731
    elif kind == "whispers":
        rule = lambda a, b: abs(a - b) >= value  # noqa: E731
    elif kind == "nonconsecutive":
        rule = lambda a, b: abs(a - b) != 1  # noqa: E731
    elif kind in ("palindrome", "clone"):
        rule = _equal
    else:
        raise ValueError(f"{kind!r} relates no pairs")
    if constraint.negative:
        return lambda a, b: not rule(a, b)
    return rule


def _less(a: int, b: int) -> bool:
    return a < b


def _greater(a: int, b: int) -> bool:
    return a > b


def _equal(a: int, b: int) -> bool:
    return a == b


def related_pairs(constraint: Constraint, n: int) -> list[tuple[int, int]]:
    """The (first, second) cell pairs the constraint relates, in the order its predicate reads them."""
    kind, cells = constraint.kind, constraint.cells
    if kind in ("thermometer", "whispers", "difference", "ratio", "xv", "nonconsecutive"):
        return list(pairwise(cells))
    if kind == "palindrome":
        return [(cells[i], cells[-1 - i]) for i in range(len(cells) // 2)]
    if kind == "clone":
        return list(zip(cells, constraint.others, strict=True))
    if kind in ("minimum", "maximum"):
        return [(cells[0], other) for other in orthogonal_neighbours(cells[0], n)]
    return []


def orthogonal_neighbours(cell: int, n: int) -> list[int]:
    """The cells above, below, left and right of ``cell`` that are in the grid."""
    row, col = divmod(cell, n)
    return [r * n + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < n and 0 <= c < n]


def _parity_allows(kind: str, digit: int) -> bool:
    return digit % 2 == (1 if kind == "odd" else 0)


def broken(constraint: Constraint, digits: Mapping[int, int], n: int) -> bool:
    """Whether the digits placed so far on an N x N grid (cell -> digit; cells not in it are empty) already break
    the constraint: the reference engine's check, in the plainest terms, applied to every constraint a placed
    digit touches."""
    kind = constraint.kind
    if kind in ("odd", "even"):
        cell = constraint.cells[0]
        return cell in digits and not _parity_allows(kind, digits[cell])
    if kind in ("renban", "extraregion"):
        placed = [digits[cell] for cell in constraint.cells if cell in digits]
        if len(set(placed)) != len(placed):
            return True
        return kind == "renban" and bool(placed) and max(placed) - min(placed) >= len(constraint.cells)
    rule = _pair_rule(constraint)
    return any(a in digits and b in digits and not rule(digits[a], digits[b])
               for a, b in related_pairs(constraint, n))


# -- checking what was read ---------------------------------------------------------------------------------


def check_constraints(constraints: tuple[Constraint, ...], n: int) -> None:
    """Raise ``ParseError`` for a constraint no digits can keep as drawn: a cell outside the grid, a kind bitdoku
    does not know, a line that repeats a cell, a dot on cells that are not neighbours, a thermometer or renban
    longer than the digits, a clone whose copy has another length."""
    for constraint in constraints:
        if constraint.kind not in KINDS:
            raise ParseError(f"this puzzle uses {constraint.kind!r}, which bitdoku does not support yet")
        cells = (*constraint.cells, *constraint.others)
        if not constraint.cells or any(not 0 <= cell < n * n for cell in cells):
            raise ParseError(f"{constraint.kind}: a cell outside the {n}x{n} grid")
        where = constraint_name(constraint, n)
        if len(set(constraint.cells)) != len(constraint.cells):
            raise ParseError(f"{where}: a cell appears twice")
        _check_size(constraint, where, n)


def _check_size(constraint: Constraint, where: str, n: int) -> None:
    kind, cells = constraint.kind, constraint.cells
    if kind in DOTS and (len(cells) != 2 or cells[1] not in orthogonal_neighbours(cells[0], n)):
        raise ParseError(f"{where}: its two cells must be orthogonal neighbours")
    if kind in CELLS and len(cells) != 1:
        raise ParseError(f"{where}: a {kind} is on one cell")
    if kind in ("thermometer", "renban", "extraregion") and len(cells) > n:
        raise ParseError(f"{where}: {len(cells)} cells, but there are only {n} different digits")
    if kind == "clone" and len(constraint.others) != len(cells):
        raise ParseError(f"{where}: a clone's copy has {len(constraint.others)} cells, not {len(cells)}")
    if kind in LINES and len(cells) < 2:
        raise ParseError(f"{where}: a line joins two cells at least")


# -- what the kernel reads ----------------------------------------------------------------------------------


class CompiledConstraints(NamedTuple):
    """Constraints as the kernel of cages reads them: ``arcs`` (source cell, target cell, table index), the
    ``tables`` (N masks each), and the ``groups`` of cells whose digits all differ, with the digit sets each may
    hold (``None``: any)."""

    arcs: tuple[tuple[int, int, int], ...]
    tables: tuple[tuple[int, ...], ...]
    groups: tuple[tuple[tuple[int, ...], tuple[int, ...] | None], ...]


def compile_constraints(constraints: tuple[Constraint, ...], n: int) -> CompiledConstraints:
    """The arcs, tables and groups of ``constraints`` on an N x N grid (tables shared between equal relations)."""
    tables: dict[tuple[int, ...], int] = {}
    arcs: list[tuple[int, int, int]] = []

    def table_index(masks: tuple[int, ...]) -> int:
        return tables.setdefault(masks, len(tables))

    groups: list[tuple[tuple[int, ...], tuple[int, ...] | None]] = []
    for constraint in constraints:
        kind = constraint.kind
        if kind in ("odd", "even"):
            cell = constraint.cells[0]
            arcs.append((cell, cell, table_index(_parity_table(kind, n))))
            continue
        if kind in ("renban", "extraregion", "thermometer"):
            sets = _runs(len(constraint.cells), n) if kind == "renban" else None
            groups.append((constraint.cells, sets))
            if kind != "thermometer":
                continue
        forward, backward = _pair_tables(constraint, n)
        for a, b in related_pairs(constraint, n):
            arcs.append((a, b, table_index(forward)))
            arcs.append((b, a, table_index(backward)))
    ordered = sorted(tables, key=tables.__getitem__)
    return CompiledConstraints(tuple(arcs), tuple(ordered), tuple(groups))


def _pair_tables(constraint: Constraint, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The forward table (the second cell's digits each digit of the first allows) and the backward one."""
    return _tables_of(constraint.kind, constraint.amount, constraint.negative, n)


@lru_cache(maxsize=256)
def _tables_of(kind: str, value: int, negative: bool, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    rule = _pair_rule(Constraint(kind, (0,), value, negative=negative))
    digits = range(1, n + 1)
    forward = tuple(sum(1 << (e - 1) for e in digits if rule(d, e)) for d in digits)
    backward = tuple(sum(1 << (d - 1) for d in digits if rule(d, e)) for e in digits)
    return forward, backward


@lru_cache(maxsize=64)
def _parity_table(kind: str, n: int) -> tuple[int, ...]:
    return tuple((1 << (d - 1)) if _parity_allows(kind, d) else 0 for d in range(1, n + 1))


@lru_cache(maxsize=256)
def _runs(length: int, n: int) -> tuple[int, ...]:
    """Every run of ``length`` consecutive digits of 1..n, as digit sets: a renban line's possible digits."""
    run = (1 << length) - 1
    return tuple(run << start for start in range(n - length + 1))
