"""Turn the PUZZLE | FILE | - argument into a stream of numbered puzzles."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bitdoku.data import DEMO
from bitdoku.errors import ParseError
from bitdoku.formats.reader import Entry, read_entries
from bitdoku.grid import Grid
from bitdoku.shape import Shape


@dataclass(frozen=True)
class Inputs:
    """The puzzles to work on, and whether they came as one puzzle (human output) or a stream (one a line)."""

    entries: Iterator[Entry]
    single: bool
    name: str
    source: str | None = None  # the file's path, or "-" for stdin: what a vectorised reader opens
    shape: Shape | None = None


def open_inputs(argument: str | None, shape: Shape | None) -> Inputs:
    """No argument: the demo. ``-``: stdin. An existing path: that file. Anything else: puzzle text."""
    if argument is None:
        return Inputs(iter([Entry(1, Grid.parse(DEMO))]), single=True, name="demo")
    if argument == "-":
        return Inputs(read_entries("-", shape=shape), single=False, name="<stdin>", source="-", shape=shape)
    if _looks_like_path(argument):
        path = Path(argument)
        if not path.is_file():
            problem = "no such file" if not path.exists() else "not a file"
            raise ParseError(f"{problem}; give a puzzle file, a puzzle in quotes, or '-' for stdin", source=argument)
        return Inputs(read_entries(path, shape=shape), single=False, name=argument, source=argument, shape=shape)
    grid = Grid.parse(argument, shape)
    return Inputs(iter([Entry(1, grid)]), single=True, name="puzzle")


def _looks_like_path(argument: str) -> bool:
    """A path exists, or has the marks of one (a slash or a file suffix); puzzle text has neither."""
    try:
        if Path(argument).exists():
            return True
    except OSError:  # a long puzzle is no valid file name
        return False
    return "/" in argument or "\\" in argument or Path(argument).suffix.lower() in {".txt", ".sdk", ".csv", ".json"}

