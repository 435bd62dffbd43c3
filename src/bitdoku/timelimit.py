"""Time limits for compiled searches: a stop flag that one watchdog thread sets when the time is up.

A compiled kernel holds its thread until it returns, and Python cannot interrupt it, so a time limit has to come
from outside: every search kernel reads a ``stop`` array (int64) where it checks its node budget, one load a node,
and ends with ``STOPPED`` (``kernels/status.py``) once the flag is set. The flag is set here, by one daemon thread
for the whole process that sleeps until the next deadline (a ``threading.Timer`` a call would start a thread a
search: 100 µs, ten times a 9x9 solve).

* ``TimeLimit(seconds)``: one flag for one call (``bitdoku.search(time_limit=...)``, a single puzzle of the CLI, a
  whole ``solve_many`` call); ``with`` arms it and disarms it.
* Compiling is not the work: a deadline moves back by the seconds spent at Numba's compiler lock since it was armed
  (``compile_clock``), so a first call on a cold cache, which compiles its kernel inside the limit, still gets
  its whole time to search.
* ``RowClock(seconds)``: a limit for each row of a batch (the CLI on a file: ``--time-limit`` is per puzzle). Each
  worker's batch call gets a two-slot array (``kernels/batch.py``: the flag and the running row's ticket) that the
  watchdog looks at every ``poll`` seconds; a row seen running for longer than the limit gets the flag.

Without a limit (``seconds`` None) nothing is armed and no thread is started.
"""

from __future__ import annotations

import heapq
import itertools
import math
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType

import numpy as np
from numpy.typing import NDArray

from bitdoku.compile_clock import compile_seconds
from bitdoku.compile_clock import start as start_compile_clock
from bitdoku.errors import solutions_found_phrase
from bitdoku.kernels.status import STOP_FLAG as FLAG
from bitdoku.kernels.status import STOP_TICKET as TICKET

#: The flag's value that stops every row left of a batch call (a flag set to a row's ticket stops that row only).
STOP_ALL = -1


def check_seconds(seconds: float | None, name: str = "time_limit") -> float | None:
    """``seconds`` as a float, or None; ``ValueError`` unless it is a number of seconds, 0 or more (0: stop at once)."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or math.isnan(seconds) or seconds < 0:
        raise ValueError(f"{name} must be a number of seconds (0 or more) or None, not {seconds!r}")
    return float(seconds)


def limit_reason(seconds: float, elapsed: float | None, solutions: int, nodes: int) -> str:
    """The sentence of a search its time limit stopped, as the node budget has its own: what was done (``elapsed``
    None when it is not known: a row of a batch)."""
    found = solutions_found_phrase(solutions)
    after = "" if elapsed is None else f" after {elapsed:.2f} s"
    return f"time limit of {seconds:g} s reached{after}: {found} found, {nodes:,} nodes"


class _Watchdog:
    """The one thread that sets stop flags: one-shot deadlines (``arm``) and the row clocks it polls."""

    def __init__(self) -> None:
        self._wake = threading.Condition()
        # a heap by time: (when, token, flag, value, compile seconds counted so far)
        self._deadlines: list[tuple[float, int, NDArray[np.int64], int, float]] = []
        self._cancelled: set[int] = set()
        self._clocks: dict[int, tuple[NDArray[np.int64], float, float, list[float]]] = {}
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None

    def arm(self, flag: NDArray[np.int64], at: float, value: int = 1) -> int:
        """Set ``flag[0] = value`` at ``at`` (``time.monotonic``) plus the seconds spent compiling from now on; a
        token for ``disarm``."""
        start_compile_clock()
        compiled = compile_seconds()
        with self._wake:
            token = next(self._ids)
            heapq.heappush(self._deadlines, (at, token, flag, value, compiled))
            self._start()
            self._wake.notify()
        return token

    def disarm(self, token: int) -> None:
        with self._wake:
            self._cancelled.add(token)
            if len(self._cancelled) > 64 and 2 * len(self._cancelled) > len(self._deadlines):
                # a generator disarms a deadline a puzzle: drop them rather than keep them until they are due
                self._deadlines = [entry for entry in self._deadlines if entry[1] not in self._cancelled]
                heapq.heapify(self._deadlines)
                self._cancelled.clear()

    def watch(self, slot: NDArray[np.int64], seconds: float, poll: float) -> int:
        """Time the rows of a batch call's ``slot`` (flag, ticket): a row that runs ``seconds`` gets the flag."""
        with self._wake:
            token = next(self._ids)
            self._clocks[token] = (slot, seconds, poll, [-1.0, time.monotonic()])
            self._start()
            self._wake.notify()
        return token

    def unwatch(self, token: int) -> None:
        with self._wake:
            self._clocks.pop(token, None)

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="bitdoku-time-limits", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        with self._wake:
            while True:
                now = time.monotonic()
                self._fire(now)
                self._poll(now)
                waits = [poll for _slot, _seconds, poll, _seen in self._clocks.values()]
                waits.append(self._deadlines[0][0] - now if self._deadlines else 60.0)
                self._wake.wait(max(min(waits), 0.0005))

    def _fire(self, now: float) -> None:
        compiled_now = compile_seconds()
        while self._deadlines and self._deadlines[0][0] <= now:
            at, token, flag, value, compiled = heapq.heappop(self._deadlines)
            if token in self._cancelled:
                self._cancelled.discard(token)
            elif compiled_now > compiled:  # compiling since: not the search's time, the deadline moves back
                heapq.heappush(self._deadlines, (at + compiled_now - compiled, token, flag, value, compiled_now))
            else:
                flag[0] = value
        if not self._deadlines:
            self._cancelled.clear()

    def _poll(self, now: float) -> None:
        for slot, seconds, _poll, seen in self._clocks.values():
            ticket = float(slot[TICKET])
            if ticket != seen[0]:
                seen[0], seen[1] = ticket, now  # a new row: its clock starts (at most one poll late)
            elif ticket > 0 and now - seen[1] >= seconds and slot[FLAG] == 0:
                slot[FLAG] = int(ticket)


_WATCHDOG = _Watchdog()
if hasattr(os, "register_at_fork"):  # a forked child has no watchdog thread (and maybe a lock held): a fresh one
    # mypy warns that an instance's ``__init__`` may be a subclass's: this one is ``_Watchdog``'s own
    os.register_at_fork(after_in_child=_WATCHDOG.__init__)  # type: ignore[misc]


class TimeLimit:
    """A time limit for the searches run inside ``with``: pass ``stop`` to the kernels.

    ``seconds`` None: no limit (the flag is never set); 0: the flag is set at once. After the block,
    ``reached`` says whether the limit ran out and ``elapsed`` how long the block took.

    Example
    -------
    >>> with TimeLimit(0) as limit:
    ...     pass
    >>> limit.reached
    True
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = check_seconds(seconds)
        self.stop = np.zeros(1, np.int64)
        self.start = time.perf_counter()
        self.end: float | None = None
        self._token: int | None = None

    def __enter__(self) -> TimeLimit:
        self.start = time.perf_counter()
        if self.seconds is not None:
            if self.seconds <= 0:
                self.stop[0] = 1
            else:
                self._token = _WATCHDOG.arm(self.stop, time.monotonic() + self.seconds)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.end = time.perf_counter()
        if self._token is not None:
            _WATCHDOG.disarm(self._token)
            self._token = None

    @property
    def reached(self) -> bool:
        return bool(self.stop[0] != 0)

    @property
    def elapsed(self) -> float:
        return (self.end if self.end is not None else time.perf_counter()) - self.start

    def reason(self, solutions: int, nodes: int) -> str:
        """``limit_reason`` for this limit."""
        return limit_reason(self.seconds or 0.0, self.elapsed, solutions, nodes)


class RowClock:
    """A time limit of ``seconds`` for each row of batch calls (``kernels/batch.py``); None: no limit.

    ``slot()`` gives each batch call (one a worker thread) its (flag, ticket) array, timed by the watchdog while
    the call runs.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = check_seconds(seconds)
        self.poll = 0.0 if self.seconds is None else min(0.02, max(0.001, self.seconds / 10))

    @contextmanager
    def slot(self) -> Iterator[NDArray[np.int64]]:
        slot = np.zeros(2, np.int64)
        if self.seconds is None:
            yield slot
            return
        if self.seconds <= 0:
            slot[FLAG] = STOP_ALL
            yield slot
            return
        token = _WATCHDOG.watch(slot, self.seconds, self.poll)
        try:
            yield slot
        finally:
            _WATCHDOG.unwatch(token)
