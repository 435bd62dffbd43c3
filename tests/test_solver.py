import numpy as np
import pytest

from bitdoku import (
    ENGINES,
    Grid,
    InvalidGridError,
    ParseError,
    SearchLimitError,
    Shape,
    Status,
    count_solutions,
    is_unique,
    search,
    solve,
)
from bitdoku.data import DEMO, DEMO_SOLUTION, sample_lines

DUPLICATE = "55" + "." * 79


@pytest.fixture(params=sorted(ENGINES))
def engine(request):
    return request.param


def test_solve_accepts_text_grids_and_arrays(engine):
    expected = Grid.parse(DEMO_SOLUTION)
    assert solve(DEMO, engine=engine) == expected
    assert solve(Grid.parse(DEMO), engine=engine) == expected
    assert solve(Grid.parse(DEMO).to_array(), engine=engine) == expected


def test_solve_returns_none_without_a_solution(engine):
    assert solve(sample_lines("nosolution_sample.txt")[0], engine=engine) is None


def test_invalid_givens(engine):
    result = search(DUPLICATE, engine=engine)
    assert result.status is Status.INVALID and result.count == 0
    assert result.reason == "digit 5 appears twice in row 1 (r1c1, r1c2)"
    with pytest.raises(InvalidGridError, match=r"invalid grid: digit 5 appears twice in row 1 \(r1c1, r1c2\)"):
        solve(DUPLICATE, engine=engine)
    with pytest.raises(InvalidGridError):
        count_solutions(DUPLICATE, engine=engine)


@pytest.mark.parametrize("line", sample_lines("duplicate_givens.txt"))
def test_sudopedia_duplicate_givens_are_invalid(engine, line):
    assert search(line, engine=engine).status is Status.INVALID


def test_budget_exhaustion_raises_with_stats(engine):
    with pytest.raises(SearchLimitError) as info:
        count_solutions(Grid.empty(Shape(4, 4)), limit=10**9, max_nodes=500, engine=engine)
    assert info.value.max_nodes == 500 and info.value.stats.nodes == 500
    assert "search stopped after 500 nodes" in str(info.value) and "max_nodes" in str(info.value)
    assert search(Grid.empty(Shape(4, 4)), limit=10**9, max_nodes=500, engine=engine).status is Status.LIMIT


def test_counting_and_uniqueness(engine):
    assert count_solutions(Grid.empty("2x2"), limit=1000, engine=engine) == 288
    assert is_unique(DEMO, engine=engine)
    assert not is_unique(sample_lines("multisolution_sample.txt")[3], engine=engine)


@pytest.mark.parametrize(("index", "count"), [(3, 2), (4, 3), (5, 4), (6, 10), (7, 125)])
def test_sudopedia_multisolution_counts(engine, index, count):
    puzzle = sample_lines("multisolution_sample.txt")[index]
    assert count_solutions(puzzle, limit=1000, engine=engine) == count


@pytest.mark.parametrize("line", sample_lines("valid_edgecases.txt"))
def test_sudopedia_valid_cases_are_unique(engine, line):
    result = search(line, engine=engine)
    assert result.status is Status.UNIQUE and result.solution.is_solution_of(Grid.parse(line))


def test_keep_returns_several_solutions(engine):
    result = search(Grid.empty("2x2"), limit=10, keep=4, engine=engine)
    assert result.count == 10 and len(set(result.solutions)) == 4
    assert all(s.is_solved() for s in result.solutions)


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="limit must be an integer of at least 1"):
        search(DEMO, limit=0)
    with pytest.raises(ValueError, match="max_nodes"):
        search(DEMO, max_nodes=-5)
    with pytest.raises(ValueError, match="unknown engine 'warp'; engines are"):
        search(DEMO, engine="warp")
    with pytest.raises(ParseError):
        solve("not a puzzle")
    with pytest.raises(ParseError):
        solve(np.zeros(80, dtype=np.uint8))


@pytest.mark.parametrize("line", sample_lines("famous.txt"))
def test_famous_puzzles_are_unique(engine, line):
    result = search(line, engine=engine)
    assert result.status is Status.UNIQUE and result.solution.is_solution_of(Grid.parse(line))
