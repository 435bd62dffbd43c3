"""The public search functions: ``search``, ``solve``, ``count_solutions`` and ``is_unique``.

They take a ``Grid``, puzzle text or an array; check the input at this boundary; and hand a valid puzzle to
the engine named by ``engine``. ``search`` reports every outcome as a ``Status``; the others raise for
what they cannot answer (invalid givens, a spent node budget) and return plain values.
"""

from __future__ import annotations

import numpy as np

from bitdoku.engines import bitmask
from bitdoku.engines.registry import DEFAULT_ENGINE, get_engine
from bitdoku.engines.result import SearchResult, checked, default_max_nodes
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid, Puzzle, as_grid
from bitdoku.shape import Shape
from bitdoku.timelimit import check_seconds


def search(
    puzzle: Puzzle,
    *,
    limit: int = 2,
    keep: int = 1,
    engine: str = DEFAULT_ENGINE,
    max_nodes: int | None = None,
    shape: Shape | str | None = None,
    strategy: str = "dfs",
    threads: int | None = None,
    variant: str | Geometry | None = None,
    time_limit: float | None = None,
) -> SearchResult:
    """Search for up to ``limit`` solutions and report how it went; never raises for a bad puzzle.

    Parameters
    ----------
    puzzle : Grid, str or array
        The puzzle; text and arrays are parsed with ``Grid.parse`` and ``Grid.from_array``.
    limit : int
        Stop after this many solutions. 2 (the default) proves uniqueness; 1 only finds one.
    keep : int
        How many of the solutions found to return in ``result.solutions``.
    engine : str
        An engine name from ``bitdoku.ENGINES``.
    max_nodes : int, optional
        The node budget; the search ends with ``Status.LIMIT`` when it is spent. By default about a minute
        of search (``bitdoku.engines.result.default_max_nodes``: 100 million nodes for 9x9, 8.6 million for a 9x9
        variant, whose nodes cost 5-40 times more: 10-20 s of the 9x9 variant kernel).
    shape : Shape or str, optional
        The box shape, when it cannot be inferred from the cell count.
    strategy : str
        How the tree of configurations is visited: ``dfs`` (the engine's own search, the default), ``bfs``,
        ``mixed``, or on ``threads`` threads ``pt_dfs``, ``pt_mix``, ``farm`` or ``portfolio`` (compiled engine
        only). All give the same counts; the parallel ones pay off only on big trees. ``portfolio`` races seeded
        first-solution searches (``limit=1``, classic grids other than 9x9; else it runs ``pt_dfs``): it cuts the
        heavy tail of big grids. Classic and Killer grids (the other variants run ``dfs``).
    threads : int, optional
        Threads for the parallel strategies (default: every core).
    variant : str or Geometry, optional
        The rules, when ``puzzle`` is not a ``Grid`` that carries them: ``"x"``, ``"windoku"``, ``"jigsaw"`` (the
        text then holds the region map on a second line), ... (``bitdoku.geometry``). Default: classic.
    time_limit : float, optional
        Seconds the search may take (None, the default: no limit but the node budget; 0: stop at the first
        branch). A watchdog thread sets the kernel's stop flag, so the search ends within a node of the limit
        with ``Status.LIMIT``, its ``reason`` ("time limit of 2 s reached after 2.00 s: ...") and the solutions
        found so far. The bitmask engine only; the tree strategies check it in the kernel of each part and
        start no part after it (``bfs`` and ``mixed`` may finish the level they are expanding).

    Returns
    -------
    SearchResult
        ``status``, ``count``, ``solutions`` and ``stats``.

    Raises
    ------
    ParseError
        When ``puzzle`` is text or an array that is not a grid.

    Example
    -------
    >>> result = search("..3." ".4.2" "21.." "....")
    >>> result.status, result.count
    (<Status.UNIQUE: 'unique'>, 1)
    >>> print(result.solution.to_line())
    1234341221434321
    """
    grid = as_grid(puzzle, shape, variant)
    _check_count("limit", limit, minimum=1)
    _check_count("keep", keep, minimum=0)
    if max_nodes is not None:
        _check_count("max_nodes", max_nodes, minimum=1)
    budget = default_max_nodes(grid.shape, classic=grid.is_classic) if max_nodes is None else max_nodes
    if time_limit is not None:
        check_seconds(time_limit)
        if engine != "bitmask":
            raise ValueError(f"time_limit applies to the bitmask engine, not {engine!r}; bound the {engine} "
                             "engine with max_nodes")
    if engine == "bitmask" and strategy == "dfs":  # the default, straight to the engine (a few µs a call count)
        return bitmask.search(grid, limit=limit, max_nodes=budget, keep=keep, time_limit=time_limit)
    if strategy != "dfs":
        if not (grid.geometry.is_classic or grid.geometry.cages):
            raise ValueError(f"strategy {strategy!r} searches classic and Killer grids only; {grid.variant!r} "
                             "grids run 'dfs'")
        if engine != "bitmask":
            raise ValueError(f"strategy {strategy!r} runs on the bitmask engine, not {engine!r}")
        from bitdoku.parallel.run import search_tree

        return search_tree(grid, strategy=strategy, limit=limit, keep=keep, max_nodes=budget, threads=threads,
                           time_limit=time_limit)
    return get_engine(engine)(grid, limit=limit, max_nodes=budget, keep=keep)


def solve(
    puzzle: Puzzle, *, engine: str = DEFAULT_ENGINE, max_nodes: int | None = None, shape: Shape | str | None = None,
    variant: str | Geometry | None = None, time_limit: float | None = None,
) -> Grid | None:
    """Return a solution of the puzzle, or ``None`` when it has none.

    Raises ``InvalidGridError`` when the givens break a rule, ``SearchLimitError`` when the node budget runs out
    first and ``SearchTimeLimitError`` (a ``SearchLimitError``) when ``time_limit`` seconds do.

    Example
    -------
    >>> print(solve("..3." ".4.2" "21.." "....").to_line())
    1234341221434321
    """
    grid = as_grid(puzzle, shape, variant)
    return checked(search(grid, limit=1, engine=engine, max_nodes=max_nodes, time_limit=time_limit), grid).solution


def count_solutions(
    puzzle: Puzzle,
    *,
    limit: int = 2,
    engine: str = DEFAULT_ENGINE,
    max_nodes: int | None = None,
    shape: Shape | str | None = None,
    variant: str | Geometry | None = None,
    time_limit: float | None = None,
) -> int:
    """Count the solutions, stopping at ``limit``: the answer is exact when it is below ``limit``.

    Raises as ``solve`` does when a budget (``max_nodes``, ``time_limit``) runs out first.

    Example
    -------
    >>> count_solutions("...." "...." "...." "....", limit=1000)
    288
    """
    grid = as_grid(puzzle, shape, variant)
    return checked(search(grid, limit=limit, keep=0, engine=engine, max_nodes=max_nodes, time_limit=time_limit),
                    grid).count


def is_unique(
    puzzle: Puzzle, *, engine: str = DEFAULT_ENGINE, max_nodes: int | None = None, shape: Shape | str | None = None,
    variant: str | Geometry | None = None, time_limit: float | None = None,
) -> bool:
    """Whether the puzzle has exactly one solution (raises as ``solve`` does when a budget runs out first).

    Example
    -------
    >>> is_unique("..3." ".4.2" "21.." "...."), is_unique("1..." "...." "...." "....")
    (True, False)
    """
    return count_solutions(puzzle, limit=2, engine=engine, max_nodes=max_nodes, shape=shape, variant=variant,
                           time_limit=time_limit) == 1


def _check_count(name: str, value: int, *, minimum: int) -> None:
    """Reject a count argument that is not an integer of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer of at least {minimum}, not {value!r}")
