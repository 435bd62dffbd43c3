"""Read a Sudoku from a photo: decode, find the grid, read its cells, let the solver correct them.

Each stage is a module of its own (``decode``, ``locate``, ``cells``, ``digits``, ``classify``, ``recognise``,
``correct``); this one strings them together and turns "nothing found" into a sentence a person can act on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bitdoku.grid import Grid
from bitdoku.photo._cv import cv2
from bitdoku.photo.correct import Correction, correct, status_of
from bitdoku.photo.decode import MAX_PIXELS, Decoded, decode
from bitdoku.photo.errors import PhotoError
from bitdoku.photo.locate import Found, locate, locate_each
from bitdoku.photo.reading import PhotoReading
from bitdoku.photo.recognise import recognise
from bitdoku.shape import Shape

#: A grid narrower than this (in the image's pixels) has digits too small to read: about 15 px a cell (MIN_CELL
#: a cell for the larger grids).
MIN_GRID_SIDE = 140
MIN_CELL = 15
#: The sizes the reader knows (cells a side); ``size="auto"`` takes the one whose lines the grid has.
SIZES = (6, 9, 16)
#: What ``size`` is when it is not given: told from the image (see ``_recognised_any_size``). Right on the 160
#: shared photos, every screenshot of the screenshot benchmark and 200 of 200 rendered photos in perspective (the
#: lines alone, before the 9x9 check, were wrong on 45 of those 200).
DEFAULT_SIZE = "auto"


def read(image: Any, *, size: int | str = DEFAULT_SIZE, shape: Shape | str | None = None,
         correct_with_solver: bool = True, max_pixels: int = MAX_PIXELS) -> PhotoReading:
    """Read the Sudoku (6x6, 9x9 or 16x16) in a photo or a screenshot.

    Parameters
    ----------
    image
        A path, the bytes of a JPEG, PNG, BMP, WebP or GIF file, a PIL image, or a NumPy uint8 array (gray,
        BGR or BGRA, as OpenCV holds images).
    size
        The grid's cells a side, 6, 9 or 16; ``"auto"`` (the default) tells it from the image: the grid's
        inner lines give the size, and where they find another frame than a 9x9 search does (a paper's edge
        can look like a 6x6 grid's frame), the reading the classifier is surer of wins. A 16x16 grid's values
        10-16 are the letters A-G.
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
    seen = _recognised_any_size(decoded) if told is None else _recognised_told(decoded, told.n)
    return _reading(decoded, seen, told or Shape.for_digits(seen.found.n), correct_with_solver)


def parse_size(text: str) -> int | str:
    """A size as the command line and the API take it: ``"6"``, ``"9"``, ``"16"`` or ``"auto"``; a ValueError
    that names the choices otherwise."""
    if text == "auto":
        return text
    if text not in tuple(str(n) for n in SIZES):
        raise ValueError(f"6, 9, 16 or auto, not {text!r}")
    return int(text)


@dataclass(frozen=True)
class _Seen:
    """A found grid's cells as the classifier sees them: a probability for each value of each cell, and the
    corners turned so that the puzzle is upright."""

    found: Found
    probabilities: npt.NDArray[np.float64]
    turned: npt.NDArray[np.float32]

    def sureness(self) -> float:
        """The mean log-probability of the most likely reading: how sure the classifier is of the whole grid."""
        return float(np.log(np.maximum(self.probabilities.max(axis=1), 1e-9)).mean())


def _recognised_told(decoded: Decoded, n: int) -> _Seen:
    """The cells of a grid of the size the caller told. When none of that size is found (or it is too small: the
    9x9 grid's boxes pass for a 6x6 grid's lines), but one of another size is, that is the error to give."""
    try:
        return _recognised(decoded, locate(decoded.gray, (n,)))
    except PhotoError as error:
        other = locate(decoded.gray, tuple(size for size in SIZES if size != n))
        if other is None:
            raise
        raise PhotoError(f"the grid is {other.n}x{other.n}, not {n}x{n}", kind="other-size",
                         source=decoded.source) from error


def _recognised_any_size(decoded: Decoded) -> _Seen:
    """The cells of ``size="auto"``: at the size the grid's lines tell, checked against a 9x9 reading.

    The lines alone mislead on photos: the paper's edge around a grid can pass for the frame of a 6x6 or a
    16x16 grid. So when they tell another size or frame than the 9x9 search finds, both are recognised and the
    classifier decides: a grid seen at its true size and place has sure cells, one seen on the wrong lattice
    has many unsure ones (mean log-probability about -0.01 against -0.04 to -0.2 on rendered photos).
    """
    detected, nine = locate_each(decoded.gray, SIZES, (SIZES, (9,)))
    if detected is None or nine is None or _same_frame(detected, nine):
        return _recognised(decoded, detected or nine)
    seen = []
    for found in (detected, nine):
        try:
            seen.append(_recognised(decoded, found))
        except PhotoError:  # too small to read at this size; the other lattice may not be
            continue
    return max(seen, key=_Seen.sureness) if seen else _recognised(decoded, detected)  # else: raise its error


def _same_frame(first: Found, second: Found, tolerance: float = 0.02) -> bool:
    """Whether two found grids have the same frame (corners within 2 % of the grid's side): then the lines
    inside tell the size (``locate.size_of``: right on every screenshot of the benchmark and 159 of the 160
    shared photos)."""
    side = float(np.linalg.norm(first.corners[0] - first.corners[2]))
    return float(np.abs(first.corners - second.corners).max()) <= tolerance * side


def _recognised(decoded: Decoded, found: Found | None) -> _Seen:
    """The classifier's view of the grid ``found``; a PhotoError when there is none or it is too small."""
    if found is None:
        raise PhotoError("no Sudoku grid found", kind="no-grid", source=decoded.source)
    corners, n = found.corners, found.n
    across = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).min()) * decoded.scale
    if across < max(MIN_GRID_SIDE, MIN_CELL * n):
        raise PhotoError(f"the grid is too small to read: {across:.0f} px across; get closer", kind="too-small",
                         source=decoded.source)
    gray = 255 - decoded.gray if found.inverted else decoded.gray
    probabilities, turned = recognise(gray, corners, n)
    return _Seen(found, probabilities, turned)


def _reading(decoded: Decoded, seen: _Seen, grid_shape: Shape, correct_with_solver: bool) -> PhotoReading:
    """The reading of what the classifier saw, corrected by the solver when asked."""
    n = grid_shape.n
    as_read = seen.probabilities.argmax(axis=1)
    fixed = (correct(seen.probabilities, grid_shape) if correct_with_solver
             else Correction(as_read, status_of(as_read, grid_shape), ()))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (seen.turned * decoded.scale).tolist()
    return PhotoReading(
        grid=_grid(fixed.digits, grid_shape),
        confidence=tuple(float(p) for p in seen.probabilities[np.arange(n * n), fixed.digits]),
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
