"""Read a puzzle file as chunks: bytes in, uint8 arrays out, for the plain lines that make up big files.

A *plain* line is one puzzle written one character a cell with nothing else on it: N*N characters for N up to
35, each a digit of the grid or a blank. Those are the lines of every big collection, and here they never
become Python objects: a block of the file is split into lines with NumPy (universal newlines, as Python's
text files read them), the plain lines of one length are gathered into a (k, N*N) array, and a 256-entry table
turns characters into cell values in one pass.

Anything else (comments on a puzzle's line, block pictures, integer rows, a bad character, a wrong length)
sends its chunk through ``reader``'s scanner, line by line, so the entries, their line numbers and
their errors are exactly those of ``read_entries``. Comment-only and blank lines are skipped either way.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, cast

import numpy as np
from numpy.typing import NDArray

from bitdoku.errors import ParseError, ShapeError
from bitdoku.formats.block import is_rule_line
from bitdoku.formats.tokens import VALUE_TABLE
from bitdoku.reader import BOM, MAX_LINE_LENGTH, Entry, Scanner
from bitdoku.shape import Shape

#: Bytes read at a time.
BLOCK_BYTES = 1 << 20
#: The most puzzles of one chunk (a batch searched and written at once).
CHUNK_PUZZLES = 16_384
#: The longest plain line: a 35x35 grid.
_LONGEST_PLAIN = 35 * 35

_VALUES = np.frombuffer(VALUE_TABLE, dtype=np.uint8)
_NEWLINE, _RETURN = 10, 13
#: A line this many bytes long is longer than ``MAX_LINE_LENGTH`` characters, whatever it decodes to.
_OVERLONG_BYTES = 4 * MAX_LINE_LENGTH + 4


@dataclass(frozen=True)
class PlainChunk:
    """Plain lines of one shape, in order: their 1-based line numbers and their cells (uint8, (k, N*N))."""

    lines: NDArray[np.int64]
    shape: Shape
    puzzles: NDArray[np.uint8]

    def __len__(self) -> int:
        return len(self.lines)

    def entries(self) -> list[Entry]:
        """The same puzzles as ``Entry`` objects (for the paths that need them, such as JSON output)."""
        from bitdoku.grid import Grid

        return [Entry(int(line), Grid(row.tobytes(), self.shape)) for line, row in zip(self.lines, self.puzzles,
                                                                                       strict=True)]


@dataclass(frozen=True)
class EntryChunk:
    """Entries read line by line by the scanner (a chunk that holds more than plain lines)."""

    entries: list[Entry]

    def __len__(self) -> int:
        return len(self.entries)


Chunk = PlainChunk | EntryChunk


def read_chunks(source: str | Path, *, shape: Shape | str | None = None, skip: int = 0) -> Iterator[Chunk]:
    """The entries of a puzzle file (``'-'`` is stdin) as chunks, in order, in bounded memory.

    Together the chunks hold exactly the entries ``read_entries`` yields, with the same line numbers and
    errors. ``skip`` leaves out the first entries (a resumed run). Raises ``ParseError`` for a file that
    cannot be opened.
    """
    name = "<stdin>" if str(source) == "-" else str(source)
    fixed = Shape.parse(shape) if shape is not None else None
    with _open_binary(source) as stream:
        chunks = _Chunker(name, fixed).chunks(_line_blocks(stream))
        yield from _skipping(chunks, skip)


def prefetched(chunks: Iterator[Chunk], depth: int = 2) -> Iterator[Chunk]:
    """The same chunks, read ahead by a thread of their own (at most ``depth`` waiting), so that reading the
    next chunk overlaps the search of this one: on two threads reading was a fifth of the time otherwise.
    An error in the reader is raised here, in order; stopping early leaves the reader to end with the process.
    """
    waiting: queue.Queue[tuple[str, object]] = queue.Queue(maxsize=depth)

    def read() -> None:
        try:
            for chunk in chunks:
                waiting.put(("chunk", chunk))
            waiting.put(("end", None))
        except BaseException as error:  # handed to the consumer
            waiting.put(("error", error))

    threading.Thread(target=read, daemon=True).start()
    while True:
        kind, item = waiting.get()
        if kind == "end":
            return
        if kind == "error":
            raise item  # type: ignore[misc]
        yield item  # type: ignore[misc]


@contextmanager
def _open_binary(source: str | Path) -> Iterator[BinaryIO]:
    if str(source) == "-":
        yield sys.stdin.buffer
        return
    try:
        stream = open(source, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        raise ParseError(f"cannot read the file: {error.strerror or error}", source=str(source)) from None
    with stream:
        yield stream


def _skipping(chunks: Iterator[Chunk], skip: int) -> Iterator[Chunk]:
    for chunk in chunks:
        if skip >= len(chunk):
            skip -= len(chunk)
            continue
        if skip:
            chunk = (PlainChunk(chunk.lines[skip:], chunk.shape, chunk.puzzles[skip:]) if isinstance(chunk, PlainChunk)
                     else EntryChunk(chunk.entries[skip:]))
            skip = 0
        yield chunk


@dataclass(frozen=True)
class _Lines:
    """A block of whole lines: the bytes, where each line starts and ends (its terminator left out), and the
    1-based number of the first."""

    data: NDArray[np.uint8]
    starts: NDArray[np.int64]
    ends: NDArray[np.int64]
    first: int


def _line_blocks(stream: BinaryIO) -> Iterator[_Lines]:
    """Split a byte stream into blocks of whole lines, ``\n``, ``\r\n`` and a lone ``\r`` all ending a line.

    Memory stays bounded whatever the input: a line that grows past ``_OVERLONG_BYTES`` without an end (so past
    ``MAX_LINE_LENGTH`` characters however it decodes) is handed on cut short, which makes it the overlong
    line's error, and the rest of it is dropped as it arrives.
    """
    rest = b""
    number = 1
    dropping = False  # inside an overlong line already reported
    bom = BOM.encode("utf-8")  # dropped at the start of the stream, as the line reader drops it
    while True:
        block = stream.read(BLOCK_BYTES)
        if bom:
            while len(block) < len(bom) and (more := stream.read(BLOCK_BYTES)):
                block += more
            block, bom = block.removeprefix(bom), b""
            block = block or stream.read(BLOCK_BYTES)  # the BOM was the whole first read
        at_end = not block
        data = np.frombuffer(rest + block, dtype=np.uint8)
        if not len(data):
            return
        ends = _terminators(data, at_end)
        if dropping:
            if not len(ends):
                rest = b""
                if at_end:
                    return
                continue
            data, ends, dropping = data[ends[0] + 1 :], ends[1:] - ends[0] - 1, False
            if not len(data):
                rest = b""
                continue
        if not len(ends) and not at_end:
            if len(data) > _OVERLONG_BYTES:
                yield _Lines(data[:_OVERLONG_BYTES], np.zeros(1, np.int64), np.full(1, _OVERLONG_BYTES), number)
                number, rest, dropping = number + 1, b"", True
            else:
                rest = data.tobytes()
            continue
        stops = ends.copy()
        stops[(ends > 0) & (data[np.maximum(ends - 1, 0)] == _RETURN) & (data[ends] == _NEWLINE)] -= 1
        starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64) if len(ends) else np.zeros(0, np.int64)
        last = int(ends[-1]) + 1 if len(ends) else 0
        if at_end and last < len(data):  # the last line has no terminator
            starts = np.append(starts, last)
            stops = np.append(stops, len(data))
            last = len(data)
        if len(starts):
            yield _Lines(data, starts, stops.astype(np.int64), number)
            number += len(starts)
        rest = data[last:].tobytes()
        if at_end:
            return


def _terminators(data: NDArray[np.uint8], at_end: bool) -> NDArray[np.int64]:
    """Where lines end: each ``\\n``, and each ``\\r`` not followed by ``\\n`` (a ``\\r`` ending the data waits
    for the next block, unless the stream is over)."""
    newline = data == _NEWLINE
    lone_return = data == _RETURN
    lone_return[:-1] &= ~newline[1:]
    if len(data) and data[-1] == _RETURN and not at_end:
        lone_return[-1] = False
    return np.flatnonzero(newline | lone_return)


class _Chunker:
    """Turns blocks of lines into chunks: plain runs as arrays, the rest through the scanner."""

    def __init__(self, name: str, shape: Shape | None) -> None:
        self.name = name
        self.shape = shape
        self.scanner = Scanner(name, shape)

    def chunks(self, blocks: Iterator[_Lines]) -> Iterator[Chunk]:
        for lines in blocks:
            for first in range(0, len(lines.starts), CHUNK_PUZZLES):
                part = _Lines(lines.data, lines.starts[first : first + CHUNK_PUZZLES],
                              lines.ends[first : first + CHUNK_PUZZLES], lines.first + first)
                yield from self._chunks_of(part)
        entries = list(self.scanner.finish())
        if entries:
            yield EntryChunk(entries)

    def _chunks_of(self, lines: _Lines) -> Iterator[Chunk]:
        lengths = lines.ends - lines.starts
        kinds, cells = self._plain_kinds(lines, lengths)
        if not self.scanner.busy and self._only_plain_or_empty(lines, kinds):
            yield from self._plain_runs(lines, lengths, kinds, cells)
            return
        entries = list(self.scanner.feed(self._numbered_texts(lines)))
        if entries:
            yield EntryChunk(entries)

    def _plain_kinds(
        self, lines: _Lines, lengths: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], dict[int, tuple[NDArray[np.intp], NDArray[np.uint8]]]]:
        """For each line, the N of the grid it writes plainly (0: not a plain line); and for each plain length,
        its lines and their cell values (rows, uint8 (k, length))."""
        kinds = np.zeros(len(lengths), dtype=np.int64)
        cells_by_length = {}
        for length in np.unique(lengths).tolist():
            shape = self._plain_shape(length)
            if shape is None:
                continue
            rows = np.flatnonzero(lengths == length)
            cells = _gather(lines.data, lines.starts[rows], length)
            kinds[rows[(cells <= shape.n).all(axis=1)]] = shape.n
            cells_by_length[length] = (rows, cells)
        return kinds, cells_by_length

    def _plain_shape(self, length: int) -> Shape | None:
        """The shape of a plain line of this many characters, if one fits."""
        if length == 0 or length > _LONGEST_PLAIN:
            return None
        if self.shape is not None:
            return self.shape if length == self.shape.n_cells and self.shape.uses_alphabet else None
        try:
            shape = Shape.infer(length)
        except ShapeError:
            return None
        return shape if shape.uses_alphabet else None

    def _only_plain_or_empty(self, lines: _Lines, kinds: NDArray[np.int64]) -> bool:
        """Whether every line that is not plain is blank or a comment (what the scanner skips when idle)."""
        for row in np.flatnonzero(kinds == 0):
            text = self._text(lines, int(row))
            if isinstance(text, ParseError) or (text.strip() and not is_rule_line(text)):
                return False
        return True

    def _plain_runs(self, lines: _Lines, lengths: NDArray[np.int64], kinds: NDArray[np.int64],
                    cells_by_length: dict[int, tuple[NDArray[np.intp], NDArray[np.uint8]]]) -> Iterator[Chunk]:
        """The plain lines as chunks, a new chunk wherever the grid size changes."""
        rows = np.flatnonzero(kinds > 0)
        if not len(rows):
            return
        breaks = np.flatnonzero(np.diff(lengths[rows])) + 1
        for run in np.split(rows, breaks):
            length = int(lengths[run[0]])
            same_length, cells = cells_by_length[length]
            puzzles = cells if len(run) == len(same_length) else cells[np.searchsorted(same_length, run)]
            yield PlainChunk((run + lines.first).astype(np.int64), self._plain_shape(length),  # type: ignore[arg-type]
                             puzzles)

    def _numbered_texts(self, lines: _Lines) -> Iterator[tuple[int, str | ParseError]]:
        for row in range(len(lines.starts)):
            yield lines.first + row, self._text(lines, row)

    def _text(self, lines: _Lines, row: int) -> str | ParseError:
        """One line as ``reader`` sees it: decoded (bad bytes replaced), comment cut, trailing space stripped;
        or the error of a line longer than ``MAX_LINE_LENGTH`` characters."""
        raw = lines.data[lines.starts[row] : lines.ends[row]].tobytes()
        text = raw.decode("utf-8", errors="replace")
        if len(text) >= MAX_LINE_LENGTH:
            number = lines.first + row
            return ParseError(f"line is longer than {MAX_LINE_LENGTH:,} characters", source=self.name, line=number)
        return text.split("#", 1)[0].rstrip()


def _gather(data: NDArray[np.uint8], starts: NDArray[np.int64], length: int) -> NDArray[np.uint8]:
    """The cell values of the lines of ``length`` characters starting at ``starts``, uint8 (k, length).

    Lines of a file of one puzzle a line sit at a constant stride (length + 1, or + 2 with CRLF): then the bytes
    are read through a strided view, without building an index array as big as the data.
    """
    if len(starts) > 1:
        steps = np.diff(starts)
        step = int(steps[0])
        if step >= length and bool((steps == step).all()):
            view = np.lib.stride_tricks.as_strided(data[starts[0] :], shape=(len(starts), length),
                                                   strides=(step * data.strides[0], data.strides[0]), writeable=False)
            return np.take(_VALUES, view)
    # numpy's stubs take an integer array index for a SupportsIndex one (a scalar item: Any)
    return cast("NDArray[np.uint8]", np.take(_VALUES, data[starts[:, None] + np.arange(length)]))
