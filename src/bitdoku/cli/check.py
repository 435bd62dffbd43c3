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
)
from bitdoku.cli.output import exit_code_of, to_json
from bitdoku.cli.runner import parse_shape, run_each
from bitdoku.engines.result import Status
from bitdoku.formats.reader import Entry
from bitdoku.grid import Grid
from bitdoku.solver import search

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
    shape: ShapeOption = None,
    lenient: LenientOption = False,
) -> None:
    """Report whether each puzzle is a proper Sudoku: valid givens and exactly one solution.

    One line a puzzle: unique, multiple, no-solution, limit, or invalid with the clashing cells. The exit
    code is 0 only when every puzzle is unique.
    """
    inputs = open_inputs(puzzle, parse_shape(shape))

    def handle(entry: Entry, grid: Grid) -> ExitCode:
        result = search(grid, limit=2, keep=0, engine=engine.value, max_nodes=max_nodes)
        if output is OutputFormat.json:
            emit(to_json({"line": entry.line, "puzzle": grid.to_line(), "status": result.status.value,
                          "givens": grid.givens, "reason": result.reason}))
        elif inputs.single:
            verdict = _VERDICT.get(result.status) or result.reason or result.status.value
            emit(f"{grid.shape.size_name} grid, {grid.givens} givens: {verdict}")
        else:
            reason = f": {result.reason}" if result.reason else ""
            emit(f"{result.status.value}{reason}")
        if result.status is Status.MULTIPLE:
            return ExitCode.NO_SOLUTION
        return exit_code_of(result)

    raise typer.Exit(run_each(inputs, handle, lenient=lenient, output=output or OutputFormat.line))
