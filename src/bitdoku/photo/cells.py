"""From the grid's corners to N x N cell boxes: warp the grid square, then find its lines.

A plain N x N split of the warped square is off wherever the corners are a few pixels out or the paper curves,
and a cell cut across its line holds a stroke that looks like a 1. So each of the N + 1 lines of each direction
is looked for near where a split puts it, separately in each band of the grid (a third of a 9x9 grid, a half of
a 6x6, a quarter of a 16x16: a curved page bends a line, but little over a band's length), and each cell is cut
between the lines found around it. The warp keeps a margin of half a cell around the grid, so that an outer line
the corners missed can still be found. Every size is warped at the same CELL pixels a cell, so the digits the
classifier sees are of one size whatever the grid.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from bitdoku.photo._cv import cv2
from bitdoku.photo.locate import Corners

#: Pixels per cell in the warped grid: a digit is then about 20 px tall, as in the classifier's training.
CELL = 32
#: The margin kept around the grid in the warped image.
MARGIN = CELL // 2
SIDE = 9 * CELL + 2 * MARGIN  # of a 9x9 grid; ``side(n)`` in general
#: How far from the split position a line is looked for, as a share of a cell.
SEARCH = 0.3
#: A line is taken as found when this share of its band's pixels is ink.
LINE_INK = 0.3

Lines = npt.NDArray[np.float64]  # shape (bands, n + 1): for each band of the grid, the line positions across it


def side(n: int = 9) -> int:
    """The side of the warped image of an n x n grid, margins included."""
    return n * CELL + 2 * MARGIN


def band(n: int) -> int:
    """The cells in one band of lines looked for together: the largest divisor of n up to its square root,
    rounded up (3 for 6 and 9, 4 for 16)."""
    return max(d for d in range(1, math.isqrt(n - 1) + 2) if n % d == 0)


def _square(corners: Corners, n: int) -> npt.NDArray[np.float64]:
    """The perspective transform that takes the corners to the warped grid's."""
    low, high = MARGIN, MARGIN + n * CELL
    target = np.array([[low, low], [high, low], [high, high], [low, high]], np.float32)
    matrix: npt.NDArray[np.float64] = cv2().getPerspectiveTransform(corners.astype(np.float32), target)
    return matrix


def warp(gray: npt.NDArray[np.uint8], corners: Corners, n: int = 9) -> npt.NDArray[np.uint8]:
    """The n x n grid seen square on, ``side(n)`` pixels across, its corners MARGIN pixels in from the image's."""
    matrix = _square(corners, n)
    size = side(n)
    warped: npt.NDArray[np.uint8] = cv2().warpPerspective(gray, matrix, (size, size), flags=cv2().INTER_LINEAR,
                                                          borderMode=cv2().BORDER_REPLICATE)
    return warped


def ink(warped: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Dark strokes as 1 on 0, against the local mean (a neighbourhood of about a cell): shadows drop out."""
    mask: npt.NDArray[np.uint8] = cv2().adaptiveThreshold(
        warped, 1, cv2().ADAPTIVE_THRESH_MEAN_C, cv2().THRESH_BINARY_INV, CELL | 1, 8)
    return mask


def find_lines(mask: npt.NDArray[np.uint8], axis: int, n: int = 9) -> Lines:
    """The positions of the n + 1 lines across ``axis`` (0: vertical lines, their x; 1: horizontal lines, their
    y), for each band of the grid along the lines."""
    window = round(SEARCH * CELL)
    cells = band(n)
    found = np.zeros((n // cells, n + 1))
    oriented = _straight_runs(mask if axis == 0 else mask.T)
    for part in range(n // cells):
        strip = oriented[MARGIN + part * cells * CELL:MARGIN + (part + 1) * cells * CELL, :]
        profile = np.convolve(strip.mean(axis=0), np.ones(3) / 3, mode="same")
        for k in range(n + 1):
            expected = MARGIN + k * CELL
            low, high = max(0, expected - window), min(len(profile), expected + window + 1)
            peak = low + int(np.argmax(profile[low:high]))
            found[part, k] = peak if profile[peak] > LINE_INK else expected
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
        for k in range(1, len(row) - 1):
            midway = (row[k - 1] + row[k + 1]) / 2
            if abs((row[k + 1] - row[k - 1]) / 2 - CELL) < CELL * 0.25 and abs(row[k] - midway) > CELL * 0.2:
                row[k] = midway
    return fixed


def cell_boxes(warped: npt.NDArray[np.uint8], mask: npt.NDArray[np.uint8] | None = None, n: int = 9
               ) -> npt.NDArray[np.int32]:
    """For each of the n * n cells (row-major), its box in the warped grid as (x0, y0, x1, y1), between the lines
    found around it (in the band of the grid it lies in)."""
    mask = ink(warped) if mask is None else mask
    xs, ys = find_lines(mask, 0, n), find_lines(mask, 1, n)
    cells = band(n)
    boxes = np.zeros((n * n, 4), np.int32)
    for row in range(n):
        for col in range(n):
            x_lines, y_lines = xs[row // cells], ys[col // cells]
            boxes[row * n + col] = (x_lines[col], y_lines[row], x_lines[col + 1], y_lines[row + 1])
    return boxes
