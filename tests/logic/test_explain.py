import json
from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import bitdoku
from bitdoku import Grid, Shape
from bitdoku.data import sample_lines
from bitdoku.errors import InvalidGridError
from bitdoku.logic import CandidateGrid, explain, hint
from bitdoku.logic.explain import CLASSIC_LADDER, LADDER
from bitdoku.logic.rating import DIFFICULTY
from tests.logic.checks import assert_sound
from tests.strategies import solutions

UNIQUE_SAMPLES = [
    line
    for name in ("17clue_sample.txt", "top1465_sample.txt", "famous.txt", "hardest_sample.txt", "valid_edgecases.txt")
    for line in sample_lines(name)
]


def solve_with_steps(puzzle, **options):
    steps = list(explain(puzzle, **options))
    state = (CandidateGrid.parse(puzzle) if isinstance(puzzle, str) else CandidateGrid.from_grid(puzzle)).cleaned()
    for step in steps:
        state = state.apply(step)
    return steps, state


@pytest.mark.parametrize("line", UNIQUE_SAMPLES)
def test_every_step_on_the_shipped_unique_samples_agrees_with_the_solution(line):
    solution = bitdoku.solve(line)
    steps, final = solve_with_steps(line, guess=True)
    for step in steps:
        assert_sound(step, solution)
    assert final.to_grid() == solution


@st.composite
def unique_puzzles(draw, shapes):
    solution = draw(solutions(shapes))
    blanks = draw(st.sets(st.integers(0, solution.shape.n_cells - 1), max_size=int(0.7 * solution.shape.n_cells)))
    puzzle = Grid.from_array([0 if i in blanks else v for i, v in enumerate(solution.cells)], solution.shape)
    assume(bitdoku.search(puzzle, limit=2).count == 1)
    return puzzle, solution


@given(unique_puzzles([Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(3, 3)]))
def test_explain_never_makes_a_wrong_step_on_small_shapes(case):
    puzzle, solution = case
    steps, final = solve_with_steps(puzzle, guess=True)
    for step in steps:
        assert_sound(step, solution)
    assert final.to_grid() == solution


def test_16x16_and_25x25_samples_are_solved_soundly():
    for name in ("sample16x16.txt", "sample25x25.txt"):
        for line in sample_lines(name):
            result = bitdoku.search(line)
            if result.count != 1:
                continue  # uniqueness techniques assume a unique solution
            steps, final = solve_with_steps(line, guess=True)
            for step in steps:
                assert_sound(step, result.solution)
            assert final.to_grid() == result.solution


def test_without_guess_a_hard_puzzle_ends_with_a_stalled_step():
    line = sample_lines("famous.txt")[0]
    steps = list(explain(line, ladder=CLASSIC_LADDER))
    assert steps[-1].technique == "Stalled" and steps[-1].text.startswith("no technique applies: ")
    assert all(step.is_deduction for step in steps[:-1])


def test_guesses_are_marked_and_right():
    line = sample_lines("famous.txt")[0]
    solution = bitdoku.solve(line)
    guesses = [s for s in explain(line, guess=True, ladder=CLASSIC_LADDER) if s.technique == "Guess"]
    assert guesses and all(solution[c] == d for s in guesses for c, d in s.placements)
    assert "guess" in guesses[0].text


def test_every_input_kind_gives_the_same_steps():
    line = sample_lines("17clue_sample.txt")[0]
    grid = Grid.parse(line)
    state = CandidateGrid.from_grid(grid)
    texts = [s.text for s in explain(line)]
    assert texts == [s.text for s in explain(grid)] == [s.text for s in explain(state)]
    # Pencil marks write an open cell with one candidate as filled, so its naked single is not shown again.
    marks = state.to_pencilmarks()
    _steps, final = solve_with_steps(marks, guess=True)
    assert final.to_grid() == bitdoku.solve(line)


def test_a_step_keeps_the_state_it_was_found_in():
    line = sample_lines("17clue_sample.txt")[0]
    first, second = list(explain(line))[:2]
    assert first.after == second.before
    assert json.loads(json.dumps(first.to_dict()))["technique"] == first.technique


def test_clashing_givens_raise_and_unsolvable_puzzles_say_so():
    with pytest.raises(InvalidGridError):
        list(explain("11" + "." * 79))
    obvious, hidden = sample_lines("nosolution_sample.txt")[0], sample_lines("nosolution_sample.txt")[4]
    (step,) = explain(obvious, guess=True)
    assert step.technique == "Contradiction" and "r5c1 has no candidate left" in step.text
    assert list(explain(hidden, ladder=CLASSIC_LADDER))[-1].technique == "Stalled"
    assert list(explain(hidden))[-1].technique == "Contradiction"  # the full ladder gets to the contradiction
    with pytest.raises(InvalidGridError, match="no solution"):  # a guess needs a solution
        list(explain(hidden, guess=True, ladder=CLASSIC_LADDER))


def test_hint_is_the_first_step_and_none_when_solved():
    line = sample_lines("17clue_sample.txt")[0]
    assert hint(line) == next(explain(line))
    assert hint(bitdoku.solve(line)) is None


def test_the_ladder_is_ordered_by_difficulty():
    weights = [DIFFICULTY[rung.technique][0] for rung in CLASSIC_LADDER]
    assert weights == sorted(weights)
    assert Counter(rung.technique for rung in LADDER if not rung.single).most_common(1)[0][1] == 1


def test_explain_on_a_nearly_full_64x64_grid_finishes():
    shape = Shape(8, 8)
    cells = Grid.pattern(shape).to_array().ravel()
    cells[[0, 1, 4095]] = 0
    steps = list(explain(Grid.from_array(cells, shape)))
    assert len(steps) == 3 and all(s.technique == "Hidden Single" for s in steps)


def test_explain_stops_past_its_step_budget_after_the_steps_it_gave():
    from bitdoku.errors import StepLimitError

    line = sample_lines("famous.txt")[0]
    given = []
    with pytest.raises(StepLimitError, match="after 2 steps beyond singles"):
        for step in explain(line, guess=True, max_steps=2):
            given.append(step)
    assert sum(step.technique not in ("Hidden Single", "Naked Single") for step in given) == 2



def test_uniqueness_techniques_only_for_unique_puzzles():
    """A position where a unique rectangle is the next step: it is used when the puzzle is unique (known or
    checked), never when uniqueness is denied, and a puzzle with many solutions is never given one."""
    from bitdoku.logic import forcing, uniqueness
    from bitdoku.logic.explain import LADDER, WITHOUT_UNIQUENESS, has_unique_solution
    from tests.logic.checks import cases_of

    left_out = [rung for rung in LADDER if rung not in WITHOUT_UNIQUENESS]
    assert left_out == [rung for rung in LADDER if rung.find.__module__ in (uniqueness.__name__, forcing.__name__)]
    assert {"Unique Rectangle Type 1", "BUG+1"} <= {rung.technique for rung in left_out}
    case = cases_of("Unique Rectangle Type 1")[0]
    state = CandidateGrid.parse(case.marks, shape=case.shape)
    assert has_unique_solution(state)
    assert hint(state).technique == "Unique Rectangle Type 1"
    assert hint(state, unique=True).technique == "Unique Rectangle Type 1"
    assert hint(state, unique=False).technique != "Unique Rectangle Type 1"
    several = Grid.parse("." * 81)
    assert not has_unique_solution(CandidateGrid.from_grid(several))
    techniques = {step.technique for step in explain(several, guess=True)}
    assert not techniques & {"Unique Rectangle Type 1", "BUG+1"}
