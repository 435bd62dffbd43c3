"""A puzzle as a block picture: N lines of N cells, with optional box lines.

Reads what classic solvers print (``8 . . | . . . | . . .`` with ``------+-------+------`` between bands)
and whitespace-separated integer rows (``5 3 0 0 7 0 0 0 0``, one row a line, as read by the C++ seed
solver). Writes the boxed picture that ``str(grid)`` shows, and integer rows. A jigsaw's boxes are not its
regions, so its picture draws no box lines and shows the region map beside the cells instead.
"""

from __future__ import annotations

from collections.abc import Callable

from bitdoku.errors import ParseError, ShapeError
from bitdoku.formats.line import _shape_for
from bitdoku.formats.tokens import RULE_CHARS, char_of, char_value, token_value
from bitdoku.shape import Shape

_RULE_ONLY = set(RULE_CHARS) | {" ", "\t"}


def parse_block(text: str, shape: Shape | None = None) -> tuple[list[int], Shape]:
    """Read a picture of N rows; return the cell values and the shape.

    Lines made only of box-drawing characters are skipped, unless they are needed as rows (a row of
    ``-`` blanks). Raises ``ParseError`` with the line (counted from 1 within ``text``) and column.
    """
    numbered = [(number, line.rstrip()) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    rows = [(number, line) for number, line in numbered if not is_rule_line(line)]
    if _is_integer_block(rows):
        return _parse_cells(rows, shape, token_cells)
    if len(rows) * len(rows) != _cell_count(rows):
        rows = numbered  # rows of '-' blanks look like box lines: take every line as a row
    return _parse_cells(rows, shape, char_cells)


def is_rule_line(line: str) -> bool:
    return all(ch in _RULE_ONLY for ch in line)


def _cell_count(rows: list[tuple[int, str]]) -> int:
    return sum(len(char_cells(line)) for _, line in rows)


def char_cells(line: str) -> list[tuple[int, str]]:
    """(column, character) of each cell in a row drawn one character a cell."""
    return [(col, ch) for col, ch in enumerate(line, start=1) if not ch.isspace() and ch != "|" and ch != "+"]


def token_cells(line: str) -> list[tuple[int, str]]:
    """(column, token) of each whitespace- or ``|``-separated token of a line (a cell of integer rows, or a
    cell's part of a candidate picture)."""
    cells, start = [], None
    for col, ch in enumerate(line + " ", start=1):
        if ch.isspace() or ch == "|":
            if start is not None:
                cells.append((start, line[start - 1 : col - 1]))
                start = None
        elif start is None:
            start = col
    return cells


def _is_integer_block(rows: list[tuple[int, str]]) -> bool:
    """Integer rows have one token per cell and as many tokens per row as there are rows."""
    token_rows = [token_cells(line) for _, line in rows]
    return any(len(tok) > 1 for row in token_rows for _, tok in row) and all(
        len(row) == len(rows) and all(tok.isdecimal() or tok == "." for _, tok in row) for row in token_rows
    )


def _parse_cells(
    rows: list[tuple[int, str]], shape: Shape | None, split: Callable[[str], list[tuple[int, str]]]
) -> tuple[list[int], Shape]:
    cell_rows = [(number, split(line)) for number, line in rows]
    shape = _shape_for(sum(len(cells) for _, cells in cell_rows), shape)
    n = shape.n
    for row, (number, cells) in enumerate(cell_rows):
        if len(cells) != n:
            raise ShapeError(
                f"row {row + 1} of a {shape.size_name} grid needs {n} cells, found {len(cells)}", line=number
            )
    values = []
    for row, (number, cells) in enumerate(cell_rows):
        for col, (column, text) in enumerate(cells):
            try:
                if split is token_cells:
                    values.append(token_value(text, index=row * n + col, n=n, column=column))
                else:
                    values.append(char_value(text, index=row * n + col, n=n, column=column))
            except ParseError as error:
                raise error.located(line=number) from None
    return values, shape


def format_block(cells: list[int] | bytes, shape: Shape) -> str:
    """The boxed picture of a grid (what ``str(grid)`` prints)."""
    n, width = shape.n, 1 if shape.uses_alphabet else len(str(shape.n))
    cell_text = [_cell_text(v, width, shape) for v in cells]
    band_width = shape.box_cols * (width + 1) - 1
    rule = "-+-".join(["-" * band_width] * (n // shape.box_cols))
    lines = []
    for row in range(n):
        if row and row % shape.box_rows == 0:
            lines.append(rule)
        boxes = [
            " ".join(cell_text[row * n + col : row * n + col + shape.box_cols])
            for col in range(0, n, shape.box_cols)
        ]
        lines.append(" | ".join(boxes))
    return "\n".join(lines)


def format_jigsaw_block(cells: list[int] | bytes, shape: Shape, region_map: str) -> str:
    """The picture of a jigsaw grid: rows of cells without box lines, each with its row of the region map
    beside it (``5 3 . . 7 . . . .    A A A B B B B C C``), since box lines would draw the wrong regions."""
    n, width = shape.n, 1 if shape.uses_alphabet else len(str(shape.n))
    cell_text = [_cell_text(v, width, shape) for v in cells]
    symbols = "".join(region_map.split())
    return "\n".join(
        " ".join(cell_text[row * n : (row + 1) * n]) + "    " + " ".join(symbols[row * n : (row + 1) * n])
        for row in range(n)
    )


def _cell_text(value: int, width: int, shape: Shape) -> str:
    if shape.uses_alphabet:
        return char_of(value)
    return (str(value) if value else ".").rjust(width)


def format_rows(cells: list[int] | bytes, shape: Shape) -> str:
    """Whitespace-separated integer rows, 0 for a blank (the C++ seed solver's input format)."""
    n = shape.n
    return "\n".join(" ".join(str(v) for v in cells[row * n : (row + 1) * n]) for row in range(n))
