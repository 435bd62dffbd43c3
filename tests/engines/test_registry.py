"""Every engine in the registry agrees with the reference engine: a new engine is checked automatically."""

import pytest
from hypothesis import given, settings

from bitdoku import ENGINES, Shape, Status, search
from tests import naive
from tests.strategies import puzzles

FAST_ENGINES = sorted(name for name in ENGINES if name != "reference")


@pytest.mark.parametrize("engine", FAST_ENGINES)
@settings(max_examples=150)
@given(puzzle=puzzles(shapes=[Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]))
def test_counts_match_the_reference_engine(engine, puzzle):
    reference = search(puzzle, limit=3, keep=3, engine="reference", max_nodes=2_000_000)
    fast = search(puzzle, limit=3, keep=3, engine=engine)
    if reference.status is Status.LIMIT:  # a brute-force budget is no verdict
        return
    assert (fast.status, fast.count) == (reference.status, reference.count)
    assert all(solution.is_solution_of(puzzle) for solution in fast.solutions)
    assert len(fast.solutions) == min(fast.count, 3)


@pytest.mark.parametrize("engine", FAST_ENGINES)
@settings(max_examples=40)
@given(puzzle=puzzles(shapes=[Shape(4, 4)], max_blanks=0.5))
def test_16x16_counts_match_an_independent_counter(engine, puzzle):
    fast = search(puzzle, limit=3, keep=3, engine=engine)
    assert fast.count == naive.count_solutions(puzzle, limit=3)
    assert all(solution.is_solution_of(puzzle) for solution in fast.solutions)


@pytest.mark.parametrize("engine", FAST_ENGINES)
def test_contradictory_givens_are_reported_before_search(engine):
    # r1c9 is empty, but its row holds 1-8 and its column holds 9: no candidate is left.
    puzzle = "12345678." + "........9" + "." * 63
    result = search(puzzle, engine=engine)
    assert result.status is Status.NO_SOLUTION and result.stats.nodes == 0
    assert result.reason == "r1c9 has no candidate left: its row, column and box hold every digit"
