"""What there is to compile: the library's compiled code cut into warm-up units, each a few calls that compile it.

A unit is what one process compiles in one go: a kernel and the calls around it that a command runs (the 9x9
engine, the bitboard kernel of the other box shapes, a family of logic techniques, a generator path). Units name
the units whose compiled code they call (``needs``): those go first, so that a unit's process loads them from the
cache instead of compiling them a second time beside another process. Each unit belongs to a ``feature`` (what
the web page and the commands offer: the verdict, hints, generating), and the features are listed in order of
need: what a first visitor of the page needs first comes first.

The calls run on tiny inputs, so once the code is compiled (or cached) a unit takes only the time to load it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bitdoku.geometry import Geometry
    from bitdoku.grid import Grid
    from bitdoku.shape import Shape

#: A 4x4 puzzle with one solution, for the units of the other box shapes (every shape shares their code).
SMALL = "..3..4.221......"

#: The features, in the order a server prepares them: the live verdict first (the page checks the grid as it is
#: typed), then what the buttons do.
FEATURES: dict[str, str] = {
    "verdict": "the live verdict",
    "hints": "hints, explanations and ratings",
    "generate": "new puzzles",
    "variants": "the variants",
    "batch": "files of puzzles",
    "canon": "canonical forms",
    "killer": "Killer Sudoku",
}


@dataclass(frozen=True)
class Unit:
    """One piece to compile: its name for people, its feature, the units whose code it calls, and the calls."""

    name: str
    feature: str
    run: Callable[[], object] = field(repr=False, compare=False)
    needs: tuple[str, ...] = ()
    engine: bool = False  # part of ``bitdoku warmup`` without ``--all``: what solve, count and check use


def _search_9x9() -> None:
    from bitdoku.engines import bitmask
    from bitdoku.shape import Shape

    bitmask.warm_up(Shape(3, 3))


def _search_boxes() -> None:
    from bitdoku.solver import search

    search(SMALL, limit=2)  # every search of the bitboard kernel runs one compiled entry point


def _batch_9x9() -> None:
    from bitdoku.batch import solve_many
    from bitdoku.data import DEMO

    solve_many([DEMO], limit=2, threads=1)


def _batch_boxes() -> None:
    from bitdoku.batch import solve_many

    solve_many([SMALL], limit=2, threads=1)


def _variant(name: str, size: str = "3x3") -> Callable[[], None]:
    """The search of one variant kernel, on an empty grid for one node (``engines.bitmask.variant_kernel``)."""

    def run() -> None:
        from bitdoku.engines import bitmask
        from bitdoku.grid import Grid

        bitmask.search(Grid.empty(size).with_geometry(_geometry(name)), limit=2, max_nodes=1, keep=0)

    return run


def _both(*calls: Callable[[], None]) -> Callable[[], None]:
    def run() -> None:
        for call in calls:
            call()

    return run


def _cell_by_cell() -> None:
    """The cell-by-cell kernel (``dfs.search_generic``): unit tables of no known kind, and the cross-check."""
    from bitdoku.engines import bitmask
    from bitdoku.grid import Grid
    from bitdoku.kernels import status

    bitmask.search(Grid.parse(SMALL), limit=2, max_nodes=10_000, keep=0, rules=status.ALL_RULES | status.GENERIC_ONLY)


def _geometry(name: str) -> object:
    """A variant's rules by name; for a jigsaw, the boxes as its regions (a map the jigsaw kernel takes)."""
    from bitdoku.geometry import Geometry

    if name == "jigsaw":
        return Geometry.jigsaw("".join("ABCDEFGHI"[3 * (cell // 27) + cell % 9 // 3] for cell in range(81)))
    return name


def _logic(group: str) -> Callable[[], None]:
    """The kernels of one group of logic techniques (``logic.warmup.GROUPS``: they share no compiled code)."""

    def run() -> None:
        from bitdoku.logic.warmup import warm_up

        warm_up([group])

    return run


def _generator(size: str, variant: str | None = None) -> Callable[[], None]:
    def run() -> None:
        from bitdoku.generate.puzzles import warm_up
        from bitdoku.generate.request import Request

        warm_up(Request.make(size, variant=variant))

    return run


#: The unit of the kernel of cages, which every Killer's search runs (and the Killer generator's).
KILLER_UNIT = "Killer cages"


def _killer() -> None:
    from bitdoku.solver import count_solutions

    count_solutions("ABBCADECFDECFFGG 4,5,9,5,5,9,3", variant="killer")


def _canonical_forms() -> None:
    from bitdoku.data import DEMO
    from bitdoku.generate.canon import canonical

    canonical(DEMO)


UNITS: tuple[Unit, ...] = (
    Unit("9x9 engine", "verdict", _search_9x9, engine=True),
    Unit("engine of the other shapes", "verdict", _search_boxes, engine=True),
    Unit("logic techniques", "hints", _logic("techniques"), needs=("9x9 engine",)),
    Unit("forcing chains", "hints", _logic("forcing chains"), needs=("9x9 engine",)),
    Unit("rating", "hints", _logic("rating"), needs=("9x9 engine",)),
    Unit("9x9 generator", "generate", _generator("3x3"), needs=("9x9 engine",)),
    # Small grids (whole attempts in one call) and large ones (the bounded fill and removal) in one unit: both
    # reach the bitboard kernel through a helper Numba does not cache (``variant._search_any``'s inner search).
    Unit("generator of the other shapes", "generate", _both(_generator("2x2"), _generator("4x4")),
         needs=("engine of the other shapes",)),
    Unit("9x9 batch", "batch", _batch_9x9, needs=("9x9 engine",), engine=True),
    Unit("batch of the other shapes", "batch", _batch_boxes, needs=("engine of the other shapes",), engine=True),
    Unit("9x9 X and Windoku", "variants", _variant("x")),
    Unit("9x9 jigsaw", "variants", _variant("jigsaw")),
    Unit("9x9 nonconsecutive", "variants", _variant("nonconsecutive")),
    Unit("other 9x9 variants", "variants", _variant("anti-king")),
    # The variant kernel's search and its generator in one unit: both call a helper Numba does not cache
    # (``variant._search_any``'s inner search), which each process that compiles a caller compiles again.
    Unit("variants of other sizes", "variants", _both(_variant("x", "2x2"), _generator("2x2", "x")),
         needs=("engine of the other shapes",)),
    Unit("cell-by-cell kernel", "variants", _cell_by_cell, needs=("engine of the other shapes",)),
    Unit("generator of 9x9 variants", "variants", _generator("3x3", "x"), needs=("other 9x9 variants",)),
    Unit("9x9 nonconsecutive generator", "variants", _generator("3x3", "nonconsecutive"),
         needs=("9x9 nonconsecutive",)),
    Unit("canonical forms", "canon", _canonical_forms),
    Unit(KILLER_UNIT, "killer", _killer),
)

BY_NAME: dict[str, Unit] = {unit.name: unit for unit in UNITS}


#: The unit of each variant kernel (``engines.bitmask.variant_kernel``).
_VARIANT_UNITS = {"extra9": "9x9 X and Windoku", "jigsaw9": "9x9 jigsaw", "nonconsecutive9": "9x9 nonconsecutive",
                  "variant81": "other 9x9 variants", "variant": "variants of other sizes"}
#: The units of the logic solver: a hint, an explanation and a rating may reach any of its techniques.
LOGIC: tuple[str, ...] = ("logic techniques", "forcing chains", "rating")


def search_units(grid: Grid) -> tuple[str, ...]:
    """The units a search of ``grid`` needs compiled: its shape's engine, or its variant's kernel (a Killer's,
    of any shape: the kernel of cages alone)."""
    from bitdoku.engines.bitmask import variant_kernel

    if grid.cages:
        return (KILLER_UNIT,)
    if grid.geometry.is_classic:
        return ("9x9 engine",) if grid.shape.n_cells == 81 else ("engine of the other shapes",)
    return (_VARIANT_UNITS[variant_kernel(grid.geometry)[0]],)


def logic_units(grid: Grid) -> tuple[str, ...]:
    """The units a hint, an explanation or a rating of ``grid`` needs: the logic solver's and its search's."""
    return (*search_units(grid), *LOGIC)


def generate_units(shape: Shape, geometry: Geometry, *, rated: bool = False) -> tuple[str, ...]:
    """The units the generator needs for puzzles of a shape and rules: the path it takes for them (and the
    logic's, when it rates them)."""
    from bitdoku.grid import Grid

    logic = LOGIC if rated else ()
    if geometry.is_classic:
        if shape.n_cells == 81:
            return ("9x9 generator", *logic)
        return ("generator of the other shapes", *logic)
    if shape.n_cells != 81:
        return ("variants of other sizes", *logic)
    if search_units(Grid.empty(shape).with_geometry(geometry)) == ("9x9 nonconsecutive",):
        return ("9x9 nonconsecutive generator", *logic)
    return ("generator of 9x9 variants", *logic)


def units(*, everything: bool = False, features: Iterable[str] | None = None) -> tuple[Unit, ...]:
    """The units of ``bitdoku warmup`` (the engine's), of ``--all`` (``everything``), or of some ``features``;
    each with the units it needs, in the order of ``UNITS``."""
    wanted = set(features) if features is not None else None
    chosen = {unit.name for unit in UNITS
              if everything or (unit.engine if wanted is None else unit.feature in wanted)}
    for name in list(chosen):
        chosen |= set(_needs_of(name))
    return tuple(unit for unit in UNITS if unit.name in chosen)


def _needs_of(name: str) -> Iterable[str]:
    for need in BY_NAME[name].needs:
        yield need
        yield from _needs_of(need)
