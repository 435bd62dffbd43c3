"""What each endpoint computes, as plain functions over the library: request model in, response model out.

They run on worker threads (``routes`` sends them there), check the grid size first, and give every search a
node budget and every human-style solve a time budget from ``Limits`` (``bitdoku.logic.budget``: checked inside
the techniques, since one step of a near-empty 25x25 grid took 14 s), so no request runs without a bound.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager

from bitdoku import __version__
from bitdoku.engines.result import SearchResult, Status
from bitdoku.errors import ParseError, StepLimitError, cell_name
from bitdoku.generate.puzzles import generate_many, run_seed
from bitdoku.grid import Grid
from bitdoku.logic.budget import time_budget
from bitdoku.logic.candidates import CandidateGrid, digits_of
from bitdoku.logic.explain import default_max_steps, explain, hint
from bitdoku.logic.rating import rate
from bitdoku.logic.step import Step
from bitdoku.reader import Rules
from bitdoku.shape import Shape
from bitdoku.solver import search
from bitdoku.warmup.units import generate_units, logic_units, search_units
from bitdoku.web.errors import ApiError, api_error, cell_index
from bitdoku.web.limits import Limits
from bitdoku.web.schemas import (
    CandidatesOut,
    ChangeOut,
    ConflictOut,
    CountIn,
    CountOut,
    ErrorBody,
    ExplainIn,
    ExplainOut,
    GenerateIn,
    GenerateOut,
    HealthOut,
    HintOut,
    PuzzleIn,
    RateOut,
    SolveOut,
    StateOut,
    StepOut,
)

#: The shapes the page offers: 4x4, 6x6, 9x9, 12x12, 16x16 and 25x25.
PAGE_SHAPES = ("2x2", "2x3", "3x3", "3x4", "4x4", "5x5")


def health(limits: Limits, ready: dict[str, bool] | None = None) -> HealthOut:
    return HealthOut(status="ok", version=__version__, shapes=list(PAGE_SHAPES), limits=limits.to_dict(),
                     ready=ready or {})


def search_needs(request: PuzzleIn, limits: Limits) -> tuple[str, ...]:
    """The warm-up units a count or a solve of the request runs (none for a request that will fail to parse)."""
    grid = _grid_or_none(request, limits)
    return () if grid is None else search_units(grid)


def logic_needs(request: PuzzleIn, limits: Limits) -> tuple[str, ...]:
    """The warm-up units a hint, an explanation or a rating of the request runs."""
    grid = _grid_or_none(request, limits)
    return () if grid is None else logic_units(grid)


def generate_needs(request: GenerateIn, limits: Limits) -> tuple[str, ...]:
    """The warm-up units a generate request runs (9x9 and smaller puzzles are rated: ``generation``)."""
    try:
        shape = Shape.parse(request.shape)
        empty = Grid.empty(shape)
        if request.variant is not None or request.regions is not None:
            empty = _under_variant(empty, request.variant, request.regions)
    except (ApiError, ValueError):
        return ()
    return generate_units(shape, empty.geometry, rated=shape.n <= 9)


def _grid_or_none(request: PuzzleIn, limits: Limits) -> Grid | None:
    try:
        return read_grid(request, limits)
    except (ApiError, ValueError):
        return None


def count(request: CountIn, limits: Limits, *, inline: bool = False) -> CountOut | None:
    """The live verdict; with ``inline``, only if ``Limits.inline_seconds`` of search answer it (else None)."""
    grid = read_grid(request, limits)
    budget = _budget(grid.shape, limits, limits.verdict_seconds, inline)
    if budget is None:
        return None
    result, seconds = _timed_search(grid, request.limit, 0, budget, None if inline else limits.verdict_seconds)
    if inline and result.status is Status.LIMIT:
        return None
    return CountOut(**_verdict(grid, result, seconds))


def solve(request: PuzzleIn, limits: Limits, *, inline: bool = False) -> SolveOut | None:
    """A solution and whether it is unique; ``inline`` as for ``count``."""
    grid = read_grid(request, limits)
    budget = _budget(grid.shape, limits, limits.solve_seconds, inline)
    if budget is None:
        return None
    result, seconds = _timed_search(grid, 2, 1, budget, None if inline else limits.solve_seconds)
    if inline and result.status is Status.LIMIT:
        return None
    solution = result.solution
    return SolveOut(**_verdict(grid, result, seconds), solution=solution.to_line() if solution else None,
                    guesses=result.stats.guesses, backtracks=result.stats.backtracks)


def _budget(shape: Shape, limits: Limits, seconds: float, inline: bool) -> int | None:
    """The node budget of a search: ``seconds`` worth, or on the event loop the inline budget (None when the
    shape is too big for one: its nodes cost tens of microseconds). A worker thread's search also gets
    ``seconds`` as its time limit, which holds when a loaded machine makes the nodes dearer; the node budget
    keeps the answers the same from run to run on a machine that is not."""
    if not inline:
        return limits.nodes(shape, seconds)
    return limits.inline_nodes(shape) or None


def candidates(request: PuzzleIn, limits: Limits) -> CandidatesOut:
    grid = read_grid(request, limits)
    geometry = grid.geometry
    listed = (_candidate_lists(CandidateGrid.from_grid(grid)) if geometry.is_classic
              else [grid.candidates(cell) for cell in range(len(grid))])  # the variant's peers: Grid knows them
    return CandidatesOut(shape=str(grid.shape), values=grid.to_line(), variant=geometry.name,
                         regions=geometry.region_map() if geometry.regions is not None else None,
                         candidates=listed, conflicts=_conflicts(grid))


def next_hint(request: PuzzleIn, limits: Limits) -> HintOut:
    grid = read_grid(request, limits)
    with _answering(grid.n), time_budget(limits.explain_seconds):
        step = hint(grid.validate(), guess=True, max_nodes=limits.guess_nodes(grid))
    return HintOut(step=_step(step) if step else None, solved=step is None)


def explanation(request: ExplainIn, limits: Limits) -> ExplainOut:
    """The steps until solved, or until the time budget ends the list (``truncated``)."""
    grid = read_grid(request, limits)
    start = CandidateGrid.from_grid(grid)
    steps: list[StepOut] = []
    truncated = False
    with _answering(grid.n), time_budget(limits.explain_seconds):
        grid.validate()
        try:
            for step in explain(grid, guess=request.guess, max_nodes=limits.guess_nodes(grid)):
                steps.append(_step(step))
        except StepLimitError:  # a time limit too (TimeLimitError)
            truncated = True
    solved = not truncated and (not steps or steps[-1].technique not in ("Stalled", "Contradiction"))
    return ExplainOut(start=StateOut(values=grid.to_line(), candidates=_candidate_lists(start)), steps=steps,
                      solved=solved, truncated=truncated)


def rating(request: PuzzleIn, limits: Limits) -> RateOut:
    grid = read_grid(request, limits)
    with _answering(grid.n), time_budget(limits.explain_seconds):
        found = rate(grid, max_steps=_rating_steps(grid.shape, limits), max_nodes=limits.guess_nodes(grid))
    return RateOut(score=found.score, level=found.level, hardest=found.hardest, counts=found.counts,
                   steps=found.steps)


def generation(request: GenerateIn, limits: Limits) -> GenerateOut:
    """A new puzzle under the request's rules (a bad variant name or region map: the errors of ``read_grid``)."""
    with _answering(None):
        shape = Shape.parse(request.shape)
        _check_size(shape, limits)
    empty = Grid.empty(shape)
    if request.variant is not None or request.regions is not None:
        empty = _under_variant(empty, request.variant, request.regions)
    rules = empty.geometry  # classic, unless the request names rules
    with _answering(None), time_budget(limits.generate_seconds):  # a rating on the way stops in time too
        difficulty = request.difficulty.replace("-", " ") if request.difficulty else None
        root, seed = run_seed(request.seed)
        made = next(generate_many(1, shape, seed=root, symmetry=request.symmetry, minimal=request.minimal,
                                  difficulty=difficulty, rated=shape.n <= 9, threads=1,
                                  time_limit=limits.generate_seconds, variant=rules))
    record = made.to_dict()
    return GenerateOut(puzzle=record["puzzle"], solution=record["solution"], shape=str(shape), clues=made.clues,
                       symmetry=made.symmetry.value, minimal=made.minimal, rating=record["rating"],
                       level=record["level"], hardest=record["hardest"], seconds=made.seconds, seed=seed or 0,
                       variant=rules.name, regions=rules.region_map() if rules.regions is not None else None)


def read_grid(request: PuzzleIn, limits: Limits) -> Grid:
    """The request's grid, or an ``ApiError``: text that is no grid, a shape too big for this server."""
    shape = None
    with _answering(None):
        if request.shape is not None:
            shape = Shape.parse(request.shape)
            _check_size(shape, limits)
    with _answering(shape.n if shape else _digits_of_text(request.puzzle)):
        grid = Grid.parse(request.puzzle, shape)
    _check_size(grid.shape, limits)
    if request.variant is None and request.regions is None:
        return grid
    return _under_variant(grid, request.variant, request.regions)


def _under_variant(grid: Grid, variant: str | None, regions: str | None) -> Grid:
    """The grid under the request's variant: a bad name is a ``variant`` error, a bad region map a ``regions``
    error naming the cell where the map goes wrong (as an index of this grid)."""
    try:
        Rules.of(variant, None, grid.shape)
    except ParseError as error:
        raise _kind_of(api_error(error, grid.n), "variant") from error
    try:
        return Rules.of(variant, regions, grid.shape).apply(grid)  # type: ignore[union-attr]
    except ParseError as error:
        raise _kind_of(api_error(error, grid.n), "regions") from error


def _kind_of(error: ApiError, kind: str) -> ApiError:
    error.body.kind = kind
    return error


@contextmanager
def _answering(n: int | None) -> Iterator[None]:
    """Turn the library's errors raised inside the block into ``ApiError``s (cells as indices of an N x N grid)."""
    try:
        yield
    except ApiError:
        raise
    except Exception as error:
        raise api_error(error, n) from error


def _digits_of_text(text: str) -> int | None:
    """N of a puzzle's text, from its layout: N*N characters on one line, or N rows of cells in a picture (box
    rules left out), so that a parse error can name its cell by index."""
    rows = [row for row in text.strip().splitlines() if row.strip() and set(row.strip()) - set("-+|= ")]
    if len(rows) > 1:
        return len(rows)
    root = math.isqrt(len(text.strip()))
    return root if root * root == len(text.strip()) else None


def _check_size(shape: Shape, limits: Limits) -> None:
    if shape.n > limits.max_digits:
        raise ApiError(422, ErrorBody(kind="too_large", message=f"this server solves grids up to "
                                      f"{limits.max_digits}x{limits.max_digits}, not {shape.size_name}"))


def _timed_search(grid: Grid, limit: int, keep: int, max_nodes: int,
                  time_limit: float | None) -> tuple[SearchResult, float]:
    start = time.perf_counter()
    result = search(grid, limit=limit, keep=keep, max_nodes=max_nodes, time_limit=time_limit)
    return result, time.perf_counter() - start


def _verdict(grid: Grid, result: SearchResult, seconds: float) -> dict[str, object]:
    status = result.status
    if status is Status.SOLVED:  # a count stopped at one solution
        status = Status.UNIQUE
    return {"status": status.value, "values": grid.to_line(), "count": result.count, "nodes": result.stats.nodes,
            "seconds": round(seconds, 6), "conflicts": _conflicts(grid) if status is Status.INVALID else [],
            "reason": result.reason}


def _conflicts(grid: Grid) -> list[ConflictOut]:
    return [
        ConflictOut(digit=c.digit, unit=c.unit, names=list(c.cells),
                    cells=[index for index in (cell_index(name, grid.n) for name in c.cells) if index is not None])
        for c in grid.conflicts()
    ]


def _candidate_lists(state: CandidateGrid) -> list[list[int]]:
    return [digits_of(mask) if not state.value(cell) else [] for cell, mask in enumerate(state.masks)]


def _step(step: Step) -> StepOut:
    n = step.before.n

    def changes(pairs: tuple[tuple[int, int], ...]) -> list[ChangeOut]:
        return [ChangeOut(cell=cell, name=cell_name(cell, n), digit=digit) for cell, digit in pairs]

    units = [step.before.layout.unit_name(unit) for unit in step.units]  # "region A" in a jigsaw
    return StepOut(technique=step.technique, text=step.text, placements=changes(step.placements),
                   eliminations=changes(step.eliminations), cells=list(step.cells), units=units)



def _rating_steps(shape: Shape, limits: Limits) -> int:
    """A rating's step budget: the library's for 9x9 and smaller, fewer on big grids (a ladder pass there
    takes a good part of a second)."""
    return default_max_steps(shape) if shape.n <= 9 else max(16, int(limits.explain_seconds * 8))
