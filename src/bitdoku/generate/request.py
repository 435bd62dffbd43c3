"""What a user asks the generator for, checked once: shape, symmetry, minimality, clue count, difficulty, budgets.

A request that no puzzle can meet is refused here with the reason (fewer clues than any unique puzzle has, a clue
count the symmetry cannot make), before any search; one that is only hard to meet is left to the budgets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from bitdoku.engines.bitmask import geometry_kernel_tables
from bitdoku.engines.result import default_max_nodes
from bitdoku.generate.removal import exact_check_rules
from bitdoku.generate.symmetry import Symmetry, reachable_clue_counts
from bitdoku.geometry import Geometry
from bitdoku.kernels.status import ALL_RULES
from bitdoku.logic.rating import LEVELS
from bitdoku.shape import Shape

if TYPE_CHECKING:
    from bitdoku.engines.bitmask import KernelTables

#: Seconds one puzzle may take by default before the generator gives up on it.
DEFAULT_TIME_LIMIT = 60.0
#: The fewest clues of a unique puzzle, where it is known: 4 for 4x4; 17 for 9x9 (McGuire, Tugemann and
#: Civario, "There is no 16-clue Sudoku", Experimental Mathematics 23, 2014). Elsewhere N - 1 is a bound: with
#: two digits missing from the clues, swapping them in a solution gives another.
KNOWN_MINIMUM_CLUES = {4: 4, 9: 17}
#: Nodes one uniqueness check may spend when minimality is not required, by N: a check that needs more keeps
#: its clue (the puzzle stays unique, perhaps with a clue or two more). 9x9 checks never come near it.
NEAR_MINIMAL_CHECK_NODES = {16: 50, 25: 50}
#: Nodes spent checking that a variant's rules allow a complete grid at all (4x4 anti-king does not): a plain
#: search proves that at once, where the generator's randomised fill would restart until its budget is gone.
GRID_CHECK_NODES = 100_000


@dataclass(frozen=True)
class Request:
    """A checked generation request; build it with ``Request.make``.

    ``clues``: the clue count wanted (``None``: as few as the removal pass leaves). ``minimal``: no clue may be
    removable. ``difficulty``: a level of ``bitdoku.rate``; ``rating``: a score range, both ends included.
    ``max_nodes`` and ``time_limit`` bound the work spent on one puzzle; ``check_nodes`` bounds one uniqueness
    check and ``check_rules`` are the rules of its search: all of them when checks are capped (they decide more
    checks within the cap), naked and hidden singles when not (cheaper nodes; measured in benchmarks/RESULTS.md), but
    all of them again for a variant (``removal.exact_check_rules``).
    """

    shape: Shape
    symmetry: Symmetry
    minimal: bool
    clues: int | None
    difficulty: str | None
    rating: tuple[float, float] | None
    max_nodes: int
    time_limit: float
    check_nodes: int
    check_rules: int
    geometry: Geometry

    @classmethod
    def make(
        cls,
        shape: Shape | str = "3x3",
        *,
        symmetry: Symmetry | str = Symmetry.NONE,
        minimal: bool = False,
        clues: int | None = None,
        difficulty: str | None = None,
        rating: tuple[float, float] | None = None,
        max_nodes: int | None = None,
        time_limit: float | None = None,
        variant: str | Geometry | None = None,
    ) -> Request:
        """Check every argument and build the request; ``ValueError`` with the reason for one that cannot work.

        ``variant`` is a name (``"x"``, ``"windoku+anti-king"``) or a ``Geometry`` (a jigsaw needs one, built from
        its region map: ``Geometry.jigsaw(...)`` or ``bitdoku.generate.regions.random_jigsaw``).
        """
        if isinstance(variant, Geometry):
            geometry = variant
            if geometry.shape != Shape.parse(shape):
                raise ValueError(f"the {geometry.name} geometry has {geometry.shape} boxes, not {shape}")
        else:
            geometry = Geometry.parse(variant, shape)
        shape = geometry.shape
        _check_has_grids(geometry)
        symmetry = Symmetry.parse(symmetry)
        if clues is not None:
            _check_clues(geometry, symmetry, clues)
        if difficulty is not None and difficulty not in LEVELS:
            raise ValueError(f"unknown difficulty {difficulty!r}; levels are {', '.join(LEVELS)}")
        if rating is not None:
            low, high = rating
            if not low <= high:
                raise ValueError(f"a rating range goes from low to high, not {low}:{high}")
        budget = default_max_nodes(shape) if max_nodes is None else max_nodes
        if budget < 1:
            raise ValueError(f"max_nodes must be at least 1, not {max_nodes}")
        seconds = DEFAULT_TIME_LIMIT if time_limit is None else float(time_limit)
        if not seconds > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit}")
        capped = not minimal and shape.n in NEAR_MINIMAL_CHECK_NODES
        check_nodes = NEAR_MINIMAL_CHECK_NODES[shape.n] if capped else budget
        check_rules = ALL_RULES if capped else exact_check_rules(geometry)
        return cls(shape, symmetry, minimal, clues, difficulty, rating, budget, seconds, check_nodes, check_rules,
                   geometry)

    @property
    def dig_target(self) -> int:
        """The clue count the removal pass stops at: the wanted count, or 0 (remove all it can)."""
        return self.clues if self.clues is not None and not self.minimal else 0

    @property
    def tables(self) -> KernelTables:
        """The kernels' ``(units, cell_units, peers)`` (``engines.bitmask.geometry_kernel_tables``)."""
        return geometry_kernel_tables(self.geometry)

    @property
    def filtered_by_rating(self) -> bool:
        return self.difficulty is not None or self.rating is not None

    def describe(self) -> str:
        """What is asked, as a phrase: ``'minimal 9x9 puzzle with 22 clues, rated hard'``."""
        kind = "" if self.geometry.is_classic else f"{self.geometry.name} "
        words = ["minimal" if self.minimal else "unique", f"{self.shape.size_name} {kind}puzzle"]
        if self.symmetry is not Symmetry.NONE:
            words.append(f"with {self.symmetry} symmetry")
        if self.clues is not None:
            words.append(f"{'and' if self.symmetry is not Symmetry.NONE else 'with'} {self.clues} clues")
        text = " ".join(words)
        if self.difficulty is not None:
            text += f", rated {self.difficulty}"
        if self.rating is not None:
            low, high = self.rating
            text += f", scoring {_number(low)} to {_number(high)}"
        return text


def _fewest_clues(geometry: Geometry) -> int:
    """A lower bound on the clues of a unique puzzle: the proven minimum of a classic grid (else N - 1), N - 1 for
    a variant whose rules do not tell digits apart, 0 for nonconsecutive (its rule is not symmetric in the
    digits, so the swapping argument fails)."""
    n = geometry.shape.n
    if geometry.is_classic:
        return KNOWN_MINIMUM_CLUES.get(n, n - 1)
    return 0 if "nonconsecutive" in geometry.rules else n - 1


@lru_cache(maxsize=64)
def _check_has_grids(geometry: Geometry) -> None:
    """Refuse rules that no complete grid obeys; rules a short search cannot decide are left to the budgets."""
    if geometry.is_classic:
        return
    from bitdoku.engines.bitmask import search
    from bitdoku.engines.result import Status
    from bitdoku.grid import Grid
    from bitdoku.kernels import nonconsecutive9

    empty = Grid(bytes(geometry.shape.n_cells), geometry.shape, geometry)
    # on the kernel the generator runs for these rules (``geometry_kernel_tables``): the band kernel for 9x9
    # nonconsecutive, the digit-major one for the other 9x9 variants; a kernel of its own was a compile for nothing
    band = nonconsecutive9.tables_for(geometry) is not None
    if search(empty, limit=1, max_nodes=GRID_CHECK_NODES, keep=0, band_kernels=band).status is Status.NO_SOLUTION:
        raise ValueError(f"no {geometry.shape.size_name} grid obeys the {geometry.name} rules, so no puzzle can")


def _check_clues(geometry: Geometry, symmetry: Symmetry, clues: int) -> None:
    """Refuse a clue count that no unique puzzle of the geometry, or no pattern of the symmetry, can have."""
    shape = geometry.shape
    if isinstance(clues, bool) or not isinstance(clues, int) or not 0 <= clues <= shape.n_cells:
        raise ValueError(f"a {shape.size_name} puzzle has 0 to {shape.n_cells} clues, not {clues!r}")
    fewest = _fewest_clues(geometry)
    if clues < fewest:
        proven = geometry.is_classic and shape.n in KNOWN_MINIMUM_CLUES
        why = "that is proven" if proven else "two digits missing from the clues can swap"
        raise ValueError(
            f"no {shape.size_name} puzzle with fewer than {fewest} clues has a unique solution ({why}); "
            f"ask for {fewest} or more"
        )
    reachable = reachable_clue_counts(shape, symmetry)
    if not reachable[clues]:
        near = [count for count in (clues - 1, clues + 1, clues - 2, clues + 2) if 0 <= count < len(reachable)]
        options = " or ".join(str(count) for count in sorted(count for count in near if reachable[count])[:2])
        raise ValueError(
            f"no {shape.size_name} clue pattern with {symmetry} symmetry has exactly {clues} clues "
            f"(its cells go in groups that the symmetry keeps together); ask for {options or 'another count'}"
        )


def _number(value: float) -> str:
    return "any" if math.isinf(value) else f"{value:g}"
