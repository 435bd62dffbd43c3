import json
from importlib import resources

import numpy as np

from bitdoku.photo import cells, classify, digits

from .render import FONTS, draw_grid


def test_the_model_is_small_and_carries_its_attribution():
    model = resources.files("bitdoku.photo").joinpath(classify.MODEL)
    assert len(model.read_bytes()) <= 2_000_000
    metadata = classify.load().metadata
    assert "Wicht" in str(metadata["attribution"]) and "CC-BY-4.0" in str(metadata["attribution"])
    assert not set(metadata["training"]) & set(metadata["validation"])
    json.dumps(metadata)


def test_each_rendered_digit_is_recognised():
    grid = np.arange(81).reshape(9, 9) % 9 + 1
    for font in FONTS:
        c = cells.CELL
        warped = cells.warp(draw_grid(grid, cell=c, font=font),
                            np.array([[c, c], [10 * c, c], [10 * c, 10 * c], [c, 10 * c]], np.float32))
        mask = cells.ink(warped)
        images = np.stack([digits.glyph(warped, mask, box).image for box in cells.cell_boxes(warped, mask)])
        assert (classify.load().probabilities(images).argmax(axis=1) == grid.ravel()).all()


def test_probabilities_are_rows_that_sum_to_one():
    p = classify.load().probabilities(np.random.default_rng(0).random((5, digits.SIZE, digits.SIZE), np.float32))
    assert p.shape == (5, 10) and np.allclose(p.sum(axis=1), 1)
