"""How one cell is written: the digit alphabet, the blank characters and integer tokens.

Up to N = 35 a cell is one character: value v is the v-th character of ``1-9A-Z`` (16x16 uses ``1-9A-G``,
25x25 ``1-9A-P``, as in most public puzzle lists). Bigger grids are written as whitespace-separated integers.
"""

from __future__ import annotations

from bitdoku.errors import ParseError, cell_name

ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BLANKS = ".0-_*"
#: The characters that draw a block picture's box lines; never cells.
RULE_CHARS = "|+-="

_VALUE_OF_CHAR = {ch: value for value, ch in enumerate(ALPHABET, start=1)}
_VALUE_OF_CHAR.update(dict.fromkeys(BLANKS, 0))


#: bytes.translate table: each byte becomes its cell value, or 0xFF when it is no cell (the file pipeline's).
VALUE_TABLE = bytes(_VALUE_OF_CHAR.get(chr(b), 0xFF) for b in range(256))
#: bytes.translate tables for the fast path, one an N: each byte becomes its cell value, or 0xFF when it is no
#: cell of an N x N grid (a digit above N included).
_VALUE_TABLES = [bytes(value if value is not None and value <= n else 0xFF
                       for value in (_VALUE_OF_CHAR.get(chr(b)) for b in range(256)))
                 for n in range(len(ALPHABET) + 1)]


def fast_char_values(text: str, n: int) -> bytes | None:
    """The cell values of a one-character-a-cell line in C-level passes, or ``None`` when any character is not
    a digit of an N x N grid (the slow path then finds it and says where)."""
    if n >= len(_VALUE_TABLES):
        return None
    try:
        raw = text.encode("ascii")
    except UnicodeEncodeError:
        return None
    values = raw.translate(_VALUE_TABLES[n])
    return None if b"\xff" in values else values


def digits_hint(n: int) -> str:
    """Describe the cells an N x N grid accepts, for the end of an error message."""
    if n <= 9:
        return f"digits are 1-{n}, empty cells are '.' or '0'"
    if n <= len(ALPHABET):
        return f"digits are 1-9 and A-{ALPHABET[n - 1]}, empty cells are '.' or '0'"
    return f"digits are the integers 1-{n}, empty cells are 0 or '.'"


def char_value(ch: str, *, index: int, n: int, column: int) -> int:
    """The value of one cell character, or a ParseError that names the character and the cell."""
    value = _VALUE_OF_CHAR.get(ch)
    if value is None:
        raise ParseError(f"{unexpected(ch)}; {digits_hint(n)}", column=column, cell=cell_name(index, n))
    _check_range(value, ch, index=index, n=n, column=column)
    return value


def unexpected(ch: str) -> str:
    """Name a character that is no cell. A file read as UTF-8 holds U+FFFD where its bytes are not UTF-8
    (readers decode with ``errors="replace"``), and control characters such as NUL mean a binary file: both are
    said in words, since their repr tells a person nothing."""
    if ch == "\ufffd":
        return "unexpected bytes that are not UTF-8 (puzzle files are UTF-8 or ASCII text)"
    if is_binary_char(ch):
        return f"unexpected character {ch!r} (a control character: a binary file, not puzzle text?)"
    return f"unexpected character {ch!r}"


def is_binary_char(ch: str) -> bool:
    """Whether a character is one no puzzle text holds: a control character, or bytes that are not UTF-8."""
    return ch == "\ufffd" or ((ord(ch) < 32 or 127 <= ord(ch) < 160) and not ch.isspace())


def token_value(token: str, *, index: int, n: int, column: int | None) -> int:
    """The value of one whitespace-separated integer token (``0`` or ``.`` for a blank)."""
    if token in BLANKS:
        return 0
    if not token.isdecimal():
        raise ParseError(
            f"unexpected cell {token!r}; {digits_hint(n)}", column=column, cell=cell_name(index, n)
        )
    value = int(token)
    _check_range(value, token, index=index, n=n, column=column)
    return value


def _check_range(value: int, text: str, *, index: int, n: int, column: int | None) -> None:
    if value > n:
        raise ParseError(
            f"digit {text!r} ({value}) is out of range for a {n}x{n} grid; {digits_hint(n)}",
            column=column,
            cell=cell_name(index, n),
        )


def is_token_text(text: str) -> bool:
    """Whether a text writes its cells as whitespace-separated tokens rather than one character each."""
    tokens = text.split()
    return len(tokens) > 1 and any(len(t) > 1 for t in tokens) and all(t.isdecimal() or t in BLANKS for t in tokens)


def char_of(value: int) -> str:
    """One cell as a character (``.`` for a blank)."""
    return ALPHABET[value - 1] if value else "."


#: bytes.translate table for writing: cell value v becomes the v-th character of the alphabet, 0 a ``.``.
_CHAR_TABLE = bytes.maketrans(bytes(range(len(ALPHABET) + 1)), b"." + ALPHABET.encode("ascii"))


def format_chars(cells: bytes) -> str:
    """Cells of values 0..35 as one character each, in one C-level pass (``char_of`` for every cell)."""
    return bytes(cells).translate(_CHAR_TABLE).decode("ascii")
