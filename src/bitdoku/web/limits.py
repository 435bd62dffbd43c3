"""What one request may cost: body size, grid size, search nodes and seconds, and how many run at once.

Every budget is derived from the shape, the same way as the library's own defaults (``default_max_nodes`` is
about a minute of search; a request gets a fraction of it), so a near-empty 25x25 grid answers "limit" in a
fraction of a second instead of holding a thread for a minute.
"""

from __future__ import annotations

from dataclasses import dataclass

from bitdoku.batch import default_threads
from bitdoku.engines.result import DEFAULT_SECONDS, default_max_nodes
from bitdoku.grid import Grid
from bitdoku.shape import Shape


@dataclass(frozen=True)
class Limits:
    """The server's limits; ``create_app(limits=Limits(...))`` changes them.

    ``max_body_bytes``: the largest request body. ``max_digits``: the largest N of a grid (25: 25x25).
    ``verdict_seconds``: the search a live verdict (``/api/count``) or candidate request may take;
    ``solve_seconds``: the same for ``/api/solve``; each is both the search's time limit and, turned into nodes
    per shape, its node budget.
    ``explain_seconds``: ``/api/explain`` and ``/api/rate`` stop after about this long. ``generate_seconds``:
    the most a ``/api/generate`` request may take. ``workers``: threads for compiled and logic work (the
    event loop never runs more than ``inline_seconds`` of it). ``max_pending``: heavy requests running or waiting
    beyond which the server answers 429 (with Retry-After) at once instead of queueing: an overload is the
    client's to wait out, never a server error. ``body_seconds``: the time a request body may take to arrive
    (408 after it: a client sending a byte at a time holds nothing for long). ``max_active``: requests a server
    process works on at once (``admission``: the rest wait without costing the event loop anything, so
    ``/api/health``, which never waits, stays quick under a burst); ``max_waiting``: requests waiting for that
    beyond which the answer is 429 at once. ``inline_seconds``: the search a solve or
    count of a grid up to 9x9 may do on the event loop before it goes to a worker thread (0: never).
    """

    max_body_bytes: int = 64 * 1024
    max_digits: int = 25
    verdict_seconds: float = 0.1
    solve_seconds: float = 2.0
    explain_seconds: float = 3.0
    generate_seconds: float = 10.0
    workers: int = default_threads()
    max_pending: int = 256
    inline_seconds: float = 0.0001
    body_seconds: float = 10.0
    max_active: int = 4
    max_waiting: int = 1024

    def nodes(self, shape: Shape, seconds: float, *, classic: bool = True) -> int:
        """A node budget worth about ``seconds`` of search on this shape (``classic=False``: of a variant)."""
        return max(1_000, int(default_max_nodes(shape, classic=classic) * seconds / DEFAULT_SECONDS))

    def guess_nodes(self, grid: Grid) -> int:
        """The node budget of the search behind a guess of hint, explain and rate: ``explain_seconds`` worth (the
        request's time budget also stops it: ``logic.budget.seconds_left``)."""
        return self.nodes(grid.shape, self.explain_seconds, classic=grid.geometry.is_classic)

    def inline_nodes(self, shape: Shape) -> int:
        """The node budget of a search on the event loop: ``inline_seconds`` worth for grids up to 9x9 (the
        band kernel's nodes cost about 0.3 µs), none for bigger ones."""
        if shape.n > 9 or self.inline_seconds <= 0:
            return 0
        return max(1, int(default_max_nodes(shape) * self.inline_seconds / DEFAULT_SECONDS))

    def to_dict(self) -> dict[str, object]:
        return {
            "max_body_bytes": self.max_body_bytes,
            "max_digits": self.max_digits,
            "verdict_seconds": self.verdict_seconds,
            "solve_seconds": self.solve_seconds,
            "explain_seconds": self.explain_seconds,
            "generate_seconds": self.generate_seconds,
        }
