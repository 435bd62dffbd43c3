"""Options shared by several commands, declared once so their help reads the same everywhere.

This module imports nothing heavy (no NumPy, no Numba), so that ``bitdoku --help`` starts at once: the choices
that come from the library (engine names, difficulty levels, symmetries) are written out here, and a test checks
that they match the library's."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer

#: ``bitdoku.ENGINES``' names, the default first.
ENGINE_NAMES = ("bitmask", "reference")
#: ``bitdoku.logic.rating.LEVELS``, written with a hyphen (``beyond-logic``) on the command line.
LEVEL_NAMES = ("easy", "medium", "hard", "expert", "extreme", "beyond-logic")
#: ``bitdoku.generate.Symmetry``'s values.
#: ``bitdoku.experiment.MODES``.
EXPERIMENT_MODES = ("seq", "dfs", "bfs", "mixed", "pt_dfs", "pt_mix", "farm", "dask")
SYMMETRY_NAMES = ("none", "rotational", "quarter-turn", "mirror", "flip", "diagonal", "antidiagonal", "dihedral")

EngineName = enum.Enum("EngineName", {name: name for name in ENGINE_NAMES}, type=str)  # type: ignore[misc]
Difficulty = enum.Enum("Difficulty", {name: name for name in LEVEL_NAMES}, type=str)  # type: ignore[misc]
SymmetryName = enum.Enum("SymmetryName", {name: name for name in SYMMETRY_NAMES}, type=str)  # type: ignore[misc]
NO_SYMMETRY = SymmetryName("none")


class OutputFormat(str, enum.Enum):
    """How each result is written: one line, a boxed picture, one JSON object a line, or an f-puzzles link (a
    solution with ``solve``, a puzzle with ``generate``)."""

    line = "line"
    grid = "grid"
    json = "json"
    fpuzzles = "fpuzzles"


def refuse_fpuzzles(output: OutputFormat | None, command: str) -> None:
    """Raise the usage error of ``--format fpuzzles`` on a command whose answers are not grids."""
    if output is OutputFormat.fpuzzles:
        raise ValueError(f"--format fpuzzles writes grids (solve: the solutions, generate: the puzzles); {command} "
                         "prints verdicts: use line or json")


PuzzleArgument = Annotated[
    Optional[str],  # noqa: UP045 - Typer reads this annotation at run time, also on Python 3.10
    typer.Argument(
        help="A puzzle in quotes, a puzzle file (one a line, '#' comments), an f-puzzles or SudokuPad link, a "
        "photo or screenshot (needs bitdoku[photo]), or '-' for stdin. Without it, the built-in demo grid.",
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
TimeLimitOption = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option(
        "--time-limit", min=0, metavar="SECONDS", show_default=False,
        help="Seconds each puzzle may take (default: none; the node budget still bounds every search); past it "
        "the answer is 'limit' (exit code 4) and the puzzles after it go on.",
    ),
]
ShapeOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--shape", help="Box shape as ROWSxCOLS (e.g. 3x2) when the cell count does not say it."),
]
#: ``bitdoku.geometry.VARIANTS``: the variant names ``--variant`` takes (joined by '+').
VARIANT_NAMES = ("classic", "jigsaw", "killer", "x", "windoku", "anti-knight", "anti-king", "nonconsecutive")
VariantOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--variant", metavar="NAME", show_default=False,
        help=f"Variant rules for every puzzle: {', '.join(VARIANT_NAMES)}, or several joined by '+' "
        "(x+anti-knight). A jigsaw file holds each puzzle on two lines: the puzzle, then its region map; a killer "
        "file one Killer a line, MAP SUMS [GIVENS].",
    ),
]
RegionsOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--regions", metavar="MAP", show_default=False,
        help="One jigsaw region map for every puzzle (N*N letters or digits, N cells each), or @FILE to read it "
        "from a file; then each puzzle is one line. Implies --variant jigsaw.",
    ),
]
LenientOption = Annotated[
    bool, typer.Option("--lenient", help="Report bad puzzle lines on stderr and go on, instead of stopping.")
]

DEFAULT_ENGINE_NAME = EngineName(ENGINE_NAMES[0])


class Strategy(str, enum.Enum):
    """How one puzzle's tree is searched (see ``bitdoku.search``); the parallel ones use --threads."""

    dfs = "dfs"
    bfs = "bfs"
    mixed = "mixed"
    pt_dfs = "pt_dfs"
    pt_mix = "pt_mix"
    farm = "farm"
    portfolio = "portfolio"


StrategyOption = Annotated[
    Strategy,
    typer.Option(
        "--strategy", "-s",
        help="Tree search: dfs (default), bfs, mixed; on --threads: pt_dfs, pt_mix, farm, portfolio.",
    ),
]
ThreadsOption = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--threads", "-j", min=1, help="Threads for a file of puzzles (default: all cores).", show_default=False
    ),
]


class StepFormat(str, enum.Enum):
    """How steps are written: one sentence a line, or one JSON object a line."""

    text = "text"
    json = "json"


StepFormatOption = Annotated[StepFormat, typer.Option("--format", "-f", help="Output format.")]
GuessOption = Annotated[
    bool,
    typer.Option("--guess", help="When no technique applies, guess the solution's digit in a cell with the fewest "
                 "candidates and go on, instead of stopping."),
]
LogicTimeLimitOption = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option(
        "--time-limit", min=0, metavar="SECONDS", show_default=False,
        help="Seconds of human-style solving each puzzle may take (default: none; --max-steps still bounds it); "
        "past it the puzzle's line says 'limit' (exit code 4) and the puzzles after it go on.",
    ),
]
MaxStepsOption = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option("--max-steps", min=1, show_default=False,
                 help="Steps beyond singles (guesses included) to take before stopping (default: by size)."),
]
ClusterOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--cluster",
        metavar="ADDRESS",
        help="Search a file on a Dask cluster: 'local' (or no value) starts a worker process a core here; "
        "tcp://HOST:8786 joins a running 'dask scheduler'. Needs: pip install 'bitdoku[dask]'.",
        show_default=False,
    ),
]
OutputFileOption = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option(
        "--output", "-o", show_default=False, dir_okay=False,
        help="Write the results to this file: flushed as they come, the file appears (by rename) only when "
        "complete; an interrupted run leaves FILE.partial.",
    ),
]
ResumeOption = Annotated[
    bool,
    typer.Option("--resume", help="Go on with the interrupted run whose partial output is FILE.partial (needs -o): "
                 "no line is computed or written twice."),
]
PerPuzzleOption = Annotated[
    bool,
    typer.Option("--per-puzzle", hidden=True, help="Never the vectorised path (for tests that compare the two)."),
]
