"""True candidates agree with the digits of every solution, listed by brute force, on small grids and Killers."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitdoku import Grid, InvalidGridError, Shape, search, true_candidates
from tests.strategies import solutions


def every_solution(grid: Grid) -> list[Grid]:
    result = search(grid, limit=50_000, keep=50_000)
    assert result.count < 50_000
    return list(result.solutions)


@st.composite
def thinned(draw) -> Grid:
    solution = draw(solutions((Shape(2, 2), Shape(2, 3), Shape(3, 2))))
    cells = solution.shape.n_cells
    keep = draw(st.sets(st.integers(0, cells - 1), min_size=cells // 3, max_size=cells // 2))
    return Grid(bytes(v if i in keep else 0 for i, v in enumerate(solution.cells)), solution.shape)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(thinned())
def test_true_candidates_are_the_digits_of_the_solutions(grid):
    found = true_candidates(grid)
    seen = [0] * grid.shape.n_cells
    for solution in every_solution(grid):
        for cell, digit in enumerate(solution.cells):
            seen[cell] |= 1 << (digit - 1)
    assert found.complete and list(found.masks) == seen


def test_a_killer_and_its_budgets():
    killer = Grid.parse("AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3", variant="killer")  # two solutions
    found = true_candidates(killer)
    solutions_ = every_solution(killer)
    assert len(solutions_) == 2 and not found.is_unique and found.complete
    assert all(found.digits(c) == sorted({s.cells[c] for s in solutions_}) for c in range(16))
    unique = Grid.parse("ABBCADECFDECFFGG 4,5,9,5,5,9,3", variant="killer")
    assert true_candidates(unique).is_unique
    spent = true_candidates(Grid.empty("3x3"), time_limit=0)
    assert not spent.complete and len(spent.undecided) == 81 * 9


def test_bad_givens_are_refused():
    with pytest.raises(InvalidGridError, match="appears twice"):
        true_candidates("11.." "...." "...." "....")
