"""``generate`` and ``generate_many``: puzzles with exactly one solution, made to order.

Each attempt fills a random grid, shuffles the orbits of the chosen symmetry, and removes them one by one while
the compiled engine proves the puzzle still unique (``removal``). The attempt is kept if it meets the request
(the clue count, minimality, the rater's level or score) and thrown away otherwise; attempts go on until one
is kept or the puzzle's node or time budget is spent, which raises ``GenerationLimitError`` with what came
closest. ``generate_many`` makes puzzle ``i`` of a run from its own seed stream (``seeds``), on a pool of threads
(the kernels release the GIL), and hands the puzzles back in order: the same seed gives the same puzzles on any
number of threads.
"""

from __future__ import annotations

import math
import secrets
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

import numpy as np
from numpy.typing import NDArray

from bitdoku.batch import default_threads
from bitdoku.errors import GenerationLimitError, StepLimitError
from bitdoku.generate.budget import Budget, BudgetSpent, Cancel
from bitdoku.generate.grids import fill
from bitdoku.generate.removal import remove_clues
from bitdoku.generate.request import Request
from bitdoku.generate.seeds import Seed, puzzle_stream, root_seed, root_sequence
from bitdoku.generate.symmetry import Symmetry, orbits
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.kernels import dig, make
from bitdoku.kernels.fill import has_neighbours
from bitdoku.kernels.rng import shuffle
from bitdoku.kernels.status import COMPLETE
from bitdoku.kernels.variant import workspace_for
from bitdoku.logic.rating import Rating, rate
from bitdoku.shape import Shape
from bitdoku.timelimit import TimeLimit

if TYPE_CHECKING:
    from bitdoku.generate.grids import Workspace

#: Grids this small make a whole attempt in one kernel call, many rows at a time (``kernels.make``): 12x12 and less.
BATCHED_CELLS = 144
#: The most puzzles of a slice: one task of the thread pool, one kernel call an attempt round.
SLICE_PUZZLES = 64
#: Slices in flight per thread in ``generate_many``: enough to keep every thread busy while results are handed
#: back in order.
IN_FLIGHT_PER_THREAD = 2


@dataclass(frozen=True)
class Generated:
    """One generated puzzle and the facts about it.

    ``minimal`` is True when no clue can be removed (proven), False when one can, and None when that was not
    checked (a symmetric puzzle made without ``minimal=True``: no *orbit* of clues can be removed, but a single
    clue might). ``rating`` is there when the request filtered by difficulty or asked for it. ``attempts``,
    ``nodes`` and ``seconds`` are the work spent on this puzzle, failed attempts included.
    """

    index: int
    puzzle: Grid
    solution: Grid
    symmetry: Symmetry
    minimal: bool | None
    rating: Rating | None
    attempts: int
    nodes: int
    seconds: float

    @property
    def clues(self) -> int:
        return self.puzzle.givens

    def to_dict(self) -> dict[str, object]:
        """The fields as JSON carries them (``bitdoku generate --format json``)."""
        rating = self.rating
        return {
            "index": self.index,
            "puzzle": self.puzzle.to_line(),
            "solution": self.solution.to_line(),
            "shape": str(self.puzzle.shape),
            "clues": self.clues,
            "symmetry": self.symmetry.value,
            "minimal": self.minimal,
            "rating": rating.score if rating else None,
            "level": rating.level if rating else None,
            "hardest": rating.hardest if rating else None,
            "attempts": self.attempts,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            **self._variant_fields(),
        }

    def _variant_fields(self) -> dict[str, str]:
        """``variant`` (and a jigsaw's ``regions``) for a variant puzzle; nothing for a classic one."""
        geometry = self.puzzle.geometry
        if geometry.is_classic:
            return {}
        fields = {"variant": geometry.name}
        if geometry.regions is not None:
            fields["regions"] = geometry.region_map()
        return fields


def generate(
    shape: Shape | str = "3x3",
    *,
    seed: Seed = None,
    symmetry: Symmetry | str = Symmetry.NONE,
    minimal: bool = False,
    clues: int | None = None,
    difficulty: str | None = None,
    rating: tuple[float, float] | None = None,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    variant: str | Geometry | None = None,
) -> Grid:
    """A random puzzle with exactly one solution.

    Parameters
    ----------
    shape : Shape or str
        The box shape: ``'3x3'`` (9x9, the default), ``'2x2'``, ``'2x3'``, ``'4x4'``, ``'5x5'``, ...
    seed : int, numpy Generator or None
        The same seed gives the same puzzle (None: a fresh one each call).
    symmetry : str
        Keep the clue pattern symmetric: ``none``, ``rotational``, ``quarter-turn``, ``mirror``, ``flip``,
        ``diagonal``, ``antidiagonal`` or ``dihedral`` (``bitdoku.generate.Symmetry``).
    minimal : bool
        No clue can be removed without losing uniqueness (checked clue by clue). Without it, clues are removed
        in one pass over the symmetry's orbits in random order: for ``symmetry='none'`` and 9x9 that is
        minimal too; larger grids cap each uniqueness check and may keep a clue or two more.
    clues : int, optional
        The exact number of clues wanted (with ``minimal``: minimal puzzles with that many).
    difficulty : str, optional
        A level of ``bitdoku.rate`` (``easy``, ``medium``, ``hard``, ``expert``, ``extreme``, ``beyond logic``).
    rating : (float, float), optional
        A range of ``bitdoku.rate`` scores, both ends included.
    max_nodes, time_limit : optional
        The search nodes and seconds the puzzle may take, failed attempts included (defaults: the shape's
        search budget and 60 s).
    variant : str or Geometry, optional
        The rules (``bitdoku.geometry``): ``"x"``, ``"windoku"``, ``"anti-knight"``, ``"anti-king"``,
        ``"nonconsecutive"``, combinations (``"x+anti-king"``), or a ``Geometry`` (a jigsaw: ``Geometry.jigsaw(map)``
        or ``bitdoku.generate.regions.random_jigsaw``). The puzzle is unique under those rules and carries them.
        A variant's ``difficulty`` and ``rating`` are those of ``bitdoku.rate`` on it (the SE numbers of the
        techniques that hold on its geometry). ``"killer"`` makes a Killer (``generate.killer.generate_killer``):
        ``clues`` are its givens (none by default), ``difficulty`` one of ``generate.killer.KILLER_LEVELS``.

    Returns
    -------
    Grid

    Raises
    ------
    ValueError
        For a request no puzzle can meet (``clues=10`` on 9x9: no 9x9 puzzle with fewer than 17 clues is unique).
    GenerationLimitError
        When the budget runs out first; it says what came closest.

    Example
    -------
    >>> from bitdoku import is_unique
    >>> puzzle = generate("3x3", seed=7, symmetry="rotational")
    >>> is_unique(puzzle), puzzle == generate("3x3", seed=7, symmetry="rotational")
    (True, True)
    """
    if _is_killer(variant):
        from bitdoku.generate.killer import generate_killer, refuse_classic_options

        refuse_classic_options(symmetry=symmetry, minimal=minimal, rating=rating)
        return generate_killer(shape, seed=seed, difficulty=difficulty, givens=clues or 0, max_nodes=max_nodes,
                               time_limit=time_limit)
    request = Request.make(shape, symmetry=symmetry, minimal=minimal, clues=clues, difficulty=difficulty,
                           rating=rating, max_nodes=max_nodes, time_limit=time_limit, variant=variant)
    return make_puzzle(request, puzzle_stream(root_sequence(seed), 0), 0).puzzle


def generate_many(
    count: int,
    shape: Shape | str = "3x3",
    *,
    seed: Seed = None,
    symmetry: Symmetry | str = Symmetry.NONE,
    minimal: bool = False,
    clues: int | None = None,
    difficulty: str | None = None,
    rating: tuple[float, float] | None = None,
    distinct: bool = False,
    rated: bool = False,
    threads: int | None = None,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    start: int = 0,
    variant: str | Geometry | None = None,
) -> Iterator[Generated]:
    """Make ``count`` puzzles on ``threads`` cores and yield them in order as they are ready.

    The options are ``generate``'s; ``max_nodes`` and ``time_limit`` apply to each puzzle. ``distinct`` makes
    sure no two puzzles of the run are equivalent (the same up to the grid's symmetries and relabelling of the
    digits; 9x9 only, by canonical form). ``rated`` rates every puzzle (``Generated.rating``), as a difficulty
    filter does anyway. Puzzle ``i`` depends only on ``seed`` and ``i``, never on ``threads``; ``start`` skips the
    first puzzles of the run (they are not made: a resumed run goes on with puzzle ``start``). ``variant`` as for
    ``generate``.

    Raises ``GenerationLimitError`` when one puzzle spends its budget (the puzzles before it have been yielded).

    Example
    -------
    >>> [g.puzzle.givens >= 4 for g in generate_many(3, "2x2", seed=1)]
    [True, True, True]
    """
    if _is_killer(variant):
        return _killers(count, shape, seed=seed, symmetry=symmetry, minimal=minimal, clues=clues,
                        difficulty=difficulty, rating=rating, distinct=distinct, threads=threads,
                        max_nodes=max_nodes, time_limit=time_limit, start=start)
    request = Request.make(shape, symmetry=symmetry, minimal=minimal, clues=clues, difficulty=difficulty,
                           rating=rating, max_nodes=max_nodes, time_limit=time_limit, variant=variant)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count must be a non-negative integer, not {count!r}")
    if distinct and (request.shape != Shape(3, 3) or not request.geometry.is_classic):
        raise ValueError("distinct puzzles are told apart by their canonical form, which is defined for 9x9 only "
                         "(classic rules)")
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= count:
        raise ValueError(f"start must be an integer from 0 to count, not {start!r}")
    return _Run(request, root_sequence(seed), count, distinct=distinct, rated=rated, threads=threads,
                start=start).results()


def _is_killer(variant: str | Geometry | None) -> bool:
    """Whether a request is for Killers (``generate.killer``): the name ``"killer"``; a Geometry with cages is one
    Killer's, not a request for new ones."""
    return isinstance(variant, str) and variant.strip().lower() == "killer"


def _killers(count: int, shape: Shape | str, *, seed: Seed, symmetry: Symmetry | str, minimal: bool,
             clues: int | None, difficulty: str | None, rating: tuple[float, float] | None, distinct: bool,
             threads: int | None, max_nodes: int | None, time_limit: float | None, start: int) -> Iterator[Generated]:
    """``generate_many`` for Killers (``generate.killer.generate_killers``; ``clues`` are its givens), each as a
    ``Generated`` (no symmetry, minimality or rating)."""
    from bitdoku.generate.killer import generate_killers, refuse_classic_options

    refuse_classic_options(symmetry=symmetry, minimal=minimal, rating=rating, distinct=distinct)
    made = generate_killers(count, shape, seed=seed, difficulty=difficulty, givens=clues or 0, max_nodes=max_nodes,
                            time_limit=time_limit, threads=threads, start=start)
    return (Generated(killer.index, killer.puzzle, killer.solution, Symmetry.NONE, None, None, killer.attempts,
                      killer.nodes, killer.seconds) for killer in made)


def run_seed(seed: Seed) -> tuple[np.random.SeedSequence, int | None]:
    """The root seed sequence a run will use, and the integer that repeats it (the CLI prints it). Without a
    seed, a fresh 48-bit one: short enough to copy, and runs don't share one by chance."""
    root = root_sequence(secrets.randbits(48) if seed is None else seed)
    return root, root_seed(root)


@dataclass
class _Attempts:
    """What the attempts for one puzzle saw, for the message when none is kept."""

    count: int = 0
    fewest_clues: int | None = None
    not_minimal: int = 0
    levels: Counter[str] = field(default_factory=Counter)
    scores: list[float] = field(default_factory=list)

    def closest(self, request: Request) -> str | None:
        parts = []
        if request.clues is not None and self.fewest_clues is not None:
            parts.append(f"the fewest clues reached was {self.fewest_clues}")
        if request.minimal and self.not_minimal:
            parts.append(f"{self.not_minimal:,} had a removable clue")
        if request.difficulty is not None and self.levels:
            parts.append("levels seen: " + ", ".join(f"{level} {n:,}" for level, n in self.levels.most_common()))
        if request.rating is not None and self.scores:
            parts.append(f"scores seen from {min(self.scores):.2f} to {max(self.scores):.2f}")
        return "; ".join(parts) or None


@dataclass
class _Candidate:
    """One attempt's puzzle and solution (uint8 cells) and what its removal pass found."""

    cells: NDArray[np.uint8]
    solution: NDArray[np.uint8]
    undecided: int  # uniqueness checks cut off by their node budget (their clues stayed)
    minimal: int  # 1 proven minimal, 0 not (or not proven), -1 not checked


class _Maker:
    """Makes and judges attempts for one request.

    Small grids (``BATCHED_CELLS`` cells at most) make a whole attempt in one kernel call, for many rows at once
    (``kernels.make.attempt_rows``); larger ones drive the fill and the removal pass in calls of bounded work, so
    the deadline is checked between them.
    """

    def __init__(self, request: Request) -> None:
        self.request = request
        self.orbits = orbits(request.shape, request.symmetry)
        self.batched = request.shape.n_cells <= BATCHED_CELLS
        self.check_minimal = request.minimal and request.symmetry is not Symmetry.NONE

    def attempt_rows(self, rngs: NDArray[np.uint64], max_nodes: int,
                     stop: NDArray[np.int64] | None = None) -> list[tuple[_Candidate | None, int]]:
        """One attempt for each row of ``rngs`` (uint64[k, 1], advanced): (candidate or None, nodes spent); the
        rows left when another thread sets ``stop[0]`` (the first deadline of the rows) are not made."""
        shape, request = self.request.shape, self.request
        puzzles = np.zeros((len(rngs), shape.n_cells), dtype=np.uint8)
        solutions = np.zeros_like(puzzles)
        outcome = np.zeros((len(rngs), make.N_OUTCOME), dtype=np.int64)
        make.attempt_rows(rngs, shape.n, *request.tables, self.orbits, request.dig_target, request.check_nodes,
                          request.check_rules, max_nodes, self.check_minimal, puzzles, solutions, outcome,
                          np.zeros(1, np.int64) if stop is None else stop)
        out = []
        for row, facts in enumerate(outcome):
            nodes = int(facts[make.FILL_NODES] + facts[make.CHECK_NODES])
            candidate = None
            if facts[make.MADE]:
                candidate = _Candidate(puzzles[row], solutions[row], int(facts[make.UNDECIDED]),
                                       int(facts[make.MINIMAL]))
            out.append((candidate, nodes))
        return out

    def attempt_bounded(self, rng: NDArray[np.uint64], budget: Budget, workspace: Workspace) -> _Candidate:
        """One attempt in calls of bounded work, charging ``budget`` (``BudgetSpent`` when it runs out)."""
        shape, request = self.request.shape, self.request
        solution = fill(shape, rng, budget, workspace, request.tables)
        order = np.arange(len(self.orbits), dtype=np.int32)
        shuffle(rng, order)
        if has_neighbours(request.tables[2]):  # nonconsecutive: the border first, as ``make.attempt_rows``
            dig.edge_first(order, self.orbits, shape.n)
        cells, counters = remove_clues(solution, shape, self.orbits, order, target=request.dig_target,
                                       check_nodes=request.check_nodes, check_rules=request.check_rules,
                                       budget=budget, tables=request.tables)
        minimal = -1
        if self.check_minimal and request.dig_target == 0 and counters.undecided == 0:
            minimal = int(_proven_minimal(request, cells, solution, budget))
        return _Candidate(cells, solution, counters.undecided, minimal)

    def judge(self, candidate: _Candidate, seen: _Attempts, rated: bool) -> tuple[Grid, Grid, bool | None,
                                                                                  Rating | None] | None:
        """The puzzle, its solution, its minimality and rating if the candidate meets the request; else None."""
        request = self.request
        clues = int(np.count_nonzero(candidate.cells))
        seen.fewest_clues = clues if seen.fewest_clues is None else min(seen.fewest_clues, clues)
        if request.clues is not None and clues != request.clues:
            return None
        minimal = self._minimality(candidate)
        if request.minimal and not minimal:
            seen.not_minimal += 1
            return None
        puzzle = Grid(candidate.cells.tobytes(), request.shape, request.geometry)
        grade = _rating(request, puzzle, seen, rated)
        if request.filtered_by_rating and grade is None:
            return None
        return puzzle, puzzle.with_cells(candidate.solution.tobytes()), minimal, grade

    def _minimality(self, candidate: _Candidate) -> bool | None:
        """What is known of the candidate's minimality: a complete pass over single cells with every check decided
        proves it; a symmetric pass proves it only with the extra check a clue (``candidate.minimal``)."""
        if candidate.minimal >= 0:
            return bool(candidate.minimal)
        complete_pass = self.request.dig_target == 0 and candidate.undecided == 0
        return True if complete_pass and self.request.symmetry is Symmetry.NONE else None


def make_puzzle(request: Request, rng: NDArray[np.uint64], index: int, *, rated: bool = False,
                cancel: threading.Event | None = None) -> Generated:
    """Make attempts drawing from ``rng`` (uint64[1], advanced) until one meets ``request``;
    ``GenerationLimitError`` if none does within the puzzle's budget."""
    rows = rng.reshape(1, 1)
    made = make_puzzles(request, rows, index, rated=rated, cancel=cancel)[0]
    rng[:] = rows[0]
    if isinstance(made, GenerationLimitError):
        raise made
    return made


def make_puzzles(request: Request, rngs: NDArray[np.uint64], first_index: int, *, rated: bool = False,
                 cancel: threading.Event | None = None) -> list[Generated | GenerationLimitError]:
    """Puzzles ``first_index, first_index + 1, ...``, one a row of ``rngs`` (uint64[k, 1], advanced), each with its
    own budget; a puzzle whose budget runs out comes back as its ``GenerationLimitError``. ``Cancelled`` when
    ``cancel`` is set."""
    warm_up(request, rated=rated)
    maker = _Maker(request)
    cancel = cancel or Cancel()
    budgets = [Budget(request.max_nodes, request.time_limit, cancel) for _ in range(len(rngs))]
    seen = [_Attempts() for _ in range(len(rngs))]
    made: list[Generated | GenerationLimitError | None] = [None] * len(rngs)
    workspace = None if maker.batched else workspace_for(request.shape.n, request.tables[2])
    try:
        _make_pending(request, maker, rngs, first_index, budgets, seen, made, workspace, rated)
    finally:
        for budget in budgets:
            budget.close()
    return made  # type: ignore[return-value]


def _make_pending(request: Request, maker: _Maker, rngs: NDArray[np.uint64], first_index: int, budgets: list[Budget],
                  seen: list[_Attempts], made: list[Generated | GenerationLimitError | None],
                  workspace: Workspace | None, rated: bool) -> None:
    """The attempt rounds of ``make_puzzles``: fills ``made`` until every row is made or out of budget."""
    pending = list(range(len(rngs)))
    while pending:
        if maker.batched:
            rows = rngs[pending]
            seconds = max(0.0, min(budgets[row].time_limit - budgets[row].seconds for row in pending))
            with TimeLimit(seconds if math.isfinite(seconds) else None) as clock:  # the first deadline stops a call
                attempts = maker.attempt_rows(rows, min(budgets[row].nodes_left() for row in pending), clock.stop)
            rngs[pending] = rows
        still = []
        for position, row in enumerate(pending):
            budget, attempts_seen = budgets[row], seen[row]
            attempts_seen.count += 1
            try:
                if maker.batched:
                    candidate, nodes = attempts[position]
                    budget.nodes += nodes
                else:
                    # not batched: ``make_puzzles`` made the workspace
                    candidate = maker.attempt_bounded(rngs[row], budget, cast("Workspace", workspace))
                verdict = maker.judge(candidate, attempts_seen, rated) if candidate is not None else None
                if verdict is None:
                    budget.check()
                    still.append(row)
                    continue
            except BudgetSpent as spent:
                made[row] = GenerationLimitError(request.describe(), spent.what, attempts_seen.count,
                                                 attempts_seen.closest(request))
                continue
            puzzle, solution, minimal, grade = verdict
            made[row] = Generated(first_index + row, puzzle, solution, request.symmetry, minimal, grade,
                                  attempts_seen.count, budget.nodes, budget.seconds)
        pending = still


_warmed: set[tuple[bool, type, bool, bool]] = set()


def warm_up(request: Request, *, rated: bool = False) -> None:
    """Compile the kernels a request runs, or load them from Numba's cache, before any puzzle's clock starts.

    Why: on a cold cache the first kernel call compiles for tens of seconds (minutes on a busy machine), and that
    is not the puzzle's work: charged to its ``time_limit`` it made a first ``bitdoku generate`` fail. The kernels
    take the same argument types for every shape of a kind (classic, or a variant's tables), so an attempt at a
    small grid of the same kind compiles the path the request takes (whole attempts in one call for small grids,
    the bounded fill and removal for large ones), in microseconds of work; a request that rates compiles the logic
    solver's kernels too. Once a process and path.
    """
    tables_type = type(request.tables[2])  # 9x9 grids run on tables of their own type (band kernel, variant81)
    kind = (request.geometry.is_classic, tables_type, rated or request.filtered_by_rating, _Maker(request).batched)
    if kind in _warmed:
        return
    small = _Maker(_small_request(request))
    rng = np.ones(1, dtype=np.uint64)
    if _Maker(request).batched:  # only the path the request takes: each is a compile of the whole search
        small.attempt_rows(rng.reshape(1, 1).copy(), small.request.max_nodes)
    else:
        workspace = workspace_for(small.request.shape.n, small.request.tables[2])
        small.attempt_bounded(rng, Budget(small.request.max_nodes, float("inf")), workspace)
    if kind[2]:
        from bitdoku.logic.warmup import warm_up as warm_up_logic

        warm_up_logic()
    _warmed.add(kind)


def _small_request(request: Request) -> Request:
    """The cheapest request whose kernels take the same argument types as ``request``'s: a 4x4 grid, classic or
    with the X rule; a 9x9 grid for classic 9x9 and for the 9x9 variants, whose tables are of other types (the
    band kernel's, ``variant81``'s, ``nonconsecutive9``'s; a few ms of work)."""
    from bitdoku.kernels.nonconsecutive9 import Nonconsecutive9Tables
    from bitdoku.kernels.variant81 import Tables81

    if request.geometry.is_classic:
        return Request.make("3x3" if request.shape.n_cells == 81 else "2x2", variant=None)
    # by the tables' type, not by building the requests to compare: each would compile its own variant's check
    if isinstance(request.tables[2], Nonconsecutive9Tables):
        return Request.make("3x3", variant="nonconsecutive", clues=40)  # a fill and a few checks: ~5 ms
    if isinstance(request.tables[2], Tables81):
        return Request.make("3x3", variant="x")
    return Request.make("2x2", variant="x")


def _proven_minimal(request: Request, cells: NDArray[np.uint8], solution: NDArray[np.uint8], budget: Budget) -> bool:
    """Whether no single clue of a unique puzzle can go (one check a clue), charging ``budget``."""
    shape = request.shape
    removable = np.zeros(shape.n_cells, dtype=np.bool_)
    counters = np.zeros(dig.N_DIG_COUNTERS, dtype=np.int64)
    code = dig.removable_clues(cells, solution, shape.n, *request.tables, budget.nodes_left(), request.check_rules,
                               removable, counters, budget.stop)
    budget.charge(counters[dig.DIG_NODES])
    return code == COMPLETE and not removable.any()


def _rating(request: Request, puzzle: Grid, seen: _Attempts, rated: bool) -> Rating | None:
    """The puzzle's rating when it is asked for; None when the request's filter rejects it."""
    if not (rated or request.filtered_by_rating):
        return None
    try:
        grade = rate(puzzle)
    except StepLimitError:
        return None
    seen.levels[grade.level] += 1
    seen.scores.append(grade.score)
    if request.difficulty is not None and grade.level != request.difficulty:
        return None
    if request.rating is not None and not request.rating[0] <= grade.score <= request.rating[1]:
        return None
    return grade
class _Run:
    """The puzzles of one ``generate_many`` call: made on a thread pool in slices of consecutive indexes, handed
    back in index order."""

    def __init__(self, request: Request, root: np.random.SeedSequence, count: int, *, distinct: bool, rated: bool,
                 threads: int | None, start: int = 0) -> None:
        self.request, self.root, self.count, self.start = request, root, count, start
        self.distinct, self.rated = distinct, rated
        self.threads = default_threads() if threads is None else threads
        if self.threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        batched = request.shape.n_cells <= BATCHED_CELLS
        self.slice_size = max(1, min(SLICE_PUZZLES, -(-count // (self.threads * 4)))) if batched else 1
        self.cancel = Cancel()

    def results(self) -> Iterator[Generated]:
        slices = [(first, min(first + self.slice_size, self.count))
                  for first in range(self.start, self.count, self.slice_size)]
        if self.threads == 1 or len(slices) <= 1:
            yield from self._in_order(self._make_slice(first, stop) for first, stop in slices)
            return
        pool = ThreadPoolExecutor(max_workers=self.threads)
        try:
            yield from self._in_order(future.result() for future in self._submitted(pool, slices))
        finally:
            self.cancel.set()  # Ctrl-C, an error or a consumer that stops early: the workers stop at their next call
            pool.shutdown(wait=True, cancel_futures=True)

    def _submitted(self, pool: ThreadPoolExecutor, slices: list[tuple[int, int]]) -> Iterator[Future[_Slice]]:
        """Futures in slice order, at most ``IN_FLIGHT_PER_THREAD`` a thread ahead of the one being read."""
        window = self.threads * IN_FLIGHT_PER_THREAD
        pending: list[Future[_Slice]] = []
        for first, stop in slices:
            pending.append(pool.submit(self._make_slice, first, stop))
            if len(pending) >= window:
                yield pending.pop(0)
        yield from pending

    def _make_slice(self, first: int, stop: int) -> _Slice:
        """Puzzles first..stop-1 (or their errors), with their streams as they are left."""
        rngs = np.vstack([puzzle_stream(self.root, index) for index in range(first, stop)])
        made = make_puzzles(self.request, rngs, first, rated=self.rated, cancel=self.cancel)
        return list(zip(made, rngs, strict=True))

    def _in_order(self, slices: Iterator[_Slice]) -> Iterator[Generated]:
        """Yield each puzzle, raise the first error; with ``distinct``, remake a puzzle equivalent to an earlier one
        from where its own stream stopped (so the run stays the same on any number of threads)."""
        keys: set[bytes] = set()
        for made in slices:
            for generated, rng in made:
                if isinstance(generated, GenerationLimitError):
                    raise generated
                if self.distinct:
                    while (key := canonical_key(generated.puzzle)) in keys:
                        generated = make_puzzle(self.request, rng, generated.index, rated=self.rated,
                                                cancel=self.cancel)
                    keys.add(key)
                yield generated


_Slice = list[tuple["Generated | GenerationLimitError", NDArray[np.uint64]]]


def canonical_key(puzzle: Grid) -> bytes:
    """The bytes of a 9x9 puzzle's canonical form: equal for equivalent puzzles."""
    from bitdoku.generate.canon import canonical

    return canonical(puzzle).cells
