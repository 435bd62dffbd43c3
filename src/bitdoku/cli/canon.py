"""``bitdoku canon``: the canonical form (minlex) of each 9x9 puzzle, one line a puzzle."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING

import typer

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.options import (
    LenientOption,
    OutputFileOption,
    PerPuzzleOption,
    PuzzleArgument,
    ResumeOption,
    ThreadsOption,
)

if TYPE_CHECKING:
    from bitdoku.cli.inputs import Inputs
    from bitdoku.errors import ParseError
    from bitdoku.reader import Entry

#: Entries a batch on the per-puzzle path.
CHUNK_SIZE = 4096


def canon(
    puzzle: PuzzleArgument = None,
    threads: ThreadsOption = None,
    lenient: LenientOption = False,
    output_file: OutputFileOption = None,
    resume: ResumeOption = False,
    per_puzzle: PerPuzzleOption = False,
) -> None:
    """Print the canonical form (minlex) of each 9x9 puzzle: one line a puzzle, in input order.

    The canonical form is the smallest of the puzzle's symmetries (transposition, band, row, stack and column
    orders) and digit relabellings, written row by row: two puzzles are the same up to symmetry exactly when
    their forms are equal, so 'bitdoku canon FILE | sort -u' keeps one puzzle of each kind. Files and stdin
    are read in chunks and run on every core. A line that is not a 9x9 puzzle stops the run, or with
    --lenient gets the word 'error' and a warning on stderr.
    """
    from bitdoku.cli.inputs import open_inputs
    from bitdoku.cli.runner import results_file

    inputs = open_inputs(puzzle, None)
    with results_file(output_file, resume=resume) as done:
        if inputs.source is not None and not per_puzzle:
            code = _canonical_chunks(inputs, threads, lenient, done)
        else:
            code = _canonical_entries(inputs, islice(inputs.entries, done, None), threads, lenient)
    raise typer.Exit(code)


def _canonical_chunks(inputs: Inputs, threads: int | None, lenient: bool, skip: int) -> ExitCode:
    """Plain 9x9 lines go through the kernel as arrays and out as one block of bytes; the rest one by one."""
    from bitdoku.cli.console import flush, results
    from bitdoku.generate.canon import canonical_many
    from bitdoku.pipeline.answers import cell_lines
    from bitdoku.pipeline.chunks import PlainChunk, read_chunks

    code = ExitCode.OK
    for chunk in read_chunks(inputs.source, skip=skip):  # type: ignore[arg-type]
        if isinstance(chunk, PlainChunk) and chunk.shape.n == 9:
            results().write(cell_lines(canonical_many(chunk.puzzles, threads=threads)).decode("ascii"))
            flush()
        else:
            entries = chunk.entries() if isinstance(chunk, PlainChunk) else chunk.entries
            code = max(code, _canonical_entries(inputs, iter(entries), threads, lenient))
    return code


def _canonical_entries(inputs: Inputs, entries: Iterator[Entry], threads: int | None, lenient: bool) -> ExitCode:
    from bitdoku.cli.console import emit, flush, warn

    code = ExitCode.OK
    while chunk := list(islice(entries, CHUNK_SIZE)):
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
    return code


def _canonical_lines(chunk: list[Entry], threads: int | None) -> list[str | None]:
    """The canonical form of each 9x9 entry of a chunk as a line, computed as one batch; None for the others."""
    from bitdoku.generate.canon import canonical_many
    from bitdoku.grid import Grid

    good = [(index, entry.grid) for index, entry in enumerate(chunk) if entry.grid is not None and entry.grid.n == 9]
    lines: list[str | None] = [None] * len(chunk)
    if good:
        forms = canonical_many([grid for _, grid in good], threads=threads)
        for (index, grid), form in zip(good, forms, strict=True):
            lines[index] = Grid(form.tobytes(), grid.shape).to_line()
    return lines


def _error_of(entry: Entry, inputs: Inputs) -> ParseError:
    """Why an entry has no canonical form: its parse error, or a grid that is not 9x9."""
    from bitdoku.errors import ParseError, ShapeError

    if entry.grid is None:
        return entry.error or ParseError("unreadable puzzle", source=inputs.name, line=entry.line)
    problem = f"canonical forms are for 9x9 grids, not {entry.grid.shape.size_name}"
    if inputs.single:
        return ShapeError(problem)
    return ShapeError(problem, source=inputs.name, line=entry.line)
