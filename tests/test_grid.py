import numpy as np
import pytest
from hypothesis import given

from bitdoku import Grid, InvalidGridError, ParseError, Shape, ShapeError
from bitdoku.data import DEMO, DEMO_SOLUTION
from bitdoku.grid import Grid as GridClass
from tests.strategies import pattern_solution, puzzles, solutions

ALL_SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(2, 4), Shape(3, 4), Shape(4, 4),
              Shape(5, 5), Shape(6, 6), Shape(7, 7), Shape(8, 8)]


def random_puzzle(shape: Shape, seed: int = 1) -> Grid:
    rng = np.random.default_rng(seed)
    grid = pattern_solution(shape)
    grid[rng.random(grid.shape) < 0.5] = 0
    return Grid.from_array(grid, shape)


@pytest.mark.parametrize("shape", ALL_SHAPES, ids=str)
def test_every_format_round_trips_for_every_shape(shape):
    grid = random_puzzle(shape)
    for text in (grid.to_line(), grid.to_picture(), grid.to_rows(), grid.to_json(), str(grid)):
        assert Grid.parse(text, shape) == grid
    assert Grid.from_array(grid.to_array(), shape) == grid
    assert Grid.from_array(grid.to_array().tolist(), shape) == grid
    assert eval(repr(grid), {"Grid": GridClass}) == grid


@pytest.mark.parametrize("shape", [s for s in ALL_SHAPES if s != Shape(3, 2)], ids=str)
def test_formats_round_trip_without_naming_the_conventional_shape(shape):
    grid = random_puzzle(shape, seed=7)
    for text in (grid.to_line(), grid.to_picture(), grid.to_rows(), grid.to_json()):
        assert Grid.parse(text) == grid


@given(puzzles(corrupt=False))
def test_parse_of_str_and_repr_are_exact_inverses(grid):
    assert Grid.parse(str(grid), grid.shape) == grid
    assert eval(repr(grid), {"Grid": GridClass}) == grid
    assert Grid.parse(grid.to_line(), grid.shape).to_line() == grid.to_line()


def test_non_conventional_shape_is_kept_in_repr():
    grid = Grid.empty("3x2")
    assert repr(grid) == "Grid.parse('....................................', shape='3x2')"


@pytest.mark.parametrize("blank", list(".0-_*"))
def test_all_blank_characters_are_read(blank):
    assert Grid.parse(DEMO.replace(".", blank)) == Grid.parse(DEMO)


def test_sixteen_and_twenty_five_use_the_letter_alphabet():
    line16 = "123456789ABCDEFG" + "." * 240
    grid = Grid.parse(line16)
    assert grid.shape == Shape(4, 4) and grid[0, 15] == 16 and grid.to_line() == line16
    line25 = "P" + "." * 624
    assert Grid.parse(line25)[0] == 25


def test_integer_tokens_above_35():
    cells = [0] * (36 * 36)
    cells[5] = 36
    grid = Grid.from_array(cells)
    assert grid.shape == Shape(6, 6)
    assert grid.to_line().split()[5] == "36"
    assert Grid.parse(grid.to_line()) == grid


def test_seed_solver_integer_rows_are_read():
    rows = "\n".join(" ".join(str(int(ch)) if ch != "." else "0" for ch in DEMO[r * 9 : r * 9 + 9]) for r in range(9))
    assert rows.startswith("8 0 0 0 0 0 0 0 0\n0 0 3 6")
    assert Grid.parse(rows) == Grid.parse(DEMO)


def test_classic_block_picture_with_borders_is_read():
    picture = """
    +-------+-------+-------+
    | 8 . . | . . . | . . . |
    | . . 3 | 6 . . | . . . |
    | . 7 . | . 9 . | 2 . . |
    +-------+-------+-------+
    | . 5 . | . . 7 | . . . |
    | . . . | . 4 5 | 7 . . |
    | . . . | 1 . . | . 3 . |
    +-------+-------+-------+
    | . . 1 | . . . | . 6 8 |
    | . . 8 | 5 . . | . 1 . |
    | . 9 . | . . . | 4 . . |
    +-------+-------+-------+
    """
    assert Grid.parse(picture) == Grid.parse(DEMO)


def test_grid_model():
    grid = Grid.parse(DEMO)
    assert grid.n == 9 and len(grid) == 81 and grid.givens == 21
    assert grid[0, 0] == 8 and grid[1] == 0
    assert grid.candidates(1) == [1, 2, 4, 6]  # row 1 has 8; column 2 has 7, 5, 9; box 1 has 3
    assert grid.candidates_mask(1) == 0b101011
    assert grid.candidates(0) == [] and grid.candidates_mask(0) == 0
    assert grid.with_digit(1, 1)[0, 1] == 1 and grid[0, 1] == 0
    solution = Grid.parse(DEMO_SOLUTION)
    assert solution.is_solved() and solution.is_solution_of(grid) and not grid.is_solved()
    assert not solution.with_digit(0, 9).is_solution_of(grid)
    assert hash(Grid.parse(DEMO)) == hash(grid) and grid != solution


@given(solutions())
def test_generated_solutions_are_solved(grid):
    assert grid.is_solved()


# -- errors a person can act on ---------------------------------------------------------------------------


def test_wrong_cell_count_names_the_sizes_that_fit():
    with pytest.raises(ShapeError, match=r"found 80 cells, which fits no grid; nearest sizes: .*81 cells \(9x9\)"):
        Grid.parse(DEMO[:-1])


def test_wrong_cell_count_for_a_given_shape():
    with pytest.raises(ShapeError, match="expected 81 cells for a 9x9 grid, found 82"):
        Grid.parse(DEMO + ".", Shape(3, 3))


def test_unknown_character_gives_column_and_cell():
    bad = DEMO[:33] + "x" + DEMO[34:]
    with pytest.raises(ParseError) as info:
        Grid.parse(bad)
    error = info.value
    assert (error.column, error.cell) == (34, "r4c7")
    assert str(error) == "column 34 (r4c7): unexpected character 'x'; digits are 1-9, empty cells are '.' or '0'"


def test_unknown_character_in_a_block_gives_line_and_column():
    with pytest.raises(ParseError) as info:
        Grid.parse("1 . | 3 .\n3 . | . .\n----+----\n. ? | . .\n. 1 | . .")
    assert (info.value.line, info.value.column, info.value.cell) == (4, 3, "r3c2")


def test_digit_out_of_range():
    with pytest.raises(ParseError, match=r"digit 'A' \(10\) is out of range for a 9x9 grid; digits are 1-9"):
        Grid.parse("A" + DEMO[1:])
    with pytest.raises(ParseError, match=r"digit '5' \(5\) is out of range for a 4x4 grid"):
        Grid.parse("5" + "." * 15)
    with pytest.raises(ParseError, match="digit 37 is out of range for a 36x36 grid"):
        Grid.from_array([37] + [0] * 1295)
    with pytest.raises(ParseError, match=r"'Q' \(26\) is out of range for a 25x25 grid; digits are 1-9 and A-P"):
        Grid.parse("Q" + "." * 624)


def test_duplicate_digit_names_the_unit_and_both_cells():
    row = Grid.parse("5" + "." * 7 + "5" + "." * 72)
    with pytest.raises(InvalidGridError) as info:
        row.validate()
    assert str(info.value) == "invalid grid: digit 5 appears twice in row 1 (r1c1, r1c9)"
    assert info.value.cells == ("r1c1", "r1c9") and info.value.unit == "row 1"
    column = Grid.parse("7" + "." * 8 + "7" + "." * 71)
    assert str(column.conflicts()[0]) == "digit 7 appears twice in column 1 (r1c1, r2c1)"
    box = Grid.parse("." * 30 + "4" + "." * 9 + "4" + "." * 40)
    assert str(box.conflicts()[0]) == "digit 4 appears twice in box 5 (r4c4, r5c5)"
    assert not box.is_valid() and Grid.parse(DEMO).is_valid()


def test_empty_and_non_text_input():
    with pytest.raises(ParseError, match="empty puzzle"):
        Grid.parse("   \n  ")
    with pytest.raises(TypeError, match="from_array"):
        Grid.parse(b"....")  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="cells must be integers"):
        Grid.from_array([0.5] * 16)
    with pytest.raises(ShapeError, match="expected 4 rows of 4 cells"):
        Grid.from_array(np.zeros((2, 8), dtype=int))


def test_bad_json_is_reported():
    with pytest.raises(ParseError, match="not valid JSON"):
        Grid.parse("{nope")
    with pytest.raises(ParseError, match='"cells" list'):
        Grid.parse('{"shape": "3x3"}')


def test_binary_garbage_is_a_clean_error():
    with pytest.raises(ParseError, match="unexpected character"):
        Grid.parse("\x00\x01\x02" + "." * 78)
