"""Let the solver correct the reader: a misread digit usually makes a grid with clashes or no solution.

When the most likely reading has no unique solution, the cheapest changes are tried first: each alternative
value of a cell costs how much less likely it is than the value read (``log p(read) - log p(other)``), a set of
changes costs the sum, and sets of up to ``max_changes`` changes among the ``max_alternatives`` cheapest
alternatives are tried in order of cost until one grid has exactly one solution. The number of tries is bounded.
Any shape: the probabilities' own size (N*N cells, N + 1 values) says which, and the solver knows them all.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bitdoku.engines.result import Status
from bitdoku.grid import Grid
from bitdoku.photo.recognise import Probabilities
from bitdoku.shape import Shape

#: The node budget of one verdict on a reading: a real puzzle's proof takes a few hundred nodes, a misread one
#: with few digits finds its second solution at once; a budget spent counts as "not this reading" (bounded time).
STATUS_NODES = 200_000


@dataclass(frozen=True)
class Correction:
    """The grid after correction, its status, and the cells whose value the solver changed."""

    digits: npt.NDArray[np.int64]
    status: Status
    changed: tuple[int, ...]


def correct(probabilities: Probabilities, shape: Shape | None = None, *, max_changes: int = 3,
            max_alternatives: int = 14, max_tries: int = 400) -> Correction:
    """The most likely values, changed as little as it takes (in likelihood) to give a unique solution; the
    reading unchanged, with its status, when no set of changes within the bounds does. ``shape`` defaults to
    the usual boxes of the probabilities' size (3x3 for 81 cells, 2x3 for 36, 4x4 for 256)."""
    shape = shape or Shape.for_digits(probabilities.shape[1] - 1)
    read = probabilities.argmax(axis=1)
    status = status_of(read, shape)
    if status is Status.UNIQUE:
        return Correction(read, status, ())
    units = shape.tables.units
    for _, changes in _change_sets(probabilities, read, units, max_changes, max_alternatives)[:max_tries]:
        digits = read.copy()
        for cell, value in changes:
            digits[cell] = value
        if not _clashes(digits, units) and status_of(digits, shape) is Status.UNIQUE:
            return Correction(digits, Status.UNIQUE, tuple(sorted(cell for cell, _ in changes)))
    return Correction(read, status, ())


def status_of(digits: npt.NDArray[np.int64], shape: Shape | None = None) -> Status:
    """Unique, multiple, no solution or invalid (clashing givens); the shape defaults to the usual one of the
    digits' count."""
    from bitdoku.solver import search  # loads Numba: only when a photo is read, not on import

    result = search(Grid.from_array(digits.tolist(), shape or Shape.infer(len(digits))), limit=2,
                    max_nodes=STATUS_NODES)
    return Status.NO_SOLUTION if result.status is Status.LIMIT else result.status


def _change_sets(probabilities: Probabilities, read: npt.NDArray[np.int64], units: npt.NDArray[np.int32],
                 max_changes: int, max_alternatives: int) -> list[tuple[float, tuple[tuple[int, int], ...]]]:
    """Sets of (cell, value) changes, one per cell at most, cheapest first."""
    count, values = probabilities.shape
    logs = np.log(np.maximum(probabilities, 1e-12))
    costs = logs[np.arange(count), read][:, None] - logs
    costs[np.arange(count), read] = np.inf
    cheapest = set(np.argsort(costs, axis=None)[:max_alternatives].tolist())
    for cell in _clashing_cells(read, units):  # one of two clashing cells must change: its best two values, or empty
        cheapest |= {cell * values + int(v) for v in np.argsort(costs[cell])[:2]} | {cell * values}
    alternatives = [(float(costs.flat[i]), divmod(int(i), values)) for i in sorted(cheapest)]
    sets = []
    for size in range(1, max_changes + 1):
        for combination in itertools.combinations(alternatives, size):
            if len({cell for _, (cell, _) in combination}) == size:
                sets.append((sum(cost for cost, _ in combination), tuple(change for _, change in combination)))
    return sorted(sets, key=lambda item: item[0])


def _clashes(digits: npt.NDArray[np.int64], units: npt.NDArray[np.int32]) -> bool:
    """A digit twice in a row, column or box (``units``: the shape's table of them): a cheap test before the
    solver's."""
    values = digits[units]
    for unit in values:
        filled = unit[unit > 0]
        if len(filled) != len(np.unique(filled)):
            return True
    return False


def _clashing_cells(digits: npt.NDArray[np.int64], units: npt.NDArray[np.int32]) -> set[int]:
    """The cells whose digit appears again in one of their units."""
    found: set[int] = set()
    for unit in units:
        values = digits[unit]
        for value in np.unique(values[values > 0]):
            same = unit[values == value]
            if len(same) > 1:
                found.update(int(cell) for cell in same)
    return found
