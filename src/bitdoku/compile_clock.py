"""Seconds spent compiling (or loading compiled code), so that time limits can leave them out.

A kernel's first call on a cold cache compiles it: seconds, a minute for the logic solver, inside whatever call made
it. A time limit is about the work of a search or a solve, and charged with the compile it gave wrong answers on a
fresh install: ``bitdoku.search(puzzle, time_limit=1)`` returned "limit" after 13 s of compiling, and ``bitdoku hint
--time-limit 2`` printed "limit" for the demo puzzle. Numba announces every time a thread takes its compiler lock
(the ``numba:compiler_lock`` event, start and end: compiling, loading from the cache, waiting for another thread's
compile); this module adds up the time during which some thread holds or waits for it, and the time limits
(``timelimit``'s watchdog, ``logic.budget``) move their deadlines back by the seconds that passed that way since
they started.

The clock starts with the first ``start()`` (a limit being set): what happened before cannot matter to a limit.
It is process-wide: a compile in another thread also delays a deadline, which only errs on the side of finishing
the work (Numba compiles one function at a time in any case).
"""

from __future__ import annotations

import os
import threading
import time

_lock = threading.Lock()
_total = 0.0  # seconds of finished stretches with some thread at the compiler lock
_inside = 0  # threads at the compiler lock now (nested takes of the lock count once a thread)
_since = 0.0  # when the running stretch began
_depth = threading.local()  # per thread: how deep in nested takes of the lock
_started = False


def _enter() -> None:
    global _inside, _since
    depth = getattr(_depth, "value", 0)
    _depth.value = depth + 1
    if depth:
        return
    with _lock:
        if _inside == 0:
            _since = time.monotonic()
        _inside += 1


def _leave() -> None:
    global _inside, _total
    depth = getattr(_depth, "value", 0)
    if depth == 0:  # the clock started while this thread was at the lock: its stretch was never counted
        return
    _depth.value = depth - 1
    if depth > 1:
        return
    with _lock:
        _inside -= 1
        if _inside == 0:
            _total += time.monotonic() - _since


def start() -> None:
    """Start counting (once a process; cheap after that). Called by every time limit when it is set."""
    global _started
    if _started:
        return
    with _lock:
        if _started:
            return
        from numba.core import event

        class _Counter(event.Listener):
            def on_start(self, _event: event.Event) -> None:
                _enter()

            def on_end(self, _event: event.Event) -> None:
                _leave()

        event.register("numba:compiler_lock", _Counter())
        _started = True


def _forget_other_threads() -> None:
    """In a forked child: the threads that were at the compiler lock are not there, so their stretch never ends;
    start counting afresh (what the parent counted means nothing to a limit set in the child)."""
    global _lock, _total, _inside, _since, _depth
    _lock = threading.Lock()
    _total, _inside, _since = 0.0, 0, 0.0
    _depth = threading.local()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_other_threads)


def compile_seconds() -> float:
    """Seconds some thread has spent at Numba's compiler lock since ``start()``, the running stretch included.
    Only differences mean something: a limit keeps the value from when it started."""
    with _lock:
        return _total + (time.monotonic() - _since if _inside else 0.0)
