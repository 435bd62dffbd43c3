"""Stream puzzles from a file, stdin or any text stream, in constant memory.

One puzzle a line is the common case; ``#`` starts a comment and blank lines are skipped. A block picture
(N rows of N cells, box lines allowed) is also recognised, so a file may hold the seed solver's integer rows.
Every error carries the source name and the line number. ``read_entries`` never raises for a bad puzzle:
it yields an ``Entry`` holding the error, which is how a lenient reader reports bad lines and goes on.

Variants (``variant="x"``, see ``bitdoku.geometry``) put every puzzle under the same rules. A jigsaw file holds
each puzzle on two lines, the puzzle and then its region map (N*N symbols; comments and blank lines may sit
between them), unless one region map is given for the whole file (``regions=``), when each puzzle is one line.
A JSON line names its own variant and regions, so it is always one line. A bad region map is reported at its
own line, with the cell where it goes wrong.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO

from bitdoku.errors import ParseError, ShapeError
from bitdoku.formats.block import char_cells, is_rule_line, token_cells
from bitdoku.formats.tokens import is_token_text
from bitdoku.shape import MAX_DIGITS, Shape

if TYPE_CHECKING:
    from bitdoku.geometry import Geometry
    from bitdoku.grid import Grid

#: Longer lines are reported as errors and skipped without being held in memory. A 64x64 puzzle written as
#: integers takes about 12,000 characters, so this leaves a wide margin.
MAX_LINE_LENGTH = 1 << 16

Source = str | Path | TextIO
#: The byte order mark that editors on Windows put at the start of a UTF-8 file: not part of the first line.
BOM = "\ufeff"


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a source: its 1-based first line, and either the grid or the error."""

    line: int
    grid: Grid | None
    error: ParseError | None = None


def rows_by_rules(entries: list[Entry]) -> dict[tuple[Shape, Geometry | None], list[int]]:
    """The indices of the good entries, grouped by shape and rules (None for classic rules): one batch each, as
    a file may mix 9x9 and 16x16 puzzles, variants, or jigsaws of several maps."""
    groups: dict[tuple[Shape, Geometry | None], list[int]] = {}
    killers: dict[Shape, Geometry] = {}  # Killers of one shape make one batch, each row keeping its own cages
    for index, entry in enumerate(entries):
        if entry.grid is not None:
            geometry = entry.grid.geometry
            if geometry.cages:
                geometry = killers.setdefault(entry.grid.shape, geometry)
            groups.setdefault((entry.grid.shape, None if geometry.is_classic else geometry), []).append(index)
    return groups


def read_puzzles(
    source: Source, *, shape: Shape | str | None = None, errors: Literal["raise", "skip"] = "raise",
    variant: str | None = None, regions: str | None = None,
) -> Iterator[Grid]:
    """Yield the grids of a puzzle file (``'-'`` is stdin), one at a time.

    With ``errors="raise"`` the first bad puzzle raises its ``ParseError`` (which names the file and line);
    with ``errors="skip"`` bad puzzles are left out. Use ``read_entries`` to see each error and go on.
    """
    if errors not in ("raise", "skip"):
        raise ValueError(f"errors must be 'raise' or 'skip', not {errors!r}")
    for entry in read_entries(source, shape=shape, variant=variant, regions=regions):
        if entry.grid is not None:
            yield entry.grid
        elif errors == "raise":
            raise entry.error  # type: ignore[misc]


def read_entries(source: Source, *, shape: Shape | str | None = None, variant: str | None = None,
                 regions: str | None = None) -> Iterator[Entry]:
    """Yield an ``Entry`` for every puzzle of a source, good or bad, in order.

    ``variant`` puts every puzzle under a variant's rules; for a jigsaw, ``regions`` is the region map of every
    puzzle, and without it each puzzle is followed by its own region map line. An unknown variant or a bad
    ``regions`` map raises ``ParseError`` before the first entry (they concern the whole source, not one puzzle).
    """
    fixed = Shape.parse(shape) if shape is not None else None
    rules = Rules.of(variant, regions, fixed)
    with _open(source) as (stream, name):
        yield from Scanner(name, fixed, rules).scan(_numbered_lines(stream, name))


@dataclass(frozen=True)
class Rules:
    """The variant a reader puts its puzzles under: a name, and one region map for all (``regions``), or none
    for a jigsaw whose puzzles each bring a region map line (``paired``)."""

    variant: str
    regions: str | None = None

    @classmethod
    def of(cls, variant: str | None, regions: str | None, shape: Shape | None = None) -> Rules | None:
        """Check a variant name and region map once, before any puzzle is read (``None`` for no variant)."""
        from bitdoku.geometry import JIGSAW, KILLER, Geometry

        if variant is None and regions is None:
            return None
        variant = variant if variant is not None else JIGSAW
        words = [word.strip().lower() for word in variant.split("+")]
        if KILLER in words:  # each line brings its cages (MAP SUMS [GIVENS])
            if regions is not None or len(words) > 1:
                raise ParseError(f"killer cages go on a classic grid for now, not with "
                                 f"{'a region map' if regions is not None else repr('+'.join(words))}")
            return cls(KILLER)
        if regions is None and JIGSAW in words:  # each puzzle brings its map: check the other names now
            Geometry.parse("+".join(word for word in words if word != JIGSAW) or None, shape)
        else:
            Geometry.parse(variant, shape, regions)
        return cls(variant, regions)

    @property
    def killer(self) -> bool:
        """Whether each line is a Killer (``MAP SUMS [GIVENS]``, or JSON with cages), read with its own cages."""
        return self.variant == "killer"

    @property
    def paired(self) -> bool:
        """Whether each puzzle is followed by its own region map line."""
        return self.regions is None and "jigsaw" in [word.strip().lower() for word in self.variant.split("+")]

    def apply(self, grid: Grid, regions: str | None = None) -> Grid:
        """The grid under these rules (``regions``: the puzzle's own region map line, for a paired jigsaw)."""
        from bitdoku.geometry import Geometry

        return grid.with_geometry(Geometry.parse(self.variant, grid.shape, regions or self.regions))


@contextmanager
def _open(source: Source) -> Iterator[tuple[TextIO, str]]:
    """Open a path (``'-'`` = stdin) or pass a stream through, with the name errors will show."""
    if isinstance(source, (str, Path)) and str(source) == "-":
        yield sys.stdin, "<stdin>"
    elif isinstance(source, (str, Path)):
        try:
            stream = open(source, encoding="utf-8", errors="replace")  # noqa: SIM115 - closed below
        except OSError as error:
            raise ParseError(f"cannot read the file: {error.strerror or error}", source=str(source)) from None
        with stream:
            yield stream, str(source)
    else:
        yield source, getattr(source, "name", "<input>")


def _numbered_lines(stream: TextIO, name: str) -> Iterator[tuple[int, str | ParseError]]:
    """Yield (line number, text) with comments stripped (and a leading BOM), or a ParseError for an overlong
    line."""
    number = 0
    while True:
        text = stream.readline(MAX_LINE_LENGTH)
        if not text:
            return
        number += 1
        if number == 1:
            text = text.removeprefix(BOM)
        if len(text) >= MAX_LINE_LENGTH and not text.endswith("\n"):
            while (rest := stream.readline(MAX_LINE_LENGTH)) and not rest.endswith("\n"):
                pass
            yield number, ParseError(f"line is longer than {MAX_LINE_LENGTH:,} characters", source=name, line=number)
            continue
        yield number, text.split("#", 1)[0].rstrip()


class Scanner:
    """Turns numbered lines into entries, gathering the rows of block pictures.

    ``scan`` reads a whole source; ``feed`` and ``finish`` read it in parts (``pipeline.chunks`` hands the
    scanner only the chunks that are not plain lines), with ``busy`` telling whether a picture is still open.
    Under ``rules`` every grid gets the variant; a paired jigsaw's puzzle line waits for its region map line.
    """

    def __init__(self, name: str, shape: Shape | None, rules: Rules | None = None) -> None:
        self.name = name
        self.shape = shape
        self.rules = rules
        self.pending: tuple[int, str] | None = None  # a paired jigsaw's puzzle line, waiting for its region map
        self.block: list[str] = []
        self.block_start = 0
        self.block_rows = 0
        self.block_width = 0

    @property
    def busy(self) -> bool:
        """Whether the rows of a block picture, or a jigsaw's region map line, are awaited (the next lines may
        belong to the current puzzle)."""
        return bool(self.block) or self.pending is not None

    def scan(self, lines: Iterator[tuple[int, str | ParseError]]) -> Iterator[Entry]:
        yield from self.feed(lines)
        yield from self.finish()

    def feed(self, lines: Iterator[tuple[int, str | ParseError]]) -> Iterator[Entry]:
        """The entries these lines complete (a picture still open at the end waits for more lines)."""
        for number, text in lines:
            if isinstance(text, ParseError):
                yield from self._flush_partial()
                yield Entry(number, None, text)
            elif self.block:
                yield from self._continue_block(number, text)
            elif self.rules is not None and self.rules.paired and text.strip():
                yield from self._pair(number, text.strip())
            elif self.rules is not None and self.rules.killer and text.strip():
                yield self._parse(number, text.strip())
            elif text.strip() and not is_rule_line(text):
                yield from self._start(number, text)

    def finish(self) -> Iterator[Entry]:
        """The error of a picture or a jigsaw puzzle left open at the end of the source, if any."""
        yield from self._flush_partial()

    def _pair(self, number: int, text: str) -> Iterator[Entry]:
        """A paired jigsaw's line: a puzzle (kept until its region map comes), its region map, or JSON."""
        if self.pending is None:
            if text.startswith("{"):
                yield self._parse(number, text)
            else:
                self.pending = (number, text)
            return
        start, puzzle = self.pending
        self.pending = None
        yield self._parse(start, puzzle, regions=(number, text))

    def _start(self, number: int, text: str) -> Iterator[Entry]:
        width = _row_width(text)
        if self._is_row_width(width):
            self.block, self.block_start, self.block_rows, self.block_width = [text], number, 1, width
            if width == 1:
                yield from self._finish_block()
            return
        yield self._parse(number, text)

    def _continue_block(self, number: int, text: str) -> Iterator[Entry]:
        if not text.strip() or is_rule_line(text):
            self.block.append(text)
            return
        if _row_width(text) != self.block_width:
            yield from self._flush_partial()
            yield from self._start(number, text)
            return
        self.block.append(text)
        self.block_rows += 1
        if self.block_rows == self.block_width:
            yield from self._finish_block()

    def _finish_block(self) -> Iterator[Entry]:
        text, start = "\n".join(self.block), self.block_start
        self.block = []
        yield self._parse(start, text, block=True)

    def _flush_partial(self) -> Iterator[Entry]:
        if self.pending is not None:
            start = self.pending[0]
            problem = "this jigsaw puzzle has no region map line after it (N*N region symbols, one a cell)"
            yield Entry(start, None, ParseError(problem, source=self.name, line=start))
            self.pending = None
        if self.block:
            problem = (
                f"a block picture of a {self.block_width}x{self.block_width} grid needs {self.block_width} rows, "
                f"found {self.block_rows}"
            )
            yield Entry(self.block_start, None, ShapeError(problem, source=self.name, line=self.block_start))
            self.block = []

    def _is_row_width(self, width: int) -> bool:
        """Whether a line with this many cells is one row of a block picture rather than a whole puzzle."""
        if self.shape is not None:
            return width == self.shape.n and width != self.shape.n_cells
        if width * width > MAX_DIGITS * MAX_DIGITS:
            return False
        try:
            Shape.infer(width)
        except ShapeError:
            pass
        else:
            return False
        try:
            Shape.for_digits(width)
        except ShapeError:
            return False
        return True

    def _parse(self, number: int, text: str, *, block: bool = False,
               regions: tuple[int, str] | None = None) -> Entry:
        """The entry of a puzzle's text (and of its region map line): the grid, or the error at its line."""
        from bitdoku.grid import Grid

        killer = self.rules is not None and self.rules.killer
        try:
            grid = Grid.parse(text if block else text.strip(), self.shape, "killer" if killer else None)
        except ParseError as error:
            line = number + (error.line - 1 if block and error.line else 0)
            return Entry(number, None, error.located(source=self.name, line=line))
        if self.rules is None or killer or (text.startswith("{") and not grid.geometry.is_classic):
            return Entry(number, grid)  # a JSON puzzle that names its variant keeps it
        try:
            return Entry(number, self.rules.apply(grid, regions[1] if regions else None))
        except ParseError as error:
            return Entry(number, None, error.located(source=self.name, line=regions[0] if regions else number))


def _row_width(text: str) -> int:
    """How many cells a line holds, read as integers or as one character a cell."""
    if " " not in text and "\t" not in text and "|" not in text and "+" not in text:
        return len(text)  # the common case, one puzzle a line: every character is a cell
    if is_token_text(text.replace("|", " ")):
        return len(token_cells(text))
    return len(char_cells(text))
