"""Options shared by several commands, declared once so their help reads the same everywhere."""

from __future__ import annotations

import enum
from typing import Annotated, Optional

import typer

from bitdoku.engines.registry import DEFAULT_ENGINE, ENGINES

EngineName = enum.Enum("EngineName", {name: name for name in ENGINES}, type=str)  # type: ignore[misc]


class OutputFormat(str, enum.Enum):
    """How each result is written: one line, a boxed picture, or one JSON object a line."""

    line = "line"
    grid = "grid"
    json = "json"


PuzzleArgument = Annotated[
    Optional[str],  # noqa: UP045 - Typer reads this annotation at run time, also on Python 3.10
    typer.Argument(
        help="A puzzle in quotes, a puzzle file (one a line, '#' comments), or '-' for stdin. "
        "Without it, the built-in demo grid.",
        show_default=False,
    ),
]
FormatOption = Annotated[
    Optional[OutputFormat],  # noqa: UP045
    typer.Option("--format", "-f", help="Output format (default: grid for one puzzle, line for a file)."),
]
EngineOption = Annotated[EngineName, typer.Option("--engine", "-e", help="The search engine.")]
MaxNodesOption = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--max-nodes", min=1, help="Node budget per puzzle; past it the answer is 'limit'.", show_default=False
    ),
]
ShapeOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--shape", help="Box shape as ROWSxCOLS (e.g. 3x2) when the cell count does not say it."),
]
LenientOption = Annotated[
    bool, typer.Option("--lenient", help="Report bad puzzle lines on stderr and go on, instead of stopping.")
]

DEFAULT_ENGINE_NAME = EngineName(DEFAULT_ENGINE)


class Strategy(str, enum.Enum):
    """How one puzzle's tree is searched (see ``bitdoku.search``); the parallel ones use --threads."""

    dfs = "dfs"
    bfs = "bfs"
    mixed = "mixed"
    pt_dfs = "pt_dfs"
    pt_mix = "pt_mix"
    farm = "farm"


StrategyOption = Annotated[
    Strategy,
    typer.Option(
        "--strategy", "-s", help="Tree search: dfs (default), bfs, mixed; on --threads: pt_dfs, pt_mix, farm."
    ),
]
ThreadsOption = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--threads", "-j", min=1, help="Threads for a file of puzzles (default: all cores).", show_default=False
    ),
]
