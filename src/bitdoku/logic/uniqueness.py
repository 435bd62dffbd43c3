"""Techniques that assume the puzzle has exactly one solution.

They avoid "deadly patterns", arrangements that could be filled two ways with nothing else telling them apart;
in a puzzle with a unique solution such a pattern can't be the final state. On a puzzle with several
solutions these steps may remove a digit of some solution, so ``explain`` uses them only as a person would,
trusting the puzzle to be proper (the ladder gates them behind its ``unique`` flag).

A *unique rectangle* is four open cells at the corners of two rows and two columns that lie in exactly two
boxes (for any box shape), all holding the digits {a, b}. If all four ended up a or b, the two diagonals could
swap a and b and the puzzle would have two solutions; so at least one corner takes another digit. The corners
that hold only {a, b} are the *floor*, the others carry *extra* digits.

- **Unique Rectangle Type 1**: one corner has extras, so a and b leave it (https://www.sudokuwiki.org/Unique_Rectangles).
- **Type 2**: two corners in one unit both hold {a, b, x}; one of them is x, so x leaves the cells seeing both.
- **Type 3**: two corners in one unit have extras; together they act as one cell holding the extras and, with
  other cells of the unit, form a naked set whose digits leave the rest of the unit. The hidden form: the pair
  takes at most one of a and b, so if a, b and some digits absent from the pair fit in the pair and as many other
  cells as those other digits plus one, those cells hold only these digits.
- **Type 4**: two corners in one unit have extras and a has no other place in that unit: one of them is a, so
  the other can't be b, and b leaves both.
- **Type 5**: two diagonal corners or three corners all hold {a, b, x}; one of them is x, so x leaves the cells
  seeing them all (HoDoKu's type 5; SE finds it as its "type 2").
- **Type 6**: the floor is one diagonal and a appears in the rectangle's two rows and two columns only at the
  corners; a in an extra corner would force a into both extra corners and b onto the floor, the deadly
  pattern, so a leaves the two extra corners (https://hodoku.sourceforge.net/en/tech_ur.php).
- **Hidden Unique Rectangle**: a floor corner holds only {a, b}; in the row and the column of the opposite
  corner, a appears only in the rectangle. That corner being b would force the deadly pattern, so b leaves it.
- **Avoidable Rectangle Types 1 and 2**: the same pattern among cells already *solved* during the solve (not
  givens: givens can't swap). Type 1: three corners solved, the fourth open would complete the pattern, so that
  digit leaves it. Type 2: two corners solved in a unit, the two open ones hold the digit completing the pattern
  plus one same extra x; one of them is x, so x leaves the cells seeing both.
- **Unique Loop Types 1 to 4**: the same idea on a longer closed loop of cells holding {a, b} (6, 8, 10...
  cells), each unit it touches holding exactly two of its cells, in alternating positions along the loop;
  the types read as for rectangles (Sudoku Explainer's "Unique Loop").
- **BUG+1**: every open cell has two candidates except one with three, and each digit has two places in every
  unit except one digit, which has three in the units of that cell. Without that digit there the grid would be
  a "bivalue universal grave" with two solutions, so the cell takes it (https://www.sudokuwiki.org/BUG).
- **BUG Type 1**: as BUG+1, for the one cell off the grave with two or more extra digits: it takes one of them,
  so its other two digits leave it.
- **BUG Types 2 to 4**: several cells carry the digits that keep the grid from being a bivalue universal grave;
  at least one of them takes such a digit. Type 2: all carry the same one digit x, so x leaves the cells seeing
  them all. Type 3: they share a unit and act there as one cell holding their extra digits in a naked set.
  Type 4: two of them share a unit where a common digit has only those two places; one of them is that digit
  and the other its extra digit, so their remaining digit leaves both.

Difficulty on the Sudoku Explainer (SE) scale, read from SE's ``UniqueLoopHint`` and ``Bug*Hint`` classes:
rectangles and loops 4.5, plus 0.1 for a 6-cell loop, 0.2 for 8 and 0.5 for 10 or more; type 3 adds 0.1 per
naked-set digit beyond one (a pair 0.1), or 0.1 per hidden-set cell beyond one; BUG type 1 is 5.6, types 2 and
4 5.7, type 3 5.7 plus 0.1 per naked-set digit beyond one. SE lacks type 6, hidden rectangles and avoidable
rectangles: their steps carry no difficulty (HoDoKu scores them all 100, as its other uniqueness steps).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations
from typing import NamedTuple

from bitdoku.errors import cell_name
from bitdoku.logic.als import bits_of
from bitdoku.logic.candidates import CandidateGrid, digits_of, layout_of
from bitdoku.logic.step import Step, digit_list, make_step, names, removals
from bitdoku.shape import Shape

UNIQUE_RECTANGLE_1 = "Unique Rectangle Type 1"
UNIQUE_RECTANGLE_2 = "Unique Rectangle Type 2"
UNIQUE_RECTANGLE_3 = "Unique Rectangle Type 3"
UNIQUE_RECTANGLE_4 = "Unique Rectangle Type 4"
UNIQUE_RECTANGLE_5 = "Unique Rectangle Type 5"
UNIQUE_RECTANGLE_6 = "Unique Rectangle Type 6"
HIDDEN_UNIQUE_RECTANGLE = "Hidden Unique Rectangle"
AVOIDABLE_RECTANGLE_1 = "Avoidable Rectangle Type 1"
AVOIDABLE_RECTANGLE_2 = "Avoidable Rectangle Type 2"
UNIQUE_LOOP = "Unique Loop Type {}"
BUG_PLUS_1 = "BUG+1"
BUG_1 = "BUG Type 1"
BUG_2 = "BUG Type 2"
BUG_3 = "BUG Type 3"
BUG_4 = "BUG Type 4"

#: SE's base rating of unique rectangles and loops, and of the BUG types past the first.
RECTANGLE_BASE = 4.5
BUG_1_BASE = 5.6
BUG_BASE = 5.7
#: The longest unique loop searched (cells); SE's bonus stops growing at 10.
MAX_LOOP_CELLS = 14
#: The largest naked or hidden set of a type 3 (cells besides the pair of extra corners).
MAX_SET_CELLS = 3

Finder = Callable[[CandidateGrid], Iterator[Step]]


def loop_difficulty(cells: int) -> float:
    """SE's rating of a unique rectangle (4 cells) or loop of types 1, 2 and 4.

    >>> [loop_difficulty(n) for n in (4, 6, 8, 10, 12)]
    [4.5, 4.6, 4.7, 5.0, 5.0]
    """
    bonus = 0.5 if cells >= 10 else 0.2 if cells >= 8 else 0.1 if cells >= 6 else 0.0
    return round(RECTANGLE_BASE + bonus, 1)


def find_unique_rectangles_type_1(cg: CandidateGrid) -> Iterator[Step]:
    """Unique rectangles with one corner holding extra candidates (assumes a unique solution)."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    for row in range(n):
        cells = [c for c in cg.layout.units[row] if masks[c].bit_count() == 2]
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                pair = masks[a]
                if masks[b] != pair:
                    continue
                for other in range(n):
                    if other == row:
                        continue
                    c, d = other * n + layout.col[a], other * n + layout.col[b]
                    if len({layout.box[a], layout.box[b], layout.box[c], layout.box[d]}) != 2:
                        continue
                    for plain, extra in ((c, d), (d, c)):
                        if masks[plain] == pair and masks[extra] & pair == pair and masks[extra] != pair:
                            gone = [(extra, digit) for digit in digits_of(pair)]
                            text = (
                                f"{names([a, b, plain], n)} hold only {digit_list(digits_of(pair))}; if "
                                f"{cell_name(extra, n)} were {' or '.join(str(x) for x in digits_of(pair))} the "
                                f"rectangle could swap them and the puzzle would have two solutions, so remove "
                                f"{removals(gone, n)} (unique rectangle type 1)"
                            )
                            yield make_step(
                                UNIQUE_RECTANGLE_1,
                                cg,
                                text,
                                eliminations=gone,
                                cells=[a, b, c, d],
                                difficulty=RECTANGLE_BASE,
                            )


# -- rectangles ---------------------------------------------------------------------------------------------

Rectangle = tuple[tuple[int, int, int, int], int]
#: The last grid asked and its rectangles, as one tuple so that threads read a consistent pair.
_last: tuple[CandidateGrid | None, tuple[Rectangle, ...]] = (None, ())


def rectangles(cg: CandidateGrid) -> tuple[Rectangle, ...]:
    """Every unique-rectangle candidate: corners (sorted, so r1cA, r1cB, r2cA, r2cB) in exactly two boxes, all
    open and holding both digits of ``pair`` (a mask), at least one holding nothing else.

    Found from the bivalue cells, so the cost follows their number; the last grid's answer is kept, since the
    rectangle finders run one after the other on the same state.
    """
    global _last
    last_grid, last_found = _last
    if last_grid is cg:
        return last_found
    masks, layout, n = cg.masks, cg.layout, cg.n
    row, col, box = layout.row, layout.col, layout.box
    found: dict[Rectangle, None] = {}
    for a, pair in enumerate(masks):
        if pair.bit_count() != 2:
            continue
        across = [b for b in layout.units[row[a]] if b != a and masks[b] & pair == pair]
        down = [c for c in layout.units[n + col[a]] if c != a and masks[c] & pair == pair]
        for b in across:
            for c in down:
                d = row[c] * n + col[b]
                if masks[d] & pair == pair and len({box[a], box[b], box[c], box[d]}) == 2:
                    corners = tuple(sorted((a, b, c, d)))
                    found[(corners, pair)] = None  # type: ignore[index]
    result = tuple(found)
    _last = (cg, result)
    return result


def _extras(masks: tuple[int, ...], corners: tuple[int, ...], pair: int) -> list[int]:
    return [c for c in corners if masks[c] != pair]


def _shared_units(cg: CandidateGrid, a: int, b: int) -> list[int]:
    units_b = cg.layout.cell_units[b]
    return [u for u in cg.layout.cell_units[a] if u in units_b]


def _pair_text(pair: int) -> str:
    return digit_list(digits_of(pair))


def _removing(cg: CandidateGrid, cells: Iterable[int], digit: int) -> list[tuple[int, int]]:
    """(cell, digit) for each given cell that still holds the digit."""
    bit = 1 << (digit - 1)
    return [(c, digit) for c in sorted(cells) if cg.masks[c] & bit]


def _single_extra(
    cg: CandidateGrid,
    technique: str,
    corners: Sequence[int],
    pair: int,
    extras: list[int],
    what: str,
    tag: str,
    difficulty: float | None,
) -> Iterator[Step]:
    """Types 2 and 5 (and loop type 2): every extra cell holds the pair plus the same one digit x, so one of them
    is x and x leaves every cell seeing them all."""
    masks, n = cg.masks, cg.n
    extra = masks[extras[0]] & ~pair
    if extra.bit_count() != 1 or any(masks[c] != pair | extra for c in extras):
        return
    x = extra.bit_length()
    gone = _removing(cg, cg.layout.common_peers(extras), x)
    if gone:
        text = (
            f"{names(corners, n)} hold {_pair_text(pair)} and {names(extras, n)} one more digit, the same {x}; "
            f"without {x} there the {what} could swap its digits (two solutions), so one of them is {x}: remove "
            f"{removals(gone, n)} ({tag})"
        )
        yield make_step(technique, cg, text, eliminations=gone, cells=corners, difficulty=difficulty)


def find_unique_rectangles_type_2(cg: CandidateGrid) -> Iterator[Step]:
    """Two corners in one unit hold the same single extra digit (assumes a unique solution)."""
    for corners, pair in rectangles(cg):
        extras = _extras(cg.masks, corners, pair)
        if len(extras) == 2 and cg.layout.sees(*extras):
            yield from _single_extra(
                cg, UNIQUE_RECTANGLE_2, corners, pair, extras, "rectangle", "unique rectangle type 2", RECTANGLE_BASE
            )


def find_unique_rectangles_type_5(cg: CandidateGrid) -> Iterator[Step]:
    """Two diagonal corners or three corners hold the same single extra digit (assumes a unique solution)."""
    for corners, pair in rectangles(cg):
        extras = _extras(cg.masks, corners, pair)
        if len(extras) == 3 or (len(extras) == 2 and not cg.layout.sees(*extras)):
            yield from _single_extra(
                cg, UNIQUE_RECTANGLE_5, corners, pair, extras, "rectangle", "unique rectangle type 5", RECTANGLE_BASE
            )


def find_unique_rectangles_type_3(cg: CandidateGrid) -> Iterator[Step]:
    """Two corners in one unit with extras form a naked or hidden set with other cells of the unit, smallest
    sets first (assumes a unique solution)."""
    found = []
    for corners, pair in rectangles(cg):
        extras = _extras(cg.masks, corners, pair)
        if len(extras) == 2 and cg.layout.sees(*extras):
            found.extend(_pair_sets(cg, UNIQUE_RECTANGLE_3, corners, pair, extras, "rectangle", "unique rectangle"))
    found.sort(key=lambda item: item[0])
    for _, step in found:
        yield step


def _pair_sets(
    cg: CandidateGrid, technique: str, cells: Sequence[int], pair: int, extras: list[int], what: str, tag: str
) -> list[tuple[tuple[float, int], Step]]:
    """Type 3 on a rectangle or loop whose two extra cells share units: each naked and hidden set, keyed by
    difficulty then set size."""
    masks, n = cg.masks, cg.n
    e1, e2 = sorted(extras)
    extra = (masks[e1] | masks[e2]) & ~pair
    if extra.bit_count() < 2:
        return []  # a single extra digit is type 2
    found = []
    base = loop_difficulty(len(cells))
    for unit in _shared_units(cg, e1, e2):
        others = [c for c in cg.layout.units[unit] if masks[c] and c != e1 and c != e2]
        for k, group, digits, gone in _sets_with_pseudo_cell(masks, others, extra, MAX_SET_CELLS):
            text = (
                f"{names(cells, n)} hold {_pair_text(pair)}; {cell_name(e1, n)} or {cell_name(e2, n)} "
                f"takes one of {digit_list(digits_of(extra))} (else the {what} could swap), a naked set on "
                f"{digit_list(digits_of(digits))} with {names(group, n)} in "
                f"{cg.layout.unit_name(unit)}: remove {removals(gone, n)} ({tag} type 3)"
            )
            difficulty = round(base + 0.1 * k, 1)
            step = make_step(
                technique,
                cg,
                text,
                eliminations=gone,
                cells=[*cells, *group],
                units=[unit],
                difficulty=difficulty,
            )
            found.append(((difficulty, k), step))
        found.extend(_hidden_pair_sets(cg, technique, cells, pair, extras, (what, tag), unit, others, base))
    return found


def _sets_with_pseudo_cell(
    masks: tuple[int, ...], others: list[int], pseudo: int, max_cells: int
) -> Iterator[tuple[int, tuple[int, ...], int, list[tuple[int, int]]]]:
    """Naked sets made of a pseudo-cell (the digits ``pseudo``, one of which the pattern's extra cells must take)
    and k of ``others`` (k up to ``max_cells``): k + 1 digits in k + 1 cells. Yields (k, group, digits, gone),
    ``gone`` the set's digits in the unit's other cells, only when there are some."""
    for k in range(1, min(max_cells, len(others) - 1) + 1):
        for group in combinations(others, k):
            digits = pseudo
            for c in group:
                digits |= masks[c]
            if digits.bit_count() != k + 1:
                continue
            gone = [(c, d) for c in others if c not in group for d in digits_of(masks[c] & digits)]
            if gone:
                yield k, group, digits, gone


def _hidden_pair_sets(
    cg: CandidateGrid,
    technique: str,
    cells: Sequence[int],
    pair: int,
    extras: list[int],
    words: tuple[str, str],
    unit: int,
    others: list[int],
    base: float,
) -> list[tuple[tuple[float, int], Step]]:
    """The hidden form of type 3: the two extra cells take at most one of the pair's digits, so the pair's
    digits plus t digits they lack, confined to them and t + 1 other cells, fill those cells."""
    masks, n = cg.masks, cg.n
    what, tag = words
    e1, e2 = sorted(extras)
    outside = [d for d in range(1, n + 1) if not (masks[e1] | masks[e2]) >> (d - 1) & 1]
    where = {d: [c for c in others if masks[c] >> (d - 1) & 1] for d in [*digits_of(pair), *outside]}
    where = {d: cs for d, cs in where.items() if cs}
    outside = [d for d in outside if d in where]
    found = []
    for t in range(0, MAX_SET_CELLS):
        for added in combinations(outside, t):
            digits = [*digits_of(pair), *added]
            spots = sorted({c for d in digits for c in where.get(d, ())})
            if len(spots) != t + 1:
                continue
            keep = sum(1 << (d - 1) for d in digits)
            gone = [(c, d) for c in spots for d in digits_of(masks[c] & ~keep)]
            if gone:
                text = (
                    f"{names(cells, n)} hold {_pair_text(pair)}; {cell_name(e1, n)} and {cell_name(e2, n)} take at "
                    f"most one of them (else the {what} could swap), so the other places of {digit_list(digits)} in "
                    f"{cg.layout.unit_name(unit)}, {names(spots, n)}, hold only these: remove {removals(gone, n)} "
                    f"({tag} type 3, hidden set)"
                )
                difficulty = round(base + 0.1 * t, 1)
                step = make_step(
                    technique, cg, text, eliminations=gone, cells=[*cells, *spots], units=[unit], difficulty=difficulty
                )
                found.append(((difficulty, t + 1), step))
    return found


def find_unique_rectangles_type_4(cg: CandidateGrid) -> Iterator[Step]:
    """Two corners in one unit with extras, one digit of the pair confined to them there (assumes a unique
    solution)."""
    for corners, pair in rectangles(cg):
        extras = _extras(cg.masks, corners, pair)
        if len(extras) == 2 and cg.layout.sees(*extras):
            yield from _locked_pair(
                cg, UNIQUE_RECTANGLE_4, corners, pair, extras, "unique rectangle type 4", RECTANGLE_BASE
            )


def _locked_pair(
    cg: CandidateGrid, technique: str, cells: Sequence[int], pair: int, extras: list[int], label: str,
    difficulty: float | None,
) -> Iterator[Step]:
    """Type 4: if digit a has no place but the two extra cells in a unit they share, one of them is a and the
    other can't be b (that would complete the deadly pattern), so b leaves both."""
    n = cg.n
    e1, e2 = extras
    a_digit, b_digit = digits_of(pair)
    for unit in _shared_units(cg, e1, e2):
        for keep, drop in ((a_digit, b_digit), (b_digit, a_digit)):
            if _places(cg, unit, keep) == 1 << e1 | 1 << e2:
                gone = [(e1, drop), (e2, drop)]
                text = (
                    f"{names(cells, n)} hold {_pair_text(pair)}; in {cg.layout.unit_name(unit)} {keep} fits only in "
                    f"{cell_name(e1, n)} and {cell_name(e2, n)}, so one of them is {keep} and the other can't be "
                    f"{drop} (two solutions): remove {removals(gone, n)} ({label})"
                )
                yield make_step(
                    technique, cg, text, eliminations=gone, cells=cells, units=[unit], difficulty=difficulty
                )


def _confined(cg: CandidateGrid, digit: int, unit: int, cells: set[int]) -> bool:
    return _places(cg, unit, digit) == sum(1 << c for c in cells)


def _places(cg: CandidateGrid, unit: int, digit: int) -> int:
    """The cells of ``unit`` where ``digit`` is a candidate, as a bitset (from the state's digit bitsets, which
    the ladder's other rungs share: no per-unit lists built for one question)."""
    return cg.digit_cells()[digit - 1] & cg.layout.unit_bits[unit]


def _lines(cg: CandidateGrid, corners: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The rectangle's two rows and two columns (unit indices)."""
    layout, n = cg.layout, cg.n
    a, _, _, d = corners
    return layout.row[a], layout.row[d], n + layout.col[a], n + layout.col[d]


def find_unique_rectangles_type_6(cg: CandidateGrid) -> Iterator[Step]:
    """The floor is a diagonal and a digit of the pair lies in the rectangle's rows and columns only at its
    corners (an X-Wing): it leaves the two extra corners (assumes a unique solution; SE lacks this type)."""
    masks, n = cg.masks, cg.n
    for corners, pair in rectangles(cg):
        a, b, c, d = corners
        extras = _extras(masks, corners, pair)
        if sorted(extras) not in ([a, d], [b, c]):
            continue
        row1, row2, col1, col2 = _lines(cg, corners)
        for digit in digits_of(pair):
            if (
                _confined(cg, digit, row1, {a, b})
                and _confined(cg, digit, row2, {c, d})
                and _confined(cg, digit, col1, {a, c})
                and _confined(cg, digit, col2, {b, d})
            ):
                gone = [(e, digit) for e in extras]
                other = digits_of(pair & ~(1 << (digit - 1)))[0]
                text = (
                    f"{names(corners, n)} hold {_pair_text(pair)} and {digit} lies in their rows and columns only "
                    f"there; {digit} in {cell_name(extras[0], n)} or {cell_name(extras[1], n)} would put {digit} in "
                    f"both and {other} on the other diagonal (two solutions): remove {removals(gone, n)} "
                    f"(unique rectangle type 6)"
                )
                yield make_step(
                    UNIQUE_RECTANGLE_6, cg, text, eliminations=gone, cells=corners, units=[row1, row2, col1, col2]
                )


def find_hidden_unique_rectangles(cg: CandidateGrid) -> Iterator[Step]:
    """A floor corner holds only the pair and one digit is confined to the rectangle in the row and the column of
    the opposite corner: the other digit leaves that corner (assumes a unique solution; SE lacks this)."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    for corners, pair in rectangles(cg):
        for floor in corners:
            if masks[floor] != pair:
                continue
            far = corners[3 - corners.index(floor)]
            same_row = next(c for c in corners if c not in (floor, far) and layout.row[c] == layout.row[far])
            same_col = next(c for c in corners if c not in (floor, far, same_row))
            far_row, far_col = layout.row[far], n + layout.col[far]
            for keep in digits_of(pair):
                drop = digits_of(pair & ~(1 << (keep - 1)))[0]
                if _confined(cg, keep, far_row, {far, same_row}) and _confined(cg, keep, far_col, {far, same_col}):
                    gone = [(far, drop)]
                    text = (
                        f"{cell_name(floor, n)} holds only {_pair_text(pair)} and {keep} lies in "
                        f"{cg.layout.unit_name(far_row)} and {cg.layout.unit_name(far_col)} only in the rectangle "
                        f"{names(corners, n)}; {cell_name(far, n)} = {drop} would force the two-solution pattern: "
                        f"remove {removals(gone, n)} (hidden unique rectangle)"
                    )
                    yield make_step(
                        HIDDEN_UNIQUE_RECTANGLE, cg, text, eliminations=gone, cells=corners, units=[far_row, far_col]
                    )


# -- avoidable rectangles -------------------------------------------------------------------------------------


def avoidable_rectangles_finder(givens: frozenset[int]) -> Finder:
    """A finder of avoidable rectangles for a puzzle whose given cells are ``givens`` (0-based indices).

    A ``CandidateGrid`` only knows which cells are filled, not which were given, and the technique needs the
    difference: a pattern of solved cells could swap, one holding a given could not. So the givens are bound once
    per puzzle here and the result is an ordinary finder for the ladder (``explain`` knows the puzzle it started
    from; when it starts from pencil marks, pass every filled cell and the technique never fires).
    """
    return lambda cg: find_avoidable_rectangles(cg, givens)


def find_avoidable_rectangles(cg: CandidateGrid, givens: frozenset[int]) -> Iterator[Step]:
    """Avoidable rectangles, type 1 first then type 2 (assumes a unique solution; SE lacks this technique)."""
    yield from _avoidable_type_1(cg, givens)
    yield from _avoidable_type_2(cg, givens)


def _valued(cg: CandidateGrid, cells: Iterable[int]) -> str:
    """``r1c5 = 2, r1c8 = 6``."""
    return ", ".join(f"{cell_name(cell, cg.n)} = {cg.values[cell]}" for cell in sorted(cells))


def _where(cg: CandidateGrid, lines: int) -> list[dict[int, int]]:
    """For each row (``lines`` 0) or column (1), its filled cells by value."""
    n, values = cg.n, cg.values
    found: list[dict[int, int]] = [{} for _ in range(n)]
    for cell, value in enumerate(values):
        if value:
            found[cell % n if lines else cell // n][value] = cell
    return found


def _avoidable_type_1(cg: CandidateGrid, givens: frozenset[int]) -> Iterator[Step]:
    """Three solved corners x, y, y around an elbow (x); the open fourth corner can't be x."""
    values, masks, layout, n = cg.values, cg.masks, cg.layout, cg.n
    box = layout.box
    in_col = _where(cg, 1)
    for elbow, x in enumerate(values):
        if not x or elbow in givens:
            continue
        for b in layout.units[layout.row[elbow]]:
            y = values[b]
            c = in_col[layout.col[elbow]].get(y) if y and y != x and b not in givens else None
            if c is None or c in givens:
                continue
            d = layout.row[c] * n + layout.col[b]
            if masks[d] >> (x - 1) & 1 and len({box[elbow], box[b], box[c], box[d]}) == 2:
                gone = [(d, x)]
                text = (
                    f"{_valued(cg, (elbow, b, c))} were solved, not given; "
                    f"{cell_name(d, n)} = {x} would let the rectangle swap {x} and {y} (two solutions): "
                    f"remove {removals(gone, n)} (avoidable rectangle type 1)"
                )
                yield make_step(AVOIDABLE_RECTANGLE_1, cg, text, eliminations=gone, cells=[elbow, b, c, d])


def _avoidable_type_2(cg: CandidateGrid, givens: frozenset[int]) -> Iterator[Step]:
    """Two solved corners a, b in a row (or column); the open corners across hold {b, x} and {a, x}: one of
    them is x. Found from the pairs of bivalue cells in a row (or column) sharing one digit."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    box = layout.box
    for lines in (0, 1):
        across = _where(cg, 1 - lines)  # the solved corners lie across the open ones' line
        spot, line_of = (layout.col, layout.row) if lines == 0 else (layout.row, layout.col)
        for unit in range(lines * n, lines * n + n):
            pairs = [c for c in layout.units[unit] if masks[c].bit_count() == 2]
            for i, c in enumerate(pairs):
                for d in pairs[i + 1 :]:
                    shared = masks[c] & masks[d]
                    if shared.bit_count() != 1:
                        continue
                    a, b = (masks[d] & ~shared).bit_length(), (masks[c] & ~shared).bit_length()
                    first, second = across[spot[c]].get(a), across[spot[d]].get(b)
                    if first is None or second is None or first in givens or second in givens:
                        continue
                    if line_of[first] != line_of[second] or len({box[first], box[second], box[c], box[d]}) != 2:
                        continue
                    yield from _avoidable_step(cg, first, second, c, d, shared.bit_length())


def _avoidable_step(cg: CandidateGrid, first: int, second: int, c: int, d: int, x: int) -> Iterator[Step]:
    n = cg.n
    a, b = cg.values[first], cg.values[second]
    gone = _removing(cg, cg.layout.common_peers((c, d)), x)
    if gone:
        text = (
            f"{cell_name(first, n)} = {a} and {cell_name(second, n)} = {b} were solved, not given; "
            f"{cell_name(c, n)} = {b} and {cell_name(d, n)} = {a} would let the rectangle swap them (two "
            f"solutions), so one of them is {x}: remove {removals(gone, n)} (avoidable rectangle type 2)"
        )
        yield make_step(AVOIDABLE_RECTANGLE_2, cg, text, eliminations=gone, cells=[first, second, c, d])


# -- unique loops ---------------------------------------------------------------------------------------------


def find_unique_loops(cg: CandidateGrid) -> Iterator[Step]:
    """Unique loops of 6 to ``MAX_LOOP_CELLS`` cells, types 1 to 4, easiest (SE's rating, then type) first
    (assumes a unique solution)."""
    masks = cg.masks
    found: list[tuple[tuple[float, int], Step]] = []
    for loop, pair in _loops(cg):
        extras = [c for c in loop if masks[c] != pair]
        size = len(loop)
        if len(extras) == 1:
            found.extend(((loop_difficulty(size), 1), s) for s in _loop_type_1(cg, loop, pair, extras[0]))
            continue
        what = f"loop of {size} cells"
        found.extend(
            ((loop_difficulty(size), 2), s)
            for s in _single_extra(
                cg, UNIQUE_LOOP.format(2), loop, pair, extras, what, f"unique {what}, type 2", loop_difficulty(size)
            )
        )
        if len(extras) == 2 and cg.layout.sees(*extras):
            found.extend(_pair_sets(cg, UNIQUE_LOOP.format(3), loop, pair, extras, what, f"unique {what},"))
            label = f"unique {what}, type 4"
            found.extend(
                ((loop_difficulty(size), 4), s)
                for s in _locked_pair(cg, UNIQUE_LOOP.format(4), loop, pair, extras, label, loop_difficulty(size))
            )
    found.sort(key=lambda item: item[0])
    for _, step in found:
        yield step


def _loop_type_1(cg: CandidateGrid, loop: list[int], pair: int, extra: int) -> Iterator[Step]:
    n = cg.n
    gone = [(extra, d) for d in digits_of(pair)]
    text = (
        f"{names([c for c in loop if c != extra], n)} hold only {_pair_text(pair)} and close a loop through "
        f"{cell_name(extra, n)}; if it were {' or '.join(str(d) for d in digits_of(pair))} the loop could swap its "
        f"digits (two solutions), so remove {removals(gone, n)} (unique loop of {len(loop)} cells, type 1)"
    )
    yield make_step(
        UNIQUE_LOOP.format(1), cg, text, eliminations=gone, cells=loop, difficulty=loop_difficulty(len(loop))
    )


def _loops(cg: CandidateGrid) -> list[tuple[list[int], int]]:
    """Closed loops of 6 to ``MAX_LOOP_CELLS`` cells holding both digits of a pair, each unit they touch holding
    exactly two of them at positions of different parity along the loop (so the digits alternate, and could
    swap), with at most two cells holding extras unless every extra is the same single digit. Each loop starts
    at its lowest bivalue cell; found once per direction, kept once. Cell sets are bitsets (ints over the
    cells), so a pair's pool costs a few integer operations."""
    masks = cg.masks
    tables = _bit_tables(cg.shape)
    unit_bits = tables.cell_unit_bits
    by_digit = cg.digit_cells()
    starts: dict[int, list[int]] = {}
    for cell, mask in enumerate(masks):
        if mask.bit_count() == 2:
            starts.setdefault(mask, []).append(cell)
    found: dict[frozenset[int], tuple[list[int], int]] = {}
    for pair, cells in starts.items():
        low = pair & -pair
        bits = by_digit[low.bit_length() - 1] & by_digit[(pair ^ low).bit_length() - 1]
        for pool_bits in _pools(masks, pair, cells, bits, tables):
            pool = set(bits_of(pool_bits))
            links = {c: bits_of(tables.peer_bits[c] & pool_bits) for c in pool}
            for start in cells:
                if start in pool:
                    pool.discard(start)  # lower bivalue cells start their own loops
                    _walk(masks, pair, pool, links, unit_bits, [start], unit_bits[start], 0, 0, 0, found)
    return list(found.values())


def _pools(masks: tuple[int, ...], pair: int, cells: list[int], bits: int, tables: _BitTables) -> list[int]:
    """The cell sets to search for loops on a pair. A loop has at least 6 cells and at most two with extras
    unless all its extra cells hold one same extra digit x: with fewer than 4 bivalue cells only the latter can
    close, so search the bivalue cells with the cells holding pair + x, for each x that leaves enough."""
    if bits.bit_count() < 6:
        return []
    bivalue = sum(1 << c for c in cells)
    if bivalue.bit_count() >= 4:
        bits = _partnered(bits, tables)
        return [bits] if bits & bivalue and bits.bit_count() >= 6 else []
    by_extra: dict[int, int] = {}
    for cell in bits_of(bits & ~bivalue):
        extra = masks[cell] & ~pair
        if extra.bit_count() == 1:
            by_extra[extra] = by_extra.get(extra, 0) | 1 << cell
    pools = []
    for more in by_extra.values():
        if bivalue.bit_count() + more.bit_count() >= 6:
            pool = _partnered(bivalue | more, tables)
            if pool & bivalue and pool.bit_count() >= 6:
                pools.append(pool)
    return pools


class _BitTables(NamedTuple):
    unit_cells: tuple[int, ...]  # per unit, its cells as a bitset
    cell_unit_bits: tuple[int, ...]  # per cell, its three units as a bitset over the units
    cell_units: tuple[tuple[int, ...], ...]  # per cell, its units (row, column, box, then a variant's others)
    peer_bits: tuple[int, ...]  # per cell, its peers as a bitset


@cache
def _bit_tables(shape: Shape) -> _BitTables:
    """A shape's units and peers as bitsets (built once per shape)."""
    layout = layout_of(shape)
    return _BitTables(
        layout.unit_bits,
        tuple(sum(1 << u for u in units) for units in layout.cell_units),
        layout.cell_units,
        layout.peer_bits,
    )




def _partnered(bits: int, tables: _BitTables) -> int:
    """The cells of a pool (bitset) that could lie on a loop: every unit of a loop cell holds another loop cell,
    so drop cells alone in a unit, until none is."""
    while True:
        keep = bits
        for cells in tables.unit_cells:
            alone = bits & cells
            if alone and not alone & (alone - 1):
                keep &= ~alone
        if keep == bits:
            return bits
        bits = keep


def _walk(
    masks: tuple[int, ...],
    pair: int,
    pool: set[int],
    links: dict[int, list[int]],
    unit_bits: tuple[int, ...],
    path: list[int],
    even: int,
    odd: int,
    extras: int,
    extra_digits: int,
    found: dict[frozenset[int], tuple[list[int], int]],
) -> None:
    """Depth-first growth of a loop. ``even`` and ``odd`` are the units (bits) touched by the loop cells at even
    and odd positions: a unit may take one of each, and the loop closes when both sets are equal."""
    parity = len(path) & 1
    if len(path) >= 6 and not parity and even == odd and path[-1] in links[path[0]]:
        found.setdefault(frozenset(path), (list(path), pair))
    if len(path) >= MAX_LOOP_CELLS:
        return
    same = odd if parity else even
    for nxt in links[path[-1]]:
        bits = unit_bits[nxt]
        if bits & same or nxt not in pool or nxt in path:
            continue
        extra = masks[nxt] & ~pair
        more = extras + (extra != 0)
        digits = extra_digits | extra
        if extra and more > 2 and digits.bit_count() != 1:
            continue
        path.append(nxt)
        if parity:
            _walk(masks, pair, pool, links, unit_bits, path, even, odd | bits, more, digits, found)
        else:
            _walk(masks, pair, pool, links, unit_bits, path, even | bits, odd, more, digits, found)
        path.pop()


# -- bivalue universal grave ----------------------------------------------------------------------------------


def find_bug_plus_1(cg: CandidateGrid) -> Iterator[Step]:
    """The single cell that keeps the grid from being a bivalue universal grave (assumes a unique solution)."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    extra = [c for c, m in enumerate(masks) if m and m.bit_count() != 2]
    if len(extra) != 1 or masks[extra[0]].bit_count() != 3:
        return
    cell = extra[0]
    row_unit = layout.cell_units[cell][0]
    triple = [d for d in digits_of(masks[cell]) if len(cg.cells_with(row_unit, d)) == 3]
    if len(triple) != 1:
        return
    digit = triple[0]
    for unit in range(3 * n):
        for d in range(1, n + 1):
            count = len(cg.cells_with(unit, d)) - (d == digit and unit in layout.cell_units[cell])
            if count not in (0, 2):
                return
    text = (
        f"{cell_name(cell, n)} = {digit}: every open cell but {cell_name(cell, n)} has two candidates, and "
        f"{digit} is the one digit of "
        f"{digit_list(digits_of(masks[cell]))} with three places in its units; any other choice leaves a "
        f"two-solution pattern (BUG+1)"
    )
    yield make_step(BUG_PLUS_1, cg, text, placements=[(cell, digit)], cells=[cell], difficulty=BUG_1_BASE)


#: The most cells off the grave a BUG type 2 to 4 is looked for with.
MAX_BUG_CELLS = 6


def bug_cells(cg: CandidateGrid) -> dict[int, int] | None:
    """The cells keeping the grid from being a bivalue universal grave, each with the mask of its extra
    digits, or ``None`` when removing no such choice of digits leaves a grave.

    A digit with other than 0 or 2 places in a unit is extra in the one cell of more than two candidates among
    those places (when there are several, another unit decides). The choice is then checked: without the extra
    digits every open cell must hold two candidates and every digit 0 or 2 places in every unit. A grave has no
    or several solutions, so in a puzzle with one solution some cell takes one of its extra digits. The last
    grid's answer is kept for the next BUG finder.
    """
    global _last_bug
    last_grid, last_found = _last_bug
    if last_grid is cg:
        return last_found
    found = _bug_cells(cg)
    _last_bug = (cg, found)
    return found


_last_bug: tuple[CandidateGrid | None, dict[int, int] | None] = (None, None)


def _bug_cells(cg: CandidateGrid) -> dict[int, int] | None:
    masks, n = cg.masks, cg.n
    wide = [c for c, m in enumerate(masks) if m and m.bit_count() != 2]
    if not wide or len(wide) > MAX_BUG_CELLS or any(masks[c].bit_count() < 2 for c in wide):
        return None
    wide_set = set(wide)
    extra = dict.fromkeys(wide, 0)
    for unit in range(3 * n):
        for d in range(1, n + 1):
            places = cg.cells_with(unit, d)
            if len(places) in (0, 2):
                continue
            owners = [c for c in places if c in wide_set]
            if not owners:
                return None
            if len(owners) == 1:
                extra[owners[0]] |= 1 << (d - 1)
    if any((masks[c] & ~m).bit_count() != 2 for c, m in extra.items()):
        return None
    for unit in range(3 * n):
        for d in range(1, n + 1):
            bit = 1 << (d - 1)
            count = sum(1 for c in cg.cells_with(unit, d) if not extra.get(c, 0) & bit)
            if count not in (0, 2):
                return None
    return extra


def find_bug_type_1(cg: CandidateGrid) -> Iterator[Step]:
    """One cell off the grave with two or more extra digits (one extra digit is BUG+1): it takes one of them,
    so its other two digits leave it (assumes a unique solution)."""
    extra = bug_cells(cg)
    if not extra or len(extra) != 1:
        return
    ((cell, more),) = extra.items()
    if more.bit_count() < 2:
        return
    n = cg.n
    gone = [(cell, d) for d in digits_of(cg.masks[cell] & ~more)]
    text = (
        f"{cell_name(cell, n)} is the one open cell with more than two candidates; without "
        f"{digit_list(digits_of(more))} there every digit would have two places in each unit (a two-solution "
        f"grave), so it takes one of them: remove {removals(gone, n)} (BUG type 1)"
    )
    yield make_step(BUG_1, cg, text, eliminations=gone, cells=[cell], difficulty=BUG_1_BASE)


def find_bug_type_2(cg: CandidateGrid) -> Iterator[Step]:
    """Several cells off the grave, all by the same one digit: it leaves the cells seeing them all (assumes a
    unique solution)."""
    extra = bug_cells(cg)
    if not extra or len(extra) < 2 or len(set(extra.values())) != 1 or next(iter(extra.values())).bit_count() != 1:
        return
    n = cg.n
    cells = sorted(extra)
    x = extra[cells[0]].bit_length()
    gone = _removing(cg, cg.layout.common_peers(cells), x)
    if gone:
        text = (
            f"without {x} in {names(cells, n)} every open cell would have two candidates and every digit two "
            f"places in its units (a two-solution grave), so one of them is {x}: remove {removals(gone, n)} "
            f"(BUG type 2)"
        )
        yield make_step(BUG_2, cg, text, eliminations=gone, cells=cells, difficulty=BUG_BASE)


def find_bug_type_3(cg: CandidateGrid) -> Iterator[Step]:
    """The cells off the grave share a unit and, as one cell holding their extra digits, form a naked set with
    other cells there (assumes a unique solution)."""
    extra = bug_cells(cg)
    if not extra or len(extra) < 2:
        return
    masks, n = cg.masks, cg.n
    cells = sorted(extra)
    digits_all = 0
    for m in extra.values():
        digits_all |= m
    if digits_all.bit_count() < 2:
        return  # one extra digit: type 2 or 4
    shared = set(cg.layout.cell_units[cells[0]])
    for c in cells[1:]:
        shared &= set(cg.layout.cell_units[c])
    for unit in sorted(shared):
        others = [c for c in cg.layout.units[unit] if masks[c] and c not in extra]
        for k, group, digits, gone in _sets_with_pseudo_cell(masks, others, digits_all, MAX_SET_CELLS + 1):
            text = (
                f"one of {names(cells, n)} takes one of {digit_list(digits_of(digits_all))} (else a "
                f"two-solution grave), a naked set on {digit_list(digits_of(digits))} with "
                f"{names(group, n)} in {cg.layout.unit_name(unit)}: remove {removals(gone, n)} (BUG type 3)"
            )
            yield make_step(
                BUG_3,
                cg,
                text,
                eliminations=gone,
                cells=[*cells, *group],
                units=[unit],
                difficulty=round(BUG_BASE + 0.1 * k, 1),
            )


def find_bug_type_4(cg: CandidateGrid) -> Iterator[Step]:
    """Two cells off the grave in one unit, where a digit they share has no other place: one is that digit, the
    other its extra digit, so their third digit leaves both (assumes a unique solution)."""
    extra = bug_cells(cg)
    if not extra or len(extra) != 2:
        return
    masks, n = cg.masks, cg.n
    c1, c2 = sorted(extra)
    all_extra = extra[c1] | extra[c2]
    common = masks[c1] & masks[c2] & ~all_extra
    if common.bit_count() != 1:
        return
    u = common.bit_length()
    for unit in _shared_units(cg, c1, c2):
        if _places(cg, unit, u) != 1 << c1 | 1 << c2:
            continue
        gone = [(c, d) for c in (c1, c2) for d in digits_of(masks[c] & ~extra[c] & ~common)]
        if gone:
            text = (
                f"one of {cell_name(c1, n)}, {cell_name(c2, n)} takes its extra digit (else a two-solution grave) "
                f"and {u} fits only there in {cg.layout.unit_name(unit)}, so one is {u} and the other its extra "
                f"digit: remove {removals(gone, n)} (BUG type 4)"
            )
            yield make_step(BUG_4, cg, text, eliminations=gone, cells=[c1, c2], units=[unit], difficulty=BUG_BASE)
            return
