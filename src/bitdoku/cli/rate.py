"""``bitdoku rate``: how hard each puzzle is for a person, one line a puzzle."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING, Annotated

import typer

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.options import (
    LEVEL_NAMES,
    LenientOption,
    LogicTimeLimitOption,
    MaxNodesOption,
    MaxStepsOption,
    OutputFileOption,
    PuzzleArgument,
    RegionsOption,
    ResumeOption,
    ShapeOption,
    StepFormat,
    VariantOption,
)

if TYPE_CHECKING:
    from bitdoku.reader import Entry

LEVELS = tuple(name.replace("-", " ") for name in LEVEL_NAMES)

RateFormatOption = Annotated[
    StepFormat, typer.Option("--format", "-f", help="'text': 'level score hardest' a line; 'json': one object a line.")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Same as --format json (with the step histogram).")]


class Scale(str, enum.Enum):
    """The rating scale: Sudoku Explainer's, or the first release's."""

    se = "se"
    bitdoku = "bitdoku"


ScaleOption = Annotated[
    Scale, typer.Option("--scale", help="'se': the Sudoku Explainer scale (default); 'bitdoku': the first release's "
                                        "score.")
]


def rate(
    puzzle: PuzzleArgument = None,
    output: RateFormatOption = StepFormat.text,
    shape: ShapeOption = None,
    variant: VariantOption = None,
    regions: RegionsOption = None,
    lenient: LenientOption = False,
    max_steps: MaxStepsOption = None,
    max_nodes: MaxNodesOption = None,
    output_file: OutputFileOption = None,
    resume: ResumeOption = False,
    scale: ScaleOption = Scale.se,
    json_output: JsonOption = False,
    time_limit: LogicTimeLimitOption = None,
) -> None:
    """Rate puzzles by the hardest technique a person needs: one line 'level score hardest' a puzzle.

    The score is on the Sudoku Explainer scale (--scale se, the default: the hardest step of a simplest-first
    solve, 1.0 to 10.0, where 10.0 means a guess was needed) or the first release's (--scale bitdoku). Levels:
    easy, medium, hard, expert, extreme, beyond logic (a guess was needed); on the SE scale they are bands of
    the score (easy below 2.5, medium below 4.0, hard below 5.6, expert below 7.0, extreme from 7.0). JSON
    records hold the step histogram ('counts': technique -> steps). A histogram of the levels goes to stderr at
    the end. A puzzle whose givens clash or that has no solution gets the line 'invalid'; one that needs more
    than --max-steps steps beyond singles, a guess whose search spends --max-nodes, or more than --time-limit
    seconds, gets 'limit'.
    """
    from bitdoku.cli.inputs import open_inputs
    from bitdoku.cli.runner import parse_shape, results_file, saying_compiles

    inputs = open_inputs(puzzle, parse_shape(shape), variant, regions)
    with results_file(output_file, resume=resume) as done, saying_compiles():
        output = StepFormat.json if json_output else output
        tally, code = _rate_all(islice(inputs.entries, done, None), output, lenient, max_steps, scale.value,
                                max_nodes, time_limit)

    from bitdoku.cli.console import warn

    warn(_histogram(tally))
    raise typer.Exit(code)


def _rate_all(entries: Iterator[Entry], output: StepFormat, lenient: bool,
              max_steps: int | None, scale: str = "se", max_nodes: int | None = None,
              time_limit: float | None = None) -> tuple[Counter[str], ExitCode]:
    """Rate each entry and write its line; the tally of levels and statuses, and the worst exit code."""
    from bitdoku.cli.console import emit, flush, warn
    from bitdoku.cli.output import error_record, to_json
    from bitdoku.errors import InvalidGridError, SearchLimitError, StepLimitError
    from bitdoku.logic.budget import time_budget
    from bitdoku.logic.rating import rate as rate_puzzle

    tally: Counter[str] = Counter()
    code = ExitCode.OK
    for entry in entries:
        if entry.grid is None:
            if not lenient:
                raise entry.error  # type: ignore[misc]
            warn(f"bitdoku: skipped: {entry.error}")
            emit(to_json(error_record(entry)) if output is StepFormat.json else "error")
            tally["error"] += 1
            code = max(code, ExitCode.BAD_INPUT)
            continue
        try:
            with time_budget(time_limit):
                rating = rate_puzzle(entry.grid, max_steps=max_steps, scale=scale, max_nodes=max_nodes)
        except (InvalidGridError, StepLimitError, SearchLimitError) as error:
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
            shown = f"{rating.score:.1f}" if scale == "se" else f"{rating.score:.2f}"
            emit(f"{rating.level} {shown} {rating.hardest}")
        flush()
    return tally, code


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
