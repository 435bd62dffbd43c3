"""``explain`` and ``hint``: solve like a person, one step at a time, easiest technique first.

The ladder below is the one table of techniques in the order they are tried; each step is the first that the
easiest applicable technique finds, and after each step the search starts again from the top. When nothing
applies, ``explain`` yields a "Stalled" step and stops, or, with ``guess=True``, places the solution's digit in
an open cell with the fewest candidates (a "Guess" step; the solution comes from ``bitdoku.solve``, so a guess
is never wrong and no backtracking is shown) and goes on.

Variant grids (X, Windoku, jigsaw, anti-knight, anti-king, nonconsecutive: ``bitdoku.geometry``) are solved on
``VARIANT_LADDER``, the techniques that stay sound on any geometry: they read units from the layout (so they see
diagonals, windows and jigsaw regions) and "sees" from its peers (unit mates and relation cells, which may not
share a digit either). The techniques that assume boxes in bands and stacks (finned fish, skyscrapers, kites,
empty rectangles, Sue de Coq, ALS, the grouped chains), the uniqueness patterns (drawn on rows, columns and boxes)
and the compiled forcing nets are left out; the guess (from the engine's solution) takes over when the ladder
stalls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import compress
from operator import ne
from typing import NamedTuple

from bitdoku.errors import InvalidGridError, SearchTimeLimitError, StepLimitError, cell_name
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.logic import (
    als,
    chains,
    fish,
    forcing,
    intersections,
    killer,
    single_digit,
    singles,
    subsets,
    uniqueness,
    wings,
)
from bitdoku.logic.budget import check_time, seconds_left
from bitdoku.logic.candidates import CandidateGrid, LogicPuzzle, as_candidates, as_logic_puzzle
from bitdoku.logic.step import CONTRADICTION, GUESS, STALLED, Step, digit_list, make_step
from bitdoku.shape import Shape

_SINGLE_NAMES = (singles.HIDDEN_SINGLE, singles.NAKED_SINGLE)

Finder = Callable[[CandidateGrid], Iterator[Step]]

#: The node budget of the uniqueness check that decides whether the uniqueness techniques may run.
UNIQUENESS_CHECK_NODES = 200_000


class Rung(NamedTuple):
    """One technique of the ladder: its name, its finder, whether it is a single (placements only), and whether
    it runs only when the puzzle has a unique solution: the uniqueness techniques, which hold only then, and the
    forcing chains, which are sound on any grid but are the costly last resort, and on a grid with several
    solutions could only make a few deductions before logic stalls anyway (a minute of nets on a 20-clue
    grid)."""

    technique: str
    find: Finder
    single: bool = False
    needs_unique: bool = False


#: Techniques in the order they are tried (the easiest first, roughly HoDoKu's order of difficulty);
#: ``rating.DIFFICULTY`` weighs the first release's techniques for the "bitdoku" scale. The uniqueness techniques
#: (``needs_unique``) run only for puzzles known to have one solution; Avoidable Rectangles, which also need to
#: know the givens, are added by ``ladder_for``.
LADDER: tuple[Rung, ...] = (
    Rung(singles.HIDDEN_SINGLE, singles.find_hidden_singles_in_boxes, single=True),
    Rung(singles.HIDDEN_SINGLE, singles.find_hidden_singles_in_rows, single=True),
    Rung(singles.HIDDEN_SINGLE, singles.find_hidden_singles_in_columns, single=True),
    Rung(singles.HIDDEN_SINGLE, singles.find_hidden_singles_in_extra_units, single=True),  # variants only
    Rung(singles.NAKED_SINGLE, singles.find_naked_singles, single=True),
    Rung(intersections.POINTING, intersections.find_pointing),
    Rung(intersections.CLAIMING, intersections.find_claiming),
    Rung("Naked Pair", subsets.find_naked_pairs),
    Rung("Hidden Pair", subsets.find_hidden_pairs),
    Rung("Naked Triple", subsets.find_naked_triples),
    Rung("Hidden Triple", subsets.find_hidden_triples),
    Rung("X-Wing", fish.find_x_wing),
    Rung(single_digit.SKYSCRAPER, single_digit.find_skyscrapers),
    Rung(single_digit.KITE, single_digit.find_two_string_kites),
    Rung(single_digit.EMPTY_RECTANGLE, single_digit.find_empty_rectangles),
    Rung(wings.XY_WING, wings.find_xy_wings),
    Rung(wings.XYZ_WING, wings.find_xyz_wings),
    Rung("Naked Quad", subsets.find_naked_quads),
    Rung("Hidden Quad", subsets.find_hidden_quads),
    Rung(chains.REMOTE_PAIRS, chains.find_remote_pairs),
    Rung(uniqueness.UNIQUE_RECTANGLE_1, uniqueness.find_unique_rectangles_type_1, needs_unique=True),
    Rung(uniqueness.UNIQUE_RECTANGLE_2, uniqueness.find_unique_rectangles_type_2, needs_unique=True),
    Rung(uniqueness.UNIQUE_RECTANGLE_3, uniqueness.find_unique_rectangles_type_3, needs_unique=True),
    Rung(uniqueness.UNIQUE_RECTANGLE_4, uniqueness.find_unique_rectangles_type_4, needs_unique=True),
    Rung(uniqueness.UNIQUE_RECTANGLE_5, uniqueness.find_unique_rectangles_type_5, needs_unique=True),
    Rung(uniqueness.UNIQUE_RECTANGLE_6, uniqueness.find_unique_rectangles_type_6, needs_unique=True),
    Rung(uniqueness.HIDDEN_UNIQUE_RECTANGLE, uniqueness.find_hidden_unique_rectangles, needs_unique=True),
    Rung("Unique Loop", uniqueness.find_unique_loops, needs_unique=True),
    Rung("Finned X-Wing", fish.find_finned_x_wing),
    Rung("Swordfish", fish.find_swordfish),
    Rung(wings.W_WING, wings.find_w_wings),
    Rung(single_digit.COLOURING, single_digit.find_simple_colouring),
    Rung(uniqueness.BUG_PLUS_1, uniqueness.find_bug_plus_1, needs_unique=True),
    Rung(uniqueness.BUG_1, uniqueness.find_bug_type_1, needs_unique=True),
    Rung(uniqueness.BUG_2, uniqueness.find_bug_type_2, needs_unique=True),
    Rung(uniqueness.BUG_3, uniqueness.find_bug_type_3, needs_unique=True),
    Rung(uniqueness.BUG_4, uniqueness.find_bug_type_4, needs_unique=True),
    Rung("Jellyfish", fish.find_jellyfish),
    Rung("Finned Swordfish", fish.find_finned_swordfish),
    Rung("Finned Jellyfish", fish.find_finned_jellyfish),
    Rung(als.SUE_DE_COQ, als.find_sue_de_coq),
    Rung(single_digit.X_CHAIN, single_digit.find_x_chains),
    Rung(chains.XY_CHAIN, chains.find_xy_chains),
    Rung(chains.AIC, chains.find_aics),
    Rung(chains.CONTINUOUS_NICE_LOOP, chains.find_continuous_nice_loops),
    Rung(chains.DISCONTINUOUS_NICE_LOOP, chains.find_discontinuous_nice_loops),
    Rung(chains.GROUPED_AIC, chains.find_grouped_aics),
    Rung(als.ALS_XZ, als.find_als_xz),
    Rung(als.ALS_XY_WING, als.find_als_xy_wings),
    Rung(als.DEATH_BLOSSOM, als.find_death_blossoms),
    # The last resort, so that every puzzle with one solution is solved by logic (bounded effort, forcing.py):
    *(Rung(name, finder, needs_unique=True) for name, finder in forcing.FINDERS),
)


def explain(
    puzzle: LogicPuzzle, *, guess: bool = False, max_steps: int | None = None,
    unique: bool | None = None, ladder: tuple[Rung, ...] = LADDER, max_nodes: int | None = None,
    shape: Shape | str | None = None, variant: str | Geometry | None = None,
) -> Iterator[Step]:
    """Yield the steps that solve a puzzle, each by the easiest technique that applies.

    Parameters
    ----------
    puzzle : Grid, CandidateGrid, str, sequence or array
        A grid (candidates computed from the givens), pencil marks (kept as they are, except that a digit a peer
        already holds is dropped), text in any grid or pencil-mark format, or the cells as a list or an array
        (every form of ``grid.Puzzle``).
    guess : bool
        When no technique applies, place the solution's digit in a cell with the fewest candidates and go on,
        instead of stopping with a "Stalled" step.
    max_steps : int, optional
        Steps beyond singles (guesses included) to take before ``StepLimitError`` is raised (the steps
        already yielded stand). Default: ``default_max_steps(shape)``.
    unique : bool, optional
        Whether the puzzle is known to have exactly one solution, which the uniqueness techniques (unique
        rectangles, BUG+1) assume. ``None`` (default) finds out with the compiled engine (count to 2, about a
        microsecond for 9x9); ``False`` leaves those techniques out.
    ladder : tuple of Rung
        The techniques to use, in the order they are tried: ``LADDER`` (every technique, the default),
        ``CLASSIC_LADDER`` (the first release's 25), or a selection of rungs. On a variant grid ``LADDER``
        means ``VARIANT_LADDER``, and any other ladder keeps only the rungs of ``VARIANT_LADDER``.
    max_nodes : int, optional
        The node budget of the search for the solution a guess places (``guess=True``).
    shape : Shape or str, optional
        The box shape, for the forms that do not say it (a flat array of 36 cells may be 2x3 or 3x2 boxes).
    variant : str or Geometry, optional
        The variant's rules (``"x"``, a ``Geometry``, ...), for the forms that do not carry them.

    Yields
    ------
    Step
        Deductions; then, if the logic runs out, one "Stalled" step (or "Guess" steps with ``guess=True``); a
        "Contradiction" step ends the run when the candidates leave a cell or a digit with no place.

    Raises
    ------
    InvalidGridError
        When filled cells clash, or when ``guess=True`` and the puzzle has no solution.
    StepLimitError
        When the solve takes more than ``max_steps`` steps beyond singles.
    SearchLimitError
        When ``guess=True`` and the search for the solution to guess from spends ``max_nodes`` (default: the
        search's default budget, about a minute) before it finds one.

    Example
    -------
    >>> steps = list(explain("..3." ".4.2" "21.." "...."))
    >>> len(steps), steps[0].text
    (11, 'r1c2 = 2: in box 1, 2 fits only in r1c2 (hidden single)')
    """
    puzzle = as_logic_puzzle(puzzle, shape, variant)
    state = as_candidates(puzzle).cleaned()
    budget = default_max_steps(state.shape) if max_steps is None else max_steps
    ladder = geometry_ladder(state, ladder)
    if unique is None:  # the count is only worth making when a technique depends on it
        unique = any(rung.needs_unique for rung in ladder) and has_unique_solution(state)
    ladder = ladder_for(state, givens_of(puzzle), unique, ladder)
    solution: Grid | None = None
    harder_steps = 0
    before: CandidateGrid | None = None  # on a Killer, the last state known free of contradictions
    while not state.is_solved():
        problem = state.problem() if before is None or _may_contradict(before, state) else None
        if problem:
            yield make_step(CONTRADICTION, state, f"contradiction: {problem}; the puzzle has no solution")
            return
        step = next_step(state, ladder)
        if step is None:
            if not guess:
                yield _stalled(state)
                return
            solution = _solution_for(state, solution, max_nodes)
            step = _guess(state, solution)
        if step.technique not in _SINGLE_NAMES:
            harder_steps += 1
            if harder_steps > budget:
                raise StepLimitError(budget)
        yield step
        if state.geometry.cages:
            before = state
        state = state.apply(step)


def _may_contradict(before: CandidateGrid, after: CandidateGrid) -> bool:
    """Whether ``after`` may hold a contradiction that ``before`` did not (``CandidateGrid.problem``): an open
    cell that changed and has no candidate left, or a unit of a changed cell that has no place left for a digit
    the cell lost. A Killer's explanation is long (~145 steps) and its units are checked only where a step
    changed something, which costs a third of ``problem``; ``problem`` then says what is wrong."""
    values, masks, old = after.values, after.masks, before.masks
    cell_units, units = after.layout.cell_units, after.layout.units
    lost: dict[int, int] = {}
    for cell in compress(range(len(masks)), map(ne, old, masks)):  # the cells that changed, found in C
        now = masks[cell]
        if not now and not values[cell]:
            return True
        gone = old[cell] & ~now & ~(1 << values[cell] >> 1)
        if gone:
            for unit in cell_units[cell]:
                lost[unit] = lost.get(unit, 0) | gone
    for unit, gone in lost.items():
        held = 0
        for cell in units[unit]:
            held |= masks[cell]
        if gone & ~held and gone & ~held & ~_placed(values, units[unit]):  # the digits placed are held too
            return True
    return False


def _placed(values: bytes, unit: tuple[int, ...]) -> int:
    """The digits placed in a unit, as a mask."""
    placed = 0
    for cell in unit:
        placed |= 1 << values[cell] >> 1
    return placed


def has_unique_solution(state: CandidateGrid) -> bool:
    """Whether the filled cells of ``state`` have exactly one completion (then its pencil marks have at most
    one too, and the uniqueness techniques hold). Several solutions, none, or a count that does not finish within
    ``UNIQUENESS_CHECK_NODES`` (a nearly empty 64x64 grid) all give ``False``: the techniques are then left out."""
    if state.problem() is not None:
        return False
    return is_unique_by_search(state.to_grid())


def is_unique_by_search(grid: Grid) -> bool:
    """Whether ``grid`` has exactly one solution, by a compiled count to 2 within ``UNIQUENESS_CHECK_NODES``
    (a count that does not finish: ``False``) and what is left of the time budget: a count the deadline stops
    raises the budget's ``TimeLimitError``, never a silent ``False`` that would change which techniques apply."""
    from bitdoku.engines.result import Status
    from bitdoku.solver import search

    result = search(grid, limit=2, keep=0, max_nodes=UNIQUENESS_CHECK_NODES, time_limit=seconds_left())
    if result.time_limit is not None:
        check_time()
    return result.status is Status.UNIQUE


def default_max_steps(shape: Shape) -> int:
    """The budget of steps beyond singles (guesses included) of ``explain`` and ``rate`` when none is given:
    far above what real puzzles need (top1465 needs at most 28), and about a minute of ladder passes on the
    biggest grids (48 on 64x64, where one pass costs ~1 s).

    >>> default_max_steps(Shape(3, 3)), default_max_steps(Shape(8, 8))
    (2469, 48)
    """
    return max(48, 200_000 // shape.n_cells)


def hint(puzzle: LogicPuzzle, *, guess: bool = False, unique: bool | None = None, max_nodes: int | None = None,
         shape: Shape | str | None = None, variant: str | Geometry | None = None) -> Step | None:
    """The next step of ``explain`` (same arguments), or ``None`` when the puzzle is already solved.

    Example
    -------
    >>> hint("..3." ".4.2" "21.." "....").technique
    'Hidden Single'
    """
    return next(explain(puzzle, guess=guess, unique=unique, max_nodes=max_nodes, shape=shape, variant=variant),
                None)


def next_step(state: CandidateGrid, ladder: tuple[Rung, ...] = LADDER) -> Step | None:
    """The first step found by the easiest technique that applies, or ``None``; the time budget (``budget``) is
    checked before each rung."""
    for rung in ladder:
        check_time()
        step = next(rung.find(state), None)
        if step is not None:
            return step
    return None


#: The first release's ladder (its 25 techniques, in the same order): the "bitdoku" rating scale weighs these.
CLASSIC_TECHNIQUES = frozenset({
    singles.HIDDEN_SINGLE, singles.NAKED_SINGLE, intersections.POINTING, intersections.CLAIMING, "Naked Pair",
    "Hidden Pair", "Naked Triple", "Hidden Triple", "X-Wing", single_digit.SKYSCRAPER, single_digit.KITE,
    wings.XY_WING, wings.XYZ_WING, "Naked Quad", "Hidden Quad", chains.REMOTE_PAIRS, uniqueness.UNIQUE_RECTANGLE_1,
    "Swordfish", wings.W_WING, single_digit.COLOURING, uniqueness.BUG_PLUS_1, "Jellyfish", single_digit.X_CHAIN,
    chains.XY_CHAIN,
})
CLASSIC_LADDER: tuple[Rung, ...] = tuple(rung for rung in LADDER if rung.technique in CLASSIC_TECHNIQUES)

#: The ladder for puzzles not known to have a unique solution.
WITHOUT_UNIQUENESS: tuple[Rung, ...] = tuple(rung for rung in LADDER if not rung.needs_unique)

#: The finders that hold on any geometry: they take units from ``CandidateGrid.layout`` (every unit of the
#: variant) and "sees" from its peers (relation cells included: two cells a knight's move apart may not share a
#: digit, which is all a weak link or a pincer needs). Subsets work in any unit; basic fish on rows and columns,
#: which every geometry keeps; wings, remote pairs, colouring and X/XY-chains link cells through units and peers.
_ANY_GEOMETRY: frozenset[Finder] = frozenset({
    singles.find_hidden_singles_in_boxes, singles.find_hidden_singles_in_rows,
    singles.find_hidden_singles_in_columns, singles.find_hidden_singles_in_extra_units, singles.find_naked_singles,
    intersections.find_pointing, intersections.find_claiming,
    subsets.find_naked_pairs, subsets.find_hidden_pairs, subsets.find_naked_triples, subsets.find_hidden_triples,
    subsets.find_naked_quads, subsets.find_hidden_quads,
    fish.find_x_wing, fish.find_swordfish, fish.find_jellyfish,
    wings.find_xy_wings, wings.find_xyz_wings, wings.find_w_wings,
    chains.find_remote_pairs, chains.find_xy_chains, single_digit.find_simple_colouring, single_digit.find_x_chains,
})

#: The techniques of ``LADDER`` that are sound on every variant geometry, in the same order: the ladder of
#: non-classic grids (see the module docstring for what is left out and why).
VARIANT_LADDER: tuple[Rung, ...] = tuple(rung for rung in LADDER if rung.find in _ANY_GEOMETRY)


#: The Killer techniques (``logic/killer.py``) as rungs, each placed in ``KILLER_LADDER`` before the classic rung
#: named with it: the cage rules right after the singles, the rule of 45 on one unit before the intersections,
#: required digits between pointing and claiming, the bigger regions before the pairs, cage splitting before the
#: triples (the order of ``killer.DIFFICULTY``, cheap cage rules first).
_KILLER_RUNGS: tuple[tuple[str, Rung], ...] = (
    (intersections.POINTING, Rung(killer.CAGE_SUM, killer.find_cage_sums, single=True)),
    (intersections.POINTING, Rung(killer.CAGE_COMBINATIONS, killer.find_cage_combinations)),
    (intersections.POINTING, Rung(killer.INNIES, killer.find_innies)),
    (intersections.POINTING, Rung(killer.OUTIES, killer.find_outies)),
    (intersections.CLAIMING, Rung(killer.REQUIRED_DIGITS, killer.find_required_digits)),
    ("Naked Pair", Rung(killer.BIG_INNIES, killer.find_big_innies)),
    ("Naked Pair", Rung(killer.BIG_OUTIES, killer.find_big_outies)),
    ("Naked Triple", Rung(killer.CAGE_SPLITTING, killer.find_cage_splits)),
)
_KILLER_FINDERS: frozenset[Finder] = frozenset(rung.find for _, rung in _KILLER_RUNGS)


def _with_killer_rungs(ladder: tuple[Rung, ...]) -> tuple[Rung, ...]:
    """``ladder`` with each Killer rung before the first rung of the technique it is placed before."""
    found: list[Rung] = []
    for rung in ladder:
        found += [killer_rung for before, killer_rung in _KILLER_RUNGS if before == rung.technique]
        found.append(rung)
    return tuple(found)


#: The ladder of Killer grids: ``VARIANT_LADDER`` (the cage mates are peers, so its techniques hold) with the
#: Killer techniques. No uniqueness technique and no compiled classic finder is on it.
KILLER_LADDER: tuple[Rung, ...] = _with_killer_rungs(VARIANT_LADDER)


def geometry_ladder(state: CandidateGrid, ladder: tuple[Rung, ...] = LADDER) -> tuple[Rung, ...]:
    """The rungs of ``ladder`` that hold on the grid's geometry: all of them on a classic grid; on a variant
    ``VARIANT_LADDER`` for ``LADDER``, else the rungs of ``ladder`` that ``VARIANT_LADDER`` has; on a Killer
    ``KILLER_LADDER`` for ``LADDER``, else the rungs of ``ladder`` that ``KILLER_LADDER`` has."""
    if state.geometry.is_classic:
        return ladder
    if state.geometry.cages:
        if ladder is LADDER:
            return KILLER_LADDER
        return tuple(rung for rung in ladder if rung.find in _ANY_GEOMETRY or rung.find in _KILLER_FINDERS)
    if ladder is LADDER:
        return VARIANT_LADDER
    return tuple(rung for rung in ladder if rung.find in _ANY_GEOMETRY)


def ladder_for(state: CandidateGrid, givens: frozenset[int] | None, unique: bool,
               ladder: tuple[Rung, ...] = LADDER) -> tuple[Rung, ...]:
    """The ladder of one solve: ``ladder`` without its uniqueness techniques unless ``unique``; with Avoidable
    Rectangles (after the Hidden Unique Rectangle) when the givens are known, since they reason about cells that
    were solved, not given."""
    if not unique:
        return tuple(rung for rung in ladder if not rung.needs_unique)
    hidden_ur = [i for i, rung in enumerate(ladder) if rung.technique == uniqueness.HIDDEN_UNIQUE_RECTANGLE]
    if givens is None or not hidden_ur or len(givens) == sum(1 for value in state.values if value):
        return ladder
    avoidable = Rung(uniqueness.AVOIDABLE_RECTANGLE_1, uniqueness.avoidable_rectangles_finder(givens),
                     needs_unique=True)
    return (*ladder[: hidden_ur[0] + 1], avoidable, *ladder[hidden_ur[0] + 1 :])


def givens_of(puzzle: Grid | CandidateGrid) -> frozenset[int] | None:
    """The cells given in the puzzle, when it says so: a grid does; pencil marks do not (a filled cell may have
    been solved)."""
    if isinstance(puzzle, Grid):
        return frozenset(cell for cell, value in enumerate(puzzle.cells) if value)
    return None


def _stalled(state: CandidateGrid) -> Step:
    left = len(state.open_cells())
    text = (
        f"no technique applies: {left} cell{'s' if left != 1 else ''} still open; "
        "guess (--guess) or use a stronger technique to go on"
    )
    return make_step(STALLED, state, text)


def _solution_for(state: CandidateGrid, known: Grid | None, max_nodes: int | None = None) -> Grid:
    """A solution that agrees with the filled cells (found once by the compiled engine, reused after)."""
    if known is not None and known.keeps_givens_of(state.to_grid()):
        return known
    from bitdoku.solver import solve

    try:
        found = solve(state.to_grid(), max_nodes=max_nodes, time_limit=seconds_left())
    except SearchTimeLimitError:
        check_time()  # the time budget is spent: its own error, as between steps
        raise
    if found is None:
        raise InvalidGridError("the puzzle has no solution, so there is nothing to guess")
    return found


def _guess(state: CandidateGrid, solution: Grid) -> Step:
    """Place the solution's digit in the first open cell with the fewest candidates."""
    masks, n = state.masks, state.n
    cell = min(state.open_cells(), key=lambda c: masks[c].bit_count())
    digit = solution[cell]
    if not state.has(cell, digit):
        raise InvalidGridError(f"the pencil marks of {cell_name(cell, n)} rule out its digit in the solution")
    text = (
        f"{cell_name(cell, n)} = {digit}: no technique applies, so guess {cell_name(cell, n)} from its "
        f"{masks[cell].bit_count()} candidates {digit_list(state.candidates(cell))} (the solution's digit)"
    )
    return make_step(GUESS, state, text, placements=[(cell, digit)], cells=[cell])
