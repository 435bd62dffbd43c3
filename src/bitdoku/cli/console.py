"""Where output goes: results to stdout (or the ``-o`` file), one line at a time; messages to stderr.

rich is imported on first use, so ``bitdoku --help`` pays only for what it prints.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from collections.abc import Iterator

    from rich.console import Console

#: Where results go: stdout, unless a command writes to a file (``results_to``).
_results: ContextVar[TextIO | None] = ContextVar("results", default=None)


def err_console() -> Console:
    """A console on the current stderr (looked up each time, so tests that swap streams see the output)."""
    from rich.console import Console

    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


def results() -> TextIO:
    """The stream results are written to (looked up each time, like ``err_console``)."""
    return _results.get() or sys.stdout


@contextmanager
def results_to(stream: TextIO) -> Iterator[None]:
    """Send the results written inside the block to ``stream`` (the ``-o`` file)."""
    token = _results.set(stream)
    try:
        yield
    finally:
        _results.reset(token)


def emit(text: str) -> None:
    """Write one result; the runner flushes after each puzzle, or each batch of puzzles."""
    results().write(text + "\n")


def flush() -> None:
    """Push the results written so far to their reader."""
    results().flush()


def warn(message: str) -> None:
    """Print a message for the person at the terminal (stderr, never mixed into results); plain text, so
    that a message costs no import of rich."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def stderr_is_terminal() -> bool:
    """Whether a person watches stderr (progress bars are drawn only then)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
