"""Depth-first search over a geometry's tables: the compiled path for variant grids (units as data, not code).

The classic kernels know rows, columns and boxes by their layout (the 9x9 band kernel, the bitboard kernel). A
variant (``bitdoku.geometry``) has other units (diagonals, windows, jigsaw regions), peers outside every unit (a
knight's or king's move away) and, for nonconsecutive grids, neighbours that may not hold consecutive digits. This
kernel reads all of that from ``GeometryTables`` and nothing else, so every variant and combination runs the same
code. Classic grids never come here (the engines keep them on the classic kernels); the tests run the classic
tables through it as a cross-check.

The rules, at every node, to a fixpoint:

* naked singles: placing a digit removes it from the cell's peers (CSR ``peers``) and, for nonconsecutive, the
  digits one above and one below from its neighbours (CSR ``adjacent``); a peer left with one candidate is queued;
* for nonconsecutive, also the neighbours of a cell whose candidates lie within three consecutive digits
  (``_consecutive_support``);
* hidden singles over every unit: one pass over a unit's cells accumulates the digits seen ``once`` and
  ``twice`` (``twice |= once & mask; once |= mask``); a digit outside ``once`` has no place (a contradiction),
  a digit in ``once`` but not in ``twice`` and not yet placed goes to its only cell;
* with ``LOCKED_CANDIDATES``, locked candidates for any geometry (``_unit_rules``): a cell that sees every place
  left to a digit in a unit cannot hold it. Pointing and claiming on classic units; across diagonals, windows,
  regions and knight or king relations here. Each cell's peers are a bit set over the cells (``peer_sets``), so
  the test is an AND of two or three rows. For nonconsecutive, the same with the neighbour relation: a digit
  whose two to five places in a unit all lie in one cell's orthogonal neighbourhood (the cell or beside it) leaves
  that cell's digits one above and one below (``variant81._adjacent_places``'s rule).

Branching takes the empty cell with the fewest candidates (minimum remaining values), among the cells with the
fewest candidates (two or more) the one whose digits its peers hold most (``_pair_score``; for nonconsecutive,
also whose digits' neighbours its neighbours hold). The state is copied on
branch: a level of the stack is the candidates (uint64, so N up to 64) and values of every cell, N*N*9 bytes
(729 for 9x9). The stack starts at ``START_DEPTH`` levels and doubles when a search goes deeper, so memory
follows the depth actually reached, never more than (empty cells + 1) levels. A workspace from
``new_workspace`` can be reused across calls (batch loops, the generator) to save the allocations.

Status codes and stats slots are those of ``status.py``; the rule flags and ``RANDOM_ORDER`` are honoured.
"""

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload
from numpy.typing import NDArray

from bitdoku.kernels import boards, dfs, nonconsecutive9, propagate, sudoku9, variant81
from bitdoku.kernels.bits import digit_bit, full_mask, lowest_bit, lowest_bit_index, popcount
from bitdoku.kernels.jit import borrowing
from bitdoku.kernels.rng import next_u64, random_bit
from bitdoku.kernels.status import (
    BUDGET_EXHAUSTED,
    COMPLETE,
    CONTRADICTION,
    HIDDEN_SINGLES,
    INVALID,
    LIMIT_REACHED,
    LOCKED_CANDIDATES,
    N_STATS,
    NAKED_SINGLES,
    RANDOM_ORDER,
    STAT_BACKTRACKS,
    STAT_GUESSES,
    STAT_MAX_DEPTH,
    STAT_NODES,
    STAT_PLACEMENTS,
    STAT_SOLUTIONS,
    STOPPED,
)

#: Stack levels a workspace starts with; a deeper search doubles them (9x9 searches rarely pass 20).
START_DEPTH = 32


@njit(cache=True, nogil=True)
def new_workspace(n_cells):
    """The arrays of one search, reusable across calls: candidates and values a stack level (``START_DEPTH`` of
    them), the queue of naked singles, and the cell and digits left of each branch frame."""
    depth = min(START_DEPTH, n_cells + 1)
    return (np.zeros((depth, n_cells), np.uint64), np.zeros((depth, n_cells), np.uint8), np.empty(n_cells, np.int32),
            np.empty(depth, np.int64), np.empty(depth, np.uint64))


@njit(cache=True, nogil=True)
def _deeper(array):
    """The same array with twice the levels (first axis), the old levels copied."""
    bigger = np.empty((2 * array.shape[0],) + array.shape[1:], array.dtype)  # noqa: RUF005 (Numba has no * here)
    bigger[: array.shape[0]] = array
    return bigger


@borrowing
def _load_givens(cand, value, cells, n, tables):
    """Candidates from the givens; -1 when fine, else INVALID (a digit out of range, two equal digits in peers,
    consecutive digits side by side) or CONTRADICTION (an empty cell without candidates)."""
    peer_start, peers = tables.peer_start, tables.peers
    adjacent_start, adjacent = tables.adjacent_start, tables.adjacent
    full = full_mask(n)
    for cell in range(n * n):
        if cells[cell] > n:
            return INVALID
        value[cell] = cells[cell]
        cand[cell] = full if cells[cell] == 0 else digit_bit(cells[cell])
    for cell in range(n * n):
        digit = np.int64(cells[cell])
        if digit == 0:
            continue
        bit = digit_bit(digit)
        for i in range(peer_start[cell], peer_start[cell + 1]):
            peer = peers[i]
            if cells[peer] == digit:
                return INVALID
            cand[peer] &= ~bit
        near = ((bit << np.uint64(1)) | (bit >> np.uint64(1))) & full
        for i in range(adjacent_start[cell], adjacent_start[cell + 1]):
            neighbour = adjacent[i]
            if cells[neighbour] != 0 and digit_bit(cells[neighbour]) & near != 0:
                return INVALID
            cand[neighbour] &= ~near
    for cell in range(n * n):
        if value[cell] == 0 and cand[cell] == 0:
            return CONTRADICTION
    return -1


@njit(cache=True, nogil=True, inline="always")
def _strike(cand, value, queue, queued, cell, digits):
    """Remove ``digits`` from a cell's candidates, queueing it if one is left; the queue length, -1 if none is."""
    mask = cand[cell]
    if mask & digits == 0:
        return queued
    mask &= ~digits
    cand[cell] = mask
    if mask == 0:
        return -1
    if mask & (mask - np.uint64(1)) == 0 and value[cell] == 0:
        queue[queued] = cell
        queued += 1
    return queued


@borrowing
def _place(cand, value, queue, queued, cell, bit, n, tables):
    """Put a digit in a cell and strike it from the peers (and its neighbours' consecutive digits); the peers left
    with one candidate join ``queue``. Returns the new queue length, or -1 on a contradiction."""
    value[cell] = lowest_bit_index(bit) + 1
    cand[cell] = bit
    for i in range(tables.peer_start[cell], tables.peer_start[cell + 1]):
        queued = _strike(cand, value, queue, queued, tables.peers[i], bit)
        if queued < 0:
            return -1
    adjacent_start = tables.adjacent_start
    if adjacent_start[cell + 1] > adjacent_start[cell]:
        near = ((bit << np.uint64(1)) | (bit >> np.uint64(1))) & full_mask(n)
        for i in range(adjacent_start[cell], adjacent_start[cell + 1]):
            queued = _strike(cand, value, queue, queued, tables.adjacent[i], near)
            if queued < 0:
                return -1
    return queued


@borrowing
def _consecutive_support(cand, value, queue, n, tables):
    """Nonconsecutive: a neighbour of a cell may not hold digit e when every candidate of the cell is e - 1, e or
    e + 1 (the cell is a peer too, so it cannot hold e either). Only cells whose candidates span at most three
    consecutive digits forbid anything: {d, d+1} forbids d and d+1, {d, d+2} and {d, d+1, d+2} forbid d+1. Runs
    to a fixpoint or until a cell is left with one candidate; returns the queue length, -1 on a contradiction."""
    adjacent_start, adjacent = tables.adjacent_start, tables.adjacent
    queued = 0
    changed = True
    while changed and queued == 0:
        changed = False
        for cell in range(n * n):
            if value[cell] != 0 or adjacent_start[cell + 1] == adjacent_start[cell]:
                continue
            mask = cand[cell]
            low = lowest_bit_index(mask)
            span = mask >> np.uint64(low)
            if span == np.uint64(3):
                forbidden = mask
            elif span == np.uint64(5) or span == np.uint64(7):
                forbidden = np.uint64(2) << np.uint64(low)
            else:
                continue
            for i in range(adjacent_start[cell], adjacent_start[cell + 1]):
                neighbour = adjacent[i]
                if cand[neighbour] & forbidden != 0:
                    changed = True
                    queued = _strike(cand, value, queue, queued, neighbour, forbidden)
                    if queued < 0:
                        return -1
    return queued


@njit(cache=True, nogil=True)
def peer_sets(n, tables):
    """Bit sets over the cells (uint64 rows of ceil(N*N / 64) words), what ``_unit_rules`` intersects: the peers of
    each cell (N*N rows), then the cells outside each unit (one row a unit, after them), then, for nonconsecutive
    grids only, each cell's orthogonal neighbourhood, itself included (N*N rows more). 110 x 2 words for 9x9
    with diagonals; 2.3 MB for 64x64, built in O(N*N * peers)."""
    n_cells = n * n
    units = tables.units
    words = (n_cells + 63) // 64
    near_rows = n_cells if tables.adjacent.shape[0] > 0 else 0
    sees = np.zeros((n_cells + units.shape[0] + near_rows, words), np.uint64)
    for cell in range(n_cells):
        for i in range(tables.peer_start[cell], tables.peer_start[cell + 1]):
            peer = tables.peers[i]
            sees[cell, peer >> 6] |= np.uint64(1) << np.uint64(peer & 63)
    for cell in range(near_rows):
        near = sees[n_cells + units.shape[0] + cell]
        near[cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
        for i in range(tables.adjacent_start[cell], tables.adjacent_start[cell + 1]):
            neighbour = tables.adjacent[i]
            near[neighbour >> 6] |= np.uint64(1) << np.uint64(neighbour & 63)
    for unit in range(units.shape[0]):
        outside = sees[n_cells + unit]
        outside[:] = ~np.uint64(0)
        for i in range(n):
            cell = units[unit, i]
            outside[cell >> 6] &= ~(np.uint64(1) << np.uint64(cell & 63))
    return sees


@borrowing
def _adjacent_places(cand, value, queue, queued, unit_cells, spots, bit, n, sees, near_rows):
    """Nonconsecutive: the cells whose neighbourhood (rows ``near_rows + cell`` of ``sees``) holds every place
    ``spots`` (positions in ``unit_cells``) of the digit ``bit`` lose the digits one above and one below: the
    digit ends up in such a cell or beside it. Returns (queue length, whether a cell lost a digit); -1 on a
    contradiction."""
    digits = ((bit << np.uint64(1)) | (bit >> np.uint64(1))) & full_mask(n)
    changed = False
    for word in range(sees.shape[1]):
        common = ~np.uint64(0)
        rest = spots
        while rest != 0:
            common &= sees[near_rows + unit_cells[lowest_bit_index(rest)], word]
            rest &= rest - np.uint64(1)
        queued, struck = _strike_word(cand, value, queue, queued, word, common, digits)
        changed |= struck
        if queued < 0:
            return -1, changed
    return queued, changed


@njit(cache=True, nogil=True, inline="always")
def _strike_word(cand, value, queue, queued, word, cells, digits):
    """Strike ``digits`` from the cells of ``cells`` (bit i: cell 64 * word + i) that hold one of them: (queue
    length, whether a cell lost a digit), the length -1 on a contradiction. Inlined, as ``_strike``: as a call it
    made nonconsecutive searches 1.16x slower; inlined, within 1 % (the rules that use it run once a word a unit)."""
    changed = False
    while cells != 0:
        low = lowest_bit(cells)
        cells ^= low
        cell = word * 64 + lowest_bit_index(low)
        if cand[cell] & digits != 0:
            changed = True
            queued = _strike(cand, value, queue, queued, cell, digits)
            if queued < 0:
                return -1, changed
    return queued, changed


@borrowing
def _unit_rules(cand, value, queue, n, tables, flags, sees, places, stats):
    """One pass over every unit: hidden singles and, with ``LOCKED_CANDIDATES``, locked candidates for any geometry.

    For a unit, ``places[d]`` gathers the positions (bits 0..N-1 of the unit) where digit d + 1 may go. No place:
    a contradiction. One place, not yet filled: a hidden single. Two or three places: every cell that sees them
    all (a peer of each: a unit mate, or a knight's or king's move away) cannot hold the digit; on classic units
    this is pointing and claiming, here it also works across diagonals, windows, jigsaw regions and relations.
    Each cell's peers are a bit set over the cells (``sees``, from ``peer_sets``), so the test is an AND of two
    or three rows. Nonconsecutive: two to five places, all in one cell's neighbourhood (the AND of the places'
    neighbourhood rows of ``sees``): that cell loses the digits one above and one below. Positions gathered
    before a placement in the same unit may be stale: a hidden single re-checks its cell, and a stale superset
    of places only weakens an elimination, never makes it wrong. Returns (queue length, whether anything
    changed); length -1 on a contradiction. Placements count in ``stats[STAT_PLACEMENTS]``.
    """
    units = tables.units
    hidden = flags & HIDDEN_SINGLES != 0
    locked = flags & LOCKED_CANDIDATES != 0
    near_rows = n * n + units.shape[0] if tables.adjacent.shape[0] > 0 else -1
    queued = 0
    changed = False
    for unit in range(units.shape[0]):
        for digit in range(n):
            places[digit] = 0
        done = np.uint64(0)
        for i in range(n):
            cell = units[unit, i]
            mask = cand[cell]
            if value[cell] != 0:
                done |= mask
            while mask != 0:
                low = lowest_bit(mask)
                mask ^= low
                places[lowest_bit_index(low)] |= np.uint64(1) << np.uint64(i)
        for digit in range(n):
            spots = places[digit]
            if spots == 0:
                return -1, changed
            bit = np.uint64(1) << np.uint64(digit)
            if done & bit != 0:
                continue
            count = popcount(spots)
            if count == 1 and hidden:
                cell = units[unit, lowest_bit_index(spots)]
                if cand[cell] & bit == 0:  # an earlier placement in this unit took the digit's only cell
                    return -1, changed
                if value[cell] == 0:
                    queued = _place(cand, value, queue, queued, cell, bit, n, tables)
                    stats[STAT_PLACEMENTS] += 1
                    changed = True
                    if queued < 0:
                        return -1, changed
            elif locked and 2 <= count <= 5:
                if near_rows >= 0:
                    queued, struck = _adjacent_places(cand, value, queue, queued, units[unit], spots, bit, n, sees,
                                                      near_rows)
                    changed |= struck
                    if queued < 0:
                        return -1, changed
                if count > 3:
                    continue
                first = units[unit, lowest_bit_index(spots)]
                spots &= spots - np.uint64(1)
                second = units[unit, lowest_bit_index(spots)]
                spots &= spots - np.uint64(1)
                third = units[unit, lowest_bit_index(spots)] if spots != 0 else second
                for word in range(sees.shape[1]):  # word by word: array expressions would allocate
                    # the unit's own cells (its row n*n + unit) hold the digit only at its places
                    rest = sees[first, word] & sees[second, word] & sees[third, word] & sees[n * n + unit, word]
                    queued, struck = _strike_word(cand, value, queue, queued, word, rest, bit)
                    changed |= struck
                    if queued < 0:
                        return -1, changed
    return queued, changed


@borrowing
def _propagate(cand, value, queue, queued, n, tables, flags, stats, sees, places):
    """Naked singles (the ``queued`` cells first), for nonconsecutive grids ``_consecutive_support``, and the unit
    rules (``_unit_rules``: ``sees`` and ``places`` are theirs) until nothing changes; False on a
    contradiction."""
    naked = flags & NAKED_SINGLES != 0
    by_units = flags & (HIDDEN_SINGLES | LOCKED_CANDIDATES) != 0
    consecutive = naked and tables.adjacent.shape[0] > 0
    while True:
        head = 0
        while naked and head < queued:
            cell = queue[head]
            head += 1
            if value[cell] != 0:
                continue
            queued = _place(cand, value, queue, queued, cell, cand[cell], n, tables)
            stats[STAT_PLACEMENTS] += 1
            if queued < 0:
                return False
        if consecutive:
            queued = _consecutive_support(cand, value, queue, n, tables)
            if queued < 0:
                return False
            if queued > 0:
                continue
        if not by_units:
            return True
        queued, changed = _unit_rules(cand, value, queue, n, tables, flags, sees, places, stats)
        if queued < 0:
            return False
        if not changed:
            return True
        if not naked:  # without naked singles, cells left with one candidate wait for the branching
            queued = 0


@borrowing
def _pair_score(cand, value, cell, n, tables):
    """How much a cell's digits weigh among its peers: the empty peers that hold any of them, those with two
    candidates counted six times; for nonconsecutive, plus ``variant81.NEIGHBOUR_WEIGHT`` times the same count
    of the empty neighbours that hold a digit one above or below one of the cell's, once for each such digit of
    the cell (``variant81._pair_score``, whose choice this must match)."""
    digits = cand[cell]
    score = 0
    for i in range(tables.peer_start[cell], tables.peer_start[cell + 1]):
        peer = tables.peers[i]
        if value[peer] == 0 and cand[peer] & digits != 0:
            score += popcount(cand[peer] & digits) * (6 if popcount(cand[peer]) == 2 else 1)
    for i in range(tables.adjacent_start[cell], tables.adjacent_start[cell + 1]):
        neighbour = tables.adjacent[i]
        if value[neighbour] != 0:
            continue
        held = popcount(cand[neighbour] & (digits << np.uint64(1))) + popcount(
            cand[neighbour] & (digits >> np.uint64(1)) & full_mask(n))
        score += variant81.NEIGHBOUR_WEIGHT * held * (6 if popcount(cand[neighbour]) == 2 else 1)
    return score


@borrowing
def _choose_cell(cand, value, n_cells, good_enough, randomised, rng, tables):
    """The empty cell with the fewest candidates, or -1 when the grid is full: the classic cell-by-cell kernel's
    choice (``dfs``), the first one stopping at ``good_enough`` candidates, except that among the cells with the
    fewest candidates (two or more) it takes the one with the highest ``_pair_score`` (the first such; fewer
    nodes); or one drawn at random among the ties when ``randomised``."""
    if randomised:
        return dfs._choose_cell_at_random((value, cand), n_cells, rng)
    best = dfs._choose_cell((value, cand), n_cells, good_enough)
    if best < 0:
        return best
    fewest = popcount(cand[best])
    if fewest < 2:
        return best
    n = np.int64(np.sqrt(n_cells) + 0.5)
    best_score = -1
    for cell in range(best, n_cells):  # the cells before the first one with the fewest candidates have more
        if value[cell] == 0 and popcount(cand[cell]) == fewest:
            score = _pair_score(cand, value, cell, n, tables)
            if score > best_score:
                best, best_score = cell, score
    return best


@njit(cache=True, nogil=True)
def search_in(ws, cells, n, tables, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop):
    """``search`` in a workspace the caller reuses, with the generator's extras (those of ``dfs.search_in``).

    ``guide`` (uint8[N*N], or empty) is a solution whose digit is tried first at each branch; ``changed_cell``
    (-1 for none) loses ``guide[changed_cell]`` from its candidates before the search (clue removal asks whether
    another solution differs there). ``rng`` (a ``rng.py`` state) is drawn from, and advanced, only with
    ``RANDOM_ORDER`` in ``flags``. ``ws`` comes from ``new_workspace(N*N)``. ``stop``: as for ``search``.
    """
    cands, values, queue, frame_cell, frame_rest = ws
    sees = peer_sets(n, tables) if flags & LOCKED_CANDIDATES != 0 else np.zeros((0, 1), np.uint64)
    places = np.empty(n, np.uint64)
    n_cells = n * n
    stats[:] = 0
    status = _load_givens(cands[0], values[0], cells, n, tables)
    if status >= 0:
        return status
    stats[STAT_NODES] = 1
    if changed_cell >= 0 and values[0, changed_cell] == 0:
        cands[0, changed_cell] &= ~digit_bit(guide[changed_cell])
        if cands[0, changed_cell] == 0:
            return COMPLETE
    queued = 0
    for cell in range(n_cells):
        mask = cands[0, cell]
        if values[0, cell] == 0 and mask & (mask - np.uint64(1)) == 0:
            queue[queued] = cell
            queued += 1
    if not _propagate(cands[0], values[0], queue, queued, n, tables, flags, stats, sees, places):
        return COMPLETE
    randomised = flags & RANDOM_ORDER != 0
    guided = guide.shape[0] == n_cells
    good_enough = 2 if flags & NAKED_SINGLES != 0 else 1
    depth = 0  # open frames; frame f branches from level f into level f + 1; the current state is level ``depth``
    status = COMPLETE
    while True:
        cell = _choose_cell(cands[depth], values[depth], n_cells, good_enough, randomised, rng, tables)
        if cell < 0:
            found = stats[STAT_SOLUTIONS]
            if found < solutions.shape[0]:
                solutions[found, :] = values[depth]
            stats[STAT_SOLUTIONS] = found + 1
            if found + 1 >= limit:
                status = LIMIT_REACHED
                break
        else:
            if depth + 1 >= cands.shape[0]:
                cands, values = _deeper(cands), _deeper(values)
                frame_cell, frame_rest = _deeper(frame_cell), _deeper(frame_rest)
            if popcount(cands[depth, cell]) > 1:
                stats[STAT_GUESSES] += 1
            frame_cell[depth] = cell
            frame_rest[depth] = cands[depth, cell]
            depth += 1
            stats[STAT_MAX_DEPTH] = max(stats[STAT_MAX_DEPTH], depth)
        advanced = False
        while depth > 0:
            frame = depth - 1
            rest = frame_rest[frame]
            if rest == 0:
                depth -= 1
                continue
            cell = frame_cell[frame]
            if guided and rest & digit_bit(guide[cell]) != 0:
                bit = digit_bit(guide[cell])
            elif randomised:
                bit = np.uint64(1) << np.uint64(random_bit(rng, rest))
            else:
                bit = lowest_bit(rest)
            frame_rest[frame] = rest & ~bit
            if stats[STAT_NODES] >= max_nodes:
                status = BUDGET_EXHAUSTED
                break
            if stop[0] != 0:
                status = STOPPED
                break
            stats[STAT_NODES] += 1
            cand, value = cands[frame + 1], values[frame + 1]
            cand[:] = cands[frame]
            value[:] = values[frame]
            queued = _place(cand, value, queue, 0, cell, bit, n, tables)
            if queued >= 0 and _propagate(cand, value, queue, queued, n, tables, flags, stats, sees, places):
                advanced = True
                break
            stats[STAT_BACKTRACKS] += 1
        if not advanced:
            break
    return status


@njit(cache=True, nogil=True)
def search(cells, n, tables, limit, max_nodes, flags, solutions, stats, stop):
    """Search a variant puzzle for up to ``limit`` solutions within a node budget.

    Parameters
    ----------
    cells : uint8[N*N]
        The puzzle, row-major, 0 for an empty cell; not mutated.
    n : int
        Digits of the shape (N <= 64).
    tables : GeometryTables
        ``Geometry.tables``: units int32[U, N], and the CSR peer and neighbour tables.
    limit : int
        Stop after this many solutions (>= 1).
    max_nodes : int
        The node budget (> 0): the root, then one node per candidate tried at a branch point.
    flags : int
        ``status`` bits: ``NAKED_SINGLES``, ``HIDDEN_SINGLES``, ``LOCKED_CANDIDATES`` (see the module), ``RANDOM_ORDER``
        (draws from a fixed seed here; the generator calls ``search_in`` with its own state).
    solutions : uint8[K, N*N]
        Out: the first min(found, K) solutions, in the order found. K may be 0.
    stats : int64[N_STATS]
        Out: counters, slots ``STAT_*`` in ``status``.
    stop : int64[1]
        Read where the node budget is checked: once another thread sets ``stop[0]`` (a time limit) the search
        ends with ``STOPPED`` and its counters so far.

    Returns
    -------
    int
        ``COMPLETE``, ``LIMIT_REACHED``, ``BUDGET_EXHAUSTED``, ``STOPPED``, ``INVALID`` (a given out of range, equal
        digits in peers, consecutive digits side by side in a nonconsecutive grid) or ``CONTRADICTION`` (an empty
        cell with no candidate left by the givens).

    Cost: at most ``max_nodes`` propagations, each O(units * N + placements * peers); memory N*N*9 bytes a stack
    level. Never raises.
    """
    return search_in(new_workspace(n * n), cells, n, tables, limit, max_nodes, flags, solutions, stats,
                     np.ones(1, np.uint64), np.zeros(0, np.uint8), -1, stop)


@njit(cache=True, nogil=True)
def count_many(puzzles, n, tables, limit, max_nodes, flags, statuses, counts, nodes, stop):
    """``search`` for each row of ``puzzles`` (uint8[B, N*N]) in one workspace, without keeping solutions: the
    batch loop that leaves out the Python call per puzzle. Out: ``statuses`` (int64[B]), ``counts`` (solutions,
    int64[B]) and ``nodes`` (int64[B]). ``stop`` (int64[1]) stops the call: the rows left get ``STOPPED``."""
    ws = new_workspace(n * n)
    stats = np.zeros(N_STATS, np.int64)
    no_solutions = np.zeros((0, n * n), np.uint8)
    rng = np.ones(1, np.uint64)
    no_guide = np.zeros(0, np.uint8)
    for row in range(puzzles.shape[0]):
        statuses[row] = search_in(ws, puzzles[row], n, tables, limit, max_nodes, flags, no_solutions, stats, rng,
                                  no_guide, -1, stop)
        counts[row] = stats[STAT_SOLUTIONS]
        nodes[row] = stats[STAT_NODES]


# -- one signature for every search ------------------------------------------------------------------------------
# The generator's kernels (``fill``, ``dig``, ``make``) take a shape's ``(n, units, cell_units, peers)``. A variant
# passes its ``GeometryTables`` in the ``peers`` slot, or for a 9x9 grid its ``variant81.Tables81`` (the
# digit-major kernel) or, for 9x9 nonconsecutive, ``nonconsecutive9.Nonconsecutive9Tables``; the classic 9x9 grid
# passes ``Classic9Tables`` (the band kernel) and the other classic shapes ``BoxTables`` (the bitboard kernel).
# These functions pick the search and the workspace by that argument's type, when Numba compiles the caller, so a
# caller compiles the one search it runs: a 9x9 puzzle maker never compiles the generic kernel, nor a 4x4 one the
# band kernel.


class Classic9Tables(NamedTuple):
    """The classic 9x9 grid's peers in the ``peers`` slot of the generator's kernels: the type that sends their
    searches to the band kernel (``sudoku9``), which runs its own rules and reads no table. Before, a runtime
    test picked it, and Numba compiled the generic kernel beside it for every 9x9 generation: 44 of the 63 CPU
    seconds of a first ``bitdoku generate`` on an empty cache."""

    peers: NDArray[np.int32]


class BoxTables(NamedTuple):
    """The peers of a classic grid of another box shape (boxes of ``box_rows`` rows) in the ``peers`` slot of the
    generator's kernels: the type that sends their searches to the bitboard kernel (``boards``) directly. As a
    plain peer table it went to ``dfs.search_in``, which picks the bitboard kernel at run time, so Numba compiled
    the cell-by-cell kernel beside it: 16 s of a first 16x16 ``bitdoku generate`` (benchmarks/NOTES-compile.md)."""

    peers: NDArray[np.int32]
    box_rows: np.int64


def workspace_for(n, peers):
    """The workspace of the search ``search_any`` runs for these tables."""
    if isinstance(peers, Classic9Tables):
        return sudoku9.new_stack()
    if isinstance(peers, BoxTables):
        return np.zeros(0, np.uint8)  # the bitboard kernel keeps its own stack
    if isinstance(peers, variant81.Tables81):
        return variant81.new_workspace()
    if isinstance(peers, nonconsecutive9.Nonconsecutive9Tables):
        return nonconsecutive9.new_workspace()
    if isinstance(peers, tuple):  # a variant's GeometryTables
        return new_workspace(n * n)
    return propagate.new_workspace(n * n, n)


def search_any(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
               changed_cell, stop):
    """``dfs.search_in`` for a shape's tables, ``search_in`` here for a variant's (``peers`` is its tables),
    ``variant81.search_in`` for a 9x9 variant's bitboard tables, ``nonconsecutive9.search_in`` for its tables and
    the band kernel for ``Classic9Tables`` (``search9_any``)."""
    if isinstance(peers, Classic9Tables):
        return search9_any(ws, cells, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop)
    if isinstance(peers, BoxTables):
        return dfs.box_search(cells, n, peers.box_rows, limit, max_nodes, flags, solutions, stats, rng, guide,
                              changed_cell, stop)
    if isinstance(peers, variant81.Tables81):
        return variant81.search_in(ws, cells, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                                   changed_cell, stop)
    if isinstance(peers, nonconsecutive9.Nonconsecutive9Tables):
        return nonconsecutive9.search_in(ws, cells, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                                         changed_cell, stop)
    if isinstance(peers, tuple):  # a variant's GeometryTables
        return search_in(ws, cells, n, peers, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell,
                         stop)
    return dfs.search_in(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng,
                         guide, changed_cell, stop)


@njit(cache=True, nogil=True)
def search9_any(ws, cells, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop):
    """``search_any`` on the band kernel: a random grid (``RANDOM_ORDER``: its seed drawn from ``rng``), a clue
    removal's check (``changed_cell`` >= 0: a solution without ``guide[changed_cell]`` there), else a search.
    The band kernel always runs its own full set of rules (``flags`` gives only ``RANDOM_ORDER``)."""
    states, frames = ws
    if flags & RANDOM_ORDER:
        seed = np.int64(next_u64(rng) >> np.uint64(1))
        return sudoku9.random_solution9(seed, max_nodes, solutions, stats, states, frames, stop)
    if changed_cell >= 0:
        return sudoku9.other_solution9(cells, changed_cell, guide[changed_cell], max_nodes, stats, states, frames,
                                       stop)
    return sudoku9.search9_in(cells, limit, max_nodes, flags, solutions, stats, states, frames, stop, np.int64(0),
                              np.int64(-1), np.int64(0))


def _is_named(peers, tables_class) -> bool:
    """Whether a Numba type is that of the named tuple class ``tables_class``."""
    return isinstance(peers, types.BaseNamedTuple) and peers.instance_class is tables_class


def _is_board_tables(peers):
    """Whether a Numba type is ``variant81.Tables81``'s."""
    return _is_named(peers, variant81.Tables81)


@overload(workspace_for, inline="always", jit_options={"cache": True, "nogil": True})
def _workspace_for(n, peers):
    if _is_named(peers, Classic9Tables):
        return lambda n, peers: (np.empty((sudoku9.MAX_DEPTH, sudoku9.STATE_WORDS), np.uint32),
                                 np.empty((sudoku9.MAX_DEPTH, 3), np.int64))
    if _is_named(peers, BoxTables):  # the bitboard kernel keeps its own stack
        return lambda n, peers: np.zeros(0, np.uint8)
    if _is_board_tables(peers):
        return lambda n, peers: variant81.new_workspace()
    if _is_named(peers, nonconsecutive9.Nonconsecutive9Tables):
        return lambda n, peers: nonconsecutive9.new_workspace_compiled()
    if isinstance(peers, types.BaseTuple):  # a variant's GeometryTables
        return lambda n, peers: new_workspace(n * n)
    return lambda n, peers: propagate.new_workspace(n * n, n)


@overload(search_any, inline="always", jit_options={"cache": True, "nogil": True})
def _search_any(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                changed_cell, stop):
    if _is_named(peers, Classic9Tables):
        def band_search(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                        changed_cell, stop):
            return search9_any(ws, cells, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop)

        return band_search
    if _is_named(peers, BoxTables):
        def box_search(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                       changed_cell, stop):
            # ``dfs.box_search`` written out: Numba's inlining of it inside this inlined overload loses a variable
            # (a NumbaIRAssumptionWarning on every first compile)
            if dfs.restarts(limit, guide.shape[0] > 0, changed_cell, flags):
                return boards.search(cells, n, peers.box_rows, limit, max_nodes, flags, solutions, stats,
                                     dfs.restart_rng(flags, rng), guide, changed_cell, stop,
                                     np.int64(boards.RESTART_UNIT))
            return boards.search(cells, n, peers.box_rows, limit, max_nodes, flags, solutions, stats, rng, guide,
                                 changed_cell, stop, np.int64(0))

        return box_search
    if _is_board_tables(peers):
        def variant81_search(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng,
                             guide, changed_cell, stop):
            return variant81.search_in(ws, cells, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                                       changed_cell, stop)

        return variant81_search
    if _is_named(peers, nonconsecutive9.Nonconsecutive9Tables):
        def nonconsecutive9_search(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats,
                                   rng, guide, changed_cell, stop):
            return nonconsecutive9.search_in(ws, cells, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                                             changed_cell, stop)

        return nonconsecutive9_search
    if isinstance(peers, types.BaseTuple):  # a variant's GeometryTables
        def variant(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                    changed_cell, stop):
            return search_in(ws, cells, n, peers, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell,
                             stop)

        return variant

    def classic(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng, guide,
                changed_cell, stop):
        return dfs.search_in(ws, cells, n, units, cell_units, peers, limit, max_nodes, flags, solutions, stats, rng,
                             guide, changed_cell, stop)

    return classic
