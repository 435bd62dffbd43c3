"""Empty Rectangles: positions mined from top1465 where today's ladder stalls, a 16x16 position, a
cross-check against a reference that plays the contradiction out, and soundness along real solves."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bitdoku
from bitdoku import Grid, Shape
from bitdoku.data import sample_lines
from bitdoku.logic import CandidateGrid, explain
from bitdoku.logic.explain import LADDER
from bitdoku.logic.single_digit import EMPTY_RECTANGLE, find_empty_rectangles
from tests.logic.checks import (
    assert_sound,
    compiled_finds_the_python_steps,
    named,
    solve_states,
    stalled_states,
    whole_and_thinned,
)
from tests.logic.test_fish_finned import OLD_TECHNIQUES
from tests.strategies import solutions


class MinedCase(NamedTuple):
    source: str
    puzzle: str
    marks: str
    eliminations: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return self.source


CASES = [
    MinedCase(
        "top1465 line 62, where the ladder stalls (a link in a column)",
        ".5.1.8.7.4..3.....2.........1.7...8.9.....4............3.....1.....4.2......5.6..",
        (
            "..3..6.......5......3..6..91.........2..............8...3.....9......7.....4........4..........."
            "7891.....789..3...........67.9....567.91...5..89.2..56..9.2..56.89.2.............7891.3...789..."
            "4..........67.9....567.91.3.5..89..3.56..9..3.56.89..3.56...1.........23.56.........7....3..6..9"
            "...4.......3.5...9.......8..23.56..9........9.2...678..23.5678..2..56.8.1.3..6.8..2...6......4.."
            "....23.56...123.56.....3.56.8....4......23.56.8..2..56.891.3..6.89.2...6..9......7...23.56..9123"
            ".56..9....56.8...3.........4......2...6.89.....6789.2...67.9....5..891............5..891.....7.."
            ".....6.89....56.89.....6.89...4.....1.3.......2.........3.5...9..3.5.7891.....7...2.....89.2...."
            ".89.......89....5....1.3...........6......4.......3...7.."
        ),
        (("r6c4", 8),),
    ),
    MinedCase(
        "top1465 line 129, where the ladder stalls (a link in a row)",
        ".135.........7.4...........1......892.4.6....7.........8.1.....6.....2.....9.3...",
        (
            "...4...8.1..........3..........5............9.2.4...8.......78..2...67...2...678.....5..89.2..56"
            "....2..56....2...6.8.......7..12.....8....4.....123.5...9123.5..8....45..89.2.4567...2..567...2."
            "4.6.8...3......12.4...8.1...5..8912..5...912..5..8.1..........3.56.......56....2.4..7.....45...."
            ".2.45.7....3.567.........8.........9.2.........3.5...9...4...........78......6.......5.7891.3.5."
            "7..1...5.7..1...5.7........7......56..9.......8...3......1............5...9....56....2.4......2."
            "4.......3.............8..2....7.91.........2.45.........6.......5.7.9...45.7.9...45.7.......6..."
            "...45....1.......9...4..7.........8.....5.7...2.......1.3.....91.3.........45.....2....7..12...."
            "7..........9.2.45......3......1...5.78.1..4567..1..45678."
        ),
        (("r4c6", 5),),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_mined_positions(case):
    state = CandidateGrid.parse(case.marks)
    for rung in LADDER:
        if rung.technique in OLD_TECHNIQUES:
            assert next(rung.find(state), None) is None, rung.technique
    step = next(find_empty_rectangles(state))
    assert step.technique == EMPTY_RECTANGLE
    assert named(step.eliminations, 9) == case.eliminations
    assert step.text.endswith("(empty rectangle)") and len(step.cells) >= 4 and len(step.units) == 4
    solution = bitdoku.solve(Grid.parse(case.puzzle))
    for cell, value in enumerate(solution.cells):
        assert state.value(cell) == value or state.has(cell, value)
    assert_sound(step, solution)


def test_the_sentence():
    step = next(find_empty_rectangles(CandidateGrid.parse(CASES[0].marks)))
    assert step.text == (
        "in box 8, 8 fits only in row 7 and column 4, and column 1 holds it only in r7c1 and r6c1: were r6c4 8, "
        "r7c1 would be, and box 8 would have no place left for it, so remove 8 from r6c4 (empty rectangle)"
    )


def test_16x16_from_the_givens():
    line = sample_lines("unique16x16_sample.txt")[0]
    state = CandidateGrid.parse(line).cleaned()
    steps = list(find_empty_rectangles(state))
    assert named(steps[0].eliminations, 16) == (("r7c8", 8),)
    solution = bitdoku.search(line).solution
    for step in steps:
        assert_sound(step, solution)
    assert {(c, d) for step in steps for c, d in step.eliminations} == reference_empty_rectangles(state)


# -- a reference that plays the contradiction out -------------------------------------------------------


def _er_shaped(cg: CandidateGrid, cells: set[int]) -> bool:
    """The box's candidates lie in one row and one column of the box, and not in one line only."""
    layout = cg.layout
    rows, cols = {layout.row[c] for c in cells}, {layout.col[c] for c in cells}
    if len(rows) < 2 or len(cols) < 2:
        return False
    return any(all(layout.row[c] == r or layout.col[c] == k for c in cells) for r in rows for k in cols)


def reference_empty_rectangles(cg: CandidateGrid) -> set[tuple[int, int]]:
    """(cell, digit) for every target T of an empty rectangle: a strong link a=b in a row or column, both ends
    outside the box, b sharing no row or column with the box; T has the digit, sees b but not a, lies outside
    the box; and were T the digit (so a the digit too), the peers of T and a would leave the box no place."""
    n, layout, found = cg.n, cg.layout, set()
    for digit in range(1, n + 1):
        links = [cg.cells_with(u, digit) for u in range(2 * n) if len(cg.cells_with(u, digit)) == 2]
        for box in range(2 * n, 3 * n):
            cells = set(cg.cells_with(box, digit))
            if not _er_shaped(cg, cells):
                continue
            box_rows = {layout.row[c] for c in layout.units[box]}
            box_cols = {layout.col[c] for c in layout.units[box]}
            for x, y in links:
                for a, b in ((x, y), (y, x)):
                    if a in layout.units[box] or layout.row[b] in box_rows or layout.col[b] in box_cols:
                        continue
                    for t in layout.peers[b]:
                        if t in layout.units[box] or t == a or layout.sees(t, a) or not cg.has(t, digit):
                            continue
                        if cells <= layout.peers[t] | layout.peers[a]:
                            found.add((t, digit))
    return found


def test_the_finder_finds_exactly_the_reference_eliminations():
    fired = 0
    for state in stalled_states(12):
        steps = list(find_empty_rectangles(state))
        fired += bool(steps)
        assert {(c, d) for step in steps for c, d in step.eliminations} == reference_empty_rectangles(state)
    assert fired


@settings(max_examples=30)
@given(solutions([Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(3, 3)]), st.data())
def test_small_shapes_match_the_reference_and_the_solution(solution, data):
    n_cells = solution.shape.n_cells
    blanks = data.draw(st.sets(st.integers(0, n_cells - 1), min_size=n_cells // 2, max_size=n_cells))
    puzzle = Grid.from_array([0 if i in blanks else v for i, v in enumerate(solution.cells)], solution.shape)
    state = CandidateGrid.from_grid(puzzle)
    steps = list(find_empty_rectangles(state))
    assert {(c, d) for step in steps for c, d in step.eliminations} == reference_empty_rectangles(state)
    for step in steps:
        assert_sound(step, solution)  # the logic holds for every solution, so for this one


@pytest.mark.parametrize("name", ["top1465_sample.txt", "hardest_sample.txt"])
def test_every_empty_rectangle_along_the_solves_is_sound(name):
    for line in sample_lines(name)[:8]:
        solution = bitdoku.solve(line)
        for step in explain(line, guess=True):
            for found in find_empty_rectangles(step.before):
                assert_sound(found, solution)


def test_the_compiled_empty_rectangles_find_the_python_ones(monkeypatch):
    """The compiled search gives the Python finder's steps (text, eliminations, cells, units) in its order, on
    solve states whole and with one digit thinned (empty rectangles abound then), given the changed digits or not."""
    import random

    from bitdoku.logic import single_digit

    rng = random.Random(37)
    found = 0
    for state in solve_states(6, famous=3):
        masks = list(state.masks)
        digit = 1 << rng.randrange(9)
        for cell in rng.sample(range(81), 25):
            if masks[cell] & ~digit and masks[cell] & digit:
                masks[cell] &= ~digit
        for cg, changes in whole_and_thinned(state, masks):
            found += compiled_finds_the_python_steps(monkeypatch, single_digit, find_empty_rectangles, cg, changes)
    assert found > 100, found
