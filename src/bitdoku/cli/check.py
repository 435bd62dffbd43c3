"""``bitdoku check``: is each puzzle valid, and does it have exactly one solution?"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.options import (
    DEFAULT_ENGINE_NAME,
    EngineOption,
    FormatOption,
    LenientOption,
    MaxNodesOption,
    OutputFileOption,
    OutputFormat,
    PerPuzzleOption,
    PuzzleArgument,
    RegionsOption,
    ResumeOption,
    ShapeOption,
    ThreadsOption,
    TimeLimitOption,
    VariantOption,
    refuse_fpuzzles,
)

if TYPE_CHECKING:
    from bitdoku.engines.result import SearchResult, Status
    from bitdoku.grid import Grid
    from bitdoku.reader import Entry

_VERDICT = {
    "unique": "valid, unique solution",
    "multiple": "valid, but more than one solution",
    "no-solution": "valid givens, but no solution",
}


def check(
    puzzle: PuzzleArgument = None,
    output: FormatOption = None,
    engine: EngineOption = DEFAULT_ENGINE_NAME,
    max_nodes: MaxNodesOption = None,
    time_limit: TimeLimitOption = None,
    threads: ThreadsOption = None,
    shape: ShapeOption = None,
    variant: VariantOption = None,
    regions: RegionsOption = None,
    lenient: LenientOption = False,
    output_file: OutputFileOption = None,
    resume: ResumeOption = False,
    per_puzzle: PerPuzzleOption = False,
) -> None:
    """Report whether each puzzle is a proper Sudoku: valid givens and exactly one solution.

    One line a puzzle: unique, multiple, no-solution, limit, or invalid with the clashing cells. The exit
    code is 0 only when every puzzle is unique.
    """
    from bitdoku.cli.console import emit
    from bitdoku.cli.inputs import open_inputs
    from bitdoku.cli.output import exit_code_of_status, to_json
    from bitdoku.cli.plan import LineAnswers, Plan
    from bitdoku.cli.runner import parse_shape, results_file, run_searches
    from bitdoku.engines.result import Status
    from bitdoku.pipeline.answers import check_lines

    refuse_fpuzzles(output, "check")
    inputs = open_inputs(puzzle, parse_shape(shape), variant, regions)
    style = output or OutputFormat.line
    if resume and style is OutputFormat.grid:
        raise ValueError("--resume needs one line a puzzle: use --format line or json")

    def show(entry: Entry, grid: Grid, result: SearchResult, seconds: float | None) -> ExitCode:
        if style is OutputFormat.json:
            fields = {"line": entry.line, "puzzle": grid.to_line(), "status": result.status.value}
            emit(to_json({**fields, "givens": grid.givens, "reason": result.reason}))
        elif inputs.single:
            verdict = _VERDICT.get(result.status.value) or f"{result.status}: {result.reason}"
            emit(f"{grid.shape.size_name} grid, {grid.givens} givens: {verdict}")
        else:
            emit(result.status.value + (f": {result.reason}" if result.reason else ""))
        return status_code(result.status)

    def status_code(status: Status) -> ExitCode:
        return ExitCode.NO_SOLUTION if status is Status.MULTIPLE else exit_code_of_status(status)

    plan = Plan(engine.value, limit=2, keep=0, max_nodes=max_nodes, threads=threads, time_limit=time_limit,
                per_puzzle=per_puzzle)
    with results_file(output_file, resume=resume) as done:
        code = run_searches(inputs, plan, show, lenient=lenient, output=style, skip=done,
                            answers=LineAnswers(check_lines, status_code))
    raise typer.Exit(code)
