import numpy as np

from bitdoku.photo import cells

from .render import draw_grid


def square_on(cell: int = cells.CELL) -> np.ndarray:
    """An empty grid drawn square on, with its corners where the warp puts them."""
    page = draw_grid(np.zeros((9, 9), np.int64), cell=cell)
    corners = np.array([[cell, cell], [10 * cell, cell], [10 * cell, 10 * cell], [cell, 10 * cell]], np.float32)
    return cells.warp(page, corners)


def test_lines_are_found_where_they_are_drawn():
    xs = cells.find_lines(cells.ink(square_on()), 0)
    expected = cells.MARGIN + cells.CELL * np.arange(10)
    assert np.abs(xs - expected).max() <= 2


def test_lines_are_found_when_the_corners_are_off_by_a_few_pixels():
    page = draw_grid(np.zeros((9, 9), np.int64), cell=cells.CELL)
    c = cells.CELL
    off = np.array([[c + 5, c + 4], [10 * c + 5, c + 4], [10 * c + 5, 10 * c + 4], [c + 5, 10 * c + 4]], np.float32)
    xs = cells.find_lines(cells.ink(cells.warp(page, off)), 0)
    assert np.abs(xs - (cells.MARGIN - 5 + c * np.arange(10))).max() <= 2


def test_there_are_81_boxes_each_about_a_cell():
    boxes = cells.cell_boxes(square_on())
    sizes = boxes[:, 2:] - boxes[:, :2]
    assert boxes.shape == (81, 4) and np.abs(sizes - cells.CELL).max() <= 3
