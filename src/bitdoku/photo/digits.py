"""Tell an empty cell from a digit, and cut the digit out as the classifier sees it.

A digit is the largest stroke near the middle of the cell that is tall enough: a dot of dirt, a pencil-mark,
or the stub of a grid line along the cell's edge is not. The digit is then scaled into a fixed box by its
bounding box (as MNIST does), so that fonts of different sizes and cells cut a little off look alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bitdoku.photo._cv import cv2

#: The classifier's input: the digit fitted into INNER x INNER pixels, centred in SIZE x SIZE.
SIZE = 28
INNER = 20
#: The margin of the cell left out before looking for a digit: the grid lines live there.
MARGIN = 0.12
#: A digit's stroke is at least this tall, as a share of the cell.
MIN_HEIGHT = 0.3
#: Pencil marks (a screenshot's small candidates) are strokes no taller than this share of the cell; several of
#: them stacked close enough to be joined into one tall shape are still no digit.
PENCIL = 0.25


@dataclass(frozen=True)
class Glyph:
    """What a cell holds: ``ink`` is how sure it is that a digit is there (0-1), ``image`` the digit fitted
    into SIZE x SIZE (float32, 1 for ink, 0 for paper), or None for an empty cell."""

    ink: float
    image: npt.NDArray[np.float32] | None


def glyph(gray: npt.NDArray[np.uint8], mask: npt.NDArray[np.uint8], box: npt.NDArray[np.int32]) -> Glyph:
    """The digit of the cell at ``box`` (x0, y0, x1, y1) in the warped grid ``gray``, whose ink is ``mask``."""
    x0, y0, x1, y1 = (int(v) for v in box)
    width, height = max(1, x1 - x0), max(1, y1 - y0)
    dx, dy = round(width * MARGIN), round(height * MARGIN)
    region = mask[y0 + dy:y1 - dy, x0 + dx:x1 - dx]
    found = _digit_box(region, height)
    if found is None:
        return Glyph(0.0, None)
    bx, by, bw, bh, strength = found
    if _pencil_marks(region[by:by + bh, bx:bx + bw], height):
        return Glyph(0.0, None)
    crop = gray[y0 + dy + by:y0 + dy + by + bh, x0 + dx + bx:x0 + dx + bx + bw]
    paper = percentile_90(gray[y0 + dy:y1 - dy, x0 + dx:x1 - dx])
    return Glyph(strength, fit(crop, paper))


def percentile_90(pixels: npt.NDArray[np.uint8]) -> float:
    """``np.percentile(pixels, 90)`` to the last bit (linear between the two values around it), by a partial
    sort: np.percentile's own overhead was an eighth of a 16x16 screenshot's reading, 256 cells a grid."""
    flat = pixels.ravel()
    if flat.size == 0:
        return float(np.percentile(flat, 90))  # nan and its warning, as before
    at = 0.9 * (flat.size - 1)
    low = int(at)
    high = min(low + 1, flat.size - 1)
    part = np.partition(flat, (low, high))
    below, above = float(part[low]), float(part[high])
    t = at - low
    if t >= 0.5:  # numpy's lerp comes down from the upper value past the middle: same rounding, same bits
        return above - (above - below) * (1 - t)
    return below + t * (above - below)


def _digit_box(region: npt.NDArray[np.uint8], cell: int) -> tuple[int, int, int, int, float] | None:
    """The bounding box of the strokes that make the digit (x, y, w, h) and how digit-like it is, or None."""
    if region.size == 0 or int(region.sum()) < MIN_HEIGHT * cell - 2:  # too little ink for a stroke that tall
        return None
    region = _without_lines(region)
    joined = cv2().dilate(region, np.ones((3, 3), np.uint8))  # a faint 7's bar and stem become one stroke
    count, labels, stats, centroids = cv2().connectedComponentsWithStats(joined, connectivity=8)
    h, w = region.shape
    best, best_area, wide = -1, 0, -1
    for label in range(1, count):
        x, y, bw, bh, area = stats[label]
        cx, cy = centroids[label]
        central = abs(cx - w / 2) < w * 0.3 and abs(cy - h / 2) < h * 0.3
        if central and bh >= MIN_HEIGHT * cell and area > best_area:
            if bw < w * 0.95:
                best, best_area = label, area
            else:
                wide = label
    if best < 0:
        return _trimmed((labels == wide) & (region > 0), cell) if wide > 0 else None
    x, y, bw, bh, _ = stats[best]
    x, y, x2, y2 = x + 1, y + 1, x + bw - 1, y + bh - 1  # undo the dilation
    for label in range(1, count):  # the pieces of a broken stroke that lie within the digit's column
        lx, ly, lw, lh, area = stats[label]
        if label != best and area >= 4 and lx >= x - 2 and lx + lw <= x2 + 2 and (ly + lh > y - 4 and ly < y2 + 4):
            x, y, x2, y2 = min(x, lx + 1), min(y, ly + 1), max(x2, lx + lw - 1), max(y2, ly + lh - 1)
    strength = min(1.0, (y2 - y) / (0.5 * cell))
    return int(x), int(y), int(x2 - x), int(y2 - y), float(strength)


def _pencil_marks(box: npt.NDArray[np.uint8], cell: int) -> bool:
    """Whether the shape found is a small mark, or several, each shorter than PENCIL of the cell (candidates
    written in a mini-grid, joined by the dilation), rather than one digit's stroke."""
    if box.shape[0] < PENCIL * cell:  # one candidate alone, passed as tall enough only once dilated
        return True
    count, _, stats, _ = cv2().connectedComponentsWithStats(box, connectivity=8)
    marks = [stats[label] for label in range(1, count) if stats[label][4] >= 3]
    if len(marks) >= 2 and max(int(m[3]) for m in marks) < PENCIL * cell:
        return True
    return _small_parts(np.asarray(box.any(axis=1)), PENCIL * cell)


def _small_parts(filled: npt.NDArray[np.bool_], most: float) -> bool:
    """Whether the rows that hold ink make two parts or more, split by empty rows, each shorter than ``most``:
    marks in two rows of a mini-grid, joined by a stroke or the dilation, which one digit never is. (Columns
    are not split: a speck beside a narrow 1 would make two narrow parts.)"""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], filled.astype(np.int8), [0]])))
    lengths = edges[1::2] - edges[::2]
    return len(lengths) >= 2 and int(lengths.max()) < most


def _trimmed(pixels: npt.NDArray[np.bool_], cell: int) -> tuple[int, int, int, int, float] | None:
    """A digit crossed by a pen stroke or a streak of shadow from edge to edge: keep the columns that hold more
    than a thin stroke's worth of ink, around the middle, and box what is left (a less sure digit)."""
    columns = pixels.sum(axis=0)
    heavy = columns > max(2, 0.2 * columns.max())
    middle = len(columns) // 2
    if not heavy[middle - 2:middle + 3].any():
        return None
    left = right = middle - 2 + int(np.argmax(heavy[middle - 2:middle + 3]))
    while left > 0 and heavy[left - 1:left].any() | heavy[max(0, left - 2):left - 1].any():
        left -= 1
    while right < len(columns) - 1 and heavy[right + 1:right + 2].any() | heavy[right + 2:right + 3].any():
        right += 1
    rows = np.flatnonzero(pixels[:, left:right + 1].any(axis=1))
    if right - left < 3 or len(rows) == 0 or rows[-1] - rows[0] < MIN_HEIGHT * cell:
        return None
    return left, int(rows[0]), right - left + 1, int(rows[-1] - rows[0] + 1), 0.6


def _without_lines(region: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The region less its straight runs across 80 % of it near its edges: a grid line cut into the cell, not a
    digit's stroke (the stroke of a 1 is as long, but in the middle)."""
    h, w = region.shape
    across = cv2().morphologyEx(region, cv2().MORPH_OPEN, np.ones((1, max(2, int(w * 0.8))), np.uint8))
    down = cv2().morphologyEx(region, cv2().MORPH_OPEN, np.ones((max(2, int(h * 0.8)), 1), np.uint8))
    across[h // 4:h - h // 4] = 0
    down[:, w // 4:w - w // 4] = 0
    kept: npt.NDArray[np.uint8] = region & ~(across | down)
    return kept


def fit(crop: npt.NDArray[np.uint8], paper: float) -> npt.NDArray[np.float32]:
    """The crop as ink (1) on paper (0), scaled to fit INNER x INNER keeping its proportions, centred in SIZE."""
    darkest = float(crop.min()) if crop.size else 0.0
    contrast = max(paper - darkest, 8.0)
    ink = np.clip((paper - crop.astype(np.float32)) / contrast, 0, 1)
    h, w = ink.shape
    scale = INNER / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2().resize(ink, size, interpolation=cv2().INTER_AREA)
    image = np.zeros((SIZE, SIZE), np.float32)
    top, left = (SIZE - size[1]) // 2, (SIZE - size[0]) // 2
    image[top:top + size[1], left:left + size[0]] = small
    return image
