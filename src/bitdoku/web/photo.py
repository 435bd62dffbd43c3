"""``POST /api/photo``: the bytes of a photo or a screenshot in, the Sudoku read from it out (``bitdoku.photo``).

The image travels as the raw request body (``Content-Type: image/jpeg``, ``image/png``...), not as a form: the
page's ``fetch`` sends a ``File`` as it is, curl sends ``--data-binary @photo.jpg``, and no multipart parser
(``python-multipart``, not a dependency) is needed. The body is capped at ``MAX_BYTES`` before the app sees it
(``app.BodyLimit``, read in chunks: an oversized body is refused as soon as it passes the cap, never held whole)
and the image's declared pixels at ``MAX_PIXELS`` before it is decoded (``bitdoku.photo.header``), so a
decompression bomb costs microseconds. The image is only ever held in memory, never written nor logged.
"""

from __future__ import annotations

import time

from starlette.requests import Request

from bitdoku.errors import MissingExtraError, cell_name
from bitdoku.grid import Grid
from bitdoku.photo import PhotoError, PhotoReading, parse_size, read
from bitdoku.shape import Shape
from bitdoku.warmup.units import search_units
from bitdoku.web.errors import ApiError
from bitdoku.web.limits import Limits
from bitdoku.web.schemas import ErrorBody, PhotoOut

#: The endpoint's path (``app.BodyLimit`` gives it the larger cap).
PATH = "/api/photo"
#: The largest image accepted: a 12-megapixel phone photo is 2-5 MB.
MAX_BYTES = 8 * 1024 * 1024
#: The most pixels an image may declare: a 24-megapixel camera's photo fits, a 50-megapixel "bomb" does not.
MAX_PIXELS = 25_000_000
#: Cells read with less confidence than this are marked for a person to check.
DOUBTFUL = 0.9
#: Content types that cannot hold an image's bytes as the body: a form, or JSON.
_NOT_RAW = ("multipart/", "application/x-www-form-urlencoded", "application/json")


async def body_of(request: Request) -> bytes:
    """The image's bytes, read in chunks and refused past ``MAX_BYTES`` (413 ``too_large``) even where no
    ``BodyLimit`` stands in front; a form or JSON is refused (415) with the way to send an image instead."""
    content_type = request.headers.get("content-type", "").lower()
    if content_type.startswith(_NOT_RAW):
        raise ApiError(415, ErrorBody(kind="bad_request", message="send the image's bytes as the body (Content-Type: "
                                      f"image/jpeg, image/png...), not {content_type.split(';')[0]}"))
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BYTES:
            raise ApiError(413, ErrorBody(kind="too_large", message=f"the image may have at most {MAX_BYTES:,} "
                                          "bytes"))
        chunks.append(chunk)
    return b"".join(chunks)


def needs(data: bytes, limits: Limits) -> tuple[str, ...]:
    """The warm-up units a reading runs: the solver's correction searches the read grid (the 9x9 engine, or the
    other shapes' for a 6x6 or 16x16 screenshot)."""
    return (*search_units(Grid.empty(Shape(3, 3))), *search_units(Grid.empty(Shape(2, 2))))


def reading(data: bytes, limits: Limits, size: int | str = "auto") -> PhotoOut:
    """Read the image (on a worker thread: 0.05-0.4 s of CPU); its problems as 422s whose ``kind`` is the
    ``PhotoError``'s (``not_an_image``, ``empty``, ``truncated``, ``too_large``, ``no_grid``, ``too_small``,
    ``other_size``),
    a server without OpenCV as 501 ``missing_extra``. ``size``: 6, 9, 16 or "auto" (the ``?size=`` query)."""
    start = time.perf_counter()
    try:
        found = read(data, size=size, max_pixels=MAX_PIXELS)
    except PhotoError as error:
        raise ApiError(422, ErrorBody(kind=error.kind.replace("-", "_"), message=str(error))) from None
    except MissingExtraError as error:
        raise ApiError(501, ErrorBody(kind="missing_extra", message=f"this server cannot read photos: {error}")) \
            from None
    return answer(found, time.perf_counter() - start)


def answer(found: PhotoReading, seconds: float) -> PhotoOut:
    """The reading as the API writes it; the size from the grid, so any shape the reader returns goes through."""
    n = found.grid.n
    doubtful = found.doubtful(DOUBTFUL)
    return PhotoOut(
        puzzle=found.to_line(), shape=str(found.grid.shape), size=n, status=found.status.value,
        confidence=[round(value, 3) for value in found.confidence],
        doubtful=list(doubtful), doubtful_names=[cell_name(cell, n) for cell in doubtful],
        corrected=list(found.corrected), corrected_names=[cell_name(cell, n) for cell in found.corrected],
        corners=[[round(x, 1), round(y, 1)] for x, y in found.corners], as_read=found.as_read.to_line(),
        seconds=round(seconds, 6))


def size_of(request: Request) -> int | str:
    """The ``?size=`` of the request: ``auto`` when absent, or 6, 9 or 16; anything else is a 422 ``bad_request``."""
    try:
        return parse_size(request.query_params.get("size", "auto"))
    except ValueError as error:
        raise ApiError(422, ErrorBody(kind="bad_request", message=f"size: {error}")) from None
