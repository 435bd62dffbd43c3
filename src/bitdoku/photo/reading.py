"""What reading a photo gives back: the grid, how sure each cell is, where the grid was, what was corrected."""

from __future__ import annotations

from dataclasses import dataclass

from bitdoku.engines.result import Status
from bitdoku.errors import cell_name
from bitdoku.grid import Grid

Point = tuple[float, float]


@dataclass(frozen=True)
class PhotoReading:
    """A Sudoku read from a photo.

    Attributes
    ----------
    grid
        The puzzle (6x6, 9x9 or 16x16: ``grid.shape``), after the solver's correction (``as_read`` is the
        reader's own guess).
    confidence
        For each of the N*N cells (row-major), the probability of the value in ``grid`` (empty or a digit), 0-1.
    corners
        The grid's corners in the image's pixels (as the image is displayed), the puzzle's top-left first,
        then clockwise.
    corrected
        The cells (0 to N*N - 1) whose value the solver changed to give a unique solution.
    status
        The solver's verdict on ``grid``: ``UNIQUE`` when the correction succeeded or was not needed.
    as_read
        The most likely reading, before correction.
    """

    grid: Grid
    confidence: tuple[float, ...]
    corners: tuple[Point, Point, Point, Point]
    corrected: tuple[int, ...]
    status: Status
    as_read: Grid

    def to_line(self) -> str:
        """The puzzle as one line of N*N characters (81 for 9x9), ``.`` for an empty cell, A-G for 10-16."""
        return self.grid.to_line()

    def doubtful(self, threshold: float = 0.9) -> tuple[int, ...]:
        """The cells a person should check: read with less than ``threshold`` confidence, or corrected."""
        return tuple(sorted({i for i, c in enumerate(self.confidence) if c < threshold} | set(self.corrected)))

    def corrected_names(self) -> tuple[str, ...]:
        """The corrected cells as people name them: ``('r4c7',)``."""
        return tuple(cell_name(cell, self.grid.shape.n) for cell in self.corrected)

    def __str__(self) -> str:
        return self.to_line()
