"""What a search returns: a ``Status``, the solutions it kept and its ``SearchStats``."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bitdoku.errors import SearchLimitError, SearchTimeLimitError

if TYPE_CHECKING:
    from bitdoku.grid import Grid
    from bitdoku.shape import Shape

#: The node budget of a 9x9 search when none is given: about 40 s of the compiled engine's work, far more
#: than any 9x9 puzzle needs to be solved or proven unique.
DEFAULT_MAX_NODES = 100_000_000
#: Seconds of compiled search that a default budget allows on other shapes (see ``default_max_nodes``).
DEFAULT_SECONDS = 60.0
#: What a node of the generic kernel costs on a 9x9 grid; it grows with the number of cells it touches.
_GENERIC_NODE_SECONDS_9X9 = 7e-6


def default_max_nodes(shape: Shape, *, classic: bool = True) -> int:
    """The node budget when none is given: ``DEFAULT_MAX_NODES`` for a classic 9x9 grid and, for other shapes
    and for variants (``classic=False``: the cell-by-cell variant kernel's nodes cost as much as the generic
    kernel's, 40 times the 9x9 band kernel's), about ``DEFAULT_SECONDS`` of the generic kernel, whose node costs
    ~7 µs at 9x9 and grows with the cell count (measured: 42 µs a node on 25x25). So no call on a huge, nearly
    empty grid or a 9x9 variant with no solution runs for hours by default. (9x9 variants run on the digit-major
    kernel, ``kernels/variant81.py``, at ~1.6 µs a node: their default budget is 10-20 s of it.)

    >>> from bitdoku.shape import Shape
    >>> default_max_nodes(Shape(3, 3)), default_max_nodes(Shape(5, 5)), default_max_nodes(Shape(8, 8))
    (100000000, 1110857, 169503)
    >>> default_max_nodes(Shape(3, 3), classic=False)
    8571428
    """
    if shape.n == 9 and classic:
        return DEFAULT_MAX_NODES
    node_seconds = _GENERIC_NODE_SECONDS_9X9 * shape.n_cells / 81
    return min(DEFAULT_MAX_NODES, int(DEFAULT_SECONDS / node_seconds))


class Status(str, enum.Enum):
    """How a search ended; the string values are what the CLI prints and JSON carries.

    ``UNIQUE``: exactly one solution, proven. ``SOLVED``: a solution was found and uniqueness was not asked
    (``limit=1``). ``MULTIPLE``: at least two solutions. ``NO_SOLUTION``: the search space is exhausted.
    ``INVALID``: the givens break a rule, so no search was made. ``LIMIT``: the node budget or the time limit ran
    out first (``SearchResult.time_limit`` says which).
    """

    UNIQUE = "unique"
    SOLVED = "solved"
    MULTIPLE = "multiple"
    NO_SOLUTION = "no-solution"
    INVALID = "invalid"
    LIMIT = "limit"

    def __str__(self) -> str:
        return self.value

    @property
    def has_solution(self) -> bool:
        return self in (Status.UNIQUE, Status.SOLVED, Status.MULTIPLE)


@dataclass(frozen=True)
class SearchStats:
    """Counters of one search. ``nodes``: digits placed by the search; ``guesses``: branch points where
    more than one digit was tried; ``backtracks``: dead ends undone. Engines count what they do, so compare
    numbers within one engine."""

    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0

    @property
    def solved_without_guessing(self) -> bool:
        """Whether propagation alone settled every cell (meaningful for engines that count guesses)."""
        return self.guesses == 0


@dataclass(frozen=True)
class SearchResult:
    """The outcome of ``bitdoku.search``.

    ``count`` is the number of solutions found (at most the limit); ``solutions`` the first of them that were
    kept; ``reason`` a sentence for ``INVALID`` and ``LIMIT``; ``time_limit`` the seconds a search had when its
    time limit, not its node budget, ended it (``LIMIT``), else None.
    """

    status: Status
    count: int
    solutions: tuple[Grid, ...] = ()
    stats: SearchStats = field(default_factory=SearchStats)
    reason: str | None = None
    time_limit: float | None = None

    @property
    def solution(self) -> Grid | None:
        """The first solution, or ``None``."""
        return self.solutions[0] if self.solutions else None


def status_of(count: int, limit: int) -> Status:
    """Name the outcome of a finished search that found ``count`` solutions (stopping at ``limit``).

    One solution is proven unique when the search was allowed to look for a second one.
    """
    if count == 0:
        return Status.NO_SOLUTION
    if count >= 2:
        return Status.MULTIPLE
    return Status.UNIQUE if limit >= 2 else Status.SOLVED


def conflict_result(puzzle: Grid) -> SearchResult | None:
    """``Status.INVALID`` with the first conflict as its reason, or ``None`` when the givens are valid: the
    check every engine and strategy that searches Python-side makes before it starts."""
    problems = [str(conflict) for conflict in puzzle.conflicts()] or puzzle.cage_sum_errors()
    return SearchResult(Status.INVALID, 0, reason=problems[0]) if problems else None


def checked(result: SearchResult, grid: Grid | None = None) -> SearchResult:
    """The result, or the exception for an outcome a plain return value cannot express: the grid's first conflict
    (``InvalidGridError``) when the search found it invalid, ``SearchTimeLimitError`` or ``SearchLimitError`` when
    a budget ran out first. What ``solve`` and ``count_solutions`` return through."""
    if result.status is Status.INVALID and grid is not None:
        grid.validate()
    if result.status is Status.LIMIT and result.time_limit is not None:
        raise SearchTimeLimitError(result.time_limit, result.stats.nodes, result.count, result.stats)
    if result.status is Status.LIMIT:
        raise SearchLimitError(result.stats.nodes, result.count, result.stats)
    return result
