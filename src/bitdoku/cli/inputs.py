"""Turn the PUZZLE | FILE | - argument into a stream of numbered puzzles."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bitdoku.data import DEMO
from bitdoku.errors import ParseError
from bitdoku.grid import Grid
from bitdoku.reader import Entry, Rules, read_entries
from bitdoku.shape import Shape


@dataclass(frozen=True)
class Inputs:
    """The puzzles to work on, and whether they came as one puzzle (human output) or a stream (one a line)."""

    entries: Iterator[Entry]
    single: bool
    name: str
    source: str | None = None  # the file's path, or "-" for stdin: what a vectorised reader opens
    shape: Shape | None = None
    rules: Rules | None = None  # --variant and --regions: then puzzles are searched one by one


def open_inputs(argument: str | None, shape: Shape | None, variant: str | None = None,
                regions: str | None = None) -> Inputs:
    """No argument: the demo. ``-``: stdin. An image file: the puzzle in the photo. An existing path: that file.
    Anything else: puzzle text.

    ``variant`` and ``regions`` (``--variant``, ``--regions``) put every puzzle under a variant's rules; they
    are checked before anything is read, and a bad one is a usage error naming its option.
    """
    rules = read_rules(variant, regions, shape)
    if argument is None:
        if rules is not None:
            raise ValueError("the demo grid is classic: give a puzzle, a file or '-' with --variant")
        return Inputs(iter([Entry(1, Grid.parse(DEMO))]), single=True, name="demo")
    reading = {"shape": shape, "variant": rules.variant if rules else None, "regions": rules.regions if rules else None}
    if argument == "-":
        return Inputs(read_entries("-", **reading), single=False, name="<stdin>", source="-", shape=shape, rules=rules)
    if is_image_file(argument):
        return Inputs(iter([Entry(1, read_photo(argument, shape, rules))]), single=True, name=argument)
    if _looks_like_path(argument):
        path = Path(argument)
        if not path.is_file():
            problem = "no such file" if not path.exists() else "not a file"
            raise ParseError(f"{problem}; give a puzzle file, a puzzle in quotes, or '-' for stdin", source=argument)
        return Inputs(read_entries(path, **reading), single=False, name=argument, source=argument, shape=shape,
                      rules=rules)
    text = argument.strip()
    if rules is not None and rules.paired and len(text.splitlines()) == 2:
        puzzle, region_line = text.splitlines()
        grid = rules.apply(Grid.parse(puzzle.strip(), shape), region_line)
    elif rules is not None and rules.killer:
        grid = Grid.parse(argument, shape, variant=rules.variant)
    else:
        grid = Grid.parse(argument, shape)
        grid = rules.apply(grid) if rules is not None else grid
    return Inputs(iter([Entry(1, grid)]), single=True, name="puzzle", rules=rules)


def read_rules(variant: str | None, regions: str | None, shape: Shape | None) -> Rules | None:
    """The checked ``--variant`` and ``--regions`` (``@FILE`` read), or None for classic puzzles."""
    if regions is not None and regions.startswith("@"):
        try:
            regions = Path(regions[1:]).read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError(f"--regions {regions}: cannot read the file: {error.strerror or error}") from None
        regions = "".join(line.split("#", 1)[0] for line in regions.splitlines())
    try:
        Rules.of(variant, None, shape)
    except ParseError as error:
        raise ValueError(f"--variant: {error}") from None
    try:
        return Rules.of(variant, regions, shape)
    except ParseError as error:
        raise ValueError(f"--regions: {error}") from None


#: The suffixes of image files: such an argument is read as a photo of a puzzle, not as a puzzle file.
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".gif", ".tif", ".tiff"})
#: The first bytes of the image formats the photo reader decodes (BMP's "BM" is too short to tell).
def is_image_file(argument: str) -> bool:
    """An existing file named as an image, or whose first bytes are an image's the reader knows."""
    from bitdoku.photo.header import image_format

    try:
        path = Path(argument)
        if not path.is_file():
            return False
        if path.suffix.lower() in IMAGE_SUFFIXES:
            return True
        with path.open("rb") as handle:
            head = handle.read(12)
    except (OSError, ValueError):  # a long puzzle is no valid file name; an unreadable file is reported later
        return False
    return image_format(head) is not None


def read_photo(argument: str, shape: Shape | None, rules: Rules | None) -> Grid:
    """The puzzle in a photo, with a note on stderr of what was read and which cells a person should check."""
    from bitdoku.cli.console import warn
    from bitdoku.cli.read import photo_note
    from bitdoku.photo import read

    if rules is not None:
        raise ValueError("a photo is read as a classic Sudoku: --variant and --regions do not apply to it")
    reading = read(argument, shape=shape)
    warn(photo_note(reading, Path(argument).name))
    return reading.grid


def _looks_like_path(argument: str) -> bool:
    """A path exists, or has the marks of one (a slash or a file suffix); puzzle text has neither (an f-puzzles
    or SudokuPad link is a puzzle, slashes and all)."""
    from bitdoku.formats.fpuzzles import is_fpuzzles

    try:
        if Path(argument).exists():
            return True
    except OSError:  # a long puzzle is no valid file name
        return False
    if is_fpuzzles(argument):
        return False
    suffixes = {".txt", ".sdk", ".csv", ".json", *IMAGE_SUFFIXES}
    return "/" in argument or "\\" in argument or Path(argument).suffix.lower() in suffixes

