"""Library errors as API errors: a status code and a JSON body that names the problem and the cell.

The fields come from the exceptions' own fields (``ParseError.cell``, ``InvalidGridError.cells``), never from
their text, so the page can highlight the cell without reading sentences.
"""

from __future__ import annotations

from bitdoku.errors import (
    GenerationLimitError,
    InvalidGridError,
    ParseError,
    SearchLimitError,
    ShapeError,
    StepLimitError,
    row_and_column,
)
from bitdoku.web.schemas import ErrorBody


class ApiError(Exception):
    """An answer that is an error: the HTTP status, the body and any headers (``Retry-After``)."""

    def __init__(self, status: int, body: ErrorBody, headers: dict[str, str] | None = None) -> None:
        super().__init__(body.message)
        self.status = status
        self.body = body
        self.headers = headers


def cell_index(name: str | None, n: int | None) -> int | None:
    """``'r4c7'`` -> the 0-based cell index in an N x N grid (None when either is unknown)."""
    found = row_and_column(name or "")
    if found is None or n is None:
        return None
    row, col = found[0] - 1, found[1] - 1
    return row * n + col if 0 <= row < n and 0 <= col < n else None


def api_error(error: Exception, n: int | None) -> ApiError:
    """The API error of a library exception, with cells as indices when the grid's N is known."""
    if isinstance(error, ShapeError):
        return ApiError(422, ErrorBody(kind="shape", message=str(error), line=error.line, column=error.column))
    if isinstance(error, ParseError):
        cell = cell_index(error.cell, n)
        return ApiError(422, ErrorBody(kind="parse", message=str(error), cell=cell, name=error.cell,
                                       cells=[cell] if cell is not None else [], line=error.line, column=error.column))
    if isinstance(error, InvalidGridError):
        cells = [c for c in (cell_index(name, n) for name in error.cells) if c is not None]
        return ApiError(422, ErrorBody(kind="invalid", message=str(error), cell=cells[0] if cells else None,
                                       name=error.cells[0] if error.cells else None, cells=cells))
    if isinstance(error, (SearchLimitError, StepLimitError, GenerationLimitError)):
        return ApiError(422, ErrorBody(kind="limit", message=str(error)))
    if isinstance(error, ValueError):
        return ApiError(422, ErrorBody(kind="bad_request", message=str(error)))
    raise error
