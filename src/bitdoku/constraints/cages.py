"""Killer Sudoku as data: cages (cells, an optional sum) over a classic grid, read from and written to one line.

The line format is that of the public Killer lists: ``MAP SUMS [GIVENS]``. ``MAP`` has a symbol a cell, row by
row; the cells of one symbol form a cage (``.`` for a cell in no cage). ``SUMS`` lists the cages' sums, comma
separated, in the order of each cage's first cell in reading order (``-`` for a cage without a sum, whose digits
need only differ). ``GIVENS`` is optional: a puzzle line of the same size (``.`` or ``0`` for an empty cell).
Extra fields after these (a solution, a name) are ignored.

The JSON form names cells as people do: ``{"shape": "3x3", "cages": [{"sum": 23, "cells": ["r1c1", "r1c2"]}, ...],
"cells": [[0, 0, ...], ...]}`` (``cells``, the givens, optional; a cage without ``sum`` has none).

>>> k = Killer.parse("ABBC" "ADEC" "FDEC" "FFGG 4,5,9,5,5,9,3")
>>> len(k.cages), k.cages[0]
(7, Cage(cells=(0, 4), total=4))
>>> k.to_line()
'ABBCADECFDECFFGG 4,5,9,5,5,9,3'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations as subsets
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from bitdoku.errors import ParseError, ShapeError, cell_name, row_and_column
from bitdoku.geometry import csr
from bitdoku.grid import Grid
from bitdoku.shape import Shape

#: The symbols written for cages, in order (the shared lists use A-Z then a-z; more cages take the rest).
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+-/:;<=>?@[]^_{|}~"
#: A cell in no cage, in a map.
NO_CAGE = "."
#: A cage without a sum, in the sums field.
NO_SUM = "-"


@lru_cache(maxsize=4096)
def combinations(size: int, total: int | None, n: int = 9) -> tuple[int, ...]:
    """The digit sets (bit d-1 for digit d) of ``size`` different digits 1..n that add up to ``total`` (every
    set of ``size`` digits when ``total`` is None), smallest first.

    >>> [[d for d in range(1, 10) if mask >> (d - 1) & 1] for mask in combinations(3, 23)]
    [[6, 8, 9]]
    >>> len(combinations(2, 10))  # 1+9, 2+8, 3+7, 4+6
    4
    """
    found = [sum(1 << (d - 1) for d in digits) for digits in subsets(range(1, n + 1), size)
             if total is None or sum(digits) == total]
    return tuple(sorted(found))


@dataclass(frozen=True)
class Cage:
    """Cells (0-based, in reading order) whose digits all differ and, with a ``total``, add up to it."""

    cells: tuple[int, ...]
    total: int | None


class KillerTables(NamedTuple):
    """A puzzle as the kernel reads it: peers (CSR), the N-cell units and each cell's, the cages' and the rule of
    45's groups' cells and digit sets (CSR)."""

    peer_start: NDArray[np.int32]
    peers: NDArray[np.int32]
    units: NDArray[np.int32]
    cell_units: NDArray[np.int32]
    cage_start: NDArray[np.int32]
    cage_cells: NDArray[np.int32]
    combo_start: NDArray[np.int32]
    combos: NDArray[np.int64]


@dataclass(frozen=True)
class Killer:
    """A Killer Sudoku: a classic grid of ``shape``, its ``cages`` and its ``givens`` (often none).

    Cages are named ``A``, ``B``, ... in the reading order of their first cells, as the line format writes them
    (``SYMBOLS``); errors name a cage that way, with its cells.
    """

    shape: Shape
    cages: tuple[Cage, ...]
    givens: Grid

    @classmethod
    def parse(cls, text: str, shape: Shape | str | None = None) -> Killer:
        """Read ``MAP SUMS [GIVENS]`` or the JSON form (the module docstring); ``ParseError`` names the cage and
        cells at fault."""
        if text.lstrip().startswith("{"):
            return cls.from_json(text, shape)
        fields = text.split()
        if len(fields) < 2:
            raise ParseError("a Killer line is a cage map and its sums (MAP SUMS [GIVENS]), "
                             f"found {len(fields)} field{'s' if len(fields) != 1 else ''}")
        cage_map, sums = fields[0], fields[1]
        givens_text = fields[2] if len(fields) > 2 and len(fields[2]) == len(cage_map) else None
        try:
            shape = Shape.parse(shape) if shape is not None else Shape.infer(len(cage_map))
        except ShapeError as error:
            raise ShapeError(f"the cage map: {error.problem}") from None
        if len(cage_map) != shape.n_cells:
            raise ShapeError(f"the cage map has {len(cage_map)} cells; a {shape.size_name} grid has "
                             f"{shape.n_cells}")
        givens = Grid.parse(givens_text, shape) if givens_text else Grid.empty(shape)
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
        killer = cls(shape, cages, givens)
        killer.check()
        return killer

    @classmethod
    def from_json(cls, text: str, shape: Shape | str | None = None) -> Killer:
        """Read the JSON form (the module docstring)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ParseError(f"not valid JSON: {error.msg}", line=error.lineno, column=error.colno) from None
        if not isinstance(data, dict) or not isinstance(data.get("cages"), list):
            raise ParseError('a JSON Killer is an object with a "cages" list, like {"shape": "3x3", "cages": '
                             '[{"sum": 23, "cells": ["r1c1", "r1c2", "r2c1"]}]}')
        shape = Shape.parse(shape if shape is not None else data.get("shape", "3x3"))
        cages = []
        for index, record in enumerate(data["cages"]):
            name = _symbol(index)
            if not isinstance(record, dict) or not isinstance(record.get("cells"), list) or not record["cells"]:
                raise ParseError(f'cage {name}: expected {{"sum": ..., "cells": ["r1c1", ...]}}, found {record!r}')
            total = record.get("sum")
            if total is not None and (not isinstance(total, int) or isinstance(total, bool)):
                raise ParseError(f"cage {name}: its sum {total!r} is not a whole number")
            cells = tuple(sorted(_cell_index(cell, shape, name) for cell in record["cells"]))
            cages.append(Cage(cells, total))
        cages.sort(key=lambda cage: cage.cells[0])
        givens = Grid.from_array(data["cells"], shape) if data.get("cells") is not None else Grid.empty(shape)
        return cls(shape, tuple(cages), givens).check()

    def to_json(self) -> str:
        """The JSON form: cages with their sums and cell names, and the givens when there are some."""
        record: dict[str, object] = {"shape": str(self.shape), "cages": [
            {**({"sum": cage.total} if cage.total is not None else {}),
             "cells": [cell_name(cell, self.shape.n) for cell in cage.cells]} for cage in self.cages]}
        if any(self.givens.cells):
            n = self.shape.n
            record["cells"] = [list(self.givens.cells[row * n:(row + 1) * n]) for row in range(n)]
        return json.dumps(record, separators=(",", ":"))

    def check(self) -> Killer:
        """Raise ``ParseError`` for a cage that no digits can fill: more cells than digits, a sum no different
        digits make, a given twice, givens that overshoot its sum; the givens must keep the classic rules too.
        Returns the puzzle."""
        n = self.shape.n
        owner: dict[int, int] = {}
        for index, cage in enumerate(self.cages):
            if any(not 0 <= cell < self.shape.n_cells for cell in cage.cells):
                raise ParseError(f"cage {_symbol(index)}: a cell outside the {self.shape.size_name} grid")
            where = self.cage_name(index)
            shared = next((cell for cell in cage.cells if cell in owner), None)
            if shared is not None:
                raise ParseError(f"{where}: shares {cell_name(shared, n)} with cage {_symbol(owner[shared])}")
            owner.update((cell, index) for cell in cage.cells)
            if len(cage.cells) > n:
                raise ParseError(f"{where}: {len(cage.cells)} cells, but a cage holds at most {n} different digits")
            if cage.total is not None and not combinations(len(cage.cells), cage.total, n):
                if len(cage.cells) == 1:
                    raise ParseError(f"{where}: a one-cell cage holds a digit 1-{n}, not {cage.total}")
                raise ParseError(f"{where}: no {_count_word(len(cage.cells))} different digits add up to "
                                 f"{cage.total}")
            digits = [self.givens.cells[cell] for cell in cage.cells if self.givens.cells[cell]]
            twice = next((digit for digit in digits if digits.count(digit) > 1), None)
            if twice is not None:
                cells = ", ".join(cell_name(c, n) for c in cage.cells if self.givens.cells[c] == twice)
                raise ParseError(f"{where}: the given {twice} appears twice ({cells})")
            if cage.total is not None and digits and not any(
                    all(mask >> (digit - 1) & 1 for digit in digits)
                    for mask in combinations(len(cage.cells), cage.total, n)):
                raise ParseError(f"{where}: no digits complete its givens {', '.join(map(str, digits))} to "
                                 f"{cage.total}")
        self.givens.validate()
        return self

    def cage_name(self, index: int) -> str:
        """``cage B (r1c3, r1c4)``: how errors and steps name a cage."""
        cells = ", ".join(cell_name(cell, self.shape.n) for cell in self.cages[index].cells)
        return f"cage {_symbol(index)} ({cells})"

    def to_line(self) -> str:
        """The ``MAP SUMS [GIVENS]`` line (givens only when there are some)."""
        if len(self.cages) > len(SYMBOLS):
            raise ParseError(f"{len(self.cages)} cages: the line format names at most {len(SYMBOLS)}")
        cage_map = [NO_CAGE] * self.shape.n_cells
        for index, cage in enumerate(self.cages):
            for cell in cage.cells:
                cage_map[cell] = SYMBOLS[index]
        sums = ",".join(NO_SUM if cage.total is None else str(cage.total) for cage in self.cages)
        givens = f" {self.givens.to_line()}" if any(self.givens.cells) else ""
        return f"{''.join(cage_map)} {sums}{givens}"

    @cached_property
    def tables(self) -> KillerTables:
        """The constraint kernel's tables (``kernels/cages.py``), built on first use and kept with the puzzle: the
        classic units and peers of the shape, each cage's cells made peers of one another, each summed cage's
        digit sets, and after the cages the rule of 45's groups (``unit_remainders``) with theirs."""
        shape = self.shape
        classic = shape.tables
        peers = [set(classic.peers[cell].tolist()) for cell in range(shape.n_cells)]
        for cage in self.cages:
            for cell in cage.cells:
                peers[cell].update(other for other in cage.cells if other != cell)
        peer_start, peer_items = csr([sorted(cell_peers) for cell_peers in peers])
        groups = [*self.cages, *self.unit_remainders()]
        cage_start, cage_cells = csr([list(group.cells) for group in groups])
        combo_lists = [(list(combinations(len(group.cells), group.total, shape.n)) or [0])  # [0]: no set makes it
                       if group.total is not None else [] for group in groups]
        combo_start, _ = csr([[0] * len(sets) for sets in combo_lists])
        combos: NDArray[np.int64] = np.array([mask for sets in combo_lists for mask in sets], dtype=np.int64)
        return KillerTables(peer_start, peer_items, np.ascontiguousarray(classic.units, dtype=np.int32),
                            np.ascontiguousarray(classic.cell_units, dtype=np.int32),
                            cage_start, cage_cells, combo_start, combos)

    def unit_remainders(self) -> list[Cage]:
        """The rule of 45 as cages: in each row, column and box, the cells left out of the summed cages that lie
        wholly inside it, with the sum they must make (N(N+1)/2 minus those cages' sums); a unit those cages fill
        gives none."""
        n = self.shape.n
        whole = n * (n + 1) // 2
        found = []
        for unit in self.shape.tables.units.tolist():
            cells = set(unit)
            inside = [cage for cage in self.cages if cage.total is not None and cells.issuperset(cage.cells)]
            rest = cells.difference(*(cage.cells for cage in inside))
            if rest:
                found.append(Cage(tuple(sorted(rest)), whole - sum(cage.total or 0 for cage in inside)))
        return found

    def cage_of(self) -> list[int]:
        """The index of each cell's cage, -1 for a cell in none."""
        owner = [-1] * self.shape.n_cells
        for index, cage in enumerate(self.cages):
            for cell in cage.cells:
                owner[cell] = index
        return owner


def _symbol(index: int) -> str:
    """A cage's name: its symbol in the line format, or its number past the symbols."""
    return SYMBOLS[index] if index < len(SYMBOLS) else str(index + 1)


def _cell_index(cell: object, shape: Shape, cage: str) -> int:
    """The index of a cell named ``r4c7`` (1-based) in a JSON cage; the error names the cage and the cell."""
    found = row_and_column(cell) if isinstance(cell, str) else None
    if found is None:
        raise ParseError(f"cage {cage}: {cell!r} is not a cell name like r1c1")
    row, col = found
    if not (1 <= row <= shape.n and 1 <= col <= shape.n):
        raise ParseError(f"cage {cage}: {cell} is outside the {shape.size_name} grid")
    return (row - 1) * shape.n + col - 1


def _total(text: str, index: int, cells: list[int], n: int) -> int | None:
    """A cage's sum from its field (``-`` or nothing: no sum); the error names the cage as ``check`` does."""
    if text in (NO_SUM, ""):
        return None
    try:
        return int(text)
    except ValueError:
        where = ", ".join(cell_name(cell, n) for cell in cells)
        raise ParseError(f"cage {_symbol(index)} ({where}): its sum {text!r} is not a number") from None


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count_word(count: int) -> str:
    return _WORDS[count] if count < len(_WORDS) else str(count)
