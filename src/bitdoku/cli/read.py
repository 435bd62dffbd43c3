"""``bitdoku read``: the Sudoku in a photo, as a puzzle line, with the cells a person should check.

The puzzle line is the result and goes to stdout alone, so that ``bitdoku read photo.jpg | bitdoku solve -``
works; the picture with its marks, the doubtful cells and the verdict are for the person at the terminal and go
to stderr, as ``solve`` sends its timing there.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from bitdoku.cli.exit_codes import ExitCode

if TYPE_CHECKING:
    from bitdoku.photo import PhotoReading

#: ``PhotoReading.doubtful``'s default, written out so that ``--help`` loads no NumPy (a test checks they agree).
DEFAULT_THRESHOLD = 0.9

ImageArgument = Annotated[
    str, typer.Argument(help="A photo or screenshot of a Sudoku: JPEG, PNG, BMP, WebP or GIF; '-' for stdin.",
                        show_default=False)]
JsonOption = Annotated[bool, typer.Option(
    "--json", help="Print one JSON object: line, size, status, as_read, confidence (per cell), corners, corrected "
    "and doubtful cells.")]
DebugImageOption = Annotated[Optional[str], typer.Option(  # noqa: UP045 - Typer reads this at run time
    "--debug-image", metavar="OUT.png", show_default=False,
    help="Also draw what was found over the image (grid, cell lattice, digits, doubtful cells) into this file.")]
ThresholdOption = Annotated[float, typer.Option(
    "--threshold", min=0.0, max=1.0, help="A cell read with less confidence than this is doubtful.")]
SizeOption = Annotated[str, typer.Option(
    "--size", metavar="auto|6|9|16",
    help="The grid's cells a side; 'auto' (the default) tells it from the image.")]
NoCorrectOption = Annotated[bool, typer.Option(
    "--no-correct", help="Keep the reading as it is: no solver's correction of clashing or ambiguous cells.")]


def read(
    image: ImageArgument,
    json_output: JsonOption = False,
    debug_image: DebugImageOption = None,
    threshold: ThresholdOption = DEFAULT_THRESHOLD,
    no_correct: NoCorrectOption = False,
    size: SizeOption = "auto",
) -> None:
    """Read the Sudoku in a photo: print its puzzle line ('.' for an empty cell), then the cells to check.

    The line goes to stdout; the grid with the doubtful (?) and corrected (*) cells marked, and the verdict, go
    to stderr. Exit codes: 0 the reading has a unique solution, 3 it has none or several, 6 the image cannot
    be read (not an image, damaged, too large, no grid found).
    """
    from bitdoku import photo
    from bitdoku.cli.console import emit, warn
    from bitdoku.cli.output import to_json
    from bitdoku.engines.result import Status

    try:
        told = photo.parse_size(size)
    except ValueError as error:
        raise ValueError(f"--size: {error}") from None
    source = image_from(image)
    reading = photo.read(source, size=told, correct_with_solver=not no_correct)
    if debug_image is not None:
        from bitdoku.photo.debug import draw, save

        save(draw(source, reading, threshold=threshold), debug_image)
    if json_output:
        emit(to_json(reading_record(reading, threshold)))
    else:
        emit(reading.to_line())
        warn(f"{marked_picture(reading, threshold)}\n{doubts(reading, threshold)}\n{verdict(reading)}")
    raise typer.Exit(ExitCode.OK if reading.status is Status.UNIQUE else ExitCode.NO_SOLUTION)


def image_from(argument: str) -> str | bytes:
    """The path as it is, or for ``-`` the bytes of stdin (up to the decoder's file cap, which it then checks)."""
    if argument != "-":
        return argument
    import sys

    from bitdoku.photo.decode import MAX_BYTES

    return sys.stdin.buffer.read(MAX_BYTES + 1)


def reading_record(reading: PhotoReading, threshold: float) -> dict[str, object]:
    """The reading as JSON carries it: cells by name (``r4c7``), confidences to three decimals."""
    from bitdoku.errors import cell_name

    n = reading.grid.shape.n
    return {
        "line": reading.to_line(),
        "size": n,
        "shape": str(reading.grid.shape),
        "status": reading.status.value,
        "as_read": reading.as_read.to_line(),
        "confidence": [round(c, 3) for c in reading.confidence],
        "corners": [[round(x, 1), round(y, 1)] for x, y in reading.corners],
        "corrected": [cell_name(cell, n) for cell in reading.corrected],
        "doubtful": [cell_name(cell, n) for cell in reading.doubtful(threshold)],
        "threshold": threshold,
    }


def marked_picture(reading: PhotoReading, threshold: float) -> str:
    """The grid as ``solve`` prints grids and, beside it, the same boxes with ``?`` on each doubtful cell and
    ``*`` on each corrected one (just the grid when there is nothing to check)."""
    picture = reading.grid.to_picture()
    doubtful, corrected = set(reading.doubtful(threshold)), set(reading.corrected)
    if not doubtful:
        return picture
    marks = iter("*" if cell in corrected else "?" if cell in doubtful else "."
                 for cell in range(reading.grid.shape.n_cells))

    def mark_row(row: str) -> str:
        if set(row) <= set("-+ "):
            return row  # a box rule
        return re.sub(r"[^\s|]+", lambda found: next(marks).rjust(len(found[0])), row)

    return "\n".join(f"{row}    {mark_row(row)}" for row in picture.splitlines())


def doubts(reading: PhotoReading, threshold: float) -> str:
    """One line for a person: the doubtful cells with their confidence, and what the solver changed."""
    from bitdoku.errors import cell_name

    n, line, before = reading.grid.shape.n, reading.to_line(), reading.as_read.to_line()
    corrected = set(reading.corrected)
    unsure = [f"{cell_name(cell, n)} {_symbol(line[cell])} ({reading.confidence[cell] * 100:.0f} %)"
              for cell in reading.doubtful(threshold) if cell not in corrected]
    changed = [f"{cell_name(cell, n)} {_symbol(before[cell])} -> {_symbol(line[cell])}" for cell in reading.corrected]
    found = f"doubtful (below {threshold * 100:g} %): {', '.join(unsure) or 'none'}"
    return found + (f"; corrected by the solver: {', '.join(changed)}" if changed else "")


def verdict(reading: PhotoReading) -> str:
    """What the solver says of the grid as read, and what to do when it is not a proper puzzle."""
    from bitdoku.engines.result import Status

    return {
        Status.UNIQUE: "unique solution",
        Status.MULTIPLE: "several solutions: a digit was probably missed; check the doubtful cells",
        Status.NO_SOLUTION: "no solution: a digit was probably misread; check the doubtful cells",
        Status.INVALID: "invalid grid: a digit repeats in a row, column or box; check the doubtful cells",
    }.get(reading.status, reading.status.value)


def photo_note(reading: PhotoReading, source: str) -> str:
    """The note a solving command prints when its puzzle came from a photo (``bitdoku solve photo.jpg``)."""
    return f"bitdoku: read from the photo {source}: {reading.to_line()}\n{doubts(reading, DEFAULT_THRESHOLD)}"


def _symbol(character: str) -> str:
    return "empty" if character == "." else character
