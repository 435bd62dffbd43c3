"""The Sudoku Explainer (SE) ladder: rate a puzzle the way SE does, by the hardest step of a simplest-first solve.

How SE rates (read in its source, Sudoku Explainer 1.2 and SukakuExplainer, which rated the forum data sets):
its rules ("producers") are tried in a fixed order, roughly by difficulty; each step is the *first* hint of the
first producer that has one (a producer of several kinds of hint, such as the chains, sorts its own hints by
difficulty first); the step is applied, and the search starts again from the top. The rating is the highest
difficulty of a step. Singles are rules like the others: a hidden single is 1.0 when its cell is the last empty
one of the unit (full house, looked for first), 1.2 in a box, 1.5 in a row or a column; a naked single is 2.3,
tried only after hidden singles, Direct Pointing (1.7), Direct Claiming (1.9) and Direct Hidden Pair (2.0). A
*direct* rule is a pointing, claiming or hidden set whose eliminations leave a hidden single in a unit; the step
places that single (and only that: SE does not apply the eliminations, so neither do we), and rates lower than
the plain rule.

This module holds:

- ``se_singles``: a compiled kernel that applies SE's rules up to 2.5 in SE's order (full houses, hidden singles
  in boxes, columns, rows, Direct Pointing, Direct Claiming, Direct Hidden Pair, naked singles, Direct Hidden
  Triple) and counts each kind: the bulk of a rating runs there;
- the direct finders (``find_direct_pointing``, ``find_direct_claiming``, ``find_direct_hidden_pairs``,
  ``find_direct_hidden_triples``), for any box shape;
- ``SE_LADDER``: the table of rules in SE's producer order, each a ``SeRung`` (technique, finder, base SE
  difficulty, optional grouping and rating of instances);
- ``se_solve``: the solve loop that gives the score;
- ``SE_VARIANT_LADDER`` and ``se_solve_variant``: the score of a variant grid (below).

Variant grids
-------------
The SE scale is defined for classic Sudoku, and SE's ladder holds rules drawn on rows, columns and boxes. A
variant grid (``bitdoku.geometry``) is rated on the same numbers with the rules of SE's ladder that hold on any
geometry (``SE_VARIANT_LADDER``: those of ``explain.VARIANT_LADDER``, in SE's order, with the same base
difficulties), in Python: full houses and hidden singles in every unit (a jigsaw region or a window counts as a
box, 1.2; a diagonal as a line, 1.5), naked singles (2.3), then the ladder. SE's direct rules are classic-only
kernels, so they are not used: a variant score may be a little higher than SE's rule for the same deductions.

Registering a technique (for the lead, after the merge)
-------------------------------------------------------
Insert one row ``SeRung(name, finder, base)`` in ``SE_LADDER`` at SE's place for it (the comments mark the
places of the rules not built yet). A step's own ``difficulty`` (``Step.difficulty``, when not ``None``) overrides
the base, so a finder that rates its instances (chains, UR types, BUG types) needs nothing else. Rows that share
a ``group`` name are one SE producer: their first steps are compared and the lowest difficulty wins (as SE's
chaining producer sorts its hints). Rows for techniques SE does not have (finned fish, ALS, Sue de Coq, ...)
should stay out of this table: they would make the rating disagree with SE's.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from bitdoku.errors import InvalidGridError, StepLimitError, cell_name
from bitdoku.grid import Grid
from bitdoku.kernels.jit import borrowing
from bitdoku.logic import (
    als_wings,
    exclusion,
    fish,
    forcing,
    intersections,
    se_chains,
    single_digit,
    singles,
    subsets,
    uniqueness,
    wings,
)
from bitdoku.logic.arrays import apply_to_arrays, kernel_arrays
from bitdoku.logic.budget import check_time
from bitdoku.logic.candidates import CandidateGrid, LogicPuzzle, as_candidates, digits_of
from bitdoku.logic.changes import Changes, LadderMemo
from bitdoku.logic.difficulty import (
    FULL_HOUSE,
    GUESS_DIFFICULTY,
    HIDDEN_SINGLE_BOX,
    HIDDEN_SINGLE_LINE,
    NAKED_SINGLE,
    SINGLES_DIFFICULTY,
)
from bitdoku.logic.explain import VARIANT_LADDER
from bitdoku.logic.intersections import areas_and_lines
from bitdoku.logic.kernels.singles import CONTRADICTION, SOLVED, STALLED, _digit_of, _hidden_single, _place
from bitdoku.logic.step import Step, digit_list, make_step, names, removals
from bitdoku.shape import Shape

Finder = Callable[[CandidateGrid], Iterator[Step]]

DIRECT_POINTING = "Direct Pointing"
DIRECT_CLAIMING = "Direct Claiming"
DIRECT_HIDDEN_PAIR = "Direct Hidden Pair"
DIRECT_HIDDEN_TRIPLE = "Direct Hidden Triple"
TURBOT_FISH = "Turbot Fish"
THREE_LINKS = "3 Strong Links"
FOUR_LINKS = "4 Strong Links"


# -- singles in SE's order, compiled --------------------------------------------------------------------


@borrowing
def _full_house(
    values: NDArray[np.uint8], masks: NDArray[np.uint64], units: NDArray[np.int32], n: int, found: NDArray[np.int64],
) -> int:
    """The first unit (boxes, columns, rows) with one empty cell; writes (cell, digit). 1 found, 0 none,
    -1 when that cell has no candidate."""
    for first in (2 * n, n, 0):
        for u in range(first, first + n):
            empty = -1
            count = 0
            for i in range(n):
                cell = units[u, i]
                if values[cell] == 0:
                    count += 1
                    empty = cell
            if count == 1:
                m = masks[empty]
                if m == 0:
                    return -1
                found[0] = empty
                found[1] = _digit_of(m & (~m + np.uint64(1)))
                return 1
    return 0


#: Kinds of kernel placement, the order of ``se_singles``'s counts.
KERNEL_KINDS = (FULL_HOUSE, HIDDEN_SINGLE_BOX, HIDDEN_SINGLE_LINE, NAKED_SINGLE, DIRECT_POINTING, DIRECT_CLAIMING,
                DIRECT_HIDDEN_PAIR, DIRECT_HIDDEN_TRIPLE)


@njit(cache=True, nogil=True)
def se_singles(
    values: NDArray[np.uint8], masks: NDArray[np.uint64], units: NDArray[np.int32], peers: NDArray[np.int32],
    cell_units: NDArray[np.int32], n: int, direct: bool, counts: NDArray[np.int64],
) -> int:
    """Apply SE's rules up to 2.5 in SE's order until none is left: full houses (1.0), hidden singles in boxes
    (1.2), in columns then rows (1.5), then, when ``direct`` is true, Direct Pointing (1.7), Direct Claiming
    (1.9) and Direct Hidden Pair (2.0), then naked singles (2.3), then, when ``direct``, Direct Hidden Triple
    (2.5). Each step places one digit; after each, the search starts again from the top. Mutates ``values``
    (uint8[N*N]) and ``masks`` (uint64[N*N]); adds to ``counts`` (int64[8], one per kind, as ``KERNEL_KINDS``).

    Returns SOLVED, STALLED or CONTRADICTION. Cost: O(placements * N*N), the direct rules O(N^3) a check.
    """
    found = np.zeros(2, dtype=np.int64)
    one = np.uint64(1)
    pos = np.zeros(n, dtype=np.uint64)
    while True:
        status = _full_house(values, masks, units, n, found)
        kind = 0
        if status == 0:
            for first, k in ((2 * n, 1), (n, 2), (0, 2)):
                status = _hidden_single(values, masks, units, first, n, found)
                kind = k
                if status != 0:
                    break
        if status < 0:
            return CONTRADICTION
        if status == 0 and direct:
            kind = _direct_rules(values, masks, units, cell_units, n, np.int64(2), pos, found)
            status = 1 if kind else 0
        if status > 0:
            _place(values, masks, peers, found[0], found[1])
            counts[kind] += 1
            continue
        naked_cell = -1
        solved = True
        for cell in range(n * n):
            if values[cell] == 0:
                solved = False
                m = masks[cell]
                if m == 0:
                    return CONTRADICTION
                if m & (m - one) == 0:
                    naked_cell = cell
                    break
        if solved:
            return SOLVED
        if naked_cell >= 0:
            _place(values, masks, peers, naked_cell, _digit_of(masks[naked_cell]))
            counts[3] += 1
            continue
        if direct and _direct_hidden_single(values, masks, units, n, np.int64(3), pos, found):
            _place(values, masks, peers, found[0], found[1])
            counts[7] += 1
            continue
        return STALLED


@borrowing
def _direct_rules(
    values: NDArray[np.uint8], masks: NDArray[np.uint64], units: NDArray[np.int32], cell_units: NDArray[np.int32],
    n: int, k: int, pos: NDArray[np.uint64], found: NDArray[np.int64],
) -> int:
    """The first of Direct Pointing, Direct Claiming, Direct Hidden Pair, in SE's order; writes (cell, digit)
    and returns its kind (4, 5, 6), or 0."""
    for pointing in (True, False):
        for kind in (1, 0):  # columns, then rows
            for d in range(n):
                if _direct_locking_in(masks, units, cell_units, n, pointing, kind, d, found):
                    return 4 if pointing else 5
    if _direct_hidden_single(values, masks, units, n, np.int64(2), pos, found):
        return 6
    return 0


@borrowing
def _direct_locking_in(
    masks: NDArray[np.uint64], units: NDArray[np.int32], cell_units: NDArray[np.int32], n: int, pointing: bool,
    kind: int, d: int, found: NDArray[np.int64],
) -> bool:
    """A direct pointing (boxes whose places of digit d lie in one line of ``kind``) or claiming (lines of
    ``kind`` whose places lie in one box) on digit d; writes the hidden single it leaves."""
    bit = np.uint64(1) << np.uint64(d)
    first = 2 * n if pointing else kind * n
    for unit in range(first, first + n):
        count = 0
        target = -1
        same = True
        for i in range(n):
            c = units[unit, i]
            if masks[c] & bit:
                count += 1
                t = cell_units[c, kind] if pointing else cell_units[c, 2]
                if target < 0:
                    target = t
                elif t != target:
                    same = False
        if count < 2 or not same:
            continue
        gone = False
        for i in range(n):
            c = units[target, i]
            if masks[c] & bit and (cell_units[c, 2] != unit if pointing else cell_units[c, kind] != unit):
                gone = True
                break
        if not gone:
            continue
        # the other units of the first unit's kind that cross the target, in increasing order
        for other in range(first, first + n):
            if other == unit:
                continue
            crosses = False
            total = 0
            outside = 0
            cell = -1
            for j in range(n):
                c = units[other, j]
                inside = cell_units[c, kind] == target if pointing else cell_units[c, 2] == target
                if inside:
                    crosses = True
                if masks[c] & bit:
                    total += 1
                    if not inside:
                        outside += 1
                        cell = c
            if crosses and total > 1 and outside == 1:
                found[0] = cell
                found[1] = d + 1
                return True
    return False


@borrowing
def _direct_hidden_single(
    values: NDArray[np.uint8], masks: NDArray[np.uint64], units: NDArray[np.int32], n: int, k: int,
    pos: NDArray[np.uint64], found: NDArray[np.int64],
) -> bool:
    """A direct hidden pair (k=2) or triple (k=3): in a unit (boxes, columns, rows) with more than k empty cells,
    k digits of 2..k places each whose places are k cells together; a digit outside with one place left
    outside them. Writes that place; ``pos`` is scratch (uint64[N])."""
    one = np.uint64(1)
    for first in (2 * n, n, 0):
        for u in range(first, first + n):
            empty = 0
            for i in range(n):
                if values[units[u, i]] == 0:
                    empty += 1
            if empty <= k:
                continue
            for d in range(n):
                pos[d] = 0
            for i in range(n):
                m = masks[units[u, i]]
                while m:
                    low = m & (~m + one)
                    pos[_digit_of(low) - 1] |= one << np.uint64(i)
                    m ^= low
            for a in range(n):
                ca = _popcount(pos[a])
                if ca < 2 or ca > k:
                    continue
                for b in range(a + 1, n):
                    cb = _popcount(pos[b])
                    if cb < 2 or cb > k:
                        continue
                    if k == 2:
                        if pos[a] == pos[b] and _hidden_single_left(masks, units, u, n, pos, pos[a], a, b, np.int64(-1),
                                                                     found):
                            return True
                        continue
                    if _popcount(pos[a] | pos[b]) > 3:
                        continue
                    for c in range(b + 1, n):
                        cc = _popcount(pos[c])
                        if cc < 2 or cc > 3:
                            continue
                        union = pos[a] | pos[b] | pos[c]
                        if _popcount(union) == 3 and _hidden_single_left(masks, units, u, n, pos, union, a, b, c,
                                                                         found):
                            return True
    return False


@borrowing
def _hidden_single_left(
    masks: NDArray[np.uint64], units: NDArray[np.int32], u: int, n: int, pos: NDArray[np.uint64], union: np.uint64,
    a: int, b: int, c: int, found: NDArray[np.int64],
) -> bool:
    """After a hidden set (digits a, b, c; c = -1 for a pair) on ``union``: the first other digit with more
    than one place in unit u, of which one only lies outside the set."""
    for v in range(n):
        if v == a:
            continue
        if v == b:
            continue
        if v == c:
            continue
        rest = pos[v] & ~union
        if rest and pos[v] != rest and rest & (rest - np.uint64(1)) == 0:
            found[0] = units[u, _digit_of(rest) - 1]
            found[1] = v + 1
            return True
    return False


@njit(cache=True, nogil=True)
def _popcount(x: np.uint64) -> int:
    count = 0
    while x:
        x &= x - np.uint64(1)
        count += 1
    return count


# -- the direct rules ------------------------------------------------------------------------------------


class _Geometry(NamedTuple):
    """A shape's units as cell bitsets, and which lines cross which boxes."""

    bits: tuple[int, ...]  # unit -> cells
    lines_of_box: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # box - 2N -> (rows, columns) crossing it
    boxes_of_line: tuple[tuple[int, ...], ...]  # line (0..2N-1) -> boxes crossing it


@cache
def _geometry(shape: Shape) -> _Geometry:
    from bitdoku.logic.candidates import layout_of

    layout = layout_of(shape)
    n = shape.n
    bits = layout.unit_bits
    lines_of_box = []
    for box in range(2 * n, 3 * n):
        crossing = [other for other, _ in layout.segments[box]]
        lines_of_box.append((tuple(u for u in crossing if u < n), tuple(u for u in crossing if n <= u < 2 * n)))
    boxes_of_line = tuple(tuple(other for other, _ in layout.segments[line]) for line in range(2 * n))
    return _Geometry(bits, tuple(lines_of_box), boxes_of_line)


#: Per-thread memo of the last state's X-Chain steps, so that the rules of one ladder pass
#: share them (keyed by the state object itself, which the memo keeps alive; per thread, as the web server rates
#: in threads).
_MEMO = threading.local()


def _cells(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def find_direct_pointing(cg: CandidateGrid) -> Iterator[Step]:
    """Pointing whose eliminations leave a hidden single in another box of the line (SE 1.7); columns first,
    then rows, digits increasing, as SE."""
    return _direct_locking(cg, pointing=True)


def find_direct_claiming(cg: CandidateGrid) -> Iterator[Step]:
    """Claiming whose eliminations leave a hidden single in another line through the box (SE 1.9)."""
    return _direct_locking(cg, pointing=False)


def _direct_locking(cg: CandidateGrid, pointing: bool) -> Iterator[Step]:
    n = cg.n
    geo = _geometry(cg.shape)
    bits = geo.bits
    cell_units = cg.layout.cell_units
    by_digit = cg.digit_cells()  # kept with the state: the ladder's rungs share it
    for kind in (1, 0):  # columns, then rows
        for digit in range(1, n + 1):
            spots = by_digit[digit - 1]
            if not spots:
                continue
            first, last = (2 * n, 3 * n) if pointing else (kind * n, (kind + 1) * n)
            for unit in range(first, last):
                inside = spots & bits[unit]
                if inside & (inside - 1) == 0:  # fewer than two places
                    continue
                # the crossing unit of the lowest place: a line of this kind (pointing) or the box (claiming)
                target = cell_units[inside.bit_length() - 1][kind if pointing else 2]
                if inside & ~bits[target] or not spots & bits[target] & ~bits[unit]:
                    continue
                others = geo.boxes_of_line[target] if pointing else geo.lines_of_box[target - 2 * n][kind]
                yield from _direct_step(cg, digit, spots, unit, target, others, pointing)


def _direct_step(cg: CandidateGrid, digit: int, spots: int, inside: int, target: int, others: tuple[int, ...],
                 pointing: bool) -> Iterator[Step]:
    """``digit`` is confined to where ``inside`` meets ``target``: it leaves the rest of ``target``. Yield the
    step if a unit of ``others`` (same kind as ``inside``) then has one place left for it."""
    bits = _geometry(cg.shape).bits
    gone = spots & bits[target] & ~bits[inside]
    if not gone:
        return
    for other in others:
        if other == inside:
            continue
        places = spots & bits[other]
        rest = places & ~bits[target]
        if places.bit_count() > 1 and rest.bit_count() == 1:
            cell = rest.bit_length() - 1
            n, shape = cg.n, cg.shape
            kept = _cells(spots & bits[inside])
            technique = DIRECT_POINTING if pointing else DIRECT_CLAIMING
            text = (
                f"{cell_name(cell, n)} = {digit}: in {shape.unit_name(inside)}, {digit} fits only in "
                f"{shape.unit_name(target)} ({names(kept, n)}), so it is not in {names(_cells(gone), n)}; then in "
                f"{shape.unit_name(other)}, {digit} fits only in {cell_name(cell, n)} ({technique.lower()})"
            )
            yield make_step(technique, cg, text, placements=[(cell, digit)], cells=[*kept, cell],
                            units=[inside, target, other])
            return


def find_direct_hidden_pairs(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden pairs whose eliminations leave a hidden single in the same unit (SE 2.0)."""
    return _direct_hidden(cg, 2)


def find_direct_hidden_triples(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden triples whose eliminations leave a hidden single in the same unit (SE 2.5)."""
    return _direct_hidden(cg, 3)


def _direct_hidden(cg: CandidateGrid, k: int) -> Iterator[Step]:
    """Units in SE's order (boxes, columns, rows) with more than k empty cells; k digits, each with 2..k places,
    whose places together are k cells; then a digit outside the set with places only there but one."""
    n, masks = cg.n, cg.masks
    geo = _geometry(cg.shape)
    by_digit = cg.digit_cells()  # kept with the state: the ladder's rungs share it
    open_bits = sum(1 << c for c, value in enumerate(cg.values) if not value)
    for unit in (*range(2 * n, 3 * n), *range(n, 2 * n), *range(n)):
        ubits = geo.bits[unit]
        if (open_bits & ubits).bit_count() <= k:
            continue
        places = [spots & ubits for spots in by_digit]
        small = [d for d, p in enumerate(places) if 2 <= p.bit_count() <= k]
        if len(small) < k:
            continue
        for group in combinations(small, k):
            union = 0
            for d in group:
                union |= places[d]
            if union.bit_count() != k:
                continue
            keep = sum(1 << d for d in group)
            for v in range(n):
                if keep >> v & 1:
                    continue
                rest = places[v] & ~union
                if rest and places[v] != rest and rest & (rest - 1) == 0:
                    yield _hidden_step(cg, unit, group, union, keep, v + 1, rest.bit_length() - 1, masks)
                    break


def _hidden_step(cg: CandidateGrid, unit: int, group: tuple[int, ...], union: int, keep: int, digit: int,
                 cell: int, masks: tuple[int, ...]) -> Step:
    n = cg.n
    cells = _cells(union)
    gone = [(c, d) for c in cells for d in digits_of(masks[c] & ~keep)]
    technique = DIRECT_HIDDEN_PAIR if len(group) == 2 else DIRECT_HIDDEN_TRIPLE
    where = cg.layout.unit_name(unit)
    text = (
        f"{cell_name(cell, n)} = {digit}: in {where}, {digit_list(d + 1 for d in group)} fit only in "
        f"{names(cells, n)}, so {removals(gone, n)} are not there; then {digit} fits only in "
        f"{cell_name(cell, n)} ({technique.lower()})"
    )
    return make_step(technique, cg, text, placements=[(cell, digit)], cells=[*cells, cell], units=[unit])


# -- SE's conditions on the plain rules ------------------------------------------------------------------


def _se_subsets(find: Callable[..., Iterator[Step]], k: int, naked: bool) -> Callable[..., Iterator[Step]]:
    """SE looks for a naked set of k in a unit with at least 2k empty cells and a hidden set of k in one with
    more than 2k (else the complementary set, smaller, is the one to see). ``changes`` as the wrapped finder
    (a unit's empty cells are a function of its masks, so the condition keeps the finder incremental)."""

    def find_se(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
        values, units = cg.values, cg.layout.units
        for step in find(cg, changes):
            empty = sum(1 for c in units[step.units[0]] if not values[c])
            if empty >= 2 * k if naked else empty > 2 * k:
                yield step

    find_se.__name__ = f"{find.__name__}_se"
    find_se.__doc__ = f"{find.__doc__} (SE's condition on the unit's empty cells)"
    return find_se


def _chains_up_to(cells: int) -> Finder:
    """X-Chains of at most ``cells`` cells (2 strong links = 4 cells): SukakuExplainer's "Turbot Fish" and
    "3/4 Strong Links" rules. The finder's steps of one state are computed once and shared by the three rows."""

    def find(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
        for step in _x_chain_steps(cg, changes, cells - 1):
            if len(step.cells) <= cells:
                yield step

    find.__name__ = f"find_x_chains_up_to_{cells}"
    find.__doc__ = f"X-Chains of at most {cells} cells."
    return find


#: Links of the longest X-Chain SE's rules look for (4 Strong Links: 8 cells).
_X_CHAIN_LINKS = 7


def _x_chain_steps(cg: CandidateGrid, changes: Changes | None, max_links: int) -> tuple[Step, ...]:
    """The X-Chain steps of a state of at most ``max_links`` links (one per digit and start, its shortest chain
    that removes something; with ``changes``, of the digits that changed), computed once per state object and
    set of changes for the longest bound asked so far (a step of a shorter bound is one of those). Turbot Fish
    (3 links) searches only its own length, since its step often ends the ladder pass; the 3 and 4 Strong Links
    rungs come one after the other deep in the ladder, so the first of them searches for both."""
    memo = getattr(_MEMO, "x_chains", None)
    if memo is None or memo[0] is not cg or memo[1] is not changes or memo[2] < max_links:
        bound = max_links if max_links <= 3 else max(max_links, _X_CHAIN_LINKS)
        memo = (cg, changes, bound, tuple(single_digit.find_x_chains(cg, changes, bound)))
        _MEMO.x_chains = memo
    return memo[3]


# -- the ladder ------------------------------------------------------------------------------------------


class SeRung(NamedTuple):
    """One SE rule: the technique, its finder, its base SE difficulty (a step's own ``difficulty`` overrides
    it), an optional ``rate`` of an instance (for finders that do not rate their steps), an optional
    ``group``: adjacent rows of one group are one SE producer, whose easiest first step wins, and
    ``incremental``: the finder takes ``changes`` (``bitdoku.logic.changes``) and then looks only at the patterns
    they touch, with the same steps, so a solve can skip what cannot have changed since the rung last failed."""

    technique: str
    find: Callable[..., Iterator[Step]]  # (state), and (state, changes) when ``incremental``
    difficulty: float
    rate: Callable[[Step], float] | None = None
    group: str | None = None
    incremental: bool = False


#: The rules tried after the singles kernel stalls, in SukakuExplainer's producer order (its defaults, which
#: rated the forum data sets). The first three are tried before naked singles (2.3), which run in the kernel.
SE_LADDER: tuple[SeRung, ...] = (
    # The first four (and the singles) run in the kernel ``se_singles`` during a rating; the finders serve
    # ``se_steps`` and the tests, which check that both agree.
    SeRung(DIRECT_POINTING, find_direct_pointing, 1.7),
    SeRung(DIRECT_CLAIMING, find_direct_claiming, 1.9),
    SeRung(DIRECT_HIDDEN_PAIR, find_direct_hidden_pairs, 2.0),
    # Naked Single 2.3.
    SeRung(DIRECT_HIDDEN_TRIPLE, find_direct_hidden_triples, 2.5),
    SeRung(intersections.POINTING, intersections.find_pointing, 2.6, incremental=True),
    SeRung(intersections.CLAIMING, intersections.find_claiming, 2.8, incremental=True),
    SeRung("Naked Pair", _se_subsets(subsets.find_naked_pairs, 2, naked=True), 3.0, incremental=True),
    SeRung("X-Wing", fish.find_x_wing, 3.2, incremental=True),
    SeRung("Hidden Pair", _se_subsets(subsets.find_hidden_pairs, 2, naked=False), 3.4, incremental=True),
    SeRung("Naked Triple", _se_subsets(subsets.find_naked_triples, 3, naked=True), 3.6, incremental=True),
    SeRung("Swordfish", fish.find_swordfish, 3.8, incremental=True),
    SeRung("Hidden Triple", _se_subsets(subsets.find_hidden_triples, 3, naked=False), 4.0, incremental=True),
    # SukakuExplainer's "Turbot Fish" producer (two strong links), its hints sorted by difficulty:
    SeRung(single_digit.SKYSCRAPER, single_digit.find_skyscrapers, 4.0, incremental=True),
    SeRung(single_digit.KITE, single_digit.find_two_string_kites, 4.1, incremental=True),
    SeRung(TURBOT_FISH, _chains_up_to(4), 4.2, incremental=True),
    SeRung(single_digit.EMPTY_RECTANGLE, single_digit.find_empty_rectangles, 4.3, incremental=True),
    SeRung(wings.XY_WING, wings.find_xy_wings, 4.2, incremental=True),
    SeRung(wings.XYZ_WING, wings.find_xyz_wings, 4.4, incremental=True),
    # SE's "Unique Rectangles and Loops" producer (its hints sorted by difficulty; each step rates itself):
    SeRung(uniqueness.UNIQUE_RECTANGLE_1, uniqueness.find_unique_rectangles_type_1, 4.5, group="uniqueness"),
    SeRung(uniqueness.UNIQUE_RECTANGLE_2, uniqueness.find_unique_rectangles_type_2, 4.5, group="uniqueness"),
    SeRung(uniqueness.UNIQUE_RECTANGLE_5, uniqueness.find_unique_rectangles_type_5, 4.5, group="uniqueness"),
    SeRung(uniqueness.UNIQUE_RECTANGLE_3, uniqueness.find_unique_rectangles_type_3, 4.6, group="uniqueness"),
    SeRung(uniqueness.UNIQUE_RECTANGLE_4, uniqueness.find_unique_rectangles_type_4, 4.5, group="uniqueness"),
    SeRung("Unique Loop", uniqueness.find_unique_loops, 4.6, group="uniqueness"),
    SeRung("Naked Quad", _se_subsets(subsets.find_naked_quads, 4, naked=True), 5.0, incremental=True),
    SeRung("Jellyfish", fish.find_jellyfish, 5.2, incremental=True),
    SeRung("Hidden Quad", _se_subsets(subsets.find_hidden_quads, 4, naked=False), 5.4, incremental=True),
    SeRung(THREE_LINKS, _chains_up_to(6), 5.4, incremental=True),
    SeRung(als_wings.NAMES[3], als_wings.find_wxyz_wings, 5.5, incremental=True),
    # SE's "Bivalue Universal Grave" producer (each step rates itself):
    SeRung(uniqueness.BUG_PLUS_1, uniqueness.find_bug_plus_1, 5.6, group="bug"),
    SeRung(uniqueness.BUG_1, uniqueness.find_bug_type_1, 5.6, group="bug"),
    SeRung(uniqueness.BUG_2, uniqueness.find_bug_type_2, 5.7, group="bug"),
    SeRung(uniqueness.BUG_3, uniqueness.find_bug_type_3, 5.8, group="bug"),
    SeRung(uniqueness.BUG_4, uniqueness.find_bug_type_4, 5.7, group="bug"),
    SeRung(FOUR_LINKS, _chains_up_to(8), 5.8, incremental=True),
    SeRung(als_wings.NAMES[4], als_wings.find_vwxyz_wings, 6.2, incremental=True),
    SeRung(exclusion.APE, exclusion.find_aligned_pair_exclusions, 6.2, incremental=True),
    SeRung(als_wings.NAMES[5], als_wings.find_uvwxyz_wings, 6.6, incremental=True),
    # SE's "Forcing Chains & Cycles" producer, 6.5+: bidirectional cycles and forcing X/XY chains, each step
    # rated by its kind and length, the easiest first.
    SeRung(se_chains.FORCING_CHAIN, se_chains.find_se_chains, 6.5),
    SeRung(als_wings.NAMES[6], als_wings.find_tuvwxyz_wings, 7.5, incremental=True),
    SeRung(exclusion.ATE, exclusion.find_aligned_triplet_exclusions, 7.5, incremental=True),
    # SE's last producers, each step rated by its kind and length: Nishio 7.5+, multiple (cell and unit)
    # forcing chains 8.0+, dynamic 8.5+, dynamic (+) 9.0+, nested 9.5+.
    SeRung(forcing.NISHIO, forcing.find_nishio, 7.5, incremental=True),
    SeRung(forcing.CELL_FORCING, forcing.find_multiple_forcing_chains, 8.0),
    SeRung(forcing.DYNAMIC, forcing.find_dynamic_forcing_chains, 8.5),
    SeRung(forcing.DYNAMIC_PLUS, forcing.find_dynamic_plus_forcing_chains, 9.0),
    SeRung(forcing.NESTED, forcing.find_nested_forcing_chains, 9.5),
)

#: The ladder for puzzles not known to have one solution: no uniqueness techniques (they would be unsound) and no
#: forcing chains (the costly last resort, which cannot finish such a grid anyway).
def needs_uniqueness(rung: SeRung) -> bool:
    """Whether a rung may run only on a puzzle known to have one solution (uniqueness techniques, forcing
    chains)."""
    return rung.find.__module__ in (uniqueness.__name__, forcing.__name__)


SE_WITHOUT_UNIQUENESS: tuple[SeRung, ...] = tuple(rung for rung in SE_LADDER if not needs_uniqueness(rung))

_BEFORE_NAKED = 3  # SE_LADDER[:3] come before naked singles
_KERNEL_RULES = 4  # SE_LADDER[:4], the direct rules, run in the kernel in se_solve

#: SE's rules that hold on any geometry, in SE's order: the techniques of ``explain.VARIANT_LADDER`` (the X-Chains
#: of at most 4, 6 and 8 cells among them), without the direct rules (classic kernels).
SE_VARIANT_LADDER: tuple[SeRung, ...] = tuple(
    rung for rung in SE_LADDER[_KERNEL_RULES:]
    if rung.technique in {r.technique for r in VARIANT_LADDER} | {TURBOT_FISH, THREE_LINKS, FOUR_LINKS}
)
#: The SE difficulty of each kind of kernel step (``KERNEL_KINDS``).
KERNEL_DIFFICULTY = (1.0, 1.2, 1.5, 2.3, 1.7, 1.9, 2.0, 2.5)


def step_difficulty(step: Step, rung: SeRung) -> float:
    """The SE difficulty of a step: its own, else the rung's rating of it, else the rung's base."""
    if step.difficulty is not None:
        return step.difficulty
    if rung.rate is not None:
        return rung.rate(step)
    return rung.difficulty


def next_se_step(state: CandidateGrid, ladder: tuple[SeRung, ...] = SE_LADDER,
                 memo: LadderMemo | None = None, start: int = 0) -> tuple[Step, float] | None:
    """The step SE would take next (singles aside) and its difficulty, or ``None`` when no rule applies.

    ``memo``: one solve's record of where each rung of ``ladder`` last found nothing (the same ladder at every
    call); the incremental rungs then look only at what changed since (``bitdoku.logic.changes``), same steps.
    ``start``: the first rung tried (the ones before it are known to find nothing on this state; a group is not
    split).
    """
    index = start
    while index < len(ladder):
        check_time()
        rung = ladder[index]
        if rung.group is None:
            step = _first_step(state, rung, index, memo)
            if step is not None:
                return step, step_difficulty(step, rung)
            index += 1
            continue
        best: tuple[Step, float] | None = None
        while index < len(ladder) and ladder[index].group == rung.group:
            member = ladder[index]
            step = _first_step(state, member, index, memo)
            if step is not None:
                rated = step_difficulty(step, member)
                if best is None or rated < best[1]:
                    best = (step, rated)
            index += 1
        if best is not None:
            return best
    return None


def _first_step(state: CandidateGrid, rung: SeRung, index: int, memo: LadderMemo | None) -> Step | None:
    """The rung's first step on the state, looking only at what changed since it last failed when it can."""
    if memo is None or not rung.incremental:
        return next(rung.find(state), None)
    masks = state.masks
    changes = memo.changes(index, masks, state.n)
    step = next(rung.find(state) if changes is None else rung.find(state, changes), None)
    memo.record(index, masks, step is not None)
    return step


# -- the solve -------------------------------------------------------------------------------------------


@dataclass
class SeSolve:
    """What an SE-style solve used: the score (highest step difficulty), the technique that first reached it,
    the steps of each technique, each technique's highest difficulty, and whether a guess was needed."""

    score: float = 0.0
    hardest: str = "none"
    counts: Counter[str] = field(default_factory=Counter)
    difficulties: dict[str, float] = field(default_factory=dict)
    guessed: bool = False

    def record(self, technique: str, difficulty: float, times: int = 1) -> None:
        if times <= 0:
            return
        self.counts[technique] += times
        self.difficulties[technique] = max(difficulty, self.difficulties.get(technique, 0.0))
        if difficulty > self.score:
            self.score, self.hardest = difficulty, technique


def se_solve(puzzle: Grid | CandidateGrid, max_steps: int, ladder: tuple[SeRung, ...] = SE_LADDER, *,
             max_nodes: int | None = None, unique: Callable[[], bool] | None = None) -> SeSolve:
    """Solve simplest-first as SE does and return what the solve used.

    The kernel ``se_singles`` applies the rules up to 2.5 in SE's order (singles and the direct rules, which are
    ``ladder[:4]``, so their finders are not called here); when it stalls, the first rule of ``ladder[4:]`` that
    applies makes one step, and the kernel goes on. When no rule applies, the solution's digit is placed
    ("Guess", 10.0), found by a search of at most ``max_nodes`` nodes. Raises ``InvalidGridError`` (no solution),
    ``StepLimitError`` (more than ``max_steps`` steps beyond singles) and ``SearchLimitError`` (the search for a
    guess spent ``max_nodes``).

    ``unique``: whether the puzzle has one solution, asked only when the solve first reaches a rung that needs it
    (``needs_uniqueness``); when it says no, those rungs are left out from then on, as if ``ladder`` had been
    filtered from the start (the rungs before them are the same). Most puzzles never get there, so they never
    pay for the count.
    """
    from bitdoku.logic.explain import _guess, _solution_for

    shape = puzzle.shape
    tables = shape.tables
    values, masks = kernel_arrays(puzzle)
    counts = np.zeros(len(KERNEL_KINDS), dtype=np.int64)
    solve = SeSolve()
    solution: Grid | None = None
    steps = 0
    rest = ladder[_KERNEL_RULES:]
    memo = LadderMemo()
    # The rungs before the first that needs uniqueness; the check is made when they all fail, once.
    cut = next((i for i, rung in enumerate(rest) if needs_uniqueness(rung)), len(rest)) if unique else len(rest)
    while True:
        before = counts.copy()
        status = se_singles(values, masks, tables.units, tables.peers, tables.cell_units, shape.n, True, counts)
        for kind, name in enumerate(KERNEL_KINDS):
            solve.record(name, KERNEL_DIFFICULTY[kind], int(counts[kind] - before[kind]))
        if status == SOLVED:
            break
        if status == CONTRADICTION:
            raise InvalidGridError("the puzzle has no solution: the candidates run out")
        state = CandidateGrid(values.tobytes(), tuple(masks.tolist()), shape)
        if steps >= max_steps:
            raise StepLimitError(max_steps)
        found = next_se_step(state, rest[:cut], memo)
        if found is None and cut < len(rest) and unique is not None:
            if not unique():
                rest, memo = tuple(rung for rung in rest if not needs_uniqueness(rung)), LadderMemo()
            found = next_se_step(state, rest, memo, cut)
            cut = len(rest)
        if found is None:
            solution = _solution_for(state, solution, max_nodes)
            step, rated = _guess(state, solution), GUESS_DIFFICULTY
            solve.guessed = True
        else:
            step, rated = found
        steps += 1
        solve.record(step.technique, rated)
        apply_to_arrays(step, values, masks, tables.peers)
    return solve


def se_steps(puzzle: LogicPuzzle, ladder: tuple[SeRung, ...] = SE_LADDER) -> Iterator[tuple[Step, float]]:
    """The steps of an SE-style solve one at a time (singles included, slowly, in Python), each with its SE
    difficulty; stops when no rule applies. For tests and for looking at a rating's path."""
    state = as_candidates(puzzle).cleaned()
    while not state.is_solved() and state.problem() is None:
        found: tuple[Step, float, str] | tuple[Step, float] | None = _next_single(state, False)
        if found is None:
            found = next_se_step(state, ladder[:_BEFORE_NAKED])
        if found is None:
            found = _next_single(state, True)
        if found is None:
            found = next_se_step(state, ladder[_BEFORE_NAKED:])
        if found is None:
            return
        yield found[0], found[1]
        state = state.apply(found[0])


def se_solve_variant(puzzle: Grid | CandidateGrid, max_steps: int,
                     ladder: tuple[SeRung, ...] = SE_VARIANT_LADDER, *, max_nodes: int | None = None) -> SeSolve:
    """``se_solve`` for any geometry, in Python (see "Variant grids" above): singles in every unit, then the first
    rule of ``ladder`` that applies, else a guess from the engine's solution (10.0). Same errors as ``se_solve``."""
    from bitdoku.logic.explain import _guess, _solution_for

    state = as_candidates(puzzle).cleaned()
    solve = SeSolve()
    solution: Grid | None = None
    steps = 0
    while not state.is_solved():
        problem = state.problem()
        if problem is not None:
            raise InvalidGridError(f"the puzzle has no solution: {problem}")
        single = _next_single(state, True)
        if single is not None:
            step, rated, kind = single
        else:
            if steps >= max_steps:
                raise StepLimitError(max_steps)
            steps += 1
            found = next_se_step(state, ladder)
            if found is None:
                solution = _solution_for(state, solution, max_nodes)
                found = (_guess(state, solution), GUESS_DIFFICULTY)
                solve.guessed = True
            (step, rated), kind = found, found[0].technique
        solve.record(kind, rated)
        state = state.apply(step)
    return solve


def _next_single(state: CandidateGrid, naked: bool) -> tuple[Step, float, str] | None:
    """The single SE takes next, with its difficulty and SE kind: a full house, a hidden single in a box, a
    column, a row, then (variants) in an extra unit, then a naked one. A window counts as a box, a diagonal as a
    line."""
    n, values = state.n, state.values
    units = state.layout.units
    step: Step | None
    for unit_range in (range(2 * n, 3 * n), range(n, 2 * n), range(n), range(3 * n, len(units))):
        for unit in unit_range:
            empty = [c for c in units[unit] if not values[c]]
            if len(empty) == 1 and state.masks[empty[0]]:
                cell = empty[0]
                digit = state.masks[cell].bit_length()
                where = state.layout.unit_name(unit)
                text = f"{cell_name(cell, n)} = {digit}: the last empty cell of {where} (full house)"
                step = make_step(FULL_HOUSE, state, text, placements=[(cell, digit)], cells=[cell], units=[unit])
                return step, SINGLES_DIFFICULTY[FULL_HOUSE], FULL_HOUSE
    for find, name in ((singles.find_hidden_singles_in_boxes, HIDDEN_SINGLE_BOX),
                       (singles.find_hidden_singles_in_columns, HIDDEN_SINGLE_LINE),
                       (singles.find_hidden_singles_in_rows, HIDDEN_SINGLE_LINE),
                       (singles.find_hidden_singles_in_extra_units, "")):
        step = next(find(state), None)
        if step is not None:
            if not name:
                lines = areas_and_lines(state.layout)[1]
                name = HIDDEN_SINGLE_LINE if step.units[0] in lines else HIDDEN_SINGLE_BOX
            return step, SINGLES_DIFFICULTY[name], name
    if naked:  # only naked singles
        step = next(singles.find_naked_singles(state), None)
        if step is not None:
            return step, SINGLES_DIFFICULTY[NAKED_SINGLE], NAKED_SINGLE
    return None

