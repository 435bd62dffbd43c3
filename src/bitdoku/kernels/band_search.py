"""The depth-first search loop of the 9x9 band variant kernels, written once: ``extra9``, ``jigsaw9`` and
``nonconsecutive9`` all branch, copy states, count nodes and back up the same way and differ only in a few calls.

Why one loop: the kernels had a copy each of these ~50 lines (the largest duplicates of the tree), and a change to
the search (a counter, the stop flag, the last digit placed in the frame's own state) had to be made in each.
How: ``search`` is inlined by Numba (``inline="always"``) into each kernel's ``search_in``, with the kernel's
functions as arguments; they are known at compile time, so each kernel gets its own copy of the loop with direct
calls in it, the same machine code as the copy it had (same speed, benchmarks/results/band_loop1.md), cached with
``search_in``. Not a function of its own taking the functions as arguments: a compiled function passed as a value
is a "dynamic global" (its address), which Numba cannot cache, so ``search_in`` would compile on every run.

What it costs: Numba's inlining copies the loop's IR into each caller, about 0.2-0.3 s more first compile for each
kernel's ``search_in``. That is why ``sudoku9`` (whose first compile every first ``bitdoku solve`` waits for)
keeps its own copy of this loop in ``_search_loaded``: sharing it was as fast, but +0.2-0.3 s on a ~6.7 s first
compile (results/band_loop1.md).

A kernel passes five compiled functions, each named at the call (``search(choose, place, propagate, pick, write,
context, ...)``), and a ``context`` (any value: its tables, weights, seed, guide; passed through untouched).
Named at the call, not gathered in a tuple: a tuple of functions as a module constant is not cacheable (Numba
types it as function pointers, "dynamic globals"), and one built in the call warns that first-class functions are
experimental. The five:

* ``choose(states, k, context) -> (where, mask)``: the branching cell of state k, as an int64 ``where`` the kernel
  reads back (the cell, 0-80), and its candidates as a 9-bit digit mask; ``where`` < 0 when
  the grid is full;
* ``place(states, k, digit, where, context) -> bool``: fill the cell with ``digit`` (0-based) in state k; False
  when that is a contradiction;
* ``propagate(states, k, flags, context) -> int``: the rules to a fixpoint; cells filled, or -1 on a contradiction;
* ``pick(rest, where, node, flags, context) -> (digit, rest)``: the digit a frame tries next among ``rest`` and the
  digits left after it (``lowest`` here: the lowest first); ``node`` is the node being entered (for seeded orders);
* ``write(states, k, out)``: the solved state k into a uint8[81] row.

States are ``uint32[MAX_DEPTH, words]`` rows (a kernel's own width), copied word by word to the next depth on a
guess; frames are ``int64[MAX_DEPTH, >= 2]`` rows ``(where, digits left)``. Imports point down only (status, bits).
"""

import numpy as np
from numba import njit

from bitdoku.kernels.bits import lowest_bit_index
from bitdoku.kernels.status import (
    BUDGET_EXHAUSTED,
    COMPLETE,
    LIMIT_REACHED,
    STAT_BACKTRACKS,
    STAT_GUESSES,
    STAT_MAX_DEPTH,
    STAT_NODES,
    STAT_PLACEMENTS,
    STAT_SOLUTIONS,
    STOPPED,
)


@njit(cache=True, nogil=True, inline="always")
def lowest(rest, where, node, flags, context):
    """``pick`` in ascending order: the lowest digit left, and the others."""
    return lowest_bit_index(rest), rest & (rest - 1)


@njit(cache=True, nogil=True, inline="always")
def search(choose, place, propagate, pick, write, context, states, frames, limit, max_nodes, flags, solutions, stats,
           stop):
    """Search from state 0 (givens loaded, ``stats`` zeroed by the caller) for up to ``limit`` solutions.

    The root's propagation is node 1; each digit tried at a branch is one more. Solutions go to the rows of
    ``solutions`` (uint8[K, 81]; those after the K-th are counted, not kept). ``stop`` (int64[1]) is read where the
    node budget is checked. Returns ``COMPLETE``, ``LIMIT_REACHED``, ``BUDGET_EXHAUSTED`` or ``STOPPED``, with
    ``stats``' solutions, nodes, guesses, backtracks, max depth and placements set. Trying a digit copies the
    frame's state one level up, except for the frame's last digit, which is placed in the frame's own state
    (nothing is left to come back to).

    Written for a short first compile, as ``sudoku9._search_loaded``: typed variables, never a literal
    ``0`` or ``False`` into a helper (a second copy of the helper for the literal type), and states copied word by
    word (a slice copy brings in Numba's shape-mismatch error and a dozen string functions).
    """
    words = states.shape[1]
    stats[STAT_NODES] = 1
    top = np.int64(0)
    filled = propagate(states, top, flags, context)
    if filled < 0:
        return COMPLETE
    placements = filled
    status = COMPLETE
    while True:
        where, mask = choose(states, top, context)
        if where < 0:
            found = stats[STAT_SOLUTIONS]
            if found < solutions.shape[0]:
                write(states, top, solutions[found])
            stats[STAT_SOLUTIONS] = found + 1
            if found + 1 >= limit:
                status = LIMIT_REACHED
                break
        else:
            if mask & (mask - 1) != 0:
                stats[STAT_GUESSES] += 1
            frames[top, 0] = where
            frames[top, 1] = mask
            top += 1
            stats[STAT_MAX_DEPTH] = max(stats[STAT_MAX_DEPTH], top)
        advanced = False
        while top > 0:
            frame = top - 1
            rest = frames[frame, 1]
            if rest == 0:
                top -= 1
                continue
            if stats[STAT_NODES] >= max_nodes:
                status = BUDGET_EXHAUSTED
                break
            if stop[0] != 0:
                status = STOPPED
                break
            stats[STAT_NODES] += 1
            where = frames[frame, 0]
            digit, rest = pick(rest, where, stats[STAT_NODES], flags, context)
            frames[frame, 1] = rest
            if rest != 0:
                for word in range(words):  # a loop, not a slice copy: see the docstring
                    states[frame + 1, word] = states[frame, word]
                target = frame + 1
            else:
                top -= 1  # the frame is used up: its state becomes the child
                target = frame
            filled = -1
            if place(states, target, digit, where, context):
                filled = propagate(states, target, flags, context)
            if filled >= 0:
                placements += filled + 1
                advanced = True
                break
            stats[STAT_BACKTRACKS] += 1
        if not advanced:
            break
    stats[STAT_PLACEMENTS] = placements
    return status
