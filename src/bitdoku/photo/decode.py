"""Any form of picture in, one gray image of bounded size out.

The reader works on gray pixels: colour adds nothing to printed digits. Large JPEGs are decoded at a half, a
quarter or an eighth of their size by the JPEG decoder itself (DCT scaling), which is several times faster than
decoding in full and shrinking after, and a 12-megapixel photo still keeps 1000 px on its long side.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bitdoku.photo._cv import cv2
from bitdoku.photo.errors import PhotoError
from bitdoku.photo.header import image_size

#: The most pixels an image may declare (50 megapixels: a 12-megapixel phone photo has room to spare).
MAX_PIXELS = 50_000_000
#: The largest file read (a 50-megapixel JPEG of a printed page is far smaller).
MAX_BYTES = 64 * 1024 * 1024
#: The long side that decoding aims at: enough for 9 x 9 cells of digits, small enough to be quick.
WORKING_SIDE = 1000


@dataclass(frozen=True)
class Decoded:
    """A gray image and how it maps back: ``scale`` times a pixel of ``gray`` is a pixel of the original."""

    gray: npt.NDArray[np.uint8]
    scale: float
    source: str | None


def decode(image: Any, *, max_pixels: int = MAX_PIXELS) -> Decoded:
    """Read a path, bytes, a PIL image or a NumPy array (gray, BGR or BGRA) into a gray image.

    Raises
    ------
    PhotoError
        Not an image, an empty or truncated file, or more than ``max_pixels`` pixels.
    """
    if isinstance(image, (str, os.PathLike)):
        path = Path(image)
        try:
            return replace(_from_bytes(_read_file(path), max_pixels), source=path.name)
        except PhotoError as error:
            raise error.located(source=path.name) from None
    if isinstance(image, (bytes, bytearray, memoryview)):
        return _from_bytes(bytes(image), max_pixels)
    if type(image).__module__.startswith("PIL."):
        _check_pixels(image.size[0], image.size[1], max_pixels)  # before converting, which copies every pixel
        return _from_array(np.asarray(image.convert("L")), max_pixels)
    if isinstance(image, np.ndarray):
        return _from_array(image, max_pixels)
    raise PhotoError(f"not an image: {type(image).__name__}; pass a path, bytes, a PIL image or a NumPy array",
                     kind="not-an-image")


def _read_file(path: Path) -> bytes:
    """The file's bytes, refusing what cannot be an image before reading it all."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise PhotoError(f"the file is too large: {size:,} bytes (at most {MAX_BYTES:,})", kind="too-large")
        return path.read_bytes()
    except OSError as error:
        raise PhotoError(f"cannot read the file: {error.strerror or error}", kind="not-an-image") from None


def _from_bytes(data: bytes, max_pixels: int) -> Decoded:
    """Check the declared size, then decode (JPEGs at a reduced size when they are large)."""
    kind, width, height = image_size(data)
    _check_pixels(width, height, max_pixels)
    factor = _reduction(width, height) if kind == "JPEG" else 1
    flags = {1: cv2().IMREAD_GRAYSCALE, 2: cv2().IMREAD_REDUCED_GRAYSCALE_2,
             4: cv2().IMREAD_REDUCED_GRAYSCALE_4, 8: cv2().IMREAD_REDUCED_GRAYSCALE_8}[factor]
    gray = cv2().imdecode(np.frombuffer(data, np.uint8), flags)
    if gray is None or gray.size == 0:
        raise PhotoError(f"the {kind} image cannot be decoded: it is damaged or truncated", kind="truncated")
    return _shrunk(gray, max(width, height) / max(gray.shape))  # EXIF may have turned it


def _reduction(width: int, height: int) -> int:
    """The largest JPEG scale-down (1, 2, 4 or 8) that keeps the long side at WORKING_SIDE or more."""
    factor = 1
    while factor < 8 and max(width, height) // (factor * 2) >= WORKING_SIDE:
        factor *= 2
    return factor


def _from_array(array: npt.NDArray[Any], max_pixels: int) -> Decoded:
    """A gray copy of a uint8 array of shape (h, w), (h, w, 1), (h, w, 3) BGR or (h, w, 4) BGRA."""
    if array.dtype != np.uint8 or array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in (1, 3, 4)):
        raise PhotoError(f"not an image: an array of dtype {array.dtype} and shape {array.shape}; expected uint8 "
                         "of shape (h, w), (h, w, 3) or (h, w, 4)", kind="not-an-image")
    _check_pixels(array.shape[1], array.shape[0], max_pixels)
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[:, :, 0]
    if array.ndim == 3:
        code = cv2().COLOR_BGR2GRAY if array.shape[2] == 3 else cv2().COLOR_BGRA2GRAY
        array = cv2().cvtColor(np.ascontiguousarray(array), code)
    return _shrunk(np.ascontiguousarray(array), 1.0)


def _check_pixels(width: int, height: int, max_pixels: int) -> None:
    if width <= 0 or height <= 0:
        raise PhotoError(f"not an image: it declares a size of {width} x {height}", kind="not-an-image")
    if width * height > max_pixels:
        raise PhotoError(f"the image is too large: {width} x {height} = {width * height / 1e6:.0f} megapixels "
                         f"(at most {max_pixels / 1e6:g})", kind="too-large")


def _shrunk(gray: npt.NDArray[np.uint8], scale: float) -> Decoded:
    """Shrink to about WORKING_SIDE on the long side (never enlarge): the later stages' sizes are tuned to it."""
    long_side = max(gray.shape)
    if long_side <= WORKING_SIDE * 1.5:
        return Decoded(gray, scale, None)
    factor = WORKING_SIDE / long_side
    size = (max(1, round(gray.shape[1] * factor)), max(1, round(gray.shape[0] * factor)))
    small = cv2().resize(gray, size, interpolation=cv2().INTER_AREA)
    return Decoded(small, scale * gray.shape[1] / small.shape[1], None)
