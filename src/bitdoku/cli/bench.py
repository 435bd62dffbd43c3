"""``bitdoku bench``: the solver community's benchmark table for puzzle files."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer


class Mode(str, enum.Enum):
    first = "first"
    unique = "unique"


def bench(
    files: Annotated[list[Path], typer.Argument(help="Puzzle files, one puzzle a line.", show_default=False)],
    mode: Annotated[Mode, typer.Option("--mode", "-m", help="first: a solution; unique: prove it too.")] = Mode.unique,
    threads: Annotated[int, typer.Option("--threads", "-j", min=1, help="Threads (targets are single-thread).")] = 1,
    repeat: Annotated[int, typer.Option("--repeat", "-r", min=1, help="Runs per file; the best time is shown.")] = 3,
    max_nodes: Annotated[
        Optional[int],  # noqa: UP045 - Typer reads this annotation at run time, also on Python 3.10
        typer.Option("--max-nodes", min=1, help="Node budget per puzzle (default: about a minute of search).",
                     show_default=False),
    ] = None,
) -> None:
    """Time the compiled engine on puzzle files and verify every solution.

    Prints a Markdown table: puzzles/s, µs/puzzle, % solved without guessing, guesses and nodes per puzzle,
    outcomes, and the JIT compile or cache-load time, which is measured apart and never in the timings.
    """
    from bitdoku.batch import default_threads
    from bitdoku.benchmark import bench_array, format_table, load
    from bitdoku.cli.console import emit

    rows = []
    for path in files:
        puzzles = load(path)
        row = bench_array(path.name, puzzles, mode=mode.value, threads=threads, repeat=repeat, max_nodes=max_nodes)
        rows.append(row)
    emit(format_table(rows))
    emit(f"\n{default_threads()} cores available; threads used: {threads}")
