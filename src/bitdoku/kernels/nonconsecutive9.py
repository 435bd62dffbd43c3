"""9x9 nonconsecutive on the band kernel's bitboards: the classic rules as they are, the relation as bit shifts.

A nonconsecutive grid is a classic grid whose orthogonal neighbours never hold consecutive digits. ``variant81.py``
runs it on two-word 81-bit boards at ~2-5 µs a node (benchmarks/results/nc_generate.md). This kernel keeps the
classic band kernel's state and rules (``sudoku9.py``, imported, not copied: placement, naked and hidden singles,
locked candidates by triad permutations, the count planes and their upkeep, loading and writing grids) and adds
the relation as whole-word operations on a digit's three band words. "Beside" a set of cells is the set shifted
by one bit (a column: the guard bit above each 9-bit row stops a shift at the row's ends), by ten bits (a row,
inside a band) and, for the rows at a band's edge, by twenty bits into the next band's word (``_beside``):

* support (``_support``): a cell whose candidates all lie in {e - 1, e, e + 1} forbids e to the cells beside it
  (they see it, and none of its digits may sit next to an e). A filled cell is such a cell for its digit and the
  two next to it, so this is also the placement's strike: placements (the band kernel's, which know nothing of
  the relation) are followed by this pass before anything else, and it finds two consecutive digits side by side
  (a filled cell that would lose its digit) as a contradiction. It looks only at the cells whose digits changed
  since it last ran (``_unseen``: a count or a filling it has not seen), and strikes only for the digits e that one
  of those cells supports: ~3 of the nine a pass, same nodes, ~4% a node (benchmarks/results/nc_generate4.md);
* neighbourhood (``_neighbourhood``, with ``LOCKED_CANDIDATES``): when a digit's places in a row, a column or a
  box all lie in one cell's neighbourhood (the cell or a cell beside it), the digit ends up in that cell or beside
  it, so the cell can hold neither digit - 1 nor digit + 1 (``variant81._adjacent_places``'s rule). For rows and
  columns, the cells with a place two or more steps away on either side are found for all rows at once with
  prefix ORs along the row (a lane-wise negation) and down the column (across the bands); for a box with two to
  five places, a 512-entry table (``BOX_NEAR``) of the cells beside or on all of them. Only for the digits whose
  words changed since the pass last ran (``S_NEAR_DIRTY``);
* branching: the fewest candidates; among ties, the cell whose digits its peers hold most, two-candidate peers
  counted ``PAIR_WEIGHT`` times, plus ``NEIGHBOUR_WEIGHT`` times the same of the neighbours that hold a digit one
  above or below one of the cell's (``variant81._pair_score``'s rule, on the band words). The generator's searches
  (those with a guide: its fill and its removal checks) choose wider: the cells of the fewest candidates and, when
  there are few of those, of one more, the highest score over the count squared, the neighbours weighed
  ``WIDE_NEIGHBOUR_WEIGHT``: ~30% fewer check nodes with the same answers, ~30% fewer fill nodes (other grids,
  so other puzzles; benchmarks/results/nc_generate5.md). Plain solving keeps the narrow choice.

The search differs from ``variant81``'s (other rules, other nodes), not its answers: solution counts and statuses
(``INVALID`` for a digit above 9, equal givens in a unit or consecutive givens side by side; ``CONTRADICTION``
for an empty cell left without a candidate by the givens' own strikes) are the same, which the tests hold against
the reference engine and ``variant81``.

Which geometries: ``tables_for`` gives tables for a 9x9 geometry with the classic rows, columns and boxes, no other
unit and no other relation than the nonconsecutive one; None otherwise.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from bitdoku.kernels import band_search, extra9
from bitdoku.kernels import sudoku9 as band
from bitdoku.kernels.bits import lowest_bit_index, popcount
from bitdoku.kernels.jit import borrowing
from bitdoku.kernels.rng import random_bit
from bitdoku.kernels.status import (
    CONTRADICTION,
    HIDDEN_SINGLES,
    INVALID,
    LOCKED_CANDIDATES,
    N_STATS,
    NAKED_SINGLES,
    RANDOM_ORDER,
    STAT_NODES,
    STAT_SOLUTIONS,
    STOPPED,
)

if TYPE_CHECKING:
    from bitdoku.geometry import Geometry

N_CELLS = 81
S_UNSOLVED = band.S_UNSOLVED
S_HIDDEN_DIRTY = band.S_HIDDEN_DIRTY
S_LOCKED_DIRTY = band.S_LOCKED_DIRTY
#: After the band kernel's words: the digits whose words changed since ``_neighbourhood`` last looked at them (the
#: band kernel's locked-candidates marks, taken before that pass clears them).
S_NEAR_DIRTY = band.STATE_WORDS
#: What ``_support`` has already struck from, one word a band each: the count planes 0 and 1 of the empty cells of
#: one to three candidates when it last looked at them (0 and 0 for the others: no count it could see), and the
#: filled cells it has looked at. Candidates only go, so a cell whose count is the one seen has the digits seen.
S_SEEN_ONES = S_NEAR_DIRTY + 1
S_SEEN_TWOS = S_SEEN_ONES + 3
S_SEEN_FILLED = S_SEEN_TWOS + 3
STATE_WORDS = S_SEEN_FILLED + 3
MAX_DEPTH = band.MAX_DEPTH
#: The weights of ``_score``: those of ``variant81`` (``PAIR_WEIGHT`` as ``extra9``'s, ``NEIGHBOUR_WEIGHT`` as
#: ``variant81.NEIGHBOUR_WEIGHT``).
PAIR_WEIGHT = 6
NEIGHBOUR_WEIGHT = 5
#: The neighbours' weight of the generator's wider choice (``choose``'s ``wide``): 15 took 4% fewer nodes than 5
#: on two sets of recorded removal checks (12-30 about as many; benchmarks/results/nc_generate5.md).
WIDE_NEIGHBOUR_WEIGHT = 15
#: The generator's choice widens only when this many cells or fewer have the fewest candidates: with more,
#: one of them is about as good and scoring the wider set costs more than it saves (6: 6% less time than always,
#: about as many nodes; benchmarks/results/nc_generate5.md).
WIDEN_UP_TO = 6
ROW_LOW = band.ROW_LOW
ROW_BITS = band.ROW_BITS
BAND_FULL = band.BAND_FULL
LANES_0_7 = 0xFF * ROW_LOW  # the columns 1-8 of each row (bits 0..7 of each 10-bit lane)
LANES_0_6 = 0x7F * ROW_LOW
LANES_0_4 = 0x1F * ROW_LOW
LANES_2_8 = 0x1FC * ROW_LOW


class Nonconsecutive9Tables(NamedTuple):
    """A 9x9 nonconsecutive geometry in the band layout, three words a row (one a band): the classic ``peers`` of
    each cell (81 rows) and its orthogonal neighbours, ``adjacent`` (81 rows). Its type sends the generator's
    searches here (``variant.search_any``)."""

    peers: NDArray[np.int64]
    adjacent: NDArray[np.int64]


def _orthogonal(cell: int) -> list[int]:
    """The cells beside ``cell`` (up, down, left, right)."""
    row, column = divmod(cell, 9)
    return [9 * r + c for r, c in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1))
            if 0 <= r < 9 and 0 <= c < 9]


@lru_cache(maxsize=64)  # bounded as geometry.GEOMETRIES_KEPT: geometries come from input
def tables_for(geometry: Geometry) -> Nonconsecutive9Tables | None:
    """The masks of a 9x9 geometry that is the classic one plus the nonconsecutive relation, or None when it is
    not (another size, jigsaw regions, extra units, knight or king relations). Cached per geometry."""
    tables = geometry.tables
    if geometry.shape.n_cells != N_CELLS or tables.adjacent.shape[0] == 0:
        return None
    if not band.is_standard9_table(tables.units):
        return None
    mates: list[set[int]] = [set() for _ in range(N_CELLS)]
    for members in tables.units.tolist():
        for cell in members:
            mates[cell].update(members)
    peers = np.zeros((N_CELLS, 3), np.int64)
    adjacent = np.zeros((N_CELLS, 3), np.int64)
    for cell in range(N_CELLS):
        mates[cell].discard(cell)
        if mates[cell] != set(tables.peers[tables.peer_start[cell] : tables.peer_start[cell + 1]].tolist()):
            return None  # knight or king relations
        near = tables.adjacent[tables.adjacent_start[cell] : tables.adjacent_start[cell + 1]].tolist()
        if sorted(near) != sorted(_orthogonal(cell)):
            return None
        peers[cell] = extra9._band_mask(sorted(mates[cell]))
        adjacent[cell] = extra9._band_mask(near)
    made = Nonconsecutive9Tables(peers, adjacent)
    for table in made:
        table.flags.writeable = False
    return made


def new_workspace() -> tuple:
    """The arrays of one search, reusable across calls: the stack of states (uint32[MAX_DEPTH, STATE_WORDS]), the
    frames (int64[MAX_DEPTH, 2]: the branching cell, the digits left) and a scratch row (int64[27]: ``_support``'s
    suffix ORs)."""
    return (np.empty((MAX_DEPTH, STATE_WORDS), np.uint32), np.empty((MAX_DEPTH, 2), np.int64),
            np.empty(27, np.int64))


@njit(cache=True, nogil=True)
def new_workspace_compiled():
    """``new_workspace`` for compiled callers (``variant.workspace_for``)."""
    return (np.empty((MAX_DEPTH, STATE_WORDS), np.uint32), np.empty((MAX_DEPTH, 2), np.int64),
            np.empty(27, np.int64))


@njit(cache=True, nogil=True, inline="always")
def _beside(s0, s1, s2):
    """The cells orthogonally beside a set of cells (three band words, bits of BAND_FULL only): shifted by a column
    (the guard bits stop it at a row's ends), by a row inside a band, and across the band edges."""
    b0 = (((s0 << 1) | (s0 >> 1) | (s0 << 10) | (s0 >> 10)) & BAND_FULL) | ((s1 & ROW_BITS) << 20)
    b1 = (((s1 << 1) | (s1 >> 1) | (s1 << 10) | (s1 >> 10)) & BAND_FULL) | (s0 >> 20) | ((s2 & ROW_BITS) << 20)
    b2 = (((s2 << 1) | (s2 >> 1) | (s2 << 10) | (s2 >> 10)) & BAND_FULL) | (s1 >> 20)
    return b0, b1, b2


@njit(cache=True, nogil=True, inline="always")
def _strike(states, k, digit, b, cells):
    """Clear ``digit`` (0-based) from ``cells`` of band b: 1 if a candidate went, 0 if none, -1 if one of them was
    filled with it (two consecutive digits side by side)."""
    word = np.int64(states[k, 3 * digit + b])
    hit = word & cells
    if hit == 0:
        return 0
    if hit & ~np.int64(states[k, S_UNSOLVED + b]) != 0:
        return -1
    states[k, 3 * digit + b] = word & ~hit
    band._lose(states, k, b, hit)
    return 1


@njit(cache=True, nogil=True, inline="always")
def _strike3(states, k, digit, c0, c1, c2):
    """``_strike`` on three band words; the digit as a bit when a candidate went, 0 if none, -1 on a filled one."""
    s0 = _strike(states, k, digit, 0, c0)
    s1 = _strike(states, k, digit, 1, c1)
    s2 = _strike(states, k, digit, 2, c2)
    if s0 < 0 or s1 < 0 or s2 < 0:
        return np.int64(-1)
    return np.int64(s0 | s1 | s2) << digit


@njit(cache=True, nogil=True, inline="always")
def _unseen(states, k, b):
    """The cells of band b that ``_support`` has not looked at with their present digits: empty cells of one to
    three candidates whose count is not the one seen, filled cells not seen filled (a cell of four or more
    candidates lies in no three consecutive digits). Marks them seen."""
    unsolved = np.int64(states[k, S_UNSOLVED + b])
    base = band.S_COUNT + 4 * b
    ones, twos = np.int64(states[k, base]), np.int64(states[k, base + 1])
    few = unsolved & ~(np.int64(states[k, base + 2]) | np.int64(states[k, base + 3]))  # counts 0-3 (0: none left)
    filled = BAND_FULL & ~unsolved
    fresh = (few & ((ones ^ np.int64(states[k, S_SEEN_ONES + b])) | (twos ^ np.int64(states[k, S_SEEN_TWOS + b])))
             ) | (filled & ~np.int64(states[k, S_SEEN_FILLED + b]))
    states[k, S_SEEN_ONES + b] = ones & few
    states[k, S_SEEN_TWOS + b] = twos & few
    states[k, S_SEEN_FILLED + b] = filled
    return fresh


@borrowing
def _support(states, k, scratch):
    """A cell whose candidates all lie in {e - 1, e, e + 1} (a filled cell: its digit one of those) forbids e to
    the cells beside it. The digits whose words changed (a bit set), or -1 when a filled cell would lose its digit.
    Only the cells not seen since the last pass (``_unseen``): a cell's strikes depend on its digits alone, and
    those of a cell seen are done (words only shrink). ``scratch`` (int64[27]) gets the ORs of the words of
    digits d..8, three a digit."""
    f0 = _unseen(states, k, 0)
    f1 = _unseen(states, k, 1)
    f2 = _unseen(states, k, 2)
    if f0 | f1 | f2 == 0:
        return np.int64(0)
    h0 = h1 = h2 = np.int64(0)
    for digit in range(8, -1, -1):
        h0 |= np.int64(states[k, 3 * digit])
        h1 |= np.int64(states[k, 3 * digit + 1])
        h2 |= np.int64(states[k, 3 * digit + 2])
        scratch[3 * digit] = h0
        scratch[3 * digit + 1] = h1
        scratch[3 * digit + 2] = h2
    touched = np.int64(0)
    bad = np.int64(0)
    l0 = l1 = l2 = np.int64(0)  # the ORs of the words of digits 0..e-2
    for e in range(9):
        if e >= 2:
            l0 |= np.int64(states[k, 3 * (e - 2)])
            l1 |= np.int64(states[k, 3 * (e - 2) + 1])
            l2 |= np.int64(states[k, 3 * (e - 2) + 2])
        o0, o1, o2 = l0, l1, l2
        if e <= 6:
            o0 |= scratch[3 * (e + 2)]
            o1 |= scratch[3 * (e + 2) + 1]
            o2 |= scratch[3 * (e + 2) + 2]
        s0, s1, s2 = f0 & ~o0, f1 & ~o1, f2 & ~o2
        if s0 | s1 | s2 == 0:
            continue
        b0, b1, b2 = _beside(s0, s1, s2)
        hit = np.int64(0)
        for b in range(3):  # no branch on what a strike finds: a filled cell's loss is one test at the end
            cells = b0 if b == 0 else (b1 if b == 1 else b2)
            word = np.int64(states[k, 3 * e + b])
            lost = word & cells
            bad |= lost & ~np.int64(states[k, S_UNSOLVED + b])
            states[k, 3 * e + b] = word & ~lost
            band._lose(states, k, b, lost)
            hit |= lost
        touched |= np.int64(hit != 0) << e
    if bad != 0:
        return -1
    states[k, S_HIDDEN_DIRTY] |= touched
    states[k, S_LOCKED_DIRTY] |= touched
    return touched


@njit(cache=True, nogil=True, inline="always")
def _lane_nonempty(x):
    """The rows (10-bit lanes) of a band word that hold a bit, as full 9-bit row masks."""
    return (((x + ROW_BITS * ROW_LOW) & band.GUARDS) >> 9) * ROW_BITS


@njit(cache=True, nogil=True, inline="always")
def _row_near(x):
    """The cells of a band word's rows with every bit of their row (at least one) at most one column away."""
    up = (x | ((~x & BAND_FULL) + ROW_LOW)) & BAND_FULL  # each row from its lowest bit up (a lane-wise negation)
    down = x | ((x >> 1) & LANES_0_7)  # each row from its highest bit down
    down |= (down >> 2) & LANES_0_6
    down |= (down >> 4) & LANES_0_4
    down |= (down >> 8) & ROW_LOW
    far = ((up & LANES_0_6) << 2) | ((down & LANES_2_8) >> 2)
    return _lane_nonempty(x) & ~far


@njit(cache=True, nogil=True, inline="always")
def _column_near(x0, x1, x2):
    """The cells whose column holds a bit (of three band words) and none two or more rows away."""
    f0 = (x0 | (x0 >> 10) | (x0 >> 20)) & ROW_BITS
    f1 = (x1 | (x1 >> 10) | (x1 >> 20)) & ROW_BITS
    f2 = (x2 | (x2 >> 10) | (x2 >> 20)) & ROW_BITS
    # a: each column from its top bit down (rows of higher index); d: from its bottom bit up
    a0 = (x0 | (x0 << 10) | (x0 << 20)) & BAND_FULL
    a1 = ((x1 | (x1 << 10) | (x1 << 20)) & BAND_FULL) | (f0 * ROW_LOW)
    d1 = (x1 | (x1 >> 10) | (x1 >> 20)) | (f2 * ROW_LOW)
    d2 = x2 | (x2 >> 10) | (x2 >> 20)
    d0 = (x0 | (x0 >> 10) | (x0 >> 20)) | ((f1 | f2) * ROW_LOW)
    a2 = ((x2 | (x2 << 10) | (x2 << 20)) & BAND_FULL) | ((f0 | f1) * ROW_LOW)
    far0 = ((a0 << 20) & BAND_FULL) | (d0 >> 20) | ((d1 << 10) & BAND_FULL)
    far1 = ((a1 << 20) & BAND_FULL) | (a0 >> 10) | (d1 >> 20) | ((d2 << 10) & BAND_FULL)
    far2 = ((a2 << 20) & BAND_FULL) | (a1 >> 10) | (d2 >> 20)
    columns = (f0 | f1 | f2) * ROW_LOW
    return columns & ~far0, columns & ~far1, columns & ~far2


def _box_near_table() -> NDArray[np.int64]:
    """For each set of places in a box (bit 3 * row + column), the cells of the box beside or on every place when
    there are two to five of them, else none (with one, the cells beside it outside the box would count too)."""
    table = np.zeros(512, np.int64)
    for places in range(512):
        if not 2 <= bin(places).count("1") <= 5:
            continue
        for cell in range(9):
            row, column = divmod(cell, 3)
            near = {cell} | {3 * r + c for r, c in ((row - 1, column), (row + 1, column), (row, column - 1),
                                                    (row, column + 1)) if 0 <= r < 3 and 0 <= c < 3}
            if all(place in near for place in range(9) if places >> place & 1):
                table[places] |= 1 << cell
    return table


BOX_NEAR = _box_near_table()


@njit(cache=True, nogil=True, inline="always")
def _box_near(x):
    """The cells of a band word beside or on every place of a box that has two to five of them (``BOX_NEAR``, one
    lookup a box)."""
    near = np.int64(0)
    for box in range(3):
        shift = 3 * box
        places = ((x >> shift) & 7) | ((x >> (shift + 7)) & 0x38) | ((x >> (shift + 14)) & 0x1C0)
        cells = BOX_NEAR[places]
        near |= ((cells & 7) | ((cells & 0x38) << 7) | ((cells & 0x1C0) << 14)) << shift
    return near


@borrowing
def _neighbourhood(states, k):
    """For each digit, the cells beside or on all of its places in a row, a column or a box lose the digits one
    above and one below; the digits whose words changed, or -1 when a filled cell would lose its digit. Only the
    digits whose words changed since the last pass: words only shrink, so the others would strike nothing new."""
    touched = np.int64(0)
    dirty = np.int64(states[k, S_NEAR_DIRTY]) | np.int64(states[k, S_LOCKED_DIRTY])
    states[k, S_NEAR_DIRTY] = 0
    while dirty != 0:
        digit = lowest_bit_index(dirty)
        dirty &= dirty - 1
        x0 = np.int64(states[k, 3 * digit])
        x1 = np.int64(states[k, 3 * digit + 1])
        x2 = np.int64(states[k, 3 * digit + 2])
        c0, c1, c2 = _column_near(x0, x1, x2)
        n0 = c0 | _row_near(x0) | _box_near(x0)
        n1 = c1 | _row_near(x1) | _box_near(x1)
        n2 = c2 | _row_near(x2) | _box_near(x2)
        for other in range(digit - 1, digit + 2, 2):
            if 0 <= other < 9:
                struck = _strike3(states, k, other, n0, n1, n2)
                if struck < 0:
                    return -1
                touched |= struck
    states[k, S_HIDDEN_DIRTY] |= touched
    states[k, S_LOCKED_DIRTY] |= touched
    return touched


@borrowing
def _propagate(states, k, flags, scratch):
    """The band kernel's rules in ``flags`` and the relation's, to a fixpoint; the cells filled, or -1 on a
    contradiction. ``_support`` runs after every pass that filled cells, before any other: it is their strike."""
    naked = flags & NAKED_SINGLES != 0
    filled = 0
    while True:
        count = band._naked_singles(states, k, naked)
        if count < 0:
            return -1
        filled += count
        if count > 0:
            continue
        changed = _support(states, k, scratch)
        if changed < 0:
            return -1
        if changed > 0:
            continue
        if flags & HIDDEN_SINGLES:
            count = band._hidden_singles(states, k)
            if count < 0:
                return -1
            filled += count
            if count > 0:
                continue
        if flags & LOCKED_CANDIDATES:
            states[k, S_NEAR_DIRTY] |= states[k, S_LOCKED_DIRTY]
            count = band._locked_candidates(states, k)
            if count < 0:
                return -1
            if count > 0:
                continue
            changed = _neighbourhood(states, k)
            if changed < 0:
                return -1
            if changed > 0:
                continue
        return filled


@njit(cache=True, nogil=True, inline="always")
def _weight(states, k, digit, m0, m1, m2, t0, t1, t2):
    """The cells of a mask holding ``digit``, those with two candidates counted ``PAIR_WEIGHT`` times."""
    x0 = np.int64(states[k, 3 * digit]) & m0
    x1 = np.int64(states[k, 3 * digit + 1]) & m1
    x2 = np.int64(states[k, 3 * digit + 2]) & m2
    return popcount(x0) + popcount(x1) + popcount(x2) + (PAIR_WEIGHT - 1) * (
        popcount(x0 & t0) + popcount(x1 & t1) + popcount(x2 & t2))


@borrowing
def _score(states, k, cell, digits, tables, t0, t1, t2, neighbour_weight):
    """How much a cell's digits weigh among its peers, and their neighbours among its neighbours, these counted
    ``neighbour_weight`` times (module doc)."""
    peers, adjacent = tables.peers, tables.adjacent
    score = 0
    while digits != 0:
        digit = lowest_bit_index(digits)
        digits &= digits - 1
        score += _weight(states, k, digit, peers[cell, 0], peers[cell, 1], peers[cell, 2], t0, t1, t2)
        for near in range(digit - 1, digit + 2, 2):
            if 0 <= near < 9:
                score += neighbour_weight * _weight(states, k, near, adjacent[cell, 0], adjacent[cell, 1],
                                                    adjacent[cell, 2], t0, t1, t2)
    return score


@njit(cache=True, nogil=True, inline="always")
def _cells_with(states, k, b, count):
    """The empty cells of band b with ``count`` candidates."""
    base = band.S_COUNT + 4 * b
    return np.int64(states[k, S_UNSOLVED + b]) & extra9._with_count(
        np.int64(states[k, base]), np.int64(states[k, base + 1]), np.int64(states[k, base + 2]),
        np.int64(states[k, base + 3]), count)


@borrowing
def choose(states, k, tables, wide):
    """The empty cell with the fewest candidates and its digits (cell -1 when the grid is full); among several,
    the one with the highest ``_score`` (the first such). With ``wide`` (the generator's searches: ``search_in``
    with a guide) and ``WIDEN_UP_TO`` such cells or fewer, the cells of one candidate more compete too, the one
    with the highest ``_score`` over its count squared winning (module doc)."""
    planes = np.int64(0)
    t0 = t1 = t2 = np.int64(0)
    best_count = 10
    for b in range(3):  # the fewest candidates of any empty cell, and the two-candidate cells
        unsolved = np.int64(states[k, S_UNSOLVED + b])
        if unsolved == 0:
            continue
        base = band.S_COUNT + 4 * b
        c0, c1 = np.int64(states[k, base]), np.int64(states[k, base + 1])
        c2, c3 = np.int64(states[k, base + 2]), np.int64(states[k, base + 3])
        one = unsolved & extra9._with_count(c0, c1, c2, c3, 1)
        if one != 0:
            pos = lowest_bit_index(one)
            return 9 * (3 * b + pos // 10) + pos % 10, extra9._digits(states, k, b, pos)
        two = unsolved & extra9._with_count(c0, c1, c2, c3, 2)
        if b == 0:
            t0 = two
        elif b == 1:
            t1 = two
        else:
            t2 = two
        for count in range(2, best_count):
            if unsolved & extra9._with_count(c0, c1, c2, c3, count) != 0:
                best_count = count
                break
        planes += 1
    if planes == 0:
        return -1, np.int64(0)
    x0 = _cells_with(states, k, 0, best_count)
    x1 = _cells_with(states, k, 1, best_count)
    x2 = _cells_with(states, k, 2, best_count)
    if wide and popcount(x0) + popcount(x1) + popcount(x2) <= WIDEN_UP_TO:
        x0 |= _cells_with(states, k, 0, best_count + 1)
        x1 |= _cells_with(states, k, 1, best_count + 1)
        x2 |= _cells_with(states, k, 2, best_count + 1)
    if popcount(x0) + popcount(x1) + popcount(x2) == 1:
        b = 0 if x0 != 0 else (1 if x1 != 0 else 2)
        pos = lowest_bit_index(x0 | x1 | x2)
        return 9 * (3 * b + pos // 10) + pos % 10, extra9._digits(states, k, b, pos)
    best_cell, best_digits = -1, np.int64(0)
    best_score, best_square = np.int64(-1), np.int64(1)
    for b in range(3):
        cells = x0 if b == 0 else (x1 if b == 1 else x2)
        if cells == 0:
            continue
        words = band._band_words(states, k, b)
        while cells != 0:
            pos = lowest_bit_index(cells)
            cells &= cells - 1
            cell = 9 * (3 * b + pos // 10) + pos % 10
            digits = band._digits_meeting(words, np.int64(1) << pos)
            score = _score(states, k, cell, digits, tables, t0, t1, t2,
                           WIDE_NEIGHBOUR_WEIGHT if wide else NEIGHBOUR_WEIGHT)
            square = popcount(digits) * popcount(digits)
            if score * best_square > best_score * square:  # score / square > best_score / best_square
                best_cell, best_digits, best_score, best_square = cell, digits, score, square
    return best_cell, best_digits


@borrowing
def _load_givens(cells, states):
    """State 0 from the givens (the band kernel's loading, then the relation's strikes); -1 when fine, else
    ``INVALID`` (a digit above 9, equal digits in a unit, consecutive digits side by side) or ``CONTRADICTION`` (an
    empty cell left without a candidate by the givens' strikes)."""
    status = band._load_givens(cells, states)
    if status == INVALID:
        return INVALID
    for digit in range(8):  # state 1 holds each digit's givens (``sudoku9._load_givens``)
        b0, b1, b2 = _beside(np.int64(states[1, 3 * digit]), np.int64(states[1, 3 * digit + 1]),
                             np.int64(states[1, 3 * digit + 2]))
        if (b0 & np.int64(states[1, 3 * digit + 3])) | (b1 & np.int64(states[1, 3 * digit + 4])) | (
                b2 & np.int64(states[1, 3 * digit + 5])) != 0:
            return INVALID
    if status >= 0:
        return status
    k = np.int64(0)
    for digit in range(9):
        b0, b1, b2 = _beside(np.int64(states[1, 3 * digit]), np.int64(states[1, 3 * digit + 1]),
                             np.int64(states[1, 3 * digit + 2]))
        for other in range(digit - 1, digit + 2, 2):
            if 0 <= other < 9:
                _strike3(states, k, other, b0, b1, b2)  # no given of ``other`` is beside one: checked above
    for b in range(3):
        base = band.S_COUNT + 4 * b
        some = np.int64(states[0, base]) | np.int64(states[0, base + 1]) | np.int64(states[0, base + 2]) | np.int64(
            states[0, base + 3])
        if np.int64(states[0, S_UNSOLVED + b]) & ~some != 0:
            return CONTRADICTION
    states[0, S_HIDDEN_DIRTY] = 0x1FF
    states[0, S_LOCKED_DIRTY] = 0x1FF
    states[0, S_NEAR_DIRTY] = 0x1FF
    for b in range(3):  # the givens' strikes are done above; ``_support`` looks at every empty cell once
        states[0, S_SEEN_ONES + b] = 0
        states[0, S_SEEN_TWOS + b] = 0
        states[0, S_SEEN_FILLED + b] = BAND_FULL & ~np.int64(states[0, S_UNSOLVED + b])
    return -1


@njit(cache=True, nogil=True, inline="always")
def _pick(rest, cell, guide, guided, randomised, rng):
    """The digit (0-based) a frame tries next: the guide's when it is left, else a random one with
    ``RANDOM_ORDER``, else the lowest."""
    if guided and (rest >> (np.int64(guide[cell]) - 1)) & 1 != 0:
        return np.int64(guide[cell]) - 1
    if randomised:
        return np.int64(random_bit(rng, np.uint64(rest)))
    return lowest_bit_index(rest)


@njit(cache=True, nogil=True, inline="always")
def _choose_in(states, k, context):
    """``band_search``'s choice: ``choose`` with the tables, wide in the generator's searches (``context``:
    tables, scratch, guide, guided, randomised, rng)."""
    return choose(states, k, context[0], context[3])


@njit(cache=True, nogil=True, inline="always")
def _place_in(states, k, digit, cell, context):
    """``band_search``'s placement: the band kernel's (the relation's strike is ``_propagate``'s first pass)."""
    return band._place(states, k, digit, band.CELL_BAND[cell], band.CELL_POS[cell])


@njit(cache=True, nogil=True, inline="always")
def _propagate_in(states, k, flags, context):
    """``band_search``'s propagation: ``_propagate`` with the scratch row."""
    return _propagate(states, k, flags, context[1])


@njit(cache=True, nogil=True, inline="always")
def _pick_in(rest, cell, node, flags, context):
    """``band_search``'s digit order: ``_pick`` (the guide's digit first, then random or the lowest)."""
    _, _, guide, guided, randomised, rng = context
    digit = _pick(rest, cell, guide, guided, randomised, rng)
    return digit, rest & ~(np.int64(1) << digit)


@borrowing
def search_in(ws, cells, tables, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop):
    """``search`` in a workspace the caller reuses (``new_workspace()``), with the generator's extras, those of
    ``variant81.search_in``: ``guide`` (uint8[81], or empty) is a grid whose digit is tried first at each branch;
    ``changed_cell`` (-1 for none) loses ``guide[changed_cell]`` before the search; ``rng`` (a ``rng.py`` state) is
    drawn from, and advanced, only with ``RANDOM_ORDER``. The givens are loaded here, the search runs in the band
    kernels' shared loop (``band_search.search``). ``@borrowing``, as ``extra9.search_in``: no reference counts
    around the inlined loop."""
    states, frames, scratch = ws
    stats[:] = 0
    states = band._borrowed(states)
    status = _load_givens(cells, states)
    if status >= 0:
        return status
    if stop[0] != 0:
        return STOPPED
    stats[STAT_NODES] = 1
    if changed_cell >= 0 and cells[changed_cell] == 0:
        digit = np.int64(guide[changed_cell]) - 1
        if _strike(states, np.int64(0), digit, band.CELL_BAND[changed_cell],
                   np.int64(1) << band.CELL_POS[changed_cell]) > 0:
            states[0, S_HIDDEN_DIRTY] |= np.int64(1) << digit
            states[0, S_LOCKED_DIRTY] |= np.int64(1) << digit
    context = (tables, scratch, guide, guide.shape[0] == N_CELLS, flags & RANDOM_ORDER != 0, rng)
    return band_search.search(_choose_in, _place_in, _propagate_in, _pick_in, band._write_solution, context, states,
                              frames, limit, max_nodes, flags, solutions, stats, stop)


@njit(cache=True, nogil=True)
def search(cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    """Search a 9x9 nonconsecutive puzzle for up to ``limit`` solutions within a node budget: the parameters,
    counters and status codes of ``variant81.search``, with ``tables_for(geometry)`` as the tables.
    Memory: one 16 KB stack a call."""
    return search_in(new_workspace_compiled(), cells, tables, limit, max_nodes, flags, solutions, stats,
                     np.ones(1, np.uint64), np.zeros(0, np.uint8), np.int64(-1), stop)


@njit(cache=True, nogil=True)
def count_many(puzzles, tables, limit, max_nodes, flags, statuses, counts, nodes, stop):
    """``search`` for each row of ``puzzles`` (uint8[B, 81]) in one workspace, without keeping solutions (the batch
    loop of ``variant81.count_many``, same arguments but the tables)."""
    ws = new_workspace_compiled()
    stats = np.zeros(N_STATS, np.int64)
    no_solutions = np.zeros((0, N_CELLS), np.uint8)
    rng = np.ones(1, np.uint64)
    no_guide = np.zeros(0, np.uint8)
    for row in range(puzzles.shape[0]):
        statuses[row] = search_in(ws, puzzles[row], tables, limit, max_nodes, flags, no_solutions, stats, rng,
                                  no_guide, np.int64(-1), stop)
        counts[row] = stats[STAT_SOLUTIONS]
        nodes[row] = stats[STAT_NODES]
