"""9x9 jigsaw on the band kernel's bitboards: rows and columns as in the classic kernel, regions as band masks.

A jigsaw grid is a classic grid whose boxes are replaced by nine irregular regions. ``variant81.py`` handles it on
two-word 81-bit boards at ~1.5 µs a node. The classic band kernel (``sudoku9.py``) is ~0.3 µs a node, but its
placement, hidden singles and locked candidates are built on boxes inside a band, so they do not apply here. This
kernel keeps the band kernel's *state* (its words, count planes and their upkeep, ``sudoku9._lose``, the loading's
count, the solution writer) and ``extra9``'s branching choice, and brings its own rules, each a few word operations
over three band words (~0.9-1.0 µs a node, benchmarks/results/variant_speed5.md):

* placement: the cell leaves the other digits' words; the digit leaves the cell's peers (row, column, region and
  any extra unit, one three-word mask a cell), the count planes kept by ``sudoku9._lose``;
* naked singles: the count planes give the cells with one candidate and the empty cells with none, and one vector
  test a band (``sudoku9._digits_meeting``) the digits they hold;
* units (rows, columns, regions, and any extra unit of the geometry), only for the digits marked dirty and only
  those units where the digit's places changed since they were last scanned (a snapshot of each digit's words) and
  the digit is not placed yet: no place fails, one place fills the unit, two or more leave every cell that sees
  them all (the AND of their peer masks: pointing from a region into a row or column, claiming back, and the cells
  that see two places through a row and a column). ``variant81`` stops at three places; any number here takes a
  quarter fewer nodes. Where pext is fast, a unit's places are gathered into one 9-bit word (a pext a band under
  the unit's masks): a hidden single is one bit, whose cell the unit's gather row names, and the cells that see
  every place are one row of a table made once per map (512 rows a unit: each set of the unit's cells); 1.25x
  faster a puzzle (benchmarks/results/variant_speed9.md). Elsewhere the AND of the peer masks is folded, starting
  outside the unit with the first and the last place and stopping once no candidate is left;
* the law of leftovers (``leftover_pairs``, a static fact of the map): for a run of k whole rows or columns and
  k regions, the cells of the rows outside the regions and the cells of the regions outside the rows hold the same
  digits; a digit that one side can no longer hold leaves the other side. Run when the passes above have nothing
  left, for the digits changed since it last looked; it takes half the nodes off jigsaw-1 and 43% off jigsaw-3
  (benchmarks/results/variant_speed6.md), at ~0.1-0.25 µs a node; up to 126 pairs (two words a pair set) take
  another 6.5% off jigsaw-1 and 7% off jigsaw-3 (variant_speed8.md);
* branching: ``extra9``'s choice (fewest candidates; among the cells with the fewest, the one whose digits its
  peers hold most, two-candidate peers weighing more).

The nodes differ from ``variant81``'s (stronger locked candidates, another branching among ties), but not the
answers: counts and statuses are the same, which the tests hold against the reference engine and ``variant81``.
The generator keeps ``variant81`` (its fills and removal checks draw the committed puzzles).
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numpy.typing import NDArray

from bitdoku.kernels import band_search, extra9
from bitdoku.kernels import sudoku9 as band
from bitdoku.kernels.bits import FAST_PEXT, HAS_PEXT, highest_bit_index, lowest_bit_index, popcount
from bitdoku.kernels.jit import borrowing
from bitdoku.kernels.status import (
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
S_UNSOLVED = band.S_UNSOLVED
#: The digits whose words changed since the unit pass last looked at them (the band kernel's hidden-singles slot).
S_DIRTY = band.S_HIDDEN_DIRTY
#: The digits whose words changed since the law of leftovers last looked at them (the band kernel's locked slot).
S_LEFTOVER_DIRTY = band.S_LOCKED_DIRTY
#: After the band kernel's words: each digit's words as the unit pass last saw them (three a digit).
S_SEEN = band.STATE_WORDS
#: Then each digit's solved units (a bit set over the first 32 units): those holding the digit, nothing to learn.
S_SOLVED = S_SEEN + 27
STATE_WORDS = S_SOLVED + 9
MAX_DEPTH = band.MAX_DEPTH
#: Rows of the table (``tables_for``), three band words each: each cell's peers, the same by band position
#: (``30 * band + pos``: a bit of ``x0 | x1 << 30`` or ``x2 << 60`` is its own row), the sizes, the units
#: (rows, columns, regions, then any extra units), the cells of the leftover pairs, then each pair's two sides, then
#: (with more than ``PAIRS_A_WORD`` pairs) by band position the pairs of the second word whose first side holds the
#: cell (first word) and those whose second side holds it (second word).
PEERS = 0
PEERS_AT = 81
#: By band position: the cell's units as a bit set (first word), the leftover pairs of the first word (0-62) whose
#: first side holds it (second word), those whose second side holds it (third word).
CELL_UNITS = 171
SIZES = 261  # the number of units, the number of leftover pairs
UNITS = 262
#: The law of leftovers (``leftover_pairs``): pairs of at most this many cells a side; with the k regions that
#: overlap the rows most only, 2, 4, 6 and 9 took 28.3, 26.5, 21.4 and 21.0 nodes a puzzle on jigsaw-1 (39.9
#: without), 51.4, 44.9, 32.5 and 31.3 on jigsaw-3 (56.6); with any k regions, 6: 19.9 and 32.2 (54 and 65 pairs,
#: one word); 7 and 8 in two words (103 and 126 pairs, 126 and 126 capped): 18.6 and 18.6, 30.2 and 30.1; jigsaw-2
#: 10.6, 10.3, 10.0 (benchmarks/results/variant_speed8.md). A map's pairs take ~2, 3.4 and 5 ms to list.
LEFTOVER_CELLS = 8
#: Pairs a word of a pair set (bit 63 stays clear: the words are signed).
PAIRS_A_WORD = 63
#: At most this many pairs (a pair set is two words); the smallest first.
MAX_LEFTOVER_PAIRS = 2 * PAIRS_A_WORD
#: A change of at most this many places finds its units cell by cell, a larger one by a scan of the units.
FEW_CHANGES = 4
#: The rows and columns, units 0-17 of every table (``_touched_lines`` finds them without a scan).
N_LINES = 18
#: ``tables[SIZES, 2]`` is where the units' gather rows start (``_gathers``, a row a unit); this many rows on, each
#: unit's 512 lock rows (``_locks``).
LOCKS_AFTER = 64
#: The number of cells in each set of a unit's cells (a 9-bit word).
LOCK_SIZES = np.array([bin(cells).count("1") for cells in range(512)])


@intrinsic
def _pext(typingctx, x, mask):
    """BMI2 ``pext``: the bits of ``x`` under ``mask``, packed to the low end in the mask's order."""
    if not (isinstance(x, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                                  "llvm.x86.bmi.pext.64")
        words = zip(args, signature.args, strict=True)
        return builder.call(function, [context.cast(builder, value, kind, types.int64) for value, kind in words])

    return types.int64(x, mask), codegen


@intrinsic
def _flat(typingctx, array):
    """A C-contiguous array as a borrowed one-dimensional view of its items (``sudoku9._borrowed``'s way: no
    memory-manager pointer, valid while ``array`` lives). Indexed with unsigned integers, a table read is one load:
    no row stride to multiply, no negative index to wrap around."""
    if not (isinstance(array, types.Array) and array.layout == "C"):
        return None
    view_type = types.Array(array.dtype, 1, "C", readonly=not array.mutable)

    def codegen(context, builder, signature, args):
        source = context.make_array(signature.args[0])(context, builder, args[0])
        view = context.make_array(view_type)(context, builder)
        context.populate_array(view, data=source.data, shape=cgutils.pack_array(builder, [source.nitems]),
                               strides=cgutils.pack_array(builder, [source.itemsize]), itemsize=source.itemsize,
                               meminfo=None)
        return view._getvalue()

    return view_type(array), codegen


@njit(cache=True, nogil=True, inline="always")
def _compress_pext(x, mask):
    """The bits of ``x`` under ``mask`` packed to the low end, in one instruction (BMI2)."""
    return _pext(x, mask)


@njit(cache=True, nogil=True, inline="always")
def _compress_bits(x, mask):
    """``_compress_pext`` bit by bit, for CPUs without BMI2."""
    out = np.int64(0)
    i = 0
    while mask != 0:
        low = mask & -mask
        out |= np.int64((x & low) != 0) << i
        mask ^= low
        i += 1
    return out


#: The bits of a word under a mask, packed to the low end (the kernel compiles only the one chosen here).
_compress = _compress_pext if HAS_PEXT else _compress_bits


def leftover_pairs(regions: list[set[int]]) -> list[tuple[frozenset[int], frozenset[int]]]:
    """The law of leftovers of a jigsaw map: for a run of k whole rows (or columns) and any k regions, the cells of
    the rows outside the regions and the cells of the regions outside the rows hold the same digits, as many times
    each (both rows and regions hold each digit k times, and what they share is counted on both sides). Pairs of at
    most ``LEFTOVER_CELLS`` cells a side (regions that overlap the rows much), the smallest first, at most
    ``MAX_LEFTOVER_PAIRS``. A static fact of the map, computed once: a digit that one side can no longer hold
    cannot be on the other side either.

    Both sides have ``9k - overlap`` cells, so only regions with at least ``9 - LEFTOVER_CELLS`` cells on the run
    can take part: the others are left out before the combinations are tried, and cells are bits of Python ints
    (1.1 ms a map, against 5.5 ms with sets over every combination: the same pairs on 304 maps).
    """
    bits = [sum(1 << cell for cell in region) for region in regions]
    rows = [0x1FF << 9 * r for r in range(9)]
    columns = [sum(1 << (9 * r + c) for r in range(9)) for c in range(9)]
    found = set()
    for a in range(9):
        for b in range(a + 1, 9 + (a > 0)):  # a run of 1-8 lines
            k = b - a
            for lines in (sum(rows[a:b]), sum(columns[a:b])):
                overlap = {i: (bits[i] & lines).bit_count() for i in range(9)}
                near = [i for i in range(9) if overlap[i] >= 9 - LEFTOVER_CELLS]
                for chosen in itertools.combinations(near, k):
                    size = 9 * k - sum(overlap[i] for i in chosen)
                    if not 0 < size <= LEFTOVER_CELLS:
                        continue
                    covered = 0
                    for i in chosen:
                        covered |= bits[i]
                    found.add((lines & ~covered, covered & ~lines))
    pairs = {(_cells(inside), _cells(outside)) for inside, outside in found}
    return sorted(pairs, key=lambda pair: (len(pair[0]), sorted(pair[0]), sorted(pair[1])))[:MAX_LEFTOVER_PAIRS]


def _cells(bits: int) -> frozenset[int]:
    """The cells of an 81-bit set."""
    return frozenset(cell for cell in range(N_CELLS) if bits >> cell & 1)


@lru_cache(maxsize=64)  # bounded as geometry.GEOMETRIES_KEPT: geometries come from input
def tables_for(geometry: Geometry) -> NDArray[np.int64] | None:
    """The peer and unit masks of a 9x9 jigsaw geometry (rows, columns, regions, perhaps extra units; no relation
    between cells outside the units), or None for any other geometry. Cached per geometry."""
    tables = geometry.tables
    if geometry.shape.n_cells != N_CELLS or geometry.regions is None or tables.adjacent.shape[0] != 0:
        return None
    units = tables.units.tolist()
    if len(units) > 63 or units[:N_LINES] != band.STANDARD_UNITS[:N_LINES].tolist():
        return None  # rows and columns first, as ``_touched_lines`` numbers them
    mates: list[set[int]] = [set() for _ in range(N_CELLS)]
    for members in units:
        for cell in members:
            mates[cell].update(members)
    pairs = leftover_pairs([set(members) for members in units[N_LINES : N_LINES + 9]])
    start = UNITS + len(units)  # the cells of every pair, then each pair's two sides, then the second word's cells
    high = start + 1 + 2 * len(pairs)
    gather = high + (30 * 3 if len(pairs) > PAIRS_A_WORD else 0)
    table = np.zeros((gather + LOCKS_AFTER + 512 * len(units), 3), np.int64)
    table[SIZES, 2] = gather
    table[gather : gather + len(units)] = _gathers(units)
    for cell in range(N_CELLS):
        mates[cell].discard(cell)
        if mates[cell] != set(tables.peers[tables.peer_start[cell] : tables.peer_start[cell + 1]].tolist()):
            return None  # knight or king relations: not units
        table[PEERS + cell] = table[PEERS_AT + 30 * band.CELL_BAND[cell] + band.CELL_POS[cell]] = extra9._band_mask(
            sorted(mates[cell]))
    for row, members in enumerate(units):
        for cell in members:
            table[CELL_UNITS + 30 * band.CELL_BAND[cell] + band.CELL_POS[cell], 0] |= 1 << row
    table[SIZES, 0] = len(units)
    for row, members in enumerate(units):
        table[UNITS + row] = extra9._band_mask(members)
    table[SIZES, 1] = len(pairs)
    table[start] = extra9._band_mask(sorted(set().union(*(inside | outside for inside, outside in pairs))))
    for pair, (inside, outside) in enumerate(pairs):
        table[start + 1 + 2 * pair] = extra9._band_mask(sorted(inside))
        table[start + 2 + 2 * pair] = extra9._band_mask(sorted(outside))
        for side, cells in ((1, inside), (2, outside)):
            for cell in cells:
                at = 30 * band.CELL_BAND[cell] + band.CELL_POS[cell]
                if pair < PAIRS_A_WORD:
                    table[CELL_UNITS + at, side] |= 1 << pair
                else:  # the second word: first side in column 0, second in column 1
                    table[high + at, side - 1] |= 1 << (pair - PAIRS_A_WORD)
    table[gather + LOCKS_AFTER :] = _locks(table[UNITS : UNITS + len(units)], table[PEERS : PEERS + N_CELLS],
                                           units).reshape(-1, 3)
    table.flags.writeable = False
    return table


def _gathers(units: list[list[int]]) -> NDArray[np.int64]:
    """Each unit's gather row: the shifts that pack its cells' bits into one 9-bit word (the cells in order: band 0's
    under ``pext``, then band 1's, then band 2's), and the cells themselves, seven bits each in that order."""
    rows = np.zeros((len(units), 3), np.int64)
    for unit, members in enumerate(units):
        ordered = sorted(members)  # by band, then band position: the order pext packs them in
        in_band = [sum(band.CELL_BAND[cell] == b for cell in ordered) for b in range(3)]
        rows[unit, 0] = in_band[0] | (in_band[0] + in_band[1]) << 8
        rows[unit, 1] = sum(cell << (7 * i) for i, cell in enumerate(ordered))
    return rows


def _locks(unit_masks: NDArray[np.int64], peers: NDArray[np.int64], units: list[list[int]]) -> NDArray[np.int64]:
    """For each unit and each set of two or more of its cells (a 9-bit word, ``_gathers``' order), the cells
    outside the unit that see them all (three band words; ``unit_masks`` and ``peers`` as in the table); zero for
    fewer than two cells. A unit's 512 sets are built a cell at a time: the sets holding cell i are those below
    2^i with its peers ANDed in."""
    locks = np.zeros((len(units), 512, 3), np.int64)
    locks[:, 0] = band.BAND_FULL & ~unit_masks
    for unit, members in enumerate(units):
        for i, cell in enumerate(sorted(members)):
            locks[unit, 1 << i : 2 << i] = locks[unit, : 1 << i] & peers[cell]
    locks[:, LOCK_SIZES < 2] = 0
    return locks


@borrowing
def _place(states, k, digit, cell, tables):
    """Fill ``cell`` with ``digit`` (0-based) in state k: the cell leaves the other digits, the digit leaves the
    cell's peers; False when the digit is no longer a candidate there."""
    b = band.CELL_BAND[cell]
    bit = np.int64(1) << band.CELL_POS[cell]
    word = np.int64(states[k, 3 * digit + b])
    if word & bit == 0:
        return False
    clear = ~bit
    touched = np.int64(1) << digit
    pos = band.CELL_POS[cell]
    for other in range(9):
        other_word = np.int64(states[k, 3 * other + b])
        touched |= ((other_word >> pos) & 1) << other
        states[k, 3 * other + b] = other_word & clear
    states[k, S_DIRTY] |= touched
    states[k, 3 * digit + b] = word  # the loop cleared the cell from its own digit too
    _fill(states, k, digit, cell, tables)
    return True


@njit(cache=True, nogil=True, inline="always")
def _fill(states, k, digit, cell, tables):
    """The rest of a placement once ``cell`` holds no other candidate than ``digit``: the cell is no longer
    unsolved, its units are solved for the digit, the digit leaves its peers (with their counts)."""
    b = band.CELL_BAND[cell]
    states[k, S_UNSOLVED + b] = np.int64(states[k, S_UNSOLVED + b]) & ~(np.int64(1) << band.CELL_POS[cell])
    states[k, S_SOLVED + digit] |= tables[CELL_UNITS + 30 * b + band.CELL_POS[cell], 0] & 0xFFFFFFFF
    for w in range(3):
        mask = tables[PEERS + cell, w]
        old = np.int64(states[k, 3 * digit + w])
        states[k, 3 * digit + w] = old & ~mask
        band._lose(states, k, w, old & mask)


@borrowing
def _naked_singles(states, k, naked, tables):
    """Fill the cells with one candidate (with ``naked``); -1 if an empty cell has none, else the number filled."""
    filled = 0
    for b in range(3):
        unsolved = np.int64(states[k, S_UNSOLVED + b])
        base = band.S_COUNT + 4 * b
        c0 = np.int64(states[k, base])
        high = np.int64(states[k, base + 1]) | np.int64(states[k, base + 2]) | np.int64(states[k, base + 3])
        if unsolved & ~(c0 | high) != 0:
            return -1
        if not naked:
            continue
        singles = unsolved & c0 & ~high
        if singles == 0:
            continue
        digits = band._digits_meeting(band._band_words(states, k, b), singles)  # one vector test, no digit loop
        while digits != 0:  # a naked fill changes only its own digit's words: the others' stay as read
            digit = lowest_bit_index(digits)
            digits &= digits - 1
            cells = singles & np.int64(states[k, 3 * digit + b])
            while cells != 0:
                pos = lowest_bit_index(cells)
                cells &= cells - 1
                if np.int64(states[k, 3 * digit + b]) >> pos & 1 == 0:
                    return -1  # an earlier single took its only digit
                # its only candidate: no other digit's word to clear (``_place`` without its loop)
                states[k, S_DIRTY] |= np.int64(1) << digit
                _fill(states, k, digit, 9 * (3 * b + pos // 10) + pos % 10, tables)
                filled += 1
    return filled


@njit(cache=True, nogil=True, inline="always")
def _clear(states, k, digit, s0, s1, s2):
    """Clear ``digit`` from the cells ``s`` (three band words, candidates only); 1 when some went, else 0."""
    if s0 | s1 | s2 == 0:
        return 0
    base = 3 * digit
    states[k, base] = np.int64(states[k, base]) & ~s0
    states[k, base + 1] = np.int64(states[k, base + 1]) & ~s1
    states[k, base + 2] = np.int64(states[k, base + 2]) & ~s2
    band._lose(states, k, 0, s0)
    band._lose(states, k, 1, s1)
    band._lose(states, k, 2, s2)
    states[k, S_DIRTY] |= np.int64(1) << digit
    return 1


@njit(cache=True, nogil=True, inline="always")
def _lock(states, k, digit, x0, x1, x2, count, unit, tables):
    """Clear ``digit`` from every cell that sees all its ``count`` places ``x`` in a unit (the AND of their peer
    masks, which stops as soon as it holds no candidate of the digit outside the unit: most units give nothing); 1
    when some went, else 0."""
    base = 3 * digit
    s0 = np.int64(states[k, base]) & ~tables[unit, 0]
    s1 = np.int64(states[k, base + 1]) & ~tables[unit, 1]
    s2 = np.int64(states[k, base + 2]) & ~tables[unit, 2]
    # The first and the last place first, without a branch (a unit has two or more here): places far apart seldom
    # share a peer, so most tries end there, and a pair ends there anyway.
    low = x0 | (x1 << 30)
    first = lowest_bit_index(low)
    first = first if first < 60 else 60 + lowest_bit_index(x2)
    last = 60 + highest_bit_index(x2) if x2 != 0 else highest_bit_index(low)
    s0 &= tables[PEERS_AT + first, 0] & tables[PEERS_AT + last, 0]
    s1 &= tables[PEERS_AT + first, 1] & tables[PEERS_AT + last, 1]
    s2 &= tables[PEERS_AT + first, 2] & tables[PEERS_AT + last, 2]
    if s0 | s1 | s2 == 0:
        return 0
    if count == 2:
        return _clear(states, k, digit, s0, s1, s2)
    # the places between, as bits of ``low`` (bands 0-1: a bit's index is the band position) and ``x2``
    high = x2
    if first < 60:
        low &= ~(np.int64(1) << first)
    else:
        high &= ~(np.int64(1) << (first - 60))
    if last < 60:
        low &= ~(np.int64(1) << last)
    else:
        high &= ~(np.int64(1) << (last - 60))
    while low | high != 0:
        at = lowest_bit_index(low) if low != 0 else 60 + lowest_bit_index(high)
        if low != 0:
            low &= low - 1
        else:
            high &= high - 1
        s0 &= tables[PEERS_AT + at, 0]
        s1 &= tables[PEERS_AT + at, 1]
        s2 &= tables[PEERS_AT + at, 2]
        if s0 | s1 | s2 == 0:
            return 0
    return _clear(states, k, digit, s0, s1, s2)


@njit(cache=True, nogil=True, inline="always")
def _unit_by_gather(states, k, digit, unit, hidden, locked, flat, gather, tables):
    """One unit of the unit pass for one digit, its places gathered into one 9-bit word (``_places``): none
    fails, one fills the unit (with ``hidden``), two or more leave the cells of their lock row (with ``locked``).
    (-1 on a contradiction, 1 when it placed a cell, else 0; 1 when a lock took candidates, else 0.)"""
    base = 3 * digit
    x0 = np.int64(states[k, base])
    x1 = np.int64(states[k, base + 1])
    x2 = np.int64(states[k, base + 2])
    places = _places(x0, x1, x2, flat, gather, unit)
    if places == 0:
        return -1, 0
    if places & (places - 1) == 0:
        cell = _place_of(flat, gather, unit, places)
        if not hidden or (np.int64(states[k, S_UNSOLVED + band.CELL_BAND[cell]]) >> band.CELL_POS[cell]) & 1 == 0:
            return 0, 0  # the digit is placed in this unit
        return (1 if _place(states, k, digit, cell, tables) else -1), 0
    if not locked:
        return 0, 0
    lock = _lock_at(gather, unit, places)
    return 0, _clear(states, k, digit, x0 & flat[lock], x1 & flat[lock + np.uint64(1)], x2 & flat[lock + np.uint64(2)])


@njit(cache=True, nogil=True, inline="always")
def _unit_by_folding(states, k, digit, unit, hidden, locked, flat, gather, tables):
    """``_unit_by_gather`` without pext, for CPUs without a fast one (the unit pass before the gathers, 1.25x
    slower where pext is fast; a bit-by-bit pext was 1.5x slower): the places stay three band words, a lock
    folds their peer masks (``_lock``). ``flat`` and ``gather`` are unused."""
    row = UNITS + unit
    x0 = np.int64(states[k, 3 * digit]) & tables[row, 0]
    x1 = np.int64(states[k, 3 * digit + 1]) & tables[row, 1]
    x2 = np.int64(states[k, 3 * digit + 2]) & tables[row, 2]
    if x0 | x1 | x2 == 0:
        return -1, 0
    count = popcount(x0) + popcount(x1) + popcount(x2)
    if count == 1:
        b = 0 if x0 != 0 else (1 if x1 != 0 else 2)
        pos = lowest_bit_index(x0 | x1 | x2)
        if not hidden or (np.int64(states[k, S_UNSOLVED + b]) >> pos) & 1 == 0:
            return 0, 0  # the digit is placed in this unit
        return (1 if _place(states, k, digit, 9 * (3 * b + pos // 10) + pos % 10, tables) else -1), 0
    if not locked:
        return 0, 0
    return 0, _lock(states, k, digit, x0, x1, x2, count, row, tables)


#: One unit of the unit pass: by gathered places where pext is fast, else by folding peer masks.
_unit = _unit_by_gather if FAST_PEXT else _unit_by_folding


@borrowing
def _leftovers(states, k, tables):
    """The law of leftovers for the digits whose words changed since it last looked: in each pair
    (``leftover_pairs``), a side that can no longer hold the digit takes it from the other side. -1 when that side
    holds it filled (a contradiction), else the digits whose candidates went."""
    start = UNITS + tables[SIZES, 0]
    high = start + 1 + 2 * tables[SIZES, 1]
    two_words = tables[SIZES, 1] > PAIRS_A_WORD
    dirty = np.int64(states[k, S_LEFTOVER_DIRTY])
    states[k, S_LEFTOVER_DIRTY] = 0
    changed = 0
    while dirty != 0:
        digit = lowest_bit_index(dirty)
        dirty &= dirty - 1
        base = 3 * digit
        w0, w1, w2 = np.int64(states[k, base]), np.int64(states[k, base + 1]), np.int64(states[k, base + 2])
        inside = outside = inside_high = outside_high = np.int64(0)
        for b in range(3):
            x = (w0 if b == 0 else (w1 if b == 1 else w2)) & tables[start, b]
            while x != 0:
                at = 30 * b + lowest_bit_index(x)
                x &= x - 1
                inside |= tables[CELL_UNITS + at, 1]
                outside |= tables[CELL_UNITS + at, 2]
                if two_words:
                    inside_high |= tables[high + at, 0]
                    outside_high |= tables[high + at, 1]
        lone = inside ^ outside
        lone_high = inside_high ^ outside_high
        if lone | lone_high == 0:
            continue
        s0 = s1 = s2 = np.int64(0)
        while lone != 0:
            pair = lowest_bit_index(lone)
            row = start + 1 + 2 * pair + ((outside >> pair) & 1)
            lone &= lone - 1
            s0 |= w0 & tables[row, 0]
            s1 |= w1 & tables[row, 1]
            s2 |= w2 & tables[row, 2]
        while lone_high != 0:
            pair = lowest_bit_index(lone_high)
            row = start + 1 + 2 * (PAIRS_A_WORD + pair) + ((outside_high >> pair) & 1)
            lone_high &= lone_high - 1
            s0 |= w0 & tables[row, 0]
            s1 |= w1 & tables[row, 1]
            s2 |= w2 & tables[row, 2]
        if (s0 & ~np.int64(states[k, S_UNSOLVED])) | (s1 & ~np.int64(states[k, S_UNSOLVED + 1])) | (
                s2 & ~np.int64(states[k, S_UNSOLVED + 2])) != 0:
            return -1
        changed += _clear(states, k, digit, s0, s1, s2)
    return changed


@njit(cache=True, nogil=True, inline="always")
def _touched_lines(d0, d1, d2):
    """The rows (bits 0-8) and columns (bits 9-17) holding a bit of the 81-bit set ``d``: the units a change in
    ``d`` can matter to, found for all 18 lines at once (a guarded subtraction a band, a fold of the rows)."""
    rows = np.int64(0)
    for b in range(3):
        d = d0 if b == 0 else (d1 if b == 1 else d2)
        nonempty = ((d | band.GUARDS) - band.ROW_LOW) & band.GUARDS  # a guard survives above a nonempty row
        rows |= (((nonempty >> 9) & 1) | ((nonempty >> 18) & 2) | ((nonempty >> 27) & 4)) << (3 * b)
    folded = d0 | d1 | d2
    columns = (folded | (folded >> 10) | (folded >> 20)) & band.ROW_BITS
    return rows | (columns << 9)


@njit(cache=True, nogil=True, inline="always")
def _changed_units(d0, d1, d2, others, tables):
    """The units (a bit set) holding a place of the 81-bit set ``d`` (a digit's changed places): cell by cell from
    the units table for a few places, else the rows and columns at once and the ``others`` (a bit set: regions and
    extra units) by a scan. The scan loops over a bit set, not a range: LLVM vectorises a range into slow gathers."""
    if popcount(d0) + popcount(d1) + popcount(d2) <= FEW_CHANGES:
        todo = np.int64(0)
        for b in range(3):
            d = d0 if b == 0 else (d1 if b == 1 else d2)
            while d != 0:
                todo |= tables[CELL_UNITS + 30 * b + lowest_bit_index(d), 0]
                d &= d - 1
        return todo
    todo = _touched_lines(d0, d1, d2)
    while others != 0:
        unit = lowest_bit_index(others)
        others &= others - 1
        row = UNITS + unit
        todo |= np.int64((d0 & tables[row, 0]) | (d1 & tables[row, 1]) | (d2 & tables[row, 2]) != 0) << unit
    return todo


@njit(cache=True, nogil=True, inline="always")
def _places(x0, x1, x2, flat, gather, unit):
    """A unit's places of a digit (``x``: the digit's three band words) as one 9-bit word, its cells in
    ``_gathers``' order: a pext a band under the unit's mask, shifted past the earlier bands' cells. ``flat``:
    ``_flat(tables)``; ``gather``: ``tables[SIZES, 2]``."""
    at = np.uint64(3) * np.uint64(UNITS + unit)
    shifts = flat[np.uint64(3) * np.uint64(gather + unit)]
    return _compress(x0, flat[at]) | (_compress(x1, flat[at + np.uint64(1)]) << (shifts & 255)) | (
        _compress(x2, flat[at + np.uint64(2)]) << (shifts >> 8))


@njit(cache=True, nogil=True, inline="always")
def _place_of(flat, gather, unit, places):
    """The cell of a unit's one place (``places``: one bit of ``_places``' word), from its gather row."""
    return (flat[np.uint64(3) * np.uint64(gather + unit) + np.uint64(1)] >> (7 * lowest_bit_index(places))) & 127


@njit(cache=True, nogil=True, inline="always")
def _lock_at(gather, unit, places):
    """Where in ``_flat(tables)`` the lock row of a unit's places (``_places``' word) starts."""
    return np.uint64(3) * np.uint64(gather + LOCKS_AFTER + (unit << 9 | places))


@borrowing
def _units(states, k, flags, tables):
    """Hidden singles and locked candidates for the dirty digits, in the units where the digit's places changed
    since the last scan and the digit is not placed yet: no place fails, one fills the unit, two or more leave every
    cell that sees them all (``_lock``). Returns after the first digit that placed a cell, the other dirty digits
    left for the next pass (the naked pass first: it is cheap and fills what the placements freed). (-1 on a
    contradiction, else the cells filled; words changed)."""
    hidden = flags & HIDDEN_SINGLES != 0
    locked = flags & LOCKED_CANDIDATES != 0
    filled = changed = 0
    others = ((np.int64(1) << tables[SIZES, 0]) - 1) & ~((np.int64(1) << N_LINES) - 1)  # regions and extra units
    gather = tables[SIZES, 2]
    flat = _flat(tables)  # the scan's reads, by unsigned index
    dirty = np.int64(states[k, S_DIRTY])
    states[k, S_DIRTY] = 0
    states[k, S_LEFTOVER_DIRTY] |= dirty
    while dirty != 0:
        digit = lowest_bit_index(dirty)
        dirty &= dirty - 1
        base = 3 * digit
        seen = S_SEEN + base
        w0 = np.int64(states[k, base])
        w1 = np.int64(states[k, base + 1])
        w2 = np.int64(states[k, base + 2])
        d0 = w0 ^ np.int64(states[k, seen])
        d1 = w1 ^ np.int64(states[k, seen + 1])
        d2 = w2 ^ np.int64(states[k, seen + 2])
        if d0 | d1 | d2 == 0:
            continue
        states[k, seen] = w0
        states[k, seen + 1] = w1
        states[k, seen + 2] = w2
        todo = _changed_units(d0, d1, d2, others, tables) & ~np.int64(states[k, S_SOLVED + digit])
        while todo != 0:
            unit = lowest_bit_index(todo)
            todo &= todo - 1
            status, took = _unit(states, k, digit, unit, hidden, locked, flat, gather, tables)
            if status < 0:
                return -1, changed
            changed += took
            if status > 0:
                filled += 1
                todo &= ~np.int64(states[k, S_SOLVED + digit])  # the units the cell solved
        if filled != 0:
            states[k, S_DIRTY] |= dirty
            return filled, changed
    return filled, changed


@borrowing
def _propagate(states, k, flags, tables):
    """Naked singles, then the unit pass, to a fixpoint; the cells filled, or -1 on a contradiction."""
    naked = flags & NAKED_SINGLES != 0
    filled = 0
    while True:
        count = _naked_singles(states, k, naked, tables)
        if count < 0:
            return -1
        filled += count
        if count > 0:
            continue
        count, changed = _units(states, k, flags, tables)
        if count < 0:
            return -1
        filled += count
        if count > 0 or changed > 0:
            continue
        if flags & LOCKED_CANDIDATES and tables[SIZES, 1] != 0:
            changed = _leftovers(states, k, tables)
            if changed < 0:
                return -1
            if changed > 0:
                continue
        return filled


@borrowing
def _load_givens(cells, states, tables):
    """State 0 from the givens; -1 when fine, else ``INVALID`` (a digit above 9, equal digits in a unit) or
    ``CONTRADICTION`` (an empty cell left without a candidate). As in ``sudoku9._load_givens``, a given clears
    only its own digit's peers, and the given cells leave the other digits' words at the end (state 1 holds each
    digit's given cells meanwhile)."""
    for i in range(STATE_WORDS):
        states[0, i] = band.BAND_FULL if i < S_UNSOLVED + 3 else 0
        states[1, i] = 0
    for cell in range(N_CELLS):
        digit = np.int64(cells[cell])
        if digit == 0:
            continue
        if digit > 9:
            return INVALID
        b = band.CELL_BAND[cell]
        bit = np.int64(1) << band.CELL_POS[cell]
        base = 3 * (digit - 1)
        if np.int64(states[0, base + b]) & bit == 0:
            return INVALID  # an earlier given of the same digit sees this cell
        for w in range(3):
            states[0, base + w] = np.int64(states[0, base + w]) & ~tables[PEERS + cell, w]
        states[1, base + b] = np.int64(states[1, base + b]) | bit
        states[0, S_SOLVED + digit - 1] |= tables[CELL_UNITS + 30 * b + band.CELL_POS[cell], 0] & 0xFFFFFFFF
        states[0, S_UNSOLVED + b] = np.int64(states[0, S_UNSOLVED + b]) & ~bit
    for b in range(3):
        filled = band.BAND_FULL & ~np.int64(states[0, S_UNSOLVED + b])
        for digit in range(9):
            states[0, 3 * digit + b] = np.int64(states[0, 3 * digit + b]) & ~(filled & ~np.int64(
                states[1, 3 * digit + b]))
    band._recount(states, np.int64(0))
    states[0, S_DIRTY] = 0x1FF
    for b in range(3):
        base = band.S_COUNT + 4 * b
        some = np.int64(states[0, base]) | np.int64(states[0, base + 1]) | np.int64(states[0, base + 2]) | np.int64(
            states[0, base + 3])
        if np.int64(states[0, S_UNSOLVED + b]) & ~some != 0:
            return CONTRADICTION
    return -1


@njit(cache=True, nogil=True, inline="always")
def _choose_in(states, k, tables):
    """``band_search``'s choice: ``extra9.choose`` on this kernel's peers, ties scored."""
    return extra9.choose(states, k, tables, PEERS, True)


@borrowing
def search_in(states, frames, cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    """``search`` with its stack passed in (``states`` uint32[MAX_DEPTH, STATE_WORDS], ``frames``
    int64[MAX_DEPTH, 2]: the branching cell and the digits still to try), for batches: the givens loaded here, the
    search in the band kernels' shared loop (``band_search.search``, the tables as its context). ``@borrowing``, as
    ``extra9.search_in``: no reference counts around the inlined loop."""
    stats[:] = 0
    states = band._borrowed(states)
    status = _load_givens(cells, states, tables)
    if status >= 0:
        return status
    if stop[0] != 0:
        return STOPPED
    return band_search.search(_choose_in, _place, _propagate, band_search.lowest, band._write_solution, tables,
                              states, frames, limit, max_nodes, flags, solutions, stats, stop)


@njit(cache=True, nogil=True)
def search(cells, tables, limit, max_nodes, flags, solutions, stats, stop):
    """Search a 9x9 jigsaw puzzle for up to ``limit`` solutions within a node budget: the parameters, counters and
    status codes of ``variant81.search``, with ``tables_for(geometry)`` as the tables. ``RANDOM_ORDER`` is not
    supported (the generator keeps ``variant81``). Memory: one 23 KB stack a call."""
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
