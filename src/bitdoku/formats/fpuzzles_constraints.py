"""The setters' constraints of f-puzzles' JSON, read as ``constraints.variant.Constraint`` and written back.

f-puzzles keeps each kind under its own key, a list of entries (field names as f-puzzles writes them and as
David Clamage's SudokuSolver reads them, ``PuzzleFormats/FPuzzlesBoard.cs``):

* lines: ``thermometer``, ``palindrome``, ``renban``, ``whispers``: ``{"lines": [["R1C1", "R2C1", ...], ...]}``
  (each line its own constraint; a thermometer's from the bulb; whispers may carry a ``value``, the gap);
* pairs: ``difference`` and ``ratio`` (white and black dots; ``value`` for a difference or ratio other than 1 or
  2), ``xv`` (``"value": "X"`` or ``"V"``): ``{"cells": ["R1C1", "R1C2"], "value": ...}``;
* one cell: ``odd``, ``even``, ``minimum``, ``maximum``: ``{"cell": "R1C1"}``;
* ``extraregion``: ``{"cells": [...]}``; ``clone``: ``{"cells": [...], "cloneCells": [...]}``;
* ``negative``: the names of the pair kinds whose every instance is drawn (``"ratio"``, ``"difference"``,
  ``"xv"``): every pair of neighbours without one keeps none of the relation. f-puzzles writes the white dots'
  negative constraint as the ``nonconsecutive`` flag: with white dots, the flag means "no other neighbours are
  consecutive" (as SudokuSolver reads it), not nonconsecutive everywhere (``white_dots_negative``);
* flags: ``disjointgroups`` (cells in the same place of each box all differ) and one diagonal alone
  (``diagonal+`` from the bottom left, ``diagonal-`` from the top left) read as extra regions here.

>>> record = {"size": 4, "thermometer": [{"lines": [["R1C1", "R2C1", "R3C1"]]}], "xv": [{"cells": ["R1C2",
...           "R1C3"], "value": "V"}]}
>>> [(c.kind, c.cells, c.value) for c in read_constraints(record, Shape(2, 2))]
[('thermometer', (0, 4, 8), None), ('xv', (1, 2), 5)]
"""

from __future__ import annotations

from collections.abc import Iterator

from bitdoku.constraints.variant import DEFAULT_VALUES, Constraint, check_constraints, orthogonal_neighbours
from bitdoku.errors import ParseError, cell_name
from bitdoku.formats.killer import cage_cell_index
from bitdoku.shape import Shape

#: f-puzzles' keys of line constraints, each entry ``{"lines": [[cells], ...]}``.
LINE_KEYS = ("thermometer", "palindrome", "renban", "whispers")
#: Keys of constraints on two neighbouring cells, each entry ``{"cells": [a, b], "value": ...}``.
PAIR_KEYS = ("difference", "ratio", "xv")
#: Keys of one-cell constraints, each entry ``{"cell": "R1C1"}``.
CELL_KEYS = ("odd", "even", "minimum", "maximum")
#: Every key this module reads (``negative`` and the flags included).
KEYS = frozenset({*LINE_KEYS, *PAIR_KEYS, *CELL_KEYS, "extraregion", "clone", "negative", "disjointgroups"})
_XV = {"X": 10, "V": 5}


def read_constraints(data: dict[str, object], shape: Shape, single_diagonal: str | None = None
                     ) -> tuple[Constraint, ...]:
    """The setters' constraints of f-puzzles JSON, in the order of ``KEYS`` and of each list, checked
    (``check_constraints``); ``single_diagonal`` (``"diagonal+"`` or ``"diagonal-"``) adds that diagonal as an
    extra region. ``ParseError`` names the key and the entry that is wrong."""
    n = shape.n
    found: list[Constraint] = []
    for key in LINE_KEYS:
        for index, entry in _entries(data, key):
            value = _number(entry.get("value"), f"{key} {index}") if key == "whispers" else None
            for line in _lines(entry, key, index):
                found.append(Constraint(key, tuple(_cells(line, shape, f"{key} {index}")), value))
    negative = _negative(data.get("negative")) | ({"difference"} if white_dots_negative(data) else set())
    for key in PAIR_KEYS:
        marked = []
        for index, entry in _entries(data, key):
            cells = tuple(_cells(entry.get("cells"), shape, f"{key} {index}"))
            marked.append(Constraint(key, cells, _pair_value(key, entry.get("value"), f"{key} {index}")))
        found += marked
        if key in negative:
            found += _negatives(key, marked, n)
    for key in CELL_KEYS:
        for index, entry in _entries(data, key):
            found.append(Constraint(key, (_cell(entry.get("cell"), shape, f"{key} {index}"),)))
    for index, entry in _entries(data, "extraregion"):
        found.append(Constraint("extraregion", tuple(_cells(entry.get("cells"), shape, f"extraregion {index}"))))
    for index, entry in _entries(data, "clone"):
        where = f"clone {index}"
        found.append(Constraint("clone", tuple(_cells(entry.get("cells"), shape, where)), None,
                                tuple(_cells(entry.get("cloneCells"), shape, where))))
    if data.get("disjointgroups"):
        found += _disjoint_groups(shape)
    if single_diagonal is not None:
        found.append(Constraint("extraregion", _diagonal(single_diagonal, n)))
    constraints = tuple(found)
    check_constraints(constraints, n)
    return constraints


def write_constraints(constraints: tuple[Constraint, ...], n: int) -> dict[str, object]:
    """The f-puzzles keys of ``constraints`` (what ``read_constraints`` reads back; negative pairs as the
    ``negative`` flag of their kind, extra regions as ``extraregion``)."""
    record: dict[str, list[dict[str, object]]] = {}
    negative: list[str] = []
    for constraint in constraints:
        kind, names = constraint.kind, [cell_name(cell, n).upper() for cell in constraint.cells]
        if constraint.negative:
            negative += [] if kind in negative else [kind]
            continue
        entry: dict[str, object]
        if kind in LINE_KEYS:
            entry = {"lines": [names]}
            if kind == "whispers" and constraint.value is not None:
                entry["value"] = str(constraint.value)
        elif kind in PAIR_KEYS:
            entry = {"cells": names}
            if kind == "xv":
                entry["value"] = {10: "X", 5: "V"}.get(constraint.amount, str(constraint.amount))
            elif constraint.value is not None and constraint.value != DEFAULT_VALUES[kind]:
                entry["value"] = str(constraint.value)
        elif kind in CELL_KEYS:
            entry = {"cell": names[0]}
        elif kind == "clone":
            entry = {"cells": names, "cloneCells": [cell_name(cell, n).upper() for cell in constraint.others]}
        elif kind == "extraregion":
            entry = {"cells": names}
        else:
            raise ValueError(f"f-puzzles has no {kind!r} constraint that bitdoku can write")
        record.setdefault(kind, []).append(entry)
    result: dict[str, object] = dict(record)
    if negative:
        result["negative"] = negative
    return result


def white_dots_negative(data: dict[str, object]) -> bool:
    """Whether the ``nonconsecutive`` flag is the white dots' negative constraint: it is set beside white dots
    (Bird in a storm's rules: "a white dot between two cells means they are consecutive; all dots are given")."""
    return bool(data.get("nonconsecutive")) and bool(data.get("difference"))


def _entries(data: dict[str, object], key: str) -> Iterator[tuple[int, dict[str, object]]]:
    """The entries of a key's list, numbered from 1 for errors; a key that is not a list of objects is refused."""
    entries = data.get(key)
    if not entries:
        return
    if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
        raise ParseError(f'"{key}" is a list of objects, not {entries!r:.60}')
    yield from enumerate(entries, start=1)


def _lines(entry: dict[str, object], key: str, index: int) -> list[object]:
    lines = entry.get("lines")
    if not isinstance(lines, list) or not lines:
        raise ParseError(f'{key} {index}: expected {{"lines": [["R1C1", "R2C1", ...]]}}, found {entry!r:.80}')
    return lines


def _cells(names: object, shape: Shape, where: str) -> list[int]:
    if not isinstance(names, list) or not names:
        raise ParseError(f'{where}: expected a list of cells like ["R1C1", "R1C2"], found {names!r:.60}')
    return [cage_cell_index(name, shape, where, "R1C1") for name in names]


def _cell(name: object, shape: Shape, where: str) -> int:
    return cage_cell_index(name, shape, where, "R1C1")


def _number(value: object, where: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value)
    raise ParseError(f"{where}: its value {value!r} is not a number")


def _pair_value(key: str, value: object, where: str) -> int | None:
    """A dot's value (None: the kind's default), X's 10 or V's 5."""
    if key != "xv":
        return _number(value, where)
    if isinstance(value, str) and value.strip().upper() in _XV:
        return _XV[value.strip().upper()]
    raise ParseError(f"{where}: an XV is marked \"X\" or \"V\", not {value!r}")


def _negative(value: object) -> set[str]:
    if not value:
        return set()
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise ParseError(f'"negative" lists constraint names like ["ratio", "xv"], not {value!r:.60}')
    unknown = sorted(set(value) - set(PAIR_KEYS))
    if unknown:
        raise ParseError(f"this puzzle uses the negative constraint of {unknown[0]!r}, which bitdoku does not "
                         "support yet")
    return set(value)


def _negatives(key: str, marked: list[Constraint], n: int) -> list[Constraint]:
    """Every pair of neighbours without a mark of ``key``: not the relation (for X and V, neither sum)."""
    taken = {frozenset(constraint.cells) for constraint in marked}
    values = (10, 5) if key == "xv" else (None,)
    return [Constraint(key, (cell, other), value, negative=True)
            for cell in range(n * n) for other in orthogonal_neighbours(cell, n)
            if cell < other and frozenset((cell, other)) not in taken for value in values]


def _disjoint_groups(shape: Shape) -> list[Constraint]:
    """The cells in the same place of each box, one extra region a place."""
    n = shape.n
    places: dict[tuple[int, int], list[int]] = {}
    for cell in range(n * n):
        row, col = divmod(cell, n)
        places.setdefault((row % shape.box_rows, col % shape.box_cols), []).append(cell)
    return [Constraint("extraregion", tuple(cells)) for cells in places.values()]


def _diagonal(key: str, n: int) -> tuple[int, ...]:
    if key == "diagonal-":
        return tuple(i * n + i for i in range(n))
    return tuple((n - 1 - i) * n + i for i in range(n))
