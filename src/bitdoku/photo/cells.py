"""From the grid's corners to 81 cell boxes: warp the grid square, then find its lines.

A plain 9 x 9 split of the warped square is off wherever the corners are a few pixels out or the paper curves,
and a cell cut across its line holds a stroke that looks like a 1. So each of the 10 lines of each direction is
looked for near where a split puts it, separately in each third of the grid (a curved page bends a line, but
little over a third of its length), and each cell is cut between the lines found around it. The warp keeps a
margin of half a cell around the grid, so that an outer line the corners missed can still be found.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from bitdoku.photo._cv import cv2
from bitdoku.photo.locate import Corners

#: Pixels per cell in the warped grid: a digit is then about 20 px tall, as in the classifier's training.
CELL = 32
#: The margin kept around the grid in the warped image.
MARGIN = CELL // 2
SIDE = 9 * CELL + 2 * MARGIN
#: How far from the split position a line is looked for, as a share of a cell.
SEARCH = 0.3
#: A line is taken as found when this share of its band's pixels is ink.
LINE_INK = 0.3

Lines = npt.NDArray[np.float64]  # shape (3, 10): for each third of the grid, the 10 line positions across it


def _square(corners: Corners) -> npt.NDArray[np.float64]:
    """The perspective transform that takes the corners to the warped grid's."""
    low, high = MARGIN, MARGIN + 9 * CELL
    target = np.array([[low, low], [high, low], [high, high], [low, high]], np.float32)
    matrix: npt.NDArray[np.float64] = cv2().getPerspectiveTransform(corners.astype(np.float32), target)
    return matrix


def warp(gray: npt.NDArray[np.uint8], corners: Corners) -> npt.NDArray[np.uint8]:
    """The grid seen square on, SIDE x SIDE pixels, its corners MARGIN pixels in from the image's."""
    matrix = _square(corners)
    warped: npt.NDArray[np.uint8] = cv2().warpPerspective(gray, matrix, (SIDE, SIDE), flags=cv2().INTER_LINEAR,
                                                          borderMode=cv2().BORDER_REPLICATE)
    return warped


def ink(warped: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Dark strokes as 1 on 0, against the local mean (a neighbourhood of about a cell): shadows drop out."""
    mask: npt.NDArray[np.uint8] = cv2().adaptiveThreshold(
        warped, 1, cv2().ADAPTIVE_THRESH_MEAN_C, cv2().THRESH_BINARY_INV, CELL | 1, 8)
    return mask


def find_lines(mask: npt.NDArray[np.uint8], axis: int) -> Lines:
    """The positions of the 10 lines across ``axis`` (0: vertical lines, their x; 1: horizontal lines, their y),
    for each third of the grid along the lines."""
    window = round(SEARCH * CELL)
    found = np.zeros((3, 10))
    oriented = _straight_runs(mask if axis == 0 else mask.T)
    for third in range(3):
        band = oriented[MARGIN + third * 3 * CELL:MARGIN + (third + 1) * 3 * CELL, :]
        profile = np.convolve(band.mean(axis=0), np.ones(3) / 3, mode="same")
        for k in range(10):
            expected = MARGIN + k * CELL
            low, high = max(0, expected - window), min(SIDE, expected + window + 1)
            peak = low + int(np.argmax(profile[low:high]))
            found[third, k] = peak if profile[peak] > LINE_INK else expected
    return _regular(found)


def _straight_runs(mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Only the vertical runs of ink a cell long (widened by a pixel each side first, so that a thin line that
    slants a little is not cut into pieces): a row of digits' tops or a column of 1s is not a line."""
    wide = cv2().dilate(mask, np.ones((1, 3), np.uint8))
    runs: npt.NDArray[np.uint8] = cv2().morphologyEx(wide, cv2().MORPH_OPEN, np.ones((CELL, 1), np.uint8))
    return runs


def _regular(found: Lines) -> Lines:
    """A line whose place is far from midway between two well-spaced neighbours was misfound (on a digit's
    stroke, or where a line is missing): it goes back to midway."""
    fixed: Lines = found.copy()
    for row in fixed:
        for k in range(1, 9):
            midway = (row[k - 1] + row[k + 1]) / 2
            if abs((row[k + 1] - row[k - 1]) / 2 - CELL) < CELL * 0.25 and abs(row[k] - midway) > CELL * 0.2:
                row[k] = midway
    return fixed


def cell_boxes(warped: npt.NDArray[np.uint8], mask: npt.NDArray[np.uint8] | None = None) -> npt.NDArray[np.int32]:
    """For each of the 81 cells (row-major), its box in the warped grid as (x0, y0, x1, y1), between the lines
    found around it (in the third of the grid it lies in)."""
    mask = ink(warped) if mask is None else mask
    xs, ys = find_lines(mask, 0), find_lines(mask, 1)
    boxes = np.zeros((81, 4), np.int32)
    for row in range(9):
        for col in range(9):
            x_lines, y_lines = xs[row // 3], ys[col // 3]
            boxes[row * 9 + col] = (x_lines[col], y_lines[row], x_lines[col + 1], y_lines[row + 1])
    return boxes
