"""The generator: uniqueness, minimality, symmetry, clue targets, difficulty, seeds and budgets.

On small shapes every claim is checked by the pure-Python reference engine, which shares no code with the
kernels that made the puzzle; 9x9 puzzles are checked by full solution counts (not the removal test).
"""

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bitdoku
from bitdoku import Grid, Shape, count_solutions
from bitdoku.errors import GenerationLimitError, ShapeError
from bitdoku.generate import Symmetry, generate, generate_many, has_symmetry, is_minimal, orbits, random_solution
from bitdoku.logic.rating import rate

SMALL = ["2x2", "2x3", "3x2"]


def reference_count(puzzle: Grid) -> int:
    return count_solutions(puzzle, limit=2, engine="reference")


def assert_minimal(puzzle: Grid, engine: str) -> None:
    """Every clue is needed: without any one of them the puzzle has a second solution."""
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            assert count_solutions(puzzle.with_digit(cell, 0), limit=2, engine=engine) == 2, f"cell {cell} could go"


@settings(max_examples=30)
@given(shape=st.sampled_from(SMALL), symmetry=st.sampled_from(list(Symmetry)), seed=st.integers(0, 2**40))
def test_small_puzzles_are_unique_symmetric_and_keep_every_orbit_by_the_reference_engine(shape, symmetry, seed):
    puzzle = generate(shape, seed=seed, symmetry=symmetry)
    assert puzzle.shape == Shape.parse(shape)
    assert reference_count(puzzle) == 1
    assert has_symmetry(puzzle, symmetry)
    for orbit in orbits(shape, symmetry):
        cells = [cell for cell in orbit if cell >= 0 and puzzle[int(cell)]]
        if cells:
            smaller = puzzle
            for cell in cells:
                smaller = smaller.with_digit(int(cell), 0)
            assert reference_count(smaller) == 2, f"orbit {cells} could go"


@settings(max_examples=20)
@given(shape=st.sampled_from(SMALL), seed=st.integers(0, 2**40))
def test_small_minimal_puzzles_are_minimal_by_the_reference_engine(shape, seed):
    puzzle = generate(shape, seed=seed, minimal=True)
    assert reference_count(puzzle) == 1
    assert_minimal(puzzle, "reference")
    symmetric = generate(shape, seed=seed, minimal=True, symmetry="rotational")
    assert reference_count(symmetric) == 1 and has_symmetry(symmetric, "rotational")
    assert_minimal(symmetric, "reference")


def test_minimal_and_symmetric_can_be_impossible_and_the_budget_says_so():
    """No 4x4 puzzle with all eight symmetries is minimal: every attempt has a removable clue."""
    with pytest.raises(GenerationLimitError, match="had a removable clue"):
        generate("2x2", seed=0, symmetry="dihedral", minimal=True, time_limit=0.3)


@settings(max_examples=20)
@given(symmetry=st.sampled_from(list(Symmetry)), seed=st.integers(0, 2**40))
def test_9x9_puzzles_are_unique_and_keep_their_symmetry(symmetry, seed):
    puzzle = generate(seed=seed, symmetry=symmetry)
    assert count_solutions(puzzle, limit=2) == 1
    assert has_symmetry(puzzle, symmetry)


def test_9x9_puzzles_without_symmetry_are_minimal_and_say_so():
    for generated in generate_many(10, seed=3):
        assert generated.minimal is True
        assert_minimal(generated.puzzle, "bitmask")
        assert generated.solution.is_solution_of(generated.puzzle)


def test_minimal_symmetric_9x9_puzzles_are_minimal_clue_by_clue():
    for generated in generate_many(4, seed=8, symmetry="rotational", minimal=True):
        assert generated.minimal is True and has_symmetry(generated.puzzle, "rotational")
        assert_minimal(generated.puzzle, "bitmask")


def test_symmetric_puzzles_without_minimal_do_not_claim_it():
    assert {g.minimal for g in generate_many(5, seed=2, symmetry="rotational")} == {None}


def test_a_clue_target_is_met_exactly():
    for generated in generate_many(3, seed=4, clues=30):
        assert generated.clues == 30 and count_solutions(generated.puzzle) == 1
    small = generate("2x3", seed=1, clues=12, symmetry="rotational")
    assert small.givens == 12 and reference_count(small) == 1


def test_minimal_puzzles_with_a_clue_count():
    for generated in generate_many(3, seed=6, minimal=True, clues=25):
        assert generated.clues == 25 and generated.minimal
        assert_minimal(generated.puzzle, "bitmask")


def test_the_same_seed_gives_the_same_puzzles_on_any_number_of_threads():
    runs = [[g.puzzle for g in generate_many(40, seed=12, threads=threads)] for threads in (1, 2, 3)]
    assert runs[0] == runs[1] == runs[2]
    assert len(set(runs[0])) == 40
    assert generate(seed=12) == runs[0][0]
    assert [g.puzzle for g in generate_many(40, seed=13, threads=2)] != runs[0]
    big = [[g.puzzle for g in generate_many(3, "3x4", seed=5, threads=threads)] for threads in (1, 2)]
    assert big[0] == big[1]


def test_a_filtered_run_is_reproducible_too():
    def run(threads):
        return [g.puzzle for g in generate_many(6, seed=21, difficulty="medium", symmetry="mirror", threads=threads)]

    assert run(1) == run(2)


def test_the_difficulty_filter_keeps_only_that_level():
    for level in ("easy", "medium", "hard"):
        for generated in generate_many(3, seed=5, difficulty=level):
            assert generated.rating is not None and generated.rating.level == level
            assert rate(generated.puzzle).level == level


def test_the_rating_range_is_respected():
    for generated in generate_many(4, seed=9, rating=(1.6, 2.9)):
        assert 1.6 <= rate(generated.puzzle).score <= 2.9


def test_rated_runs_carry_ratings_and_json_fields():
    generated = next(generate_many(1, seed=1, rated=True))
    record = generated.to_dict()
    assert record["rating"] == generated.rating.score and record["level"] == generated.rating.level
    assert Grid.parse(record["solution"]).is_solution_of(Grid.parse(record["puzzle"]))
    assert record["clues"] == generated.clues and record["attempts"] >= 1 and record["nodes"] > 0


def test_impossible_clue_counts_are_refused_at_once_with_the_reason():
    with pytest.raises(ValueError, match="fewer than 17 clues"):
        generate(clues=10)
    with pytest.raises(ValueError, match="fewer than 4 clues"):
        generate("2x2", clues=3)
    with pytest.raises(ValueError, match="quarter-turn symmetry has exactly 22 clues"):
        generate(clues=22, symmetry="quarter-turn")
    with pytest.raises(ValueError, match="0 to 81 clues"):
        generate(clues=82)


def test_a_target_out_of_reach_ends_at_the_time_limit_with_what_came_closest():
    start = time.perf_counter()
    with pytest.raises(GenerationLimitError) as error:
        generate(seed=1, clues=18, time_limit=0.5)
    assert time.perf_counter() - start < 5
    message = str(error.value)
    assert "found no unique 9x9 puzzle with 18 clues within 0.5 s" in message
    assert "the fewest clues reached was" in message and error.value.attempts > 1


def test_the_node_budget_is_honoured_too():
    with pytest.raises(GenerationLimitError, match="within 500 nodes"):
        generate(seed=1, clues=18, max_nodes=500)


def test_a_level_out_of_reach_lists_the_levels_seen():
    with pytest.raises(GenerationLimitError, match="levels seen: easy"):
        generate("2x2", seed=1, difficulty="extreme", time_limit=0.3)


def test_an_error_in_a_run_comes_after_the_puzzles_before_it():
    made = generate_many(3, "2x2", seed=1, difficulty="extreme", time_limit=0.2, threads=2)
    with pytest.raises(GenerationLimitError):
        next(made)


def test_a_consumer_that_stops_early_stops_the_workers():
    start = time.perf_counter()
    made = generate_many(10**6, "2x2", seed=1, threads=2)
    assert next(made).puzzle.givens >= 4
    made.close()
    assert time.perf_counter() - start < 10


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(ValueError, match="unknown symmetry 'spiral'"):
        generate(symmetry="spiral")
    with pytest.raises(ShapeError):
        generate("1x9")
    with pytest.raises(ValueError, match="levels are easy"):
        generate(difficulty="impossible")
    with pytest.raises(ValueError, match="low to high"):
        generate(rating=(5, 2))
    with pytest.raises(ValueError, match="count must be"):
        list(generate_many(-1))
    with pytest.raises(ValueError, match="seed is a non-negative integer"):
        generate(seed=-5)
    with pytest.raises(ValueError, match="9x9 only"):
        list(generate_many(2, "2x2", distinct=True))


@pytest.mark.parametrize("shape", ["2x2", "2x3", "3x3", "2x4", "3x4", "4x4", "5x5"])
def test_random_solutions_of_every_shape_to_25x25(shape):
    grid = random_solution(shape, seed=3)
    assert grid.is_solved() and grid.shape == Shape.parse(shape)
    assert grid == random_solution(shape, seed=3) != random_solution(shape, seed=4)


def test_larger_grids_make_unique_puzzles():
    puzzle = generate("4x4", seed=2, clues=150)
    assert puzzle.givens == 150 and count_solutions(puzzle) == 1


def test_is_minimal_and_the_public_names():
    assert is_minimal(generate("2x3", seed=5))
    assert not is_minimal(bitdoku.Grid.parse("1234" "3412" "2143" "43.."))
    with pytest.raises(bitdoku.InvalidGridError, match="only a unique puzzle"):
        is_minimal(Grid.empty("2x2"))


def test_compiling_is_not_charged_to_the_time_limit(monkeypatch):
    """A cold Numba cache compiles for tens of seconds on the first call: the generator compiles (``warm_up``)
    before any puzzle's clock starts, so a time limit shorter than the compile still gets a puzzle."""
    from bitdoku.generate import puzzles

    real = puzzles.warm_up

    def slow_compile(request, *, rated=False):
        real(request, rated=rated)
        time.sleep(0.5)  # what a cold cache would add

    monkeypatch.setattr(puzzles, "warm_up", slow_compile)
    assert generate("3x3", seed=3, time_limit=0.4).givens > 0
