"""Compile the kernels ahead of time, for images, servers and anyone who would rather wait now than later.

Numba compiles a kernel on its first call and caches the machine code on disk; every later process loads it in
a fraction of a second. A first call therefore waits: a few seconds for the 9x9 engine, more for the others.
``warm_up`` makes those first calls now, on tiny inputs, step by step so that a progress bar can follow; a step
whose code is cached already takes only the loading time. ``bitdoku warmup`` runs the engine's steps (what
``solve``, ``count`` and ``check`` use), ``bitdoku warmup --all`` every compiled part of the library.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

#: A 4x4 puzzle with one solution, for the steps of the other box shapes (every shape shares their code).
_SMALL = "..3..4.221......"


@dataclass(frozen=True)
class Step:
    """One part of the library to compile: its name for people, and the call that compiles it."""

    name: str
    run: Callable[[], None]
    engine: bool  # part of the engine (``bitdoku warmup``), not only of ``--all``


def _search_9x9() -> None:
    from bitdoku.engines import bitmask
    from bitdoku.shape import Shape

    bitmask.warm_up(Shape(3, 3))


def _batch_9x9() -> None:
    from bitdoku.batch import solve_many
    from bitdoku.data import DEMO

    solve_many([DEMO], limit=2, threads=1)


def _search_other_shapes() -> None:
    import bitdoku

    for limit in (1, 2):  # a first solution restarts, a count does not: two kernels
        bitdoku.search(_SMALL, limit=limit)


def _batch_other_shapes() -> None:
    from bitdoku.batch import solve_many

    solve_many([_SMALL], limit=2, threads=1)


def _variants() -> None:
    import bitdoku
    from bitdoku.engines import bitmask
    from bitdoku.geometry import Geometry
    from bitdoku.grid import Grid

    bitdoku.search(_SMALL, limit=2, variant="x")  # the cell-by-cell kernel (sizes other than 9x9)
    bitmask.search(Grid.empty("3x3").with_geometry("x"), limit=2, max_nodes=1, keep=0)  # 9x9 X, Windoku (extra9)
    boxes = Geometry.jigsaw("".join("ABCDEFGHI"[3 * (cell // 27) + cell % 9 // 3] for cell in range(81)))
    bitmask.search(Grid.empty("3x3").with_geometry(boxes), limit=2, max_nodes=1, keep=0)  # 9x9 jigsaw (jigsaw9)
    bitmask.search(Grid.empty("3x3").with_geometry("nonconsecutive"), limit=2, max_nodes=1, keep=0)  # nonconsecutive9
    bitmask.search(Grid.empty("3x3").with_geometry("anti-king"), limit=2, max_nodes=1, keep=0)  # other 9x9 (variant81)


def _logic() -> None:
    from bitdoku.logic.warmup import warm_up

    warm_up()


def _generator() -> None:
    from bitdoku.generate.puzzles import warm_up
    from bitdoku.generate.request import Request

    # classic 9x9 (the band kernel) and other sizes; 9x9 variants (their own tables' types: variant81's, and
    # nonconsecutive9's for nonconsecutive); variants of other sizes
    for size, variant in (("3x3", None), ("2x2", None), ("3x3", "x"), ("3x3", "nonconsecutive"), ("2x2", "x")):
        warm_up(Request.make(size, variant=variant))


def _canonical_forms() -> None:
    from bitdoku.data import DEMO
    from bitdoku.generate.canon import canonical

    canonical(DEMO)


STEPS: tuple[Step, ...] = (
    Step("9x9 search", _search_9x9, engine=True),
    Step("9x9 batch", _batch_9x9, engine=True),
    Step("other shapes: search", _search_other_shapes, engine=True),
    Step("other shapes: batch", _batch_other_shapes, engine=True),
    Step("variants", _variants, engine=False),
    Step("logic (explain, hint, rate)", _logic, engine=False),
    Step("generator", _generator, engine=False),
    Step("canonical forms", _canonical_forms, engine=False),
)


def steps(*, everything: bool = False) -> tuple[Step, ...]:
    """The steps of ``warm_up``: the engine's, or with ``everything`` all of them."""
    return tuple(step for step in STEPS if everything or step.engine)


def warm_up(*, everything: bool = False) -> Iterator[tuple[Step, float]]:
    """Compile (or load from the cache) the engine's kernels, or with ``everything`` all of the library's;
    yields each step with the seconds it took, as it finishes.

    Example
    -------
    >>> [step.name for step, seconds in warm_up()][:1]
    ['9x9 search']
    """
    for step in steps(everything=everything):
        start = time.perf_counter()
        step.run()
        yield step, time.perf_counter() - start
