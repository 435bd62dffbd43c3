"""Where output goes: results to stdout, one line at a time and flushed; messages to stderr."""

from __future__ import annotations

import sys

from rich.console import Console


def err_console() -> Console:
    """A console on the current stderr (looked up each time, so tests that swap streams see the output)."""
    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


def emit(text: str) -> None:
    """Write one result to stdout; the runner flushes after each puzzle, or each batch of puzzles."""
    sys.stdout.write(text + "\n")


def flush() -> None:
    """Push the results written so far to the reader of stdout."""
    sys.stdout.flush()


def warn(message: str) -> None:
    """Print a message for the person at the terminal (stderr, never mixed into results)."""
    err_console().print(message, markup=False)
