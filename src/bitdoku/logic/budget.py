"""A time budget for human-style solving: ``time_budget(seconds)`` around a call, ``check_time()`` in its loops.

The techniques run in Python on the caller's thread, and a thread cannot be stopped from outside, so a caller
that promised an answer in time (the web server: ``bitdoku.web.Limits.explain_seconds``) relies on the long loops
looking at the clock: between the rungs of a ladder (``explain.next_step``, ``se.next_se_step``) and in the
breadth-first chain searches (``links.lockstep``), where a single rung took 4.7 s on a near-empty 25x25 grid.
The step budgets (``max_steps``) cannot do this: one step of a big grid may cost seconds.

The deadline is a context variable, so each thread (and each request's context) has its own; without one, a
check costs one lookup. The compiled searches a solve makes on the way (the uniqueness check, the solution a
guess places) get what is left of it as their ``time_limit`` (``seconds_left``), so they stop at the deadline too.
Seconds spent compiling kernels (a first call on a cold cache) do not count (``compile_clock``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from bitdoku.compile_clock import compile_seconds
from bitdoku.compile_clock import start as start_compile_clock
from bitdoku.errors import TimeLimitError

#: (deadline on ``time.monotonic``, the budget's seconds, ``compile_seconds()`` when it started)
_DEADLINE: ContextVar[tuple[float, float, float] | None] = ContextVar("bitdoku_logic_deadline", default=None)


@contextmanager
def time_budget(seconds: float | None) -> Iterator[None]:
    """Within the block, ``check_time`` raises ``TimeLimitError`` once ``seconds`` have passed (None: no budget;
    an inner budget replaces an outer one until it ends).

    Example
    -------
    >>> with time_budget(0.0):
    ...     check_time()
    Traceback (most recent call last):
    ...
    bitdoku.errors.TimeLimitError: human-style solving stopped at its time budget of 0 s
    """
    if seconds is None:
        yield
        return
    start_compile_clock()
    token = _DEADLINE.set((time.monotonic() + seconds, seconds, compile_seconds()))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check_time() -> None:
    """Raise ``TimeLimitError`` when the budget of the enclosing ``time_budget`` is spent."""
    deadline = _DEADLINE.get()
    if deadline is not None and _clock(deadline) >= deadline[0]:
        raise TimeLimitError(deadline[1])


def seconds_left() -> float | None:
    """What is left of the enclosing ``time_budget`` (0 once it is spent), or None without one: the
    ``time_limit`` of a compiled search made inside the budget."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return None
    return max(0.0, deadline[0] - _clock(deadline))


def _clock(deadline: tuple[float, float, float]) -> float:
    """``time.monotonic()`` less the seconds spent compiling since the budget started."""
    return time.monotonic() - (compile_seconds() - deadline[2])
