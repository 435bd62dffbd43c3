"""Depth-first search for 9x9 variant grids on digit-major bitboards: the fast twin of ``variant.py`` for 81 cells.

``variant.py`` keeps a candidate mask per cell and walks CSR peer lists, one cell at a time. Here the state is
turned around, as in the classic band kernel (``sudoku9.py``): for each digit, one 81-bit set of the cells where
it may still go, two uint64 words (cells 0..63, then 64..80). Units, the peers of each cell (unit mates and the
cells of knight or king relations) and, for nonconsecutive grids, the orthogonal neighbours of each cell are
81-bit masks too (``Tables81``, built once per geometry by ``board_tables``), so every rule is a few word
operations whatever the geometry:

* placing digit d in cell c clears c from the other digits' boards and c's peers from d's board (and, for
  nonconsecutive, c's neighbours from the boards of d - 1 and d + 1). A filled cell keeps its bit in its own
  digit's board, so "digit d has no place in unit u" (``board[d] & unit[u] == 0``) also catches two equal digits
  in a unit;
* naked singles: bit-sliced counts over the nine boards (``twice |= once & board; once |= board``) give every
  empty cell with one candidate (``unsolved & ~twice``) and every empty cell with none (``unsolved & ~once``);
* hidden singles: ``board[d] & unit[u]`` with one bit, in the units where d lost a place since they were last
  scanned (each state keeps the boards of the last scan; each cell's units are a bit set);
* locked candidates (``LOCKED_CANDIDATES``): a digit with two or three places in a unit leaves every cell that
  sees them all, the AND of their peer masks: pointing and claiming, and the same across diagonals, windows,
  jigsaw regions and relations (``variant._unit_rules``'s rule, one AND a word here); for nonconsecutive, the same
  with the neighbour relation: a digit with two to five places in a unit, all in one cell's orthogonal
  neighbourhood (the cell or beside it), leaves that cell's boards of the digits one above and one below
  (``_adjacent_places``);
* nonconsecutive: a cell whose candidates lie in {e - 1, e, e + 1} (no candidate outside them: bit-sliced again)
  forbids e to its neighbours (``variant._consecutive_support``'s rule, a digit at a time; the neighbours of all
  such cells at once, the set shifted by a row and a column, ``_beside``).

These are exactly the rules of ``variant.py``, run to the same fixpoint, and the branching is the same (the first
empty cell with the fewest candidates, from bit-sliced 4-bit counts, except that among the cells with the fewest
candidates the one whose digits its peers (and, for nonconsecutive, whose digits' neighbours its neighbours) hold
most, ``_pair_score``; with ``RANDOM_ORDER`` the same reservoir draws), so the two
kernels visit the same nodes and, with the same seed, draw the same random grids: the tests hold them to that. A
state is ``STATE_WORDS`` uint64 words (the nine boards, the empty cells and the boards of the last unit scan), 304
bytes, copied on branch into a stack of ``MAX_DEPTH`` levels allocated once per workspace.

Status codes and stats slots are those of ``status.py``; the rule flags, ``RANDOM_ORDER`` and the caller's stop
flag (``stop[0] != 0`` gives ``STOPPED``, checked with the node budget) are honoured.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from bitdoku.kernels.bits import lowest_bit_index, popcount
from bitdoku.kernels.jit import borrowing
from bitdoku.kernels.rng import below, random_bit
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

if TYPE_CHECKING:
    from bitdoku.geometry import Geometry

N_CELLS = 81
#: Words of a state: two a digit (board d at 2d, 2d + 1), then the two words of the empty cells.
S_UNSOLVED = 18
#: The boards as the unit rules last scanned them (two words a digit): what changed since is all they look at.
S_SCANNED = 20
STATE_WORDS = 38
#: Stack levels: the root and one a branch point, at most one a cell.
MAX_DEPTH = N_CELLS + 1
HIGH_FULL = (1 << (N_CELLS - 64)) - 1  # the cells 64..80 in the second word
#: ``_pair_score``'s weight of a neighbour holding a digit one above or below one of the cell's (nonconsecutive):
#: 3, 5 and 8 took 15.2k, 14.7k and 10.2k-10.9k nodes on the first puzzles of the set, 0 took 21.5k
#: (benchmarks/results/variant_speed3.md).
NEIGHBOUR_WEIGHT = 5
#: Cells of the first and last columns, as (word 0, word 1): what a shift by one column must not wrap into.
_COLUMN_0 = sum(1 << cell for cell in range(0, N_CELLS, 9))
_COLUMN_8 = sum(1 << cell for cell in range(8, N_CELLS, 9))
COLUMN_0_LOW, COLUMN_0_HIGH = _COLUMN_0 & (2**64 - 1), _COLUMN_0 >> 64
COLUMN_8_LOW, COLUMN_8_HIGH = _COLUMN_8 & (2**64 - 1), _COLUMN_8 >> 64


class Tables81(NamedTuple):
    """A 9x9 geometry as 81-bit masks, two uint64 words a row (cells 0..63, then 64..80): the ``units`` (U rows),
    the ``peers`` of each cell (81 rows, the cell itself left out) and its nonconsecutive ``adjacent`` cells (81
    rows, all zero unless the geometry has that rule); and ``cell_units``, the units of each cell as a bit set
    over the units (U <= 64)."""

    units: NDArray[np.uint64]
    peers: NDArray[np.uint64]
    adjacent: NDArray[np.uint64]
    cell_units: NDArray[np.uint64]


def _masks(lists: list[list[int]]) -> NDArray[np.uint64]:
    """Rows of cell lists as rows of two-word 81-bit masks."""
    out = np.zeros((len(lists), 2), np.uint64)
    for row, cells in enumerate(lists):
        for cell in cells:
            out[row, cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
    return out


@lru_cache(maxsize=64)  # bounded as geometry.GEOMETRIES_KEPT: geometries come from input
def board_tables(geometry: Geometry) -> Tables81:
    """The masks of a 9x9 geometry, from its ``Geometry.tables`` (cached per geometry; the arrays are read-only)."""
    tables = geometry.tables
    if geometry.shape.n_cells != N_CELLS:
        raise ValueError(f"the digit-major kernel takes 9x9 geometries, not {geometry.shape.size_name}")

    def rows(start: NDArray[np.int32], items: NDArray[np.int32]) -> list[list[int]]:
        return [items[start[cell] : start[cell + 1]].tolist() for cell in range(N_CELLS)]

    cell_units = np.zeros(N_CELLS, np.uint64)
    for cell, units in enumerate(rows(tables.cell_unit_start, tables.cell_units)):
        for unit in units:
            cell_units[cell] |= np.uint64(1) << np.uint64(unit)
    made = Tables81(_masks(tables.units.tolist()), _masks(rows(tables.peer_start, tables.peers)),
                    _masks(rows(tables.adjacent_start, tables.adjacent)), cell_units)
    for table in made:
        table.flags.writeable = False
    return made


@njit(cache=True, nogil=True)
def new_workspace():
    """The arrays of one search, reusable across calls: the stack of states, and the cell and the digits left
    of each branch frame. Left uninitialised: a search writes every word before it reads it."""
    return (np.empty((MAX_DEPTH, STATE_WORDS), np.uint64), np.empty(MAX_DEPTH, np.int64),
            np.empty(MAX_DEPTH, np.uint64))


@njit(cache=True, nogil=True, inline="always")
def _cell_bit(cell):
    return np.uint64(1) << np.uint64(cell & 63)


@borrowing
def _place(states, k, cell, digit, tables, nonconsecutive):
    """Fill ``cell`` with ``digit`` (0-based) in state k: the digits whose boards changed (a 9-bit set), or -1 when
    the digit is no longer a candidate there."""
    word = cell >> 6
    bit = _cell_bit(cell)
    if states[k, 2 * digit + word] & bit == 0:
        return -1
    touched = np.int64(1) << digit
    for other in range(9):
        if other != digit and states[k, 2 * other + word] & bit != 0:
            states[k, 2 * other + word] &= ~bit
            touched |= np.int64(1) << other
    peers = tables.peers
    states[k, 2 * digit] &= ~peers[cell, 0]
    states[k, 2 * digit + 1] &= ~peers[cell, 1]
    if nonconsecutive:
        adjacent = tables.adjacent
        for near in range(digit - 1, digit + 2, 2):
            if 0 <= near < 9:
                states[k, 2 * near] &= ~adjacent[cell, 0]
                states[k, 2 * near + 1] &= ~adjacent[cell, 1]
                touched |= np.int64(1) << near
    states[k, S_UNSOLVED + word] &= ~bit
    return touched


@borrowing
def _naked_singles(states, k, naked, tables, nonconsecutive, stats):
    """Fill the empty cells with one candidate (with ``naked``); -1 when an empty cell has none, else the cells
    filled."""
    unsolved0, unsolved1 = states[k, S_UNSOLVED], states[k, S_UNSOLVED + 1]
    once0 = once1 = twice0 = twice1 = np.uint64(0)
    for digit in range(9):
        w0, w1 = states[k, 2 * digit], states[k, 2 * digit + 1]
        twice0 |= once0 & w0
        twice1 |= once1 & w1
        once0 |= w0
        once1 |= w1
    if unsolved0 & ~once0 != 0 or unsolved1 & ~once1 != 0:
        return -1
    if not naked:
        return 0
    filled = 0
    for word in range(2):
        singles = (unsolved0 & ~twice0) if word == 0 else (unsolved1 & ~twice1)
        while singles != 0:
            cell = 64 * word + lowest_bit_index(singles)
            bit = _cell_bit(cell)
            singles &= ~bit
            digit = 0
            while digit < 8 and states[k, 2 * digit + word] & bit == 0:
                digit += 1
            if _place(states, k, cell, digit, tables, nonconsecutive) < 0:
                return -1  # an earlier single in this pass took its only digit
            filled += 1
    stats[STAT_PLACEMENTS] += filled
    return filled


@njit(cache=True, nogil=True, inline="always")
def _beside(x0, x1):
    """The cells orthogonally beside any cell of the 81-bit set x (a nonconsecutive geometry's ``adjacent``, whose
    neighbours are always these): x shifted by one column (not across the grid's edge) and by one row."""
    left0 = ((x0 >> np.uint64(1)) | (x1 << np.uint64(63))) & ~np.uint64(COLUMN_8_LOW)
    left1 = (x1 >> np.uint64(1)) & ~np.uint64(COLUMN_8_HIGH)
    right0 = (x0 << np.uint64(1)) & ~np.uint64(COLUMN_0_LOW)
    right1 = ((x1 << np.uint64(1)) | (x0 >> np.uint64(63))) & ~np.uint64(COLUMN_0_HIGH)
    up0 = (x0 >> np.uint64(9)) | (x1 << np.uint64(55))
    up1 = x1 >> np.uint64(9)
    down0 = x0 << np.uint64(9)
    down1 = (x1 << np.uint64(9)) | (x0 >> np.uint64(55))
    return left0 | right0 | up0 | down0, (left1 | right1 | up1 | down1) & np.uint64(HIGH_FULL)


@borrowing
def _consecutive_support(states, k):
    """Nonconsecutive: a cell whose candidates all lie in {e - 1, e, e + 1} forbids e to its neighbours (they see it
    and hold none of its digits' neighbours). The digits whose boards changed, 0 for none."""
    touched = np.int64(0)
    for digit in range(9):
        outside0 = outside1 = np.uint64(0)
        for other in range(9):
            if other < digit - 1 or other > digit + 1:
                outside0 |= states[k, 2 * other]
                outside1 |= states[k, 2 * other + 1]
        forbid0, forbid1 = _beside(states[k, S_UNSOLVED] & ~outside0, states[k, S_UNSOLVED + 1] & ~outside1)
        if states[k, 2 * digit] & forbid0 != 0 or states[k, 2 * digit + 1] & forbid1 != 0:
            states[k, 2 * digit] &= ~forbid0
            states[k, 2 * digit + 1] &= ~forbid1
            touched |= np.int64(1) << digit
    return touched


@njit(cache=True, nogil=True, inline="always")
def _nth_cell(x0, x1, skip):
    """The cell of the ``skip``-th set bit (0-based) of an 81-bit mask."""
    for _ in range(skip):
        if x0 != 0:
            x0 &= x0 - np.uint64(1)
        else:
            x1 &= x1 - np.uint64(1)
    return lowest_bit_index(x0) if x0 != 0 else 64 + lowest_bit_index(x1)


@borrowing
def _adjacent_places(states, k, digit, x0, x1, adjacent):
    """Nonconsecutive: when the places ``x`` of ``digit`` in a unit all lie in one cell's orthogonal neighbourhood
    (the cell itself or a cell beside it), the digit ends up in that cell or beside it, so the cell cannot hold
    digit - 1 or digit + 1. The neighbourhoods of the places are ANDed (a cell has at most five), and the cells
    left lose those two digits. True when a board changed. (At most five places can share a neighbourhood.)"""
    near0 = near1 = ~np.uint64(0)
    while x0 != 0:
        cell = lowest_bit_index(x0)
        x0 &= x0 - np.uint64(1)
        near0 &= adjacent[cell, 0] | _cell_bit(cell)
        near1 &= adjacent[cell, 1]
    while x1 != 0:
        cell = 64 + lowest_bit_index(x1)
        x1 &= x1 - np.uint64(1)
        near0 &= adjacent[cell, 0]
        near1 &= adjacent[cell, 1] | _cell_bit(cell)
    changed = False
    for other in range(digit - 1, digit + 2, 2):
        if 0 <= other < 9 and (states[k, 2 * other] & near0 != 0 or states[k, 2 * other + 1] & near1 != 0):
            states[k, 2 * other] &= ~near0
            states[k, 2 * other + 1] &= ~near1
            changed = True
    return changed


@borrowing
def _unit_rules(states, k, flags, tables, nonconsecutive, stats):
    """Hidden singles and, with ``LOCKED_CANDIDATES``, locked candidates, in the units where a digit lost places
    since they were last scanned (``S_SCANNED``), until no board changes; -1 on a contradiction (a digit with no
    place in a unit), else the number of changes (cells filled, boards narrowed).

    A unit none of whose places changed gives nothing new: its count, its filled cell and the cells its places
    see are the same, and the boards only shrink. So a placement costs its own digit a scan of the units of its
    peers (most of them), but each other digit of the cell only the three to five units of the cell."""
    hidden = flags & HIDDEN_SINGLES != 0
    locked = flags & LOCKED_CANDIDATES != 0
    units, peers, cell_units = tables.units, tables.peers, tables.cell_units
    changes = 0
    digit = 0
    calm = 0  # digits in a row found unchanged; nine end the loop
    while calm < 9:
        board0, board1 = states[k, 2 * digit], states[k, 2 * digit + 1]
        lost0 = states[k, S_SCANNED + 2 * digit] & ~board0
        lost1 = states[k, S_SCANNED + 2 * digit + 1] & ~board1
        if lost0 | lost1 == 0:
            calm += 1
            digit = digit + 1 if digit < 8 else 0
            continue
        calm = 0
        states[k, S_SCANNED + 2 * digit] = board0
        states[k, S_SCANNED + 2 * digit + 1] = board1
        touched = np.uint64(0)
        while lost0 != 0:
            touched |= cell_units[lowest_bit_index(lost0)]
            lost0 &= lost0 - np.uint64(1)
        while lost1 != 0:
            touched |= cell_units[64 + lowest_bit_index(lost1)]
            lost1 &= lost1 - np.uint64(1)
        # the board and the filled cells in locals: the loop reloads them only after it writes the state
        filled0, filled1 = ~states[k, S_UNSOLVED], ~states[k, S_UNSOLVED + 1]
        while touched != 0:
            unit = lowest_bit_index(touched)
            touched &= touched - np.uint64(1)
            x0 = board0 & units[unit, 0]
            x1 = board1 & units[unit, 1]
            if x0 | x1 == 0:
                return -1
            if (x0 & filled0) | (x1 & filled1) != 0:
                continue  # the digit is placed in this unit
            count = popcount(x0) + popcount(x1)
            if count == 1 and hidden:
                cell = lowest_bit_index(x0) if x0 != 0 else 64 + lowest_bit_index(x1)
                if _place(states, k, cell, digit, tables, nonconsecutive) < 0:
                    return -1
                stats[STAT_PLACEMENTS] += 1
                changes += 1
                board0, board1 = states[k, 2 * digit], states[k, 2 * digit + 1]
                filled0, filled1 = ~states[k, S_UNSOLVED], ~states[k, S_UNSOLVED + 1]
            elif locked and 2 <= count <= 5:
                if nonconsecutive and _adjacent_places(states, k, digit, x0, x1, tables.adjacent):
                    changes += 1  # the boards of digit - 1 and digit + 1 are rescanned when the loop reaches them
                if count > 3:
                    continue
                first, second, third = _nth_cell(x0, x1, 0), _nth_cell(x0, x1, 1), _nth_cell(x0, x1, count - 1)
                seen0 = peers[first, 0] & peers[second, 0] & peers[third, 0]
                seen1 = peers[first, 1] & peers[second, 1] & peers[third, 1]
                if board0 & seen0 != 0 or board1 & seen1 != 0:
                    board0 &= ~seen0
                    board1 &= ~seen1
                    states[k, 2 * digit] = board0
                    states[k, 2 * digit + 1] = board1
                    changes += 1
        # what this scan removed from the digit's own board is looked at when the loop comes back to it
    return changes


@borrowing
def _propagate(states, k, flags, tables, nonconsecutive, stats):
    """Run the rules in ``flags`` on state k to their fixpoint; False on a contradiction."""
    naked = flags & NAKED_SINGLES != 0
    by_units = flags & (HIDDEN_SINGLES | LOCKED_CANDIDATES) != 0
    consecutive = naked and nonconsecutive
    while True:
        filled = _naked_singles(states, k, naked, tables, nonconsecutive, stats)
        if filled < 0:
            return False
        if filled > 0:
            continue
        if consecutive and _consecutive_support(states, k) != 0:
            continue
        if not by_units:
            return True
        changes = _unit_rules(states, k, flags, tables, nonconsecutive, stats)
        if changes < 0:
            return False
        if changes == 0:
            return True


@njit(cache=True, nogil=True, inline="always")
def _equal(c0, c1, c2, c3, count):
    """The cells whose bit-sliced count is ``count``."""
    return (c0 if count & 1 else ~c0) & (c1 if count & 2 else ~c1) & (c2 if count & 4 else ~c2) & (
        c3 if count & 8 else ~c3)


@njit(cache=True, nogil=True, inline="always")
def _count_of(c0, c1, c2, c3, cell_bit):
    """A cell's count from the bit-sliced counters of its word."""
    return (np.int64(c0 & cell_bit != 0) + 2 * np.int64(c1 & cell_bit != 0) + 4 * np.int64(c2 & cell_bit != 0)
            + 8 * np.int64(c3 & cell_bit != 0))


@njit(cache=True, nogil=True, inline="always")
def _bit_counts(states, k, word, unsolved):
    """The candidates of every empty cell of a word, bit-sliced: four counter words, one ripple-carry addition
    of each digit's board."""
    c0 = c1 = c2 = c3 = np.uint64(0)
    for digit in range(9):
        carry = states[k, 2 * digit + word] & unsolved
        c0, carry = c0 ^ carry, c0 & carry
        c1, carry = c1 ^ carry, c1 & carry
        c2, carry = c2 ^ carry, c2 & carry
        c3 |= carry
    return c0, c1, c2, c3


@borrowing
def _with_count(states, k, word, count):
    """The empty cells of a word with ``count`` candidates."""
    unsolved = states[k, S_UNSOLVED + word]
    c0, c1, c2, c3 = _bit_counts(states, k, word, unsolved)
    return _equal(c0, c1, c2, c3, count) & unsolved


@borrowing
def _pair_score(states, k, cell, pairs0, pairs1, tables, nonconsecutive):
    """How much a cell's digits weigh among its peers: the peers that hold any of them, those with two candidates
    counted six times (a guess there fills them at once). ``sudoku9._best_in_band``'s idea; the weight 6 (against
    1, 3 and 10, and the two-candidate peers alone) took the fewest nodes on the variant sets
    (benchmarks/results/variant_nodes.md). Nonconsecutive: plus ``NEIGHBOUR_WEIGHT`` times the same count of the
    neighbours that hold a digit one above or below one of the cell's (a guess strikes those too)."""
    peers, adjacent = tables.peers, tables.adjacent
    word = cell >> 6
    bit = _cell_bit(cell)
    score = 0
    for digit in range(9):
        if states[k, 2 * digit + word] & bit != 0:
            x0 = states[k, 2 * digit] & peers[cell, 0]
            x1 = states[k, 2 * digit + 1] & peers[cell, 1]
            score += popcount(x0) + popcount(x1) + 5 * (popcount(x0 & pairs0) + popcount(x1 & pairs1))
            if not nonconsecutive:
                continue
            for near in range(digit - 1, digit + 2, 2):
                if 0 <= near < 9:
                    x0 = states[k, 2 * near] & adjacent[cell, 0]
                    x1 = states[k, 2 * near + 1] & adjacent[cell, 1]
                    score += NEIGHBOUR_WEIGHT * (popcount(x0) + popcount(x1)
                                                 + 5 * (popcount(x0 & pairs0) + popcount(x1 & pairs1)))
    return score


@borrowing
def _choose_cell(states, k, good_enough, randomised, rng, tables, nonconsecutive):
    """The empty cell with the fewest candidates, -1 when full; with ``good_enough`` 1 the first cell with one
    candidate at once. Among the cells with the fewest candidates (two or more), the one with the highest
    ``_pair_score`` (the first such): fewer nodes than the first one in cell order. With ``randomised``, one
    drawn among the ties by the draws of ``dfs._choose_cell_at_random`` (``_choose_cell_at_random``)."""
    if randomised:
        return _choose_cell_at_random(states, k, rng)
    best = -1
    best_count = 1 << 30
    pairs0 = pairs1 = np.uint64(0)
    for word in range(2):
        unsolved = states[k, S_UNSOLVED + word]
        if unsolved == 0:
            continue
        c0, c1, c2, c3 = _bit_counts(states, k, word, unsolved)
        if good_enough == 1 and _equal(c0, c1, c2, c3, 1) & unsolved != 0:
            return 64 * word + lowest_bit_index(_equal(c0, c1, c2, c3, 1) & unsolved)
        pairs = _equal(c0, c1, c2, c3, 2) & unsolved
        if word == 0:
            pairs0 = pairs
        else:
            pairs1 = pairs
        for count in range(1, min(best_count, 10)):
            equal = _equal(c0, c1, c2, c3, count) & unsolved
            if equal != 0:
                best, best_count = 64 * word + lowest_bit_index(equal), count
                break
    if best_count < 2 or best_count > 9:
        return best
    ties0, ties1 = pairs0, pairs1
    if best_count > 2:  # rare but for nonconsecutive (wide branch points; the counts again, for the ties)
        ties0, ties1 = _with_count(states, k, 0, best_count), _with_count(states, k, 1, best_count)
    if popcount(ties0) + popcount(ties1) == 1:
        return best
    best_score = -1
    for word in range(2):
        cells = ties0 if word == 0 else ties1
        while cells != 0:
            cell = 64 * word + lowest_bit_index(cells)
            cells &= cells - np.uint64(1)
            score = _pair_score(states, k, cell, pairs0, pairs1, tables, nonconsecutive)
            if score > best_score:
                best, best_score = cell, score
    return best


@borrowing
def _choose_cell_at_random(states, k, rng):
    """An empty cell with the fewest candidates drawn among the ties (reservoir sampling, the draws of
    ``dfs._choose_cell_at_random``); -1 when full."""
    best = -1
    best_count = 1 << 30
    ties = 0
    for word in range(2):
        unsolved = states[k, S_UNSOLVED + word]
        if unsolved == 0:
            continue
        c0, c1, c2, c3 = _bit_counts(states, k, word, unsolved)
        cells = unsolved
        while cells != 0:
            low = lowest_bit_index(cells)
            cells &= cells - np.uint64(1)
            count = _count_of(c0, c1, c2, c3, np.uint64(1) << np.uint64(low))
            if count < best_count:
                best, best_count, ties = 64 * word + low, count, 1
            elif count == best_count:
                ties += 1
                if below(rng, ties) == 0:
                    best = 64 * word + low
    return best


@borrowing
def _candidates(states, k, cell):
    """The digits (bit d for digit d + 1) still possible in a cell."""
    word = cell >> 6
    bit = _cell_bit(cell)
    mask = np.uint64(0)
    for digit in range(9):
        if states[k, 2 * digit + word] & bit != 0:
            mask |= np.uint64(1) << np.uint64(digit)
    return mask


@borrowing
def _write_values(states, k, out):
    """The digit of every cell of a full state k, into ``out`` (uint8[81])."""
    for digit in range(9):
        for word in range(2):
            cells = states[k, 2 * digit + word]
            while cells != 0:
                out[64 * word + lowest_bit_index(cells)] = digit + 1
                cells &= cells - np.uint64(1)


@njit(cache=True, nogil=True)
def _load_givens(states, cells, tables, nonconsecutive):
    """State 0 from the givens; -1 when fine, else INVALID (a digit out of range, equal digits in peers,
    consecutive digits side by side in a nonconsecutive grid) or CONTRADICTION (an empty cell without candidates).
    Leaves the rules undone: only the givens' own strikes."""
    peers, adjacent = tables.peers, tables.adjacent
    given = np.zeros(2 * 9, np.uint64)
    for cell in range(N_CELLS):
        if cells[cell] > 9:
            return INVALID
        if cells[cell] != 0:
            given[2 * (cells[cell] - 1) + (cell >> 6)] |= _cell_bit(cell)
    for word in range(2):
        states[0, S_UNSOLVED + word] = ~np.uint64(0) if word == 0 else np.uint64(HIGH_FULL)
    for digit in range(9):
        for word in range(2):
            states[0, 2 * digit + word] = states[0, S_UNSOLVED + word]
            states[0, S_SCANNED + 2 * digit + word] = states[0, S_UNSOLVED + word]  # a full board gives nothing
    for cell in range(N_CELLS):
        if cells[cell] == 0:
            continue
        digit = np.int64(cells[cell]) - 1
        if given[2 * digit] & peers[cell, 0] != 0 or given[2 * digit + 1] & peers[cell, 1] != 0:
            return INVALID
        if nonconsecutive:
            for near in range(digit - 1, digit + 2, 2):
                if 0 <= near < 9 and (given[2 * near] & adjacent[cell, 0] != 0
                                      or given[2 * near + 1] & adjacent[cell, 1] != 0):
                    return INVALID
        _place(states, 0, cell, digit, tables, nonconsecutive)
    for word in range(2):
        once = np.uint64(0)
        for digit in range(9):
            once |= states[0, 2 * digit + word]
        if states[0, S_UNSOLVED + word] & ~once != 0:
            return CONTRADICTION
    return -1


@njit(cache=True, nogil=True)
def _has_rule(adjacent):
    """Whether the tables hold nonconsecutive neighbours."""
    for cell in range(N_CELLS):  # noqa: SIM110 (Numba compiles no generator expression)
        if adjacent[cell, 0] | adjacent[cell, 1] != 0:
            return True
    return False


@njit(cache=True, nogil=True)
def search_in(ws, cells, tables, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop):
    """``search`` in a workspace the caller reuses (``new_workspace()``), with the generator's extras, those of
    ``variant.search_in``: ``guide`` (uint8[81], or empty) is a solution whose digit is tried first at each branch;
    ``changed_cell`` (-1 for none) loses ``guide[changed_cell]`` before the search; ``rng`` (a ``rng.py`` state) is
    drawn from, and advanced, only with ``RANDOM_ORDER``. ``stop`` (int64[1]): when ``stop[0] != 0``, the search
    returns ``STOPPED`` at its start or at its next node."""
    states, frame_cell, frame_rest = ws
    stats[:] = 0
    nonconsecutive = _has_rule(tables.adjacent)
    status = _load_givens(states, cells, tables, nonconsecutive)
    if status >= 0:
        return status
    if stop[0] != 0:
        return STOPPED
    stats[STAT_NODES] = 1
    if changed_cell >= 0 and cells[changed_cell] == 0:
        digit = np.int64(guide[changed_cell]) - 1
        states[0, 2 * digit + (changed_cell >> 6)] &= ~_cell_bit(changed_cell)
        if _candidates(states, 0, changed_cell) == 0:
            return COMPLETE
    if not _propagate(states, 0, flags, tables, nonconsecutive, stats):
        return COMPLETE
    randomised = flags & RANDOM_ORDER != 0
    guided = guide.shape[0] == N_CELLS
    good_enough = 2 if flags & NAKED_SINGLES != 0 else 1
    depth = 0  # open frames; frame f branches from level f into level f + 1; the current state is level ``depth``
    status = COMPLETE
    while True:
        cell = _choose_cell(states, depth, good_enough, randomised, rng, tables, nonconsecutive)
        if cell < 0:
            found = stats[STAT_SOLUTIONS]
            if found < solutions.shape[0]:
                _write_values(states, depth, solutions[found])
            stats[STAT_SOLUTIONS] = found + 1
            if found + 1 >= limit:
                status = LIMIT_REACHED
                break
        else:
            rest = _candidates(states, depth, cell)
            if popcount(rest) > 1:
                stats[STAT_GUESSES] += 1
            frame_cell[depth] = cell
            frame_rest[depth] = rest
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
            if guided and rest & (np.uint64(1) << np.uint64(guide[cell] - 1)) != 0:
                digit = np.int64(guide[cell]) - 1
            elif randomised:
                digit = random_bit(rng, rest)
            else:
                digit = lowest_bit_index(rest)
            frame_rest[frame] = rest & ~(np.uint64(1) << np.uint64(digit))
            if stats[STAT_NODES] >= max_nodes:
                status = BUDGET_EXHAUSTED
                break
            if stop[0] != 0:
                status = STOPPED
                break
            stats[STAT_NODES] += 1
            for word in range(STATE_WORDS):
                states[frame + 1, word] = states[frame, word]
            _place(states, frame + 1, cell, digit, tables, nonconsecutive)
            if _propagate(states, frame + 1, flags, tables, nonconsecutive, stats):
                advanced = True
                break
            stats[STAT_BACKTRACKS] += 1
        if not advanced:
            break
    return status


@njit(cache=True, nogil=True)
def search(cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    """Search a 9x9 variant puzzle for up to ``limit`` solutions within a node budget.

    Parameters
    ----------
    cells : uint8[81]
        The puzzle, row-major, 0 for an empty cell; not mutated.
    tables : Tables81
        ``board_tables(geometry)``: the unit, peer and neighbour masks.
    limit : int
        Stop after this many solutions (>= 1).
    max_nodes : int
        The node budget (> 0): the root, then one node per candidate tried at a branch point.
    flags : int
        ``status`` bits: ``NAKED_SINGLES``, ``HIDDEN_SINGLES``, ``LOCKED_CANDIDATES``, ``RANDOM_ORDER`` (draws from
        a fixed seed here; the generator calls ``search_in`` with its own state).
    solutions : uint8[K, 81]
        Out: the first min(found, K) solutions, in the order found. K may be 0.
    stats : int64[N_STATS]
        Out: counters, slots ``STAT_*`` in ``status``.
    stop : int64[1]
        The caller's stop flag: set (non-zero) from another thread, the search returns ``STOPPED``.

    Returns
    -------
    int
        ``COMPLETE``, ``LIMIT_REACHED``, ``BUDGET_EXHAUSTED``, ``STOPPED``, ``INVALID`` (a given out of range, equal
        digits in peers, consecutive digits side by side in a nonconsecutive grid) or ``CONTRADICTION`` (an empty
        cell with no candidate left by the givens).

    Cost: at most ``max_nodes`` propagations, each O(placements * units a cell) word operations; memory
    ``MAX_DEPTH`` states of 304 bytes. Never raises.
    """
    return search_in(new_workspace(), cells, tables, limit, max_nodes, flags, solutions, stats,
                     np.ones(1, np.uint64), np.zeros(0, np.uint8), np.int64(-1), stop)


@njit(cache=True, nogil=True)
def count_many(puzzles, tables, limit, max_nodes, flags, statuses, counts, nodes, stop):
    """``search`` for each row of ``puzzles`` (uint8[B, 81]) in one workspace, without keeping solutions (the
    batch loop of ``variant.count_many``). Out: ``statuses``, ``counts`` and ``nodes`` (int64[B] each). ``stop``
    (int64[1]) stops the call: the rows left get ``STOPPED``."""
    ws = new_workspace()
    stats = np.zeros(N_STATS, np.int64)
    no_solutions = np.zeros((0, N_CELLS), np.uint8)
    rng = np.ones(1, np.uint64)
    no_guide = np.zeros(0, np.uint8)
    for row in range(puzzles.shape[0]):
        statuses[row] = search_in(ws, puzzles[row], tables, limit, max_nodes, flags, no_solutions, stats, rng,
                                  no_guide, np.int64(-1), stop)
        counts[row] = stats[STAT_SOLUTIONS]
        nodes[row] = stats[STAT_NODES]
