"""``bitdoku count``: how many solutions each puzzle has, up to a limit."""

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
    refuse_fpuzzles,
)

if TYPE_CHECKING:
    from bitdoku.engines.result import SearchResult, Status
    from bitdoku.grid import Grid
    from bitdoku.reader import Entry


def count(
    puzzle: PuzzleArgument = None,
    limit: Annotated[int, typer.Option("--limit", "-l", min=1, help="Stop counting at this many solutions.")] = 1000,
    output: FormatOption = None,
    engine: EngineOption = DEFAULT_ENGINE_NAME,
    max_nodes: MaxNodesOption = None,
    time_limit: TimeLimitOption = None,
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
    """Count the solutions of each puzzle, up to --limit.

    Prints one number a puzzle; a count that reached the limit is written with a '+' (1000+), since there
    may be more. Invalid puzzles and spent budgets print their status instead.
    """
    from bitdoku.cli.console import emit, warn
    from bitdoku.cli.inputs import open_inputs
    from bitdoku.cli.output import exit_code_of_status, format_seconds, record, to_json
    from bitdoku.cli.plan import LineAnswers, Plan
    from bitdoku.cli.runner import parse_shape, results_file, run_searches
    from bitdoku.engines.result import Status
    from bitdoku.pipeline.answers import count_lines

    refuse_fpuzzles(output, "count")
    inputs = open_inputs(puzzle, parse_shape(shape), variant, regions)
    style = OutputFormat.json if output is OutputFormat.json else OutputFormat.line

    def show(entry: Entry, grid: Grid, result: SearchResult, seconds: float | None) -> ExitCode:
        stopped = result.count >= limit
        if style is OutputFormat.json:
            emit(to_json({**record(entry, grid, result, seconds), "exact": not stopped}))
        elif result.status in (Status.INVALID, Status.LIMIT):
            emit(result.status.value)
        else:
            emit(f"{result.count}{'+' if stopped else ''}")
        if inputs.single and seconds is not None:
            more = " or more (the --limit)" if stopped else ""
            noun = "solution" if result.count == 1 else "solutions"
            detail = f"{result.count:,} {noun}{more}"
            if result.status in (Status.INVALID, Status.LIMIT):
                detail = f"{result.status}: {result.reason}"
            warn(f"{detail} in {format_seconds(seconds)} ({result.stats.nodes:,} nodes, {engine.value} engine)")
        return status_code(result.status)

    def status_code(status: Status) -> ExitCode:
        counted = status.has_solution or status is Status.NO_SOLUTION
        return ExitCode.OK if counted else exit_code_of_status(status)

    plan = Plan(engine.value, limit=limit, keep=0, max_nodes=max_nodes, threads=threads, time_limit=time_limit,
                strategy=strategy.value, cluster=cluster, per_puzzle=per_puzzle)
    with results_file(output_file, resume=resume) as done:
        code = run_searches(inputs, plan, show, lenient=lenient, output=style, skip=done,
                            answers=LineAnswers(lambda batch: count_lines(batch, limit), status_code))
    raise typer.Exit(code)
