"""How a search result is written in each output format, and what exit code it calls for."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.engines.result import SearchResult, Status

if TYPE_CHECKING:
    from bitdoku.grid import Grid
    from bitdoku.reader import Entry

_EXIT_OF_STATUS = {
    Status.NO_SOLUTION: ExitCode.NO_SOLUTION,
    Status.LIMIT: ExitCode.LIMIT,
    Status.INVALID: ExitCode.INVALID_GRID,
}


def exit_code_of(result: SearchResult) -> ExitCode:
    return exit_code_of_status(result.status)


def exit_code_of_status(status: Status) -> ExitCode:
    """The exit code a status calls for: no solution 3, a spent budget 4, an invalid grid 5, else 0."""
    return _EXIT_OF_STATUS.get(status, ExitCode.OK)


def record(entry: Entry, puzzle: Grid, result: SearchResult, seconds: float | None) -> dict[str, object]:
    """The facts of one result, as JSON carries them (``seconds`` only when it was timed on its own)."""
    solution = result.solution
    return {
        "line": entry.line,
        "puzzle": puzzle.to_line(),
        "shape": str(puzzle.shape),
        **_variant_fields(puzzle),
        "status": result.status.value,
        "count": result.count,
        "solution": solution.to_line() if solution is not None else None,
        "nodes": result.stats.nodes,
        "guesses": result.stats.guesses,
        "backtracks": result.stats.backtracks,
        "seconds": round(seconds, 6) if seconds is not None else None,
        "reason": result.reason,
    }


def _variant_fields(puzzle: Grid) -> dict[str, object]:
    """A variant's name, and a jigsaw's region map, for JSON records (nothing for a classic grid)."""
    geometry = puzzle.geometry
    if geometry.is_classic:
        return {}
    regions = {"regions": geometry.region_map()} if geometry.regions is not None else {}
    return {"variant": geometry.name, **regions}


def error_record(entry: Entry) -> dict[str, object]:
    """A bad input line in JSON output, so the output keeps one record per puzzle."""
    error = entry.error
    return {"line": entry.line, "status": "error", "error": str(error), "cell": getattr(error, "cell", None)}


def to_json(fields: dict[str, object]) -> str:
    return json.dumps(fields, separators=(",", ":"))


def describe(result: SearchResult, seconds: float, engine: str) -> str:
    """One sentence for a person: what was found, how long it took, how much searching it needed."""
    what = {
        Status.UNIQUE: "unique solution",
        Status.SOLVED: "solution (uniqueness not checked)",
        Status.MULTIPLE: f"{result.count}+ solutions: the puzzle is not unique",
        Status.NO_SOLUTION: "no solution",
        Status.LIMIT: f"no answer: {result.reason}",
        Status.INVALID: f"invalid grid: {result.reason}",
    }[result.status]
    stats = result.stats
    effort = f"{stats.nodes:,} nodes" + (f", {stats.guesses:,} guesses" if stats.guesses else "")
    return f"{what} in {format_seconds(seconds)} ({effort}, {engine} engine)"


def format_seconds(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"
