"""Synthetic photos for the tests: a puzzle drawn as a printed grid with OpenCV, then seen in perspective."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)


def draw_grid(digits: npt.NDArray[np.int64], *, cell: int = 50, font: int = cv2.FONT_HERSHEY_SIMPLEX,
              thickness: int = 2) -> npt.NDArray[np.uint8]:
    """The puzzle on white paper, square on: thin lines between cells, thick ones between boxes."""
    side = 9 * cell
    page = np.full((side + 2 * cell, side + 2 * cell), 235, np.uint8)
    for k in range(10):
        width = 4 if k % 3 == 0 else 1
        at = cell + k * cell
        cv2.line(page, (at, cell), (at, cell + side), 20, width)
        cv2.line(page, (cell, at), (cell + side, at), 20, width)
    scale = cell * 0.6 / cv2.getTextSize("8", font, 1.0, thickness)[0][1]
    for index, digit in enumerate(digits.ravel()):
        if digit:
            (w, h), _ = cv2.getTextSize(str(digit), font, scale, thickness)
            row, col = divmod(index, 9)
            origin = (cell + col * cell + (cell - w) // 2, cell + row * cell + (cell + h) // 2)
            cv2.putText(page, str(int(digit)), origin, font, scale, 30, thickness, cv2.LINE_AA)
    return page


def photograph(page: npt.NDArray[np.uint8], rng: np.random.Generator, *, size: tuple[int, int] = (640, 480),
               skew: float = 0.08) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """The page seen by a camera at a random slant on a darker table, lightly blurred and noisy, as BGR; with
    the grid's true corners in the photo (top-left clockwise)."""
    width, height = size
    margin = page.shape[0] / 11  # draw_grid keeps one cell of paper around the grid
    source = np.array([[0, 0], [page.shape[1], 0], [page.shape[1], page.shape[0]], [0, page.shape[0]]], np.float32)
    short = min(width, height) * 0.85
    left, top = (width - short) / 2, (height - short) / 2
    target = np.array([[left, top], [left + short, top], [left + short, top + short], [left, top + short]])
    target = (target + rng.uniform(-skew, skew, (4, 2)) * short).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(source, target)
    photo = cv2.warpPerspective(page, matrix, size, borderValue=90)
    photo = cv2.GaussianBlur(photo, (3, 3), 0.8)
    noisy = np.clip(photo + rng.normal(0, 4, photo.shape), 0, 255).astype(np.uint8)
    grid = np.array([[margin, margin], [page.shape[1] - margin, margin], [page.shape[1] - margin,
                     page.shape[0] - margin], [margin, page.shape[0] - margin]], np.float32)
    corners = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), matrix).reshape(4, 2)
    return cv2.cvtColor(noisy, cv2.COLOR_GRAY2BGR), corners


def solved_grid(rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A random complete solution: the pattern (3r + r//3 + c) mod 9, shuffled by the moves that keep it valid
    (digits relabelled, rows within bands, bands, columns within stacks, stacks)."""
    base = np.array([[(3 * r + r // 3 + c) % 9 for c in range(9)] for r in range(9)])
    rows = np.concatenate([band * 3 + rng.permutation(3) for band in rng.permutation(3)])
    cols = np.concatenate([stack * 3 + rng.permutation(3) for stack in rng.permutation(3)])
    return np.asarray(rng.permutation(9) + 1)[base[rows][:, cols]]


def puzzle(rng: np.random.Generator, givens: int = 28) -> npt.NDArray[np.int64]:
    """A solution with all but ``givens`` cells emptied (the reading test does not need it to be unique)."""
    grid = solved_grid(rng).ravel()
    grid[rng.permutation(81)[givens:]] = 0
    return grid.reshape(9, 9)
