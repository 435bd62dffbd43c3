"""Naked and hidden subsets (pairs, triples, quads) within one unit.

- **Naked subset**: k cells of a unit whose candidates together are exactly k digits. Those digits must go in
  those cells, so they leave every other cell of the unit.
- **Hidden subset**: k digits whose places in a unit are together exactly k cells. Those cells must hold those
  digits, so every other candidate leaves them.

See https://www.sudokuwiki.org/Naked_Candidates and https://www.sudokuwiki.org/Hidden_Candidates.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator
from functools import cache

import numpy as np

from bitdoku.logic.als import bits_of
from bitdoku.logic.candidates import CandidateGrid, digits_of, layout_of, suits_compiled_finders
from bitdoku.logic.changes import Changes, digits_in
from bitdoku.logic.kernels.subsets import subsets as _search_subsets
from bitdoku.logic.step import Step, digit_list, make_step, names, removals
from bitdoku.shape import Shape

SIZE_NAMES = {2: "Pair", 3: "Triple", 4: "Quad"}


def _union_groups(items: list[tuple[int, int]], k: int) -> Iterator[tuple[list[int], int]]:
    """Groups of k items (key, mask) whose masks together have exactly k bits. Yields (keys, union)."""
    return ((keys, union) for keys, union in union_groups_within(items, k) if union.bit_count() == k)


def _union_groups_with(items: list[tuple[int, int]], k: int,
                       required: Container[int]) -> Iterator[tuple[list[int], int]]:
    """``_union_groups`` less the groups without a key in ``required``, in the same order: each required item's
    groups are the groups of k-1 among the items its mask leaves room for, so a search given a few changed cells
    (or digits) looks at their groups only, not at every group of the unit."""
    found: dict[tuple[int, ...], int] = {}
    for index, (key, mask) in enumerate(items):
        if key not in required:
            continue
        rest = [(i, m) for i, (_, m) in enumerate(items) if i != index and (m | mask).bit_count() <= k]
        for others, union in union_groups_within(rest, k, mask, k - 1):
            found[tuple(sorted((*others, index)))] = union
    for group in sorted(found):  # the lexicographic order of the items, as union_groups_within
        union = found[group]
        if union.bit_count() == k:
            yield [items[i][0] for i in group], union


def union_groups_within(items: list[tuple[int, int]], k: int, start: int = 0,
                        size: int | None = None) -> Iterator[tuple[list[int], int]]:
    """Groups of k items (key, mask) whose masks together (with ``start``) have at most k bits, pruned as soon
    as a partial union has more than k bits, in lexicographic order of the items. Yields (keys, union).
    ``size``: groups of that many items instead (the bound stays k bits).

    An explicit stack (the last choices pushed first, so they come out in order) rather than nested generators:
    subsets and fish call this for every unit or digit of every ladder pass, and a generator a level cost more
    than the work."""
    stack: list[tuple[int, list[int], int]] = [(0, [], start)]
    last = len(items)
    size = k if size is None else size
    while stack:
        first, keys, union = stack.pop()
        if len(keys) == size:
            yield keys, union
            continue
        for index in range(last - (size - len(keys)), first - 1, -1):
            key, mask = items[index]
            merged = union | mask
            if merged.bit_count() <= k:
                stack.append((index + 1, [*keys, key], merged))


def _small_cell_changed(masks: tuple[int, ...], touched: int, k: int) -> bool:
    """Whether a cell of the bitset ``touched`` (cells of a unit that changed) is open with at most k candidates.

    Why a finder given ``changes`` may skip a unit without one: a naked set of k found now has its k cells, each
    with at most k candidates, as its pattern, and one of them changed (``bitdoku.logic.changes``); likewise a
    hidden set has a digit of the set that lost a place in the unit. A unit where only cells with more candidates
    changed holds no naked set that was not there when the finder last found nothing."""
    while touched:
        low = touched & -touched
        mask = masks[low.bit_length() - 1]
        if mask and mask.bit_count() <= k:
            return True
        touched ^= low
    return False


def _naked_step(cg: CandidateGrid, technique: str, index: int, cells: list[int], union: int,
                gone: list[tuple[int, int]]) -> Step:
    n = cg.n
    text = (
        f"in {cg.layout.unit_name(index)}, {names(cells, n)} hold only {digit_list(digits_of(union))}"
        f", so remove {removals(gone, n)} ({technique.lower()})"
    )
    return make_step(technique, cg, text, eliminations=gone, cells=cells, units=[index])


def _hidden_step(cg: CandidateGrid, technique: str, index: int, digits: list[int], cells: list[int],
                 gone: list[tuple[int, int]]) -> Step:
    n = cg.n
    text = (
        f"in {cg.layout.unit_name(index)}, {digit_list(digits)} fit only in {names(cells, n)}, "
        f"so remove {removals(gone, n)} ({technique.lower()})"
    )
    return make_step(technique, cg, text, eliminations=gone, cells=cells, units=[index])


#: Whether classic grids (up to 32 digits) use the compiled search (``logic.kernels.subsets``); the Python one is its
#: reference.
COMPILED = True
_FOUND_ROWS = 512


def _compiles(cg: CandidateGrid) -> bool:
    return COMPILED and suits_compiled_finders(cg)


def _compiled_rows(cg: CandidateGrid, k: int, hidden: bool) -> list[list[int]] | None:
    """The compiled search's sets of the whole state (unit, cell positions, digits), or ``None`` when there are
    more than it has room for (then the Python search runs)."""
    found = np.empty((_FOUND_ROWS, 3), dtype=np.int64)
    rows = _search_subsets(cg.mask_array(), _unit_array(cg.shape), k, hidden, found)
    return None if rows < 0 else found[:rows].tolist()


def _compiled_steps(cg: CandidateGrid, rows: list[list[int]], hidden: bool, technique: str,
                    changes: Changes | None) -> Iterator[Step]:
    """The compiled search's sets made steps as the Python finder makes them; given ``changes``, only those the
    Python finder looks at (a set holding a changed cell, or a digit that lost a place in the unit:
    ``_union_groups_with``), so both give the same steps for any changes."""
    masks, units = cg.masks, cg.layout.units
    for index, positions, digits in rows:
        unit = units[index]
        cells = [unit[p] for p in bits_of(positions)]
        if hidden:
            if changes is not None and not digits & digits_in(changes, cg.layout.unit_bits[index]):
                continue
            gone = [(c, d) for c in cells for d in digits_of(masks[c] & ~digits)]
            yield _hidden_step(cg, technique, index, digits_of(digits), cells, gone)
        else:
            if changes is not None and not any(changes.cells >> c & 1 for c in cells):
                continue
            gone = [(c, d) for c in unit if masks[c] and c not in cells for d in digits_of(masks[c] & digits)]
            yield _naked_step(cg, technique, index, cells, digits, gone)


@cache
def _unit_array(shape: Shape) -> np.ndarray:
    """A classic shape's units as an int32[U, N] array (the compiled search's input)."""
    return np.array(layout_of(shape).units, dtype=np.int32)


def naked_subsets(k: int) -> Callable[..., Iterator[Step]]:
    """The finder of naked subsets of size k (2 = pair, 3 = triple, 4 = quad). Given ``changes`` (since a state
    where it found nothing, ``bitdoku.logic.changes``), it looks only at the units they touch."""
    technique = f"Naked {SIZE_NAMES[k]}"

    def find(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
        rows = _compiled_rows(cg, k, False) if _compiles(cg) else None
        if rows is not None:
            yield from _compiled_steps(cg, rows, False, technique, changes)
            return
        masks = cg.masks
        bits = cg.layout.unit_bits
        for index, unit in enumerate(cg.layout.units):
            if changes is not None and not _small_cell_changed(masks, bits[index] & changes.cells, k):
                continue
            open_cells = [c for c in unit if masks[c]]
            if len(open_cells) <= k:
                continue
            items = [(c, masks[c]) for c in open_cells if masks[c].bit_count() <= k]
            # given changes, a new set holds a changed cell (_small_cell_changed): only the groups with one
            groups = _union_groups(items, k) if changes is None else _union_groups_with(
                items, k, bits_of(bits[index] & changes.cells))
            for cells, union in groups:
                gone = [(c, d) for c in open_cells if c not in cells for d in digits_of(masks[c] & union)]
                if gone:
                    yield _naked_step(cg, technique, index, cells, union, gone)

    find.__name__ = f"find_{technique.lower().replace(' ', '_')}s"
    find.__doc__ = f"{technique}s: {k} cells of a unit with {k} candidates between them."
    return find


def hidden_subsets(k: int) -> Callable[..., Iterator[Step]]:
    """The finder of hidden subsets of size k; with ``changes``, only in the units they touch."""
    technique = f"Hidden {SIZE_NAMES[k]}"

    def find(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
        rows = _compiled_rows(cg, k, True) if _compiles(cg) else None
        if rows is not None:
            yield from _compiled_steps(cg, rows, True, technique, changes)
            return
        masks = cg.masks
        # the places of each digit in a unit as a bitset of cells: the state's digit bitsets ANDed with the unit
        by_digit, bits = cg.digit_cells(), cg.layout.unit_bits
        for index, unit in enumerate(cg.layout.units):
            lost = 0
            if changes is not None:
                lost = digits_in(changes, bits[index]) if bits[index] & changes.cells else 0
                if not lost:
                    continue
            unit_cells = bits[index]
            spots = [(d + 1, places) for d, cells in enumerate(by_digit) if (places := cells & unit_cells)]
            if len(spots) <= k:
                continue
            items = [(d, m) for d, m in spots if m.bit_count() <= k]
            # given changes, a new hidden set has a digit that lost a place in the unit (see _small_cell_changed)
            groups = _union_groups(items, k) if changes is None else _union_groups_with(
                items, k, [d for d, _ in items if lost >> (d - 1) & 1])
            for digits, union in groups:
                keep = sum(1 << (d - 1) for d in digits)
                cells = [c for c in unit if union >> c & 1]
                gone = [(c, d) for c in cells for d in digits_of(masks[c] & ~keep)]
                if gone:
                    yield _hidden_step(cg, technique, index, digits, cells, gone)

    find.__name__ = f"find_{technique.lower().replace(' ', '_')}s"
    find.__doc__ = f"{technique}s: {k} digits with {k} places between them in a unit."
    return find


find_naked_pairs = naked_subsets(2)
find_naked_triples = naked_subsets(3)
find_naked_quads = naked_subsets(4)
find_hidden_pairs = hidden_subsets(2)
find_hidden_triples = hidden_subsets(3)
find_hidden_quads = hidden_subsets(4)
