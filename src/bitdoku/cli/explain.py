"""``bitdoku explain``: the steps a person would take to solve a puzzle, one sentence each."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from bitdoku.cli.options import (
    GuessOption,
    LogicTimeLimitOption,
    MaxStepsOption,
    PuzzleArgument,
    RegionsOption,
    ShapeOption,
    StepFormat,
    StepFormatOption,
    VariantOption,
)

if TYPE_CHECKING:
    from bitdoku.logic.candidates import CandidateGrid
    from bitdoku.shape import Shape


def puzzles_to_explain(argument: str | None, shape: Shape | None, skip: int = 0, variant: str | None = None,
                       regions: str | None = None) -> tuple[Iterator[tuple[int, CandidateGrid]], bool]:
    """The candidate grids named by the PUZZLE argument, each with its line, and whether there is just one.

    Pencil marks (N*N*N characters) are read as such; anything else goes through ``open_inputs`` (with the
    variant's rules, if any). ``skip`` leaves out the first puzzles (a resumed run).
    """
    from itertools import islice

    from bitdoku.cli.inputs import open_inputs
    from bitdoku.formats.pencilmarks import looks_like_pencilmarks
    from bitdoku.logic.candidates import CandidateGrid, as_candidates

    pencilmarks = variant is None and regions is None
    if pencilmarks and argument is not None and argument != "-" and "/" not in argument and looks_like_pencilmarks(
            argument):
        return islice(iter([(1, CandidateGrid.parse(argument, shape))]), skip, None), True
    inputs = open_inputs(argument, shape, variant, regions)

    def grids() -> Iterator[tuple[int, CandidateGrid]]:
        for entry in islice(inputs.entries, skip, None):
            if entry.grid is None:
                raise entry.error  # type: ignore[misc]
            yield entry.line, as_candidates(entry.grid)

    return grids(), inputs.single


def explain(
    puzzle: PuzzleArgument = None,
    output: StepFormatOption = StepFormat.text,
    guess: GuessOption = False,
    shape: ShapeOption = None,
    variant: VariantOption = None,
    regions: RegionsOption = None,
    max_steps: MaxStepsOption = None,
    time_limit: LogicTimeLimitOption = None,
) -> None:
    """Explain how to solve a puzzle: one step a line, each by the easiest technique that applies.

    PUZZLE may also be pencil marks (729 characters for 9x9: each cell's 9 slots hold the digit or '.'). When
    no technique applies, the last line says so (or, with --guess, the solve goes on with marked guesses). A
    puzzle that runs out of --time-limit keeps the steps found so far, then a line 'limit: ...'.
    """
    import typer

    from bitdoku.cli.runner import parse_shape, saying_compiles

    grids, single = puzzles_to_explain(puzzle, parse_shape(shape), variant=variant, regions=regions)
    with saying_compiles():
        code = _explain_all(grids, single, output, guess, max_steps, time_limit)
    raise typer.Exit(code)


def _explain_all(grids: Iterator[tuple[int, CandidateGrid]], single: bool, output: StepFormat, guess: bool,
                 max_steps: int | None, time_limit: float | None) -> int:
    """Explain each grid, its steps as they come; the exit code."""
    from bitdoku.cli.console import emit, flush, warn
    from bitdoku.cli.exit_codes import ExitCode
    from bitdoku.cli.output import to_json
    from bitdoku.errors import TimeLimitError
    from bitdoku.logic.budget import time_budget
    from bitdoku.logic.explain import explain as explain_steps

    code = ExitCode.OK
    for line, state in grids:
        if not single:
            emit(f"# line {line}" if output is StepFormat.text else to_json({"line": line}))
        count = 0
        try:
            with time_budget(time_limit):
                for count, step in enumerate(explain_steps(state, guess=guess, max_steps=max_steps), start=1):
                    emit(step.text if output is StepFormat.text else to_json({"step": count, **step.to_dict()}))
                    flush()
        except TimeLimitError as error:
            emit(f"limit: {error}" if output is StepFormat.text else to_json({"status": "limit", "error": str(error)}))
            flush()
            code = ExitCode.LIMIT
        if single:
            warn(f"{count} step{'s' if count != 1 else ''}")
    return code
