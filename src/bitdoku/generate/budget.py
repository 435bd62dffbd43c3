"""The work one puzzle may take: search nodes, a deadline, and a flag that stops every worker at once."""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from bitdoku.timelimit import TimeLimit


class BudgetSpent(Exception):
    """Raised between kernel calls when a puzzle's nodes or time are spent (the generator turns it into a
    ``GenerationLimitError`` that says what came closest)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class Cancelled(Exception):
    """Raised between kernel calls once the run was stopped (Ctrl-C, or an error in another worker)."""


class Cancel(threading.Event):
    """The stop of a whole run (Ctrl-C, an error in another worker, a consumer that stops early): an event that
    also sets the stop flag of every budget that watches it, so that a kernel call under way ends at its next node
    rather than at its puzzle's deadline (a 64x64 fill is one call of seconds)."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._flags: dict[int, NDArray[np.int64]] = {}

    def watch(self, flag: NDArray[np.int64]) -> None:
        with self._lock:
            self._flags[id(flag)] = flag
            if self.is_set():
                flag[0] = 1

    def unwatch(self, flag: NDArray[np.int64]) -> None:
        with self._lock:
            self._flags.pop(id(flag), None)

    def set(self) -> None:
        super().set()
        with self._lock:
            for flag in self._flags.values():
                flag[0] = 1


@dataclass
class Budget:
    """Nodes and seconds left for one puzzle; kernels get at most ``nodes_left()`` nodes a call, and ``stop``, a
    flag set when the seconds run out (so that one long kernel call, a 64x64 fill, ends near the deadline too).
    ``close()`` disarms the flag's timer once the puzzle is done."""

    max_nodes: int
    time_limit: float
    cancel: threading.Event = field(default_factory=threading.Event)
    nodes: int = 0
    start: float = field(default_factory=time.perf_counter)
    clock: TimeLimit = field(init=False)

    def __post_init__(self) -> None:
        self.clock = TimeLimit(self.time_limit if math.isfinite(self.time_limit) else None).__enter__()
        if isinstance(self.cancel, Cancel):
            self.cancel.watch(self.stop)

    @property
    def stop(self) -> NDArray[np.int64]:
        return self.clock.stop

    def close(self) -> None:
        self.clock.__exit__(None, None, None)
        if isinstance(self.cancel, Cancel):
            self.cancel.unwatch(self.stop)

    def charge(self, nodes: int) -> None:
        """Count nodes a kernel spent; ``BudgetSpent`` once the nodes or the time are gone."""
        self.nodes += int(nodes)
        self.check()

    def check(self) -> None:
        """``Cancelled`` if the run was stopped, ``BudgetSpent`` if this puzzle's nodes or time are gone."""
        if self.cancel.is_set():
            raise Cancelled
        if self.nodes >= self.max_nodes:
            raise BudgetSpent(f"{self.max_nodes:,} nodes")
        if self.seconds >= self.time_limit or self.stop[0] != 0:
            raise BudgetSpent(f"{self.time_limit:g} s")

    def nodes_left(self) -> int:
        return max(1, self.max_nodes - self.nodes)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start
