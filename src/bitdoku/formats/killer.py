"""Killer Sudoku as one line, ``MAP SUMS [GIVENS]``, the format of the public Killer lists.

``MAP`` has a symbol a cell, row by row; the cells of one symbol form a cage (``.`` for a cell in no cage).
``SUMS`` lists the cages' sums, comma separated, in the order of each cage's first cell in reading order (``-``
for a cage without a sum, whose digits need only differ). ``GIVENS`` is optional: a puzzle line of the same size
(``.`` or ``0`` for an empty cell). Further fields (a solution, a name) are ignored; so is a third field that is
not a puzzle line of the map's size.

>>> cells, shape, cages = parse_killer_line("ABBC" "ADEC" "FDEC" "FFGG 4,5,9,5,5,9,3")
>>> shape, len(cages), cages[0]
(Shape(2, 2), 7, Cage(cells=(0, 4), total=4))
>>> format_killer_line(cells, shape, cages)
'ABBCADECFDECFFGG 4,5,9,5,5,9,3'
"""

from __future__ import annotations

from bitdoku.constraints.cages import NO_CAGE, NO_SUM, SYMBOLS, Cage, cage_symbol, check_cages
from bitdoku.errors import ParseError, ShapeError, cell_name, row_and_column
from bitdoku.formats.line import format_line, parse_line
from bitdoku.shape import Shape


def parse_killer_line(text: str, shape: Shape | None = None) -> tuple[bytes, Shape, tuple[Cage, ...]]:
    """The givens, the shape and the checked cages of a ``MAP SUMS [GIVENS]`` line; ``ParseError`` names the cage
    and cells at fault (``check_cages``)."""
    fields = text.split()
    if len(fields) < 2:
        raise ParseError("a Killer line is a cage map and its sums (MAP SUMS [GIVENS]), "
                         f"found {len(fields)} field{'s' if len(fields) != 1 else ''}")
    cage_map, sums = fields[0], fields[1]
    try:
        shape = shape if shape is not None else Shape.infer(len(cage_map))
    except ShapeError as error:
        raise ShapeError(f"the cage map: {error.problem}") from None
    if len(cage_map) != shape.n_cells:
        raise ShapeError(f"the cage map has {len(cage_map)} cells; a {shape.size_name} grid has {shape.n_cells}")
    givens = bytes(shape.n_cells)
    if len(fields) > 2 and len(fields[2]) == len(cage_map):
        values, _ = parse_line(fields[2], shape)
        givens = bytes(values)
    order: list[str] = []
    members: dict[str, list[int]] = {}
    for cell, symbol in enumerate(cage_map):
        if symbol == NO_CAGE:
            continue
        if symbol not in members:
            order.append(symbol)
            members[symbol] = []
        members[symbol].append(cell)
    totals = sums.split(",")
    if len(totals) != len(order):
        raise ParseError(f"the cage map has {len(order)} cages but the sums field has {len(totals)} sums")
    cages = tuple(Cage(tuple(members[symbol]), _total(text_sum, index, members[symbol], shape.n))
                  for index, (symbol, text_sum) in enumerate(zip(order, totals, strict=True)))
    check_cages(shape, cages, givens)
    return givens, shape, cages


def format_killer_line(cells: bytes, shape: Shape, cages: tuple[Cage, ...]) -> str:
    """The ``MAP SUMS [GIVENS]`` line (givens only when there are some)."""
    if len(cages) > len(SYMBOLS):
        raise ParseError(f"{len(cages)} cages: the line format names at most {len(SYMBOLS)}")
    cage_map = [NO_CAGE] * shape.n_cells
    for index, cage in enumerate(cages):
        for cell in cage.cells:
            cage_map[cell] = SYMBOLS[index]
    sums = ",".join(NO_SUM if cage.total is None else str(cage.total) for cage in cages)
    givens = f" {format_line(cells, shape)}" if any(cells) else ""
    return f"{''.join(cage_map)} {sums}{givens}"


def cages_from_records(records: object, shape: Shape) -> tuple[Cage, ...]:
    """The cages of a JSON ``"cages"`` list (``[{"sum": 23, "cells": ["r1c1", ...]}, ...]``, ``sum`` optional),
    sorted into reading order of their first cells and checked for cells and sums (not yet against givens)."""
    if not isinstance(records, list):
        raise ParseError('"cages" is a list like [{"sum": 23, "cells": ["r1c1", "r1c2", "r2c1"]}]')
    cages = []
    for index, record in enumerate(records):
        name = cage_symbol(index)
        if not isinstance(record, dict) or not isinstance(record.get("cells"), list) or not record["cells"]:
            raise ParseError(f'cage {name}: expected {{"sum": ..., "cells": ["r1c1", ...]}}, found {record!r}')
        total = record.get("sum")
        if total is not None and (not isinstance(total, int) or isinstance(total, bool)):
            raise ParseError(f"cage {name}: its sum {total!r} is not a whole number")
        cells = tuple(sorted(cage_cell_index(cell, shape, f"cage {name}") for cell in record["cells"]))
        cages.append(Cage(cells, total))
    cages.sort(key=lambda cage: cage.cells[0])
    return tuple(cages)


def cage_records(cages: tuple[Cage, ...], n: int) -> list[dict[str, object]]:
    """The JSON ``"cages"`` list of ``cages_from_records``."""
    return [{**({"sum": cage.total} if cage.total is not None else {}),
             "cells": [cell_name(cell, n) for cell in cage.cells]} for cage in cages]


def cage_cell_index(cell: object, shape: Shape, where: str, example: str = "r1c1") -> int:
    """The index of a cell named ``r4c7`` (1-based; ``R4C7`` too) in a cage's record (JSON, f-puzzles); the error
    starts with ``where`` (``cage B``) and names the cell, with ``example`` as the format the record uses."""
    found = row_and_column(cell) if isinstance(cell, str) else None
    if found is None:
        raise ParseError(f"{where}: {cell!r} is not a cell name like {example}")
    row, col = found
    if not (1 <= row <= shape.n and 1 <= col <= shape.n):
        raise ParseError(f"{where}: {cell} is outside the {shape.size_name} grid")
    return (row - 1) * shape.n + col - 1


def _total(text: str, index: int, cells: list[int], n: int) -> int | None:
    """A cage's sum from its field (``-`` or nothing: no sum); the error names the cage as ``check_cages`` does."""
    if text in (NO_SUM, ""):
        return None
    try:
        return int(text)
    except ValueError:
        where = ", ".join(cell_name(cell, n) for cell in cells)
        raise ParseError(f"cage {cage_symbol(index)} ({where}): its sum {text!r} is not a number") from None
