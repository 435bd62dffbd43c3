"""The minlex kernel against its slow, obvious twin (``canonical_exhaustive``), and its status codes.

The twin filters all 3,359,232 symmetries cell by cell, so it costs a fraction of a second to a second a call:
only a dozen puzzles, chosen to reach every path of the kernel (empty rows and columns, free stacks, ties
between orders of new digits, repeated digits, grids with many symmetries).
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from tests.strategies import puzzles

from bitdoku import Grid, Shape
from bitdoku.data import DEMO, DEMO_SOLUTION, sample_lines
from bitdoku.generate.canon import canonical_exhaustive, minlex_batch
from bitdoku.kernels import minlex


def _cells(text: str) -> np.ndarray:
    return np.frombuffer(Grid.parse(text).cells, dtype=np.uint8)


def _with_empty_row_and_column(text: str, row: int, col: int) -> str:
    grid = _cells(text).reshape(9, 9).copy()
    grid[row, :] = 0
    grid[:, col] = 0
    return "".join(str(v) for v in grid.ravel())


DIAGONAL = "".join("1" if row == col else "." for row in range(9) for col in range(9))
BOXES_ON_THE_DIAGONAL = "".join(
    str(3 * (row % 3) + col % 3 + 1) if row // 3 == col // 3 else "." for row in range(9) for col in range(9)
)

CASES = {
    "17-clue": sample_lines("17clue_sample.txt")[0],
    "17-clue with an empty line": sample_lines("17clue_sample.txt")[2],
    "top1465": sample_lines("top1465_sample.txt")[5],
    "forum hardest": sample_lines("hardest_sample.txt")[3],
    "full solution": DEMO_SOLUTION,
    "pattern solution (many symmetries)": Grid.pattern("3x3").to_line(),
    "an empty row and an empty column": _with_empty_row_and_column(DEMO, 4, 6),
    "one digit down the diagonal": DIAGONAL,
    "boxes on the diagonal": BOXES_ON_THE_DIAGONAL,
    "empty grid": "." * 81,
    "one clue": "." * 40 + "7" + "." * 40,
    "duplicate givens": sample_lines("duplicate_givens.txt")[2],
}


@pytest.mark.parametrize("text", CASES.values(), ids=CASES.keys())
def test_kernel_agrees_with_the_exhaustive_twin(text):
    cells = _cells(text)
    forms, status = minlex_batch(cells[None], threads=1)
    assert status[0] == minlex.OK
    assert forms[0].tolist() == canonical_exhaustive(cells).tolist()


def test_too_many_ties_for_the_capacity_is_overflow_not_a_wrong_answer():
    full = _cells(DEMO_SOLUTION)[None]  # its first row ties 18 x 1,296 ways
    assert minlex_batch(full, threads=1, capacity=1000)[1][0] == minlex.OVERFLOW
    assert minlex_batch(full, threads=1)[1][0] == minlex.OK


def test_a_value_above_9_is_invalid_and_the_other_rows_carry_on():
    rows = np.stack([_cells(DEMO), _cells(DEMO)])
    rows[0, 3] = 12
    out = np.zeros_like(rows)
    status = np.zeros(2, dtype=np.int8)
    minlex.minlex_rows(rows, out, status, *minlex.new_candidates(64))
    assert status.tolist() == [minlex.INVALID, minlex.OK]
    assert out[1].tolist() == minlex_batch(rows[1:], threads=1)[0][0].tolist()


def test_the_kernel_does_not_change_its_input():
    rows = np.stack([_cells(line) for line in sample_lines("top1465_sample.txt")[:5]])
    before = rows.copy()
    minlex_batch(rows, threads=1)
    assert (rows == before).all()


@settings(max_examples=60)
@given(puzzle=puzzles(shapes=[Shape(3, 3)]))
def test_the_form_is_a_fixed_point_and_keeps_the_clue_count(puzzle):
    cells = np.frombuffer(puzzle.cells, dtype=np.uint8)[None]
    forms, status = minlex_batch(cells, threads=1)
    assume(status[0] == minlex.OK)
    again, status = minlex_batch(forms, threads=1)
    assert status[0] == minlex.OK
    assert again.tolist() == forms.tolist()
    assert np.count_nonzero(forms) == np.count_nonzero(cells)
