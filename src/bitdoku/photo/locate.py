"""Find the Sudoku grid in a photo: the largest square-ish quadrilateral of dark lines.

An adaptive threshold (each pixel against the mean of its neighbourhood) keeps printed lines and digits and
drops shadows and uneven light; the contours of the dark shapes are candidates, largest first, when their convex
hull simplifies to a convex quadrilateral of plausible proportions (the hull, not the raw contour, so that text
touching one side does not break a corner). Each is warped square and scored on whether it has the 8 inner lines
of a grid: the largest with a good score wins, unless a smaller one scores clearly better (the page's frame
around a grid, or a neighbouring puzzle's block of text, is large but has no inner lines where a grid has them).

The same score tells the grid's size: a 6x6, 9x9 or 16x16 grid has its inner lines where that size puts them
and ink mid-cell (other lines) at the others' places, so the size whose score is highest is the grid's. A dark
theme's light lines on a dark page are found by looking at the negative image as well, when the image is dark.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bitdoku.photo._cv import cv2

#: The side that the search works at: contours of a 1000-px image hold no more than those of a 700-px one.
SEARCH_SIDE = 700
#: Opposite sides of a grid in perspective differ by at most this factor; its two diagonals too.
MAX_SIDE_RATIO = 1.8
#: Below this line score (see ``line_score``) a quadrilateral is not taken for a grid.
MIN_LINE_SCORE = 0.15
#: The corners' angles stay this close to a right angle (degrees): a phone held within ~40 degrees of square on.
MAX_SKEW = 35

Corners = npt.NDArray[np.float32]  # shape (4, 2): top-left, top-right, bottom-right, bottom-left, as (x, y)
#: An image darker than this on average (0-255) may be a dark theme: its negative is searched as well.
DARK = 128


@dataclass(frozen=True)
class Found:
    """A grid found in an image: its corners, its size (cells a side) and whether it is light on dark (then the
    reader reads the negative image)."""

    corners: Corners
    n: int
    inverted: bool


def find_grid(gray: npt.NDArray[np.uint8]) -> Corners | None:
    """The four corners of the 9x9 grid in ``gray``'s pixels (top-left clockwise), or None when none is found."""
    found = locate(gray, (9,))
    return None if found is None else found.corners


def locate(gray: npt.NDArray[np.uint8], sizes: Sequence[int] = (9,)) -> Found | None:
    """The grid in ``gray`` of one of ``sizes`` cells a side, as dark lines on light or, in a dark image, light
    on dark; None when none is found."""
    return locate_each(gray, sizes, (sizes,))[0]


def locate_each(gray: npt.NDArray[np.uint8], sizes: Sequence[int], choices: Sequence[Sequence[int]]
                ) -> list[Found | None]:
    """The grid ``locate`` finds for each choice of sizes (each a subset of ``sizes``), from one search: the
    image's quadrilaterals are found and scored once, at each of ``sizes``."""
    scale = max(gray.shape) / SEARCH_SIDE
    small = gray if scale <= 1 else cv2().resize(gray, (round(gray.shape[1] / scale), round(gray.shape[0] / scale)),
                                                 interpolation=cv2().INTER_AREA)
    scale = gray.shape[1] / small.shape[1]
    found: list[Found | None] = []
    sides = [_Scored(small, sizes, False)]
    if float(small.mean()) < DARK:
        sides.append(_Scored(255 - small, sizes, True))
    for choice in choices:
        best: tuple[Corners, float, int, bool] | None = None
        for side in sides:
            picked = side.best(choice)
            if picked is not None and (best is None or picked[1] > best[1]):
                best = picked
        found.append(None if best is None else Found((best[0] * scale).astype(np.float32), best[2], best[3]))
    return found


class _Scored:
    """The quadrilaterals of one image (or its negative), largest first, each with its line score at each size."""

    def __init__(self, small: npt.NDArray[np.uint8], sizes: Sequence[int], inverted: bool) -> None:
        self.ink, self.inverted = _ink(small), inverted
        quads = (_quadrilateral(contour) for contour in _contours_by_area(self.ink))
        self.quads = [(quad, {n: line_score(self.ink, quad, n) for n in sizes}) for quad in quads if quad is not None]

    def best(self, sizes: Sequence[int]) -> tuple[Corners, float, int, bool] | None:
        """The grid's corners, line score and size among ``sizes``: the largest quadrilateral with a good score,
        unless a smaller one scores clearly better."""
        best, best_score = None, MIN_LINE_SCORE
        for quad, scores in self.quads:
            score = max(scores[n] for n in sizes)
            if score > best_score * 1.25 or (best is None and score > best_score):  # larger ones come first
                best, best_score = quad, score
        if best is None:
            return None
        return best, best_score, size_of(self.ink, best, sizes) if len(sizes) > 1 else sizes[0], self.inverted


#: The side the size test warps the grid to, and the shortest straight run it takes for a piece of line.
SIZE_SIDE, SIZE_RUN = 384, 20


def size_of(ink: npt.NDArray[np.uint8], corners: Corners, sizes: Sequence[int]) -> int:
    """The size whose inner lines the grid has: the line score again, on the long straight runs of ink only
    (pencil marks and most strokes of digits are shorter than a cell), and with narrow windows, so that the
    lines of a 16x16 grid do not pass for a 9x9's."""
    target = np.array([[0, 0], [SIZE_SIDE, 0], [SIZE_SIDE, SIZE_SIDE], [0, SIZE_SIDE]], np.float32)
    warped = cv2().warpPerspective(ink, cv2().getPerspectiveTransform(corners, target), (SIZE_SIDE, SIZE_SIDE))
    down = cv2().morphologyEx(warped, cv2().MORPH_OPEN, np.ones((SIZE_RUN, 1), np.uint8)) / 255.0
    across = cv2().morphologyEx(warped, cv2().MORPH_OPEN, np.ones((1, SIZE_RUN), np.uint8)) / 255.0
    profiles = (down.mean(axis=0), across.mean(axis=1))
    scores = []
    for n in sizes:
        step, half = SIZE_SIDE / n, max(2, round(SIZE_SIDE * 0.012))
        score = []
        for profile in profiles:
            lines = [profile[round(k * step) - half:round(k * step) + half + 1].max() for k in range(1, n)]
            middles = [profile[round((k + 0.5) * step) - half:round((k + 0.5) * step) + half + 1].max()
                       for k in range(n)]
            score.append(float(np.median(lines) - np.median(middles)))
        scores.append((min(score), n))
    return max(scores)[1]


def line_score(ink: npt.NDArray[np.uint8], corners: Corners, n: int = 9) -> float:
    """How much the quadrilateral looks like n x n cells: the ink on the n - 1 inner lines of each direction,
    where a grid has its lines, less the ink in the middle of the cells, where it has none (0 for no grid, up to
    1)."""
    cell = 12
    side = n * cell
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    warped = cv2().warpPerspective(ink, cv2().getPerspectiveTransform(corners, target), (side, side)) / 255.0
    scores = []
    for profile in (warped.mean(axis=0), warped.mean(axis=1)):
        windows = np.lib.stride_tricks.sliding_window_view(profile, 5)  # window i: profile[i:i + 5]
        lines = windows[np.arange(1, n) * cell - 2].max(axis=1)
        middles = windows[np.arange(n) * cell + cell // 2 - 2].mean(axis=1)
        scores.append(float(np.median(lines) - np.median(middles)))
    return min(scores)


def _ink(gray: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Dark strokes as 255 on 0, independent of lighting: adaptive mean threshold on a lightly blurred image."""
    block = max(11, (max(gray.shape) // 40) | 1)
    blurred = cv2().GaussianBlur(gray, (5, 5), 0)
    ink = cv2().adaptiveThreshold(blurred, 255, cv2().ADAPTIVE_THRESH_MEAN_C, cv2().THRESH_BINARY_INV, block, 7)
    closed: npt.NDArray[np.uint8] = cv2().dilate(ink, np.ones((3, 3), np.uint8))  # joins broken, faint lines
    return closed


def _contours_by_area(ink: npt.NDArray[np.uint8]) -> list[Any]:
    """The outer contours large enough to hold a grid (a twentieth of the image's short side across), largest
    first."""
    contours, _ = cv2().findContours(ink, cv2().RETR_LIST, cv2().CHAIN_APPROX_SIMPLE)
    least = (min(ink.shape) / 20) ** 2
    large = [c for c in contours if cv2().contourArea(cv2().convexHull(c)) >= least]
    return sorted(large, key=lambda c: -cv2().contourArea(cv2().convexHull(c)))[:20]


def _quadrilateral(contour: Any) -> Corners | None:
    """The contour's hull simplified to four corners, if it is a plausible grid."""
    hull = cv2().convexHull(contour)
    perimeter = cv2().arcLength(hull, True)
    for fraction in (0.01, 0.02, 0.03, 0.05, 0.08):
        poly = cv2().approxPolyDP(hull, fraction * perimeter, True)
        if len(poly) == 4:
            break
    else:
        return None
    corners = order_corners(poly.reshape(4, 2).astype(np.float32))
    if not _plausible(corners):
        return None
    return corners


def order_corners(points: npt.NDArray[np.float32]) -> Corners:
    """Four points as top-left, top-right, bottom-right, bottom-left (clockwise in image coordinates)."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ordered = points[np.argsort(angles)]  # clockwise from the left in image coordinates (y grows down)
    start = int(np.argmin(ordered.sum(axis=1)))  # top-left: the smallest x + y
    return np.roll(ordered, -start, axis=0).astype(np.float32)


def _plausible(corners: Corners) -> bool:
    """Convex, with opposite sides and the two diagonals within MAX_SIDE_RATIO of each other."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    diagonals = np.linalg.norm(corners[:2] - corners[2:], axis=1)
    if sides.min() <= 0 or not cv2().isContourConvex(corners.reshape(4, 1, 2)):
        return False
    pairs = ((sides[0], sides[2]), (sides[1], sides[3]), (diagonals[0], diagonals[1]),
             (sides[0] + sides[2], sides[1] + sides[3]))
    if not all(max(a, b) / min(a, b) <= MAX_SIDE_RATIO for a, b in pairs):
        return False
    before, after = np.roll(corners, 1, axis=0) - corners, np.roll(corners, -1, axis=0) - corners
    cosines = (before * after).sum(axis=1) / (np.linalg.norm(before, axis=1) * np.linalg.norm(after, axis=1))
    return bool(np.abs(cosines).max() <= np.sin(np.radians(MAX_SKEW)))
