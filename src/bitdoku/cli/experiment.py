"""``bitdoku experiment``: the study's speedup experiment on a puzzle file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bitdoku.cli.options import EXPERIMENT_MODES as MODES

if TYPE_CHECKING:
    from bitdoku.engines.result import SearchResult
    from bitdoku.grid import Grid


def _integers(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise typer.BadParameter(f"give whole numbers separated by commas, like 1,2,4; not {text!r}") from None
    if not values or min(values) < 1:
        raise typer.BadParameter("thread counts are whole numbers of at least 1")
    return values


def _modes(text: str) -> list[str]:
    modes = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [mode for mode in modes if mode not in MODES]
    if unknown or not modes:
        raise typer.BadParameter(f"unknown mode {', '.join(unknown) or '(none)'}; modes are {', '.join(MODES)}")
    return modes


def experiment(
    source: Annotated[Path, typer.Argument(help="Puzzle file: the puzzles solved in every run.", show_default=False)],
    modes: Annotated[str, typer.Option("--modes", "-m", help=f"Comma-separated, from: {','.join(MODES)}.")] = (
        "seq,dfs,mixed,pt_dfs,pt_mix,farm"
    ),
    threads: Annotated[str, typer.Option("--threads", "-j", help="Degrees of parallelism, like 1,2,4.")] = "1,2",
    repeat: Annotated[int, typer.Option("--repeat", "-r", min=1, help="Runs per mode and degree.")] = 3,
    limit: Annotated[int, typer.Option("--limit", "-l", min=1, help="1 solves; a big limit counts all.")] = 1,
    max_nodes: Annotated[int, typer.Option("--max-nodes", min=1, help="Node budget per puzzle and run.")] = 10**9,
    out: Annotated[Path, typer.Option("--out", "-o", help="Prefix of the .csv, .json, .png and .svg files.")] = Path(
        "bitdoku-experiment"
    ),
    cluster: Annotated[str, typer.Option("--cluster", help="Dask scheduler for the dask mode, or 'local'.")] = "local",
    show: Annotated[bool, typer.Option("--print", help="Print each puzzle and its solution (first run).")] = False,
    plot: Annotated[bool, typer.Option("--plot/--no-plot", help="Draw the speedup plot (needs bitdoku[plot]).")] = True,
) -> None:
    """Time every mode at every degree of parallelism on a puzzle file, with speedups against seq.

    Sequential modes (seq, dfs, bfs, mixed) run on one thread; seq is the compiled depth-first search and the
    baseline. pt_dfs, pt_mix and farm run on threads, dask on a Dask cluster with that many workers. Prints a
    table and writes it as CSV and JSON, with the speedup plot as PNG and SVG.
    """
    from bitdoku.cli.console import emit, warn
    from bitdoku.errors import ParseError
    from bitdoku.experiment import format_table, plot_speedups, run_experiment, write_files
    from bitdoku.reader import read_puzzles

    mode_list, degrees = _modes(modes), _integers(threads)
    puzzles = list(read_puzzles(source))
    if not puzzles:
        raise ParseError("no puzzles in the file", source=str(source))
    runner = _runner_for(mode_list, degrees, cluster)

    def print_pair(puzzle: Grid, result: SearchResult) -> None:
        emit(f"{puzzle.to_line()}\n{result.solution.to_picture() if result.solution else result.status}\n")

    with runner as run:
        measurements = run_experiment(puzzles, mode_list, degrees, repeat=repeat, limit=limit, max_nodes=max_nodes,
                                      runner=run, on_result=print_pair if show else None)
    emit(format_table(measurements))
    written = write_files(measurements, out)
    if plot:
        written += plot_speedups(measurements, out, f"{source.name}: speedup over seq")
    warn("wrote " + ", ".join(str(path) for path in written))


def _runner_for(modes: list[str], degrees: list[int], cluster: str):
    """The local runner, or one that also sends the dask mode to a cluster (started and closed here)."""
    from contextlib import nullcontext

    from bitdoku.experiment import local_runner

    if "dask" not in modes:
        return nullcontext(local_runner)
    from bitdoku.experiment import experiment_runner

    return experiment_runner(cluster, max(degrees))
