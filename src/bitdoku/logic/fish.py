"""Fish: basic X-Wing (2 lines), Swordfish (3) and Jellyfish (4), and their finned and sashimi forms.

For one digit, k *base* lines (rows, say) in which the digit fits only within the same k *cover* lines
(columns). Each base row takes the digit once, in k different columns, so the k columns get their digit from
the base rows and it leaves every other cell of the cover columns. See https://www.sudokuwiki.org/X_Wing_Strategy
and https://www.sudokuwiki.org/Sword_Fish_Strategy.

A *finned* fish has extra candidates in the base lines, the *fins*, all in one box. Either a fin holds the digit,
or the fish without its fins is a basic fish; so a cell of a cover line that also sees every fin (it lies in the
fins' box) loses the digit in both cases. When a base line has only one candidate left in the cover lines, the
fish without its fins would be degenerate: that is a *sashimi* fish (https://www.sudokuwiki.org/Finned_X_Wing,
https://hodoku.sourceforge.net/en/tech_fishb.php).

Every fish search reads ``digit_lines``: for each digit and each line, the positions of the digit in the line as
a bitmask, built once per candidate state. Base lines are combined depth first while the union of their masks
can still be covered (k positions, or k positions outside one box for a finned fish), so most combinations are
cut early.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

import numpy as np

from bitdoku.logic.candidates import CandidateGrid, layout_of, suits_compiled_finders
from bitdoku.logic.changes import Changes
from bitdoku.logic.kernels.fish import basic_fish as _search_fish
from bitdoku.logic.step import Step, make_step, names, removals
from bitdoku.logic.subsets import _union_groups, union_groups_within
from bitdoku.shape import Shape

FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
KINDS = ("rows", "columns")

#: The last state ``digit_lines`` read and its table, as one (state, table) pair that is replaced whole, so that
#: threads sharing it never pair one state with another's table: the ladder asks every fish finder about one state.
_last: list[tuple[CandidateGrid | None, tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]]] = [(None, ())]


def digit_lines(cg: CandidateGrid) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """For each digit d (index d-1): (rows, columns), where rows[r] has bit c set when d fits in r(r+1)c(c+1),
    and columns[c] has bit r set for the same cell. Kept for the last state asked about."""
    state, table = _last[0]
    if state is cg:
        return table
    n, masks = cg.n, cg.masks
    if n <= _NUMPY_LINES:
        table = _digit_lines_numpy(masks, n)
        _last[0] = (cg, table)
        return table
    rows = [[0] * n for _ in range(n)]
    cols = [[0] * n for _ in range(n)]
    for cell, mask in enumerate(masks):
        if mask:
            r, c = divmod(cell, n)
            rbit, cbit = 1 << c, 1 << r
            while mask:
                low = mask & -mask
                d = low.bit_length() - 1
                rows[d][r] |= rbit
                cols[d][c] |= cbit
                mask ^= low
    table = tuple((tuple(rows[d]), tuple(cols[d])) for d in range(n))
    _last[0] = (cg, table)
    return table


#: Up to this many digits the line masks fit NumPy's int64 and ``digit_lines`` builds them there.
_NUMPY_LINES = 62


def _digit_lines_numpy(masks: tuple[int, ...], n: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """``digit_lines`` in NumPy: the masks spread into a (digit, row, column) array of bits, each row (column)
    weighed by the powers of two; 3x faster than the loop over the candidates, and fish read it every pass."""
    spread = np.array(masks, dtype=np.int64)[None, :] >> np.arange(n, dtype=np.int64)[:, None]
    cube = (spread & 1).reshape(n, n, n)
    weights = np.int64(1) << np.arange(n, dtype=np.int64)
    rows, cols = (cube @ weights).tolist(), (cube.transpose(0, 2, 1) @ weights).tolist()
    return tuple((tuple(rows[d]), tuple(cols[d])) for d in range(n))


def _cell(kind: int, line: int, pos: int, n: int) -> int:
    """The cell at position ``pos`` of line ``line`` (a row when kind is 0, a column when 1)."""
    return line * n + pos if kind == 0 else pos * n + line


def bits(mask: int) -> list[int]:
    """The set bit positions of a mask, increasing."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


# -- basic fish -------------------------------------------------------------------------------------------


def basic_fish(k: int) -> Callable[..., Iterator[Step]]:
    """The finder of basic fish of size k, rows as base lines first, then columns."""
    technique = FISH_NAMES[k]

    def find(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
        n = cg.n
        steps = _compiled_fish(cg, k, technique, changes) if COMPILED and suits_compiled_finders(cg) else None
        if steps is not None:
            yield from steps
            return
        for digit in range(1, n + 1):
            lost = -1 if changes is None else changes.by_digit[digit - 1]
            if not lost:
                continue
            for base_kind in (0, 1):
                touched = -1 if lost < 0 else _lines_of(lost, base_kind, n)
                yield from _fish(cg, digit, k, base_kind, technique, touched)

    find.__name__ = f"find_{technique.lower().replace('-', '_')}"
    find.__doc__ = (f"{technique}: {k} lines where a digit fits only within {k} crossing lines; with ``changes``, "
                    "only the fish with a base line where the digit changed.")
    return find


def _lines_of(cells: int, kind: int, n: int) -> int:
    """The lines of ``kind`` (0 rows, 1 columns) through the cells of a bitset, as a bitset of line indices."""
    lines = 0
    while cells:
        low = cells & -cells
        cells ^= low
        r, c = divmod(low.bit_length() - 1, n)
        lines |= 1 << (c if kind else r)
    return lines


def _fish(cg: CandidateGrid, digit: int, k: int, base_kind: int, technique: str,
          touched: int = -1) -> Iterator[Step]:
    """Fish with base lines of one kind (0 rows, 1 columns); cover lines are the other kind. Only those with a
    base line in the bitset ``touched`` (the lines where the digit changed, ``bitdoku.logic.changes``)."""
    base_masks = digit_lines(cg)[digit - 1][base_kind]
    items = [(line, mask) for line, mask in enumerate(base_masks) if 2 <= mask.bit_count() <= k]
    if len(items) < k or not any(touched >> line & 1 for line, _ in items):
        return
    for bases, union in _union_groups(items, k):
        base_set = sum(1 << b for b in bases)
        if not base_set & touched:
            continue
        step = _fish_step(cg, digit, base_kind, technique, bases, union)
        if step is not None:
            yield step


def _fish_step(cg: CandidateGrid, digit: int, base_kind: int, technique: str, bases: list[int],
               union: int) -> Step | None:
    """The step of the fish on ``bases`` (lines of ``base_kind``) covered by the lines of ``union``, or ``None``
    when it removes nothing."""
    n = cg.n
    lines = digit_lines(cg)[digit - 1]
    base_masks, cover_masks = lines[base_kind], lines[1 - base_kind]
    base_set = sum(1 << b for b in bases)
    covers = bits(union)
    gone = [
        (_cell(1 - base_kind, cover, pos, n), digit)
        for cover in covers
        for pos in bits(cover_masks[cover] & ~base_set)
    ]
    if not gone:
        return None
    cover_base, base_base = (1 - base_kind) * n, base_kind * n
    text = (
        f"in {KINDS[base_kind]} {_numbers(bases)}, {digit} fits only in {KINDS[1 - base_kind]} "
        f"{_numbers(covers)}, so remove {removals(gone, n)} ({technique})"
    )
    pattern = [_cell(base_kind, b, pos, n) for b in bases for pos in bits(base_masks[b])]
    units = [*(base_base + b for b in bases), *(cover_base + c for c in covers)]
    return make_step(technique, cg, text, eliminations=gone, cells=pattern, units=units)


#: Whether classic grids (up to 32 digits) use the compiled basic fish search (``logic.kernels.fish``); the
#: Python one is its reference.
COMPILED = True


def _compiled_fish(cg: CandidateGrid, k: int, technique: str, changes: Changes | None) -> Iterator[Step] | None:
    """The compiled search's fish made steps, given ``changes`` only those the Python finder looks at (a base
    line where the digit changed); ``None`` when the search ran out of room (then the Python one runs)."""
    found = np.empty((256, 4), dtype=np.int64)
    rows = _search_fish(cg.mask_array(), cg.n, k, found)
    if rows < 0:
        return None
    return _fish_steps(cg, found[:rows].tolist(), technique, changes)


def _fish_steps(cg: CandidateGrid, rows: list[list[int]], technique: str,
                changes: Changes | None) -> Iterator[Step]:
    for digit, base_kind, bases, union in rows:
        if changes is not None and not bases & _lines_of(changes.by_digit[digit], base_kind, cg.n):
            continue
        step = _fish_step(cg, digit + 1, base_kind, technique, bits(bases), union)
        if step is not None:
            yield step


def _numbers(lines: list[int]) -> str:
    """Line numbers as the fish sentences write them, 1-based: ``'2 and 5 and 7'``."""
    return " and ".join(str(line + 1) for line in lines)


find_x_wing = basic_fish(2)
find_swordfish = basic_fish(3)
find_jellyfish = basic_fish(4)


# -- finned and sashimi fish ------------------------------------------------------------------------------


@cache
def box_lines(shape: Shape, kind: int) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """The box geometry seen from base lines of ``kind`` (0 rows, 1 columns): (bands, stacks), each a tuple of
    (mask, indices): the base lines of each band (a row of boxes, for rows), and the cross positions of each
    stack. A box is one band crossed with one stack. (Cached by shape: a layout's hash walks all its tables.)"""
    layout, n = layout_of(shape), shape.n
    band_of = [layout.box[_cell(kind, i, 0, n)] for i in range(n)]
    stack_of = [layout.box[_cell(kind, 0, i, n)] for i in range(n)]
    bands = tuple(_group(band_of, b) for b in sorted(set(band_of)))
    stacks = tuple(_group(stack_of, s) for s in sorted(set(stack_of)))
    return bands, stacks


def _group(owner: list[int], which: int) -> tuple[int, tuple[int, ...]]:
    """(mask, indices) of the indices whose owner is ``which``."""
    indices = tuple(i for i, o in enumerate(owner) if o == which)
    return sum(1 << i for i in indices), indices


def _groups_within(items: list[tuple[int, int]], k: int) -> list[tuple[tuple[int, ...], int]]:
    """Groups of k items (key, mask), in lexicographic order, whose masks together have at most k bits, pruned
    as soon as a partial union has more: a list of (keys, union). Nested loops for k <= 4, the fish sizes: in
    Python they cost a third of a recursion."""
    keys = [key for key, _ in items]
    masks = [mask for _, mask in items]
    last = len(items)
    found: list[tuple[tuple[int, ...], int]] = []
    if k == 2:
        for a in range(last - 1):
            ua = masks[a]
            for b in range(a + 1, last):
                ub = ua | masks[b]
                if ub.bit_count() <= 2:
                    found.append(((keys[a], keys[b]), ub))
    elif k == 3:
        for a in range(last - 2):
            ua = masks[a]
            for b in range(a + 1, last - 1):
                ub = ua | masks[b]
                if ub.bit_count() <= 3:
                    for c in range(b + 1, last):
                        uc = ub | masks[c]
                        if uc.bit_count() <= 3:
                            found.append(((keys[a], keys[b], keys[c]), uc))
    elif k == 4:
        for a in range(last - 3):
            ua = masks[a]
            for b in range(a + 1, last - 2):
                ub = ua | masks[b]
                if ub.bit_count() <= 4:
                    for c in range(b + 1, last - 1):
                        uc = ub | masks[c]
                        if uc.bit_count() <= 4:
                            for d in range(c + 1, last):
                                ud = uc | masks[d]
                                if ud.bit_count() <= 4:
                                    found.append(((keys[a], keys[b], keys[c], keys[d]), ud))
    else:
        found = [(tuple(group), union) for group, union in union_groups_within(items, k)]
    return found


def _subsets(mask: int, size: int) -> Iterator[int]:
    """The sub-masks of ``mask`` with ``size`` bits."""
    places = bits(mask)

    def pick(start: int, left: int, chosen: int) -> Iterator[int]:
        if left == 0:
            yield chosen
            return
        for i in range(start, len(places) - left + 1):
            yield from pick(i + 1, left - 1, chosen | 1 << places[i])

    yield from pick(0, size, 0)


def finned_fish(k: int) -> Callable[[CandidateGrid], Iterator[Step]]:
    """The finder of finned (and sashimi) fish of size k, rows as base lines first, then columns."""
    name = FISH_NAMES[k]

    def find(cg: CandidateGrid) -> Iterator[Step]:
        for digit in range(1, cg.n + 1):
            for base_kind in (0, 1):
                yield from _finned(cg, digit, k, base_kind, name)

    find.__name__ = f"find_finned_{name.lower().replace('-', '_')}"
    find.__doc__ = (
        f"Finned and sashimi {name}s: {k} lines where a digit fits only within {k} crossing lines and a few "
        "fins in one box."
    )
    return find


def _finned(cg: CandidateGrid, digit: int, k: int, kind: int, name: str) -> Iterator[Step]:
    """Finned fish of one digit with base lines of one kind (0 rows, 1 columns), fin box by fin box.

    With the fins in the box of band b and stack s, a base line of band b may hold anything in stack s (fins,
    or cover cells), and every other cell of a base line must lie in a cover line. So the base lines are grouped
    as for a basic fish, on their masks with stack s cleared for the lines of band b: a union of at most k
    positions, the cover lines they force."""
    lines = digit_lines(cg)[digit - 1]
    base_masks, cover_masks = lines
    if kind:
        base_masks, cover_masks = cover_masks, base_masks
    bands, stacks = box_lines(cg.shape, kind)
    plain = [(line, mask) for line, mask in enumerate(base_masks) if mask and mask.bit_count() <= k]
    for band_mask, band_lines in bands:
        band_items = [(line, base_masks[line]) for line in band_lines if base_masks[line]]
        if len(band_items) < 2:
            continue
        # bands are runs of consecutive lines, so the other lines come before or after them
        first, last = band_items[0][0], band_items[-1][0]
        before = [item for item in plain if item[0] < first]
        after = [item for item in plain if item[0] > last]
        for stack, positions in stacks:
            # the fins' line and a line that loses the digit: two lines of the band with the digit in the box
            if sum(1 for _, mask in band_items if mask & stack) < 2:
                continue
            in_box = [(p, cover_masks[p] & band_mask) for p in positions]  # the box, position by position
            inside = [(line, forced) for line, mask in band_items if (forced := mask & ~stack).bit_count() <= k]
            for bases, forced in _groups_within(before + inside + after, k):
                base_set, free = 0, 0  # free: the box's positions of the band's base lines, not yet covers
                for b in bases:
                    base_set |= 1 << b
                    if band_mask >> b & 1:
                        free |= base_masks[b]
                free &= stack & ~forced
                extra = k - forced.bit_count()
                if free.bit_count() <= extra:
                    continue  # no fin left: a basic fish (or fewer lines)
                reach = forced | free
                victims = [(p, rows) for p, rows in in_box if reach >> p & 1 and rows & ~base_set]
                if victims:  # cells of the box outside the base lines, in possible cover lines
                    yield from _cover_choices(cg, digit, kind, name, bases, forced, free, base_masks, victims)


def _cover_choices(
    cg: CandidateGrid,
    digit: int,
    kind: int,
    name: str,
    bases: tuple[int, ...],
    forced: int,
    free: int,
    base_masks: tuple[int, ...],
    victims: list[tuple[int, int]],
) -> Iterator[Step]:
    """The finned fish of these base lines: the ``forced`` cover lines and enough of the ``free`` positions
    (in the fins' box) to make k; the rest of the free positions are the fins. ``victims`` are the box's
    positions with the digit outside the base lines: (position, mask of those lines)."""
    n, k = cg.n, len(bases)
    base_set = sum(1 << b for b in bases)
    for chosen in _subsets(free, k - forced.bit_count()):
        covers = forced | chosen
        if all(base_masks[b] & covers for b in bases):
            gone = [
                (_cell(1 - kind, p, q, n), digit)
                for p, rows in victims
                if covers >> p & 1
                for q in bits(rows & ~base_set)
            ]
            if gone:
                yield _finned_step(cg, digit, kind, name, bases, covers, free & ~chosen, base_masks, gone)


def _finned_step(
    cg: CandidateGrid,
    digit: int,
    kind: int,
    name: str,
    bases: tuple[int, ...],
    covers: int,
    fin_positions: int,
    base_masks: tuple[int, ...],
    gone: list[tuple[int, int]],
) -> Step:
    """The step of a finned fish: its name (sashimi when a base line has one cover cell), sentence and cells."""
    n = cg.n
    fins = [_cell(kind, b, p, n) for b in bases for p in bits(base_masks[b] & fin_positions)]
    sashimi = any((base_masks[b] & covers).bit_count() == 1 for b in bases)
    technique = f"{'Sashimi' if sashimi else 'Finned'} {name}"
    box = cg.layout.box[fins[0]]
    cover_list = bits(covers)
    cover_kind = KINDS[1 - kind]
    text = (
        f"in {KINDS[kind]} {_numbers(list(bases))}, {digit} fits only in {cover_kind} {_numbers(cover_list)} "
        f"and the fin{'s' if len(fins) > 1 else ''} {names(fins, n)}: a fin holds {digit}, or the {cover_kind} "
        f"take it from those {KINDS[kind]}; either way remove {removals(gone, n)}, in box {box + 1} and a cover "
        f"{cover_kind[:-1]} ({technique.lower()})"
    )
    pattern = [_cell(kind, b, p, n) for b in bases for p in bits(base_masks[b])]
    units = [*(kind * n + b for b in bases), *((1 - kind) * n + c for c in cover_list), 2 * n + box]
    return make_step(technique, cg, text, eliminations=gone, cells=pattern, units=units)


find_finned_x_wing = finned_fish(2)
find_finned_swordfish = finned_fish(3)
find_finned_jellyfish = finned_fish(4)
