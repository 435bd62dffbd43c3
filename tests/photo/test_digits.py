import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from bitdoku.photo import cells, digits

from .render import draw_grid


def glyphs_of(grid: np.ndarray) -> list[digits.Glyph]:
    c = cells.CELL
    page = draw_grid(grid, cell=c)
    warped = cells.warp(page, np.array([[c, c], [10 * c, c], [10 * c, 10 * c], [c, 10 * c]], np.float32))
    mask = cells.ink(warped)
    return [digits.glyph(warped, mask, box) for box in cells.cell_boxes(warped, mask)]


def test_empty_cells_hold_no_glyph_and_digits_one_each():
    grid = np.zeros((9, 9), np.int64)
    grid[0, 0], grid[4, 4], grid[8, 2] = 7, 1, 8
    found = glyphs_of(grid)
    assert [i for i, g in enumerate(found) if g.image is not None] == [0, 40, 74]


def test_a_glyph_is_fitted_into_the_classifiers_box():
    grid = np.zeros((9, 9), np.int64)
    grid[2, 3] = 4
    image = glyphs_of(grid)[21].image
    assert image is not None and image.shape == (digits.SIZE, digits.SIZE)
    rows, _ = np.nonzero(image > 0.5)
    assert rows.max() - rows.min() + 1 >= digits.INNER - 3  # scaled up to its box's height
    assert image.max() <= 1 and image.min() >= 0


@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_the_paper_level_is_numpy_s_90th_percentile_exactly(height, width, seed):
    from bitdoku.photo.digits import percentile_90

    pixels = np.random.default_rng(seed).integers(0, 256, (height, width), dtype=np.uint8)
    assert percentile_90(pixels) == float(np.percentile(pixels, 90))
