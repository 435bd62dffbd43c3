import pytest
from hypothesis import given

from bitdoku import Grid, Shape, Status, search
from bitdoku.data import DEMO, DEMO_SOLUTION, sample_lines
from bitdoku.engines import reference
from tests import naive
from tests.strategies import puzzles


def run(puzzle, limit=2, max_nodes=10**7, keep=2):
    return reference.search(Grid.parse(puzzle) if isinstance(puzzle, str) else puzzle,
                            limit=limit, max_nodes=max_nodes, keep=keep)


def test_demo_grid_has_the_known_unique_solution():
    result = run(DEMO)
    assert result.status is Status.UNIQUE and result.count == 1
    assert result.solution.to_line() == DEMO_SOLUTION
    # The seed algorithm's exact node count for this grid: in-order cells, ascending digits.
    assert result.stats.nodes == 2_068_780


def test_empty_4x4_grid_has_288_solutions():
    result = run(Grid.empty("2x2"), limit=10_000, keep=0)
    assert result.status is Status.MULTIPLE and result.count == 288


def test_limit_stops_counting_and_keep_bounds_the_solutions_kept():
    result = run(Grid.empty("2x2"), limit=5, keep=3)
    assert result.count == 5 and len(result.solutions) == 3 and len(set(result.solutions)) == 3


def test_node_budget_is_obeyed():
    result = run(Grid.empty(Shape(5, 5)), limit=2, max_nodes=1000)
    assert result.status is Status.LIMIT and result.stats.nodes == 1000
    assert "1,000" in result.reason


def test_no_solution_is_reported_as_such():
    unsolvable = sample_lines("nosolution_sample.txt")
    # Sudopedia's unsolvable square, box and row; its unsolvable column takes the brute force 13M nodes.
    for line in (unsolvable[0], unsolvable[1], unsolvable[3]):
        result = run(line)
        assert result.status is Status.NO_SOLUTION and result.count == 0 and result.solution is None


def test_first_solution_only_is_solved_not_unique():
    assert run(DEMO, limit=1).status is Status.SOLVED


@pytest.mark.parametrize("line", sample_lines("17clue_reference_quick.txt"))
def test_17_clue_puzzles_are_unique(line):
    result = run(line)
    assert result.status is Status.UNIQUE and result.solution.is_solution_of(Grid.parse(line))


@given(puzzles(shapes=[Shape(2, 2), Shape(2, 3), Shape(3, 2)]))
def test_counts_match_an_independent_counter(puzzle):
    expected = naive.count_solutions(puzzle, limit=3)
    if not puzzle.is_valid():
        assert search(puzzle, engine="reference").status is Status.INVALID
        return
    result = run(puzzle, limit=3, keep=3)
    assert result.count == expected
    assert all(solution.is_solution_of(puzzle) for solution in result.solutions)
    assert len(set(result.solutions)) == len(result.solutions)


@given(puzzles(shapes=[Shape(3, 3)], max_blanks=0.6))
def test_9x9_solutions_are_valid_and_keep_the_givens(puzzle):
    result = search(puzzle, engine="reference", limit=2, keep=2, max_nodes=200_000)
    for solution in result.solutions:
        assert solution.is_solution_of(puzzle)
    if result.status is Status.UNIQUE:
        assert naive.count_solutions(puzzle, limit=2) == 1
