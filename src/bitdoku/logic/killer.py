"""Killer techniques: what cage sums and the rule of 45 tell about the candidates.

- **Cage Sum**: the last open cell of a cage holds its total minus the digits placed in the cage (a one-cell
  cage holds its total).
- **Cage Combinations**: a cage's digits are one of the digit sets of its size that make its total; a digit no
  filling of the cage with its candidates (all different, the placed digits kept) can put in a cell leaves it.
- **Innies** and **Outies** (the rule of 45): the cells of a unit add up to N(N+1)/2 (45 on 9x9). The cells
  that the cages wholly inside it leave out (innies) add up to that minus those cages' totals; the cells by which
  the cages over it stick out (outies) add up to those cages' totals minus it. One such cell is placed; several
  are a virtual cage, treated with the combination rule (their digits may repeat unless they see each other).
- **Required Digits**: a digit that every combination left to a cage (or a virtual cage of distinct digits)
  holds must go in one of its places there, so a cell that sees all those places loses it.
- **Innies (2-3 units)**, **Outies (2-3 units)**: the rule of 45 on 2 or 3 adjacent rows or columns, or two
  neighbouring boxes.
- **Cage Splitting**: a group (a cage or a virtual cage) that holds another one: its other cells add up to the
  difference of the sums.

The groups and the combination rule are in ``logic/cage_sums.py``. Every finder yields nothing on a grid without
cages. See https://www.sudokuwiki.org/Killer_Sudoku.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence

from bitdoku.constraints.cages import cage_name
from bitdoku.errors import cell_name
from bitdoku.logic.cage_sums import Group, expect_removed, groups_of, memo_of, options_of, settled, splits_of
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.step import Step, digit_list, make_step

CAGE_SUM = "Cage Sum"
CAGE_COMBINATIONS = "Cage Combinations"
INNIES = "Innies"
OUTIES = "Outies"
REQUIRED_DIGITS = "Required Digits"
BIG_INNIES = "Innies (2-3 units)"
BIG_OUTIES = "Outies (2-3 units)"
CAGE_SPLITTING = "Cage Splitting"

#: technique -> (difficulty on the "bitdoku" scale, level, difficulty on the SE scale). The bitdoku values sit
#: between the classic ones in the order the Killer ladder tries them (``explain.KILLER_LADDER``): the cage rules
#: with singles (easy), the rule of 45 on one unit just above, required digits among the intersections, the
#: bigger regions and splits among the pairs (medium). The SE values are ours too (SE has no Killer rules): a
#: one-cell cage or a cage's last cell is a hidden single's 1.5; the sums that need their digit sets sit just above
#: SE's naked single (2.3), since a Killer player finds them after the singles (with them below it, every Killer
#: rated "Naked Single, 2.3"), and the rest among the locked candidates and pairs.
DIFFICULTY: dict[str, tuple[float, str, float]] = {
    CAGE_SUM: (1.55, "easy", 1.5),
    CAGE_COMBINATIONS: (1.6, "easy", 2.4),
    INNIES: (1.62, "easy", 2.45),
    OUTIES: (1.64, "easy", 2.5),
    REQUIRED_DIGITS: (1.8, "medium", 2.7),
    BIG_INNIES: (1.95, "medium", 2.9),
    BIG_OUTIES: (1.97, "medium", 3.0),
    CAGE_SPLITTING: (2.3, "medium", 3.3),
}

_TAGS = {CAGE_COMBINATIONS: "cage combinations", INNIES: "innies", OUTIES: "outies", BIG_INNIES: "innies",
         BIG_OUTIES: "outies", CAGE_SPLITTING: "cage splitting"}
_ONE_TAG = {INNIES: "innie", OUTIES: "outie", BIG_INNIES: "innie", BIG_OUTIES: "outie",
            CAGE_SPLITTING: "cage splitting"}
#: Digit sets listed in a sentence before "and N more".
_SETS_SHOWN = 4
#: Each rule's slot in ``cage_sums.Memo`` (which of its groups told nothing in the last state).
_SLOT = {CAGE_SUM: 0, CAGE_COMBINATIONS: 1, INNIES: 2, OUTIES: 3, BIG_INNIES: 4, BIG_OUTIES: 5, CAGE_SPLITTING: 6}


def find_cage_sums(cg: CandidateGrid) -> Iterator[Step]:
    """The last open cell of a cage (or a one-cell cage) takes the rest of the cage's total."""
    return _scan(cg, groups_of(cg.geometry).cages, CAGE_SUM, _cage_sum)


def _scan(cg: CandidateGrid, groups: Sequence[Group], technique: str,
          find: Callable[[CandidateGrid, Group], Step | None]) -> Iterator[Step]:
    """The steps ``find`` makes of ``groups``, in order, skipping the groups that the memo knows tell nothing
    (``cage_sums.Memo``: quiet, and no cell changed since); the memo learns which ones told nothing before each
    step is yielded."""
    memo = memo_of(cg)
    slot = _SLOT[technique]
    quiet, dirty = memo.slots[slot]
    for index, group in enumerate(groups):
        if quiet >> index & 1 and not group.bits & dirty:
            continue
        step = find(cg, group)
        if step is None:
            quiet |= 1 << index
            continue
        quiet &= ~(1 << index)
        memo.slots[slot] = (settled(groups, quiet, dirty, index + 1), 0)
        yield step
    memo.slots[slot] = (quiet, 0)


def _cage_sum(cg: CandidateGrid, group: Group) -> Step | None:
    """The cage's last open cell with the rest of its total, or ``None`` (not one open cell, or a rest that does
    not fit: a contradiction ``problem`` or another rule reports)."""
    values = cg.values
    digits = group.pick(values)
    if digits.count(0) != 1:
        return None
    cell = group.cells[digits.index(0)]
    rest = group.total - sum(digits)
    n = cg.n
    if not 1 <= rest <= n or not cg.has(cell, rest):
        return None
    name = cell_name(cell, n)
    if len(group.cells) == 1:
        where = cage_name(cg.geometry.cages, group.cage, n)
        text = f"{name} = {rest}: {where} is one cell, so it holds its sum {rest}"
    else:
        placed = [c for c in group.cells if c != cell]
        held = " + ".join(str(values[c]) for c in placed)
        verb = "holds" if len(placed) == 1 else "hold"
        text = (f"{name} = {rest}: {group.reason} and {_names(placed, n)} {verb} {held}, so {name} = "
                f"{group.total} - {group.total - rest} = {rest}")
    return make_step(CAGE_SUM, cg, f"{text} (cage sum)", placements=[(cell, rest)], cells=group.cells)


def find_cage_combinations(cg: CandidateGrid) -> Iterator[Step]:
    """Digits that no filling of a cage (with its candidates and placed digits) puts in a cell."""
    return _combination_steps(cg, groups_of(cg.geometry).cages, CAGE_COMBINATIONS)


def find_innies(cg: CandidateGrid) -> Iterator[Step]:
    """The innies of one row, column or box: placed when one is open, else a virtual cage."""
    return _combination_steps(cg, groups_of(cg.geometry).innies, INNIES)


def find_outies(cg: CandidateGrid) -> Iterator[Step]:
    """The outies of one row, column or box: placed when one is open, else a virtual cage."""
    return _combination_steps(cg, groups_of(cg.geometry).outies, OUTIES)


def find_big_innies(cg: CandidateGrid) -> Iterator[Step]:
    """The innies of 2-3 adjacent rows or columns, or of two neighbouring boxes."""
    return _combination_steps(cg, groups_of(cg.geometry).big_innies, BIG_INNIES)


def find_big_outies(cg: CandidateGrid) -> Iterator[Step]:
    """The outies of 2-3 adjacent rows or columns, or of two neighbouring boxes."""
    return _combination_steps(cg, groups_of(cg.geometry).big_outies, BIG_OUTIES)


def find_cage_splits(cg: CandidateGrid) -> Iterator[Step]:
    """A group minus a group inside it: a virtual cage with the difference of their sums."""
    if not cg.geometry.cages:
        return iter(())
    return _combination_steps(cg, splits_of(cg.geometry), CAGE_SPLITTING)


def find_required_digits(cg: CandidateGrid) -> Iterator[Step]:
    """A digit every combination left to a cage (or a virtual cage of one unit) holds: the cells that see all its
    places in the group lose it."""
    groups = groups_of(cg.geometry)
    for group in (*groups.cages, *groups.innies, *groups.outies):
        if group.distinct:
            yield from _required(cg, group)


def _combination_steps(cg: CandidateGrid, groups: Sequence[Group], technique: str) -> Iterator[Step]:
    """The steps of the combination rule on ``groups``, in order."""
    return _scan(cg, groups, technique, functools.partial(_combination_step, technique=technique))


def _combination_step(cg: CandidateGrid, group: Group, technique: str) -> Step | None:
    """What the group's fillings remove (or the one open cell of a virtual cage they place), or ``None``."""
    values, masks, n = cg.values, cg.masks, cg.n
    options = options_of(group, values, masks, n)
    if not options.removes:  # nothing to remove, or no filling: a contradiction the candidates will show
        return None
    eliminations = [(c, d) for i, c in enumerate(group.cells) if not values[c]
                    for d in _digits(masks[c] & ~options.allowed[i])]
    if not eliminations:
        return None
    open_cells = [c for c in group.cells if not values[c]]
    if len(open_cells) == 1 and technique != CAGE_COMBINATIONS:
        return _placement(cg, group, technique, open_cells[0], options.allowed[group.cells.index(open_cells[0])])
    if group.distinct:
        expect_removed(group, values, masks, options, n)
        text = (f"{group.reason}{_held(cg, group)}: {_fits(options.sets)}, so remove "
                f"{_removals(eliminations, n)} ({_TAGS[technique]})")
    else:
        text = (f"{group.reason}{_held(cg, group)}, and no filling of them from their candidates that makes "
                f"{group.total} puts {_removals(eliminations, n, 'in')}, so remove them ({_TAGS[technique]})")
    return make_step(technique, cg, text, eliminations=eliminations, cells=group.cells, units=group.units)


def _placement(cg: CandidateGrid, group: Group, technique: str, cell: int, allowed: int) -> Step:
    """The one open cell of a virtual cage takes what its sum leaves."""
    values, n = cg.values, cg.n
    digit = allowed.bit_length()
    name = cell_name(cell, n)
    text = f"{name} = {digit}: {group.reason}"
    placed = [c for c in group.cells if c != cell]
    if placed:
        held = sum(values[c] for c in placed)
        verb = "holds" if len(placed) == 1 else "hold"
        text += (f"; {_names(placed, n)} {verb} {' + '.join(str(values[c]) for c in placed)}, so {name} = "
                 f"{group.total} - {held} = {digit}")
    return make_step(technique, cg, f"{text} ({_ONE_TAG[technique]})", placements=[(cell, digit)],
                     cells=group.cells, units=group.units)


def _held(cg: CandidateGrid, group: Group) -> str:
    """`` and r1c2 holds 5``: the digits placed in the group, if any."""
    values, n = cg.values, cg.n
    placed = [c for c in group.cells if values[c]]
    if not placed:
        return ""
    verb = "holds" if len(placed) == 1 else "hold"
    return f" and {_names(placed, n)} {verb} {', '.join(str(values[c]) for c in sorted(placed))}"


@functools.lru_cache(maxsize=1 << 12)
def _fits(sets: tuple[int, ...]) -> str:
    """Which digit sets are left, in words (kept: a cage's sets come back over a solve)."""
    shown = " and ".join(digit_list(_digits(s)) for s in sets[:_SETS_SHOWN])
    more = f" and {len(sets) - _SETS_SHOWN} more" if len(sets) > _SETS_SHOWN else ""
    if len(sets) == 1:
        return f"only {shown} fits the candidates"
    return f"only {shown}{more} fit the candidates"


def _required(cg: CandidateGrid, group: Group) -> Iterator[Step]:
    values, masks, n = cg.values, cg.masks, cg.n
    options = options_of(group, values, masks, n)
    if not options.feasible or not any(options.allowed):
        return
    required = -1
    for digits in options.sets:
        required &= digits
    for c in group.cells:
        if values[c]:
            required &= ~(1 << (values[c] - 1))
    layout = cg.layout
    for digit in _digits(required):
        bit = 1 << (digit - 1)
        places = [c for c in group.cells if masks[c] & bit]
        if not places:
            continue
        targets = sorted(c for c in layout.common_peers(places) if masks[c] & bit and c not in group.cells)
        if not targets:
            continue
        eliminations = [(c, digit) for c in targets]
        every = "the one combination that fits" if len(options.sets) == 1 else "every combination that fits"
        see = ("sees" if len(targets) == 1 else "see") + (" it" if len(places) == 1 else " them all")
        text = (f"{group.reason}{_held(cg, group)}: {every} holds {digit}, which fits only in "
                f"{_names(places, n)}, so remove {_removals(eliminations, n)}, which {see} (required digit)")
        yield make_step(REQUIRED_DIGITS, cg, text, eliminations=eliminations, cells=places, units=group.units)


def _removals(eliminations: list[tuple[int, int]], n: int, word: str = "from") -> str:
    """Eliminations with the same cells merged: ``1, 3 from r1c4, r2c4; 2 from r1c4``."""
    by_digit: dict[int, list[int]] = {}
    for cell, digit in eliminations:
        by_digit.setdefault(digit, []).append(cell)
    by_cells: dict[tuple[int, ...], list[int]] = {}
    for digit, cells in sorted(by_digit.items()):
        by_cells.setdefault(tuple(sorted(cells)), []).append(digit)
    return "; ".join(f"{', '.join(map(str, digits))} {word} {_names(cells, n)}" for cells, digits in by_cells.items())


def _names(cells: Iterable[int], n: int) -> str:
    """``step.names`` (the cells in order, ``r1c1, r1c5``) from a table of the cells' names."""
    table = _cell_names(n)
    return ", ".join([table[cell] for cell in sorted(cells)])


@functools.lru_cache(maxsize=16)
def _cell_names(n: int) -> tuple[str, ...]:
    return tuple(cell_name(cell, n) for cell in range(n * n))


def _digits(mask: int) -> list[int]:
    digits = []
    while mask:
        low = mask & -mask
        digits.append(low.bit_length())
        mask ^= low
    return digits
