"""``bitdoku solve``: solve the demo, one puzzle, or a whole file."""

from __future__ import annotations

from time import perf_counter

import typer

from bitdoku.cli.console import emit, warn
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.inputs import open_inputs
from bitdoku.cli.options import (
    DEFAULT_ENGINE_NAME,
    EngineOption,
    FormatOption,
    LenientOption,
    MaxNodesOption,
    OutputFormat,
    PuzzleArgument,
    ShapeOption,
)
from bitdoku.cli.output import describe, exit_code_of, record, to_json
from bitdoku.cli.runner import parse_shape, run_each
from bitdoku.formats.reader import Entry
from bitdoku.grid import Grid
from bitdoku.solver import search


def solve(
    puzzle: PuzzleArgument = None,
    output: FormatOption = None,
    engine: EngineOption = DEFAULT_ENGINE_NAME,
    max_nodes: MaxNodesOption = None,
    first: bool = typer.Option(False, "--first", help="Stop at the first solution; skip the uniqueness proof."),
    shape: ShapeOption = None,
    lenient: LenientOption = False,
) -> None:
    """Solve puzzles. With no argument, solve the built-in demo grid and show how long it took.

    A file (or '-' for stdin) is streamed: one result a line, in input order, each written as soon as it is
    known. A line holds the solution, or the status when there is none (no-solution, invalid, limit).
    """
    inputs = open_inputs(puzzle, parse_shape(shape))
    style = output or (OutputFormat.grid if inputs.single else OutputFormat.line)

    def handle(entry: Entry, grid: Grid) -> ExitCode:
        start = perf_counter()
        result = search(grid, limit=1 if first else 2, engine=engine.value, max_nodes=max_nodes)
        seconds = perf_counter() - start
        solution = result.solution
        if style is OutputFormat.json:
            emit(to_json(record(entry, grid, result, seconds)))
        elif style is OutputFormat.grid:
            header = "" if inputs.single else f"# line {entry.line}: {result.status}\n"
            if solution is not None:
                emit(header + solution.to_picture() + "\n")
            elif header:
                emit(header)
        else:
            emit(solution.to_line() if solution is not None else result.status.value)
        if inputs.single:
            warn(describe(result, seconds, engine.value))
        return exit_code_of(result)

    raise typer.Exit(run_each(inputs, handle, lenient=lenient, output=style))
