"""Finned and sashimi fish: positions mined from top1465 where today's ladder stalls, a 16x16 position, a
brute-force cross-check (every choice of base and cover lines), and soundness along real solves."""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bitdoku
from bitdoku import Grid, Shape
from bitdoku.data import sample_lines
from bitdoku.logic import CandidateGrid, explain, fish
from bitdoku.logic.explain import LADDER
from tests.logic.checks import assert_sound, named, stalled_states
from tests.strategies import solutions

FINDERS = {2: fish.find_finned_x_wing, 3: fish.find_finned_swordfish, 4: fish.find_finned_jellyfish}
SIZES = {"X-Wing": 2, "Swordfish": 3, "Jellyfish": 4}

#: The techniques of the ladder before finned fish were written: none of them applies in the mined positions.
OLD_TECHNIQUES = {
    "Hidden Single",
    "Naked Single",
    "Locked Candidates (Pointing)",
    "Locked Candidates (Claiming)",
    "Naked Pair",
    "Hidden Pair",
    "Naked Triple",
    "Hidden Triple",
    "X-Wing",
    "Skyscraper",
    "2-String Kite",
    "XY-Wing",
    "XYZ-Wing",
    "Naked Quad",
    "Hidden Quad",
    "Remote Pairs",
    "Unique Rectangle Type 1",
    "Swordfish",
    "W-Wing",
    "Simple Colouring",
    "BUG+1",
    "Jellyfish",
    "X-Chain",
    "XY-Chain",
}


class MinedCase(NamedTuple):
    technique: str
    source: str
    puzzle: str
    marks: str
    eliminations: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return self.technique


CASES = [
    MinedCase(
        "Finned Swordfish",
        "top1465 line 35, where the ladder stalls",
        "5.8.....7...9.1...4............5...4.6.....3..9....6...2.3...1.7...8..........2..",
        (
            "....5....1.3.............8..2.4.6....234.6....234.6...1.34....9.2.4.6..9......7.......6.....3..."
            "7...2...............9..34..7..1..........345..8....45..8...3.5..8....4.....1.3...7..........9..."
            ".5..8..23..67......5..8.1.3.......2...6...123..6...123.............8.......7..12...6.......5...."
            ".23..6..91.......9.2......9...4.....12............6......45....12.4..78.12.4....9.2.4..7891...5."
            "789..3......12..5..89123..............9...45....12.4..78.1234......234...8......6....2..5.78.12."
            ".5..8........89.2............6.....3.........4....9...45.7.9...45.7891............5..89......7.."
            "...45....1.3......12.456..........8..2.456..9..345...9...456..9..3.56..9.......89...45....1.3..."
            "...1..4567..1..4.6..9...4567.9.2..........456789..3.56.89"
        ),
        (("r7c7", 9), ("r9c8", 9)),
    ),
    MinedCase(
        "Finned X-Wing",
        "top1465 line 38, where the ladder stalls",
        "5..6.3....2....98.......1...1..9.......3....67.......4....8.25.4..7..............",
        (
            "....5...........89.......89.....6...1..........3.........4..7...2.4..7...2....7..1....6....2...."
            "...1....6......45.......4..7.....45.7..........9.......8...3........3.........4..7.....4..7....."
            "....89.2..............891.............6.......5.........6.8.1..........3456.8....45..8.........9"
            "...45678...3.5.78..2....7...2....78..2.....89...45..89.2.45..89..3.........4..7..1..45.78.....5."
            "78.1.......9.....6.........7....3.56.89..3.56.8912..5..8.....56...12..56.8...3.5..8.1.......9..."
            "4.....1....6..9..3..67.91.3..67.91..4....9.......8.1..4.6..9.2...........5....1.....7.9...4....."
            "....56.8912..56.89......7......56...12..56..9.....6.8...3......1......8912...6.89....5678912..56"
            "78912..5...9..3......12..56..9...4.678....4..7..1.....789"
        ),
        (("r8c3", 6),),
    ),
    MinedCase(
        "Sashimi X-Wing",
        "top1465 line 229, where the ladder stalls",
        "6..9..4...4..5..3...8..6..55..7..3...7..2......2..5..41..6.........3..8...6..2..1",
        (
            ".....6...12..5....1.3.5.7..........91.....78.1.3...78....4.....12....7...2....78..2....7.9...4.."
            "...1.....7.912.....8.....5....1.....78.12...6789..3.......2...6789.23...7.9123.....9.......8.123"
            "4.....1..4..7.......6...12....7.912....7.9....5........5....1....6.891..4....9......7..1..4.6.89"
            "1..4...89..3......12......9.2.....89...4...89......7..1.34....91..4...8..2.......1.34...89....5."
            "........6..........89..3....891.3..6.89.2.......1.3....8.1....6.89....5....1.....7891.....7.9..."
            "4.....1.........2..5..89...45.7.9.....6......4..789...4..789.2....7.9...45......3.......2.4..7.9"
            ".2..5...9...45.7.91..45......3......1..4..7.9.2...67.9.......8..2...67.9..34..789..3.5..89.....6"
            "......45..8....4..789.2.............7.9...45....1........"
        ),
        (("r2c7", 2), ("r3c7", 2)),
    ),
    MinedCase(
        "Sashimi Swordfish",
        "top1465 line 311, where the ladder stalls",
        "5.1.94....2.6.59................2.17.3..4..6.......5.........2.....3.8...6.8.93..",
        (
            "....5..........78.1.........2....7..........9...4..........67....3...78..23..6.8...34..78..2...."
            ".....34..78......6...1.....78.....5............9...4..78.1..4...8....4.6789...4..789...4.678912."
            "...7..12.....8...3......1.....7.....45.78.12.45..8......6.89....5..89....56.89..3..........56..."
            ".2..........4.....1..............7..1.....7....3..........5.7..1...5.7.9...4.....1.....78..2...."
            "........6..........8912.4.67..1..4..7...2.4.67..1.....7.91....67..1....678.....5......3....89..3"
            "....891.34..7891..45.789..345.7891..45.7......567..1....67..1....67...2.......1..456..912.4..7.9"
            "1..45.7.9.2.45.7.912.45.7....3......1....67.........8....45.7.91..456..912.4..7.......6....2.45."
            "7.........8.12..5.7..........9..3.........45.7..1..45...."
        ),
        (("r6c5", 1),),
    ),
    MinedCase(
        "Finned Jellyfish",
        "top1465 line 739, where the ladder stalls",
        "7....2..1...15..8.3........1..94.6.2..4.1..7...78......7..........2...699....3.1.",
        (
            "......7.....45..8.....5..89.....6.....3.......2..........45...9...45...91...........4.6....2.4.6"
            "....2...6..91............5.......4....9..3...7.........8...3...7....3......1..45....1...5...9..."
            "4..7........789...4...89.2.45...9.2.45...9.....6...1..........3.5..8...3.5..8.........9...4....."
            "......7.......6.....3.5.....2........2...........56..9...4.......3......1............56.......5."
            ".89......7......5..8.....56.....3.....9......7.........8..2...........56...1..........34....9..3"
            "4........456.8.......7..123.56......45.........6.891..4...89.2345..8..2345......345..8....45..8."
            "1.345....1.3.5.....2.............78.1..4...8...345.78......6...........9........9.2.456....2..56"
            "......45.7.......678...3.......2.45.78.1...........45.78."
        ),
        (("r7c3", 5), ("r9c2", 5), ("r9c3", 5)),
    ),
    MinedCase(
        "Sashimi Jellyfish",
        "top1465 line 882, where the ladder stalls",
        "3..1...7....9..8....95.....7.......9.2..3.7....8..4.5.......5..1..7.8.........247",
        (
            "..3..........56.8....456...1.........2.4.6.8..2...6...........9......7...2.456....2.45....1...56"
            "7..1..4567..........9.2.4.6.....3...7.........8.123..6...12.456....2.4...8.1....678.........9..."
            ".5.....2.4.6.8...3...7..1..4.6...123..6...12.4.6.........7....3..6.....34.6....2.....8.1........"
            "....5......34.6....2.....8.........9...45.....2.......1..456........6.8...3..............9......"
            "7..1....6.8.1..4.6.8......6..91.3..6..9.......8..2...6.........7.....4.....1.3..6.......5....123"
            "..6........6..9..3...7....3...7.....4......2...6..9.2...6.......5....1......8.1......8.1........"
            "...4......2.............7......5...........8...3..6...........9..3..6.......5..8.....56.89....56"
            ".....3...........6..91.........2..........4...........7.."
        ),
        (("r1c9", 6),),
    ),
]


def _size(technique: str) -> int:
    return SIZES[technique.split(" ", 1)[1]]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_mined_positions(case):
    state = CandidateGrid.parse(case.marks)
    for rung in LADDER:
        if rung.technique in OLD_TECHNIQUES:
            assert next(rung.find(state), None) is None, rung.technique
    k = _size(case.technique)
    for smaller in range(2, k):
        assert next(FINDERS[smaller](state), None) is None
    step = next(FINDERS[k](state))
    assert step.technique == case.technique
    assert named(step.eliminations, 9) == case.eliminations
    assert step.text.endswith(f"({case.technique.lower()})") and step.cells
    assert len(step.units) == 2 * k + 1  # base lines, cover lines and the fins' box
    solution = bitdoku.solve(Grid.parse(case.puzzle))
    for cell, value in enumerate(solution.cells):
        assert state.value(cell) == value or state.has(cell, value)
    assert_sound(step, solution)


def test_a_sashimi_x_wing_in_the_text_on_a_9x9_case():
    (case,) = [c for c in CASES if c.technique == "Sashimi X-Wing"]
    step = next(fish.find_finned_x_wing(CandidateGrid.parse(case.marks)))
    assert step.text == (
        "in rows 1 and 7, 2 fits only in columns 2 and 7 and the fins r1c8, r1c9: a fin holds 2, or the columns "
        "take it from those rows; either way remove 2 from r2c7, r3c7, in box 3 and a cover column (sashimi x-wing)"
    )


def test_16x16_finned_fish_from_the_givens():
    line = sample_lines("unique16x16_sample.txt")[0]
    state = CandidateGrid.parse(line).cleaned()
    solution = bitdoku.search(line).solution
    expected = {
        2: ("Sashimi X-Wing", (("r5c4", 4),)),
        3: ("Sashimi Swordfish", (("r11c9", 3),)),
        4: ("Sashimi Jellyfish", (("r10c1", 3),)),
    }
    for k, (technique, gone) in expected.items():
        step = next(FINDERS[k](state))
        assert (step.technique, named(step.eliminations, 16)) == (technique, gone)
        assert_sound(step, solution)


# -- a brute-force reference ------------------------------------------------------------------------------


def reference_fish(cg: CandidateGrid, k: int) -> set:
    """Every finned fish of size k, by trying every k base lines against every k of the lines crossing them:
    fins are base cells outside the cover lines; a cover cell outside the base lines that sees every fin goes.
    (No box is assumed: cells that see fins in two boxes never lie in a cover line.)"""
    n, layout, found = cg.n, cg.layout, set()
    for digit in range(1, n + 1):
        for kind in (0, 1):
            lines = [line for line in range(n) if cg.cells_with(kind * n + line, digit)]
            cross = layout.col if kind == 0 else layout.row
            for bases in combinations(lines, k):
                base_cells = {c for b in bases for c in cg.cells_with(kind * n + b, digit)}
                for covers in combinations(sorted({cross[c] for c in base_cells}), k):
                    cover_cells = {c for line in covers for c in cg.cells_with((1 - kind) * n + line, digit)}
                    if not all(set(cg.cells_with(kind * n + b, digit)) & cover_cells for b in bases):
                        continue
                    fins = base_cells - cover_cells
                    gone = {c for c in cover_cells - base_cells if fins and all(layout.sees(c, f) for f in fins)}
                    if gone:
                        found.add((digit, kind, bases, covers, frozenset(gone)))
    return found


def found_fish(cg: CandidateGrid, k: int) -> list:
    """The finder's fish in the reference's terms."""
    n, found = cg.n, []
    for step in FINDERS[k](cg):
        kind = 0 if step.text.startswith("in rows") else 1
        bases = tuple(u - kind * n for u in step.units if kind * n <= u < (kind + 1) * n)
        covers = tuple(u - (1 - kind) * n for u in step.units if (1 - kind) * n <= u < (2 - kind) * n)
        found.append((step.eliminations[0][1], kind, bases, covers, frozenset(c for c, _ in step.eliminations)))
    return found


@pytest.mark.parametrize("k", [2, 3, 4])
def test_the_finder_finds_exactly_the_reference_fish(k):
    for state in stalled_states({2: 8, 3: 4, 4: 1}[k]):
        found = found_fish(state, k)
        assert len(found) == len(set(found))
        assert set(found) == reference_fish(state, k)


@settings(max_examples=25)
@given(solutions([Shape(2, 3), Shape(3, 2), Shape(2, 4)]), st.data())
def test_small_shapes_match_the_reference_and_the_solution(solution, data):
    n_cells = solution.shape.n_cells
    blanks = data.draw(st.sets(st.integers(0, n_cells - 1), min_size=n_cells // 2, max_size=n_cells))
    puzzle = Grid.from_array([0 if i in blanks else v for i, v in enumerate(solution.cells)], solution.shape)
    state = CandidateGrid.from_grid(puzzle)
    for k in (2, 3):
        assert set(found_fish(state, k)) == reference_fish(state, k)
        for step in FINDERS[k](state):
            assert_sound(step, solution)  # fish logic holds for every solution, so for this one


# -- soundness along real solves ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["top1465_sample.txt", "hardest_sample.txt"])
def test_every_finned_fish_along_the_solves_is_sound(name):
    for line in sample_lines(name)[:8]:
        solution = bitdoku.solve(line)
        for step in explain(line, guess=True):
            for k, finder in FINDERS.items():
                for index, found in enumerate(finder(step.before)):
                    assert_sound(found, solution)
                    assert found.technique.endswith(fish.FISH_NAMES[k])
                    if index == 3:
                        break
