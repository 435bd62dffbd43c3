"""The loop every puzzle command shares: read entries, search them (in batches on all cores when the
engine has a batch kernel), show each result in input order, and keep the worst exit code."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice

from bitdoku.batch import solve_many
from bitdoku.cli.console import emit, err_console, flush, warn
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.inputs import Inputs
from bitdoku.cli.options import OutputFormat
from bitdoku.cli.output import error_record, format_seconds, to_json
from bitdoku.engines.registry import get_engine
from bitdoku.engines.result import SearchResult, Status
from bitdoku.formats.reader import Entry
from bitdoku.grid import Grid
from bitdoku.shape import Shape
from bitdoku.solver import search

#: Puzzles read, searched and written per batch: memory stays constant whatever the file's size.
CHUNK_SIZE = 4096

Shower = Callable[[Entry, Grid, SearchResult, "float | None"], ExitCode]


@dataclass(frozen=True)
class Plan:
    """How to search: engine, solution limit, solutions kept, node budget and threads."""

    engine: str
    limit: int
    keep: int = 1
    max_nodes: int | None = None
    threads: int | None = None
    strategy: str = "dfs"
    cluster: str | None = None  # a Dask scheduler address or "local": search files on a cluster


def run_searches(inputs: Inputs, plan: Plan, show: Shower, *, lenient: bool, output: OutputFormat) -> ExitCode:
    """Search every puzzle and ``show`` each result in input order. A bad line stops the run unless
    ``lenient``; then it is reported on stderr and written as an error record, so the output keeps one
    result per puzzle. A file or stream ends with a summary on stderr."""
    worst, tally, start = ExitCode.OK, Counter[str](), time.perf_counter()
    with _progress(enabled=not inputs.single) as advance:
        for entry, result, seconds in _results(inputs, plan):
            if result is None and entry.grid is not None:  # searched nowhere: its chunk failed on the cluster
                warn(f"bitdoku: failed: {entry.error}")
                emit(to_json({**error_record(entry), "status": "failed"}) if output is OutputFormat.json else "failed")
                worst, tally["failed"] = max(worst, ExitCode.CLUSTER_FAILURE), tally["failed"] + 1
            elif result is None:
                if not lenient:
                    raise entry.error  # type: ignore[misc]
                warn(f"bitdoku: skipped: {entry.error}")
                emit(to_json(error_record(entry)) if output is OutputFormat.json else "error")
                worst, tally["bad input"] = max(worst, ExitCode.BAD_INPUT), tally["bad input"] + 1
            else:
                worst = max(worst, show(entry, entry.grid, result, seconds))  # type: ignore[arg-type]
                tally[result.status.value] += 1
            if seconds is not None:  # searched one by one: each result is worth sending at once
                flush()
            advance()
    flush()
    if not inputs.single:
        warn(_summary(tally, time.perf_counter() - start))
    return worst


def _results(inputs: Inputs, plan: Plan) -> Iterator[tuple[Entry, SearchResult | None, float | None]]:
    """(entry, result or None for a bad line, seconds when timed one by one), in input order."""
    engine = get_engine(plan.engine)
    if plan.cluster is not None and not inputs.single:
        from bitdoku.cli.cluster import cluster_results

        yield from cluster_results(inputs.entries, plan, plan.cluster)
        return
    if inputs.single or not engine.batched or plan.strategy != "dfs":
        warm: set[Shape] = set()
        for entry in inputs.entries:
            if entry.grid is None:
                yield entry, None, None
                continue
            if entry.grid.shape not in warm:
                _warm_up(engine.warm_up, entry.grid.shape)
                warm.add(entry.grid.shape)
            start = time.perf_counter()
            result = search(entry.grid, limit=plan.limit, keep=plan.keep, engine=plan.engine, max_nodes=plan.max_nodes,
                            strategy=plan.strategy, threads=plan.threads)
            yield entry, result, time.perf_counter() - start
        return
    while chunk := list(islice(inputs.entries, CHUNK_SIZE)):
        results = _search_chunk(chunk, plan)
        for entry, result in zip(chunk, results, strict=True):
            yield entry, result, None
        flush()


def _warm_up(warm_up: Callable[[Shape], None] | None, shape: Shape) -> None:
    """Compile a JIT engine before timing a puzzle, and say so when that took a while (the first run)."""
    if warm_up is None:
        return
    start = time.perf_counter()
    warm_up(shape)
    seconds = time.perf_counter() - start
    if seconds > 1:
        warn(f"compiled the engine in {format_seconds(seconds)} (first run only: Numba caches it)")


def _search_chunk(chunk: list[Entry], plan: Plan) -> list[SearchResult | None]:
    """Search the good entries of a chunk as one batch per shape."""
    rows_by_shape: dict[Shape, list[int]] = {}
    for index, entry in enumerate(chunk):
        if entry.grid is not None:
            rows_by_shape.setdefault(entry.grid.shape, []).append(index)
    results: list[SearchResult | None] = [None] * len(chunk)
    for shape, rows in rows_by_shape.items():
        batch = solve_many(
            [chunk[i].grid for i in rows],  # type: ignore[misc]
            shape=shape,
            limit=plan.limit,
            threads=plan.threads,
            **({"max_nodes": plan.max_nodes} if plan.max_nodes else {}),
        )
        for row, index in enumerate(rows):
            results[index] = batch.result(row)
    return results


@contextmanager
def _progress(*, enabled: bool) -> Iterator[Callable[[], None]]:
    """A live count of puzzles done on stderr, shown only when stderr is a terminal."""
    console = err_console()
    if not (enabled and console.is_terminal):
        yield lambda: None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = (SpinnerColumn(), TextColumn("{task.completed:,} puzzles"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("solving", total=None)
        yield lambda: progress.advance(task)


def _summary(tally: Counter[str], seconds: float) -> str:
    """``puzzles 1,465: unique 1,465 | 0.09 s, 16,000 puzzles/s``."""
    total = sum(tally.values())
    order = [s.value for s in Status] + ["bad input", "failed"]
    parts = ", ".join(f"{name} {tally[name]:,}" for name in order if tally[name])
    rate = f", {total / seconds:,.0f} puzzles/s" if seconds > 0 and total else ""
    return f"puzzles {total:,}: {parts or 'none'} | {format_seconds(seconds)}{rate}"


def parse_shape(text: str | None) -> Shape | None:
    return Shape.parse(text) if text is not None else None
