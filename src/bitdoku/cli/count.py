"""``bitdoku count``: how many solutions each puzzle has, up to a limit."""

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
from bitdoku.cli.output import exit_code_of, format_seconds, record, to_json
from bitdoku.cli.runner import parse_shape, run_each
from bitdoku.engines.result import Status
from bitdoku.formats.reader import Entry
from bitdoku.grid import Grid
from bitdoku.solver import search


def count(
    puzzle: PuzzleArgument = None,
    limit: int = typer.Option(1000, "--limit", "-l", min=1, help="Stop counting at this many solutions."),
    output: FormatOption = None,
    engine: EngineOption = DEFAULT_ENGINE_NAME,
    max_nodes: MaxNodesOption = None,
    shape: ShapeOption = None,
    lenient: LenientOption = False,
) -> None:
    """Count the solutions of each puzzle, up to --limit.

    Prints one number a puzzle; a count that reached the limit is written with a '+' (1000+), since there
    may be more. Invalid puzzles and spent budgets print their status instead.
    """
    inputs = open_inputs(puzzle, parse_shape(shape))
    style = OutputFormat.json if output is OutputFormat.json else OutputFormat.line

    def handle(entry: Entry, grid: Grid) -> ExitCode:
        start = perf_counter()
        result = search(grid, limit=limit, keep=0, engine=engine.value, max_nodes=max_nodes)
        seconds = perf_counter() - start
        stopped = result.count >= limit
        if style is OutputFormat.json:
            emit(to_json({**record(entry, grid, result, seconds), "exact": not stopped}))
        elif result.status in (Status.INVALID, Status.LIMIT):
            emit(result.status.value)
        else:
            emit(f"{result.count}{'+' if stopped else ''}")
        if inputs.single:
            more = " or more (the --limit)" if stopped else ""
            noun = "solution" if result.count == 1 else "solutions"
            detail = f"{result.count:,} {noun}{more}"
            if result.status in (Status.INVALID, Status.LIMIT):
                detail = f"{result.status}: {result.reason}"
            warn(f"{detail} in {format_seconds(seconds)} ({result.stats.nodes:,} nodes, {engine.value} engine)")
        counted = result.status.has_solution or result.status is Status.NO_SOLUTION
        return ExitCode.OK if counted else exit_code_of(result)

    raise typer.Exit(run_each(inputs, handle, lenient=lenient, output=style))
