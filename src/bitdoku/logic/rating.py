"""``rate``: how hard a puzzle is for a person, from the techniques its solve needs, on one of two scales.

``scale="se"`` (the default): the Sudoku Explainer scale, the common scale of puzzle forums. The score is the
highest SE difficulty of a step in an SE-style simplest-first solve (``bitdoku.logic.se``: SE's rule order, its
singles and direct rules, a step's own difficulty for chains); the level is the band of the score
(``difficulty.SE_BANDS``); ``counts`` is the histogram of the steps (technique -> count) and ``difficulties``
each technique's highest SE difficulty in the solve. When no rule applies, the solve guesses as below
(technique "Guess", 10.0, level "beyond logic").

``scale="bitdoku"``: the score of the first release, unchanged:

The rater solves like ``explain(puzzle, guess=True)`` (same ladder, same order, so the same steps) but keeps
only counts: singles run in a compiled kernel (``singles_kernel.run_singles``) on arrays, and the Python techniques
are called only when singles stall.

Formula
-------
Each technique has a difficulty ``D`` and a level (table ``DIFFICULTY`` below; the levels are contiguous
ranges of ``D``, and the ladder tries techniques in increasing ``D``). With ``hardest`` the technique of
highest ``D`` the solve used and ``k`` the number of steps that were not singles (guesses included)::

    score = D[hardest] + 0.09 * k / (k + 5)
    level = LEVEL[hardest]           # "beyond logic" when the solve had to guess

The second term (always below 0.09, less than the gap between two difficulties) orders puzzles that need the
same hardest technique by how often they needed help beyond singles. A puzzle already solved scores 0.
The weights are ours, loosely following the order of Sudoku Explainer and HoDoKu; they are stable, so a score
means the same thing from one release to the next unless this table changes.

Variant grids
-------------
A Killer is rated on its own ladder (``explain.KILLER_LADDER`` on the "bitdoku" scale, weighed by
``KILLER_DIFFICULTY``; ``KILLER_SE_LADDER`` on the SE scale): the Killer techniques (``logic/killer.py``) have
difficulties of their own on both scales (``killer.DIFFICULTY``; SE has no Killer rules, so an SE score of a Killer
uses our numbers for them). A grid of another geometry (X, Windoku, jigsaw, anti-knight, anti-king,
nonconsecutive) is rated in Python on the techniques that hold there (the compiled singles read classic tables). On
the "bitdoku" scale its steps are those of ``explain(puzzle, guess=True)`` (on ``VARIANT_LADDER``), weighed by the
same table. The SE scale is defined for classic Sudoku; a variant's "se" score uses the same SE numbers for the
rules of SE's ladder that hold on any geometry (``se.se_solve_variant``), so it reads like an SE score, but no SE
program would give it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from bitdoku.errors import InvalidGridError, StepLimitError
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.logic import killer
from bitdoku.logic.arrays import apply_to_arrays, kernel_arrays
from bitdoku.logic.candidates import CandidateGrid, LogicPuzzle, as_candidates, as_logic_puzzle
from bitdoku.logic.difficulty import se_level
from bitdoku.logic.explain import (
    CLASSIC_LADDER,
    _guess,
    _solution_for,
    default_max_steps,
    explain,
    has_unique_solution,
    is_unique_by_search,
    next_step,
)
from bitdoku.logic.kernels import singles as singles_kernel
from bitdoku.logic.se import SE_LADDER, SE_VARIANT_LADDER, SeRung, SeSolve, se_solve, se_solve_variant
from bitdoku.logic.singles import HIDDEN_SINGLE, NAKED_SINGLE
from bitdoku.logic.step import GUESS
from bitdoku.shape import Shape

LEVELS = ("easy", "medium", "hard", "expert", "extreme", "beyond logic")
SCALES = ("se", "bitdoku")

#: technique -> (difficulty, level). Levels: easy = singles; medium = intersections and small subsets;
#: hard = X-Wing, the two-link single-digit patterns, the short wings, quads, remote pairs and UR type 1;
#: expert = bigger fish, W-Wing, colouring, BUG+1; extreme = chains; beyond logic = a guess was needed.
DIFFICULTY: dict[str, tuple[float, str]] = {
    "Hidden Single": (1.2, "easy"),
    "Naked Single": (1.5, "easy"),
    "Locked Candidates (Pointing)": (1.7, "medium"),
    "Locked Candidates (Claiming)": (1.9, "medium"),
    "Naked Pair": (2.0, "medium"),
    "Hidden Pair": (2.2, "medium"),
    "Naked Triple": (2.4, "medium"),
    "Hidden Triple": (2.6, "medium"),
    "X-Wing": (3.0, "hard"),
    "Skyscraper": (3.1, "hard"),
    "2-String Kite": (3.2, "hard"),
    "XY-Wing": (3.4, "hard"),
    "XYZ-Wing": (3.6, "hard"),
    "Naked Quad": (3.8, "hard"),
    "Hidden Quad": (4.0, "hard"),
    "Remote Pairs": (4.2, "hard"),
    "Unique Rectangle Type 1": (4.4, "hard"),
    "Swordfish": (4.6, "expert"),
    "W-Wing": (4.8, "expert"),
    "Simple Colouring": (5.0, "expert"),
    "BUG+1": (5.4, "expert"),
    "Jellyfish": (5.6, "expert"),
    "X-Chain": (6.0, "extreme"),
    "XY-Chain": (6.5, "extreme"),
    GUESS: (10.0, "beyond logic"),
}

#: The "bitdoku" scale of a Killer: the table above and the Killer techniques (``killer.DIFFICULTY``).
KILLER_DIFFICULTY: dict[str, tuple[float, str]] = {
    **DIFFICULTY, **{name: (weight, level) for name, (weight, level, _) in killer.DIFFICULTY.items()}}

_SINGLES = (HIDDEN_SINGLE, NAKED_SINGLE)
#: The "bitdoku" scale keeps the first release's ladder and weighs its techniques.
_HARDER = tuple(rung for rung in CLASSIC_LADDER if not rung.single)


@dataclass(frozen=True)
class Rating:
    """The difficulty of a puzzle on a ``scale`` ("se" or "bitdoku"): ``score`` (see the module docstring),
    ``level``, the ``hardest`` technique used, the histogram of the steps (``counts``: technique -> steps, easiest
    first), the number of ``steps`` in all, and on the SE scale each technique's highest SE difficulty in the
    solve (``difficulties``)."""

    score: float
    level: str
    hardest: str
    counts: dict[str, int] = field(default_factory=dict)
    steps: int = 0
    scale: str = "bitdoku"
    difficulties: dict[str, float] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, object]:
        record: dict[str, object] = {"score": self.score, "level": self.level, "hardest": self.hardest,
                                     "counts": dict(self.counts), "steps": self.steps, "scale": self.scale}
        if self.scale == "se":
            record["difficulties"] = dict(self.difficulties)
        return record


def rate(puzzle: LogicPuzzle, *, max_steps: int | None = None, scale: str = "se", max_nodes: int | None = None,
         shape: Shape | str | None = None, variant: str | Geometry | None = None) -> Rating:
    """Rate a puzzle by the hardest technique its solve needs (and, on the bitdoku scale, how often it needed
    more than singles). Variant grids are rated on the techniques that hold on their geometry (see the module
    docstring: on the SE scale, with SE's numbers).

    Parameters
    ----------
    puzzle : Grid, CandidateGrid, str, sequence or array
        The puzzle in any form (``grid.Puzzle``); pencil marks are taken as they are.
    scale : str
        "se" (Sudoku Explainer's scale, the default) or "bitdoku" (the first release's score).
    max_steps : int, optional
        Steps beyond singles (guesses included) the solve may take; past it ``StepLimitError`` is raised, so
        a rating is either complete and the same on every machine, or an error. Default:
        ``default_max_steps(shape)``.
    max_nodes : int, optional
        The node budget of the search for the solution that a guess places, when the logic runs out. Default:
        the search's default budget (about a minute).
    shape : Shape or str, optional
        The box shape, for the forms that do not say it (a flat array of 36 cells may be 2x3 or 3x2 boxes).
    variant : str or Geometry, optional
        The variant's rules (``"x"``, a ``Geometry``, ...), for the forms that do not carry them.

    Returns
    -------
    Rating

    Raises
    ------
    InvalidGridError
        When filled cells clash or the puzzle has no solution.
    StepLimitError
        When the solve needs more than ``max_steps`` steps beyond singles.
    SearchLimitError
        When a guess is needed and the search for the solution spends ``max_nodes`` first.

    Example
    -------
    >>> r = rate("..3." ".4.2" "21.." "....", scale="bitdoku")
    >>> r.level, r.hardest, r.score, r.steps
    ('easy', 'Hidden Single', 1.2, 11)
    >>> r = rate("..3." ".4.2" "21.." "....")
    >>> r.level, r.hardest, r.score, r.counts
    ('easy', 'Hidden Single (box)', 1.2, {'Full House': 8, 'Hidden Single (box)': 3})
    """
    if scale not in SCALES:
        raise ValueError(f"unknown rating scale {scale!r}: expected one of {', '.join(SCALES)}")
    puzzle = as_logic_puzzle(puzzle, shape, variant)
    budget = default_max_steps(puzzle.shape) if max_steps is None else max_steps
    if puzzle.geometry.cages:
        if scale == "se":
            return se_rating_of(se_solve_variant(puzzle, budget, KILLER_SE_LADDER, max_nodes=max_nodes))
        steps = explain(puzzle, guess=True, max_steps=budget, max_nodes=max_nodes)
        return rating_of(Counter(step.technique for step in steps), KILLER_DIFFICULTY)
    if not puzzle.geometry.is_classic:
        if scale == "se":
            return se_rating_of(se_solve_variant(puzzle, budget, max_nodes=max_nodes))
        steps = explain(puzzle, guess=True, max_steps=budget, max_nodes=max_nodes)
        return rating_of(Counter(step.technique for step in steps))
    if scale == "se":
        return se_rating_of(se_solve(puzzle, budget, SE_LADDER, max_nodes=max_nodes,
                                     unique=lambda: _is_unique(puzzle)))
    return rating_of(_count_steps(puzzle, budget, max_nodes))


def _is_unique(puzzle: Grid | CandidateGrid) -> bool:
    """Whether the puzzle has one solution: the uniqueness techniques hold, and the forcing chains can finish."""
    if isinstance(puzzle, Grid):
        return is_unique_by_search(puzzle)
    return has_unique_solution(as_candidates(puzzle))


def se_rating_of(solve: SeSolve) -> Rating:
    """The SE-scale rating of an SE-style solve."""
    if not solve.counts:
        return Rating(0.0, LEVELS[0], "none", {}, 0, "se", {})
    order = sorted(solve.counts, key=lambda name: solve.difficulties[name])
    counts = {name: solve.counts[name] for name in order}
    difficulties = {name: solve.difficulties[name] for name in order}
    level = "beyond logic" if solve.guessed else se_level(solve.score)
    return Rating(round(solve.score, 2), level, solve.hardest, counts, sum(counts.values()), "se", difficulties)


def rating_of(counts: Counter[str] | dict[str, int],
              table: dict[str, tuple[float, str]] = DIFFICULTY) -> Rating:
    """The rating of a solve that made the given number of steps with each technique, weighed by ``table``
    (``DIFFICULTY``; ``KILLER_DIFFICULTY`` for a Killer)."""
    used = [name for name, count in counts.items() if count]
    if not used:
        return Rating(0.0, LEVELS[0], "none", {}, 0)
    hardest = max(used, key=lambda name: table[name][0])
    k = sum(count for name, count in counts.items() if name not in _SINGLES)
    score = round(table[hardest][0] + 0.09 * k / (k + 5), 4)
    ordered = {name: counts[name] for name in sorted(used, key=lambda name: table[name][0])}
    return Rating(score, table[hardest][1], hardest, ordered, sum(ordered.values()))


def _killer_se_ladder() -> tuple[SeRung, ...]:
    """SE's variant ladder with the Killer rules, each before the first rule SE rates higher (a group of rules
    is not split), with the SE values of ``killer.DIFFICULTY``."""
    from bitdoku.logic.explain import KILLER_LADDER

    finders = {rung.technique: rung.find for rung in KILLER_LADDER}
    ladder = list(SE_VARIANT_LADDER)
    for name, (_, _, se_value) in killer.DIFFICULTY.items():
        at = next((i for i, rung in enumerate(ladder) if rung.difficulty > se_value
                   and (i == 0 or rung.group is None or ladder[i - 1].group != rung.group)), len(ladder))
        ladder.insert(at, SeRung(name, finders[name], se_value))
    return tuple(ladder)


#: The SE-scale ladder of a Killer (``_killer_se_ladder``): the cage rules first, the rule of 45 on bigger regions
#: and cage splitting among the locked candidates and pairs.
KILLER_SE_LADDER: tuple[SeRung, ...] = _killer_se_ladder()


def _count_steps(puzzle: Grid | CandidateGrid, max_steps: int, max_nodes: int | None = None) -> Counter[str]:
    """Solve with singles in the kernel and harder steps in Python; count the steps of each technique."""
    shape = puzzle.shape
    tables = shape.tables
    n = shape.n
    values, masks = kernel_arrays(puzzle)
    counts: Counter[str] = Counter()
    singles = np.zeros(2, dtype=np.int64)
    solution: Grid | None = None
    while True:
        status = singles_kernel.run_singles(values, masks, tables.units, tables.peers, n, singles)
        if status == singles_kernel.SOLVED:
            break
        state = CandidateGrid(values.tobytes(), tuple(masks.tolist()), shape)
        if status == singles_kernel.CONTRADICTION:  # STALLED means the kernel found every cell and unit consistent
            raise InvalidGridError("the puzzle has no solution: the candidates run out")
        if counts.total() >= max_steps:
            raise StepLimitError(max_steps)
        step = next_step(state, _HARDER)
        if step is None:
            solution = _solution_for(state, solution, max_nodes)
            step = _guess(state, solution)
        counts[step.technique] += 1
        apply_to_arrays(step, values, masks, tables.peers)
    counts[HIDDEN_SINGLE] += int(singles[0])
    counts[NAKED_SINGLE] += int(singles[1])
    return counts


