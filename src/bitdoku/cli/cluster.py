"""``--cluster``: search a file of puzzles on a Dask cluster instead of this machine's threads.

The file is still read as a stream of entries; each chunk of entries becomes one uint8 array per shape and
rules (a variant's, a jigsaw's map), and the arrays go through ``bitdoku.parallel.distributed.solve_chunks``,
which keeps a bounded number on the cluster and hands results back in input order. So the output is the same,
line for line, as without ``--cluster``, and memory stays bounded whatever the file's size.

Typer 0.29 ignores Click's ``flag_value`` (its vendored parser has no optional option values), so ``main``
writes ``local`` after a bare ``--cluster`` before the arguments are parsed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING

import numpy as np

from bitdoku.engines.registry import ENGINES, get_engine
from bitdoku.engines.result import SearchResult
from bitdoku.errors import BitdokuError
from bitdoku.reader import Entry, rows_by_rules
from bitdoku.shape import Shape

if TYPE_CHECKING:
    from bitdoku.batch import BatchResult, BatchRules
    from bitdoku.cli.plan import Plan
    from bitdoku.parallel.distributed import ChunkFailure

#: Entries per Dask task (and per read): bigger than the thread path's 4,096 because a Dask task costs
#: ~1-10 ms against ~20 µs on a thread pool (benchmarks/NOTES-dask.md).
CLUSTER_CHUNK_SIZE = 16_384

def cluster_results(
    entries: Iterable[Entry], plan: Plan, address: str | None, *, chunk_size: int | None = None
) -> Iterator[tuple[Entry, SearchResult | None, None]]:
    """What ``runner._results`` yields for a file, searched on the cluster at ``address`` (``local``: here).

    ``(entry, result, None)`` for each entry, in input order. A bad line comes back as ``(entry, None,
    None)`` with its ``ParseError`` in ``entry.error``, as on the thread path. A row whose chunk failed on
    the cluster (after Dask's retries) also has no result: it comes back as ``(entry, None, None)`` with the
    grid kept and a ``BitdokuError`` saying why in ``entry.error`` (so ``entry.grid is not None`` tells it
    from a bad line). A ``local`` cluster is started and closed here; a remote one is only connected to.
    """
    if not get_engine(plan.engine).batched:
        batched = ", ".join(name for name in ENGINES if get_engine(name).batched)
        raise ValueError(f"--cluster runs the batch kernel of the {batched} engine, not {plan.engine!r}")
    from bitdoku.parallel.distributed import connect

    client, cluster = connect(address)
    try:
        yield from _stream(client, iter(entries), plan, chunk_size or CLUSTER_CHUNK_SIZE)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@dataclass
class _Chunk:
    """A chunk of entries waiting for the results of its arrays (one per shape and rules among its good
    entries)."""

    entries: list[Entry]
    arrays_left: int
    results: dict[int, SearchResult] = field(default_factory=dict)
    failures: dict[int, str] = field(default_factory=dict)

    def settle(self, rows: list[int], outcome: BatchResult | ChunkFailure) -> None:
        """Record one array's outcome (a ``BatchResult`` or a ``ChunkFailure``) for its entries."""
        from bitdoku.parallel.distributed import ChunkFailure

        self.arrays_left -= 1
        for row, index in enumerate(rows):
            if isinstance(outcome, ChunkFailure):
                self.failures[index] = outcome.message
            else:
                self.results[index] = outcome.result(row)

    def items(self) -> Iterator[tuple[Entry, SearchResult | None, None]]:
        for index, entry in enumerate(self.entries):
            if index in self.failures:
                error = BitdokuError(f"line {entry.line}: not searched: its chunk failed on the cluster "
                                     f"({self.failures[index]})")
                yield replace(entry, error=error), None, None
            else:
                yield entry, self.results.get(index), None


def _stream(client, entries: Iterator[Entry], plan: Plan, chunk_size: int):
    """Feed ``solve_chunks`` one array per shape and rules of each chunk of entries, and give the entries back in
    order."""
    from bitdoku.parallel.distributed import solve_chunks

    waiting: deque[tuple[_Chunk, list[int]]] = deque()  # one item per array, in the order they are submitted

    def arrays() -> Iterator[tuple[np.ndarray, Shape, BatchRules]]:
        while entries_read := list(islice(entries, chunk_size)):
            groups = rows_by_rules(entries_read)
            chunk = _Chunk(entries_read, arrays_left=max(1, len(groups)))
            if not groups:  # only bad lines: an empty array keeps the chunk in step (searched without a task)
                waiting.append((chunk, []))
                yield np.empty((0, 16), np.uint8), Shape(2, 2), None
            for (shape, geometry), rows in groups.items():
                waiting.append((chunk, rows))
                cells = b"".join(entries_read[i].grid.cells for i in rows)  # type: ignore[union-attr]
                rules: BatchRules = geometry
                if geometry is not None and geometry.cages:  # Killers: each row its own cages
                    rules = tuple(entries_read[i].grid.geometry for i in rows)  # type: ignore[union-attr]
                yield np.frombuffer(cells, np.uint8).reshape(len(rows), shape.n_cells), shape, rules

    options = {"max_nodes": plan.max_nodes} if plan.max_nodes else {}
    for _, outcome in solve_chunks(client, arrays(), limit=plan.limit, time_limit=plan.time_limit, **options):
        chunk, rows = waiting.popleft()
        chunk.settle(rows, outcome)
        if not chunk.arrays_left:
            yield from chunk.items()


