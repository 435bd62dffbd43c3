"""Killer cages as data: cells whose digits all differ and, with a total, add up to it.

A cage is a ``Cage`` (0-based cells in reading order, an optional total). A grid carries its cages in its
geometry (``Geometry.cages``, variant ``"killer"``); this module holds what every layer above needs of them: the
digit sets that make a sum (``combinations``), how a cage is named in errors and steps (``cage_name``), the checks
that refuse a cage no digits can fill (``check_cages``) and the rule of 45's groups (``unit_remainders``).

Cages are named ``A``, ``B``, ... in the reading order of their first cells, as the line format writes them
(``SYMBOLS``; ``formats/killer.py``).

>>> cages = (Cage((0, 1), 3), Cage((2, 3), 7))
>>> cage_name(cages, 1, 4)
'cage B (r1c3, r1c4)'
>>> [[d for d in range(1, 5) if mask >> (d - 1) & 1] for mask in combinations(2, 7, 4)]
[[3, 4]]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations as subsets

from bitdoku.errors import ParseError, cell_name
from bitdoku.shape import Shape

#: The symbols written for cages, in order (the shared lists use A-Z then a-z; more cages take the rest).
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+-/:;<=>?@[]^_{|}~"
#: A cell in no cage, in a map.
NO_CAGE = "."
#: A cage without a sum, in the sums field.
NO_SUM = "-"


@dataclass(frozen=True)
class Cage:
    """Cells (0-based, in reading order) whose digits all differ and, with a ``total``, add up to it."""

    cells: tuple[int, ...]
    total: int | None


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


def cage_symbol(index: int) -> str:
    """A cage's name: its symbol in the line format, or its number past the symbols."""
    return SYMBOLS[index] if index < len(SYMBOLS) else str(index + 1)


def cage_name(cages: tuple[Cage, ...], index: int, n: int) -> str:
    """``cage B (r1c3, r1c4)``: how errors and steps name a cage."""
    cells = ", ".join(cell_name(cell, n) for cell in cages[index].cells)
    return f"cage {cage_symbol(index)} ({cells})"


def check_cages(shape: Shape, cages: tuple[Cage, ...], givens: bytes | None = None) -> None:
    """Raise ``ParseError`` for a cage that no digits can fill: a cell outside the grid or in two cages, more cells
    than digits, a sum no different digits make, a given twice, givens that no digits complete to its sum."""
    n = shape.n
    owner: dict[int, int] = {}
    for index, cage in enumerate(cages):
        if not cage.cells or any(not 0 <= cell < shape.n_cells for cell in cage.cells):
            raise ParseError(f"cage {cage_symbol(index)}: a cell outside the {shape.size_name} grid")
        shared = next((cell for cell in cage.cells if cell in owner), None)
        if shared is not None:
            raise ParseError(f"{cage_name(cages, index, n)}: shares {cell_name(shared, n)} with cage "
                             f"{cage_symbol(owner[shared])}")
        owner.update((cell, index) for cell in cage.cells)
        if len(cage.cells) > n:
            raise ParseError(f"{cage_name(cages, index, n)}: {len(cage.cells)} cells, but a cage holds at most {n} "
                             "different digits")
        if cage.total is not None and not combinations(len(cage.cells), cage.total, n):
            where = cage_name(cages, index, n)
            if len(cage.cells) == 1:
                raise ParseError(f"{where}: a one-cell cage holds a digit 1-{n}, not {cage.total}")
            raise ParseError(f"{where}: no {_count_word(len(cage.cells))} different digits add up to {cage.total}")
        if givens is not None and any(givens[cell] for cell in cage.cells):
            _check_givens(cage_name(cages, index, n), cage, givens, n)


def _check_givens(where: str, cage: Cage, givens: bytes, n: int) -> None:
    digits = [givens[cell] for cell in cage.cells if givens[cell]]
    twice = next((digit for digit in digits if digits.count(digit) > 1), None)
    if twice is not None:
        cells = ", ".join(cell_name(c, n) for c in cage.cells if givens[c] == twice)
        raise ParseError(f"{where}: the given {twice} appears twice ({cells})")
    if cage.total is not None and digits and not any(
            all(mask >> (digit - 1) & 1 for digit in digits) for mask in combinations(len(cage.cells), cage.total, n)):
        raise ParseError(f"{where}: no digits complete its givens {', '.join(map(str, digits))} to {cage.total}")


def unit_remainders(shape: Shape, cages: tuple[Cage, ...]) -> list[Cage]:
    """The rule of 45 as cages: in each row, column and box, the cells left out of the summed cages that lie
    wholly inside it, with the sum they must make (N(N+1)/2 minus those cages' sums); a unit those cages fill
    gives none."""
    n = shape.n
    units, unit_of = _unit_lists(shape)
    covered = [False] * (3 * shape.n_cells)  # kind * N*N + cell: in a summed cage inside its row, column or box
    sums = [0] * (3 * n)
    for cage in cages:
        if cage.total is None:
            continue
        cells = cage.cells
        for kind in range(3):
            unit_ids = unit_of[kind]
            unit = unit_ids[cells[0]]
            if len({unit_ids[cell] for cell in cells}) == 1:
                sums[unit] += cage.total
                offset = kind * shape.n_cells
                for cell in cells:
                    covered[offset + cell] = True
    whole = n * (n + 1) // 2
    found = []
    for unit, members in enumerate(units):
        offset = unit // n * shape.n_cells
        rest = tuple(cell for cell in members if not covered[offset + cell])
        if 0 < len(rest) < n:  # a unit with no summed cage inside adds nothing to its own all-different rule
            found.append(Cage(rest, whole - sums[unit]))
    return found


@lru_cache(maxsize=64)
def _unit_lists(shape: Shape) -> tuple[list[list[int]], list[list[int]]]:
    """The units' cells, and for each kind (row, column, box) the unit of each cell, as Python lists."""
    return shape.tables.units.tolist(), shape.tables.cell_units.T.tolist()


def cage_of(n_cells: int, cages: tuple[Cage, ...]) -> list[int]:
    """The index of each cell's cage, -1 for a cell in none."""
    owner = [-1] * n_cells
    for index, cage in enumerate(cages):
        for cell in cage.cells:
            owner[cell] = index
    return owner


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count_word(count: int) -> str:
    return _WORDS[count] if count < len(_WORDS) else str(count)
