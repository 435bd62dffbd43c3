"""SukakuExplainer's wings: a bivalue cell and an almost locked set (ALS) in one unit, joined by a restricted
common digit (an ALS-XZ whose small set is one bivalue cell).

An ALS is m cells of one unit with m+1 candidates between them: if one of its digits is taken away, the others
fill it. The pivot is a bivalue cell {x, z} outside the set with both digits in the set, and every cell of the set
that holds x sees the pivot (x is a *restricted common*: it cannot be in both). Then the pivot is z, or (the
pivot being x) the set is locked on its other digits and holds z: z is true in the pivot or in the set, so it
leaves every cell that sees the pivot and all the set's cells holding z. When z is a restricted common too
(doubly linked), x goes the same way, and each other digit of the set leaves the cells that see all its places
in the set.

SukakuExplainer names and rates them by the size of the set: WXYZ-Wing (3 cells, 5.5-5.6), VWXYZ-Wing (4 cells,
6.2-6.4), UVWXYZ-Wing (5 cells, 6.6), TUVWXYZ-Wing (6 cells, 7.5); the two smaller ones are rated by the largest
candidate count of a set cell (the middle sizes are the harder). The steps carry that ``difficulty``; each finder
yields the easiest first (then the most eliminations), as SE sorts them. See
https://www.sudokuwiki.org/WXYZ_Wing and https://hodoku.sourceforge.net/en/tech_als.php.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, lru_cache

import numpy as np

from bitdoku.logic.als import unit_bits
from bitdoku.logic.candidates import CandidateGrid, digits_of
from bitdoku.logic.changes import Changes
from bitdoku.logic.kernels import als_wings as als_kernel
from bitdoku.logic.step import Step, digit_list, make_step, names, removals
from bitdoku.shape import Shape

NAMES = {3: "WXYZ-Wing", 4: "VWXYZ-Wing", 5: "UVWXYZ-Wing", 6: "TUVWXYZ-Wing"}


def rating(size: int, largest: int) -> float:
    """SukakuExplainer's rating of a wing whose set has ``size`` cells, the largest with ``largest``
    candidates.

    >>> [rating(3, k) for k in (2, 3, 4)], [rating(4, k) for k in (2, 3, 4, 5)], rating(5, 4), rating(6, 4)
    ([5.5, 5.6, 5.5], [6.3, 6.4, 6.3, 6.2], 6.6, 7.5)
    """
    if size == 3:
        return round(5.5 + (1 - abs(3 - largest)) / 10, 1)
    if size == 4:
        return round(6.2 + (2 - abs(3 - largest)) / 10, 1)
    return 6.6 if size == 5 else 7.5


def wing_finder(size: int) -> Callable[..., Iterator[Step]]:
    """The finder of the wings whose set has ``size`` cells (3 to 6). Given ``changes`` (since a state where it
    found nothing, ``bitdoku.logic.changes``), only the wings whose set or pivot changed: the same steps."""

    def find(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
        touched = -1 if changes is None else changes.cells
        if COMPILED:
            found = _compiled_wings(cg, size, touched)
            if found is not None:
                found.sort(key=lambda item: (item[0], -item[1]))
                for _, _, make in found:
                    yield make()
                return
        found_py = list(_wings(cg, size, touched))
        found_py.sort(key=lambda item: (item[0], -len(item[1].eliminations)))
        for _, step in found_py:
            yield step

    find.__name__ = f"find_{NAMES[size].lower().replace('-', '_')}s"
    find.__doc__ = f"{NAMES[size]}s: a bivalue cell and a {size}-cell almost locked set, easiest first."
    return find


find_wxyz_wings = wing_finder(3)
find_vwxyz_wings = wing_finder(4)
find_uvwxyz_wings = wing_finder(5)
find_tuvwxyz_wings = wing_finder(6)


#: Whether the finders use the compiled search (``logic.kernels.als_wings``); the Python one below is its reference.
COMPILED = True
#: Wings and eliminations the compiled search writes at most per call (more: the Python search answers).
_MAX_WINGS, _MAX_GONE = 4096, 1 << 16


@cache
def _kernel_tables(shape: Shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The layout's units, their cells and each cell's peers as bitsets of 64-bit words, for the kernel."""
    from bitdoku.logic.candidates import layout_of

    layout = layout_of(shape)
    words = (shape.n * shape.n + 63) // 64
    units = np.array(layout.units, dtype=np.int32)
    ubits = np.array([_words(bits, words) for bits in unit_bits(shape)], dtype=np.uint64)
    peers = np.array([_words(bits, words) for bits in _peer_bits(shape)], dtype=np.uint64)
    return units, ubits, peers


def _words(bits: int, words: int) -> list[int]:
    """A cell bitset (a negative one: every cell) as ``words`` 64-bit words, the lowest first."""
    return [(bits >> (64 * w)) & 0xFFFF_FFFF_FFFF_FFFF for w in range(words)]


def _compiled_wings(cg: CandidateGrid, size: int, touched: int) -> list[tuple[float, int, Callable[[], Step]]] | None:
    """The wings as ``_wings`` finds them (rating, eliminations, and the step, built when asked), in its order,
    by the compiled search; ``None`` when its output did not fit (the Python search then answers)."""
    units, ubits, peers = _kernel_tables(cg.shape)
    if units.shape[1] != cg.n or ubits.shape[0] != len(cg.layout.units):
        return None
    head = np.empty((_MAX_WINGS, 6), np.int64)
    cells = np.empty((_MAX_WINGS, size), np.int64)
    gone = np.empty((_MAX_GONE, 2), np.int64)
    masks = np.array(cg.masks, dtype=np.uint64)
    count = als_kernel.wings(masks, cg.n, units, ubits, peers, size,
                            np.array(_words(touched, ubits.shape[1]), dtype=np.uint64), head, cells, gone)
    if count < 0:
        return None
    found: list[tuple[float, int, Callable[[], Step]]] = []
    for row, set_cells in zip(head[:count].tolist(), cells[:count].tolist(), strict=True):
        pivot, r0, r1, largest, first, many = row
        restricted = [r0] if r1 == 0 else [r0, r1]
        victims = [tuple(pair) for pair in gone[first : first + many].tolist()]

        def make(set_cells: list[int] = set_cells, pivot: int = pivot, restricted: list[int] = restricted,
                 victims: list[tuple[int, int]] = victims) -> Step:
            union = 0
            for c in set_cells:
                union |= cg.masks[c]
            return _step(cg, size, tuple(set_cells), union, pivot, restricted, victims)

        found.append((rating(size, largest), many, make))
    return found


@cache
def _peer_bits(shape: Shape) -> tuple[int, ...]:
    from bitdoku.logic.candidates import layout_of

    return tuple(sum(1 << p for p in peers) for peers in layout_of(shape).peers)


def _sets(cg: CandidateGrid, size: int, touched: int = -1) -> Iterator[tuple[tuple[int, ...], int]]:
    """Almost locked sets of ``size`` cells in one unit (each cell with 2..size+1 candidates), once each; only
    in the units that meet the cell bitset ``touched`` (the others' sets come first in no unit that does)."""
    masks = cg.masks
    seen: set[tuple[int, ...]] = set()
    bits = unit_bits(cg.shape)
    for index, unit in enumerate(cg.layout.units):
        if not bits[index] & touched:
            continue
        for places, union in _unit_sets(size, tuple(masks[c] for c in unit)):
            cells = tuple(unit[i] for i in places)
            if cells not in seen:
                seen.add(cells)
                yield cells, union


@lru_cache(maxsize=1 << 12)
def _unit_sets(size: int, masks: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The almost locked sets of ``size`` cells among a unit's masks, as (positions, union): a pure function of
    the unit's masks, cached, since most units do not change from one ladder pass to the next.

    The hits come from the passes of one puzzle, hardly ever from another puzzle (150 of top1465: 76,960 hits
    with 65,536 entries, 76,811 with 1,024), so the cache is kept small: at 65,536 entries (about 1.3 KB each)
    ``bitdoku rate`` of a big file grew by ~4.5 KB a puzzle towards 85 MB (docs/reliability/bad-input.md)."""
    cells = [i for i, m in enumerate(masks) if 2 <= m.bit_count() <= size + 1]
    found = []
    if len(cells) < size:
        return ()
    stack: list[tuple[int, tuple[int, ...], int]] = [(0, (), 0)]
    while stack:
        start, chosen, union = stack.pop()
        if len(chosen) == size:
            if union.bit_count() == size + 1:
                found.append((chosen, union))
            continue
        for index in range(len(cells) - (size - len(chosen)), start - 1, -1):
            merged = union | masks[cells[index]]
            if merged.bit_count() <= size + 1:
                stack.append((index + 1, (*chosen, cells[index]), merged))
    found.sort()
    return tuple(found)


#: The last state ``_pivots_and_spots`` read and its tables, one (state, tables) pair replaced whole (threads
#: sharing it never pair one state with another's tables): the four wing rungs of a ladder pass share them.
_last: list[tuple[CandidateGrid | None, tuple[dict[int, list[int]], list[int]]]] = [(None, ({}, []))]


def _pivots_and_spots(cg: CandidateGrid) -> tuple[dict[int, list[int]], list[int]]:
    """The bivalue cells by their mask (each list increasing), and for each digit (index d-1) the cells holding
    it as a bitset; kept for the last state asked about."""
    state, tables = _last[0]
    if state is cg:
        return tables
    pivots: dict[int, list[int]] = {}
    spots = [0] * cg.n
    for cell, mask in enumerate(cg.masks):
        if mask.bit_count() == 2:
            pivots.setdefault(mask, []).append(cell)
        while mask:
            low = mask & -mask
            spots[low.bit_length() - 1] |= 1 << cell
            mask ^= low
    _last[0] = (cg, (pivots, spots))
    return pivots, spots


def _wings(cg: CandidateGrid, size: int, touched: int = -1) -> Iterator[tuple[float, Step]]:
    """The wings of sets of ``size`` cells, each with its rating, in the order of the sets and pivots; only
    those whose set or pivot meets the cell bitset ``touched``."""
    masks = cg.masks
    peers = _peer_bits(cg.shape)
    pivots, spots = _pivots_and_spots(cg)
    if not pivots:
        return
    fresh = [(mask, cell) for mask, cells in pivots.items() for cell in cells if touched >> cell & 1]
    # An untouched set makes a wing only with a touched pivot that sees it: only the units that meet the touched
    # cells or the peers of a touched pivot hold sets to look at; the touched pivots are met in the order of the
    # loops below, digits (x, z) and then cell.
    reach = touched
    for _, cell in fresh:
        reach |= peers[cell]
    fresh.sort(key=lambda item: (digits_of(item[0]), item[1]))
    for cells, union in _sets(cg, size, reach):
        cell_bits = sum(1 << c for c in cells)
        if cell_bits & touched:
            digits = digits_of(union)
            found: list[tuple[int, ...]] = [(x, z, pivot) for i, x in enumerate(digits) for z in digits[i + 1:]
                     for pivot in pivots.get(1 << (x - 1) | 1 << (z - 1), ())]
        else:
            found = [(*digits_of(mask), pivot) for mask, pivot in fresh if not mask & ~union]
        for x, z, pivot in found:
            if cell_bits >> pivot & 1 or not peers[pivot] & cell_bits:
                continue
            step = _wing(cg, size, cells, cell_bits, union, pivot, (x, z), peers, spots)
            if step is not None:
                yield rating(size, max(masks[c].bit_count() for c in cells)), step


def _wing(cg: CandidateGrid, size: int, cells: tuple[int, ...], cell_bits: int, union: int, pivot: int,
          pair: tuple[int, int], peers: tuple[int, ...], spots: list[int]) -> Step | None:
    """The step of one set and pivot {x, z}, if a digit of the pivot is a restricted common (all its places in
    the set see the pivot) and something goes."""
    seen = peers[pivot]
    restricted = [d for d in pair if not spots[d - 1] & cell_bits & ~seen]
    if not restricted:
        return None
    pattern = cell_bits | 1 << pivot
    victims: list[tuple[int, int]] = []
    for linked in restricted:
        other = pair[1] if linked == pair[0] else pair[0]
        victims += _seen_by_all(other, spots[other - 1] & cell_bits | 1 << pivot, pattern, peers, spots)
    if len(restricted) == 2:
        for digit in digits_of(union):
            if digit not in pair:
                victims += _seen_by_all(digit, spots[digit - 1] & cell_bits, pattern, peers, spots)
    if not victims:
        return None
    return _step(cg, size, cells, union, pivot, restricted, sorted(set(victims)))


def _seen_by_all(digit: int, cells: int, pattern: int, peers: tuple[int, ...],
                 spots: list[int]) -> list[tuple[int, int]]:
    """The candidates of ``digit`` outside the pattern in cells that see every cell of the bitset ``cells``."""
    seen = spots[digit - 1] & ~pattern
    while cells and seen:
        low = cells & -cells
        cells ^= low
        seen &= peers[low.bit_length() - 1]
    out = []
    while seen:
        low = seen & -seen
        seen ^= low
        out.append((low.bit_length() - 1, digit))
    return out


def _step(cg: CandidateGrid, size: int, cells: tuple[int, ...], union: int, pivot: int, restricted: list[int],
          gone: list[tuple[int, int]]) -> Step:
    n = cg.n
    technique = NAMES[size]
    pair = digit_list(digits_of(cg.masks[pivot]))
    link = " and ".join(str(d) for d in restricted)
    text = (
        f"{names(cells, n)} hold {digit_list(digits_of(union))} (one digit more than cells), and {names([pivot], n)} "
        f"is {pair}; {link} cannot be in both (every place of it in the set sees {names([pivot], n)}), so "
        f"remove {removals(gone, n)} ({technique})"
    )
    difficulty = rating(size, max(cg.masks[c].bit_count() for c in cells))
    return make_step(technique, cg, text, eliminations=gone, cells=(*cells, pivot), difficulty=difficulty)
