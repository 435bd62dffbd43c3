import dataclasses

import cv2
import numpy as np
import pytest

from bitdoku.errors import OutputError
from bitdoku.grid import Grid
from bitdoku.photo import read
from bitdoku.photo.debug import CORRECTED, DIGIT, DOUBTFUL, QUADRILATERAL, draw, save

from .conftest import DATA

PHOTO = DATA / "image1.jpg"


@pytest.fixture(scope="module")
def reading():
    return read(PHOTO)


def count(drawing: np.ndarray, colour: tuple[int, int, int]) -> int:
    """The pixels of exactly ``colour`` (the photo itself is gray, so only the marks have it)."""
    return int(np.all(drawing == colour, axis=2).sum())


def test_the_drawing_is_the_photo_s_size_in_colour(reading):
    drawing = draw(PHOTO, reading)
    assert drawing.shape == (480, 640, 3) and drawing.dtype == np.uint8
    assert count(drawing, QUADRILATERAL) > 1000 and count(drawing, DIGIT) > 100


def test_the_quadrilateral_runs_through_the_corners(reading):
    drawing = draw(PHOTO, reading)
    for x, y in reading.corners:
        patch = drawing[round(y) - 3: round(y) + 4, round(x) - 3: round(x) + 4]
        assert count(patch, QUADRILATERAL) > 0


def test_only_doubtful_and_corrected_cells_are_outlined(reading):
    assert count(draw(PHOTO, reading), DOUBTFUL) == count(draw(PHOTO, reading), CORRECTED) == 0
    unsure = dataclasses.replace(reading, confidence=(0.3, *reading.confidence[1:]), corrected=(80,))
    drawing = draw(PHOTO, unsure)
    (x0, y0), _, (x2, y2), _ = reading.corners
    assert count(drawing[: int(y0 + (y2 - y0) / 9), : int(x0 + (x2 - x0) / 9)], DOUBTFUL) > 50  # r1c1
    assert count(drawing[int(y2 - (y2 - y0) / 9):, int(x2 - (x2 - x0) / 9):], CORRECTED) > 50  # r9c9
    assert count(draw(PHOTO, unsure, threshold=0.2), DOUBTFUL) == 0


def test_a_large_photo_is_drawn_at_its_own_size():
    large = cv2.resize(cv2.imread(str(PHOTO)), (2400, 1800))
    assert draw(large, read(large)).shape == (1800, 2400, 3)


def test_any_size_of_grid_is_drawn(reading):
    six = Grid.parse("1.....2....." * 3, "2x3")
    drawing = draw(PHOTO, dataclasses.replace(reading, grid=six, confidence=(0.99,) * 36, corrected=()))
    assert drawing.shape == (480, 640, 3) and count(drawing, DIGIT) > 0


def test_save_writes_the_format_of_the_suffix(tmp_path, reading):
    drawing = draw(PHOTO, reading)
    save(drawing, tmp_path / "found.png")
    assert np.array_equal(cv2.imread(str(tmp_path / "found.png")), drawing)  # PNG is lossless
    with pytest.raises(ValueError, match=r"found\.txt"):
        save(drawing, tmp_path / "found.txt")
    with pytest.raises(OutputError, match="cannot write"):
        save(drawing, tmp_path / "missing" / "found.png")
