"""The loop every puzzle command shares: read entries, handle each, keep the worst exit code."""

from __future__ import annotations

from collections.abc import Callable

from bitdoku.cli.console import emit, warn
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.inputs import Inputs
from bitdoku.cli.options import OutputFormat
from bitdoku.cli.output import error_record, to_json
from bitdoku.formats.reader import Entry
from bitdoku.grid import Grid
from bitdoku.shape import Shape

Handler = Callable[[Entry, Grid], ExitCode]


def run_each(inputs: Inputs, handle: Handler, *, lenient: bool, output: OutputFormat) -> ExitCode:
    """Handle every puzzle in order. A bad line stops the run unless ``lenient``; then it is reported on
    stderr and written as an error record, so the output keeps one result per puzzle."""
    worst = ExitCode.OK
    for entry in inputs.entries:
        if entry.error is not None:
            if not lenient:
                raise entry.error
            warn(f"bitdoku: skipped: {entry.error}")
            emit(to_json(error_record(entry)) if output is OutputFormat.json else "error")
            worst = max(worst, ExitCode.BAD_INPUT)
            continue
        assert entry.grid is not None  # read_entries yields a grid or an error
        worst = max(worst, handle(entry, entry.grid))
    return worst


def parse_shape(text: str | None) -> Shape | None:
    return Shape.parse(text) if text is not None else None
