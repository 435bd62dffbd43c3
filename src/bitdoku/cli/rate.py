"""``bitdoku rate``: how hard each puzzle is for a person, one line a puzzle."""

from __future__ import annotations

from collections import Counter
from typing import Annotated

import typer

from bitdoku.cli.console import emit, flush, warn
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.explain import MaxStepsOption, StepFormat
from bitdoku.cli.inputs import open_inputs
from bitdoku.cli.options import LenientOption, PuzzleArgument, ShapeOption
from bitdoku.cli.output import error_record, to_json
from bitdoku.cli.runner import parse_shape
from bitdoku.errors import InvalidGridError, StepLimitError
from bitdoku.logic.rating import LEVELS
from bitdoku.logic.rating import rate as rate_puzzle

RateFormatOption = Annotated[
    StepFormat, typer.Option("--format", "-f", help="'text': 'level score hardest' a line; 'json': one object a line.")
]


def rate(
    puzzle: PuzzleArgument = None,
    output: RateFormatOption = StepFormat.text,
    shape: ShapeOption = None,
    lenient: LenientOption = False,
    max_steps: MaxStepsOption = None,
) -> None:
    """Rate puzzles by the hardest technique a person needs: one line 'level score hardest' a puzzle.

    Levels: easy, medium, hard, expert, extreme, beyond logic (a guess was needed). A histogram of the levels
    goes to stderr at the end. A puzzle whose givens clash or that has no solution gets the line 'invalid';
    one that needs more than --max-steps steps beyond singles gets 'limit'.
    """
    inputs = open_inputs(puzzle, parse_shape(shape))
    tally: Counter[str] = Counter()
    code = ExitCode.OK
    for entry in inputs.entries:
        if entry.grid is None:
            if not lenient:
                raise entry.error  # type: ignore[misc]
            warn(f"bitdoku: skipped: {entry.error}")
            emit(to_json(error_record(entry)) if output is StepFormat.json else "error")
            tally["error"] += 1
            code = max(code, ExitCode.BAD_INPUT)
            continue
        try:
            rating = rate_puzzle(entry.grid, max_steps=max_steps)
        except (InvalidGridError, StepLimitError) as error:
            status = "invalid" if isinstance(error, InvalidGridError) else "limit"
            tally[status] += 1
            code = max(code, ExitCode.INVALID_GRID if status == "invalid" else ExitCode.LIMIT)
            if output is StepFormat.json:
                emit(to_json({"line": entry.line, "puzzle": entry.grid.to_line(), "status": status,
                              "error": str(error)}))
            else:
                emit(status)
            flush()
            continue
        tally[rating.level] += 1
        if output is StepFormat.json:
            emit(to_json({"line": entry.line, "puzzle": entry.grid.to_line(), **rating.to_dict()}))
        else:
            emit(f"{rating.level} {rating.score:.2f} {rating.hardest}")
        flush()
    warn(_histogram(tally))
    raise typer.Exit(code)


def _histogram(tally: Counter[str]) -> str:
    """One line per level, with a bar: how the puzzles spread over the levels."""
    total = sum(tally.values()) or 1
    width = max(len(level) for level in (*LEVELS, "invalid", "limit", "error"))
    lines = []
    for level in (*LEVELS, "invalid", "limit", "error"):
        if tally[level] or level in LEVELS:
            share = tally[level] / total
            lines.append(f"{level:<{width}} {tally[level]:>7,} {share:6.1%} {'#' * round(40 * share)}")
    return "\n".join(lines)
