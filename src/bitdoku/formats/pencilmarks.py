"""Pencil marks as text: the one-line N*N*N-character format and a boxed candidate picture.

The line format is the one HoDoKu and other solvers exchange for 9x9 (729 characters): every cell is N
characters, where position k (0-based) holds the digit k+1 when it is still a candidate and ``.`` when it is
not. A solved cell is written as its single candidate, so the line alone does not tell a given from a cell with
one candidate left. Digits use the bitdoku alphabet ``1-9A-Z``, which covers every N up to 35; ``0``, ``-``
and ``_`` are read as ``.`` too.

The picture draws each cell as a small ``box_rows x box_cols`` block of its candidates, boxes separated by
``|`` and ``-`` rules, as pencil marks are printed on paper (digit d sits at sub-row ``(d-1) // box_cols`` and
sub-column ``(d-1) % box_cols``). For 9x9::

    1.. .2. ..3 | ...
    ... ... ... | ...
    ... ... ... | ...

Masks are plain ints, bit d-1 standing for digit d, one per cell in row-major order.
"""

from __future__ import annotations

from bitdoku.errors import ParseError, ShapeError, cell_name
from bitdoku.formats.block import token_cells
from bitdoku.formats.tokens import ALPHABET, RULE_CHARS
from bitdoku.shape import MAX_DIGITS, MIN_DIGITS, Shape

#: Characters read as "not a candidate" in a digit's slot.
ABSENT = ".0-_"


def parse_pencilmarks(text: str, shape: Shape | None = None) -> tuple[list[int], Shape]:
    """Read pencil marks in the line format (whitespace ignored); return one mask per cell and the shape.

    Raises ``ParseError`` with the column and the cell for a character that does not belong in its slot, and
    ``ShapeError`` when the number of characters is not N*N*N for a grid bitdoku supports.
    """
    positions = [column for column, ch in enumerate(text, start=1) if not ch.isspace()]
    shape = _shape_of_marks(len(positions), shape)
    n = shape.n
    masks = [0] * shape.n_cells
    for index, column in enumerate(positions):
        cell, slot = divmod(index, n)
        ch = text[column - 1].upper()
        if ch == ALPHABET[slot]:
            masks[cell] |= 1 << slot
        elif ch not in ABSENT:
            raise ParseError(
                f"unexpected character {text[column - 1]!r}; position {slot + 1} of a cell holds the digit "
                f"{ALPHABET[slot]!r} when it is a candidate and '.' when it is not",
                column=column,
                cell=cell_name(cell, n),
            )
    return masks, shape


def format_pencilmarks(masks: list[int] | tuple[int, ...], shape: Shape) -> str:
    """Write one mask per cell in the line format (N*N*N characters)."""
    _check_alphabet(shape)
    slots = ALPHABET[: shape.n]
    return "".join(
        "".join(ch if mask >> slot & 1 else "." for slot, ch in enumerate(slots)) for mask in masks
    )


def looks_like_pencilmarks(text: str) -> bool:
    """Whether a text has the N*N*N non-blank characters of the line format for some supported N."""
    count = sum(1 for ch in text if not ch.isspace())
    n: int = round(count ** (1 / 3))  # int ** float is Any in typeshed (a negative base gives a complex)
    return n**3 == count and MIN_DIGITS <= n <= len(ALPHABET)


def format_candidate_picture(masks: list[int] | tuple[int, ...], shape: Shape) -> str:
    """Draw the candidates of every cell as a small block of digits, boxed like ``str(grid)``."""
    _check_alphabet(shape)
    n, rows, cols = shape.n, shape.box_rows, shape.box_cols
    cell_rule = " ".join(["-" * cols] * cols)
    band_rule = "-+-".join([cell_rule] * rows)
    lines = []
    for row in range(n):
        if row and row % rows == 0:
            lines.append(band_rule)
        elif row:
            lines.append(" | ".join([" " * len(cell_rule)] * rows).rstrip())
        for sub_row in range(rows):
            digits = range(sub_row * cols, (sub_row + 1) * cols)
            cells = ["".join(ALPHABET[d] if masks[row * n + col] >> d & 1 else "." for d in digits) for col in range(n)]
            lines.append(" | ".join(" ".join(cells[stack : stack + cols]) for stack in range(0, n, cols)))
    return "\n".join(lines)


def parse_candidate_picture(text: str, shape: Shape | None = None) -> tuple[list[int], Shape]:
    """Read the picture that ``format_candidate_picture`` draws; return one mask per cell and the shape.

    Rule lines and blank lines are skipped; every other line is one sub-row of N cells. Raises ``ParseError``
    (with line, column and cell) for a character out of place and ``ShapeError`` for a picture of the wrong size.
    """
    numbered = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if _is_marks_line(line)]
    tokens_of = [(number, token_cells(line)) for number, line in numbered]
    shape = _shape_of_picture(tokens_of, shape)
    n, rows, cols = shape.n, shape.box_rows, shape.box_cols
    masks = [0] * shape.n_cells
    for index, (number, tokens) in enumerate(tokens_of):
        row, sub_row = divmod(index, rows)
        if len(tokens) != n:
            raise ShapeError(f"each line of a {shape.size_name} candidate picture needs {n} cells, found "
                             f"{len(tokens)}", line=number)
        for col, (column, token) in enumerate(tokens):
            cell = row * n + col
            if len(token) != cols:
                raise ParseError(f"a cell's line in a {shape.size_name} candidate picture has {cols} characters, "
                                 f"not {len(token)} ({token!r})", line=number, column=column, cell=cell_name(cell, n))
            for offset, ch in enumerate(token.upper()):
                digit = sub_row * cols + offset
                if ch == ALPHABET[digit]:
                    masks[cell] |= 1 << digit
                elif ch not in ABSENT:
                    raise ParseError(
                        f"unexpected character {token[offset]!r}; this place holds the digit {ALPHABET[digit]!r} "
                        "or '.'", line=number, column=column + offset, cell=cell_name(cell, n))
    return masks, shape


def _is_marks_line(line: str) -> bool:
    """A line that holds candidates, not only box rules and spaces."""
    return any(not ch.isspace() and ch not in RULE_CHARS for ch in line)


def _shape_of_picture(tokens_of: list[tuple[int, list[tuple[int, str]]]], shape: Shape | None) -> Shape:
    """Infer the shape from the picture: N cells a line, box_cols characters a cell, N*box_rows lines."""
    if shape is None:
        if not tokens_of or not tokens_of[0][1]:
            raise ShapeError("empty candidate picture: there are no cells to read")
        n, cols = len(tokens_of[0][1]), len(tokens_of[0][1][0][1])
        if cols < 2 or n % cols or not MIN_DIGITS <= n <= MAX_DIGITS:
            raise ShapeError(f"a candidate picture line with {n} cells of {cols} characters fits no grid",
                             line=tokens_of[0][0])
        shape = Shape(n // cols, cols)
    expected = shape.n * shape.box_rows
    if len(tokens_of) != expected:
        raise ShapeError(f"a {shape.size_name} candidate picture has {expected} lines of candidates, found "
                         f"{len(tokens_of)}")
    return shape


def _shape_of_marks(count: int, shape: Shape | None) -> Shape:
    """Check a character count against the shape, or infer the shape (the conventional one for N)."""
    if shape is not None:
        if count != shape.n**3:
            raise ShapeError(f"expected {shape.n**3} pencil-mark characters for a {shape.size_name} grid "
                             f"(N*N*N), found {count}")
        return shape
    n = round(count ** (1 / 3)) if count else 0
    if n**3 != count or not MIN_DIGITS <= n <= len(ALPHABET):
        near = max(MIN_DIGITS, min(len(ALPHABET), n))
        raise ShapeError(f"found {count} pencil-mark characters, which fits no grid; a {near}x{near} grid has "
                         f"{near**3} (N characters for each of N*N cells)")
    return Shape.for_digits(n)


def _check_alphabet(shape: Shape) -> None:
    if not shape.uses_alphabet:
        raise ShapeError(f"pencil marks are written one character a digit, which stops at {len(ALPHABET)} digits; "
                         f"a {shape.size_name} grid has {shape.n}")

