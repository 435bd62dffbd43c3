import numpy as np

from bitdoku.photo.decode import decode
from bitdoku.photo.locate import find_grid, order_corners

from .conftest import DATA, outline_of
from .render import draw_grid, photograph, puzzle


def largest_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The farthest corner from its true place, as a share of the grid's side."""
    return float(np.linalg.norm(found - truth, axis=1).max() / np.linalg.norm(truth[0] - truth[1]))


def test_the_grid_of_a_photo_is_found_near_its_true_outline(photo):
    decoded = decode(DATA / photo)
    corners = find_grid(decoded.gray)
    assert corners is not None
    assert largest_error(corners * decoded.scale, outline_of(photo)) < 0.05  # the outlines' own error is ~1 %


def test_the_grid_of_a_slanted_render_is_found():
    rng = np.random.default_rng(5)
    image, truth = photograph(draw_grid(puzzle(rng)), rng, skew=0.1)
    corners = find_grid(decode(image).gray)
    assert corners is not None and largest_error(corners, truth) < 0.02


def test_a_blank_page_has_no_grid():
    assert find_grid(np.full((480, 640), 200, np.uint8)) is None


def test_corners_are_put_top_left_first_then_clockwise():
    shuffled = np.array([[10, 90], [90, 10], [10, 10], [90, 90]], np.float32)
    assert order_corners(shuffled).tolist() == [[10, 10], [90, 10], [90, 90], [10, 90]]
