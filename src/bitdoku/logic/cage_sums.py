"""Sum groups of a Killer: the cages and the virtual cages the rule of 45 makes, and which digits each cell of a
group can still take.

A *group* is a set of cells with a known sum: a cage with a total, the *innies* of a region (the cells of a row,
column or box, or of 2-3 adjacent ones, that the cages wholly inside it leave out: they add up to the region's
sum minus those cages' totals), its *outies* (the cells by which the cages over a region stick out: they add up
to those cages' totals minus the region's sum), and the rest of a group once a group inside it is taken away
(cage splitting). A group's cells may repeat a digit unless they see each other (``distinct``: a cage, the
innies of one unit).

``group_options`` is the one rule every Killer technique reads: given the group's cells as the candidate state
shows them (a candidate mask, or a placed digit), the digits each open cell takes in some filling of the group
that keeps its sum (and its distinct digits), and the digit sets those fillings use. It is a pure function of
its arguments, cached: a solve asks the same question of a group until one of its cells changes.

See https://www.sudokuwiki.org/Killer_Sudoku (rule of 45, innies and outies, cage splitting).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations
from operator import itemgetter

from bitdoku.constraints.cages import Cage, cage_name, cage_symbol, combinations
from bitdoku.geometry import Geometry
from bitdoku.logic.candidates import Layout, layout_of
from bitdoku.logic.step import names

CAGE, INNIES, OUTIES, SPLIT = "cage", "innies", "outies", "split"

#: Groups whose cells may repeat a digit are searched cell by cell; past this many cells they are left out (the
#: search grows with the product of the candidates, and such big groups rarely tell anything).
MAX_LOOSE_CELLS = 6
#: The search of a group whose cells may repeat a digit stops after this many nodes; it then falls back on the sum
#: alone (still sound, since every digit it keeps could make the sum).
LOOSE_NODES = 300


@dataclass(frozen=True)
class Group:
    """Cells with a known sum: ``kind`` (cage, innies, outies, split), ``units`` (the region of innies and
    outies: 1-3 units), ``cage`` (a cage's index, else -1), whether its digits all differ, for each cell the
    earlier cells it sees (``seen``, bitsets of positions; all of them when ``distinct``), how it is named
    (``label``) and why it has its sum (``reason``, the start of a step's sentence)."""

    kind: str
    cells: tuple[int, ...]
    total: int
    units: tuple[int, ...]
    cage: int
    distinct: bool
    seen: tuple[int, ...]
    label: str
    #: Builds ``reason`` (only when a step is written: most groups never are).
    why: Callable[[], str] = field(compare=False, repr=False)
    #: Reads the group's cells out of a state's codes (``state_codes``) as a tuple, in C.
    pick: Callable[[Sequence[int]], tuple[int, ...]] = field(compare=False, repr=False, default=tuple)

    @property
    def reason(self) -> str:
        """Why the group has its sum, the start of a step's sentence: ``cage B (r1c3, r1c4) adds up to 10``."""
        return self.why()

    @property
    def bits(self) -> int:
        return sum(1 << c for c in self.cells)


@dataclass(frozen=True)
class Options:
    """What a group's fillings allow: for each cell, the digits it takes in some filling (0 for a placed cell),
    and the digit sets the fillings use (placed digits included; empty for groups whose digits may repeat)."""

    allowed: tuple[int, ...]
    sets: tuple[int, ...]
    feasible: bool
    #: Whether some open cell has a candidate outside ``allowed`` (the group tells something).
    removes: bool = False


def state_codes(values: bytes, masks: tuple[int, ...]) -> list[int]:
    """Each cell of a state as ``group_options`` reads it: its candidate mask when open, minus its digit when
    placed (one list a finder call, which every group then picks from)."""
    return [mask if not value else -value for value, mask in zip(values, masks, strict=True)]


def options_of(group: Group, codes: Sequence[int], n: int) -> Options:
    """``group_options`` for the group's cells in a state (``state_codes``)."""
    return group_options(group.total, group.pick(codes), group.seen if not group.distinct else None, n)


@lru_cache(maxsize=1 << 16)
def group_options(total: int, states: tuple[int, ...], seen: tuple[int, ...] | None, n: int) -> Options:
    """The digits each cell of a group can take: ``states`` holds a candidate mask for an open cell, minus the
    digit for a placed one; ``seen`` is ``None`` when the digits all differ, else each cell's earlier peers in
    the group (bitsets of positions)."""
    found = _distinct_options(total, states, n) if seen is None else _loose_options(total, states, seen, n)
    removes = found.feasible and any(state > 0 and state & ~keep for state, keep in zip(states, found.allowed,
                                                                                         strict=True))
    return Options(found.allowed, found.sets, found.feasible, removes)


def _distinct_options(total: int, states: tuple[int, ...], n: int) -> Options:
    """All different digits: for each digit set that completes the placed digits to the sum and fits the open
    cells' candidates, walk the open cells keeping the sets of its digits used so far (at most 2^k), then keep the
    cells' digits that lead to the whole set (forward, then backward: a matching test for every candidate)."""
    placed = 0
    for state in states:
        if state < 0:
            if placed >> (-state - 1) & 1:
                return Options(tuple(0 for _ in states), (), False)
            placed |= 1 << (-state - 1)
    order = [i for i, state in enumerate(states) if state >= 0]
    order.sort(key=lambda i: states[i].bit_count())
    free = [states[i] & ~placed for i in order]
    union = 0
    for mask in free:
        union |= mask
    allowed = [0] * len(states)
    sets = []
    for digits in combinations(len(order), total - mask_sum(placed), n):
        if digits & ~union or (digits & placed):
            continue
        found = _matching_support([mask & digits for mask in free], digits)
        if found is None:
            continue
        sets.append(digits | placed)
        for index, keep in zip(order, found, strict=True):
            allowed[index] |= keep
    return Options(tuple(allowed), tuple(sorted(sets)), bool(sets))


def _matching_support(masks: list[int], digits: int) -> tuple[int, ...] | None:
    """For cells that must take exactly ``digits`` (one each, all different), the digits each cell takes in some
    such filling, or ``None`` when there is none."""
    if all(mask == digits for mask in masks):  # every cell may take every digit of the set
        return tuple(masks)
    if len(masks) == 2:  # two cells, two digits: each takes what leaves the other's digit
        low = digits & -digits
        high = digits ^ low
        first = (low if masks[1] & high else 0) | (high if masks[1] & low else 0)
        second = (low if masks[0] & high else 0) | (high if masks[0] & low else 0)
        first &= masks[0]
        second &= masks[1]
        return (first, second) if first and second else None
    if len(masks) <= 4:
        return _support_by_orders(tuple(masks), digits)
    return _support(tuple(masks), digits)


@lru_cache(maxsize=1 << 15)
def _support_by_orders(masks: tuple[int, ...], digits: int) -> tuple[int, ...] | None:
    """``_matching_support`` for up to four cells: every order of the set's digits over the cells (at most 24),
    cheaper than the bitset walk at this size."""
    bits = [1 << d for d in range(digits.bit_length()) if digits >> d & 1]
    support = [0] * len(masks)
    for order in permutations(bits):
        if all(mask & bit for mask, bit in zip(masks, order, strict=True)):
            for index, bit in enumerate(order):
                support[index] |= bit
    return tuple(support) if support[0] else None


@lru_cache(maxsize=1 << 15)
def _support(masks: tuple[int, ...], digits: int) -> tuple[int, ...] | None:
    """``_matching_support`` on the sets of digits used so far, held as one bitset of sets: set S (a mask of
    digits) is bit S of an int of 2^k bits, and adding digit j+1 to the sets without it is a mask and a shift by
    2^j (so a cell costs k big-int operations, not one per set)."""
    k = digits.bit_length()  # sets of digits 1..k: 2^k bits (512 on 9x9)
    local = masks
    without = _without(k)
    layers = [1]  # level 0: the empty set
    for mask in local:
        reach, last = 0, layers[-1]
        for j in range(k):
            if mask >> j & 1:
                reach |= (last & without[j]) << (1 << j)
        if not reach:
            return None
        layers.append(reach)
    good = 1 << digits
    if not layers[-1] & good:
        return None
    support = [0] * len(masks)
    for index in range(len(masks) - 1, -1, -1):
        last, before = layers[index], 0
        for j in range(k):
            if local[index] >> j & 1:
                came = (good >> (1 << j)) & without[j] & last
                if came:
                    before |= came
                    support[index] |= 1 << j
        good = before
    return tuple(support)


@lru_cache(maxsize=64)
def _without(k: int) -> tuple[int, ...]:
    """For each j < k, the bitset of the subsets of {0..k-1} without j (bit S set when S lacks j)."""
    return tuple(sum(1 << s for s in range(1 << k) if not s >> j & 1) for j in range(k))


def _bounds(free: list[int]) -> tuple[list[int], list[int]]:
    """For each position, the least and the most the cells from it on can add (each its own extreme digit: a
    loose bound, enough to prune)."""
    low, high = [0] * (len(free) + 1), [0] * (len(free) + 1)
    for index in range(len(free) - 1, -1, -1):
        mask = free[index]
        low[index] = low[index + 1] + ((mask & -mask).bit_length() if mask else 0)
        high[index] = high[index + 1] + mask.bit_length()
    return low, high


def _loose_options(total: int, states: tuple[int, ...], seen: tuple[int, ...], n: int) -> Options:
    """Digits that may repeat between cells that do not see each other: a depth-first search over the cells,
    pruned by the sum's bounds, recording each filling's digits; past ``LOOSE_NODES`` nodes, the sum alone."""
    count = len(states)
    digits = [0] * count
    masks = [0] * count
    for i, state in enumerate(states):
        masks[i] = 1 << (-state - 1) if state < 0 else state
    for i in range(count):  # a placed digit leaves the cells that see it
        if states[i] < 0:
            for j in range(count):
                if j != i and (seen[j] >> i & 1 or seen[i] >> j & 1) and states[j] >= 0:
                    masks[j] &= ~masks[i]
    masks = _sum_only(total, masks)
    if not all(masks):
        return Options(tuple(0 for _ in states), (), False)
    low, high = _bounds(masks)
    allowed = [0] * count
    nodes = 0

    def walk(index: int, left: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > LOOSE_NODES:
            return False
        if index == count:
            if left == 0:
                for i in range(count):
                    allowed[i] |= 1 << (digits[i] - 1)
            return True
        options = masks[index]
        for earlier in range(index):
            if seen[index] >> earlier & 1:
                options &= ~(1 << (digits[earlier] - 1))
        while options:
            bit = options & -options
            options ^= bit
            digit = bit.bit_length()
            rest = left - digit
            if low[index + 1] <= rest <= high[index + 1]:
                digits[index] = digit
                if not walk(index + 1, rest):
                    return False
        return True

    if not walk(0, total):
        allowed = masks
    found = tuple(0 if state < 0 else allowed[i] for i, state in enumerate(states))
    return Options(found, (), all(allowed))


def _sum_only(total: int, masks: list[int]) -> list[int]:
    """The digits of each cell that some choice of the others' digits completes to ``total`` (digits may repeat):
    reachable sums forward and backward, as bitsets of sums."""
    count = len(masks)
    forward = [1]
    for mask in masks:
        reach = 0
        for digit in _digits(mask):
            reach |= forward[-1] << digit
        forward.append(reach)
    backward = [0] * (count + 1)
    backward[count] = 1 << total
    for i in range(count - 1, -1, -1):
        reach = 0
        for digit in _digits(masks[i]):
            reach |= backward[i + 1] >> digit
        backward[i] = reach
    allowed = []
    for i, mask in enumerate(masks):
        keep = 0
        for digit in _digits(mask):
            if forward[i] & (backward[i + 1] >> digit):
                keep |= 1 << (digit - 1)
        allowed.append(keep)
    return allowed


def _digits(mask: int) -> list[int]:
    return [d + 1 for d in range(mask.bit_length()) if mask >> d & 1]


@lru_cache(maxsize=1 << 16)
def mask_sum(mask: int) -> int:
    """The sum of the digits of a mask."""
    return sum(d + 1 for d in range(mask.bit_length()) if mask >> d & 1)


# -- the groups of a geometry ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Groups:
    """A Killer's groups by technique: its cages, the innies and outies of one unit, of 2-3 adjacent units, and
    (built on first use) the splits."""

    cages: tuple[Group, ...]
    innies: tuple[Group, ...]
    outies: tuple[Group, ...]
    big_innies: tuple[Group, ...]
    big_outies: tuple[Group, ...]


#: Geometries whose groups are kept (by identity: hashing a Killer's geometry hashes every cage, which a finder
#: call should not pay; a solve keeps one geometry throughout).
GROUPS_KEPT = 64
_kept: dict[int, tuple[Geometry, Groups, list[tuple[Group, ...]]]] = {}


def groups_of(geometry: Geometry) -> Groups:
    """The cages with a total and the rule of 45's groups of a Killer geometry (none for other geometries),
    each set of cells once (the first, easiest way to see it wins); built once a geometry (a pure function,
    kept for the last ``GROUPS_KEPT`` geometries)."""
    return _entry(geometry)[1]


def _entry(geometry: Geometry) -> tuple[Geometry, Groups, list[tuple[Group, ...]]]:
    entry = _kept.get(id(geometry))
    if entry is None or entry[0] is not geometry:
        while len(_kept) >= GROUPS_KEPT:
            _kept.pop(next(iter(_kept)), None)
        entry = (geometry, _build_groups(geometry), [])
        _kept[id(geometry)] = entry
    return entry


def _build_groups(geometry: Geometry) -> Groups:
    layout = layout_of(geometry)
    if not geometry.cages:
        return Groups((), (), (), (), ())
    cages = tuple(_cage_group(layout, index) for index, cage in enumerate(geometry.cages) if cage.total is not None)
    seen = {group.bits for group in cages}
    cage_bits = [sum(1 << c for c in cage.cells) for cage in geometry.cages]
    found: dict[str, list[Group]] = {INNIES: [], OUTIES: [], "big " + INNIES: [], "big " + OUTIES: []}
    for units in _regions(layout):
        for group in _region_groups(layout, units, cage_bits):
            if group.bits in seen:
                continue
            seen.add(group.bits)
            found[("big " if len(units) > 1 else "") + group.kind].append(group)
    return Groups(cages, tuple(found[INNIES]), tuple(found[OUTIES]), tuple(found["big " + INNIES]),
                  tuple(found["big " + OUTIES]))


def splits_of(geometry: Geometry) -> tuple[Group, ...]:
    """Cage splitting: for a group holding another one, the cells it has beyond it, with the difference of their
    sums (each set of cells once, and none already a group); built on first use, kept with the groups."""
    entry = _entry(geometry)
    if not entry[2]:
        entry[2].append(_build_splits(geometry, entry[1]))
    return entry[2][0]


def _build_splits(geometry: Geometry, groups: Groups) -> tuple[Group, ...]:
    every = [*groups.cages, *groups.innies, *groups.outies, *groups.big_innies, *groups.big_outies]
    layout = layout_of(geometry)
    known = {group.bits for group in every}
    found = []
    bits = [group.bits for group in every]
    for outer, outer_bits in zip(every, bits, strict=True):
        for inner, inner_bits in zip(every, bits, strict=True):
            if inner_bits & ~outer_bits or inner_bits == outer_bits:
                continue
            rest = outer_bits & ~inner_bits
            if rest in known:
                continue
            cells = tuple(c for c in outer.cells if rest >> c & 1)
            why = functools.partial(_split_reason, layout, outer, inner, cells)
            group = _make(layout, SPLIT, cells, outer.total - inner.total, outer.units, -1, outer.label, why)
            if group is not None:
                known.add(rest)
                found.append(group)
    return tuple(found)


def _split_reason(layout: Layout, outer: Group, inner: Group, cells: tuple[int, ...]) -> str:
    n = layout.shape.n
    which = "has the value" if len(cells) == 1 else "which add up to"
    return (f"{outer.reason}; {inner.label} ({names(inner.cells, n)}) add up to {inner.total}, so the rest, "
            f"{names(cells, n)}, {which} {outer.total} - {inner.total} = {outer.total - inner.total}")


def _cage_group(layout: Layout, index: int) -> Group:
    geometry = layout.geometry
    cage = geometry.cages[index]
    total = cage.total if cage.total is not None else 0
    why = functools.partial(_cage_reason, geometry.cages, index, layout.shape.n, total)
    group = _make(layout, CAGE, cage.cells, total, (), index, f"cage {cage_symbol(index)}", why,
                  loose_limit=layout.shape.n)
    if group is None:  # a cage's digits differ, so it is always made
        raise AssertionError(why())
    return group


def _cage_reason(cages: tuple[Cage, ...], index: int, n: int, total: int) -> str:
    return f"{cage_name(cages, index, n)} adds up to {total}"


def _make(layout: Layout, kind: str, cells: tuple[int, ...], total: int, units: tuple[int, ...], cage: int,
          label: str, why: Callable[[], str], loose_limit: int = MAX_LOOSE_CELLS) -> Group | None:
    """A group, with which cells see which; ``None`` when its digits may repeat and it has too many cells."""
    peers = layout.peers
    seen = tuple(sum(1 << j for j in range(i) if cells[j] in peers[cells[i]]) for i in range(len(cells)))
    distinct = all(seen[i] == (1 << i) - 1 for i in range(len(cells)))
    if not distinct and len(cells) > loose_limit:
        return None
    pick = itemgetter(*cells) if len(cells) > 1 else _one(cells[0])
    return Group(kind, cells, total, units, cage, distinct, seen, label, why, pick)


def _one(cell: int) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """``itemgetter`` of one index returns the item, not a tuple: the picker of a one-cell group."""
    return lambda codes: (codes[cell],)


def _regions(layout: Layout) -> list[tuple[int, ...]]:
    """The regions of the rule of 45: every unit, then 2 and 3 adjacent rows and columns, then pairs of
    neighbouring boxes (side by side in a band, one above the other in a stack)."""
    shape = layout.shape
    n = shape.n
    found: list[tuple[int, ...]] = [(unit,) for unit in range(3 * n)]
    for width in (2, 3):
        for base in (0, n):
            found += [tuple(range(base + start, base + start + width)) for start in range(n - width + 1)]
    per_band = n // shape.box_cols  # boxes side by side in a band
    for box in range(n):
        if (box + 1) % per_band:
            found.append((2 * n + box, 2 * n + box + 1))
        if box + per_band < n:
            found.append((2 * n + box, 2 * n + box + per_band))
    return found


def region_name(layout: Layout, units: tuple[int, ...]) -> str:
    """``box 5``, ``rows 1-2``, ``columns 4-6``, ``boxes 1, 2``."""
    if len(units) == 1:
        return layout.unit_name(units[0])
    n = layout.shape.n
    kind = units[0] // n
    numbers = [unit - kind * n + 1 for unit in units]
    if kind == 2:
        return "boxes " + ", ".join(map(str, numbers))
    return f"{('rows', 'columns')[kind]} {numbers[0]}-{numbers[-1]}"


def _region_groups(layout: Layout, units: tuple[int, ...], cage_bits: list[int]) -> list[Group]:
    """The innies and the outies of a region (each when it has cells and tells something), on bitsets of cells."""
    geometry = layout.geometry
    n = layout.shape.n
    region = 0
    for unit in units:
        region |= layout.unit_bits[unit]
    whole = len(units) * n * (n + 1) // 2
    inside = over = inner = covered = 0
    for cage, bits in zip(geometry.cages, cage_bits, strict=True):
        if cage.total is None or not bits & region:
            continue
        over += cage.total
        covered |= bits
        if not bits & ~region:
            inside += cage.total
            inner |= bits
    name = region_name(layout, units)
    start = f"the cells of {name} add up to {whole}"
    found = []
    innies = _cells_of(region & ~inner)
    if innies and inner:
        which = "whose value is" if len(innies) == 1 else "which add up to"
        innie_text = (f"{start}; its cages cover all but {{}}, {which} {whole} - {inside} = {whole - inside}", innies)
        group = _make(layout, INNIES, innies, whole - inside, units, -1, f"the innies of {name}",
                      functools.partial(_fill, *innie_text, n))
        if group is not None:
            found.append(group)
    outies = _cells_of(covered & ~region)
    if outies and not region & ~covered:
        which = "whose value is" if len(outies) == 1 else "which add up to"
        outie_text = (f"{start}; the cages over them add up to {over} and stick out by {{}}, {which} "
                      f"{over} - {whole} = {over - whole}", outies)
        group = _make(layout, OUTIES, outies, over - whole, units, -1, f"the outies of {name}",
                      functools.partial(_fill, *outie_text, n))
        if group is not None:
            found.append(group)
    return found


def _fill(template: str, cells: tuple[int, ...], n: int) -> str:
    """A reason with its cells' names put in."""
    return template.format(names(cells, n))


def _cells_of(bits: int) -> tuple[int, ...]:
    """The cells of a bitset, in increasing order."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return tuple(cells)
