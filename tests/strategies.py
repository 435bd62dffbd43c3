"""Hypothesis strategies: valid full grids of any shape, and puzzles made from them."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from bitdoku import Grid, Shape

SMALL_SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]


def pattern_solution(shape: Shape) -> np.ndarray:
    """A valid full grid of any shape, as an N x N array (``Grid.pattern``)."""
    return Grid.pattern(shape).to_array()


def _shuffled_groups(draw, count: int, size: int) -> list[int]:
    """A permutation of count*size indices that moves whole groups and indices within each group."""
    order = draw(st.permutations(range(count)))
    return [g * size + i for g in order for i in draw(st.permutations(range(size)))]


@st.composite
def solutions(draw, shapes=SMALL_SHAPES) -> Grid:
    """A random valid full grid: the pattern grid with digits, rows and columns shuffled by symmetries."""
    shape = draw(st.sampled_from(shapes))
    n, r, c = shape.n, shape.box_rows, shape.box_cols
    grid = pattern_solution(shape)
    digits = np.array([0, *draw(st.permutations(range(1, n + 1)))], dtype=np.uint8)
    grid = digits[grid]
    grid = grid[_shuffled_groups(draw, c, r), :]  # c bands of r rows
    grid = grid[:, _shuffled_groups(draw, r, c)]  # r stacks of c columns
    return Grid.from_array(grid, shape)


@st.composite
def puzzles(draw, shapes=SMALL_SHAPES, max_blanks: float = 1.0, corrupt: bool = True) -> Grid:
    """A puzzle: a solution with random cells blanked (at most ``max_blanks`` of them, as a fraction) and,
    sometimes, random digits written over cells (which may make it invalid, unsolvable or still fine)."""
    solution = draw(solutions(shapes))
    n_cells = solution.shape.n_cells
    blanks = draw(st.sets(st.integers(0, n_cells - 1), max_size=int(max_blanks * n_cells)))
    cells = [0 if i in blanks else v for i, v in enumerate(solution.cells)]
    if corrupt:
        for _ in range(draw(st.integers(0, 2))):
            cell = draw(st.integers(0, n_cells - 1))
            cells[cell] = draw(st.integers(0, solution.n))
    return Grid.from_array(cells, solution.shape)
