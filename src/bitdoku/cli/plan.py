"""What a puzzle command asks of the search loop (``cli.runner``): how to search (``Plan``) and, for whole
batches of line output, how to answer (``LineAnswers``). Its own module so that the runner and the cluster path
(``cli.cluster``) both read it without importing each other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bitdoku.cli.exit_codes import ExitCode

if TYPE_CHECKING:
    from bitdoku.batch import BatchResult
    from bitdoku.engines.result import Status


@dataclass(frozen=True)
class LineAnswers:
    """A command's line output for whole batches: the bytes of a batch's lines, and the exit code a status
    calls for (what ``show`` returns for one result)."""

    lines: Callable[[BatchResult], bytes]
    exit_code: Callable[[Status], ExitCode]


@dataclass(frozen=True)
class Plan:
    """How to search: engine, solution limit, solutions kept, node budget, threads and a puzzle's time limit."""

    engine: str
    limit: int
    keep: int = 1
    max_nodes: int | None = None
    threads: int | None = None
    strategy: str = "dfs"
    cluster: str | None = None  # a Dask scheduler address or "local": search files on a cluster
    per_puzzle: bool = False  # never the vectorised path (for comparing the two)
    time_limit: float | None = None  # seconds for each puzzle (--time-limit), None for none
