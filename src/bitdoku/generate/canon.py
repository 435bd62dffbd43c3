"""Canonical forms (minlex) of 9x9 puzzles: one representative for each class of essentially equal puzzles.

Two puzzles are essentially equal when one becomes the other by a symmetry of the grid (transposition, band
order, row order inside each band, stack order, column order inside each stack: 3,359,232 in all) and a
relabelling of the digits. The canonical form is the smallest of all those puzzles written as 81 digits row by
row, 0 for an empty cell: the "minlex" key that puzzle collections use to remove duplicates.

``canonical_many`` runs the compiled branch and bound of ``bitdoku.kernels.minlex`` on threads; the rare rows
whose ties overflow its candidate arrays go to ``canonical_exhaustive``, a slow and obvious NumPy twin that
filters all 3,359,232 symmetries cell by cell.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations, product
from queue import Empty, SimpleQueue
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from bitdoku.batch import as_puzzle_array, check_many, run_sliced
from bitdoku.errors import ParseError, ShapeError, cell_name
from bitdoku.grid import Grid, Puzzle, as_grid
from bitdoku.kernels import minlex

#: Tied candidates room for the first pass: puzzles rarely tie more than 100 ways, and a small capacity keeps the
#: allocation of a one-puzzle call cheap (12 µs of a 40 µs call at the full ``minlex.DEFAULT_CAPACITY``). Rows that
#: overflow it (full grids, nearly empty ones) go round again with the full capacity.
FIRST_CAPACITY = 1 << 10
#: Row orders (of 1,296) tried together by ``canonical_exhaustive``: chunks of 108 x 1,296 = 139,968 symmetries.
EXHAUSTIVE_CHUNK = 108


def canonical(puzzle: Puzzle) -> Grid:
    """The canonical form of a 9x9 puzzle: the smallest equivalent puzzle as an 81-digit string.

    Parameters
    ----------
    puzzle : Grid, str, sequence or array
        A 9x9 grid (any values 0..9, valid or not, full or empty) in any form (``grid.Puzzle``).

    Returns
    -------
    Grid
        The canonical form. Equal for two puzzles exactly when one is a symmetry and relabelling of the other.

    Raises
    ------
    ShapeError
        For a grid that is not 9x9.

    Example
    -------
    >>> canonical("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..").to_line()
    '........1.....2.3...4.5.6.....6..7....678.....3...9.....8...5...9...7.1.12.....9.'
    """
    grid = as_grid(puzzle)
    if grid.n != 9:
        raise ShapeError(f"canonical forms are for 9x9 grids, not {grid.shape.size_name}")
    cells = np.frombuffer(grid.cells, dtype=np.uint8).reshape(1, 81)
    return Grid(canonical_many(cells, threads=1)[0].tobytes(), grid.shape)


def canonical_many(
    puzzles: ArrayLike | Iterable[Puzzle], *, threads: int | None = None
) -> NDArray[np.uint8]:
    """The canonical form of every row of a ``(k, 81)`` batch, on ``threads`` cores.

    Parameters
    ----------
    puzzles : array or iterable of Grid or str
        A uint8 ``(k, 81)`` array (or any integer array of that shape), or a list of 9x9 grids or puzzle lines.
    threads : int, optional
        Threads to run on (default: every core this process may use).

    Returns
    -------
    ndarray
        uint8 ``(k, 81)``: row i is the canonical form of puzzle i, 0 for an empty cell.

    Raises
    ------
    ShapeError
        For grids or rows that are not 9x9.
    ValueError
        For a value outside 0..9 (the message names the row and the cell).

    Example
    -------
    >>> forms = canonical_many(["1" + "." * 80, "." * 80 + "7", "12" + "." * 79])
    >>> forms[0].tolist() == forms[1].tolist(), int(forms[0][-1]), int(np.count_nonzero(forms[2]))
    (True, 1, 2)
    """
    array = _as_batch(puzzles)
    forms, status = minlex_batch(array, threads=threads, capacity=FIRST_CAPACITY)
    overflow = np.flatnonzero(status != minlex.OK)
    if len(overflow):
        forms[overflow], status[overflow] = minlex_batch(array[overflow], threads=threads)
    for row in overflow[status[overflow] != minlex.OK]:
        forms[row] = canonical_exhaustive(array[row])
    return forms


def minlex_batch(
    array: NDArray[np.uint8], *, threads: int | None = None, capacity: int = minlex.DEFAULT_CAPACITY
) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
    """The compiled pass alone, with no fallback: (forms, status) for a uint8 ``(k, 81)`` array.

    ``status[i]`` is ``minlex.OK`` where ``forms[i]`` is the canonical form, ``minlex.OVERFLOW`` where row i
    tied more ways than ``capacity`` candidates hold (``canonical_many`` then asks ``canonical_exhaustive``),
    ``minlex.INVALID`` where a value is above 9. For benchmarks and tests; ``canonical_many`` is the friendly
    face, which checks its input and never returns a partial form.
    """
    if capacity < 2:
        raise ValueError(f"capacity must be at least 2, not {capacity}")
    if array.ndim != 2 or array.shape[1] != 81:
        raise ShapeError(f"canonical forms are for 9x9 grids: a batch is a (k, 81) array, not {array.shape}")
    array = np.ascontiguousarray(array, dtype=np.uint8)
    k = len(array)
    forms = np.zeros((k, 81), dtype=np.uint8)
    status = np.zeros(k, dtype=np.int8)

    spare: SimpleQueue[tuple[NDArray[np.int64], NDArray[np.int64]]] = SimpleQueue()  # work arrays, one per thread

    def run(start: int, stop: int) -> None:
        try:
            candidates = spare.get_nowait()
        except Empty:
            candidates = minlex.new_candidates(capacity)
        minlex.minlex_rows(array[start:stop], forms[start:stop], status[start:stop], *candidates)
        spare.put(candidates)

    run_sliced(run, k, threads)
    return forms, status


def canonical_exhaustive(cells: ArrayLike) -> NDArray[np.uint8]:
    """The canonical form by brute force: every one of the 3,359,232 symmetries, filtered cell by cell.

    The slow, obvious twin of the compiled kernel, and its fallback. Symmetries go in chunks of 139,968; in
    each, cell after cell of the string, only the symmetries whose relabelled value is smallest are kept (a
    digit's label is its rank of first appearance), and a chunk stops as soon as it falls behind the best
    string of the chunks before it. Memory stays under a few MB; one puzzle takes a second or two.

    Parameters
    ----------
    cells : array_like
        81 cells (or 9 rows of 9), values 0..9.

    Returns
    -------
    ndarray
        uint8 (81,): the canonical form.

    Example
    -------
    >>> canonical_exhaustive([5] + [0] * 80)[-3:].tolist()
    [0, 0, 1]
    """
    grid = np.asarray(cells)
    if grid.size != 81:
        raise ShapeError(f"canonical forms are for 9x9 grids (81 cells), not {grid.size} cells")
    grid = grid.reshape(9, 9).astype(np.int64)
    _check_values(grid.reshape(1, 81))
    best: NDArray[np.uint8] | None = None
    rows, cols = np.divmod(np.arange(EXHAUSTIVE_CHUNK * len(LINE_ORDERS)), len(LINE_ORDERS))
    for flipped in (grid, grid.T):
        flat = np.ascontiguousarray(flipped, dtype=np.uint8).ravel()
        for start in range(0, len(LINE_ORDERS), EXHAUSTIVE_CHUNK):
            found = _chunk_minimum(flat, (rows + start).astype(np.int16), cols.astype(np.int16), best)
            if found is not None:
                best = found
    assert best is not None  # the first chunk always gives a string
    return best


def _line_orders() -> NDArray[np.uint8]:
    """The 1,296 orders of nine lines that keep bands together: the order of the bands, then inside each."""
    orders = [
        [3 * band + inner[slot][i] for slot, band in enumerate(bands) for i in range(3)]
        for bands in permutations(range(3))
        for inner in product(list(permutations(range(3))), repeat=3)
    ]
    return np.array(orders, dtype=np.uint8)


LINE_ORDERS = _line_orders()


def _chunk_minimum(
    flat: NDArray[np.uint8], rows: NDArray[np.int16], cols: NDArray[np.int16], best: NDArray[np.uint8] | None
) -> NDArray[np.uint8] | None:
    """The smallest string of the symmetries (row order ``rows[i]``, column order ``cols[i]``) of a grid, or
    None when it is larger than ``best``; labels are kept only once a cell is filled in every survivor."""
    labels: NDArray[np.uint8] | None = None  # labels[i, digit] for survivor i; all equal to 0 until needed
    next_label = 1
    tied = best is not None  # still equal to ``best`` so far
    string = np.zeros(81, dtype=np.uint8)
    for row in range(9):
        starts = LINE_ORDERS[rows, row] * 9  # uint8: the first cell of each survivor's source row
        for col in range(9):
            position = 9 * row + col
            digits = flat[starts + LINE_ORDERS[cols, col]]
            if digits.min() == 0:
                value, keep = 0, digits == 0
            else:
                if labels is None:
                    labels = np.zeros((len(digits), 10), dtype=np.uint8)
                values = labels[np.arange(len(digits)), digits]
                values[values == 0] = next_label
                value = int(values.min())
                keep = values == value
            if tied and best is not None and value != best[position]:
                if value > best[position]:
                    return None
                tied = False
            string[position] = value
            if not keep.all():
                rows, cols, starts, digits = rows[keep], cols[keep], starts[keep], digits[keep]
                labels = labels[keep] if labels is not None else None
            if value == next_label:
                assert labels is not None
                labels[np.arange(len(digits)), digits] = next_label
                next_label += 1
    return string


def _as_batch(puzzles: ArrayLike | Iterable[Puzzle]) -> NDArray[np.uint8]:
    """A checked uint8 (k, 81) array from an array, or from puzzles in any form (``batch.as_puzzle_array``)."""
    check_many(puzzles)
    if isinstance(puzzles, np.ndarray):
        if puzzles.dtype.kind in "iu" and puzzles.ndim == 2 and puzzles.shape[1] == 81:
            _check_values(puzzles)  # out-of-range values named by row and cell, not turned into invalid rows
    else:
        puzzles = list(cast("Iterable[Puzzle]", puzzles))  # check_many: an iterable
        if not puzzles:
            return np.zeros((0, 81), dtype=np.uint8)
    array, shape = as_puzzle_array(puzzles)
    if shape.n != 9:
        raise ShapeError(f"canonical forms are for 9x9 grids, not {shape.size_name}")
    return array


def _check_values(array: NDArray[np.integer]) -> None:
    """Raise ``ParseError`` (a ``ValueError``) naming the first row and cell whose value is not 0..9."""
    bad = np.argwhere((array < 0) | (array > 9))
    if len(bad):
        row, cell = (int(i) for i in bad[0])
        raise ParseError(
            f"row {row}, cell {cell_name(cell, 9)}: {int(array[row, cell])} is not a digit; "
            "cells hold 1-9, or 0 when empty"
        )
