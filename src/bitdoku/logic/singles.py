"""Singles, the placements every solver starts with.

- **Hidden Single**: a digit has one place left in a unit (box, row or column; on a variant grid also a jigsaw
  region, a diagonal or a window), so it goes there.
- **Naked Single**: a cell has one candidate left, so it takes it.

The finders yield steps in a fixed order (units in index order, digits increasing, cells in row-major order),
which ``bitdoku.logic.kernels.singles`` follows too, so that the rater counts the same singles that ``explain`` shows.
Hidden singles use the "seen once, seen twice" mask trick: over a unit's masks, ``twice |= once & m`` and
``once |= m``; then ``once & ~twice`` holds the digits with exactly one place.
"""

from __future__ import annotations

from collections.abc import Iterator

from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.step import Step, make_step

HIDDEN_SINGLE = "Hidden Single"
NAKED_SINGLE = "Naked Single"

ROWS, COLUMNS, BOXES = 0, 1, 2


def find_hidden_singles_in_boxes(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in boxes (jigsaw regions), the easiest to see."""
    return _hidden_singles(cg, range(BOXES * cg.n, (BOXES + 1) * cg.n))


def find_hidden_singles_in_rows(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in rows."""
    return _hidden_singles(cg, range(ROWS * cg.n, (ROWS + 1) * cg.n))


def find_hidden_singles_in_columns(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in columns."""
    return _hidden_singles(cg, range(COLUMNS * cg.n, (COLUMNS + 1) * cg.n))


def find_hidden_singles_in_extra_units(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in a variant's extra units (diagonals, windows); none on a classic grid."""
    return _hidden_singles(cg, range(3 * cg.n, len(cg.layout.units)))


def _hidden_singles(cg: CandidateGrid, unit_range: range) -> Iterator[Step]:
    n, masks = cg.n, cg.masks
    units = cg.layout.units
    for unit in unit_range:
        once = twice = 0
        for cell in units[unit]:
            twice |= once & masks[cell]
            once |= masks[cell]
        only = once & ~twice
        while only:
            bit = only & -only
            only ^= bit
            digit = bit.bit_length()
            cell = next(c for c in units[unit] if masks[c] & bit)
            name, where = cell_name(cell, n), cg.layout.unit_name(unit)
            text = f"{name} = {digit}: in {where}, {digit} fits only in {name} (hidden single)"
            yield make_step(HIDDEN_SINGLE, cg, text, placements=[(cell, digit)], cells=[cell], units=[unit])


def find_naked_singles(cg: CandidateGrid) -> Iterator[Step]:
    """Cells with exactly one candidate left."""
    n = cg.n
    for cell, mask in enumerate(cg.masks):
        if mask and not mask & (mask - 1):
            digit = mask.bit_length()
            name = cell_name(cell, n)
            text = f"{name} = {digit}: {digit} is the only candidate left in {name} (naked single)"
            yield make_step(NAKED_SINGLE, cg, text, placements=[(cell, digit)], cells=[cell])
