"""Depth-first search under cage constraints: all-different sets and sums over cells, read from tables.

The kernel of Killer grids (``engines/killer.py``): a classic grid's units plus cages, each cage's cells peers of
one another and, with a sum, its possible digit sets listed as masks (``constraints.combinations``,
``Geometry.cage_tables``). The state of a node is a candidate mask (int64, bit d-1 for digit d) and a value for
every cell. The rules, to a fixpoint:

* naked singles: a cell left with one candidate takes it, and its digit leaves the cell's peers (the unit mates
  and the cage mates, CSR ``peers``);
* hidden singles over the N-cell units (rows, columns, boxes): a digit with one place in a unit goes there; a
  digit with none is a contradiction;
* the rule of 45: in each row, column and box, the cells outside the summed cages that lie wholly inside it add
  up to N(N+1)/2 minus those cages' sums; they are one more summed group of distinct digits (``cage_cells`` holds
  them after the real cages);
* cage sums: of a cage's (or such a group's) digit sets, those that hold every digit already placed in it and
  whose other digits the open cells can still take survive; each open cell keeps only the digits of the surviving
  sets that are not placed yet. No surviving set is a contradiction. A digit that every surviving set needs goes
  to its one place in the cage, or, when its places share a row, column or box, leaves the rest of that unit.

Branching takes an open cell with the fewest candidates (minimum remaining values), ties to the cell in the smallest
summed group, its digits from the lowest (or, for the Killer generator's random fill, in an order drawn from a
seed). The stack holds a copy of the state a level (N*N*9 bytes), one level a branching cell. Status codes and
stats slots are those of ``status.py``.

How it is compiled (its first call is a user's first Killer command; benchmarks/NOTES-killer.md, "first contact"):
``search`` is the one entry point, for the solver and the generator alike; every helper under it is ``@inlined``
(typed and lowered once, inlined by LLVM, no Python wrapper, no reference counting: also 10-19 % faster), each called
from one place in ``search``; arrays are allocated by ``np.empty`` alone and copied by loops, never by slice
assignment (which compiles Numba's shape-mismatch error and its string formatting).
"""

import numpy as np
from numba import njit

from bitdoku.kernels.bits import lowest_bit, lowest_bit_index, popcount
from bitdoku.kernels.jit import inlined
from bitdoku.kernels.rng import hashed_bit
from bitdoku.kernels.status import (
    BUDGET_EXHAUSTED,
    COMPLETE,
    CONTRADICTION,
    LIMIT_REACHED,
    STAT_BACKTRACKS,
    STAT_GUESSES,
    STAT_NODES,
    STAT_SOLUTIONS,
    STOPPED,
)


@inlined
def _place(cell, digit_mask, candidates, values, peer_start, peers, queue, queued):
    """Give ``cell`` its digit and take the digit from its peers; cells left with one candidate are queued.
    Returns the new queue length, or -1 on a contradiction (a peer left with no candidate)."""
    values[cell] = lowest_bit_index(digit_mask) + 1
    candidates[cell] = digit_mask
    for i in range(peer_start[cell], peer_start[cell + 1]):
        peer = peers[i]
        if candidates[peer] & digit_mask:
            if values[peer] != 0:
                return -1
            left = candidates[peer] & ~digit_mask
            candidates[peer] = left
            if left == 0:
                return -1
            if left & (left - 1) == 0:
                queue[queued] = peer
                queued += 1
    return queued


@inlined
def _singles(candidates, values, peer_start, peers, queue):
    """Place every open cell with one candidate, and those they leave with one, until none is left.
    False on a contradiction."""
    queued = 0
    for cell in range(values.size):
        if values[cell] == 0:
            mask = candidates[cell]
            if mask == 0:
                return False
            if mask & (mask - 1) == 0:
                queue[queued] = cell
                queued += 1
    while queued > 0:
        queued -= 1
        cell = queue[queued]
        if values[cell] == 0:
            queued = _place(cell, candidates[cell], candidates, values, peer_start, peers, queue, queued)
            if queued < 0:
                return False
    return True


@inlined
def _hidden_singles(candidates, values, units, full):
    """Digits with one place in a unit, placed by setting that cell's candidates to the digit: returns 1 when any
    was found, 0 when none, -1 on a contradiction (a digit with no place)."""
    found = 0
    for u in range(units.shape[0]):
        once = np.int64(0)
        twice = np.int64(0)
        for cell in units[u]:
            mask = candidates[cell]
            twice |= once & mask
            once |= mask
        if once != full:
            return -1
        single = once & ~twice
        while single:
            bit = lowest_bit(single)
            single &= ~bit
            for cell in units[u]:
                if candidates[cell] & bit:
                    if values[cell] == 0 and candidates[cell] != bit:
                        candidates[cell] = bit
                        found = 1
                    break
    return found


@inlined
def _cage_sums(candidates, values, units, cell_units, cage_start, cage_cells, combo_start, combos, seen, member,
               where, cleared):
    """Cut each summed cage's open cells to the digits of its surviving digit sets, and place or lock the digits
    every surviving set needs: 1 when a candidate went, 0 when none, -1 on a contradiction. ``seen`` holds, for
    each slot of ``cage_cells``, the cell's candidates when that cage was last worked on in this propagation (-1:
    never): a cage none of whose cells changed since is skipped, as the rule would find nothing new in it."""
    changed = 0
    for cage in range(cage_start.size - 1):
        first, last = combo_start[cage], combo_start[cage + 1]
        if first == last:  # a cage without a sum: its cells are peers, nothing more
            continue
        same = True
        for i in range(cage_start[cage], cage_start[cage + 1]):
            cell = cage_cells[i]
            if seen[i] != candidates[cell]:
                same = False
                seen[i] = candidates[cell]
        if same:
            continue
        placed = np.int64(0)
        open_union = np.int64(0)
        for i in range(cage_start[cage], cage_start[cage + 1]):
            cell = cage_cells[i]
            if values[cell] != 0:
                placed |= candidates[cell]
            else:
                open_union |= candidates[cell]
        if open_union == 0:  # complete: its digits must be one of the sets
            whole = False
            for k in range(first, last):
                if combos[k] == placed:
                    whole = True
            if not whole:
                return -1
            continue
        allowed = np.int64(0)
        required = np.int64(-1)
        for k in range(first, last):
            digits = combos[k]
            rest = digits & ~placed
            if digits & placed == placed and rest & ~open_union == 0:
                allowed |= rest
                required &= rest
        if allowed == 0:
            return -1
        for i in range(cage_start[cage], cage_start[cage + 1]):
            cell = cage_cells[i]
            if values[cell] == 0:
                kept = candidates[cell] & allowed
                if kept != candidates[cell]:
                    if kept == 0:
                        return -1
                    candidates[cell] = kept
                    changed = 1
        if required:
            member[0] += 1  # a new stamp (slot 0 counts them; the cells' marks follow it)
            locked = _lock_required(required, cage, candidates, values, units, cell_units, cage_start, cage_cells,
                                    member[1:], member[0], where, cleared)
            if locked < 0:
                return -1
            changed |= locked
    return changed


@inlined
def _lock_required(required, cage, candidates, values, units, cell_units, cage_start, cage_cells, member, stamp,
                   where, cleared):
    """The digits every surviving set of a cage needs (``required``): one with a single place in the cage goes
    there; one whose places share a row, column or box leaves the rest of that unit. 1 when a candidate went, 0
    when none, -1 when a digit has no place left.

    One pass over the cage's cells finds, for each required digit, its places and the units they all share:
    ``where[d]`` holds the count, the row, column and box of the places (-1 once two places differ in it) and the
    last place. ``member[cell] == stamp`` marks the cage's cells (``stamp`` is new for each call). ``cleared[cage,
    d]`` has bit k once digit d left the rest of the cage's unit of kind k (row, column, box) in this propagation:
    candidates only shrink, so clearing it again would find nothing (skipping it: mean 109 -> 91 µs)."""
    bits = required
    while bits:
        where[lowest_bit_index(bits), 0] = 0
        bits &= bits - 1
    for i in range(cage_start[cage], cage_start[cage + 1]):
        cell = cage_cells[i]
        member[cell] = stamp
        if values[cell] == 0:
            digits = candidates[cell] & required
            while digits:
                d = lowest_bit_index(digits)
                digits &= digits - 1
                if where[d, 0] == 0:
                    for k in range(3):
                        where[d, k + 1] = cell_units[cell, k]
                else:
                    for k in range(3):
                        if where[d, k + 1] != cell_units[cell, k]:
                            where[d, k + 1] = -1
                where[d, 0] += 1
                where[d, 4] = cell
    changed = 0
    bits = required
    while bits:
        d = lowest_bit_index(bits)
        bits &= bits - 1
        bit = np.int64(1) << d
        places = where[d, 0]
        if places == 0:
            return -1
        if places == 1:
            only = where[d, 4]
            if candidates[only] & bit == 0:  # another required digit took its one place in this pass
                return -1
            if candidates[only] != bit:
                candidates[only] = bit
                changed = 1
            continue
        for k in range(3):
            unit = where[d, k + 1]
            if unit < 0 or cleared[cage, d] >> k & 1:
                continue
            cleared[cage, d] |= 1 << k
            for other in units[unit]:
                if member[other] != stamp and values[other] == 0 and candidates[other] & bit:
                    left = candidates[other] & ~bit
                    if left == 0:
                        return -1
                    candidates[other] = left
                    changed = 1
    return changed


@inlined
def _arc_consistency(candidates, values, arc_start, arcs, arc_masks, arc_pairs, arc_seen):
    """Keep each arc's target to the digits its source's candidates allow (a setters' pair relation, one way; a
    one-cell rule when source and target are one cell): 1 when a candidate went, 0 when none, -1 on a
    contradiction. The arcs are grouped by source (CSR ``arc_start``); a source whose candidates are those it
    had when its arcs last ran (``arc_seen``, -1 at each node) is skipped, as its targets already hold only
    what it allows. Swept until nothing changes, so a thermometer's bounds run its whole length; then the
    paired supports (``_paired_supports``), and the sweep again if they took a digit."""
    changed = 0
    again = True
    while again:
        again = False
        for source in range(values.size):
            first = arc_start[source]
            last = arc_start[source + 1]
            if first == last or arc_seen[source] == candidates[source]:
                continue
            digits = candidates[source]
            arc_seen[source] = digits
            for k in range(first, last):
                target = arcs[k, 1]
                table = arcs[k, 2]
                allowed = np.int64(0)
                left = digits
                while left:
                    allowed |= arc_masks[table, lowest_bit_index(left)]
                    left &= left - 1
                kept = candidates[target] & allowed
                if kept != candidates[target]:
                    if kept == 0 or values[target] != 0:
                        return -1
                    candidates[target] = kept
                    changed = 1
                    again = True
        if not again and arc_pairs.shape[0]:
            paired = _paired_supports(candidates, values, arcs, arc_masks, arc_pairs)
            if paired < 0:
                return -1
            if paired > 0:
                changed = 1
                again = True
    return changed


@inlined
def _paired_supports(candidates, values, arcs, arc_masks, arc_pairs):
    """Take from a cell the digits whose two related cells, which must differ (``arc_pairs``: two arcs from one
    source to two peers), could only hold one and the same digit: a 1 between two white dots into one box (both
    would be 2), a whisper's 4 between two cells of a box (both 9), a black dot's middle 1 or 8 in a column.
    Arc consistency sees each relation alone and keeps such digits; a search that kept them placed the rest of
    the grid first and paid for it (a 9x9 with five black dots: 8.6 million nodes without a solution, then 44).
    1 when a digit went, 0 when none, -1 on a contradiction."""
    changed = 0
    for pair in range(arc_pairs.shape[0]):
        first = arc_pairs[pair, 0]
        second = arc_pairs[pair, 1]
        source = arcs[first, 0]
        one = candidates[arcs[first, 1]]
        other = candidates[arcs[second, 1]]
        digits = candidates[source]
        left = digits
        while left:
            digit = lowest_bit_index(left)
            left &= left - 1
            a = arc_masks[arcs[first, 2], digit] & one
            b = arc_masks[arcs[second, 2], digit] & other
            if a == b and (a & (a - 1)) == 0:  # one digit (or none) for two cells that differ
                digits &= ~(np.int64(1) << digit)
        if digits != candidates[source]:
            if digits == 0 or values[source] != 0:
                return -1
            candidates[source] = digits
            changed = 1
    return changed


@inlined
def _propagate(candidates, values, peer_start, peers, units, cell_units, full, cage_start, cage_cells, combo_start,
               combos, arc_start, arcs, arc_masks, arc_pairs, arc_seen, queue, seen, member, where, cleared):
    """The rules to a fixpoint; False on a contradiction. The setters' arcs run after the singles, then the cage
    sums. Hidden singles run only when the cage rules find
    nothing more: on the shared Killers the cages do most of the work, and each scan of every unit between their
    rounds cost more than it found (measured: mean 117 -> 102 µs, the same nodes)."""
    seen[:] = -1
    cleared[:] = 0
    arc_seen[:] = -1
    while True:
        if not _singles(candidates, values, peer_start, peers, queue):
            return False
        if arcs.shape[0]:
            related = _arc_consistency(candidates, values, arc_start, arcs, arc_masks, arc_pairs, arc_seen)
            if related < 0:
                return False
            if related > 0:
                continue
        sums = _cage_sums(candidates, values, units, cell_units, cage_start, cage_cells, combo_start, combos, seen,
                          member, where, cleared)
        if sums < 0:
            return False
        if sums > 0:
            continue
        hidden = _hidden_singles(candidates, values, units, full)
        if hidden < 0:
            return False
        if hidden == 0:
            return True


@inlined
def _choose(candidates, values, smallest):
    """An open cell with the fewest candidates, or -1 when every cell is filled; of those, the one whose smallest
    summed group (``smallest``) has the fewest cells, whose sum cuts its digits hardest (the shared Killers' worst
    search went from 677 nodes to 139, the largest from 677 to 496, the mean from 5.09 to 4.92)."""
    best = -1
    fewest = 65
    size = np.int64(1) << 30
    for cell in range(values.size):
        if values[cell] == 0:
            count = popcount(candidates[cell])
            if count < fewest or (count == fewest and smallest[cell] < size):
                fewest = count
                best = cell
                size = smallest[cell]
    return best


@njit(cache=True, nogil=True, inline="always")
def _smallest_groups(cells, cage_start, cage_cells, combo_start):
    """For each cell, the number of cells of the smallest summed group (cage or rule-of-45 group) it is in.
    Inlined by Numba into its caller: it allocates, so it cannot be ``@inlined``, and on its own it was one more
    library with a Python wrapper to compile; ``np.empty`` and a loop, as ``np.full`` and ``min`` compile more."""
    smallest = np.empty(cells, np.int64)
    for cell in range(cells):
        smallest[cell] = np.int64(1) << 30
    for group in range(cage_start.size - 1):
        if combo_start[group + 1] > combo_start[group]:
            size = cage_start[group + 1] - cage_start[group]
            for i in range(cage_start[group], cage_start[group + 1]):
                if size < smallest[cage_cells[i]]:
                    smallest[cage_cells[i]] = size
    return smallest


@njit(cache=True, nogil=True)
def search(candidates, values, peer_start, peers, units, cell_units, n, cage_start, cage_cells, combo_start, combos,
           arc_start, arcs, arc_masks, arc_pairs, limit, max_nodes, solutions, stats, stop, seed):
    """Count the solutions of a grid under its cages, up to ``limit``, within ``max_nodes`` nodes.

    ``candidates`` (int64, a mask a cell: the givens' single digits, every digit elsewhere) and ``values`` (int8)
    are the root state and are changed in place. The first solutions found go to the rows of ``solutions``;
    ``stats`` gets the solutions, nodes, branch points and dead ends. ``stop[0] != 0`` stops the search
    (``STOPPED``). ``seed`` 0 tries a branching cell's digits from the lowest; another seed in an order drawn
    from it and the node count (the random fill of the Killer generator). Returns a status code of
    ``status.py``; ``CONTRADICTION`` when the root has no candidate left somewhere.

    The root and every child go through the same call of ``_propagate`` and of ``_choose``: each call site of
    an inlined helper is one more copy of it for LLVM to optimise.
    """
    cells = values.size
    full = np.int64((1 << n) - 1)
    queue = np.empty(cells, np.int64)
    seen = np.empty(cage_cells.size, np.int64)
    arc_seen = np.empty(cells, np.int64)
    member = np.empty(cells + 1, np.int64)  # a stamp counter, then each cell's mark (``_lock_required``)
    for i in range(cells + 1):
        member[i] = 0
    branch_cell = np.empty(cells + 1, np.int64)
    branch_left = np.empty(cells + 1, np.int64)
    where = np.empty((64, 5), np.int64)
    cleared = np.empty((cage_start.size - 1, 64), np.int8)
    smallest = _smallest_groups(cells, cage_start, cage_cells, combo_start)
    stack_candidates = np.empty((cells + 1, cells), np.int64)
    stack_values = np.empty((cells + 1, cells), np.int8)
    stats[STAT_NODES] += 1
    depth = -1
    while True:
        if _propagate(candidates, values, peer_start, peers, units, cell_units, full, cage_start, cage_cells,
                      combo_start, combos, arc_start, arcs, arc_masks, arc_pairs, arc_seen, queue, seen, member,
                      where, cleared):
            cell = _choose(candidates, values, smallest)
            if cell < 0:
                stats[STAT_SOLUTIONS] += 1
                if stats[STAT_SOLUTIONS] <= solutions.shape[0]:
                    for i in range(cells):
                        solutions[stats[STAT_SOLUTIONS] - 1, i] = values[i]
                if stats[STAT_SOLUTIONS] >= limit:
                    return LIMIT_REACHED
            else:
                depth += 1
                for i in range(cells):
                    stack_candidates[depth, i] = candidates[i]
                    stack_values[depth, i] = values[i]
                branch_cell[depth] = cell
                branch_left[depth] = candidates[cell]
                stats[STAT_GUESSES] += 1
        elif depth < 0:
            return CONTRADICTION
        else:
            stats[STAT_BACKTRACKS] += 1
        while depth >= 0 and branch_left[depth] == 0:
            depth -= 1
        if depth < 0:
            return COMPLETE
        if stop[0] != 0:
            return STOPPED
        if stats[STAT_NODES] >= max_nodes:
            return BUDGET_EXHAUSTED
        left = branch_left[depth]
        bit = lowest_bit(left) if seed == 0 else np.int64(1) << hashed_bit(seed + stats[STAT_NODES], left)
        branch_left[depth] = left & ~bit
        stats[STAT_NODES] += 1
        for i in range(cells):
            candidates[i] = stack_candidates[depth, i]
            values[i] = stack_values[depth, i]
        candidates[branch_cell[depth]] = bit
