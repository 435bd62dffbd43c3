"""The chance of each value in each cell: 0 (empty) or a value 1-N (digits 1-9, letters A-G), from the warped grid.

The classifier knows the values 1-16; a grid of N cells a side holds only 1-N, so the others are dropped
before the most likely value is taken (a 9x9 grid cannot hold an A, however much a 4 looks like one).

A photo may be sideways (phones store some that way and let the viewer turn them), so the grid is read in each
of its four turns, starting with upright, and the turn whose digits the classifier is surest of wins: digits on
their side or upside down look like nothing it was trained on (6 and 9 aside, which the other digits decide).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from bitdoku.photo import cells, classify, digits
from bitdoku.photo.locate import Corners

#: An upright reading this sure of its digits (mean top probability) is not checked against the other turns.
SURE = 0.97
#: The floor and ceiling of "a digit is there" for the solver's alternatives: nothing is certain.
LEAST, MOST = 0.01, 0.99

Probabilities = npt.NDArray[np.float64]  # shape (N*N, N+1): column 0 is "empty", column v is value v


def recognise(gray: npt.NDArray[np.uint8], corners: Corners, n: int = 9) -> tuple[Probabilities, Corners]:
    """The probabilities of the n x n grid at ``corners``, and the corners turned so that the first is the
    puzzle's top-left (as the digits stand)."""
    best: tuple[float, Probabilities, Corners] | None = None
    for turn in range(4):
        turned = np.roll(corners, turn, axis=0)
        probabilities = read_cells(cells.warp(gray, turned, n), n)
        score = _sureness(probabilities)
        if best is None or score > best[0]:
            best = (score, probabilities, turned)
        if turn == 0 and score >= SURE:
            break
    return best[1], best[2]  # type: ignore[index]


def read_cells(warped: npt.NDArray[np.uint8], n: int = 9) -> Probabilities:
    """The probabilities of the n * n cells of a warped (square, upright) grid."""
    mask = cells.ink(warped)
    glyphs = [digits.glyph(warped, mask, box) for box in cells.cell_boxes(warped, mask, n)]
    probabilities = np.zeros((n * n, n + 1))
    filled = [i for i, g in enumerate(glyphs) if g.image is not None]
    probabilities[:, 0] = 1 - LEAST
    probabilities[:, 1:] = LEAST / n
    if filled:
        images = np.stack([glyphs[i].image for i in filled])  # type: ignore[misc]
        probabilities[filled] = np.clip(classify.load().probabilities(images, n), LEAST / n, MOST)
        probabilities[filled] /= probabilities[filled].sum(axis=1, keepdims=True)
    return probabilities


def _sureness(probabilities: Probabilities) -> float:
    """The mean, over the cells that hold a digit, of the classifier's top probability."""
    filled = probabilities[:, 0] < 0.5
    if not filled.any():
        return 0.0
    digit = probabilities[filled, 1:]
    return float((digit.max(axis=1) / digit.sum(axis=1)).mean())
