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
from bitdoku.constraints.cages import Cage, check_cages
from bitdoku.engines.result import SearchResult, Status
from bitdoku.errors import ParseError, StepLimitError, cell_name
from bitdoku.formats.killer import cages_from_records
from bitdoku.generate.puzzles import generate_many, run_seed
from bitdoku.geometry import KILLER, Geometry
from bitdoku.grid import Grid
from bitdoku.logic.budget import time_budget
from bitdoku.logic.candidates import CandidateGrid, digits_of
from bitdoku.logic.explain import default_max_steps, explain, hint
from bitdoku.logic.rating import rate
from bitdoku.logic.step import Step
from bitdoku.reader import Rules
from bitdoku.shape import Shape
from bitdoku.solution_digits import true_candidates
from bitdoku.solver import search
from bitdoku.warmup.units import KILLER_UNIT, generate_units, logic_units, search_units
from bitdoku.web.errors import ApiError, api_error, cell_index
from bitdoku.web.limits import Limits
from bitdoku.web.schemas import (
    CageOut,
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
    LinkIn,
    LinkOut,
    PuzzleIn,
    RateOut,
    SolveOut,
    StateOut,
    StepOut,
    TrueCandidatesOut,
)

#: The shapes the page offers: 4x4, 6x6, 9x9, 12x12, 16x16 and 25x25.
PAGE_SHAPES = ("2x2", "2x3", "3x3", "3x4", "4x4", "5x5")
#: The most seconds a true-candidates request may take (each candidate's search also has a node budget): a 9x9
#: Killer takes about 60 ms, a near-empty 25x25 grid would take minutes and answers ``complete: false``.
TRUE_CANDIDATES_SECONDS = 1.0


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
        if _names_killer(request.variant):
            return (KILLER_UNIT,)  # the generator of Killers searches with the kernel of cages alone
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
    budget = _budget(grid, limits, limits.verdict_seconds, inline)
    if budget is None:
        return None
    result, seconds = _timed_search(grid, request.limit, 0, budget, None if inline else limits.verdict_seconds)
    if inline and result.status is Status.LIMIT:
        return None
    return CountOut(**_verdict(grid, result, seconds))


def solve(request: PuzzleIn, limits: Limits, *, inline: bool = False) -> SolveOut | None:
    """A solution and whether it is unique; ``inline`` as for ``count``."""
    grid = read_grid(request, limits)
    budget = _budget(grid, limits, limits.solve_seconds, inline)
    if budget is None:
        return None
    result, seconds = _timed_search(grid, 2, 1, budget, None if inline else limits.solve_seconds)
    if inline and result.status is Status.LIMIT:
        return None
    solution = result.solution
    return SolveOut(**_verdict(grid, result, seconds), solution=solution.to_line() if solution else None,
                    guesses=result.stats.guesses, backtracks=result.stats.backtracks)


def _budget(grid: Grid, limits: Limits, seconds: float, inline: bool) -> int | None:
    """The node budget of a search: ``seconds`` worth, or on the event loop the inline budget (None when the
    shape is too big for one: its nodes cost tens of microseconds). A worker thread's search also gets
    ``seconds`` as its time limit, which holds when a loaded machine makes the nodes dearer; the node budget
    keeps the answers the same from run to run on a machine that is not. A variant's nodes (a Killer's too)
    cost more than a classic grid's, so its budget has fewer."""
    if not inline:
        return limits.nodes(grid.shape, seconds, classic=grid.is_classic)
    return limits.inline_nodes(grid.shape) or None


def candidates(request: PuzzleIn, limits: Limits) -> CandidatesOut:
    return candidates_of(read_grid(request, limits))


def candidates_of(grid: Grid) -> CandidatesOut:
    """The ``candidates`` answer of a grid already read (a request's, or a link's)."""
    geometry = grid.geometry
    listed = (_candidate_lists(CandidateGrid.from_grid(grid)) if geometry.is_classic
              else [grid.candidates(cell) for cell in range(len(grid))])  # the variant's peers: Grid knows them
    return CandidatesOut(shape=str(grid.shape), values=grid.to_line(), variant=geometry.name,
                         regions=geometry.region_map() if geometry.regions is not None else None,
                         cages=_cages_out(grid), candidates=listed, conflicts=_conflicts(grid))


def truth(request: PuzzleIn, limits: Limits) -> TrueCandidatesOut:
    """Each cell's true candidates (``bitdoku.true_candidates``) within ``TRUE_CANDIDATES_SECONDS`` (at most the
    solve's time limit) and a node budget a candidate of ``Limits.verdict_seconds``; a digit left undecided is
    left out and counted."""
    grid = read_grid(request, limits)
    seconds = min(TRUE_CANDIDATES_SECONDS, limits.solve_seconds)
    start = time.perf_counter()
    with _answering(grid.n):
        found = true_candidates(grid, max_nodes=limits.nodes(grid.shape, limits.verdict_seconds,
                                                             classic=grid.is_classic), time_limit=seconds)
    return TrueCandidatesOut(candidates=[found.digits(cell) for cell in range(len(grid))], complete=found.complete,
                             undecided=len(found.undecided), seconds=round(time.perf_counter() - start, 6))


def read_link(request: LinkIn, limits: Limits) -> CandidatesOut:
    """The grid of an f-puzzles or SudokuPad link (``Grid.parse`` reads links when the library has the link
    reader), as ``candidates`` answers for pasted text: a ``link`` error when it cannot be read."""
    text = request.link.strip()
    try:
        grid = Grid.parse(text)
    except ParseError as error:
        raise _link_error(text, error) from error
    except ValueError as error:
        raise _kind_of(api_error(error, None), "link") from error
    if grid.constraints:  # the page would draw and send the grid without them: refused, not solved without
        kinds = ", ".join(sorted({constraint.kind for constraint in grid.constraints}))
        raise ApiError(422, ErrorBody(kind="link", message=f"this puzzle uses {kinds}: the page cannot show "
                                      "setters' constraints yet; `bitdoku solve LINK` and Grid.parse(link) solve it"))
    _check_size(grid.shape, limits)
    return candidates_of(grid)


def link_of(request: PuzzleIn, limits: Limits) -> LinkOut:
    """The request's grid as an f-puzzles link (``Grid.to_fpuzzles``; a rule f-puzzles has not is a 422)."""
    grid = read_grid(request, limits)
    try:
        link = grid.to_fpuzzles()
    except ValueError as error:  # a rule f-puzzles has not (windoku)
        raise _kind_of(api_error(error, grid.n), "link") from error
    return LinkOut(link=link)


def _link_error(text: str, error: ParseError) -> ApiError:
    """A link the library refused, with its reason, as an error of kind ``link``."""
    return _kind_of(api_error(error, None), "link")


def _cages_out(grid: Grid) -> list[CageOut] | None:
    """A Killer's cages as the JSON format writes them (None for rules without cages)."""
    if not grid.cages:
        return [] if grid.variant == KILLER else None
    return [CageOut(sum=cage.total, cells=[cell_name(cell, grid.n) for cell in cage.cells]) for cage in grid.cages]


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
    if _names_killer(request.variant):
        return _killer_generation(request, shape, limits)
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


def _killer_generation(request: GenerateIn, shape: Shape, limits: Limits) -> GenerateOut:
    """A new Killer (``bitdoku.generate.killer``): a cage layout proven unique, no givens; symmetry and
    minimality shape a classic puzzle's clues and are refused (``bad_request``), as the library does."""
    _refuse_other_rules(request.variant, request.regions)
    with _answering(None), time_budget(limits.generate_seconds):
        root, seed = run_seed(request.seed)
        made = next(generate_many(1, shape, seed=root, symmetry=request.symmetry, minimal=request.minimal,
                                  difficulty=request.difficulty.replace("-", " ") if request.difficulty else None,
                                  threads=1, time_limit=limits.generate_seconds, variant=KILLER))
    return GenerateOut(puzzle=made.puzzle.to_line(), solution=made.solution.to_line(), shape=str(shape),
                       clues=made.clues, symmetry="none", minimal=None, rating=None, level=request.difficulty,
                       hardest=None, seconds=made.seconds, seed=seed or 0, variant=KILLER,
                       cages=_cages_out(made.puzzle))


def read_grid(request: PuzzleIn, limits: Limits) -> Grid:
    """The request's grid, or an ``ApiError``: text that is no grid, a shape too big for this server. A Killer
    comes as givens with ``cages``, or (``variant="killer"`` without them) as its own text: the Killer line
    ``MAP SUMS [GIVENS]`` or JSON with cages."""
    shape = None
    with _answering(None):
        if request.shape is not None:
            shape = Shape.parse(request.shape)
            _check_size(shape, limits)
    killer_text = (request.cages is None and _names_killer(request.variant)
                   and not request.puzzle.lstrip().startswith("{"))  # JSON names its own variant
    with _answering(shape.n if shape else _digits_of_text(request.puzzle)):
        grid = Grid.parse(request.puzzle, shape, KILLER if killer_text else None)
    _check_size(grid.shape, limits)
    if request.cages is not None or _names_killer(request.variant):
        return _with_cages(grid, request)
    if request.variant is None and request.regions is None:
        return grid
    return _under_variant(grid, request.variant, request.regions)


def _names_killer(variant: str | None) -> bool:
    return variant is not None and KILLER in [word.strip().lower() for word in variant.split("+")]


def _with_cages(grid: Grid, request: PuzzleIn) -> Grid:
    """The grid as a Killer with the request's cages: a ``cages`` error names the cage at fault (its letter in
    the reading order of first cells, and its cells), a ``variant`` error the rules cages cannot join yet."""
    if grid.cages:  # pasted Killer text or JSON brings its own cages
        if request.cages is None:
            return grid
        raise ApiError(422, ErrorBody(kind="cages", message="the puzzle brings its own cages; send them in "
                                      "the puzzle or in cages, not both"))
    _refuse_other_rules(request.variant, request.regions)
    records = [cage.model_dump() for cage in request.cages or ()]
    try:
        cages = cages_from_records(records, grid.shape)
    except ParseError as error:  # a cell name: the cage is numbered as sent
        raise _kind_of(api_error(error, grid.n), "cages") from error
    try:
        check_cages(grid.shape, cages, grid.cells)
    except ParseError as error:
        raise _cage_error(error, grid, cages) from error
    return Grid(grid.cells, grid.shape, Geometry(grid.shape, cages=cages))


def _refuse_other_rules(variant: str | None, regions: str | None) -> None:
    """The ``variant`` error of cages with other rules (``"killer+x"``, a region map): not supported yet."""
    if regions is not None or (variant or KILLER).strip().lower() != KILLER:
        other = repr(variant) if regions is None else "a region map"
        raise ApiError(422, ErrorBody(kind="variant", message=f"killer cages go on a classic grid for now, not "
                                      f"with {other}"))


def _cage_error(error: ParseError, grid: Grid, cages: tuple[Cage, ...]) -> ApiError:
    """The ``cages`` error of ``check_cages``, with the cage it names: the first whose prefix of the cages
    fails (a cage's check reads only the cages before it), found by bisection."""
    low, high = 0, len(cages) - 1
    while low < high:
        middle = (low + high) // 2
        try:
            check_cages(grid.shape, cages[: middle + 1], grid.cells)
            low = middle + 1
        except ParseError:
            high = middle
    cells = [cell for cell in cages[low].cells if cell < len(grid)]
    return ApiError(422, ErrorBody(kind="cages", message=str(error), cells=cells,
                                   cell=cells[0] if cells else None,
                                   name=cell_name(cells[0], grid.n) if cells else None))


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
