"""Any form of picture in, one gray image of bounded size out.

The reader works on gray pixels: colour adds nothing to printed digits. Large JPEGs are decoded at a half, a
quarter or an eighth of their size by the JPEG decoder itself (DCT scaling), which is several times faster than
decoding in full and shrinking after, and a 12-megapixel photo still keeps 1000 px on its long side.

The C decoders inside OpenCV (libjpeg, libpng) print their warnings straight to the process's stderr ("Corrupt
JPEG data: 3 extraneous bytes before marker 0xda"), where no Python code can catch them, and OpenCV offers no
switch for it. So the decoding is done with file descriptor 2 pointed at a temporary file: the decoders' lines
are kept out of the terminal (and "premature end" makes a damaged JPEG an error rather than half a gray
picture), and whatever else was written meanwhile is passed on.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
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
    """A gray image and how it maps back: ``scale`` times a pixel of ``gray`` is a pixel of the original.

    ``size`` is the original's width and height as it is displayed (turned by its EXIF orientation, as ``gray``
    is), so that a drawing over the image can be made at the image's own size.
    """

    gray: npt.NDArray[np.uint8]
    scale: float
    source: str | None
    size: tuple[int, int]


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
        if len(image) > MAX_BYTES:  # bytes from a stream (stdin, an upload): the file's cap applies
            raise PhotoError(f"the image is too large: over {MAX_BYTES:,} bytes", kind="too-large")
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
    with _decoder_messages() as messages:
        gray = cv2().imdecode(np.frombuffer(data, np.uint8), flags)
    if gray is None or gray.size == 0 or _ends_early(messages):
        raise PhotoError(f"the {kind} image cannot be decoded: it is damaged or truncated", kind="truncated")
    turned = (gray.shape[1] >= gray.shape[0]) != (width >= height)  # EXIF may have turned it
    return _shrunk(gray, max(width, height) / max(gray.shape), (height, width) if turned else (width, height))


#: The lines the decoders print: libjpeg's warnings, libpng's, and OpenCV's own log lines ("[ERROR:0@0.19] ...").
_DECODER_LINE = re.compile(r"(Corrupt JPEG data|Premature end of JPEG|Invalid |Warning: |Unsupported |Bogus |"
                           r"Inconsistent |Huffman |libpng (warning|error)|\[ ?(ERROR|WARN|INFO|DEBUG)[:\]]|$)")
#: One capture of file descriptor 2 at a time (the web server decodes in threads).
_STDERR_LOCK = threading.Lock()


@contextmanager
def _decoder_messages() -> Iterator[list[str]]:
    """Collect what the C decoders print during the block instead of letting it reach the terminal.

    File descriptor 2 is pointed at a temporary file for the block's few milliseconds; afterwards the decoders'
    lines are handed to the caller and any other line (another thread's) is written to stderr after all.
    Where descriptor 2 cannot be swapped (it is closed), the block runs as it is.
    """
    messages: list[str] = []
    with _STDERR_LOCK, tempfile.TemporaryFile() as capture:
        try:
            sys.stderr.flush()
            saved = os.dup(2)
        except (OSError, ValueError, AttributeError):
            yield messages
            return
        os.dup2(capture.fileno(), 2)
        try:
            yield messages
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            capture.seek(0)
            others: list[str] = []
            for line in capture.read().decode("utf-8", "replace").splitlines():
                (messages if _DECODER_LINE.match(line) else others).append(line)
            if others:
                os.write(2, ("\n".join(others) + "\n").encode())


def _ends_early(messages: list[str]) -> bool:
    """libjpeg fills what is missing with gray and only says so: a half-gray photo would be misread."""
    return any("premature end" in line.lower() for line in messages)


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
    return _shrunk(np.ascontiguousarray(array), 1.0, (array.shape[1], array.shape[0]))


def _check_pixels(width: int, height: int, max_pixels: int) -> None:
    if width <= 0 or height <= 0:
        raise PhotoError(f"not an image: it declares a size of {width} x {height}", kind="not-an-image")
    if width * height > max_pixels:
        raise PhotoError(f"the image is too large: {width} x {height} = {width * height / 1e6:.0f} megapixels "
                         f"(at most {max_pixels / 1e6:g})", kind="too-large")


def _shrunk(gray: npt.NDArray[np.uint8], scale: float, original: tuple[int, int]) -> Decoded:
    """Shrink to about WORKING_SIDE on the long side (never enlarge): the later stages' sizes are tuned to it."""
    long_side = max(gray.shape)
    if long_side <= WORKING_SIDE * 1.5:
        return Decoded(gray, scale, None, original)
    factor = WORKING_SIDE / long_side
    size = (max(1, round(gray.shape[1] * factor)), max(1, round(gray.shape[0] * factor)))
    small = cv2().resize(gray, size, interpolation=cv2().INTER_AREA)
    return Decoded(small, scale * gray.shape[1] / small.shape[1], None, original)
