"""Locked candidates: a digit confined to where a box and a line (row or column) overlap.

- **Locked Candidates (Pointing)**: in a box, a digit fits only in cells of one line; the digit must be in that
  box's part of the line, so it goes from the rest of the line.
- **Locked Candidates (Claiming)**: in a line, a digit fits only in cells of one box; it goes from the rest of
  the box. (Sudokuwiki calls this Box/Line Reduction.)

See https://www.sudokuwiki.org/Intersection_Removal.
"""

from __future__ import annotations

from collections.abc import Iterator

from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.step import Step, make_step, names, removals

POINTING = "Locked Candidates (Pointing)"
CLAIMING = "Locked Candidates (Claiming)"


def find_pointing(cg: CandidateGrid) -> Iterator[Step]:
    """A box whose candidates for a digit all lie in one row or one column."""
    n = cg.n
    for box in range(2 * n, 3 * n):
        yield from _confined(cg, POINTING, box)


def find_claiming(cg: CandidateGrid) -> Iterator[Step]:
    """A row or column whose candidates for a digit all lie in one box."""
    for line in range(2 * cg.n):
        yield from _confined(cg, CLAIMING, line)


def _confined(cg: CandidateGrid, technique: str, unit: int) -> Iterator[Step]:
    """Digits of ``unit`` whose places all lie in one of its segments (its overlaps with crossing units),
    digits increasing; a box's rows come before its columns. Works on masks: a digit is confined to a segment
    when it is in the segment's union and in no other segment of the same kind."""
    masks = cg.masks
    parts = cg.layout.segments[unit]
    unions = [_union(masks, cells) for _, cells in parts]
    kinds = [target // cg.n for target, _ in parts]
    confined = []
    for i, union in enumerate(unions):
        rest = 0
        for j, other in enumerate(unions):
            if j != i and kinds[j] == kinds[i]:
                rest |= other
        confined.append(union & ~rest)
    digits = 0
    for bits in confined:
        digits |= bits
    while digits:
        bit = digits & -digits
        digits ^= bit
        for i, (target, cells) in enumerate(parts):
            if confined[i] & bit and sum(1 for c in cells if masks[c] & bit) >= 2:
                yield from _locked(cg, technique, bit.bit_length(), cells, unit, target)


def _union(masks: tuple[int, ...], cells: tuple[int, ...]) -> int:
    union = 0
    for cell in cells:
        union |= masks[cell]
    return union


def _locked(cg: CandidateGrid, technique: str, digit: int, cells: tuple[int, ...], inside: int, target: int):
    """The step that removes ``digit`` from ``target`` outside ``inside``, when there is anything to remove."""
    bit = 1 << (digit - 1)
    masks = cg.masks
    gone = [c for c in cg.layout.units[target] if masks[c] & bit and c not in cells]
    if not gone:
        return
    cells = tuple(c for c in cells if masks[c] & bit)
    n, shape = cg.n, cg.shape
    kind = "pointing" if technique == POINTING else "claiming"
    text = (
        f"in {shape.unit_name(inside)}, {digit} fits only in {shape.unit_name(target)} ({names(cells, n)}), "
        f"so remove {removals([(c, digit) for c in gone], n)} (locked candidates, {kind})"
    )
    yield make_step(
        technique, cg, text, eliminations=[(c, digit) for c in gone], cells=cells, units=[inside, target]
    )
