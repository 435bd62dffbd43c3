"""``bitdoku hint``: the next step of a puzzle, found by the easiest technique that applies."""

from __future__ import annotations

import typer

from bitdoku.cli.options import (
    GuessOption,
    LogicTimeLimitOption,
    OutputFileOption,
    PuzzleArgument,
    RegionsOption,
    ResumeOption,
    ShapeOption,
    StepFormat,
    StepFormatOption,
    VariantOption,
)


def hint(
    puzzle: PuzzleArgument = None,
    output: StepFormatOption = StepFormat.text,
    guess: GuessOption = False,
    shape: ShapeOption = None,
    variant: VariantOption = None,
    regions: RegionsOption = None,
    output_file: OutputFileOption = None,
    resume: ResumeOption = False,
    time_limit: LogicTimeLimitOption = None,
) -> None:
    """Show the next step of a puzzle (or of each puzzle of a file), one sentence a puzzle.

    PUZZLE may be pencil marks, so you can ask for the next step from where you are. A solved puzzle prints
    'solved'; one whose step takes longer than --time-limit prints 'limit' (exit code 4).
    """
    from bitdoku.cli.console import emit, flush, warn
    from bitdoku.cli.exit_codes import ExitCode
    from bitdoku.cli.explain import puzzles_to_explain
    from bitdoku.cli.output import to_json
    from bitdoku.cli.runner import parse_shape, results_file, saying_compiles
    from bitdoku.errors import TimeLimitError
    from bitdoku.logic.budget import time_budget
    from bitdoku.logic.explain import hint as next_hint

    code = ExitCode.OK
    with results_file(output_file, resume=resume) as done, saying_compiles():
        grids, _single = puzzles_to_explain(puzzle, parse_shape(shape), skip=done, variant=variant,
                                             regions=regions)
        for line, state in grids:
            try:
                with time_budget(time_limit):
                    step = next_hint(state, guess=guess)
            except TimeLimitError as error:
                warn(f"bitdoku: line {line}: {error}")
                emit(to_json({"line": line, "status": "limit", "error": str(error)}) if output is StepFormat.json
                     else "limit")
                flush()
                code = ExitCode.LIMIT
                continue
            if output is StepFormat.json:
                emit(to_json({"line": line, **(step.to_dict() if step else {"technique": None, "text": "solved"})}))
            else:
                emit(step.text if step else "solved")
            flush()
    raise typer.Exit(code)
