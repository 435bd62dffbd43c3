"""``bitdoku canon``: the canonical form (minlex) of each 9x9 puzzle, one line a puzzle."""

from __future__ import annotations

from itertools import islice

import typer

from bitdoku.cli.console import emit, flush, warn
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.inputs import Inputs, open_inputs
from bitdoku.cli.options import LenientOption, PuzzleArgument, ThreadsOption
from bitdoku.cli.runner import CHUNK_SIZE
from bitdoku.errors import ParseError, ShapeError
from bitdoku.formats.reader import Entry
from bitdoku.generate.canon import canonical_many
from bitdoku.grid import Grid


def canon(puzzle: PuzzleArgument = None, threads: ThreadsOption = None, lenient: LenientOption = False) -> None:
    """Print the canonical form (minlex) of each 9x9 puzzle: one line a puzzle, in input order.

    The canonical form is the smallest of the puzzle's symmetries (transposition, band, row, stack and column
    orders) and digit relabellings, written row by row: two puzzles are the same up to symmetry exactly when
    their forms are equal, so 'bitdoku canon FILE | sort -u' keeps one puzzle of each kind. Files and stdin
    are read in chunks of 4,096 puzzles and run on every core. A line that is not a 9x9 puzzle stops the run,
    or with --lenient gets the word 'error' and a warning on stderr.
    """
    inputs = open_inputs(puzzle, None)
    code = ExitCode.OK
    while chunk := list(islice(inputs.entries, CHUNK_SIZE)):
        forms = _canonical_lines(chunk, threads)
        for entry, form in zip(chunk, forms, strict=True):
            if form is None:
                error = _error_of(entry, inputs)
                if not lenient:
                    flush()
                    raise error
                warn(f"bitdoku: skipped: {error}")
                emit("error")
                code = ExitCode.BAD_INPUT
            else:
                emit(form)
        flush()
    raise typer.Exit(code)


def _canonical_lines(chunk: list[Entry], threads: int | None) -> list[str | None]:
    """The canonical form of each 9x9 entry of a chunk as a line, computed as one batch; None for the others."""
    good = [(index, entry.grid) for index, entry in enumerate(chunk) if entry.grid is not None and entry.grid.n == 9]
    lines: list[str | None] = [None] * len(chunk)
    if good:
        forms = canonical_many([grid for _, grid in good], threads=threads)
        for (index, grid), form in zip(good, forms, strict=True):
            lines[index] = Grid(form.tobytes(), grid.shape).to_line()
    return lines


def _error_of(entry: Entry, inputs: Inputs) -> ParseError:
    """Why an entry has no canonical form: its parse error, or a grid that is not 9x9."""
    if entry.grid is None:
        return entry.error or ParseError("unreadable puzzle", source=inputs.name, line=entry.line)
    problem = f"canonical forms are for 9x9 grids, not {entry.grid.shape.size_name}"
    if inputs.single:
        return ShapeError(problem)
    return ShapeError(problem, source=inputs.name, line=entry.line)
