"""Compile the logic solver's kernels ahead of the work that is timed.

The techniques run compiled kernels (singles, SE's direct rules, the forcing chains' propagation), which Numba
compiles on their first call, or loads from its cache. On a machine where the cache is cold that first call takes
tens of seconds, and work with a deadline (the generator's time limit, a web request) must not pay it out of its
budget. ``warm_up`` calls finders of both ladders once on ``_POSITION`` (the demo's solution with 44 cells
emptied: candidates everywhere, yet an easy grid, so even the nested forcing chains find a step at once; on the
demo's opening position they take half a second), then rates it. Once the kernels are compiled (or cached) the
pass costs a few tens of milliseconds; on a cold cache it is where the compiling happens, before any clock starts.

The kernels fall into ``GROUPS`` that share no compiled code, so that separate processes can compile them side
by side (``bitdoku.warmup``'s farm gives each its own unit): the ladder's techniques, the forcing chains (their
own propagation kernel), and SE's rating (its singles kernel, its chains and the uniqueness check).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from bitdoku.data import DEMO_SOLUTION

if TYPE_CHECKING:
    from bitdoku.logic.explain import Rung
    from bitdoku.logic.se import SeRung

#: Every cell i with 7 * i % 11 < 6 emptied.
_POSITION = "".join("." if 7 * i % 11 < 6 else digit for i, digit in enumerate(DEMO_SOLUTION))

#: The groups of kernels, each compiled by its own calls.
GROUPS: tuple[str, ...] = ("techniques", "forcing chains", "rating")
_warm: set[str] = set()


def warm_up(groups: Iterable[str] = GROUPS) -> float:
    """Compile (or load) the kernels of the techniques in ``groups`` (default: all); returns the seconds it took
    (0 when already done in this process)."""
    wanted = [group for group in groups if group not in _warm]
    unknown = set(wanted) - set(GROUPS)
    if unknown:
        raise ValueError(f"no logic warm-up group {sorted(unknown)[0]!r}; the groups are {', '.join(GROUPS)}")
    if not wanted:
        return 0.0
    from bitdoku.logic.candidates import CandidateGrid
    from bitdoku.logic.rating import rate

    start = time.perf_counter()
    for group in wanted:
        state = CandidateGrid.parse(_POSITION)
        for finder in _finders(group):
            next(finder(state), None)
        if group == "rating":
            rate(_POSITION)  # the SE solve's own kernel and the uniqueness check
        _warm.add(group)
    return time.perf_counter() - start


def _finders(group: str) -> tuple[Callable[..., Iterator[object]], ...]:
    """The finders whose kernels are in ``group``: the forcing chains'; SE's chains (a cycle first, here: their
    forcing chains alone compile the kernel that traces one's path); or the rest of both ladders."""
    from bitdoku.logic import forcing, se_chains
    from bitdoku.logic.explain import LADDER
    from bitdoku.logic.se import SE_LADDER

    if group == "forcing chains":
        return tuple(finder for _, finder in forcing.FINDERS)
    if group == "rating":
        return se_chains.find_se_chains, se_chains.find_se_forcing_chains
    chained = (forcing.__name__, se_chains.__name__)
    rungs: tuple[Rung | SeRung, ...] = (*LADDER, *SE_LADDER)  # typed: mypy joins the two NamedTuples to a tuple
    ladders = dict.fromkeys(rung.find for rung in rungs)  # in ladder order, once each
    return tuple(finder for finder in ladders if finder.__module__ not in chained)
