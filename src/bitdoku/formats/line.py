"""One puzzle on one line: ``8..........36......7..9.2...`` (81 characters for a 9x9 grid).

Cells are read in row-major order. Up to N = 35 each cell is one character (see ``tokens``); spaces between
cells are ignored. From N = 36 on, or whenever a cell needs two characters, cells are whitespace-separated
integers with 0 for a blank.
"""

from __future__ import annotations

from bitdoku.errors import ParseError, ShapeError
from bitdoku.formats.tokens import (
    char_value,
    fast_char_values,
    format_chars,
    is_binary_char,
    is_token_text,
    token_value,
    unexpected,
)
from bitdoku.shape import Shape


def parse_line(text: str, shape: Shape | None = None) -> tuple[bytes | list[int], Shape]:
    """Read the cells of one puzzle line; return the values (0 = blank) and the shape.

    Raises ``ParseError`` (with the column and the cell) for a character that is not a cell, and
    ``ShapeError`` when the number of cells fits no grid (or not the given shape).
    """
    text = text.strip()
    try:
        return _parse_cells(text, shape)
    except ShapeError:
        _check_is_text(text)
        raise


def _parse_cells(text: str, shape: Shape | None) -> tuple[bytes | list[int], Shape]:
    if is_token_text(text):
        return _parse_tokens(text, shape)
    if " " not in text and "\t" not in text:
        shape = _shape_for(len(text), shape)
        values = fast_char_values(text, shape.n)
        if values is not None:
            return values, shape
    positions = [column for column, ch in enumerate(text, start=1) if not ch.isspace()]
    shape = _shape_for(len(positions), shape)
    cells = [char_value(text[col - 1], index=i, n=shape.n, column=col) for i, col in enumerate(positions)]
    return cells, shape


def _check_is_text(text: str) -> None:
    """A line whose cell count fits no grid may be binary data: then say so, at the first byte that no text
    holds, rather than count its "cells"."""
    for column, ch in enumerate(text, start=1):
        if is_binary_char(ch):
            raise ParseError(unexpected(ch), column=column)


def _parse_tokens(text: str, shape: Shape | None) -> tuple[list[int], Shape]:
    tokens = text.split()
    shape = _shape_for(len(tokens), shape)
    columns = _token_columns(text)
    cells = [token_value(t, index=i, n=shape.n, column=columns[i]) for i, t in enumerate(tokens)]
    return cells, shape


def _token_columns(text: str) -> list[int]:
    """The 1-based column where each whitespace-separated token starts, for error messages."""
    columns, previous = [], " "
    for column, ch in enumerate(text, start=1):
        if not ch.isspace() and previous.isspace():
            columns.append(column)
        previous = ch
    return columns


def _shape_for(n_cells: int, shape: Shape | None) -> Shape:
    """Check a cell count against the given shape, or infer the shape from it."""
    if shape is None:
        return Shape.infer(n_cells)
    if n_cells != shape.n_cells:
        raise ShapeError(f"expected {shape.n_cells} cells for a {shape.size_name} grid, found {n_cells}")
    return shape


def format_line(cells: list[int] | bytes, shape: Shape) -> str:
    """Write a puzzle as one line: characters up to N = 35, space-separated integers above."""
    if shape.uses_alphabet:
        return format_chars(bytes(cells))
    return " ".join(str(v) for v in cells)
