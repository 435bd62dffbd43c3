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
from bitdoku.photo.locate import locate
from bitdoku.photo.reading import PhotoReading
from bitdoku.photo.recognise import recognise
from bitdoku.shape import Shape

#: A grid narrower than this (in the image's pixels) has digits too small to read: about 15 px a cell (MIN_CELL
#: a cell for the larger grids).
MIN_GRID_SIDE = 140
MIN_CELL = 15
#: The sizes the reader knows (cells a side); ``size="auto"`` takes the one whose lines the grid has.
SIZES = (6, 9, 16)
#: What ``size`` is when it is not given. Not "auto": on rendered photos in perspective the size detection takes
#: a 9x9 grid for a 6x6 or a 16x16 one, or finds the wrong lattice, about one time in three (it is right on 159 of
#: the 160 shared photos and on every screenshot of the screenshot benchmark); a 9x9 reading never does that.
DEFAULT_SIZE = 9


def read(image: Any, *, size: int | str = DEFAULT_SIZE, shape: Shape | str | None = None,
         correct_with_solver: bool = True, max_pixels: int = MAX_PIXELS) -> PhotoReading:
    """Read the Sudoku (6x6, 9x9 or 16x16) in a photo or a screenshot.

    Parameters
    ----------
    image
        A path, the bytes of a JPEG, PNG, BMP, WebP or GIF file, a PIL image, or a NumPy uint8 array (gray,
        BGR or BGRA, as OpenCV holds images).
    size
        The grid's cells a side, 6, 9 (the default) or 16; ``"auto"`` tells it from the grid's lines (which
        size's inner lines the grid has: right on screenshots, less sure on photos in perspective). A 16x16
        grid's values 10-16 are the letters A-G.
    shape
        The box shape, when it is not the usual one of its size (``"3x2"`` for a 6x6 grid with boxes 3 rows
        high); it implies the size. The usual ones are 2x3, 3x3 and 4x4.
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
    ValueError
        A ``size`` or ``shape`` the reader does not know.
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
    told = _told_shape(size, shape)
    cv2()  # a missing extra is the first thing to say, whatever the image
    decoded = decode(image, max_pixels=max_pixels)
    found = locate(decoded.gray, SIZES if told is None else (told.n,))
    if found is None:
        raise PhotoError("no Sudoku grid found", kind="no-grid", source=decoded.source)
    n = found.n
    grid_shape = told or Shape.for_digits(n)
    corners = found.corners
    across = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).min()) * decoded.scale
    if across < max(MIN_GRID_SIDE, MIN_CELL * n):
        raise PhotoError(f"the grid is too small to read: {across:.0f} px across; get closer", kind="too-small",
                         source=decoded.source)
    gray = 255 - decoded.gray if found.inverted else decoded.gray
    probabilities, turned = recognise(gray, corners, n)
    as_read = probabilities.argmax(axis=1)
    fixed = (correct(probabilities, grid_shape) if correct_with_solver
             else Correction(as_read, status_of(as_read, grid_shape), ()))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (turned * decoded.scale).tolist()
    return PhotoReading(
        grid=_grid(fixed.digits, grid_shape),
        confidence=tuple(float(p) for p in probabilities[np.arange(n * n), fixed.digits]),
        corners=((x0, y0), (x1, y1), (x2, y2), (x3, y3)),
        corrected=fixed.changed,
        status=fixed.status,
        as_read=_grid(as_read, grid_shape),
    )


def _told_shape(size: int | str, shape: Shape | str | None) -> Shape | None:
    """The shape the caller gave (checked before any work), or None to detect the size."""
    if shape is not None:
        told = Shape.parse(shape)
        if told.n not in SIZES or (size not in ("auto", DEFAULT_SIZE) and size != told.n):
            raise ValueError(f"the reader reads 6x6, 9x9 and 16x16 grids, not {told.size_name} ones"
                             if told.n not in SIZES else f"a {told} shape is {told.n} cells a side, not {size}")
        return told
    if size == "auto":
        return None
    if isinstance(size, bool) or size not in SIZES:
        raise ValueError(f"the reader reads grids of 6, 9 or 16 cells a side, not {size!r}")
    return Shape.for_digits(size)


def _grid(values: npt.NDArray[np.int64], shape: Shape) -> Grid:
    return Grid.from_array(values.tolist(), shape)
