"""``bitdoku solve``: solve the demo, one puzzle, or a whole file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.options import (
    DEFAULT_ENGINE_NAME,
    ClusterOption,
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
    Strategy,
    StrategyOption,
    ThreadsOption,
    TimeLimitOption,
    VariantOption,
)

if TYPE_CHECKING:
    from bitdoku.engines.result import SearchResult, Status
    from bitdoku.grid import Grid
    from bitdoku.reader import Entry


def solve(
    puzzle: PuzzleArgument = None,
    output: FormatOption = None,
    engine: EngineOption = DEFAULT_ENGINE_NAME,
    max_nodes: MaxNodesOption = None,
    time_limit: TimeLimitOption = None,
    first: Annotated[bool, typer.Option("--first", help="Stop at a first solution; skip proving uniqueness.")] = False,
    threads: ThreadsOption = None,
    strategy: StrategyOption = Strategy.dfs,
    cluster: ClusterOption = None,
    shape: ShapeOption = None,
    variant: VariantOption = None,
    regions: RegionsOption = None,
    lenient: LenientOption = False,
    output_file: OutputFileOption = None,
    resume: ResumeOption = False,
    per_puzzle: PerPuzzleOption = False,
) -> None:
    """Solve puzzles. With no argument, solve the built-in demo grid and show how long it took.

    A file (or '-' for stdin) is streamed in batches on all cores: one result a line, in input order. A line
    holds the solution, or the status when there is none (no-solution, invalid, limit).
    """
    from bitdoku.cli.console import emit, warn
    from bitdoku.cli.inputs import open_inputs
    from bitdoku.cli.output import describe, exit_code_of, exit_code_of_status, record, to_json
    from bitdoku.cli.plan import LineAnswers, Plan
    from bitdoku.cli.runner import parse_shape, results_file, run_searches
    from bitdoku.pipeline.answers import solution_line, solve_lines

    inputs = open_inputs(puzzle, parse_shape(shape), variant, regions)
    style = output or (OutputFormat.grid if inputs.single else OutputFormat.line)
    if resume and style is OutputFormat.grid:
        raise ValueError("--resume needs one line a puzzle: use --format line or json")

    def show(entry: Entry, grid: Grid, result: SearchResult, seconds: float | None) -> ExitCode:
        solution = result.solution
        if style is OutputFormat.json:
            emit(to_json(record(entry, grid, result, seconds)))
        elif style is OutputFormat.fpuzzles:
            emit(solution.to_fpuzzles() if solution is not None else result.status.value)
        elif style is OutputFormat.grid:
            header = "" if inputs.single else f"# line {entry.line}: {result.status}\n"
            if solution is not None:
                emit(header + solution.to_picture() + "\n")
            elif header:
                emit(header)
        else:
            emit(solution_line(result))
        if inputs.single and seconds is not None:
            warn(describe(result, seconds, engine.value))
        return exit_code_of(result)

    def status_code(status: Status) -> ExitCode:
        return exit_code_of_status(status)

    plan = Plan(engine.value, limit=1 if first else 2, max_nodes=max_nodes, threads=threads, time_limit=time_limit,
                strategy=strategy.value, cluster=cluster, per_puzzle=per_puzzle)
    with results_file(output_file, resume=resume) as done:
        code = run_searches(inputs, plan, show, lenient=lenient, output=style, skip=done,
                            answers=LineAnswers(solve_lines, status_code))
    raise typer.Exit(code)
