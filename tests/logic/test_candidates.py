import pytest
from hypothesis import given

from bitdoku import Grid, Shape
from bitdoku.data import DEMO, sample_lines
from bitdoku.errors import InvalidGridError, PuzzleTypeError
from bitdoku.logic.candidates import CandidateGrid, as_candidates, digits_of, layout_of
from tests.strategies import puzzles


def test_candidates_match_the_grid_for_every_cell():
    grid = Grid.parse(DEMO)
    state = CandidateGrid.from_grid(grid)
    for cell in range(81):
        assert state.candidates_mask(cell) == grid.candidates_mask(cell)
        assert state.value(cell) == grid[cell]


@given(puzzles(corrupt=False))
def test_from_grid_agrees_with_grid_candidates_on_small_shapes(grid):
    state = CandidateGrid.from_grid(grid)
    assert [state.candidates_mask(c) for c in range(len(grid))] == [grid.candidates_mask(c) for c in range(len(grid))]
    assert state.to_grid() == grid


@given(puzzles(corrupt=False))
def test_pencil_marks_round_trip(grid):
    state = CandidateGrid.from_grid(grid)
    marks = state.to_pencilmarks()
    assert CandidateGrid.parse(marks, shape=grid.shape).to_pencilmarks() == marks  # open singles read as filled
    again = CandidateGrid.parse(state.to_picture(), shape=grid.shape)
    assert again.to_pencilmarks() == state.to_pencilmarks()


def test_place_removes_the_digit_from_the_peers_and_keeps_the_original():
    state = CandidateGrid.from_grid(Grid.empty("2x2"))
    after = state.place(0, 3)
    assert after.value(0) == 3 and after.candidates_mask(0) == 0
    assert all(not after.has(p, 3) for p in layout_of(state.shape).peers[0])
    assert state.value(0) == 0 and state.has(1, 3)
    assert after.eliminate([(15, 1)]).candidates(15) == [2, 3, 4]


def test_cells_with_lists_the_places_of_a_digit_in_a_unit():
    state = CandidateGrid.from_grid(Grid.parse("1..." "...." "...." "...."))
    assert state.cells_with(0, 1) == ()
    assert state.cells_with(4 + 1, 1) == (9, 13)  # column 2: r1c2 and r2c2 see the 1 in r1c1


def test_problem_finds_a_cell_without_candidates_and_a_digit_without_a_place():
    state = CandidateGrid.from_grid(Grid.empty("2x2"))
    assert state.problem() is None
    assert state.eliminate([(0, d) for d in range(1, 5)]).problem() == "r1c1 has no candidate left"
    assert "digit 1 has no place left in row 1" in state.eliminate([(c, 1) for c in range(4)]).problem()


def test_parse_reads_lines_pictures_and_grids():
    line = sample_lines("famous.txt")[0]
    state = CandidateGrid.parse(line)
    assert CandidateGrid.parse(state.to_pencilmarks()) == state
    assert CandidateGrid.parse(str(state)) == state
    assert eval(repr(state)) == state
    assert CandidateGrid.parse(str(Grid.parse(line))) == state


def test_cleaned_drops_digits_that_a_peer_holds():
    marks = "1..." + "1234" * 15
    state = CandidateGrid.parse(marks)
    assert state.has(1, 1) and not state.cleaned().has(1, 1)


def test_as_candidates_rejects_clashing_givens_and_other_types():
    with pytest.raises(InvalidGridError):
        as_candidates(Grid.parse("11.." + "." * 12))
    with pytest.raises(PuzzleTypeError, match="not an int"):
        as_candidates(42)  # type: ignore[arg-type]


def test_layout_has_segments_for_every_shape():
    for shape in (Shape(2, 3), Shape(3, 3), Shape(4, 4), Shape(5, 5)):
        layout = layout_of(shape)
        n = shape.n
        assert all(len(layout.segments[box]) == shape.box_rows + shape.box_cols for box in range(2 * n, 3 * n))
        assert len(layout.segments[0]) == n // shape.box_cols
        assert digits_of(0b1011) == [1, 2, 4]


def test_digit_cells_and_the_layout_bitsets_match_the_plain_tables():
    """The digit bitsets (packed by NumPy) hold exactly the cells a loop over the masks finds, up to the 64th
    digit; the layout's unit and peer bitsets and sorted peers are its unit and peer tables."""
    import random

    rng = random.Random(5)
    for shape in (Shape(2, 2), Shape(3, 3), Shape(4, 4), Shape(8, 8)):
        n = shape.n
        masks = tuple(rng.getrandbits(n) if rng.random() < 0.8 else 0 for _ in range(n * n))
        masks = (*masks[:-1], 1 << (n - 1) | 1)  # the highest digit appears
        values = bytes(0 if m else 1 for m in masks)
        state = CandidateGrid(values, masks, shape)
        expected = [sum(1 << c for c, m in enumerate(masks) if m >> d & 1) for d in range(n)]
        assert list(state.digit_cells()) == expected
        layout = state.layout
        assert layout.unit_bits == tuple(sum(1 << c for c in unit) for unit in layout.units)
        assert layout.peer_bits == tuple(sum(1 << p for p in peers) for peers in layout.peers)
        assert layout.sorted_peers == tuple(tuple(sorted(peers)) for peers in layout.peers)
        assert layout.units_sorted
