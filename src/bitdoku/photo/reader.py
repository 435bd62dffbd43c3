"""Read a Sudoku from a photo: decode, find the grid, read its cells, let the solver correct them.

Each stage is a module of its own (``decode``, ``locate``, ``cells``, ``digits``, ``classify``, ``recognise``,
``correct``); this one strings them together and turns "nothing found" into a sentence a person can act on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from bitdoku.grid import Grid
from bitdoku.photo._cv import cv2
from bitdoku.photo.correct import Correction, correct, status_of
from bitdoku.photo.decode import MAX_PIXELS, decode
from bitdoku.photo.errors import PhotoError
from bitdoku.photo.locate import find_grid
from bitdoku.photo.reading import PhotoReading
from bitdoku.photo.recognise import recognise

#: A grid narrower than this (in the image's pixels) has digits too small to read: about 15 px a cell.
MIN_GRID_SIDE = 140


def read(image: Any, *, correct_with_solver: bool = True, max_pixels: int = MAX_PIXELS) -> PhotoReading:
    """Read the 9x9 Sudoku in a photo or a screenshot.

    Parameters
    ----------
    image
        A path, the bytes of a JPEG, PNG, BMP, WebP or GIF file, a PIL image, or a NumPy uint8 array (gray,
        BGR or BGRA, as OpenCV holds images).
    correct_with_solver
        When the reading has clashing digits or no unique solution, try the next most likely values of the
        least sure cells until exactly one solution remains (a bounded number of tries).
    max_pixels
        The most pixels the image may declare; checked before decoding.

    Returns
    -------
    PhotoReading
        The grid, each cell's confidence, the grid's corners and the cells the solver corrected.

    Raises
    ------
    PhotoError
        Not an image, an empty, truncated or too large file, no grid found, or a grid too small to read.
    MissingExtraError
        OpenCV is not installed: ``pip install 'bitdoku[photo]'``.

    Example
    -------
    >>> read("puzzle.jpg").to_line()  # doctest: +SKIP
    '...7...8..9...31....68.5.7..2.6...49...2...5...8.4...7...9...3.37......61.5..4...'
    >>> read(b"GIF89a")
    Traceback (most recent call last):
    ...
    bitdoku.photo.errors.PhotoError: the image is truncated: its header is incomplete
    """
    cv2()  # a missing extra is the first thing to say, whatever the image
    decoded = decode(image, max_pixels=max_pixels)
    corners = find_grid(decoded.gray)
    if corners is None:
        raise PhotoError("no Sudoku grid found", kind="no-grid", source=decoded.source)
    across = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).min()) * decoded.scale
    if across < MIN_GRID_SIDE:
        raise PhotoError(f"the grid is too small to read: {across:.0f} px across; get closer", kind="too-small",
                         source=decoded.source)
    probabilities, turned = recognise(decoded.gray, corners)
    as_read = probabilities.argmax(axis=1)
    fixed = correct(probabilities) if correct_with_solver else Correction(as_read, status_of(as_read), ())
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (turned * decoded.scale).tolist()
    return PhotoReading(
        grid=_grid(fixed.digits),
        confidence=tuple(float(p) for p in probabilities[np.arange(81), fixed.digits]),
        corners=((x0, y0), (x1, y1), (x2, y2), (x3, y3)),
        corrected=fixed.changed,
        status=fixed.status,
        as_read=_grid(as_read),
    )


def _grid(values: npt.NDArray[np.int64]) -> Grid:
    return Grid.from_array(values.reshape(9, 9).tolist())
