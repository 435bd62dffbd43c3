"""Compile the kernels ahead of time, on every core, in order of need: for ``bitdoku warmup``, servers and images.

Numba compiles a kernel on its first call and caches the machine code on disk; every later process loads it in
a fraction of a second. A first call therefore waits. The library's compiled code is cut into warm-up units
(``units``: the 9x9 engine, the other shapes' engine, the logic solver, the generator paths, the variants), each a
few calls on tiny inputs that compile it; ``Farm`` (``farm``) compiles them on several worker processes at once
into the shared cache, and ``ready`` says, in a ``stat``, which are done on this machine.

``warm_up`` is the same work in this process, one unit after the other.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from bitdoku.warmup.farm import Event, Farm
from bitdoku.warmup.ready import compiling, is_ready, mark_ready
from bitdoku.warmup.units import FEATURES, UNITS, Unit, units

__all__ = ["FEATURES", "UNITS", "Event", "Farm", "Unit", "is_ready", "units", "warm_up"]


def warm_up(chosen: Iterable[Unit] | None = None, *, everything: bool = False) -> Iterator[tuple[Unit, float]]:
    """Compile (or load from the cache) the units ``chosen`` (default: the engine's, or with ``everything`` all
    of them) in this process, one after the other; yields each with the seconds it took, as it finishes.

    Example
    -------
    >>> [unit.name for unit, seconds in warm_up()][:1]
    ['9x9 engine']
    """
    for unit in units(everything=everything) if chosen is None else chosen:
        start = time.perf_counter()
        with compiling(unit.name) as needed:
            unit.run()
            if needed:
                mark_ready(unit.name)
        yield unit, time.perf_counter() - start
