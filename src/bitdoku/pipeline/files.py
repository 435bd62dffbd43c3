"""Whole files: each chunk searched as arrays and answered as one block of bytes; ``solve_file`` for scripts."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from bitdoku.batch import BatchResult, solve_many
from bitdoku.engines.result import Status
from bitdoku.errors import ParseError
from bitdoku.geometry import Geometry
from bitdoku.pipeline.answers import solution_line, solve_lines
from bitdoku.pipeline.chunks import Chunk, EntryChunk, PlainChunk, prefetched, read_chunks
from bitdoku.pipeline.outfile import ResultFile
from bitdoku.reader import Entry
from bitdoku.shape import Shape

Lines = Callable[[BatchResult], bytes]
ERROR_LINE = b"error\n"


@dataclass(frozen=True)
class Search:
    """How each chunk is searched: the solution limit, node budget, threads and time limit (a puzzle's) of
    ``solve_many``, and the rules of every puzzle: a ``variant`` name (None: classic) and, for a jigsaw, the
    ``regions`` map they all share."""

    limit: int = 2
    max_nodes: int | None = None
    threads: int | None = None
    time_limit: float | None = None
    variant: str | None = None
    regions: str | None = None

    def __call__(self, puzzles: np.ndarray, shape: Shape) -> BatchResult:
        budget = {"max_nodes": self.max_nodes} if self.max_nodes else {}
        geometry = Geometry.parse(self.variant, shape, self.regions) if self.variant is not None else None
        return solve_many(puzzles, shape=shape, variant=geometry, limit=self.limit, threads=self.threads,
                          time_limit=self.time_limit, **budget)


@dataclass
class Answered:
    """A chunk's answers: the bytes to write, the status of each puzzle answered, the bad entries answered
    ``error``, and the bad entry where answering stopped (``stop_at_bad``), if any."""

    text: bytes
    statuses: Counter[Status]
    bad: list[Entry]
    stopped: Entry | None = None


def answer_chunk(chunk: Chunk, search: Search, lines: Lines, *, stop_at_bad: bool = False) -> Answered:
    """Search a chunk and write its answer lines, in order: a bad entry gets the line ``error``, or with
    ``stop_at_bad`` ends the answers there (``Answered.stopped``)."""
    if isinstance(chunk, PlainChunk):
        batch = search(chunk.puzzles, chunk.shape)
        return Answered(lines(batch), batch.summary(), [])
    entries = chunk.entries
    if stop_at_bad:
        first_bad = next((i for i, entry in enumerate(entries) if entry.grid is None), None)
        if first_bad is not None:
            answered = answer_entries(entries[:first_bad], search, lines)
            answered.stopped = entries[first_bad]
            return answered
    return answer_entries(entries, search, lines)


def answer_entries(entries: list[Entry], search: Search, lines: Lines) -> Answered:
    """``answer_chunk`` for entries read one by one: good ones searched as one batch per shape."""
    out: list[bytes] = [ERROR_LINE] * len(entries)
    statuses: Counter[Status] = Counter()
    by_shape: dict[Shape, list[int]] = {}
    for index, entry in enumerate(entries):
        if entry.grid is not None:
            by_shape.setdefault(entry.grid.shape, []).append(index)
    for shape, rows in by_shape.items():
        cells = np.frombuffer(b"".join(entries[i].grid.cells for i in rows), np.uint8)  # type: ignore[union-attr]
        batch = search(cells.reshape(len(rows), shape.n_cells), shape)
        statuses += batch.summary()
        for index, line in zip(rows, lines(batch).splitlines(keepends=True), strict=True):
            out[index] = line
    return Answered(b"".join(out), statuses, [entry for entry in entries if entry.grid is None])


def solve_file(
    source: str | Path,
    output: str | Path | TextIO,
    *,
    limit: int = 2,
    shape: Shape | str | None = None,
    max_nodes: int | None = None,
    threads: int | None = None,
    lenient: bool = False,
    resume: bool = False,
    time_limit: float | None = None,
) -> Counter[Status]:
    """Solve every puzzle of a file and write one line a puzzle: the solution, or the status when there is none.

    The same lines as ``bitdoku solve FILE``, at the batch kernels' speed and in bounded memory, whatever the
    file's size. Given a path, ``output`` appears only when complete (the lines go to ``PATH.partial`` until
    then), and ``resume=True`` goes on with an interrupted run's partial file, skipping the puzzles it holds.

    Parameters
    ----------
    source : str or Path
        The puzzle file (``'-'``: stdin); any format ``read_entries`` reads.
    output : str, Path or text stream
        Where the lines go (``'-'``: stdout).
    limit : int
        2 (the default) proves uniqueness; 1 stops at a first solution.
    shape, max_nodes, threads
        As for ``solve_many``.
    lenient : bool
        Write ``error`` for a bad line and go on, instead of raising its ``ParseError``.
    resume : bool
        Continue the run whose partial output is ``output + '.partial'``.
    time_limit : float, optional
        Seconds each puzzle may take (None: no limit); a puzzle that runs out gets the line ``limit``.

    Returns
    -------
    Counter
        How many puzzles ended in each ``Status`` (bad lines not counted).

    Example
    -------
    >>> import io
    >>> from bitdoku.data import sample_path
    >>> out = io.StringIO()
    >>> solve_file(sample_path("famous.txt"), out)[Status.UNIQUE]
    8
    """
    search = Search(limit, max_nodes, threads, time_limit)
    if isinstance(output, (str, Path)) and str(output) != "-":
        target = ResultFile(output, resume=resume)
        try:
            statuses = _solve_into(source, target.stream, search, shape, lenient, skip=target.done)
            target.commit()
        except BaseException as error:
            reported = target.failed(error)
            if reported is error:
                raise
            raise reported from error
        return statuses
    if resume:
        raise ValueError("resume needs an output file: the lines already written are read back from it")
    stream = sys.stdout if str(output) == "-" else output
    return _solve_into(source, stream, search, shape, lenient, skip=0)  # type: ignore[arg-type]


def _solve_into(source: str | Path, stream: TextIO, search: Search, shape: Shape | str | None, lenient: bool,
                skip: int) -> Counter[Status]:
    statuses: Counter[Status] = Counter()
    for chunk in prefetched(read_chunks(source, shape=shape, skip=skip)):
        if isinstance(chunk, EntryChunk) and any(e.grid is not None and not e.grid.geometry.is_classic
                                                 for e in chunk.entries):
            answered = _answer_one_by_one(chunk.entries, search, stop_at_bad=not lenient)
        else:
            answered = answer_chunk(chunk, search, solve_lines, stop_at_bad=not lenient)
        stream.write(answered.text.decode("utf-8"))
        stream.flush()
        statuses += answered.statuses
        if answered.stopped is not None:
            raise answered.stopped.error or ParseError("unreadable puzzle", line=answered.stopped.line)
    return statuses


def _answer_one_by_one(entries: list[Entry], search: Search, *, stop_at_bad: bool) -> Answered:
    """``solve_lines`` for entries that hold variant grids (JSON lines naming a variant), which the batch kernels
    would read as classic ones: each searched by ``bitdoku.search`` under its own rules."""
    from bitdoku.solver import search as search_one

    lines: list[str] = []
    statuses: Counter[Status] = Counter()
    bad: list[Entry] = []
    for entry in entries:
        if entry.grid is None:
            if stop_at_bad:
                return Answered("".join(lines).encode("utf-8"), statuses, bad, stopped=entry)
            lines.append(ERROR_LINE.decode("ascii"))
            bad.append(entry)
            continue
        result = search_one(entry.grid, limit=search.limit, keep=1, max_nodes=search.max_nodes,
                            time_limit=search.time_limit)
        statuses[result.status] += 1
        lines.append(solution_line(result) + "\n")
    return Answered("".join(lines).encode("utf-8"), statuses, bad)
