"""Locked candidates: a digit confined to where a box and a line (row or column) overlap.

- **Locked Candidates (Pointing)**: in a box, a digit fits only in cells of one line; the digit must be in that
  box's part of the line, so it goes from the rest of the line.
- **Locked Candidates (Claiming)**: in a line, a digit fits only in cells of one box; it goes from the rest of
  the box. (Sudokuwiki calls this Box/Line Reduction.)

See https://www.sudokuwiki.org/Intersection_Removal.

On a variant grid the same reasoning holds for any two units that share cells: when a digit's places in unit A
all lie in A and B, the digit goes from the rest of B. Pointing starts from an *area* (a box, a jigsaw region,
a window) and claiming from a *line* (a row, a column, a diagonal); the target is any unit sharing two cells or
more with it (``Layout.segments``): a window points into a row, a diagonal claims for a box, a jigsaw row
claims for a region.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from bitdoku.geometry import GEOMETRIES_KEPT
from bitdoku.logic.candidates import CandidateGrid, Layout, suits_compiled_finders
from bitdoku.logic.changes import Changes, digits_in
from bitdoku.logic.kernels.intersections import locked
from bitdoku.logic.step import Step, make_step, names, removals

POINTING = "Locked Candidates (Pointing)"
CLAIMING = "Locked Candidates (Claiming)"


def find_pointing(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """A box (region, window) whose candidates for a digit all lie in one row or column (or other unit). With
    ``changes`` (``bitdoku.logic.changes``), only the digits that left a cell of the box."""
    steps = _compiled(cg, POINTING, 0, changes)
    if steps is not None:
        yield from steps
        return
    for area in areas_and_lines(cg.layout)[0]:
        yield from _confined(cg, POINTING, area, changes)


def find_claiming(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """A row or column (or diagonal) whose candidates for a digit all lie in one box (or other unit); with
    ``changes``, only the digits that left a cell of the line."""
    steps = _compiled(cg, CLAIMING, 1, changes)
    if steps is not None:
        yield from steps
        return
    for line in areas_and_lines(cg.layout)[1]:
        yield from _confined(cg, CLAIMING, line, changes)


#: Whether classic grids (up to 32 digits) use the compiled search (``logic.kernels.intersections``); the
#: Python one is its reference.
COMPILED = True


def _compiled(cg: CandidateGrid, technique: str, kind: int, changes: Changes | None) -> Iterator[Step] | None:
    """The compiled search's steps (areas for ``kind`` 0, lines for 1), given ``changes`` only those the Python
    finder looks at (a digit that left a cell of the unit); ``None`` where the Python search runs."""
    if not (COMPILED and suits_compiled_finders(cg)):
        return None
    order, units, targets, segments = _locked_tables(cg.layout, kind)
    found = np.empty((256, 3), dtype=np.int64)
    rows = locked(cg.mask_array(), order, units, targets, segments, found)
    return None if rows < 0 else _compiled_steps(cg, technique, found[:rows].tolist(), changes)


def _compiled_steps(cg: CandidateGrid, technique: str, rows: list[list[int]],
                    changes: Changes | None) -> Iterator[Step]:
    layout = cg.layout
    for unit, d, s in rows:
        if changes is not None and not digits_in(changes, layout.unit_bits[unit]) >> d & 1:
            continue
        target, cells = layout.segments[unit][s]
        yield from _locked(cg, technique, d + 1, cells, unit, target)


@lru_cache(maxsize=2 * GEOMETRIES_KEPT)  # two kinds a layout
def _locked_tables(layout: Layout, kind: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The compiled search's tables: the units searched (areas or lines), all units, and each unit's segments
    as crossing units and bitsets of positions."""
    units = np.array(layout.units, dtype=np.int32)
    width = max(len(parts) for parts in layout.segments)
    targets = np.full((len(layout.units), width), -1, dtype=np.int32)
    segments = np.zeros((len(layout.units), width), dtype=np.uint64)
    for u, parts in enumerate(layout.segments):
        for s, (target, cells) in enumerate(parts):
            targets[u, s] = target
            segments[u, s] = sum(1 << layout.units[u].index(c) for c in cells)
    order = np.array(areas_and_lines(layout)[kind], dtype=np.int32)
    return order, units, targets, segments


@lru_cache(maxsize=GEOMETRIES_KEPT)
def areas_and_lines(layout: Layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The units that point (boxes, regions, windows) and those that claim (rows, columns, diagonals): an extra
    unit is a line when its cells lie on one row, column or diagonal."""
    n = layout.shape.n
    areas, lines = list(range(2 * n, 3 * n)), list(range(2 * n))
    for unit in range(3 * n, len(layout.units)):
        places = [divmod(cell, n) for cell in layout.units[unit]]
        straight = any(len({f(r, c) for r, c in places}) == 1 for f in (_row, _col, _down, _up))
        (lines if straight else areas).append(unit)
    return tuple(areas), tuple(lines)


def _row(r: int, c: int) -> int:
    return r


def _col(r: int, c: int) -> int:
    return c


def _down(r: int, c: int) -> int:
    return r - c


def _up(r: int, c: int) -> int:
    return r + c


def _confined(cg: CandidateGrid, technique: str, unit: int, changes: Changes | None = None) -> Iterator[Step]:
    """Digits of ``unit`` whose places all lie in one of its segments (its overlaps with crossing units),
    digits increasing; a box's rows come before its columns. Works on bitsets: a digit's places in the unit are
    its cells (``CandidateGrid.digit_cells``) in the unit's, confined to a segment when none lies outside it.
    With ``changes``, only the digits that left a cell of ``unit`` (the pattern is the digit's places in the
    unit)."""
    layout = cg.layout
    unit_cells = layout.unit_bits[unit]
    touched = -1 if changes is None else digits_in(changes, unit_cells)
    if not touched:
        return
    by_digit = cg.digit_cells()
    parts = _segment_bits(layout, unit)
    for d in range(cg.n):
        if not touched >> d & 1:
            continue
        places = by_digit[d] & unit_cells
        if not places & (places - 1):  # fewer than two places
            continue
        for target, cells, segment in parts:
            if not places & ~segment:
                yield from _locked(cg, technique, d + 1, cells, unit, target)


@lru_cache(maxsize=GEOMETRIES_KEPT * 256)  # a layout has at most 3 * 64 units and its extra ones
def _segment_bits(layout: Layout, unit: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """The unit's segments (``Layout.segments``: the crossing unit and the cells shared), each with its cells as
    a bitset: a pure function of the layout, built once."""
    return tuple((target, cells, sum(1 << c for c in cells)) for target, cells in layout.segments[unit])


def _locked(
    cg: CandidateGrid, technique: str, digit: int, cells: tuple[int, ...], inside: int, target: int
) -> Iterator[Step]:
    """The step that removes ``digit`` from ``target`` outside ``inside``, when there is anything to remove."""
    bit = 1 << (digit - 1)
    masks = cg.masks
    gone = [c for c in cg.layout.units[target] if masks[c] & bit and c not in cells]
    if not gone:
        return
    cells = tuple(c for c in cells if masks[c] & bit)
    n, layout = cg.n, cg.layout
    kind = "pointing" if technique == POINTING else "claiming"
    text = (
        f"in {layout.unit_name(inside)}, {digit} fits only in {layout.unit_name(target)} ({names(cells, n)}), "
        f"so remove {removals([(c, digit) for c in gone], n)} (locked candidates, {kind})"
    )
    yield make_step(
        technique, cg, text, eliminations=[(c, digit) for c in gone], cells=cells, units=[inside, target]
    )
