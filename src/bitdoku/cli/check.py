"""``bitdoku check``: is each puzzle valid, and does it have exactly one solution?"""

from __future__ import annotations

import typer

from bitdoku.cli.console import emit
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
    ThreadsOption,
)
from bitdoku.cli.output import exit_code_of, to_json
from bitdoku.cli.runner import Plan, parse_shape, run_searches
from bitdoku.engines.result import SearchResult, Status
from bitdoku.formats.reader import Entry
from bitdoku.grid import Grid

_VERDICT = {
    Status.UNIQUE: "valid, unique solution",
    Status.MULTIPLE: "valid, but more than one solution",
    Status.NO_SOLUTION: "valid givens, but no solution",
}


def check(
    puzzle: PuzzleArgument = None,
    output: FormatOption = None,
    engine: EngineOption = DEFAULT_ENGINE_NAME,
    max_nodes: MaxNodesOption = None,
    threads: ThreadsOption = None,
    shape: ShapeOption = None,
    lenient: LenientOption = False,
) -> None:
    """Report whether each puzzle is a proper Sudoku: valid givens and exactly one solution.

    One line a puzzle: unique, multiple, no-solution, limit, or invalid with the clashing cells. The exit
    code is 0 only when every puzzle is unique.
    """
    inputs = open_inputs(puzzle, parse_shape(shape))

    def show(entry: Entry, grid: Grid, result: SearchResult, seconds: float | None) -> ExitCode:
        if output is OutputFormat.json:
            fields = {"line": entry.line, "puzzle": grid.to_line(), "status": result.status.value}
            emit(to_json({**fields, "givens": grid.givens, "reason": result.reason}))
        elif inputs.single:
            verdict = _VERDICT.get(result.status) or f"{result.status}: {result.reason}"
            emit(f"{grid.shape.size_name} grid, {grid.givens} givens: {verdict}")
        else:
            emit(result.status.value + (f": {result.reason}" if result.reason else ""))
        return ExitCode.NO_SOLUTION if result.status is Status.MULTIPLE else exit_code_of(result)

    plan = Plan(engine.value, limit=2, keep=0, max_nodes=max_nodes, threads=threads)
    raise typer.Exit(run_searches(inputs, plan, show, lenient=lenient, output=output or OutputFormat.line))
