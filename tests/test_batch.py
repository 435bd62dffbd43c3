import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bitdoku import Grid, PuzzleTypeError, Shape, ShapeError, Status, search
from bitdoku.batch import (
    BIG_SLICE_ROWS,
    GUIDED_SHARE,
    SLICE_ROWS,
    TASKS_PER_THREAD,
    _guided_slices,
    as_puzzle_array,
    count_many,
    run_sliced,
    solve_many,
    verify_solutions,
)
from bitdoku.data import DEMO, DEMO_SOLUTION, sample_lines
from tests.strategies import puzzles

SAMPLES = {
    "17clue_sample.txt": Status.UNIQUE,
    "famous.txt": Status.UNIQUE,
    "top1465_sample.txt": Status.UNIQUE,
    "hardest_sample.txt": Status.UNIQUE,
    "valid_edgecases.txt": Status.UNIQUE,
    "unique16x16_sample.txt": Status.UNIQUE,
    "unique25x25_sample.txt": Status.UNIQUE,
    "multisolution_sample.txt": Status.MULTIPLE,
    "nosolution_sample.txt": Status.NO_SOLUTION,
    "duplicate_givens.txt": Status.INVALID,
}


@pytest.mark.parametrize(("name", "expected"), SAMPLES.items())
def test_shipped_samples_get_their_expected_status(name, expected):
    lines = sample_lines(name)
    result = count_many(lines, threads=2)
    assert result.statuses == [expected] * len(lines)
    if expected is Status.UNIQUE:
        assert verify_solutions(result.puzzles, result.solutions, result.shape).all()


@pytest.mark.parametrize("name", ["sample16x16.txt", "sample25x25.txt"])
def test_big_grid_samples_are_solved_and_verified(name):
    result = solve_many(sample_lines(name), threads=2)
    assert all(s is Status.SOLVED for s in result.statuses)
    assert verify_solutions(result.puzzles, result.solutions, result.shape).all()


def test_thread_count_does_not_change_results():
    lines = sample_lines("top1465_sample.txt") + sample_lines("multisolution_sample.txt")
    lines += sample_lines("nosolution_sample.txt") + sample_lines("duplicate_givens.txt")
    lines = lines * 12  # more rows than one slice, so the pool really splits the work
    one, two = count_many(lines, threads=1), count_many(lines, threads=2)
    for field in ("solutions", "status_codes", "counts", "stats"):
        np.testing.assert_array_equal(getattr(one, field), getattr(two, field))


def test_one_bad_row_never_fails_the_batch():
    rows = [Grid.parse(DEMO).cells, b"\x05\x05" + bytes(79), Grid.parse(DEMO_SOLUTION).cells]
    array = np.frombuffer(b"".join(rows), np.uint8).reshape(3, 81)
    result = solve_many(array, limit=2)
    assert result.statuses == [Status.UNIQUE, Status.INVALID, Status.UNIQUE]
    assert result.result(1).reason == "digit 5 appears twice in row 1 (r1c1, r1c2)"
    assert Grid(result.solutions[0].tobytes(), Shape(3, 3)).to_line() == DEMO_SOLUTION


def test_out_of_range_values_make_their_row_invalid_instead_of_wrapping():
    array = np.zeros((2, 16), dtype=np.int64)
    array[1, 0] = 257  # would wrap to 1 in uint8
    result = solve_many(array, limit=2)
    assert result.statuses == [Status.MULTIPLE, Status.INVALID]
    array[1, 0] = -1
    assert solve_many(array).status(1) is Status.INVALID


def test_whole_batch_errors_are_raised():
    with pytest.raises(ShapeError, match="2-D array"):
        solve_many(np.zeros(81, dtype=np.uint8))
    with pytest.raises(ShapeError, match="fits no grid"):
        solve_many(np.zeros((2, 80), dtype=np.uint8))
    with pytest.raises(PuzzleTypeError, match="astype"):
        solve_many(np.zeros((2, 81), dtype=float))
    with pytest.raises(ShapeError, match="same shape"):
        as_puzzle_array([Grid.empty("2x2"), Grid.empty("3x3")])
    with pytest.raises(ValueError, match="threads"):
        solve_many([DEMO], threads=0)


def test_budget_stops_nearly_empty_big_grids():
    for shape in (Shape(5, 5), Shape(8, 8)):
        puzzle = Grid.empty(shape).with_digit(0, 1)
        result = count_many([puzzle], limit=10**9, max_nodes=2000)
        assert result.statuses == [Status.LIMIT] and result.stats[0, 1] <= 2000
        assert "node budget of 2,000 spent" in result.result(0).reason


def test_batch_rows_match_single_searches():
    lines = sample_lines("multisolution_sample.txt")[:6] + sample_lines("top1465_sample.txt")[:6]
    batch = count_many(lines, limit=3)
    for row, line in enumerate(lines):
        single = search(line, limit=3)
        assert (batch.status(row), batch.counts[row]) == (single.status, single.count)


@settings(max_examples=60)
@given(puzzles(shapes=[Shape(2, 2), Shape(2, 3), Shape(3, 3)], max_blanks=0.7), st.integers(1, 3))
def test_batch_statuses_agree_with_the_reference_engine(puzzle, limit):
    batch = count_many([puzzle], limit=limit)
    reference = search(puzzle, limit=limit, engine="reference", max_nodes=10**6)
    if reference.status is not Status.LIMIT:
        assert (batch.status(0), int(batch.counts[0])) == (reference.status, reference.count)


def test_verify_solutions_catches_wrong_grids():
    puzzle = np.frombuffer(Grid.parse(DEMO).cells, np.uint8).reshape(1, 81)
    good = np.frombuffer(Grid.parse(DEMO_SOLUTION).cells, np.uint8).reshape(1, 81).copy()
    assert verify_solutions(puzzle, good, Shape(3, 3)).tolist() == [True]
    swapped = good.copy()
    swapped[0, [1, 2]] = swapped[0, [2, 1]]
    assert verify_solutions(puzzle, swapped, Shape(3, 3)).tolist() == [False]
    other = np.frombuffer(Grid.parse(DEMO_SOLUTION).cells, np.uint8).reshape(1, 81)
    changed_given = puzzle.copy()
    changed_given[0, 0] = 9
    assert verify_solutions(changed_given, other, Shape(3, 3)).tolist() == [False]


def test_a_contiguous_uint8_batch_is_searched_without_a_copy():
    array = np.frombuffer(b"".join(Grid.parse(line).cells for line in sample_lines("17clue_sample.txt")), np.uint8)
    array = array.reshape(-1, 81).copy()
    result = count_many(array, threads=2)
    assert np.shares_memory(result.puzzles, array)
    assert (result.counts == 1).all()


@settings(max_examples=300, deadline=None)
@given(rows=st.integers(1, 200_000), threads=st.integers(1, 64))
def test_guided_slices_cover_the_rows_in_order_and_end_as_short_as_before(rows, threads):
    slices = list(_guided_slices(rows, threads))
    assert [start for start, _ in slices] == [0] + [stop for _, stop in slices[:-1]]
    assert slices[-1][1] == rows
    sizes = [stop - start for start, stop in slices]
    last = max(1, min(SLICE_ROWS, -(-rows // (threads * TASKS_PER_THREAD))))
    assert max(sizes) <= max(last, BIG_SLICE_ROWS)
    assert all(size >= after for size, after in itertools.pairwise(sizes))  # they only shrink
    assert all(size == last for size in sizes[-(threads * GUIDED_SHARE - 1):-1])  # the tail: the small size


def test_big_batches_take_few_slices_and_every_row_runs_once():
    seen = np.zeros(1_000_000, np.int64)

    def run(start, stop):
        seen[start:stop] += 1

    run_sliced(run, len(seen), 2)
    assert (seen == 1).all()
    assert len(list(_guided_slices(len(seen), 2))) < len(seen) // SLICE_ROWS // 5
