"""Classic 9x9 plus extra units (X's diagonals, Windoku's windows) on the band kernel's bitboards (issue 14).

An X or Windoku grid is a classic grid with a few more units. ``variant81.py`` treats every unit alike on two-word
81-bit boards and scans units one by one; a node there costs 1.4-2 µs against ~0.3 µs in the classic band kernel
(``sudoku9.py``). This kernel keeps the band kernel's state and rules as they are (imported, not copied: its
placement, naked and hidden singles, locked candidates by triad permutations, count planes and branching) and adds
the extra units beside them, as masks in the band layout (three words a mask, one a band):

* a placement of digit d in a cell on an extra unit also clears d from the cell's extra-unit peers
  (``_strike``); a peer already filled with d is a contradiction (the band kernel's rules do not see it);
* after each of the band kernel's passes, the cells it filled get the same strike (they are the cells that left
  ``unsolved``, their digit the one word that still holds them);
* for X, at the fixpoint of the other rules, the strong links through the diagonals (``_diagonal_links``): a row
  or column with two places of a digit, one on a diagonal, clears the diagonal's cell in the other place's column
  (row); a box on a diagonal whose places are all on it clears the rest of the diagonal;
* hidden singles and locked candidates in the extra units (``_extra_units``), only in the units where a digit's
  places changed since they were last scanned (a snapshot of each digit's words on the extra units' cells): no
  place fails, one place fills it, two or three leave every cell that sees them all (the AND of their peer masks,
  classic and extra: pointing from a diagonal or a window into a row, column or box, and back), after the band
  kernel's hidden singles; for X, ``_diagonals`` does the same with the two diagonals as constants;
* Windoku's five implied units (``WINDOKU_IMPLIED``) are extra units too;
* branching: the band kernel's fewest candidates, but among two-candidate cells the one whose digits its peers,
  classic and extra, hold most (``choose``); for X (not Windoku) the same score among three or more candidates
  when no cell has two, and two-candidate cells on a diagonal before the others.

Locked candidates from a row, column or box into an extra unit (its places all on a diagonal or in a window) were
tried and lost: fewer nodes, more time (benchmarks/results/variant_speed4.md), except X's strong links through the
diagonals, the part of them that cuts X's nodes (variant_speed10.md). They, and the scored ties, are all that
``variant81`` does and this kernel does not: with both (and no diagonal first), X takes exactly
``variant81``'s nodes (benchmarks/results/variant_speed6.md, ``variant_nodes_bench.py roots``). So the search
differs from ``variant81``'s (other nodes, solutions in another order), but not its answers: solution counts and
statuses (``INVALID`` for equal givens in a unit of the rules, ``CONTRADICTION`` for an empty cell the givens leave
without a candidate) are the same, which the tests hold against the reference engine and ``variant81``.

Which geometries: ``tables_for`` gives tables only for a geometry whose units start with the classic 27 and whose
peers are unit mates (no knight, king or nonconsecutive relation); None otherwise, and the caller keeps
``variant81``. The generator keeps ``variant81`` too (its fills and removal checks draw the committed puzzles).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic
from numpy.typing import NDArray

from bitdoku.kernels import band_search
from bitdoku.kernels import sudoku9 as band
from bitdoku.kernels.bits import lowest_bit_index, popcount
from bitdoku.kernels.jit import borrowing
from bitdoku.kernels.status import (
    COMPLETE,
    CONTRADICTION,
    HIDDEN_SINGLES,
    INVALID,
    LOCKED_CANDIDATES,
    N_STATS,
    NAKED_SINGLES,
    STAT_NODES,
    STAT_SOLUTIONS,
    STOPPED,
)

if TYPE_CHECKING:
    from bitdoku.geometry import Geometry

N_CELLS = 81
N_CLASSIC_UNITS = 27
S_UNSOLVED = band.S_UNSOLVED
S_HIDDEN_DIRTY = band.S_HIDDEN_DIRTY
S_LOCKED_DIRTY = band.S_LOCKED_DIRTY
#: ``choose``'s weight of a two-candidate peer: 1, 6 and 10 took 48.9, 40.4 and 40.5 nodes a puzzle on the X set,
#: 24.8, 22.0 and 22.2 on Windoku (benchmarks/results/variant_speed4.md); ``variant81`` uses 6 too.
PAIR_WEIGHT = 6
#: The same weight for X, whose two-candidate cells on a diagonal go first: 6, 12 and 20 took 36.1, 35.4 and 35.3
#: nodes a puzzle (40 and 200 as 20: the two-candidate peers decide, the others break ties); Windoku 7.1 at 6 and 20.
X_PAIR_WEIGHT = 20
#: After the band kernel's words: each digit's words as the extra units last saw them, on the extra units' cells
#: (three a digit): a unit none of whose places changed since gives nothing new.
S_EXTRA_SEEN = band.STATE_WORDS
STATE_WORDS = S_EXTRA_SEEN + 27
MAX_DEPTH = band.MAX_DEPTH


#: Rows of the table (``tables_for``), three band words each: each cell's extra-unit mates (implied units too),
#: the same of the geometry's own extra units only (the givens' strikes at loading), each cell's peers (classic and
#: extra), the cells on some extra unit, the numbers of the geometry's extra units and of all of them (implied ones
#: after) and whether ``choose`` scores ties above two candidates (not for Windoku), whether the extra units are X's
#: two diagonals and nothing else (``_diagonals``, first column), then the extra units. One array,
#: not a named tuple of five: each array a compiled call takes costs the dispatcher's unboxing (0.3 µs a call and
#: more, measured).
EXTRA_PEERS = 0
OWN_PEERS = 81
ALL_PEERS = 162
ON_EXTRA = 243
SIZES = 244
DIAGONALS = 245
UNITS = 246
#: Windoku's implied units: the cells of rows 1, 5, 9 in columns 2-4 (and 6-8) hold every digit once, since
#: columns 2-4 hold each digit three times and their two windows twice; the same across, and rows 1, 5, 9 by
#: columns 1, 5, 9 is what rows 1, 5, 9 leave. Units of every solution, so strikes, hidden singles and locked
#: candidates in them are sound; not of the puzzle's rules, so equal givens in one are no ``INVALID`` (the search
#: finds no solution, as the other kernels do).
_EDGE_LINES, _WINDOW_LINES = (0, 4, 8), ((1, 2, 3), (5, 6, 7))
WINDOKU_IMPLIED = [[9 * row + column for row in rows for column in columns]
                   for rows, columns in [(_EDGE_LINES, lines) for lines in _WINDOW_LINES]
                   + [(lines, _EDGE_LINES) for lines in _WINDOW_LINES] + [(_EDGE_LINES, _EDGE_LINES)]]


#: X's two diagonals, r1c1-r9c9 and r1c9-r9c1: when they are all the extra units (``DIAGONALS`` in the table),
#: ``_diagonals`` runs in place of ``_extra_units`` and ``choose`` takes two-candidate cells on them first.
X_DIAGONALS = [[10 * row for row in range(9)], [8 * row + 8 for row in range(9)]]


def _band_mask(cells: list[int]) -> NDArray[np.int64]:
    """Cells as three band words."""
    out = np.zeros(3, np.int64)
    for cell in cells:
        out[band.CELL_BAND[cell]] |= np.int64(1) << np.int64(band.CELL_POS[cell])
    return out


MAIN0, MAIN1, MAIN2 = (int(word) for word in _band_mask(X_DIAGONALS[0]))
ANTI0, ANTI1, ANTI2 = (int(word) for word in _band_mask(X_DIAGONALS[1]))


@lru_cache(maxsize=64)  # bounded as geometry.GEOMETRIES_KEPT: geometries come from input
def tables_for(geometry: Geometry) -> NDArray[np.int64] | None:
    """The extra-unit masks of a 9x9 geometry that is the classic one plus extra units, or None when it is not
    (another size, jigsaw regions, or a relation between cells outside the units). Cached per geometry."""
    tables = geometry.tables
    if geometry.shape.n_cells != N_CELLS or geometry.is_classic or tables.adjacent.shape[0] != 0:
        return None
    units = tables.units
    if units.shape[0] <= N_CLASSIC_UNITS or not band.is_standard9_table(units[:N_CLASSIC_UNITS]):
        return None
    mates: list[set[int]] = [set() for _ in range(N_CELLS)]
    for members in units.tolist():
        for cell in members:
            mates[cell].update(members)
    for cell in range(N_CELLS):
        mates[cell].discard(cell)
        if mates[cell] != set(tables.peers[tables.peer_start[cell] : tables.peer_start[cell + 1]].tolist()):
            return None  # knight or king relations: not units
    own = units[N_CLASSIC_UNITS:].tolist()
    extra = own + (WINDOKU_IMPLIED if "windoku" in geometry.rules else [])
    table = np.zeros((UNITS + len(extra), 3), np.int64)
    for unit, members in enumerate(extra):
        for cell in members:
            mask = _band_mask([other for other in members if other != cell])
            table[EXTRA_PEERS + cell] |= mask
            if unit < len(own):
                table[OWN_PEERS + cell] |= mask
            mates[cell].update(members)
    for cell in range(N_CELLS):
        mates[cell].discard(cell)
        table[ALL_PEERS + cell] = _band_mask(sorted(mates[cell]))
    table[ON_EXTRA] = _band_mask(sorted({cell for members in extra for cell in members}))
    table[SIZES] = len(own), len(extra), "windoku" not in geometry.rules  # the last: ``choose``'s ties
    table[DIAGONALS, 0] = sorted(map(sorted, extra)) == sorted(map(sorted, X_DIAGONALS))
    for row, members in enumerate(extra):
        table[UNITS + row] = _band_mask(members)
    table.flags.writeable = False
    return table


@njit(cache=True, nogil=True, inline="always")
def _strike(states, k, digit, cell, tables):
    """Clear ``digit`` from the extra-unit peers of ``cell`` (just filled with it); False when one of them is
    already filled with that digit."""
    struck = np.int64(0)
    for b in range(3):
        mask = tables[EXTRA_PEERS + cell, b]
        word = np.int64(states[k, 3 * digit + b])
        hit = word & mask
        if hit & ~np.int64(states[k, S_UNSOLVED + b]) != 0:
            return False
        states[k, 3 * digit + b] = word & ~mask
        band._lose(states, k, b, hit)
        struck |= hit
    if struck != 0:
        states[k, S_HIDDEN_DIRTY] |= np.int64(1) << digit
        states[k, S_LOCKED_DIRTY] |= np.int64(1) << digit
    return True


@borrowing
def _strike_filled(states, k, before0, before1, before2, tables):
    """``_strike`` for every cell on an extra unit that a band-kernel pass filled (empty in ``before``, filled
    now); False on a contradiction. The cell's digit by one vector test (``sudoku9._digits_meeting``), not a loop
    that stops at a random digit."""
    for b in range(3):
        before = before0 if b == 0 else (before1 if b == 1 else before2)
        filled = before & ~np.int64(states[k, S_UNSOLVED + b]) & tables[ON_EXTRA, b]
        while filled != 0:
            pos = lowest_bit_index(filled)
            filled &= filled - 1
            digit = lowest_bit_index(band._digits_meeting(band._band_words(states, k, b), np.int64(1) << pos))
            if not _strike(states, k, digit, 9 * (3 * b + pos // 10) + pos % 10, tables):
                return False
    return True


@borrowing
def _place(states, k, digit, cell, tables):
    """Fill ``cell`` with ``digit`` (0-based): the band kernel's placement, then the extra units' strike."""
    if not band._place(states, k, digit, band.CELL_BAND[cell], band.CELL_POS[cell]):
        return False
    return _strike(states, k, digit, cell, tables)


@njit(cache=True, nogil=True, inline="always")
def _changed_places(states, k, digit, on0, on1, on2):
    """The places of ``digit`` on the extra units' cells (band masks ``on``) that changed since the last call
    for it (a snapshot in ``S_EXTRA_SEEN``, updated here): a unit none of whose places changed gives nothing new."""
    base = 3 * digit
    seen = S_EXTRA_SEEN + base
    w0 = np.int64(states[k, base]) & on0
    w1 = np.int64(states[k, base + 1]) & on1
    w2 = np.int64(states[k, base + 2]) & on2
    d0 = w0 ^ np.int64(states[k, seen])
    d1 = w1 ^ np.int64(states[k, seen + 1])
    d2 = w2 ^ np.int64(states[k, seen + 2])
    if d0 | d1 | d2 != 0:
        states[k, seen] = w0
        states[k, seen + 1] = w1
        states[k, seen + 2] = w2
    return d0, d1, d2


@njit(cache=True, nogil=True, inline="always")
def _unit(states, k, digit, m0, m1, m2, hidden, locked, tables):
    """One digit in one extra unit (band masks ``m``): no place fails, one place fills it, two or three leave every
    cell that sees them all (the AND of their peer masks, classic and extra). -1 on a contradiction, 1 when it
    filled a cell, 2 when it cleared candidates, else 0."""
    x0 = np.int64(states[k, 3 * digit]) & m0
    x1 = np.int64(states[k, 3 * digit + 1]) & m1
    x2 = np.int64(states[k, 3 * digit + 2]) & m2
    if x0 | x1 | x2 == 0:
        return -1
    count = popcount(x0) + popcount(x1) + popcount(x2)
    if count == 1:
        b = 0 if x0 != 0 else (1 if x1 != 0 else 2)
        pos = lowest_bit_index(x0 | x1 | x2)
        if not hidden or (np.int64(states[k, S_UNSOLVED + b]) >> pos) & 1 == 0:
            return 0  # the digit is placed in this unit (its strike took the rest)
        return 1 if _place(states, k, digit, 9 * (3 * b + pos // 10) + pos % 10, tables) else -1
    if locked and count <= 3 and _lock(states, k, digit, x0, x1, x2, tables):
        return 2
    return 0


@borrowing
def _extra_units(states, k, flags, tables):
    """Hidden singles and locked candidates (``_unit``) in the extra units whose places of a digit changed since
    this pass last saw them (``_changed_places``). (-1 on a contradiction, else the cells filled; boards
    changed)."""
    hidden = flags & HIDDEN_SINGLES != 0
    locked = flags & LOCKED_CANDIDATES != 0
    filled = changed = 0
    units = tables[UNITS : UNITS + tables[SIZES, 1]]
    for digit in range(9):
        d0, d1, d2 = _changed_places(states, k, digit, tables[ON_EXTRA, 0], tables[ON_EXTRA, 1], tables[ON_EXTRA, 2])
        if d0 | d1 | d2 == 0:
            continue
        for unit in range(units.shape[0]):
            if (d0 & units[unit, 0]) | (d1 & units[unit, 1]) | (d2 & units[unit, 2]) == 0:
                continue
            result = _unit(states, k, digit, units[unit, 0], units[unit, 1], units[unit, 2], hidden, locked, tables)
            if result < 0:
                return -1, changed
            if result == 1:
                filled += 1
            elif result == 2:
                changed += 1
    return filled, changed


@borrowing
def _diagonals(states, k, flags, tables):
    """``_extra_units`` for X (``DIAGONALS`` in the table): the same steps, with the two diagonals' masks as
    constants instead of rows of the table (the same deductions, so the same nodes)."""
    hidden = flags & HIDDEN_SINGLES != 0
    locked = flags & LOCKED_CANDIDATES != 0
    filled = changed = 0
    for digit in range(9):
        d0, d1, d2 = _changed_places(states, k, digit, MAIN0 | ANTI0, MAIN1 | ANTI1, MAIN2 | ANTI2)
        if d0 | d1 | d2 == 0:
            continue
        for anti in range(2):
            if anti == 0:
                if (d0 & MAIN0) | (d1 & MAIN1) | (d2 & MAIN2) == 0:
                    continue
                result = _unit(states, k, digit, MAIN0, MAIN1, MAIN2, hidden, locked, tables)
            else:
                if (d0 & ANTI0) | (d1 & ANTI1) | (d2 & ANTI2) == 0:
                    continue
                result = _unit(states, k, digit, ANTI0, ANTI1, ANTI2, hidden, locked, tables)
            if result < 0:
                return -1, changed
            if result == 1:
                filled += 1
            elif result == 2:
                changed += 1
    return filled, changed


@njit(cache=True, nogil=True, inline="always")
def _lock(states, k, digit, x0, x1, x2, tables):
    """Clear ``digit`` from every cell that sees all its places ``x`` in a unit; whether a board changed."""
    w0 = np.int64(states[k, 3 * digit])
    w1 = np.int64(states[k, 3 * digit + 1])
    w2 = np.int64(states[k, 3 * digit + 2])
    s0 = s1 = s2 = np.int64(-1)
    for b in range(3):
        x = x0 if b == 0 else (x1 if b == 1 else x2)
        while x != 0:
            pos = lowest_bit_index(x)
            x &= x - 1
            cell = ALL_PEERS + 9 * (3 * b + pos // 10) + pos % 10
            s0 &= tables[cell, 0]
            s1 &= tables[cell, 1]
            s2 &= tables[cell, 2]
    s0, s1, s2 = s0 & w0, s1 & w1, s2 & w2
    if s0 | s1 | s2 == 0:
        return False
    _clear(states, k, digit, w0, w1, w2, s0, s1, s2)
    return True


@njit(cache=True, nogil=True, inline="always")
def _clear(states, k, digit, w0, w1, w2, s0, s1, s2):
    """Take the places ``s`` out of the digit's band words ``w`` (its words in state k) and out of the count
    planes, and mark the digit for the hidden-singles and locked-candidates passes."""
    states[k, 3 * digit] = w0 & ~s0
    states[k, 3 * digit + 1] = w1 & ~s1
    states[k, 3 * digit + 2] = w2 & ~s2
    band._lose(states, k, 0, s0)
    band._lose(states, k, 1, s1)
    band._lose(states, k, 2, s2)
    states[k, S_HIDDEN_DIRTY] |= np.int64(1) << digit
    states[k, S_LOCKED_DIRTY] |= np.int64(1) << digit


@njit(cache=True, nogil=True, inline="always")
def _nonzero_rows(x):
    """The guard bits (9, 19, 29) of the rows of band word ``x`` that hold a bit."""
    return ((x | band.GUARDS) - band.ROW_LOW) & band.GUARDS


@njit(cache=True, nogil=True, inline="always")
def _rows_of(guards):
    """The whole rows (band word) of the guard bits ``guards``."""
    return (guards >> 9) * band.ROW_BITS


@njit(cache=True, nogil=True, inline="always")
def _rows_with_two(x):
    """The guard bits of the rows of band word ``x`` with exactly two bits: the lowest bit of each row cleared
    twice (the guard stops the borrow at the row's end)."""
    y = x & ((x | band.GUARDS) - band.ROW_LOW)
    z = y & ((y | band.GUARDS) - band.ROW_LOW)
    return _nonzero_rows(y) & ~_nonzero_rows(z)


@njit(cache=True, nogil=True, inline="always")
def _columns(x):
    """The 9-bit mask of the columns of band word ``x`` that hold a bit."""
    return (x | (x >> 10) | (x >> 20)) & band.ROW_BITS


@njit(cache=True, nogil=True, inline="always")
def _columns_with_two(x0, x1, x2):
    """The 9-bit mask of the columns with exactly two bits in the band words ``x``: the counts of each band
    position (at least one, two, three of the bands), then of the three rows."""
    a1 = x0 | x1 | x2
    a2 = (x0 & x1) | (x2 & (x0 | x1))
    a3 = x0 & x1 & x2
    p, q, r = a1 & 0x1FF, (a1 >> 10) & 0x1FF, (a1 >> 20) & 0x1FF
    u, v, w = a2 & 0x1FF, (a2 >> 10) & 0x1FF, (a2 >> 20) & 0x1FF
    two = u | v | w | (p & q) | (r & (p | q))
    three = _columns(a3) | (u & (q | r)) | (v & (p | r)) | (w & (p | q)) | (p & q & r)
    return two & ~three


@njit(cache=True, nogil=True)
def _links(x0, x1, x2, d0, d1, d2, box0, box1, box2):
    """The places of a digit (band words ``x``) that its strong links through one diagonal (band masks ``d``,
    its boxes ``box``) clear: a row with two places, one on the diagonal, clears the diagonal's cell in the
    other's column; a column with two, the diagonal's cell in the other's row; a box on the diagonal whose places
    are all on it clears the rest of the diagonal. Not inlined (``_diagonal_links`` calls it for each diagonal):
    about 0.4 s less first compile, the same speed (it runs only for the digits ``_links_found`` finds)."""
    other = (x0 & ~d0 & _rows_of(_rows_with_two(x0) & _nonzero_rows(x0 & d0))) | (
        x1 & ~d1 & _rows_of(_rows_with_two(x1) & _nonzero_rows(x1 & d1))) | (
        x2 & ~d2 & _rows_of(_rows_with_two(x2) & _nonzero_rows(x2 & d2)))
    spread = _columns(other) * band.ROW_LOW
    t0, t1, t2 = spread & d0, spread & d1, spread & d2
    spread = (_columns_with_two(x0, x1, x2) & _columns((x0 & d0) | (x1 & d1) | (x2 & d2))) * band.ROW_LOW
    t0 |= _rows_of(_nonzero_rows(x0 & ~d0 & spread)) & d0
    t1 |= _rows_of(_nonzero_rows(x1 & ~d1 & spread)) & d1
    t2 |= _rows_of(_nonzero_rows(x2 & ~d2 & spread)) & d2
    p0, p1, p2 = x0 & box0, x1 & box1, x2 & box2
    if p0 != 0 and p0 & ~d0 == 0:
        t1 |= d1
        t2 |= d2
    if p1 != 0 and p1 & ~d1 == 0:
        t0 |= d0
        t2 |= d2
    if p2 != 0 and p2 & ~d2 == 0:
        t0 |= d0
        t1 |= d1
    return t0, t1, t2


class _Lanes:
    """Word operations on eight 32-bit lanes (digits 1-8), for ``_links_found``'s code generation: each method is
    the scalar helper of the same name (``_nonzero_rows``, ``_rows_of``, ``_rows_with_two``, ``_columns``,
    ``_columns_with_two``, ``_links``) on vectors of band words; ``c`` a constant in every lane, ``spread`` a
    9-bit column mask in the three rows, ``field`` one row's 9 bits."""

    def __init__(self, builder):
        self.b = builder
        self.t = ir.VectorType(ir.IntType(32), 8)

    def c(self, value):
        return ir.Constant(self.t, [ir.Constant(ir.IntType(32), value & 0xFFFFFFFF)] * 8)

    def nonzero_rows(self, x):
        g, low = self.c(band.GUARDS), self.c(band.ROW_LOW)
        return self.b.and_(self.b.sub(self.b.or_(x, g), low), g)

    def rows_of(self, g):
        return self.b.sub(g, self.b.lshr(g, self.c(9)))

    def rows_with_two(self, x):
        g, low = self.c(band.GUARDS), self.c(band.ROW_LOW)
        y = self.b.and_(x, self.b.sub(self.b.or_(x, g), low))
        z = self.b.and_(y, self.b.sub(self.b.or_(y, g), low))
        return self.b.and_(self.nonzero_rows(y), self.b.not_(self.nonzero_rows(z)))

    def columns(self, x):
        b = self.b
        return b.and_(b.or_(b.or_(x, b.lshr(x, self.c(10))), b.lshr(x, self.c(20))), self.c(0x1FF))

    def spread(self, columns):
        b = self.b
        return b.or_(b.or_(columns, b.shl(columns, self.c(10))), b.shl(columns, self.c(20)))

    def field(self, x, i):
        return self.b.and_(self.b.lshr(x, self.c(10 * i)), self.c(0x1FF)) if i else self.b.and_(x, self.c(0x1FF))

    def columns_with_two(self, x0, x1, x2):
        b = self.b
        a1 = b.or_(b.or_(x0, x1), x2)
        a2 = b.or_(b.and_(x0, x1), b.and_(x2, b.or_(x0, x1)))
        a3 = b.and_(b.and_(x0, x1), x2)
        p, q, r = (self.field(a1, i) for i in range(3))
        u, v, w = (self.field(a2, i) for i in range(3))
        two = b.or_(b.or_(b.or_(u, v), w), b.or_(b.and_(p, q), b.and_(r, b.or_(p, q))))
        three = b.or_(b.or_(self.columns(a3), b.and_(u, b.or_(q, r))), b.or_(b.and_(v, b.or_(p, r)), b.or_(
            b.and_(w, b.or_(p, q)), b.and_(b.and_(p, q), r))))
        return b.and_(two, b.not_(three))

    def links(self, x, d, box):
        """``_links`` on the lanes: ``x`` three vectors, ``d`` and ``box`` three constants."""
        b = self.b
        dv = [self.c(word) for word in d]
        other = None
        for i in range(3):
            part = b.and_(b.and_(x[i], b.not_(dv[i])), self.rows_of(b.and_(self.rows_with_two(x[i]),
                                                                            self.nonzero_rows(b.and_(x[i], dv[i])))))
            other = part if other is None else b.or_(other, part)
        spread = self.spread(self.columns(other))
        t = [b.and_(spread, dv[i]) for i in range(3)]
        on = b.or_(b.or_(b.and_(x[0], dv[0]), b.and_(x[1], dv[1])), b.and_(x[2], dv[2]))
        spread = self.spread(b.and_(self.columns_with_two(*x), self.columns(on)))
        for i in range(3):
            rows = self.rows_of(self.nonzero_rows(b.and_(b.and_(x[i], b.not_(dv[i])), spread)))
            t[i] = b.or_(t[i], b.and_(rows, dv[i]))
        zero = self.c(0)
        full = []
        for i in range(3):
            p = b.and_(x[i], self.c(box[i]))
            ok = b.and_(b.icmp_unsigned("!=", p, zero), b.icmp_unsigned("==", b.and_(p, b.not_(dv[i])), zero))
            full.append(b.select(ok, self.c(-1), zero))
        t[0] = b.or_(t[0], b.and_(dv[0], b.or_(full[1], full[2])))
        t[1] = b.or_(t[1], b.and_(dv[1], b.or_(full[0], full[2])))
        t[2] = b.or_(t[2], b.and_(dv[2], b.or_(full[0], full[1])))
        return t


@intrinsic
def _links_found(typingctx, words0, words1, words2, unsolved0, unsolved1, unsolved2):
    """The digits 1-8 (bits 0-7) that ``_links`` gives a target among the empty cells, from the nine
    ``_band_words`` of each band: the same word operations on eight 32-bit lanes at once (a band word has 30 bits),
    so one pass costs about what one digit costs in the scalar form."""
    def codegen(context, builder, signature, args):
        lanes = _Lanes(builder)
        i32, i64 = ir.IntType(32), ir.IntType(64)
        x = []
        for band_words in args[:3]:
            vector = ir.Constant(lanes.t, ir.Undefined)
            for digit in range(8):
                word = builder.trunc(builder.extract_value(band_words, digit), i32)
                vector = builder.insert_element(vector, word, ir.Constant(i32, digit))
            x.append(vector)
        u = []
        for unsolved in args[3:]:
            splat = builder.insert_element(ir.Constant(lanes.t, ir.Undefined), builder.trunc(unsolved, i32),
                                           ir.Constant(i32, 0))
            u.append(builder.shuffle_vector(splat, ir.Constant(lanes.t, ir.Undefined), ir.Constant(lanes.t, None)))
        main = lanes.links(x, (MAIN0, MAIN1, MAIN2), [int(block) for block in band.BOX_BLOCK])
        anti = lanes.links(x, (ANTI0, ANTI1, ANTI2), [int(block) for block in band.BOX_BLOCK[::-1]])
        hit = None
        for i in range(3):
            part = builder.and_(builder.and_(builder.or_(main[i], anti[i]), x[i]), u[i])
            hit = part if hit is None else builder.or_(hit, part)
        found = builder.icmp_unsigned("!=", hit, lanes.c(0))
        return builder.zext(builder.bitcast(found, ir.IntType(8)), i64)

    return types.int64(words0, words1, words2, unsolved0, unsolved1, unsolved2), codegen


@borrowing
def _diagonal_links(states, k, digits):
    """X only, once the other rules are at a fixpoint: the strong links through a diagonal (``_links``, main and
    anti) of each digit in ``digits`` (a 9-bit mask) clear their targets; whether a board changed.

    Why: they are the locks through the diagonals that ``variant81`` finds and this kernel's passes do not (a
    row, column or box with two places of a digit, one on a diagonal: ``variant_nodes_bench.py roots``): X 35.4
    -> 31.1 nodes a puzzle. Computed a digit at a time (``_links``, ~50 cycles a digit, against ~1,600 a node) at
    every fixpoint they cost 2% more time than they save; ``_links_found`` first tests digits 1-8 in one go, and the
    digit loop runs only for the digits it finds (and digit 9 in state 0): 31.3 nodes, 3-4% faster than main
    (benchmarks/results/variant_speed10.md)."""
    changed = False
    u0 = np.int64(states[k, S_UNSOLVED])
    u1 = np.int64(states[k, S_UNSOLVED + 1])
    u2 = np.int64(states[k, S_UNSOLVED + 2])
    # digit 9 is outside the vector's lanes: the loop below tests it, but in state 0 only (at every fixpoint the
    # loop ran for it alone in half the runs: 1.023-1.029x against 1.038-1.039x without, 31.14 -> 31.32 nodes)
    ninth = np.int64(0x100) if k == 0 else np.int64(0)
    digits &= _links_found(band._band_words(states, k, 0), band._band_words(states, k, 1),
                           band._band_words(states, k, 2), u0, u1, u2) | ninth
    while digits != 0:
        digit = lowest_bit_index(digits)
        digits &= digits - 1
        x0 = np.int64(states[k, 3 * digit])
        x1 = np.int64(states[k, 3 * digit + 1])
        x2 = np.int64(states[k, 3 * digit + 2])
        m0, m1, m2 = _links(x0, x1, x2, MAIN0, MAIN1, MAIN2, band.BOX_BLOCK[0], band.BOX_BLOCK[1],
                            band.BOX_BLOCK[2])
        a0, a1, a2 = _links(x0, x1, x2, ANTI0, ANTI1, ANTI2, band.BOX_BLOCK[2], band.BOX_BLOCK[1],
                            band.BOX_BLOCK[0])
        s0, s1, s2 = (m0 | a0) & x0 & u0, (m1 | a1) & x1 & u1, (m2 | a2) & x2 & u2
        if s0 | s1 | s2 == 0:
            continue
        _clear(states, k, digit, x0, x1, x2, s0, s1, s2)
        changed = True
    return changed


@borrowing
def _propagate(states, k, flags, tables):
    """The band kernel's rules in ``flags`` and the extra units' strikes and hidden singles, to a fixpoint; the
    cells filled, or -1 on a contradiction. The extra-unit pass runs after the band kernel's hidden singles, not
    before: every rule only clears candidates, so the fixpoint (and the nodes) are the same in any order, and the
    pass (a snapshot test a digit) runs less often: X 1.07x, Windoku 1.17x (variant_speed7.md). For X (``DIAGONALS``
    in the table) the pass is ``_diagonals``, the same deductions with the diagonals as constants. X's strong links
    through the diagonals (``_diagonal_links``) run last, at the fixpoint of the others, for the digits whose words
    changed since they last ran (``pending``: the locked pass's marks, kept before it clears them; a state is a
    fixpoint of the links when it branches, so its children need only the digits their own changes touched)."""
    naked = flags & NAKED_SINGLES != 0
    diagonals = tables[DIAGONALS, 0] != 0
    filled = 0
    pending = np.int64(0)
    while True:
        u0, u1, u2 = np.int64(states[k, S_UNSOLVED]), np.int64(states[k, S_UNSOLVED + 1]), np.int64(
            states[k, S_UNSOLVED + 2])
        count = band._naked_singles(states, k, naked)
        if count < 0 or (count > 0 and not _strike_filled(states, k, u0, u1, u2, tables)):
            return -1
        filled += count
        if count > 0:
            continue
        if flags & HIDDEN_SINGLES:
            count = band._hidden_singles(states, k)
            if count < 0 or (count > 0 and not _strike_filled(states, k, u0, u1, u2, tables)):
                return -1
            filled += count
            if count > 0:
                continue
        if diagonals:
            count, changed = _diagonals(states, k, flags, tables)
        else:
            count, changed = _extra_units(states, k, flags, tables)
        if count < 0:
            return -1
        filled += count
        if count > 0 or changed > 0:
            continue
        if flags & LOCKED_CANDIDATES:
            pending |= np.int64(states[k, S_LOCKED_DIRTY])  # the locked pass clears the marks: keep them
            count = band._locked_candidates(states, k)
            if count < 0:
                return -1
            if count > 0:
                continue
            if diagonals and pending != 0:
                links = _diagonal_links(states, k, pending)
                pending = 0
                if links:
                    continue
        return filled


@borrowing
def _strike_implied(states, tables):
    """The givens' strikes in the implied units (``WINDOKU_IMPLIED``), after the loading; False when two givens of
    a digit share one (no solution)."""
    if tables[SIZES, 0] == tables[SIZES, 1]:
        return True
    k = np.int64(0)
    for digit in range(9):
        for b in range(3):
            given = np.int64(states[1, 3 * digit + b]) & tables[ON_EXTRA, b]
            while given != 0:
                pos = lowest_bit_index(given)
                given &= given - 1
                if not _strike(states, k, digit, 9 * (3 * b + pos // 10) + pos % 10, tables):
                    return False
    return True


@borrowing
def _load_givens(cells, states, tables):
    """State 0 from the givens (the band kernel's loading, then the extra units' strikes); -1 when fine, else
    ``INVALID`` (a digit above 9, equal digits in a unit) or ``CONTRADICTION`` (an empty cell left without a
    candidate)."""
    status = band._load_givens(cells, states)
    if status == INVALID:
        return INVALID
    units = tables[UNITS : UNITS + tables[SIZES, 0]]
    for digit in range(9):  # state 1 holds each digit's givens (``sudoku9._load_givens``)
        g0, g1, g2 = np.int64(states[1, 3 * digit]), np.int64(states[1, 3 * digit + 1]), np.int64(
            states[1, 3 * digit + 2])
        for unit in range(units.shape[0]):
            if popcount(g0 & units[unit, 0]) + popcount(g1 & units[unit, 1]) + popcount(g2 & units[unit, 2]) > 1:
                return INVALID  # equal givens in an extra unit
    if status >= 0:
        return status
    for digit in range(9):
        s0 = s1 = s2 = np.int64(0)
        for b in range(3):
            given = np.int64(states[1, 3 * digit + b]) & tables[ON_EXTRA, b]
            while given != 0:
                pos = lowest_bit_index(given)
                given &= given - 1
                cell = OWN_PEERS + 9 * (3 * b + pos // 10) + pos % 10
                s0 |= tables[cell, 0]
                s1 |= tables[cell, 1]
                s2 |= tables[cell, 2]
        for b in range(3):
            struck = s0 if b == 0 else (s1 if b == 1 else s2)
            word = np.int64(states[0, 3 * digit + b])
            states[0, 3 * digit + b] = word & ~struck
            band._lose(states, np.int64(0), b, word & struck)
    for word in range(S_EXTRA_SEEN, STATE_WORDS):
        states[0, word] = 0  # every unit with a place looks changed: the root scans them all
    for b in range(3):
        base = band.S_COUNT + 4 * b
        some = np.int64(states[0, base]) | np.int64(states[0, base + 1]) | np.int64(states[0, base + 2]) | np.int64(
            states[0, base + 3])
        if np.int64(states[0, S_UNSOLVED + b]) & ~some != 0:
            return CONTRADICTION
    return -1


@njit(cache=True, nogil=True, inline="always")
def _digits(states, k, b, pos):
    """The digits (a 9-bit mask) still possible in cell ``pos`` of band ``b``."""
    mask = np.int64(0)
    for digit in range(9):
        mask |= ((np.int64(states[k, 3 * digit + b]) >> pos) & 1) << digit
    return mask


@borrowing
def choose(states, k, tables, peers, ties=False, prefer=-1, weight=PAIR_WEIGHT):
    """The empty cell with the fewest candidates and its digits (cell -1 when the grid is full): the band
    kernel's counts, but among two-candidate cells the one whose digits its peers, classic and extra, hold most,
    two-candidate peers counted ``weight`` times (``variant81._pair_score``'s rule, here on the band words).
    ``peers``: the row of ``tables`` where each cell's peer masks start (shared with ``jigsaw9``). With ``ties``,
    when no cell has two candidates, the same score picks among the cells with the fewest (``variant81``'s rule
    too): X 40.4 -> 38.2 nodes a puzzle, jigsaw a little fewer, Windoku 7.1 -> 7.2 (so not there). ``prefer``: a
    row of ``tables`` whose cells go first among the two-candidate cells (the score then picks among them), -1 for
    none: X's diagonal cells, 38.2 -> 36.1 nodes a puzzle (a placement there strikes the most peers). ``weight``:
    the two-candidate peers' weight in the score (``X_PAIR_WEIGHT`` for X)."""
    best_b = best_pos = -1
    best_count = 10
    t0 = t1 = t2 = np.int64(0)
    for b in range(3):
        unsolved = np.int64(states[k, S_UNSOLVED + b])
        if unsolved == 0:
            continue
        base = band.S_COUNT + 4 * b
        c0, c1 = np.int64(states[k, base]), np.int64(states[k, base + 1])
        c2, c3 = np.int64(states[k, base + 2]), np.int64(states[k, base + 3])
        high = c2 | c3
        one = unsolved & c0 & ~(c1 | high)
        if one != 0:
            pos = lowest_bit_index(one)
            return 9 * (3 * b + pos // 10) + pos % 10, _digits(states, k, b, pos)
        two = unsolved & c1 & ~(c0 | high)
        if b == 0:
            t0 = two
        elif b == 1:
            t1 = two
        else:
            t2 = two
        if two == 0 and best_count > 2:
            cells = unsolved
            while cells != 0:
                pos = lowest_bit_index(cells)
                cells &= cells - 1
                count = ((c0 >> pos) & 1) + 2 * ((c1 >> pos) & 1) + 4 * ((c2 >> pos) & 1) + 8 * ((c3 >> pos) & 1)
                if count < best_count:
                    best_b, best_pos, best_count = b, pos, count
    if t0 | t1 | t2 != 0:
        c0, c1, c2 = t0, t1, t2
        if prefer >= 0 and (t0 & tables[prefer, 0]) | (t1 & tables[prefer, 1]) | (t2 & tables[prefer, 2]) != 0:
            c0, c1, c2 = t0 & tables[prefer, 0], t1 & tables[prefer, 1], t2 & tables[prefer, 2]
        if popcount(c0) + popcount(c1) + popcount(c2) == 1:
            best_b = 0 if c0 != 0 else (1 if c1 != 0 else 2)
            best_pos = lowest_bit_index(c0 | c1 | c2)
        else:
            best_b, best_pos = _best_pair(states, k, tables, peers, t0, t1, t2, c0, c1, c2, weight)
    if best_pos < 0:
        return -1, np.int64(0)
    if ties and t0 | t1 | t2 == 0:
        best_b, best_pos = _best_tie(states, k, tables, peers, best_count)
    return 9 * (3 * best_b + best_pos // 10) + best_pos % 10, _digits(states, k, best_b, best_pos)


@njit(cache=True, nogil=True, inline="always")
def _best_pair(states, k, tables, peers, t0, t1, t2, c0, c1, c2, weight):
    """Among the cells ``c`` (two or more of the two-candidate cells ``t``), the one whose digits its peers hold
    most, two-candidate peers counted ``weight`` times, the first on a tie: (band, position). Bands 0 and 1
    side by side in one 64-bit word (as ``sudoku9._hidden_singles`` does; a band word has 30 bits), the cell's
    two-candidate peers one mask for both digits, its digits by one vector test (``sudoku9._digits_meeting``): the
    same scores in about half the instructions of a three-band score a digit with a nine-word gather."""
    t01 = t0 | (t1 << 32)
    best_score = best_b = best_pos = -1
    for b in range(3):
        two = c0 if b == 0 else (c1 if b == 1 else c2)
        if two == 0:
            continue
        words = band._band_words(states, k, b)
        while two != 0:
            pos = lowest_bit_index(two)
            two &= two - 1
            row = peers + 27 * b + band.POS_CELL[pos]
            p01 = tables[row, 0] | (tables[row, 1] << 32)
            p2 = tables[row, 2]
            digits = band._digits_meeting(words, np.int64(1) << pos)
            score = _pair_score(states, k, lowest_bit_index(digits), p01, p2, p01 & t01, p2 & t2, weight) + (
                _pair_score(states, k, lowest_bit_index(digits & (digits - 1)), p01, p2, p01 & t01, p2 & t2, weight))
            if score > best_score:
                best_score, best_b, best_pos = score, b, pos
    return best_b, best_pos


@njit(cache=True, nogil=True, inline="always")
def _pair_score(states, k, digit, p01, p2, pair01, pair2, weight):
    """A digit's share of ``_best_pair``'s score: its places among the peers ``p`` (bands 0 and 1 in ``p01``),
    plus ``weight - 1`` times those among the two-candidate peers ``pair``."""
    w01 = np.int64(states[k, 3 * digit]) | (np.int64(states[k, 3 * digit + 1]) << 32)
    w2 = np.int64(states[k, 3 * digit + 2])
    return popcount(w01 & p01) + popcount(w2 & p2) + (weight - 1) * (popcount(w01 & pair01) + popcount(
        w2 & pair2))


@borrowing
def _best_tie(states, k, tables, peers, count):
    """Among the empty cells with ``count`` candidates (three or more: no two-candidate cell is left), the one
    whose digits its peers hold most (``variant81._pair_score`` without pairs), the first on a tie: (band,
    position)."""
    best_b = best_pos = -1
    best_score = -1
    for b in range(3):
        base = band.S_COUNT + 4 * b
        cells = np.int64(states[k, S_UNSOLVED + b]) & _with_count(
            np.int64(states[k, base]), np.int64(states[k, base + 1]), np.int64(states[k, base + 2]),
            np.int64(states[k, base + 3]), count)
        while cells != 0:
            pos = lowest_bit_index(cells)
            cells &= cells - 1
            row = peers + 9 * (3 * b + pos // 10) + pos % 10
            p0, p1, p2 = tables[row, 0], tables[row, 1], tables[row, 2]
            digits = _digits(states, k, b, pos)
            score = 0
            while digits != 0:
                digit = lowest_bit_index(digits)
                digits &= digits - 1
                score += (popcount(np.int64(states[k, 3 * digit]) & p0) + popcount(np.int64(states[k, 3 * digit + 1])
                          & p1) + popcount(np.int64(states[k, 3 * digit + 2]) & p2))
            if score > best_score:
                best_score, best_b, best_pos = score, b, pos
    return best_b, best_pos


@njit(cache=True, nogil=True, inline="always")
def _with_count(c0, c1, c2, c3, count):
    """The cells whose count planes ``c`` spell ``count``."""
    return ((c0 if count & 1 else ~c0) & (c1 if count & 2 else ~c1) & (c2 if count & 4 else ~c2)
            & (c3 if count & 8 else ~c3))


@njit(cache=True, nogil=True, inline="always")
def _choose_in(states, k, context):
    """``band_search``'s choice: ``choose`` with the geometry's settings (``context``: tables, ties, prefer,
    weight)."""
    tables, ties, prefer, weight = context
    return choose(states, k, tables, ALL_PEERS, ties, prefer, weight)


@njit(cache=True, nogil=True, inline="always")
def _place_in(states, k, digit, cell, context):
    """``band_search``'s placement: ``_place`` with the tables."""
    return _place(states, k, digit, cell, context[0])


@njit(cache=True, nogil=True, inline="always")
def _propagate_in(states, k, flags, context):
    """``band_search``'s propagation: ``_propagate`` with the tables."""
    return _propagate(states, k, flags, context[0])


@borrowing
def search_in(states, frames, cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    """``search`` with its stack passed in (``states`` uint32[MAX_DEPTH, STATE_WORDS], ``frames``
    int64[MAX_DEPTH, 2]: the branching cell and the digits still to try), for batches: the givens loaded here, the
    search in the band kernels' shared loop (``band_search.search``). ``@borrowing`` (no Numba runtime): with it,
    the inlined loop's variables took and dropped references to the arrays (11 more refcount calls than the loop
    written here), X 1.4% slower than main; without it 0.8-1.3% faster (benchmarks/results/band_loop1.md)."""
    stats[:] = 0
    states = band._borrowed(states)
    status = _load_givens(cells, states, tables)
    if status >= 0:
        return status
    if stop[0] != 0:
        return STOPPED
    stats[STAT_NODES] = 1
    if not _strike_implied(states, tables):
        return COMPLETE
    diagonals = tables[DIAGONALS, 0] != 0
    prefer, weight = (ON_EXTRA, X_PAIR_WEIGHT) if diagonals else (-1, PAIR_WEIGHT)
    context = (tables, tables[SIZES, 2] != 0, prefer, weight)
    return band_search.search(_choose_in, _place_in, _propagate_in, band_search.lowest, band._write_solution,
                              context, states, frames, limit, max_nodes, flags, solutions, stats, stop)


@njit(cache=True, nogil=True)
def search(cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    """Search a classic-plus-extra-units 9x9 puzzle for up to ``limit`` solutions within a node budget: the
    parameters, counters and status codes of ``variant81.search``, with ``tables_for(geometry)`` as the tables.
    ``RANDOM_ORDER`` is not supported (the generator keeps ``variant81``). Memory: one 16 KB stack a call."""
    return search_in(np.empty((MAX_DEPTH, STATE_WORDS), np.uint32), np.empty((MAX_DEPTH, 2), np.int64), cells,
                     tables, limit, max_nodes, flags, solutions, stats, stop)


@njit(cache=True, nogil=True)
def count_many(puzzles, tables, limit, max_nodes, flags, statuses, counts, nodes, stop):
    """``search`` for each row of ``puzzles`` (uint8[B, 81]) in one stack, without keeping solutions (the batch
    loop of ``variant81.count_many``, same arguments but the tables)."""
    states = np.empty((MAX_DEPTH, STATE_WORDS), np.uint32)
    frames = np.empty((MAX_DEPTH, 2), np.int64)
    stats = np.zeros(N_STATS, np.int64)
    no_solutions = np.zeros((0, N_CELLS), np.uint8)
    for row in range(puzzles.shape[0]):
        statuses[row] = search_in(states, frames, puzzles[row], tables, limit, max_nodes, flags, no_solutions, stats,
                                  stop)
        counts[row] = stats[STAT_SOLUTIONS]
        nodes[row] = stats[STAT_NODES]
