"""``Step``: one human deduction, its technique, what it changes, where it looked, and why, in one sentence."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid

#: Technique names of the steps that are signals rather than deductions.
STALLED = "Stalled"
GUESS = "Guess"
CONTRADICTION = "Contradiction"


@dataclass(frozen=True)
class Step:
    """A deduction found by one technique.

    ``placements`` and ``eliminations`` are (cell, digit) pairs with 0-based cells; ``cells`` and ``units``
    are where the pattern lies (unit indices as in ``Geometry.tables``, named by ``before.layout.unit_name``);
    ``before`` is the candidate state the step was found in; ``text`` says it in one sentence, cells written
    ``r4c7``. ``difficulty`` is the step's own
    rating on the Sudoku Explainer scale when it depends on the instance (a chain's length, a pattern's size),
    else ``None`` and the technique's table value applies.

    Example
    -------
    >>> from bitdoku import Grid
    >>> before = CandidateGrid.from_grid(Grid.parse("1.3." "3..." "...." ".1.."))
    >>> step = Step("Naked Single", ((1, 2),), (), (1,), (), before, "r1c2 = 2: only 2 is left in r1c2")
    >>> step.to_dict()["placements"]
    [{'cell': 'r1c2', 'digit': 2}]
    """

    technique: str
    placements: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    cells: tuple[int, ...]
    units: tuple[int, ...]
    before: CandidateGrid = field(repr=False, compare=False)
    text: str
    difficulty: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.text

    @property
    def after(self) -> CandidateGrid:
        """The candidate state once the step is made."""
        return self.before.apply(self)

    @property
    def is_deduction(self) -> bool:
        """Whether the step changes the grid by logic (not a guess, a stall or a contradiction)."""
        return self.technique not in (STALLED, GUESS, CONTRADICTION)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record: cells written ``r4c7``, units ``row 3``, and the pencil marks before the step
        (``before``, in the 729-character format for 9x9), so a page or a script can show the state."""
        n = self.before.n
        layout = self.before.layout
        return {
            "technique": self.technique,
            "text": self.text,
            "placements": [{"cell": cell_name(c, n), "digit": d} for c, d in self.placements],
            "eliminations": [{"cell": cell_name(c, n), "digit": d} for c, d in self.eliminations],
            "cells": [cell_name(c, n) for c in self.cells],
            "units": [layout.unit_name(u) for u in self.units],
            "before": self.before.to_pencilmarks(),
        }


def names(cells: Iterable[int], n: int) -> str:
    """Cells as people write them, in order: ``r1c1, r1c5``."""
    return ", ".join(cell_name(c, n) for c in sorted(cells))


def removals(eliminations: Iterable[tuple[int, int]], n: int) -> str:
    """Eliminations grouped by digit: ``7 from r1c1, r2c2; 8 from r4c4``."""
    by_digit: dict[int, list[int]] = {}
    for cell, digit in eliminations:
        by_digit.setdefault(digit, []).append(cell)
    return "; ".join(f"{digit} from {names(cells, n)}" for digit, cells in sorted(by_digit.items()))


def digit_list(digits: Iterable[int]) -> str:
    """``{3, 7}``."""
    return "{" + ", ".join(str(d) for d in sorted(digits)) + "}"


def make_step(
    technique: str,
    before: CandidateGrid,
    text: str,
    *,
    placements: Iterable[tuple[int, int]] = (),
    eliminations: Iterable[tuple[int, int]] = (),
    cells: Iterable[int] = (),
    units: Iterable[int] = (),
    difficulty: float | None = None,
) -> Step:
    """Build a step with sorted, de-duplicated changes, so that equal deductions compare equal."""
    return Step(
        technique,
        tuple(sorted(set(placements))),
        tuple(sorted(set(eliminations))),
        tuple(sorted(set(cells))),
        tuple(sorted(set(units))),
        before,
        text,
        difficulty,
    )
