"""Killer Sudoku puzzles: a random solution, then a cage layout that the engine proves has exactly one solution.

An attempt draws a random solution (``_random_solution``: the kernel of cages itself, from the empty grid, its
branching digits in random order) and cuts it into cages (``_partition``): cages grow from the free cell with
the fewest free neighbours (so few cells are stranded), to a size drawn around the level's mean, taking only
neighbours whose digit the cage does not hold yet; a one-cell cage left over joins a neighbouring cage that has
room for its digit. Then the layout is repaired until the kernel of cages proves it unique:

* two solutions: a cell where the other solution differs from ours leaves its cage, for a neighbouring cage (or
  on its own). Its old cage's sum without it differs in the other solution, so that solution is gone for good,
  and the number of cages stays the same (``_repair``);
* a proof over the level's node budget: the largest cage is cut in two (``_split``), which makes it easier.

Once unique, each one-cell cage left (a given in disguise) tries to join a neighbouring cage, kept where the
layout stays unique within the level's bounds (``_absorb_proven_singles``). Each check is
``bitdoku.solver.search(limit=2)`` on the layout; a proof's nodes and the layout's mean cage size give the
puzzle's level (``killer_level``; see ``KILLER_LEVELS``). An attempt whose level is not the one asked
for is dropped and the next one drawn. Everything an attempt does follows from its seed stream and the kernel's
node counts, never from the clock, so the same seed gives the same puzzle on any number of threads (a change to
the kernel of cages that changes its node counts or the order it finds solutions in changes the puzzles a seed
gives, and the levels are measured in its nodes). Measured in ``benchmarks/NOTES-killer-generate.md``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from bitdoku.batch import default_threads
from bitdoku.constraints.cages import Cage
from bitdoku.engines.killer import MAX_N, run_kernel
from bitdoku.engines.result import SearchResult, Status
from bitdoku.errors import GenerationLimitError
from bitdoku.generate.budget import Budget, BudgetSpent, Cancel, Cancelled
from bitdoku.generate.seeds import Seed, puzzle_stream, root_sequence
from bitdoku.generate.symmetry import Symmetry
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.kernels import status as codes
from bitdoku.shape import Shape
from bitdoku.solver import search

#: The levels, easiest first: the names of ``bitdoku.logic.rating.LEVELS`` but "beyond logic" (every level here
#: is proven by the same search; the human-logic rating of Killers is another module's).
KILLER_LEVELS = ("easy", "medium", "hard", "expert", "extreme")
#: Per level, the most search nodes the kernel of cages may take to prove the puzzle unique (1: its propagation
#: alone, which has singles, cage digit sets, the rule of 45 and locked cage digits, solves it) ...
LEVEL_NODES = (1, 12, 120, 1_200, 12_000)
#: ... and the largest mean cage size (cells per cage). A puzzle's level is the first that both bounds allow.
LEVEL_MEAN_SIZE = (2.75, 3.1, 3.45, 3.9, math.inf)
#: Per level, the mean size of the cages an attempt starts from (its layout ends a little finer, after repairs).
START_MEAN_SIZE = (2.5, 3.0, 3.4, 3.9, 4.6)
#: Without a level: cages as medium's, proofs within hard's node budget (so easy, medium or hard puzzles, mostly
#: medium and hard; expert's budget made the default a third slower for puzzles no user asked to be expert).
DEFAULT_START_MEAN_SIZE = 3.0
DEFAULT_PROOF_NODES = LEVEL_NODES[2]
#: The levels a shape's Killers reach, by N, where not all: every unique 4x4 Killer seen is solved by the
#: kernel's propagation with small cages (easy).
REACHABLE_LEVELS = {4: 1}
#: Repairs one attempt may make before it is dropped.
MAX_REPAIRS = 64
#: Seconds one puzzle may take by default.
DEFAULT_TIME_LIMIT = 60.0
#: The largest cage by default (the spec's 1-6 cells).
DEFAULT_MAX_CAGE = 6
#: The node budget of a puzzle when none is given: none beyond each check's and the time limit.
UNBOUNDED_NODES = 2**62
#: Puzzles in flight per thread in ``generate_killers``.
IN_FLIGHT_PER_THREAD = 4


@dataclass(frozen=True)
class KillerFeatures:
    """What a Killer's level is read from: its cages, their mean size, its one-cell cages, its largest cage, and
    the nodes and branch points the kernel of cages took to prove it unique."""

    cages: int
    mean_size: float
    singles: int
    largest: int
    nodes: int
    guesses: int

    @property
    def level(self) -> str:
        """The first level of ``KILLER_LEVELS`` whose node and mean-size bounds both hold."""
        for name, nodes, size in zip(KILLER_LEVELS, LEVEL_NODES, LEVEL_MEAN_SIZE, strict=True):
            if self.nodes <= nodes and self.mean_size <= size:
                return name
        return KILLER_LEVELS[-1]


@dataclass(frozen=True)
class GeneratedKiller:
    """One generated Killer: the puzzle (a ``Grid`` with cages), its solution, its features and level, and the
    attempts, nodes and seconds it took (failed attempts included)."""

    index: int
    puzzle: Grid
    solution: Grid
    features: KillerFeatures
    attempts: int
    nodes: int
    seconds: float

    @property
    def level(self) -> str:
        return self.features.level

    def to_dict(self) -> dict[str, object]:
        """The fields as JSON carries them (``bitdoku generate --variant killer --format json``)."""
        f = self.features
        return {"index": self.index, "puzzle": self.puzzle.to_killer_line(), "solution": self.solution.to_line(),
                "shape": str(self.puzzle.shape), "variant": "killer", "givens": self.puzzle.givens,
                "level": self.level, "cages": f.cages, "mean_cage_size": round(f.mean_size, 3),
                "single_cages": f.singles, "largest_cage": f.largest, "proof_nodes": f.nodes,
                "attempts": self.attempts, "nodes": self.nodes, "seconds": round(self.seconds, 6)}


def generate_killer(
    shape: Shape | str = "3x3",
    *,
    seed: Seed = None,
    difficulty: str | None = None,
    givens: int = 0,
    max_cage: int | None = None,
    max_nodes: int | None = None,
    time_limit: float | None = None,
) -> Grid:
    """A random Killer Sudoku with exactly one solution: contiguous cages of 1 to ``max_cage`` cells, each of
    different digits, with their sums.

    Parameters
    ----------
    shape : Shape or str
        The box shape: ``'3x3'`` (9x9, the default), ``'2x2'``, ``'2x3'``, ``'3x4'``, ``'4x4'`` (16x16).
    seed : int, numpy Generator or None
        The same seed gives the same puzzle (None: a fresh one each call).
    difficulty : str, optional
        A level of ``KILLER_LEVELS``: ``easy``, ``medium``, ``hard``, ``expert`` or ``extreme`` (the search
        nodes of the uniqueness proof and the mean cage size; see ``killer_level``).
    givens : int
        Cells given as digits besides the cages (0, the default: none).
    max_cage : int, optional
        The most cells of a cage, 2 to N (default: 6, or N for 4x4).
    max_nodes, time_limit : optional
        The search nodes and seconds the puzzle may take, failed attempts included (defaults: no node bound
        beyond the checks' own, 60 s).

    Returns
    -------
    Grid
        Variant ``"killer"``: ``puzzle.to_killer_line()`` writes it.

    Raises
    ------
    ValueError
        For a request that cannot work (an unknown level, more givens than cells, a shape above 16x16).
    GenerationLimitError
        When the budget runs out first.

    Example
    -------
    >>> from bitdoku import is_unique
    >>> puzzle = generate_killer("2x2", seed=7)
    >>> is_unique(puzzle), puzzle.givens, puzzle == generate_killer("2x2", seed=7)
    (True, 0, True)
    """
    request = KillerRequest.make(shape, difficulty=difficulty, givens=givens, max_cage=max_cage,
                                 max_nodes=max_nodes, time_limit=time_limit)
    made = make_killer(request, root_sequence(seed), 0)
    if isinstance(made, GenerationLimitError):
        raise made
    return made.puzzle


def generate_killers(
    count: int,
    shape: Shape | str = "3x3",
    *,
    seed: Seed = None,
    difficulty: str | None = None,
    givens: int = 0,
    max_cage: int | None = None,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    threads: int | None = None,
    start: int = 0,
) -> Iterator[GeneratedKiller]:
    """Make ``count`` Killers on ``threads`` cores and yield them in order as they are ready.

    The options are ``generate_killer``'s, the budgets for each puzzle. Puzzle ``i`` depends only on ``seed`` and
    ``i``, never on ``threads``; ``start`` skips the first puzzles (a resumed run goes on from puzzle ``start``).
    Raises ``GenerationLimitError`` when one puzzle spends its budget (the puzzles before it have been yielded).

    Example
    -------
    >>> [g.puzzle.givens for g in generate_killers(2, "2x2", seed=1, givens=3)]
    [3, 3]
    """
    request = KillerRequest.make(shape, difficulty=difficulty, givens=givens, max_cage=max_cage,
                                 max_nodes=max_nodes, time_limit=time_limit)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count must be a non-negative integer, not {count!r}")
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= count:
        raise ValueError(f"start must be an integer from 0 to count, not {start!r}")
    workers = default_threads() if threads is None else threads
    if workers < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    return _run(request, root_sequence(seed), range(start, count), workers)


def killer_features(puzzle: Grid, *, max_nodes: int = LEVEL_NODES[-1] * 10) -> KillerFeatures:
    """The features of a unique Killer (``KillerFeatures``): its cages, and the nodes of its uniqueness proof.

    Raises ``ValueError`` for a grid without cages or that is not proven unique within ``max_nodes``.
    """
    if not puzzle.cages:
        raise ValueError("a Killer's features need its cages: this grid has none")
    result = search(puzzle, limit=2, max_nodes=max_nodes)
    if result.status is not Status.UNIQUE:
        raise ValueError(f"the Killer is not proven unique: {result.status.value}")
    return _features(puzzle.cages, result)


def killer_level(puzzle: Grid) -> str:
    """The level of a unique Killer (``KILLER_LEVELS``): the first whose bounds on the proof's search nodes
    (``LEVEL_NODES``) and on the mean cage size (``LEVEL_MEAN_SIZE``) both hold."""
    return killer_features(puzzle).level


@dataclass(frozen=True)
class KillerRequest:
    """A checked Killer request; build it with ``KillerRequest.make``. ``level`` is an index of
    ``KILLER_LEVELS`` or None (any level); ``proof_nodes`` bounds one uniqueness check."""

    shape: Shape
    level: int | None
    givens: int
    max_cage: int
    max_nodes: int
    time_limit: float
    proof_nodes: int
    start_mean: float

    @classmethod
    def make(cls, shape: Shape | str = "3x3", *, difficulty: str | None = None, givens: int = 0,
             max_cage: int | None = None, max_nodes: int | None = None,
             time_limit: float | None = None) -> KillerRequest:
        """Check every argument; ``ValueError`` with the reason for one that cannot work."""
        shape = Shape.parse(shape)
        if shape.n > MAX_N:
            raise ValueError(f"Killer grids go up to {MAX_N}x{MAX_N}, not {shape.size_name}")
        if difficulty is not None and difficulty not in KILLER_LEVELS:
            raise ValueError(f"unknown Killer difficulty {difficulty!r}; levels are {', '.join(KILLER_LEVELS)}")
        if isinstance(givens, bool) or not isinstance(givens, int) or not 0 <= givens <= shape.n_cells:
            raise ValueError(f"a {shape.size_name} Killer has 0 to {shape.n_cells} givens, not {givens!r}")
        max_cage = min(DEFAULT_MAX_CAGE, shape.n) if max_cage is None else max_cage
        if isinstance(max_cage, bool) or not isinstance(max_cage, int) or not 2 <= max_cage <= shape.n:
            raise ValueError(f"max_cage is the most cells of a cage, from 2 to {shape.n}, not {max_cage!r}")
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1, not {max_nodes}")
        seconds = DEFAULT_TIME_LIMIT if time_limit is None else float(time_limit)
        if not seconds > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit}")
        level = None if difficulty is None else KILLER_LEVELS.index(difficulty)
        reachable = REACHABLE_LEVELS.get(shape.n, len(KILLER_LEVELS))
        if level is not None and level >= reachable:
            raise ValueError(f"{shape.size_name} Killers are {' or '.join(KILLER_LEVELS[:reachable])}, not "
                             f"{difficulty}: their cages are too few to need more search")
        proof_nodes = DEFAULT_PROOF_NODES if level is None else max(LEVEL_NODES[level], LEVEL_NODES[1])
        start_mean = DEFAULT_START_MEAN_SIZE if level is None else START_MEAN_SIZE[level]
        return cls(shape, level, givens, max_cage, UNBOUNDED_NODES if max_nodes is None else max_nodes, seconds,
                   proof_nodes, min(start_mean, float(max_cage)))

    def describe(self) -> str:
        """What is asked, as a phrase: ``'unique 9x9 Killer with 3 givens, level hard'``."""
        text = f"unique {self.shape.size_name} Killer"
        if self.givens:
            text += f" with {self.givens} given{'s' if self.givens != 1 else ''}"
        if self.level is not None:
            text += f", level {KILLER_LEVELS[self.level]}"
        return text


def make_killer(request: KillerRequest, root: np.random.SeedSequence, index: int,
                cancel: Cancel | None = None) -> GeneratedKiller | GenerationLimitError:
    """Puzzle ``index`` of a run: attempts drawn from its own stream until one meets the request, or the
    ``GenerationLimitError`` of its spent budget (``Cancelled`` when ``cancel`` is set)."""
    rng = np.random.default_rng(int(puzzle_stream(root, index)[0]))
    budget = Budget(request.max_nodes, request.time_limit, cancel or Cancel())
    levels: dict[str, int] = {}
    attempts = 0
    try:
        while True:
            attempts += 1
            made = _attempt(request, rng, budget)
            if made is None:
                continue
            puzzle, solution, features = made
            if request.level is not None and features.level != KILLER_LEVELS[request.level]:
                levels[features.level] = levels.get(features.level, 0) + 1
                continue
            return GeneratedKiller(index, puzzle, solution, features, attempts, budget.nodes, budget.seconds)
    except BudgetSpent as spent:
        seen = ", ".join(f"{name} {levels[name]:,}" for name in KILLER_LEVELS if name in levels)
        return GenerationLimitError(request.describe(), spent.what, attempts, f"levels seen: {seen}" if seen else None)
    finally:
        budget.close()


def _attempt(request: KillerRequest, rng: np.random.Generator,
             budget: Budget) -> tuple[Grid, Grid, KillerFeatures] | None:
    """One attempt: a solution, its givens, a layout repaired until unique; None when the repairs ran out."""
    shape = request.shape
    solution = _empty(shape).with_cells(_random_solution(shape, rng, budget))
    digits = list(solution.cells)
    cells = bytearray(shape.n_cells)
    for cell in rng.choice(shape.n_cells, size=request.givens, replace=False).tolist():
        cells[cell] = digits[cell]
    layout = _partition(digits, shape.n, rng, request.start_mean, request.max_cage)
    for _ in range(MAX_REPAIRS):
        puzzle = _puzzle(bytes(cells), shape, digits, layout)
        result = _check(puzzle, request, budget)
        if result.status is Status.UNIQUE:
            puzzle, result = _absorb_proven_singles(puzzle, result, digits, layout, request, rng, budget)
            return puzzle, puzzle.with_cells(solution.cells), _features(puzzle.cages, result)
        other = next((list(s.cells) for s in result.solutions if s.cells != solution.cells), None)
        if other is not None:
            layout = _repair(layout, digits, other, shape.n, rng, request.max_cage)
        else:  # the proof spent its nodes: an easier layout
            layout = _split(layout, shape.n, rng)
    return None


def _absorb_proven_singles(puzzle: Grid, result: SearchResult, digits: list[int], layout: list[list[int]],
                           request: KillerRequest, rng: np.random.Generator,
                           budget: Budget) -> tuple[Grid, SearchResult]:
    """A unique layout with its one-cell cages merged into a neighbouring cage wherever it stays unique within
    the proof's nodes and the level asked for (one check a one-cell cage: a one-cell cage is a given in
    disguise)."""
    n = request.shape.n
    for cage in [cage for cage in layout if len(cage) == 1]:
        cell = cage[0]
        owner = {member: index for index, c in enumerate(layout) for member in c}
        if len(layout[owner[cell]]) != 1:  # an earlier one-cell cage joined it
            continue
        hosts = sorted({owner[other] for other in _neighbours(n)[cell]} - {owner[cell]})
        hosts = [host for host in hosts if len(layout[host]) < request.max_cage
                 and all(digits[member] != digits[cell] for member in layout[host])]
        if not hosts:
            continue
        host = hosts[int(rng.integers(len(hosts)))]
        trial = [[*c, cell] if index == host else c for index, c in enumerate(layout) if c != [cell]]
        merged = _puzzle(puzzle.cells, request.shape, digits, trial)
        if request.level is not None and request.shape.n_cells / len(trial) > LEVEL_MEAN_SIZE[request.level]:
            continue
        check = _check(merged, request, budget)
        within = request.level is None or check.stats.nodes <= LEVEL_NODES[request.level]
        if check.status is Status.UNIQUE and within:  # and not past the level asked for
            puzzle, result, layout = merged, check, trial
    return puzzle, result


def _check(puzzle: Grid, request: KillerRequest, budget: Budget) -> SearchResult:
    """The uniqueness check of a layout within the request's proof nodes, charged to the budget; the time left
    stops it (``BudgetSpent``), but only node counts decide what the generator does next."""
    seconds_left = request.time_limit - budget.seconds
    if seconds_left <= 0:
        budget.check()
    result = search(puzzle, limit=2, keep=2, max_nodes=request.proof_nodes, time_limit=max(seconds_left, 1e-3))
    if result.status is Status.LIMIT and result.stats.nodes < request.proof_nodes:
        raise BudgetSpent(f"{request.time_limit:g} s")
    budget.charge(result.stats.nodes)
    return result


def _random_solution(shape: Shape, rng: np.random.Generator, budget: Budget) -> bytes:
    """A random complete grid, charged to the budget: the kernel of cages from the empty grid, each branching
    cell's digits in a random order drawn from ``rng``, restarted with a fresh order on a node budget that doubles
    (a randomised search's heavy tail). The checks' own kernel: a first Killer ``generate`` compiles it alone,
    where a fill by the classic engines compiled a second kernel as large (NOTES-killer.md, "first contact")."""
    solutions = np.zeros((1, shape.n_cells), dtype=np.int8)
    nodes = shape.n_cells
    while True:
        stats = np.zeros(codes.N_STATS, dtype=np.int64)
        code = run_kernel(_empty(shape), 1, min(nodes, budget.nodes_left()), solutions, stats, budget.stop,
                          seed=int(rng.integers(1, 2**62)))
        if code == codes.LIMIT_REACHED:
            budget.nodes += int(stats[codes.STAT_NODES])  # found: the grid counts even if it took the last nodes
            return bytes(solutions[0].astype(np.uint8))
        budget.charge(int(stats[codes.STAT_NODES]))
        nodes *= 2


@lru_cache(maxsize=16)
def _empty(shape: Shape) -> Grid:
    """The empty classic grid of a shape, kept (with its kernel tables) for every fill."""
    return Grid.empty(shape)


def _features(cages: tuple[Cage, ...], result: SearchResult) -> KillerFeatures:
    sizes = [len(cage.cells) for cage in cages]
    return KillerFeatures(len(cages), sum(sizes) / len(sizes), sizes.count(1), max(sizes), result.stats.nodes,
                          result.stats.guesses)


def _puzzle(cells: bytes, shape: Shape, digits: list[int], layout: list[list[int]]) -> Grid:
    """The grid of a layout: its cages (cells sorted, cages by first cell) with the solution's sums."""
    cages = sorted((Cage(tuple(sorted(cage)), sum(digits[cell] for cell in cage)) for cage in layout),
                   key=lambda cage: cage.cells[0])
    return Grid(cells, shape, Geometry(shape, cages=tuple(cages)))


@lru_cache(maxsize=16)
def _neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's orthogonal neighbours (a cage is connected through them)."""
    return tuple(tuple((row + dr) * n + col + dc for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                       if 0 <= row + dr < n and 0 <= col + dc < n)
                 for row, col in (divmod(cell, n) for cell in range(n * n)))


def _partition(digits: list[int], n: int, rng: np.random.Generator, mean: float, max_cage: int) -> list[list[int]]:
    """Random cages of different digits over every cell (see the module): grown from the most hemmed-in free
    cell, to sizes drawn around ``mean``; one-cell cages left over join a neighbour with room."""
    neighbours = _neighbours(n)
    owner = [-1] * (n * n)
    layout: list[list[int]] = []

    def free_neighbours(cell: int) -> int:
        return sum(owner[other] < 0 for other in neighbours[cell])

    free = set(range(n * n))
    while free:
        ranked = sorted(free)
        counts = [free_neighbours(cell) for cell in ranked]
        fewest = min(counts)
        starts = [cell for cell, count in zip(ranked, counts, strict=True) if count == fewest]
        cage = [starts[int(rng.integers(len(starts)))]]
        target = int(min(max_cage, max(2, round(rng.normal(mean, 1.0)))))
        while True:
            owner[cage[-1]] = len(layout)
            free.discard(cage[-1])
            if len(cage) == target:
                break
            held = {digits[cell] for cell in cage}
            front = sorted({other for cell in cage for other in neighbours[cell]
                            if owner[other] < 0 and digits[other] not in held})
            if not front:
                break
            if rng.random() < 0.7:  # mostly the most hemmed-in neighbour, so cages leave no cell stranded
                counts = [free_neighbours(cell) for cell in front]
                front = [cell for cell, count in zip(front, counts, strict=True) if count == min(counts)]
            cage.append(front[int(rng.integers(len(front)))])
        layout.append(cage)
    return _absorb_singles(layout, owner, digits, n, max_cage)


def _absorb_singles(layout: list[list[int]], owner: list[int], digits: list[int], n: int,
                    max_cage: int) -> list[list[int]]:
    """Each one-cell cage joins its smallest neighbouring cage that has room and lacks its digit, if any."""
    neighbours = _neighbours(n)
    for index, cage in enumerate(layout):
        if len(cage) != 1:
            continue
        cell = cage[0]
        hosts = sorted({owner[other] for other in neighbours[cell]} - {index})
        hosts = [host for host in hosts if len(layout[host]) < max_cage
                 and all(digits[member] != digits[cell] for member in layout[host])]
        if hosts:
            host = min(hosts, key=lambda h: len(layout[h]))
            layout[host].append(cell)
            owner[cell] = host
            layout[index] = []
    return [cage for cage in layout if cage]


def _repair(layout: list[list[int]], digits: list[int], other: list[int], n: int, rng: np.random.Generator,
            max_cage: int) -> list[list[int]]:
    """A layout without the solution ``other``: a cell where it differs leaves its cage (see the module)."""
    neighbours = _neighbours(n)
    owner = {cell: index for index, cage in enumerate(layout) for cell in cage}
    differ = [cell for cell in range(n * n) if other[cell] != digits[cell]]
    cell = differ[int(rng.integers(len(differ)))]
    home = owner[cell]
    rest = [member for member in layout[home] if member != cell]
    hosts = sorted({owner[o] for o in neighbours[cell]} - {home})
    hosts = [host for host in hosts if len(layout[host]) < max_cage
             and all(digits[member] != digits[cell] for member in layout[host])]
    layout = [list(cage) for cage in layout]
    pieces = _pieces(rest, n)
    layout[home] = pieces[0]
    layout.extend(pieces[1:])
    if hosts:
        layout[hosts[int(rng.integers(len(hosts)))]].append(cell)
    else:
        layout.append([cell])
    return [cage for cage in layout if cage]


def _split(layout: list[list[int]], n: int, rng: np.random.Generator) -> list[list[int]]:
    """The layout with a largest cage cut in two connected halves (or more pieces, where the rest falls apart)."""
    largest = max(len(cage) for cage in layout)
    choices = [index for index, cage in enumerate(layout) if len(cage) == largest]
    index = choices[int(rng.integers(len(choices)))]
    cage = sorted(layout[index])
    if len(cage) == 1:
        return layout
    order = _grown_order(cage, n, cage[int(rng.integers(len(cage)))])
    half = order[: len(cage) // 2]
    pieces = [half, *_pieces([cell for cell in cage if cell not in half], n)]
    return [*layout[:index], *pieces, *layout[index + 1:]]


def _grown_order(cells: list[int], n: int, first: int) -> list[int]:
    """The cells in breadth-first order from ``first``: any prefix is connected."""
    inside, neighbours = set(cells), _neighbours(n)
    order, seen = [first], {first}
    for cell in order:
        for other in neighbours[cell]:
            if other in inside and other not in seen:
                seen.add(other)
                order.append(other)
    return order


def _pieces(cells: list[int], n: int) -> list[list[int]]:
    """The connected pieces of a set of cells (one piece for a connected cage; none for no cells)."""
    left, pieces = sorted(cells), []
    while left:
        piece = _grown_order(left, n, left[0])
        pieces.append(sorted(piece))
        left = [cell for cell in left if cell not in piece]
    return pieces


def _run(request: KillerRequest, root: np.random.SeedSequence, indexes: range,
         threads: int) -> Iterator[GeneratedKiller]:
    """The puzzles of ``indexes`` in order, made on a pool of threads (the checks release the GIL)."""
    cancel = Cancel()

    def made(generated: GeneratedKiller | GenerationLimitError) -> GeneratedKiller:
        if isinstance(generated, GenerationLimitError):
            raise generated
        return generated

    if threads == 1 or len(indexes) <= 1:
        for index in indexes:
            yield made(make_killer(request, root, index, cancel))
        return
    pool = ThreadPoolExecutor(max_workers=threads)
    try:
        pending: list[Future[GeneratedKiller | GenerationLimitError]] = []
        for index in indexes:
            pending.append(pool.submit(make_killer, request, root, index, cancel))
            if len(pending) >= threads * IN_FLIGHT_PER_THREAD:
                yield made(pending.pop(0).result())
        for future in pending:
            yield made(future.result())
    except Cancelled:
        return
    finally:
        cancel.set()
        pool.shutdown(wait=True, cancel_futures=True)


def refuse_classic_options(*, symmetry: Symmetry | str = Symmetry.NONE, minimal: bool = False,
                           rating: tuple[float, float] | None = None, distinct: bool = False) -> None:
    """``ValueError`` for the options of ``generate`` that shape a classic puzzle's clues, asked of a Killer
    (``bitdoku.generate(variant="killer")`` and the CLI route a Killer here, with ``clues`` as its givens)."""
    asked = [name for name, used in (("symmetry", Symmetry.parse(symmetry) is not Symmetry.NONE),
                                     ("minimal", minimal), ("rating", rating is not None),
                                     ("distinct", distinct)) if used]
    if asked:
        raise ValueError(f"{' and '.join(asked)} shape{'s' if len(asked) == 1 else ''} a classic puzzle's clues; "
                         f"a Killer takes difficulty ({', '.join(KILLER_LEVELS)}), givens and max_cage")
