"""Canonical forms: the same for every symmetry and relabelling of a puzzle, a transform of the puzzle, and
different for puzzles that are not equivalent; plus the API's inputs and errors, and the CLI command."""

import numpy as np
import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bitdoku import Grid, Shape, ShapeError, count_solutions
from bitdoku.cli.canon import canon
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import _ErrorsToExitCodes
from bitdoku.data import DEMO, DEMO_SOLUTION, sample_lines
from bitdoku.generate.canon import canonical, canonical_exhaustive, canonical_many, minlex_batch
from bitdoku.kernels import minlex
from tests.strategies import puzzles, solutions

# Royle's 17-clue puzzles (the shipped sample) and their canonical forms as published in the completed 49,158
# list that tdoku ships (lines 33786, 2652 and 40311 of 17clue_complete_49158_tdoku.txt in the shared data).
# Both lists are public; the forms were also checked against ``canonical_exhaustive``. (That list is minlex
# in this module's sense for 97% of its lines; the others follow another convention, so only these are used.)
PUBLISHED = {
    ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...":
        "........1.......2......3.......4.5....6...3....781.....1..2...4.3.....7.95.......",
    ".......12....35......6...7.7.....3.....4..8..1...........12.....8.....4..5....6..":
        "................12....34........53.6..7.......21.8.....5.1..8..4........6..7.....",
    ".......12..8.3...........4.12.5..........47...6.......5.7...3.....62.......1.....":
        "........1.......23..4..5........2....1....4..36..7.......61......5...8....7.3....",
}


@st.composite
def symmetries(draw):
    """A random symmetry and relabelling: (transpose?, row order, column order, new digit of each digit)."""

    def line_order():
        bands = draw(st.permutations(range(3)))
        return [3 * band + i for band in bands for i in draw(st.permutations(range(3)))]

    digits = [0, *draw(st.permutations(range(1, 10)))]
    return draw(st.booleans()), line_order(), line_order(), np.array(digits, dtype=np.uint8)


def transform(cells: bytes | np.ndarray, symmetry) -> np.ndarray:
    """Apply a symmetry from ``symmetries`` to 81 cells."""
    flip, rows, cols, digits = symmetry
    grid = np.frombuffer(bytes(cells), dtype=np.uint8).reshape(9, 9)
    grid = grid.T if flip else grid
    return digits[grid[rows][:, cols]].ravel()


NINE = [Shape(3, 3)]


@settings(max_examples=80)
@given(puzzle=puzzles(shapes=NINE), symmetry=symmetries(), other=symmetries())
def test_the_form_is_the_same_for_every_symmetry_and_relabelling(puzzle, symmetry, other):
    forms = canonical_many(np.stack([np.frombuffer(puzzle.cells, dtype=np.uint8), transform(puzzle.cells, symmetry),
                                     transform(transform(puzzle.cells, symmetry), other)]), threads=1)
    assert forms[0].tolist() == forms[1].tolist() == forms[2].tolist()


@settings(max_examples=25)
@given(solution=solutions(shapes=NINE), symmetry=symmetries())
def test_full_grids_have_one_form_for_all_their_symmetries(solution, symmetry):
    cells = np.frombuffer(solution.cells, dtype=np.uint8)
    forms = canonical_many(np.stack([cells, transform(cells, symmetry)]), threads=1)
    assert forms[0].tolist() == forms[1].tolist()
    assert forms[0][:9].tolist() == list(range(1, 10))  # a full first row can always read 1 to 9


@settings(max_examples=60)
@given(puzzle=puzzles(shapes=NINE))
def test_the_form_is_idempotent(puzzle):
    form = canonical(puzzle)
    assert canonical(form) == form


@settings(max_examples=60)
@given(puzzle=puzzles(shapes=NINE))
def test_the_form_keeps_what_symmetries_keep(puzzle):
    form = np.frombuffer(canonical(puzzle).cells, dtype=np.uint8).reshape(9, 9)
    cells = np.frombuffer(puzzle.cells, dtype=np.uint8).reshape(9, 9)

    def invariants(grid):
        digit_counts = sorted(np.bincount(grid[grid > 0], minlength=10)[1:].tolist())
        line_counts = sorted(np.count_nonzero(grid, axis=0).tolist() + np.count_nonzero(grid, axis=1).tolist())
        return np.count_nonzero(grid), digit_counts, line_counts

    assert invariants(form) == invariants(cells)
    assert Grid.from_array(form).is_valid() == puzzle.is_valid()


def test_the_form_of_a_puzzle_is_a_puzzle_with_as_many_solutions():
    for line in [*sample_lines("17clue_sample.txt")[:3], *sample_lines("multisolution_sample.txt")[:3]]:
        form = canonical(line)
        assert form.givens == Grid.parse(line).givens
        assert count_solutions(form, limit=50) == count_solutions(line, limit=50)


def test_royle_puzzles_get_their_published_canonical_forms():
    for puzzle, published in PUBLISHED.items():
        assert canonical(puzzle).to_line() == published
        assert canonical(published).to_line() == published


def test_puzzles_that_are_not_equivalent_get_different_forms():
    lines = sample_lines("17clue_sample.txt")  # distinct classes by construction of Royle's list
    forms = canonical_many(lines, threads=2)
    assert len({form.tobytes() for form in forms}) == len(lines)
    # lines 1 and 2 differ by two givens only; one given more or less also changes the class
    assert canonical(lines[0]) != canonical(lines[1])
    assert canonical(DEMO) != canonical("." + DEMO[1:])


def test_many_agrees_with_one_at_a_time_on_any_number_of_threads():
    lines = sample_lines("top1465_sample.txt") + sample_lines("hardest_sample.txt") + [DEMO_SOLUTION, "." * 81]
    one = canonical_many(lines, threads=1)
    assert one.tolist() == canonical_many(lines, threads=2).tolist()
    assert [Grid(row.tobytes(), Shape(3, 3)) for row in one] == [canonical(line) for line in lines]


def test_rows_that_overflow_the_kernel_get_the_exhaustive_form():
    # 5 in every cell of the three diagonal boxes: every one of thousands of orders ties, row after row
    fives = np.array([[5 if row // 3 == col // 3 else 0 for row in range(9) for col in range(9)]], np.uint8)
    assert minlex_batch(fives, threads=1)[1][0] == minlex.OVERFLOW
    form = canonical_many(fives, threads=1)[0]
    assert form.tolist() == canonical_exhaustive(fives[0]).tolist()
    assert "".join(map(str, form[:9])) == "000000111"


def test_inputs_are_arrays_grids_or_lines():
    grid = Grid.parse(DEMO)
    expected = canonical(grid)
    as_ints = np.frombuffer(grid.cells, dtype=np.uint8).astype(np.int64)[None]
    for batch in ([grid], [DEMO], as_ints, as_ints.tolist()):
        assert canonical_many(batch, threads=1)[0].tobytes() == expected.cells
    assert canonical_many([], threads=1).shape == (0, 81)
    assert canonical(DEMO) == expected and canonical(DEMO).shape == Shape(3, 3)


def test_other_shapes_are_refused_with_a_sentence():
    with pytest.raises(ShapeError, match="9x9"):
        canonical("1..4" "...." "...." "4..1")
    with pytest.raises(ShapeError, match="9x9"):
        canonical_many(["1..4" "...." "...." "4..1"])
    with pytest.raises(ShapeError, match="9x9"):
        canonical_many(np.zeros((2, 16), dtype=np.uint8))
    with pytest.raises(ShapeError, match="9x9"):
        minlex_batch(np.zeros((2, 16), dtype=np.uint8))


def test_values_outside_0_to_9_name_the_row_and_cell():
    batch = np.zeros((3, 81), dtype=np.int64)
    batch[2, 13] = 10
    with pytest.raises(ValueError, match=r"row 2, cell r2c5: 10 is not a digit"):
        canonical_many(batch)
    batch[2, 13] = -1
    with pytest.raises(ValueError, match="r2c5"):
        canonical_many(batch.astype(np.int8))
    with pytest.raises(ValueError, match="r1c1"):
        canonical_exhaustive([11] + [0] * 80)


# -- the command ------------------------------------------------------------------------------------------

runner = CliRunner()
app = typer.Typer(cls=_ErrorsToExitCodes)
app.command()(canon)
app.command(name="noop")(lambda: None)


def test_canon_prints_one_form_a_line_in_input_order(tmp_path):
    lines = [*sample_lines("17clue_sample.txt")[:5], DEMO]
    path = tmp_path / "puzzles.txt"
    path.write_text("# a comment\n" + "\n".join(lines) + "\n")
    result = runner.invoke(app, ["canon", str(path), "--threads", "2"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [canonical(line).to_line() for line in lines]


def test_canon_without_an_argument_shows_the_demo():
    result = runner.invoke(app, ["canon"])
    assert result.exit_code == 0
    assert result.stdout == canonical(DEMO).to_line() + "\n"


def test_canon_of_stdin_and_of_one_puzzle():
    symmetric = "".join(transform(Grid.parse(DEMO).cells, (True, [2, 1, 0, 3, 4, 5, 8, 6, 7],
                                                          list(range(9)), np.arange(10, dtype=np.uint8))).astype(str))
    result = runner.invoke(app, ["canon", "-"], input=f"{DEMO}\n{symmetric}\n")
    assert result.exit_code == 0
    first, second = result.stdout.splitlines()
    assert first == second == runner.invoke(app, ["canon", DEMO]).stdout.strip()


def test_canon_stops_at_a_bad_line_unless_lenient(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{DEMO}\n{'x' * 81}\n1..4........4..1\n{DEMO}\n")
    strict = runner.invoke(app, ["canon", str(path)])
    assert strict.exit_code == ExitCode.BAD_INPUT
    assert strict.stdout.splitlines() == [canonical(DEMO).to_line()]
    assert "p.txt:2" in strict.stderr and "--lenient" in strict.stderr
    lenient = runner.invoke(app, ["canon", str(path), "--lenient"])
    assert lenient.exit_code == ExitCode.BAD_INPUT
    assert lenient.stdout.splitlines() == [canonical(DEMO).to_line(), "error", "error", canonical(DEMO).to_line()]
    assert "skipped" in lenient.stderr and "9x9" in lenient.stderr


def test_canon_refuses_a_grid_of_another_size():
    result = runner.invoke(app, ["canon", "1..4" "...." "...." "4..1"])
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "canonical forms are for 9x9 grids, not 4x4" in result.stderr
