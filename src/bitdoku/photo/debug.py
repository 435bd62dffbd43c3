"""A picture of what the reader found, drawn over the photo: for a person checking a reading, or a bad one.

The drawing is made on the gray image (the colours of the marks stand out on it) at the image's own size, so it
lies over the photo pixel for pixel: the grid's quadrilateral in blue, the cell lattice that the corners imply in
yellow (the box lines thicker), each digit as read in green at the top left of its cell, and the cells a person
should check outlined, red for a doubtful reading, magenta for one the solver corrected.

The lattice is the even one between the corners; the reader itself follows the printed lines, which a curved
page bends, so a digit read right may sit a little off this lattice.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from bitdoku.errors import OutputError
from bitdoku.photo._cv import cv2
from bitdoku.photo.decode import decode

if TYPE_CHECKING:
    from bitdoku.photo.reading import PhotoReading

Image = npt.NDArray[np.uint8]

#: BGR colours, as OpenCV writes them.
QUADRILATERAL = (255, 96, 0)
LATTICE = (0, 200, 230)
DIGIT = (0, 160, 0)
DOUBTFUL = (0, 0, 255)
CORRECTED = (255, 0, 255)
#: The formats ``save`` writes, by the file's suffix.
SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")


def draw(image: Any, reading: PhotoReading, *, threshold: float = 0.9) -> Image:
    """Draw ``reading`` over ``image`` (what ``read`` was given: a path, bytes, a PIL image or an array).

    Parameters
    ----------
    image
        The photo that was read.
    reading
        What ``bitdoku.photo.read`` found in it.
    threshold
        The confidence below which a cell is outlined as doubtful (``PhotoReading.doubtful``'s).

    Returns
    -------
    numpy.ndarray
        A BGR image (height, width, 3) of the photo's size, as displayed.
    """
    canvas = _canvas(image)
    n = reading.grid.shape.n
    to_image = cv2().getPerspectiveTransform(
        _points([[0, 0], [n, 0], [n, n], [0, n]]), _points(reading.corners))
    unit = max(1, round(min(canvas.shape[:2]) / 400))  # line width: 1 px on a phone photo shrunk to 640 x 480
    _lattice(canvas, reading, to_image, unit)
    cv2().polylines(canvas, [_pixels(_points(reading.corners))], True, QUADRILATERAL, 3 * unit, cv2().LINE_AA)
    _cells(canvas, reading, to_image, unit, set(reading.doubtful(threshold)))
    return canvas


def save(drawing: Image, path: str | Path) -> None:
    """Write a drawing in the format its suffix names (``.png`` and the others of ``SUFFIXES``).

    Raises
    ------
    ValueError
        Another suffix.
    OutputError
        The file cannot be written (no such folder, no room).
    """
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"cannot write a drawing to {str(path)!r}: name a {', '.join(SUFFIXES)} file")
    ok, encoded = cv2().imencode(suffix, drawing)
    if not ok:
        raise OutputError(str(path), f"OpenCV cannot encode a {suffix} file")
    try:
        Path(path).write_bytes(encoded.tobytes())
    except OSError as error:
        raise OutputError(str(path), error.strerror or str(error)) from None


def _canvas(image: Any) -> Image:
    """The gray image, brought back to the original's size, in colour so that the marks can be coloured."""
    decoded = decode(image)
    gray = decoded.gray
    if (gray.shape[1], gray.shape[0]) != decoded.size:
        gray = cv2().resize(gray, decoded.size, interpolation=cv2().INTER_LINEAR)
    canvas: Image = cv2().cvtColor(gray, cv2().COLOR_GRAY2BGR)
    return canvas


def _lattice(canvas: Image, reading: PhotoReading, to_image: npt.NDArray[Any], unit: int) -> None:
    """The inner lines between the corners, the box lines twice as thick."""
    shape = reading.grid.shape
    n = shape.n
    for k in range(1, n):
        for ends, box in (([[k, 0], [k, n]], shape.box_cols), ([[0, k], [n, k]], shape.box_rows)):
            start, end = _pixels(_project(_points(ends), to_image))
            cv2().line(canvas, tuple(start.tolist()), tuple(end.tolist()), LATTICE,
                       2 * unit if k % box == 0 else unit, cv2().LINE_AA)


def _cells(canvas: Image, reading: PhotoReading, to_image: npt.NDArray[Any], unit: int, doubtful: set[int]) -> None:
    """Each cell's reading at its top left; the doubtful and corrected cells outlined."""
    n = reading.grid.shape.n
    line = reading.grid.to_line()
    side = float(np.linalg.norm(np.subtract(reading.corners[1], reading.corners[0]))) / n
    scale = max(0.3, 0.4 * side / 22)  # HERSHEY_SIMPLEX at scale 1 is about 22 px tall
    corrected = set(reading.corrected)
    for cell, symbol in enumerate(line):
        row, col = divmod(cell, n)
        colour = CORRECTED if cell in corrected else DOUBTFUL if cell in doubtful else DIGIT
        if cell in corrected or cell in doubtful:
            inset = _points([[col + 0.06, row + 0.06], [col + 0.94, row + 0.06], [col + 0.94, row + 0.94],
                             [col + 0.06, row + 0.94]])
            cv2().polylines(canvas, [_pixels(_project(inset, to_image))], True, colour, 2 * unit, cv2().LINE_AA)
        if symbol != ".":
            (x, y), = _pixels(_project(_points([[col + 0.1, row + 0.45]]), to_image)).tolist()
            cv2().putText(canvas, symbol, (x, y), cv2().FONT_HERSHEY_SIMPLEX, scale, colour, max(1, unit),
                          cv2().LINE_AA)


def _project(points: npt.NDArray[np.float32], to_image: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """Points of the lattice (column, row) to pixels of the image."""
    projected: npt.NDArray[np.float32] = cv2().perspectiveTransform(points.reshape(-1, 1, 2), to_image)
    return projected.reshape(-1, 2)


def _points(values: Any) -> npt.NDArray[np.float32]:
    return np.asarray(values, dtype=np.float32)


def _pixels(points: npt.NDArray[np.float32]) -> npt.NDArray[np.int32]:
    return np.round(points).astype(np.int32)
