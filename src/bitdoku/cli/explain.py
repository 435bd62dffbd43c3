"""``bitdoku explain``: the steps a person would take to solve a puzzle, one sentence each."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Annotated, Optional

import typer

from bitdoku.cli.console import emit, flush, warn
from bitdoku.cli.inputs import open_inputs
from bitdoku.cli.options import PuzzleArgument, ShapeOption
from bitdoku.cli.output import to_json
from bitdoku.cli.runner import parse_shape
from bitdoku.formats.pencilmarks import looks_like_pencilmarks
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.explain import explain as explain_steps
from bitdoku.shape import Shape


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
MaxStepsOption = Annotated[
    Optional[int],  # noqa: UP045 - Typer reads this annotation at run time, also on Python 3.10
    typer.Option("--max-steps", min=1, show_default=False,
                 help="Steps beyond singles (guesses included) to take before stopping (default: by size)."),
]


def puzzles_to_explain(argument: str | None, shape: Shape | None) -> tuple[Iterator[tuple[int, CandidateGrid]], bool]:
    """The candidate grids named by the PUZZLE argument, each with its line, and whether there is just one.

    Pencil marks (N*N*N characters) are read as such; anything else goes through ``open_inputs``.
    """
    if argument is not None and argument != "-" and "/" not in argument and looks_like_pencilmarks(argument):
        return iter([(1, CandidateGrid.parse(argument, shape))]), True
    inputs = open_inputs(argument, shape)

    def grids() -> Iterator[tuple[int, CandidateGrid]]:
        for entry in inputs.entries:
            if entry.grid is None:
                raise entry.error  # type: ignore[misc]
            yield entry.line, CandidateGrid.from_grid(entry.grid.validate())

    return grids(), inputs.single


def explain(
    puzzle: PuzzleArgument = None,
    output: StepFormatOption = StepFormat.text,
    guess: GuessOption = False,
    shape: ShapeOption = None,
    max_steps: MaxStepsOption = None,
) -> None:
    """Explain how to solve a puzzle: one step a line, each by the easiest technique that applies.

    PUZZLE may also be pencil marks (729 characters for 9x9: each cell's 9 slots hold the digit or '.'). When
    no technique applies, the last line says so (or, with --guess, the solve goes on with marked guesses).
    """
    grids, single = puzzles_to_explain(puzzle, parse_shape(shape))
    for line, state in grids:
        if not single:
            emit(f"# line {line}" if output is StepFormat.text else to_json({"line": line}))
        count = 0
        for count, step in enumerate(explain_steps(state, guess=guess, max_steps=max_steps), start=1):
            emit(step.text if output is StepFormat.text else to_json({"step": count, **step.to_dict()}))
            flush()
        if single:
            warn(f"{count} step{'s' if count != 1 else ''}")
