"""Techniques that assume the puzzle has exactly one solution.

They avoid "deadly patterns", arrangements that could be filled two ways with nothing else telling them apart;
in a puzzle with a unique solution such a pattern can't be the final state. On a puzzle with several
solutions these steps may remove a digit of some solution, so ``explain`` uses them only as a person would,
trusting the puzzle to be proper.

- **Unique Rectangle Type 1**: four open cells at the corners of a rectangle over two rows, two columns and
  two boxes; three of them hold exactly {a, b}, the fourth holds a, b and more. If the fourth were a or b the
  four cells could swap a and b, so a and b leave it (https://www.sudokuwiki.org/Unique_Rectangles).
- **BUG+1**: every open cell has two candidates except one with three, and each digit has two places in every
  unit except one digit, which has three in the units of that cell. Without that digit there the grid would be
  a "bivalue universal grave" with two solutions, so the cell takes it
  (https://www.sudokuwiki.org/BUG).
"""

from __future__ import annotations

from collections.abc import Iterator

from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid, digits_of
from bitdoku.logic.step import Step, digit_list, make_step, names, removals

UNIQUE_RECTANGLE_1 = "Unique Rectangle Type 1"
BUG_PLUS_1 = "BUG+1"


def find_unique_rectangles_type_1(cg: CandidateGrid) -> Iterator[Step]:
    """Unique rectangles with one corner holding extra candidates (assumes a unique solution)."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    for row in range(n):
        cells = [c for c in cg.layout.units[row] if masks[c].bit_count() == 2]
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                pair = masks[a]
                if masks[b] != pair:
                    continue
                for other in range(n):
                    if other == row:
                        continue
                    c, d = other * n + layout.col[a], other * n + layout.col[b]
                    if len({layout.box[a], layout.box[b], layout.box[c], layout.box[d]}) != 2:
                        continue
                    for plain, extra in ((c, d), (d, c)):
                        if masks[plain] == pair and masks[extra] & pair == pair and masks[extra] != pair:
                            gone = [(extra, digit) for digit in digits_of(pair)]
                            text = (
                                f"{names([a, b, plain], n)} hold only {digit_list(digits_of(pair))}; if "
                                f"{cell_name(extra, n)} were {' or '.join(str(x) for x in digits_of(pair))} the "
                                f"rectangle could swap them and the puzzle would have two solutions, so remove "
                                f"{removals(gone, n)} (unique rectangle type 1)"
                            )
                            yield make_step(UNIQUE_RECTANGLE_1, cg, text, eliminations=gone, cells=[a, b, c, d])


def find_bug_plus_1(cg: CandidateGrid) -> Iterator[Step]:
    """The single cell that keeps the grid from being a bivalue universal grave (assumes a unique solution)."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    extra = [c for c, m in enumerate(masks) if m and m.bit_count() != 2]
    if len(extra) != 1 or masks[extra[0]].bit_count() != 3:
        return
    cell = extra[0]
    row_unit = layout.cell_units[cell][0]
    triple = [d for d in digits_of(masks[cell]) if len(cg.cells_with(row_unit, d)) == 3]
    if len(triple) != 1:
        return
    digit = triple[0]
    for unit in range(3 * n):
        for d in range(1, n + 1):
            count = len(cg.cells_with(unit, d)) - (d == digit and unit in layout.cell_units[cell])
            if count not in (0, 2):
                return
    text = (
        f"{cell_name(cell, n)} = {digit}: every open cell but {cell_name(cell, n)} has two candidates, and "
        f"{digit} is the one digit of "
        f"{digit_list(digits_of(masks[cell]))} with three places in its units; any other choice leaves a "
        f"two-solution pattern (BUG+1)"
    )
    yield make_step(BUG_PLUS_1, cg, text, placements=[(cell, digit)], cells=[cell])
