"""Compile the logic solver's kernels ahead of the work that is timed.

The techniques run compiled kernels (singles, SE's direct rules, the forcing chains' propagation), which Numba
compiles on their first call, or loads from its cache. On a machine where the cache is cold that first call takes
tens of seconds, and work with a deadline (the generator's time limit, a web request) must not pay it out of its
budget. ``warm_up`` calls every finder of both ladders once on ``_POSITION`` (the demo's solution with 44 cells
emptied: candidates everywhere, yet an easy grid, so even the nested forcing chains find a step at once; on the
demo's opening position they take half a second), then rates it. Once the kernels are compiled (or cached) the
pass costs a few tens of milliseconds; on a cold cache it is where the compiling happens, before any clock starts.
"""

from __future__ import annotations

import time

from bitdoku.data import DEMO_SOLUTION

#: Every cell i with 7 * i % 11 < 6 emptied.
_POSITION = "".join("." if 7 * i % 11 < 6 else digit for i, digit in enumerate(DEMO_SOLUTION))
_warm = False


def warm_up() -> float:
    """Compile (or load) every kernel the techniques use; returns the seconds it took (0 when already done in
    this process)."""
    global _warm
    if _warm:
        return 0.0
    from bitdoku.logic.candidates import CandidateGrid
    from bitdoku.logic.explain import LADDER
    from bitdoku.logic.rating import rate
    from bitdoku.logic.se import SE_LADDER
    from bitdoku.logic.se_chains import find_se_forcing_chains

    start = time.perf_counter()
    state = CandidateGrid.parse(_POSITION)
    # SE's chains yield a cycle first here: their forcing chains alone compile the kernel that traces one's path
    for finder in {rung.find for rung in LADDER} | {rung.find for rung in SE_LADDER} | {find_se_forcing_chains}:
        next(finder(state), None)
    rate(_POSITION)  # the SE solve's own kernel and the uniqueness check
    _warm = True
    return time.perf_counter() - start
