"""The loop every puzzle command shares: read entries, search them (in batches on all cores when the
engine has a batch kernel), show each result in input order, and keep the worst exit code.

A file in the line format takes the vectorised path of ``bitdoku.pipeline``: chunks of plain lines as arrays,
searched by the batch kernels and answered as one block of bytes (each command gives its ``LineAnswers``).
JSON and pictures, single puzzles, other engines, strategies and clusters take the per-puzzle path, which
``--per-puzzle`` also forces (the tests compare the two byte for byte). Variant puzzles (``--variant``, or JSON
lines that name a variant) take the per-puzzle path's chunks too: each chunk is searched as one batch per shape
and rules (``bitdoku.batch.solve_many`` with the variant's kernel; a jigsaw's rules include its region map).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from bitdoku.cli.console import emit, err_console, flush, results, results_to, stderr_is_terminal, warn
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.options import OutputFormat
from bitdoku.cli.output import error_record, format_seconds, to_json
from bitdoku.cli.plan import LineAnswers, Plan

if TYPE_CHECKING:
    from bitdoku.cli.inputs import Inputs
    from bitdoku.engines.registry import Engine
    from bitdoku.engines.result import SearchResult
    from bitdoku.geometry import Geometry
    from bitdoku.grid import Grid
    from bitdoku.pipeline.chunks import Chunk
    from bitdoku.reader import Entry, Rules
    from bitdoku.shape import Shape

#: Puzzles read, searched and written per batch on the per-puzzle path: memory stays constant.
CHUNK_SIZE = 4096

Shower = Callable[["Entry", "Grid", "SearchResult", "float | None"], ExitCode]


def run_searches(inputs: Inputs, plan: Plan, show: Shower, *, lenient: bool, output: OutputFormat,
                 answers: LineAnswers | None = None, skip: int = 0) -> ExitCode:
    """Search every puzzle and ``show`` each result in input order. A bad line stops the run unless
    ``lenient``; then it is reported on stderr and written as an error record, so the output keeps one
    result per puzzle. A file or stream ends with a summary on stderr. ``skip`` leaves out the first entries
    (a resumed run); ``answers`` enables the vectorised path for the line format."""
    run = _Run(time.perf_counter())
    with _progress(enabled=not inputs.single) as advance:
        if answers is not None and output is OutputFormat.line and _vectorisable(inputs, plan):
            _answer_chunks(inputs, plan, answers, show, run, advance, lenient=lenient, skip=skip)
        else:
            _answer_each(inputs, plan, show, run, advance, lenient=lenient, output=output, skip=skip)
    flush()
    if not inputs.single:
        warn(_summary(run.tally, time.perf_counter() - run.start))
    return run.worst


@dataclass
class _Run:
    """What a run has seen so far: when it started, each status's count, the worst exit code."""

    start: float
    tally: Counter[str] = field(default_factory=Counter)
    worst: ExitCode = ExitCode.OK

    def saw(self, what: str, code: ExitCode, count: int = 1) -> None:
        self.tally[what] += count
        self.worst = max(self.worst, code)


def _vectorisable(inputs: Inputs, plan: Plan) -> bool:
    from bitdoku.engines.registry import get_engine

    # a jigsaw whose lines bring their own maps, or Killers their cages: no
    one_rules = inputs.rules is None or not (inputs.rules.paired or inputs.rules.killer)
    return (inputs.source is not None and one_rules and not plan.per_puzzle and plan.strategy == "dfs"
            and plan.cluster is None and get_engine(plan.engine).batched)


def _answer_chunks(inputs: Inputs, plan: Plan, answers: LineAnswers, show: Shower, run: _Run,
                   advance: Callable[[int], None], *, lenient: bool, skip: int) -> None:
    """The vectorised path: chunks of the file as arrays, each answered as one block of bytes. With
    ``--variant``, plain lines are searched under its rules; a chunk that holds JSON lines naming a variant (or,
    with ``--variant``, any line the fast reader leaves to the line reader) goes through ``show`` instead, each
    entry under its own rules as the per-puzzle path reads them (``_under_rules``)."""
    from dataclasses import replace

    from bitdoku.pipeline.chunks import EntryChunk, prefetched, read_chunks
    from bitdoku.pipeline.files import Search, answer_chunk

    rules = inputs.rules
    search = Search(plan.limit, plan.max_nodes, plan.threads, plan.time_limit, rules and rules.variant,
                    rules and rules.regions)
    for chunk in prefetched(read_chunks(inputs.source, shape=inputs.shape, skip=skip)):  # type: ignore[arg-type]
        if rules is not None:
            chunk = _under_rules(chunk, rules, inputs.name)
        if isinstance(chunk, EntryChunk) and any(_is_variant(entry) for entry in chunk.entries):
            each = replace(inputs, entries=iter(chunk.entries), single=False)
            _answer_each(each, plan, show, run, advance, lenient=lenient, output=OutputFormat.line, skip=0)
            continue
        _say_if_chunk_compiles(chunk, rules, plan)
        answered = answer_chunk(chunk, search, answers.lines, stop_at_bad=not lenient)
        for entry in answered.bad:
            warn(f"bitdoku: skipped: {entry.error}")
            run.saw("bad input", ExitCode.BAD_INPUT)
        results().write(answered.text.decode("utf-8"))
        flush()
        for status, count in answered.statuses.items():
            run.saw(status.value, answers.exit_code(status), count)
        advance(len(chunk))
        if answered.stopped is not None:
            raise answered.stopped.error  # type: ignore[misc]


def _say_if_chunk_compiles(chunk: Chunk, rules: Rules | None, plan: Plan) -> None:
    """Before the vectorised path searches a chunk: ``say_if_compiling`` for the batch kernel of each of its
    shapes under the run's rules (a first file run compiles for 6-14 s on a cold cache)."""
    from bitdoku.engines.registry import get_engine
    from bitdoku.errors import ParseError
    from bitdoku.geometry import Geometry
    from bitdoku.pipeline.chunks import PlainChunk

    if isinstance(chunk, PlainChunk):
        shapes = {chunk.shape}
    else:
        shapes = {entry.grid.shape for entry in chunk.entries if entry.grid is not None}
    engine = get_engine(plan.engine)
    for shape in shapes:
        try:
            geometry = None if rules is None else Geometry.parse(rules.variant, shape, rules.regions)
        except ParseError:
            continue  # lines the rules do not fit are bad at their line, never searched
        _say_if_batch_compiles(engine, shape, geometry, plan.limit)


def _under_rules(chunk: Chunk, rules: Rules, name: str) -> Chunk:
    """The chunk under ``--variant``'s rules, as the line reader reads it: plain lines as they are when the rules
    fit their shape; else, and for a chunk of entries, each entry under the rules, or bad at its line where they do
    not fit (a 9x9 region map for a 4x4 line). A JSON line that names its variant keeps it."""
    from bitdoku.errors import ParseError
    from bitdoku.geometry import Geometry
    from bitdoku.pipeline.chunks import EntryChunk

    if isinstance(chunk, EntryChunk):
        entries = chunk.entries
    else:
        try:
            Geometry.parse(rules.variant, chunk.shape, rules.regions)
            return chunk
        except ParseError:
            entries = chunk.entries()
    return EntryChunk([_entry_under_rules(entry, rules, name) for entry in entries])


def _entry_under_rules(entry: Entry, rules: Rules, name: str) -> Entry:
    from dataclasses import replace

    from bitdoku.errors import ParseError

    if entry.grid is None or not entry.grid.geometry.is_classic:
        return entry
    try:
        return replace(entry, grid=rules.apply(entry.grid))
    except ParseError as error:
        return replace(entry, grid=None, error=error.located(source=name, line=entry.line))


def _answer_each(inputs: Inputs, plan: Plan, show: Shower, run: _Run, advance: Callable[[int], None], *,
                 lenient: bool, output: OutputFormat, skip: int) -> None:
    """The per-puzzle path: a ``SearchResult`` for each entry, shown by the command."""
    for entry, result, seconds in _results(inputs, plan, skip):
        if result is None and entry.grid is not None:  # searched nowhere: its chunk failed on the cluster
            warn(f"bitdoku: failed: {entry.error}")
            emit(to_json({**error_record(entry), "status": "failed"}) if output is OutputFormat.json else "failed")
            run.saw("failed", ExitCode.CLUSTER_FAILURE)
        elif result is None:
            if not lenient:
                raise entry.error  # type: ignore[misc]
            warn(f"bitdoku: skipped: {entry.error}")
            emit(to_json(error_record(entry)) if output is OutputFormat.json else "error")
            run.saw("bad input", ExitCode.BAD_INPUT)
        else:
            run.saw(result.status.value, show(entry, entry.grid, result, seconds))  # type: ignore[arg-type]
        if seconds is not None:  # searched one by one: each result is worth sending at once
            flush()
        advance(1)


@contextmanager
def results_file(path: Path | None, *, resume: bool) -> Iterator[int]:
    """Send the results inside the block to ``path`` (``-o``), through ``FILE.partial`` renamed when the block
    ends normally; yields how many entries an interrupted run already wrote (``--resume``), 0 otherwise. A
    resumed run whose file is already complete ends here (exit code 0)."""
    if path is None:
        if resume:
            raise ValueError("--resume continues an output file: give it with -o FILE")
        yield 0
        return
    from bitdoku.pipeline.outfile import ResultFile

    target = ResultFile(path, resume=resume)
    if target.complete:
        target.commit()
        warn(f"bitdoku: {path} is already complete; nothing to resume")
        raise typer.Exit(ExitCode.OK)
    if target.done:
        warn(f"bitdoku: resuming after the {target.done:,} results already in {target.partial}")
    try:
        with results_to(target.stream):
            yield target.done
        target.commit()  # its last flush may fail too (a full disk)
    except BaseException as error:
        reported = target.failed(error)
        warn(f"bitdoku: the results so far are in {target.partial}; run again with --resume to go on")
        if reported is error:
            raise
        raise reported from error


def _results(inputs: Inputs, plan: Plan, skip: int = 0) -> Iterator[tuple[Entry, SearchResult | None, float | None]]:
    """(entry, result or None for a bad line, seconds when timed one by one), in input order."""
    from bitdoku.engines.registry import get_engine
    from bitdoku.solver import search

    engine = get_engine(plan.engine)
    entries = islice(inputs.entries, skip, None)
    if plan.cluster is not None and not inputs.single:
        from bitdoku.cli.cluster import cluster_results

        yield from cluster_results(entries, plan, plan.cluster)
        return
    if inputs.single or not engine.batched or plan.strategy != "dfs":
        warm: set[tuple[Shape, str | None]] = set()
        for entry in entries:
            if entry.grid is None:
                yield entry, None, None
                continue
            kernel = _kernel_key(entry.grid.geometry)
            if (entry.grid.shape, kernel) not in warm:
                _warm_up(engine, entry.grid.shape, plan.limit, entry.grid.geometry)
                warm.add((entry.grid.shape, kernel))
            start = time.perf_counter()
            result = search(entry.grid, limit=plan.limit, keep=plan.keep, engine=plan.engine, max_nodes=plan.max_nodes,
                            strategy=plan.strategy, threads=plan.threads, time_limit=plan.time_limit)
            yield entry, result, time.perf_counter() - start
        return
    while chunk := list(islice(entries, CHUNK_SIZE)):
        results = _search_chunk(chunk, plan)
        for entry, result in zip(chunk, results, strict=True):
            yield entry, result, None
        flush()


def _warm_up(engine: Engine, shape: Shape, limit: int, geometry: Geometry) -> None:
    """Compile a JIT engine before timing a puzzle (a variant's kernel for a variant's puzzle); say so before a
    first compile starts, and how long it took."""
    if engine.warm_up is None:
        return
    announced = say_if_compiling(engine, shape, limit, geometry=geometry)
    start = time.perf_counter()
    engine.warm_up(shape, limit, geometry=None if geometry.is_classic else geometry)
    seconds = time.perf_counter() - start
    if announced or seconds > 1:
        warn(f"bitdoku: compiled in {format_seconds(seconds)}")


def say_if_compiling(engine: Engine, shape: Shape, limit: int, *, batch: bool = False,
                     geometry: Geometry | None = None) -> bool:
    """Say that a first compile is about to start (it takes seconds; later runs load it from Numba's cache);
    True if it said so. ``geometry``: a variant's, whose kernels are its own."""
    variant = geometry is not None and not geometry.is_classic
    if engine.will_compile is None or not engine.will_compile(shape, limit, batch=batch,
                                                              geometry=geometry if variant else None):
        return False
    from bitdoku.kernels.cache import NOTE

    rules = f" {geometry.name}" if variant else ""  # type: ignore[union-attr]
    what = f"the {shape.n}x{shape.n}{rules} engine" + (" for files" if batch else "")
    warn(f"bitdoku: compiling {what}, once (Numba caches it for later runs){f'; {NOTE}' if NOTE else ''}")
    return True


#: Compiling seconds after which the logic commands say that they compile (a cached kernel loads in milliseconds).
COMPILE_NOTICE_SECONDS = 1.0


@contextmanager
def saying_compiles(what: str = "the logic solver's kernels") -> Iterator[Callable[[], float]]:
    """Around the commands whose kernels compile as the work reaches them (explain, hint, rate, generate): tens of
    seconds on a cold cache. Once compiling has taken ``COMPILE_NOTICE_SECONDS`` in this run, say so (a watcher
    thread reads ``compile_clock``), and at the end how many seconds went to it. Nothing is said on a warm cache,
    and no guess is made ahead of which kernels the work will reach. Yields a function giving the seconds spent
    compiling so far in the block (to leave them out of a rate)."""
    import threading

    from bitdoku.compile_clock import compile_seconds
    from bitdoku.compile_clock import start as start_compile_clock
    from bitdoku.kernels.cache import NOTE

    start_compile_clock()
    before = compile_seconds()
    done = threading.Event()
    said = threading.Event()

    def watch() -> None:
        while not done.wait(0.2):
            if compile_seconds() - before >= COMPILE_NOTICE_SECONDS:
                said.set()
                warn(f"bitdoku: compiling {what} as the run needs them, once (Numba caches them; 'bitdoku warmup "
                     f"--all' compiles them ahead){f'; {NOTE}' if NOTE else ''}")
                return

    watcher = threading.Thread(target=watch, name="bitdoku-compile-notice", daemon=True)
    watcher.start()
    try:
        yield lambda: compile_seconds() - before
    finally:
        done.set()
        watcher.join()
        if said.is_set():
            warn(f"bitdoku: {format_seconds(compile_seconds() - before)} of this run went to compiling")


def _is_variant(entry: Entry) -> bool:
    return entry.grid is not None and not entry.grid.geometry.is_classic


def _kernel_key(geometry: Geometry | None) -> str | None:
    """Which kernel searches under ``geometry`` beside its shape: None for classic rules, else the name of the
    variant's (``engines.bitmask.variant_kernel``: one for every jigsaw map of a file)."""
    from bitdoku.engines.bitmask import variant_kernel

    if geometry is not None and geometry.cages:
        return "cages"
    return None if geometry is None or geometry.is_classic else variant_kernel(geometry)[0]


#: The batch kernels looked at in this process (``say_if_compiling``): a shape's, or a shape's and a variant
#: kernel's (``engines.bitmask.variant_kernel``: one for every jigsaw map of a file).
_batch_kernels: set[tuple[Shape, str | None]] = set()


def _search_chunk(chunk: list[Entry], plan: Plan) -> list[SearchResult | None]:
    """Search the good entries of a chunk as one batch per shape and rules (a variant's, or a jigsaw's map)."""
    from bitdoku.batch import solve_many
    from bitdoku.engines.registry import get_engine
    from bitdoku.reader import rows_by_rules

    results: list[SearchResult | None] = [None] * len(chunk)
    engine = get_engine(plan.engine)
    for (shape, geometry), rows in rows_by_rules(chunk).items():
        _say_if_batch_compiles(engine, shape, geometry, plan.limit)
        batch = solve_many(
            [chunk[i].grid for i in rows],  # type: ignore[misc]
            shape=shape,
            limit=plan.limit,
            threads=plan.threads,
            time_limit=plan.time_limit,
            **({"max_nodes": plan.max_nodes} if plan.max_nodes else {}),
        )
        for row, index in enumerate(rows):
            results[index] = batch.result(row)
    return results


def _say_if_batch_compiles(engine: Engine, shape: Shape, geometry: Geometry | None, limit: int) -> None:
    """``say_if_compiling`` for the first batch of each kernel in this process (a classic shape's, or a variant
    kernel's: the X kernel alone compiles for ~13 s on a cold cache, which a run would otherwise spend silent)."""
    kernel = _kernel_key(geometry)
    if (shape, kernel) not in _batch_kernels:
        _batch_kernels.add((shape, kernel))
        say_if_compiling(engine, shape, limit, batch=True, geometry=geometry)


@contextmanager
def _progress(*, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A live count of puzzles done and their rate on stderr, shown only when stderr is a terminal."""
    if not (enabled and stderr_is_terminal()):
        yield lambda done: None
        return
    console = err_console()
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = (SpinnerColumn(), TextColumn("{task.completed:,} puzzles"),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn())
    start = time.perf_counter()
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("solving", total=None, rate="")

        def advance(done: int) -> None:
            elapsed = time.perf_counter() - start
            total = progress.tasks[0].completed + done
            progress.update(task, advance=done, rate=f"{total / elapsed:,.0f}/s" if elapsed > 0 else "")

        yield advance


def _summary(tally: Counter[str], seconds: float) -> str:
    """``puzzles 1,465: unique 1,465 | 0.09 s, 16,000 puzzles/s``."""
    from bitdoku.engines.result import Status

    total = sum(tally.values())
    order = [s.value for s in Status] + ["bad input", "failed"]
    parts = ", ".join(f"{name} {tally[name]:,}" for name in order if tally[name])
    rate = f", {total / seconds:,.0f} puzzles/s" if seconds > 0 and total else ""
    return f"puzzles {total:,}: {parts or 'none'} | {format_seconds(seconds)}{rate}"


def parse_shape(text: str | None) -> Shape | None:
    from bitdoku.shape import Shape

    return Shape.parse(text) if text is not None else None
