"""``bitdoku candidates``: each cell's candidates, the digits its peers leave or, with ``--true``, the digits that
some solution puts there (what setters check to see where a puzzle is not unique yet)."""

from __future__ import annotations

from typing import Annotated

import typer

from bitdoku.cli.options import (
    FormatOption,
    LenientOption,
    MaxNodesOption,
    OutputFormat,
    PuzzleArgument,
    RegionsOption,
    ShapeOption,
    TimeLimitOption,
    VariantOption,
    refuse_fpuzzles,
)

TrueOption = Annotated[bool, typer.Option(
    "--true", help="The true candidates: the digits each cell holds in at least one solution (one search a "
                   "candidate; --max-nodes bounds each, --time-limit each puzzle).")]


def candidates(
    puzzle: PuzzleArgument = None,
    true: TrueOption = False,
    output: FormatOption = None,
    max_nodes: MaxNodesOption = None,
    time_limit: TimeLimitOption = None,
    shape: ShapeOption = None,
    variant: VariantOption = None,
    regions: RegionsOption = None,
    lenient: LenientOption = False,
) -> None:
    """Print the candidates of each cell: a boxed picture for one puzzle, a pencil-mark line (N digits or dots a
    cell) a puzzle for a file.

    With --true, the digits that some solution holds: a cell with one true candidate is settled, and the cells
    with several show where the puzzle has more than one solution. A digit whose search ran out of --max-nodes or
    --time-limit is left out and counted on stderr (exit code 4).
    """
    from bitdoku.cli.console import emit, flush, warn
    from bitdoku.cli.exit_codes import ExitCode
    from bitdoku.cli.inputs import open_inputs
    from bitdoku.cli.output import error_record, to_json
    from bitdoku.cli.runner import parse_shape
    from bitdoku.errors import InvalidGridError
    from bitdoku.formats.pencilmarks import format_candidate_picture, format_pencilmarks
    from bitdoku.solution_digits import true_candidates

    refuse_fpuzzles(output, "candidates")
    inputs = open_inputs(puzzle, parse_shape(shape), variant, regions)
    code = ExitCode.OK
    for entry in inputs.entries:
        if entry.grid is None:
            if not lenient:
                raise entry.error  # type: ignore[misc]
            warn(f"bitdoku: skipped: {entry.error}")
            emit(to_json(error_record(entry)) if output is OutputFormat.json else "error")
            code = max(code, ExitCode.BAD_INPUT)
            continue
        grid = entry.grid
        try:
            if true:
                found = true_candidates(grid, max_nodes=max_nodes, time_limit=time_limit)
                masks, undecided = found.masks, len(found.undecided)
            else:
                grid.validate()
                masks = tuple(1 << (v - 1) if v else grid.candidates_mask(c) for c, v in enumerate(grid.cells))
                undecided = 0
        except InvalidGridError as error:
            if inputs.single:
                raise
            warn(f"bitdoku: line {entry.line}: {error}")
            emit(to_json({"line": entry.line, "status": "invalid", "error": str(error)})
                 if output is OutputFormat.json else "invalid")
            code = max(code, ExitCode.INVALID_GRID)
            continue
        if undecided:
            warn(f"bitdoku: line {entry.line}: {undecided} candidate{'s' if undecided > 1 else ''} left undecided "
                 "when a budget ran out (--max-nodes, --time-limit)")
            code = max(code, ExitCode.LIMIT)
        if output is OutputFormat.json:
            digits = [[d for d in range(1, grid.n + 1) if mask >> (d - 1) & 1] for mask in masks]
            emit(to_json({"line": entry.line, "true": true, "complete": not undecided, "candidates": digits}))
        elif inputs.single:
            emit(format_candidate_picture(masks, grid.shape))
        else:
            emit(format_pencilmarks(masks, grid.shape))
        flush()
    raise typer.Exit(code)
