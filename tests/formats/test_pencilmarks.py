import pytest
from hypothesis import given
from hypothesis import strategies as st

from bitdoku import Shape
from bitdoku.errors import ParseError, ShapeError
from bitdoku.formats.pencilmarks import (
    format_candidate_picture,
    format_pencilmarks,
    looks_like_pencilmarks,
    parse_candidate_picture,
    parse_pencilmarks,
)

SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(3, 3), Shape(3, 4), Shape(4, 4), Shape(5, 5)]


@st.composite
def marks(draw, shapes=SHAPES):
    shape = draw(st.sampled_from(shapes))
    full = (1 << shape.n) - 1
    return shape, draw(st.lists(st.integers(0, full), min_size=shape.n_cells, max_size=shape.n_cells))


@given(marks())
def test_line_format_round_trips_exactly(case):
    shape, masks = case
    text = format_pencilmarks(masks, shape)
    assert len(text) == shape.n**3
    assert parse_pencilmarks(text, shape) == (masks, shape)
    assert format_pencilmarks(parse_pencilmarks(text, shape)[0], shape) == text


@given(marks())
def test_candidate_picture_round_trips_exactly(case):
    shape, masks = case
    picture = format_candidate_picture(masks, shape)
    assert parse_candidate_picture(picture, shape) == (masks, shape)
    assert format_candidate_picture(parse_candidate_picture(picture, shape)[0], shape) == picture


def test_shape_is_inferred_from_the_length_for_conventional_shapes():
    assert parse_pencilmarks("." * 729)[1] == Shape(3, 3)
    assert parse_pencilmarks("." * 216)[1] == Shape(2, 3)
    assert parse_candidate_picture(format_candidate_picture([0] * 81, Shape(3, 3)))[1] == Shape(3, 3)
    assert looks_like_pencilmarks("1234" * 16) and not looks_like_pencilmarks("." * 81)


def test_a_cell_is_n_characters_with_each_digit_in_its_slot():
    masks, _ = parse_pencilmarks("1..4" + "." * 60)
    assert masks[0] == 0b1001 and masks[1:] == [0] * 15


def test_a_digit_out_of_its_slot_names_the_column_and_the_cell():
    with pytest.raises(ParseError) as info:
        parse_pencilmarks("12341234" + ".3.." + "." * 52)
    assert (info.value.column, info.value.cell) == (10, "r1c3")
    assert "position 2 of a cell holds the digit '2'" in str(info.value)


def test_a_stray_character_is_reported():
    with pytest.raises(ParseError, match="unexpected character 'x'") as info:
        parse_pencilmarks("." * 100 + "x" + "." * 628)
    assert (info.value.column, info.value.cell) == (101, "r2c3")


def test_a_wrong_length_says_what_would_fit():
    with pytest.raises(ShapeError, match="730 pencil-mark characters"):
        parse_pencilmarks("." * 730)
    with pytest.raises(ShapeError, match="expected 729"):
        parse_pencilmarks("." * 64, Shape(3, 3))


def test_the_picture_of_a_9x9_draws_each_cell_as_3_by_3():
    picture = format_candidate_picture([0b111111111] + [1] * 80, Shape(3, 3))
    lines = picture.splitlines()
    assert lines[0].startswith("123 1.. 1.. | 1..")
    assert lines[1].startswith("456 ... ... | ...")
    assert lines[2].startswith("789 ... ... | ...")
    assert set(lines[11]) <= set("-+ ") and "-+-" in lines[11]


def test_a_bad_picture_character_names_line_column_and_cell():
    picture = format_candidate_picture([0] * 16, Shape(2, 2)).replace("..", "x.", 1)
    with pytest.raises(ParseError) as info:
        parse_candidate_picture(picture)
    assert (info.value.line, info.value.column, info.value.cell) == (1, 1, "r1c1")


def test_grids_above_35_digits_have_no_pencil_mark_format():
    with pytest.raises(ShapeError, match="stops at 35 digits"):
        format_pencilmarks([0] * 36 * 36, Shape(6, 6))
