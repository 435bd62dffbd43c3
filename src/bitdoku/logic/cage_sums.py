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
its arguments, cached: a solve asks the same question of a group until one of its cells changes. Between states,
``Memo`` keeps which groups told a rule nothing, so that the rule looks again only at those whose cells changed.

See https://www.sudokuwiki.org/Killer_Sudoku (rule of 45, innies and outies, cage splitting).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import compress
from operator import itemgetter, ne
from typing import NamedTuple

from bitdoku.constraints.cages import Cage, cage_name, cage_symbol, combinations
from bitdoku.geometry import Geometry
from bitdoku.logic.als import bits_of
from bitdoku.logic.candidates import CandidateGrid, Layout, layout_of
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
    #: Reads the group's cells out of a state's values or masks as a tuple, in C.
    pick: Callable[[Sequence[int]], tuple[int, ...]] = field(compare=False, repr=False, default=tuple)
    #: The cells as a bitset (set from ``cells``): what ``Memo`` tests a state's changed cells against.
    bits: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bits", sum(1 << c for c in self.cells))

    @cached_property
    def reason(self) -> str:
        """Why the group has its sum, the start of a step's sentence: ``cage B (r1c3, r1c4) adds up to 10``
        (written on first use and kept: a cage tells something a few times a solve)."""
        return self.why()


class Options(NamedTuple):
    """What a group's fillings allow: for each cell, the digits it takes in some filling (0 for a placed cell),
    and the digit sets the fillings use (placed digits included; empty for groups whose digits may repeat)."""

    allowed: tuple[int, ...]
    sets: tuple[int, ...]
    feasible: bool
    #: Whether some open cell has a candidate outside ``allowed`` (the group tells something).
    removes: bool = False


#: The rules that keep, between states, which of their groups told nothing (``Memo.slots``): a slot each (the
#: seven rules of ``killer.py`` that scan groups).
SLOTS = 7


class Memo:
    """For each rule's slot, the groups that told nothing in a state (``quiet``, a bitset of positions in the
    rule's groups) and the cells changed since the rule last looked (``dirty``, a bitset of cells).

    A solve asks each rule about a state that differs from the one before in a few cells, and a group none of
    whose cells changed tells what it told before: a rule skips its quiet groups that no dirty cell touches (most
    of them, most of the time) instead of looking each one up. The last state's memo is kept (``memo_of``); a
    slot only ever holds groups that tell nothing in its state, whichever call wrote it last."""

    __slots__ = ("geometry", "masks", "slots", "values")

    def __init__(self, geometry: Geometry, values: bytes, masks: tuple[int, ...],
                 slots: list[tuple[int, int]]) -> None:
        self.geometry, self.values, self.masks, self.slots = geometry, values, masks, slots


_last_memo: Memo | None = None


def memo_of(cg: CandidateGrid) -> Memo:
    """The memo of a state: the last one when it is the same state; else a new one whose slots are the last
    memo's with the cells that differ added to their dirty cells (or empty, for another geometry)."""
    global _last_memo
    values, masks = cg.values, cg.masks
    last = _last_memo
    if last is not None and last.masks is masks and last.values is values:
        return last
    if last is None or last.geometry is not cg.geometry:
        slots = [(0, 0)] * SLOTS
    else:
        changed = _changed(last.masks, masks) | _changed_bytes(last.values, values)
        slots = [(quiet, dirty | changed) for quiet, dirty in last.slots]
    memo = Memo(cg.geometry, values, masks, slots)
    _last_memo = memo
    return memo


def _changed(old: tuple[int, ...], new: tuple[int, ...]) -> int:
    """The cells whose masks differ, as a bitset (the comparisons and the sum run in C)."""
    return sum(compress(_single_bits(len(new)), map(ne, old, new)))


def _single_bits(count: int) -> tuple[int, ...]:
    """``1 << i`` for each i below ``count`` at least (bit i for cell or position i; ``compress`` stops at the
    shorter input): one table for each power of two."""
    return _powers_of_two(count.bit_length())


@lru_cache(maxsize=32)
def _powers_of_two(size: int) -> tuple[int, ...]:
    return tuple(1 << i for i in range(1 << size))


def _changed_bytes(old: bytes, new: bytes) -> int:
    """The cells whose values differ, as a bitset: the nonzero bytes of the two values XORed as ints (most steps
    place one digit or none)."""
    if old == new:
        return 0
    diff = int.from_bytes(old, "little") ^ int.from_bytes(new, "little")
    changed = 0
    while diff:
        byte = (diff & -diff).bit_length() - 1 >> 3
        changed |= 1 << byte
        diff &= ~(0xFF << (byte << 3))
    return changed


def settled(groups: Sequence[Group], quiet: int, dirty: int, start: int) -> int:
    """``quiet`` without the groups from ``start`` on that a dirty cell touches: what a rule that stopped before
    them (to yield a step) may keep once it forgets the dirty cells."""
    for index in range(start, len(groups)):
        if quiet >> index & 1 and groups[index].bits & dirty:
            quiet &= ~(1 << index)
    return quiet


def options_of(group: Group, values: bytes, masks: tuple[int, ...], n: int) -> Options:
    """``group_options`` for the group's cells in a state (its values and candidate masks)."""
    placed = group.pick(values)
    if any(placed):
        states = tuple(mask if not value else -value for value, mask in zip(placed, group.pick(masks), strict=True))
    else:  # no digit placed yet: the masks as they are
        states = group.pick(masks)
    if group.distinct:
        found = _after_steps.get((group.total, states, n))
        if found is not None:
            return Options._make(found)
    return Options._make(_kept_options(group.total, states, group.seen if not group.distinct else None, n))


#: ``options_of`` answers known before they are asked (``expect_removed``), at most ``AFTER_STEPS_KEPT``.
AFTER_STEPS_KEPT = 1 << 12
_after_steps: dict[tuple[int, tuple[int, ...], int], tuple[tuple[int, ...], tuple[int, ...], bool, bool]] = {}


def expect_removed(group: Group, values: bytes, masks: tuple[int, ...], options: Options, n: int) -> None:
    """Tell ``options_of`` what a group of distinct digits will answer once the digits no filling uses leave its
    cells (the step the combination rule makes of it): the same fillings, so the same options, with nothing left
    to remove. The rule asks the group again after the step, which would otherwise be a new search."""
    if not group.distinct or not options.feasible:
        return
    states = tuple(-value if value else mask & keep
                   for value, mask, keep in zip(group.pick(values), group.pick(masks), options.allowed, strict=True))
    if len(_after_steps) >= AFTER_STEPS_KEPT:
        _after_steps.clear()
    _after_steps[(group.total, states, n)] = (options.allowed, options.sets, True, False)


def group_options(total: int, states: tuple[int, ...], seen: tuple[int, ...] | None, n: int) -> Options:
    """The digits each cell of a group can take: ``states`` holds a candidate mask for an open cell, minus the
    digit for a placed one; ``seen`` is ``None`` when the digits all differ, else each cell's earlier peers in
    the group (bitsets of positions)."""
    return Options._make(_kept_options(total, states, seen, n))


@lru_cache(maxsize=1 << 16)
def _kept_options(total: int, states: tuple[int, ...], seen: tuple[int, ...] | None,
                  n: int) -> tuple[tuple[int, ...], tuple[int, ...], bool, bool]:
    """``group_options`` as a plain tuple, which is what the cache keeps: the garbage collector stops tracking
    tuples of ints, while 65,536 kept objects cost its full passes about 1 ms a Killer solve."""
    if seen is None:
        found = _distinct_options(total, states, n)
        return found.allowed, found.sets, found.feasible, found.removes
    found = _loose_options(total, states, seen, n)
    removes = found.feasible and any(state > 0 and state & ~keep for state, keep in zip(states, found.allowed,
                                                                                         strict=True))
    return found.allowed, found.sets, found.feasible, removes


def _distinct_options(total: int, states: tuple[int, ...], n: int) -> Options:
    """All different digits: the placed digits must differ; the open cells then take a digit set of their count
    that makes the rest of the sum, one digit each. Two open cells are paired directly; more are walked once over
    all digit sets at the same time (``_walk``)."""
    placed = 0
    for state in states:
        if state < 0:
            if placed >> (-state - 1) & 1:
                return _no_filling(states)
            placed |= 1 << (-state - 1)
    order = [i for i, state in enumerate(states) if state >= 0]
    free = [states[i] & ~placed for i in order]
    rest = total - mask_sum(placed)
    found = _pair(free, rest, n) if len(free) == 2 else _walk(free, _sets_of(len(free), rest, n), n)
    if found is None:
        return _no_filling(states)
    support, sets = found
    allowed = [0] * len(states)
    removes = False
    for index, keep in zip(order, support, strict=True):
        allowed[index] = keep
        if states[index] & ~keep:
            removes = True
    return Options(tuple(allowed), tuple(digits | placed for digits in sets) if placed else tuple(sets), True,
                   removes)


def _no_filling(states: tuple[int, ...]) -> Options:
    return Options((0,) * len(states), (), False)


def _pair(free: list[int], rest: int, n: int) -> tuple[list[int], list[int]] | None:
    """Two cells of different digits that add up to ``rest``: each digit of the first whose partner the second
    can take (the commonest cage, cheaper than the walk)."""
    first, second = free
    keep_first = keep_second = 0
    sets = set()
    for digit in _digits(first):
        other = rest - digit
        if other != digit and 1 <= other <= n and second >> (other - 1) & 1:
            keep_first |= 1 << (digit - 1)
            keep_second |= 1 << (other - 1)
            sets.add((1 << (digit - 1)) | (1 << (other - 1)))
    return ([keep_first, keep_second], sorted(sets)) if sets else None


def _walk(free: list[int], good: int, n: int) -> tuple[list[int], list[int]] | None:
    """For cells that must take different digits forming one of the digit sets in ``good`` (a bitset of sets:
    bit S for the set whose mask is S), the digits each cell takes in some such filling and the sets that have
    one, or ``None``. Forward, layer i is the bitset of the digit sets the first i cells can take (adding digit
    j+1 to the sets without it is a mask and a shift by 2^j); backward from the good sets of the last layer, a
    cell keeps the digits that lead to one. A cell costs a few big-int operations a candidate, for all sets at
    once (the walk per set it replaced cost that for each of up to a dozen sets)."""
    moves = _moves(n)
    layers = [1]  # the empty set
    for mask in free:
        last, reach = layers[-1], 0
        for _, shift, without in moves[mask]:
            reach |= (last & without) << shift
        if not reach:
            return None
        layers.append(reach)
    good &= layers[-1]
    if not good:
        return None
    sets = bits_of(good)  # the sets in the bitset of sets, smallest first
    support = [0] * len(free)
    for index in range(len(free) - 1, -1, -1):
        last, before, keep = layers[index], 0, 0
        for bit, shift, without in moves[free[index]]:
            came = (good >> shift) & without & last
            if came:
                before |= came
                keep |= bit
        support[index] = keep
        good = before
    return support, sets


class _Moves(dict[int, tuple[tuple[int, int, int], ...]]):
    """For each candidate mask (filled in on first use), its digits as the walk adds them: (the digit's bit, the
    shift 2^j that adds it to a set, the bitset of the sets without it)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        size = 1 << n  # the sets of n digits
        self.digits = tuple((1 << j, 1 << j, _lacking(j, size)) for j in range(n))

    def __missing__(self, mask: int) -> tuple[tuple[int, int, int], ...]:
        found = tuple(move for move in self.digits if mask & move[0])
        self[mask] = found
        return found


@lru_cache(maxsize=16)
def _moves(n: int) -> _Moves:
    return _Moves(n)


def _lacking(j: int, size: int) -> int:
    """The bitset of the sets (of ``size``, a power of two) that lack digit j+1: bit S set when bit j of S is
    clear, which repeats 2^j ones and 2^j zeros."""
    run = 1 << j
    block = (1 << run) - 1
    period = run << 1
    return block * (((1 << size) - 1) // ((1 << period) - 1))


@lru_cache(maxsize=1 << 12)
def _sets_of(count: int, total: int, n: int) -> int:
    """The digit sets of ``count`` different digits 1..n that add up to ``total``, as one bitset of sets."""
    found = 0
    if 0 <= count <= n:
        for digits in combinations(count, total, n):
            found |= 1 << digits
    return found


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
    allowed = _search(total, masks, seen)
    if allowed is None:
        allowed = masks
    found = tuple(0 if state < 0 else allowed[i] for i, state in enumerate(states))
    return Options(found, (), all(allowed))


def _search(total: int, masks: list[int], seen: tuple[int, ...]) -> list[int] | None:
    """The digits of each cell in some filling that makes ``total`` (a cell's digit differs from the earlier
    cells it sees), by a depth-first search in digit order that tries a digit only when the cells after it can
    still make the rest (``_bounds``); ``None`` past ``LOOSE_NODES`` nodes (a node a partial filling, the last
    cell's digit the one that completes the sum)."""
    count = len(masks)
    low, high = _bounds(masks)
    earlier = [tuple(j for j in range(i) if seen[i] >> j & 1) for i in range(count)]
    chosen = [0] * count  # the bit of each cell's digit on the current path
    allowed = [0] * count
    nodes = 0

    def walk(index: int, left: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > LOOSE_NODES:
            return False
        options = masks[index]
        for j in earlier[index]:
            options &= ~chosen[j]
        if index == count - 1:  # only the digit ``left`` completes the sum: one more node, a filling
            if left > 0 and options >> (left - 1) & 1:
                nodes += 1
                if nodes > LOOSE_NODES:
                    return False
                chosen[index] = 1 << (left - 1)
                for i in range(count):
                    allowed[i] |= chosen[i]
            return True
        least, most = max(left - high[index + 1], 1), left - low[index + 1]
        options &= ((1 << most) - 1 if most > 0 else 0) & ~((1 << (least - 1)) - 1)
        while options:
            bit = options & -options
            options ^= bit
            chosen[index] = bit
            if not walk(index + 1, left - bit.bit_length()):
                return False
        return True

    return allowed if walk(0, total) else None


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


class Groups:
    """A Killer's groups by technique: its cages, the innies and outies of one unit and, built on first use, of
    2-3 adjacent units (60 % of the regions, which few solves climb the ladder far enough to ask about)."""

    def __init__(self, cages: tuple[Group, ...], innies: tuple[Group, ...], outies: tuple[Group, ...],
                 build_big: Callable[[], tuple[tuple[Group, ...], tuple[Group, ...]]] | None = None) -> None:
        self.cages, self.innies, self.outies = cages, innies, outies
        self._build_big = build_big

    @cached_property
    def _big(self) -> tuple[tuple[Group, ...], tuple[Group, ...]]:
        return self._build_big() if self._build_big is not None else ((), ())

    @property
    def big_innies(self) -> tuple[Group, ...]:
        return self._big[0]

    @property
    def big_outies(self) -> tuple[Group, ...]:
        return self._big[1]


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
        return Groups((), (), ())
    cages = tuple(_cage_group(layout, index) for index, cage in enumerate(geometry.cages) if cage.total is not None)
    meeting = _cages_meeting(layout, cages)
    regions = _regions(layout)
    units = [region for region in regions if len(region) == 1]  # the first ones: the easier way to see cells
    innies, outies, seen = _region_groups(layout, units, cages, meeting, frozenset(group.bits for group in cages))
    bigger = [region for region in regions if len(region) > 1]
    return Groups(cages, innies, outies, functools.partial(_big_groups, layout, bigger, cages, meeting, seen))


def _big_groups(layout: Layout, regions: Sequence[tuple[int, ...]], cages: tuple[Group, ...], meeting: list[int],
                known: frozenset[int]) -> tuple[tuple[Group, ...], tuple[Group, ...]]:
    """The innies and outies of the regions of several units, after the groups whose cells are ``known``."""
    innies, outies, _ = _region_groups(layout, regions, cages, meeting, known)
    return innies, outies


def _region_groups(layout: Layout, regions: Sequence[tuple[int, ...]], cages: tuple[Group, ...], meeting: list[int],
                   known: frozenset[int]) -> tuple[tuple[Group, ...], tuple[Group, ...], frozenset[int]]:
    """The innies and the outies of the regions, in order, leaving out the sets of cells already ``known`` (the
    first, easiest way to see a set of cells wins), and the sets known after them."""
    seen = set(known)
    found: dict[str, list[Group]] = {INNIES: [], OUTIES: []}
    for units in regions:
        for kind, bits, total, why in _region_parts(layout, units, cages, meeting):
            if bits in seen:
                continue
            group = _make(layout, kind, _cells_of(bits), total, units, -1,
                          f"the {kind} of {region_name(layout, units)}", why)
            if group is not None:
                seen.add(bits)
                found[kind].append(group)
    return tuple(found[INNIES]), tuple(found[OUTIES]), frozenset(seen)


def _cages_meeting(layout: Layout, cages: tuple[Group, ...]) -> list[int]:
    """For each unit, the cages that have a cell in it, as a bitset of positions in ``cages`` (so that a region
    looks at its own cages, not at all of them)."""
    meeting = [0] * len(layout.units)
    for index, group in enumerate(cages):
        for cell in group.cells:
            for unit in layout.cell_units[cell]:
                meeting[unit] |= 1 << index
    return meeting


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
    peer_bits = layout.peer_bits
    distinct = _all_see(peer_bits, cells)
    if not distinct and len(cells) > loose_limit:
        return None
    seen = tuple((1 << i) - 1 for i in range(len(cells))) if distinct else _seen(peer_bits, cells)
    pick = itemgetter(*cells) if len(cells) > 1 else _one(cells[0])
    return Group(kind, cells, total, units, cage, distinct, seen, label, why, pick)


def _all_see(peer_bits: tuple[int, ...], cells: tuple[int, ...]) -> bool:
    """Whether each cell sees every earlier one (its digits all differ): one AND a cell."""
    earlier = 0
    for cell in cells:
        if peer_bits[cell] & earlier != earlier:
            return False
        earlier |= 1 << cell
    return True


def _seen(peer_bits: tuple[int, ...], cells: tuple[int, ...]) -> tuple[int, ...]:
    """For each cell, the positions of the earlier cells it sees, as a bitset."""
    return tuple(sum(1 << j for j in range(i) if peer_bits[cells[i]] >> cells[j] & 1) for i in range(len(cells)))


def _one(cell: int) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """``itemgetter`` of one index returns the item, not a tuple: the picker of a one-cell group."""
    return lambda items: (items[cell],)


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


def _region_parts(layout: Layout, units: tuple[int, ...], cages: tuple[Group, ...], meeting: list[int],
                  ) -> list[tuple[str, int, int, Callable[[], str]]]:
    """The innies and the outies of a region (each when it has cells and tells something), on bitsets of cells:
    (kind, cells, sum, the reason's builder)."""
    n = layout.shape.n
    region = which = 0
    for unit in units:
        region |= layout.unit_bits[unit]
        which |= meeting[unit]
    whole = len(units) * n * (n + 1) // 2
    inside = over = inner = covered = 0
    while which:
        low = which & -which
        which ^= low
        cage = cages[low.bit_length() - 1]
        over += cage.total
        covered |= cage.bits
        if not cage.bits & ~region:
            inside += cage.total
            inner |= cage.bits
    found: list[tuple[str, int, int, Callable[[], str]]] = []
    innies = region & ~inner
    if innies and inner:
        found.append((INNIES, innies, whole - inside,
                      functools.partial(_innie_reason, layout, units, innies, whole, inside)))
    outies = covered & ~region
    if outies and not region & ~covered:
        found.append((OUTIES, outies, over - whole,
                      functools.partial(_outie_reason, layout, units, outies, whole, over)))
    return found


def _innie_reason(layout: Layout, units: tuple[int, ...], bits: int, whole: int, inside: int) -> str:
    cells = _cells_of(bits)
    which = "whose value is" if len(cells) == 1 else "which add up to"
    return (f"the cells of {region_name(layout, units)} add up to {whole}; its cages cover all but "
            f"{names(cells, layout.shape.n)}, {which} {whole} - {inside} = {whole - inside}")


def _outie_reason(layout: Layout, units: tuple[int, ...], bits: int, whole: int, over: int) -> str:
    cells = _cells_of(bits)
    which = "whose value is" if len(cells) == 1 else "which add up to"
    return (f"the cells of {region_name(layout, units)} add up to {whole}; the cages over them add up to {over} "
            f"and stick out by {names(cells, layout.shape.n)}, {which} {over} - {whole} = {over - whole}")


def _cells_of(bits: int) -> tuple[int, ...]:
    """The cells of a bitset, in increasing order."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return tuple(cells)
