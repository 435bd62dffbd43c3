"""Singles, the placements every solver starts with.

- **Hidden Single**: a digit has one place left in a unit (box, row or column; on a variant grid also a jigsaw
  region, a diagonal or a window), so it goes there.
- **Naked Single**: a cell has one candidate left, so it takes it.

The finders yield steps in a fixed order (units in index order, digits increasing, cells in row-major order),
which ``bitdoku.logic.kernels.singles`` follows too, so that the rater counts the same singles that ``explain`` shows.
Hidden singles use the "seen once, seen twice" mask trick: over a unit's masks, ``twice |= once & m`` and
``once |= m``; then ``once & ~twice`` holds the digits with exactly one place.

A solve asks for hidden singles after every step, and a step changes a few cells: the units known to hold none
in the last state asked about, and that no changed cell belongs to, hold none now (``_QuietUnits``). On a
Killer's ~145-step explanation that skips most of the scans, which were a quarter of its time.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress
from operator import ne

from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid, Layout
from bitdoku.logic.step import Step, make_step

HIDDEN_SINGLE = "Hidden Single"
NAKED_SINGLE = "Naked Single"

ROWS, COLUMNS, BOXES = 0, 1, 2


def find_hidden_singles_in_boxes(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in boxes (jigsaw regions), the easiest to see."""
    return _hidden_singles(cg, BOXES * cg.n, (BOXES + 1) * cg.n)


def find_hidden_singles_in_rows(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in rows."""
    return _hidden_singles(cg, ROWS * cg.n, (ROWS + 1) * cg.n)


def find_hidden_singles_in_columns(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in columns."""
    return _hidden_singles(cg, COLUMNS * cg.n, (COLUMNS + 1) * cg.n)


def find_hidden_singles_in_extra_units(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in a variant's extra units (diagonals, windows); none on a classic grid."""
    return _hidden_singles(cg, 3 * cg.n, len(cg.layout.units))


class _QuietUnits:
    """The units with no hidden single in one state (``quiet``, a bitset of unit indices).

    Hidden singles depend on the candidate masks alone (a filled cell's mask is 0), so a unit none of whose
    cells' masks changed keeps its answer. Bits are only ever set for the state ``masks`` is, whichever thread
    sets them: a lost update costs a scan, never a wrong answer."""

    __slots__ = ("layout", "masks", "quiet")

    def __init__(self, layout: Layout, masks: tuple[int, ...], quiet: int) -> None:
        self.layout, self.masks, self.quiet = layout, masks, quiet


_last_quiet: _QuietUnits | None = None


def _quiet_units(cg: CandidateGrid) -> _QuietUnits:
    """The memo of ``cg``'s state: the last one's quiet units less those of the cells that changed since."""
    global _last_quiet
    layout, masks = cg.layout, cg.masks
    last = _last_quiet
    if last is not None and last.masks is masks and last.layout is layout:
        return last
    quiet = 0
    if last is not None and last.layout is layout and len(last.masks) == len(masks):
        quiet = last.quiet
        cell_unit_bits = layout.cell_unit_bits
        for cell in compress(range(len(masks)), map(ne, last.masks, masks)):  # the cells that changed, in C
            quiet &= ~cell_unit_bits[cell]
    memo = _QuietUnits(layout, masks, quiet)
    _last_quiet = memo
    return memo


def _hidden_singles(cg: CandidateGrid, start: int, stop: int) -> Iterator[Step]:
    """The hidden singles of units ``start`` to ``stop - 1``; no generator at all when the memo knows them all
    quiet (most calls, late in a solve)."""
    memo = _quiet_units(cg)
    span = (1 << stop) - (1 << start)
    if memo.quiet & span == span:
        return iter(())
    return _scan_hidden_singles(cg, memo, start, stop)


def _scan_hidden_singles(cg: CandidateGrid, memo: _QuietUnits, start: int, stop: int) -> Iterator[Step]:
    n, masks = cg.n, cg.masks
    units = cg.layout.units
    for unit in range(start, stop):
        if memo.quiet >> unit & 1:
            continue
        once = twice = 0
        for cell in units[unit]:
            twice |= once & masks[cell]
            once |= masks[cell]
        only = once & ~twice
        if not only:
            memo.quiet |= 1 << unit
            continue
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
