"""A puzzle as the compiled singles kernel's arrays, and a step made on them: what the rater's SE solve
(``logic.se``) and the ladder's rating (``logic.rating``) share between the kernel's runs.

The kernel (``logic.kernels.singles``) works on two arrays a puzzle: the values (uint8, 0 for an empty cell) and
the candidate masks (uint64, bit d-1 for digit d, 0 for a filled cell). A technique's step found between two runs
is made on them in place.
"""

from __future__ import annotations

import numpy as np

from bitdoku.grid import Grid
from bitdoku.logic.candidates import CandidateGrid, StepLike, as_candidates
from bitdoku.logic.kernels import singles


def kernel_arrays(puzzle: Grid | CandidateGrid) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's arrays of a puzzle: values (uint8) and candidate masks (uint64, 0 for filled cells)."""
    shape = puzzle.shape
    tables = shape.tables
    if isinstance(puzzle, Grid):
        values = np.frombuffer(puzzle.cells, dtype=np.uint8).copy()
        masks = np.empty(shape.n_cells, dtype=np.uint64)
        if not singles.load_candidates(values, tables.units, tables.cell_units, shape.n, masks):
            puzzle.validate()
        return values, masks
    state = as_candidates(puzzle).cleaned()
    return np.frombuffer(state.values, dtype=np.uint8).copy(), np.array(state.masks, dtype=np.uint64)


def apply_to_arrays(step: StepLike, values: np.ndarray, masks: np.ndarray, peers: np.ndarray) -> None:
    """Make a step on the kernel's arrays (few changes, so plain Python)."""
    for cell, digit in step.placements:
        values[cell] = digit
        masks[cell] = 0
        masks[peers[cell]] &= ~np.uint64(1 << (digit - 1))
    for cell, digit in step.eliminations:
        masks[cell] &= ~np.uint64(1 << (digit - 1))
