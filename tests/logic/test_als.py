"""Almost locked sets: the collector, ALS-XZ, ALS-XY-Wing, Death Blossom and Sue de Coq.

Published examples are HoDoKu's (hodoku.sourceforge.net/en/show_example.php, files axz02, daxz01, axy01, sdc04), in
its library format ``:technique:digits:grid:deleted candidates:eliminations:`` (``+`` marks a placed digit, a
candidate is written digit-row-column); each finder's first step must make exactly HoDoKu's eliminations. The mined
positions are top1465 states where today's ladder stalls (line number given).
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bitdoku
from bitdoku import Grid, Shape
from bitdoku.data import sample_lines
from bitdoku.logic import als, explain
from bitdoku.logic.candidates import CandidateGrid
from tests.logic.checks import assert_sound, named
from tests.strategies import solutions

FINDERS = {
    als.ALS_XZ: als.find_als_xz,
    als.ALS_XY_WING: als.find_als_xy_wings,
    als.DEATH_BLOSSOM: als.find_death_blossoms,
    als.SUE_DE_COQ: als.find_sue_de_coq,
}

HODOKU = {
    # ALS-XZ: A = r4c3, r5c3, r6c2, r6c3 {3,4,5,6,8}, B = r7c2, r9c1 {3,7,8}, x = 3, z = 8.
    "axz02": (
        als.ALS_XZ,
        ":9001:8:.+934.7.6.4....59...276...+41........591.+5...8.2..78....6..25.4...4..........1....3"
        ":325 145 245 747 748 255 581 587 591 597:873 883 893:",
    ),
    # Doubly linked ALS-XZ: A = r2c239 {2,4,7,9}, B = r4c23 {1,2,4}, x = 2 and 4.
    "daxz01": (
        als.ALS_XZ,
        ":9001:12479:.......+3.6..5..18..83.1..+2....9573...6.....92...........+6...254.487...1+3..23....."
        ":111 615 616 636 453 457 261 262 164 464 664 465 467 667 668 669 171 971 172 972 985 986 791 792 895 995"
        " 196 896 996:141 149 151 153 161 162 163 212 413 463 725 925 926:",
    ),
    # ALS-XY-Wing: removes 3 from r7c7.
    "axy01": (
        als.ALS_XY_WING,
        ":9002:3:4.6....7......1+46....+68+4...23.....+4....34.......8.+295+3.9.......+3.2.5761.5...2...4"
        ":812 914 721 722 723 924 829 133 733 143 743 144 944 849 852 153 753 859 171 773 873 175 893 996:377:",
    ),
    # Sue de Coq, extended: r46c8 {3,5,7,8} with r8c8 {3,5} in column 8 and r4c7, r5c9 {7,8,9} in box 6.
    "sdc04": (
        als.SUE_DE_COQ,
        ":1101:35789:+3+24+8+6+1+59765+7+9+4+3+82191+8+5+273+642.1+43....5.32.6...+4..+7.....+1..6.....+8..1746..7"
        "..+39..1.::378 578 757 758 849 858 869 949 957 967 969:",
    ),
}


def _hodoku(line: str) -> tuple[CandidateGrid, Grid, tuple[tuple[int, int], ...]]:
    """A HoDoKu library line as (state, solution, expected eliminations)."""
    _, _, _, grid, deleted, eliminations, _ = line.split(":")
    puzzle = Grid.parse(grid.replace("+", ""))

    def pairs(text: str) -> list[tuple[int, int]]:
        return [((int(t[1]) - 1) * 9 + int(t[2]) - 1, int(t[0])) for t in text.split()]

    state = CandidateGrid.from_grid(puzzle).eliminate(pairs(deleted))
    solution = bitdoku.solve(puzzle)
    assert solution is not None
    return state, solution, tuple(sorted(pairs(eliminations)))


@pytest.mark.parametrize("name", HODOKU)
def test_hodoku_examples(name):
    technique, line = HODOKU[name]
    state, solution, expected = _hodoku(line)
    step = next(FINDERS[technique](state))
    assert step.technique == technique
    assert step.eliminations == expected
    assert step.text.endswith(")") and step.cells and step.units
    assert_sound(step, solution)


def test_doubly_linked_text_names_both_links():
    state, _, _ = _hodoku(HODOKU["daxz01"][1])
    step = next(als.find_als_xz(state))
    assert step.text == (
        "ALS {1, 2, 4} in r4c2, r4c3 and ALS {2, 4, 7, 9} in r2c2, r2c3, r2c9 share the restricted commons {2, 4}, so "
        "both are locked and each holds all its other digits: remove 1 from r4c1, r4c9, r5c1, r5c3, r6c1, r6c2, "
        "r6c3; 2 from r1c2; 4 from r1c3, r6c3; 7 from r2c5; 9 from r2c5, r2c6 (doubly linked ALS-XZ)"
    )
    assert set(step.cells) == {9 + 1, 9 + 2, 9 + 8, 27 + 1, 27 + 2}


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "axz02",
            "ALS {3, 7, 8} in r7c2, r9c1 and ALS {3, 4, 5, 6, 8} in r4c3, r5c3, r6c2, r6c3 share the restricted "
            "common 3 (its cells all see each other), so one of them is locked without 3 and 8 lies in one of the "
            "two: remove 8 from r7c3, r8c3, r9c3 (ALS-XZ)",
        ),
        (
            "axy01",
            "pivot ALS {1, 7, 9} in r9c3, r9c4 is linked to ALS {3, 6, 7, 8} in r7c1, r7c5, r7c6 by 7 and to ALS "
            "{2, 3, 8, 9} in r5c8, r7c8, r9c8 by 9: it cannot lose both, so one wing is locked and 3 lies in a wing; "
            "remove 3 from r7c7 (ALS-XY-Wing)",
        ),
        (
            "sdc04",
            "r4c8, r6c8 (where column 8 meets box 6) hold {3, 5, 7, 8}; with r8c8 {3, 5} in the column and r4c7, "
            "r5c9 {7, 8, 9} in the box, these 5 cells take 5 digits, each once: remove 3 from r7c8; 5 from r7c8; 7 "
            "from r5c7, r5c8; 8 from r4c9, r5c8, r6c9; 9 from r4c9, r5c7, r6c7, r6c9 (Sue de Coq)",
        ),
    ],
)
def test_texts_name_the_sets_and_the_links(name, text):
    technique, line = HODOKU[name]
    state, _, _ = _hodoku(line)
    step = next(FINDERS[technique](state))
    assert step.text == text


MINED = [
    (
        als.ALS_XZ,
        "top1465 line 16",
        "7.8...3.....6.1...4.........6.....253...8.......1...9..9.5....2....7.4...........",
        "......7..1...............8..2......9.2..5.....2..5...9..3.........4.6......4.6...........9.23.5....."
        "23.5.........6......4.....1.........2..5..........78.......78....4......2..5.........6.........78..."
        "3............78..2..5...91...5....1.......91......8......6...1.....7....34.............9..34........"
        "...78..2...........5......3.......2..5.7..........9.2....7.........8..2..567..1....67..1..4.67..1..4"
        ".67...2..5..8..2.45.78..2.45.7..1.........2..56....2..567.......678.........9..3......1....6.8......"
        "...91.34..7......5....1....6.....34.6.8.1....67..1.3..678..2.......12..56.8..23.5..8.123.5.....23..."
        ".89......7...23..6.89...4.....1.3.56.8.1....6.8912..56.8..2345.78.12345.7...234...8912...6....234.6."
        "89....5...91.3.5678.1....6789",
        (("r4c1", 8),),
    ),
    (
        als.ALS_XY_WING,
        "top1465 line 1",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "...4.........56..912...6.8.....5.789..3......1...5.789.2..5.....2..567......567.9123...7....3.5...91"
        "2............6...12....7..1..45.7.9.......8..23.5.7....345.7.9.23..678...3.56..9.2...6.8....45.789."
        "2....78....45.789.2345.....23.567..1........123..6.....34.6...12.4.6.....3...78.....5....1.3..678..2"
        "3..............9..3...78.123.............8.....5...9..34..7.91.....7..1.34..7.9.....6...123.5.7....3"
        ".5.7..1.3..6.........7......5...9.2.......1....6.8.1.3..6.89..345....1.3.5..8...345..8......6.8...."
        "4.6......4.6.8.1................9.2.............7....3.5......3.5........5....1..........3.........."
        "..78......678......678.........9...4......2...............9.2.............7....3.5.......4.......3.5"
        "....1.............6.8......6.8.",
        (("r3c7", 2),),
    ),
    (
        als.DEATH_BLOSSOM,
        "top1465 line 36",
        ".......71.2.8........5.3...7.9.6.......2..8..1.........3...25..6...1..4..........",
        "..345..89...45...9..345..8....4.6..9.2.4....9...4.6..9.234....9......7..1..........34....9.2........"
        "....67.........8....4..7.91..........34.6..9..3.56..9..3456..9...4....91.............67......5....."
        "2.4..7.9..3.......2.4.6..9.2...6.89.2.4.6.89......7.....45..8.........91.............6......45..8.."
        "234......23.5.....2345......345.......456.....345.....2..........45...9...45.7.9.......8.1.........."
        ".4567.91...........456.8..2.........34....9..345..89...45.789...4.67.9....56..9...4567.9...4...89..3"
        "......1...........4.67.9...4...89.2...........5.........6.89.....6789.....6.......5.7.9....5..8...3."
        "..7.91............5..89.23...7.9...4......23...789.2..........45.7.9...45..8...34.67.9..345..89...45"
        "6.891..........3..6.89..3..6789",
        (("r5c3", 5),),
    ),
    (
        als.SUE_DE_COQ,
        "top1465 line 65",
        "..3...67.5.....3...4.......6..3......8......4...7....12......5.....98.......41...",
        "1......8912......9..3.........4.....12..5.....2..5...9.....6.........7...2..5..89....5....12...6..91"
        "2...6.891......8912...67...2...67.9..3.........4......2.....89......7.....4......2...6..........89.2"
        "3.56....23.56...1......891......89.2..5.........6...12..5...912.45...9..3......12..5..8..2.45...9.2."
        ".5..89.2.....89......7..1.3.....9.......8.......7..1.......912..56....2..56..9.2..5...9..3..6......4"
        ".......34....9.23.5...9.2.45...9......7...2..56.8..2.456..9.2..5..89..3..6...1.........2.......1...."
        "...91..4...89.....6.....3...7....3...7..1..4...89....5...........891.34.....1.3.567..1..456....2..5."
        "...........9.......8.12.4..7..12.........3..6.....3....89..3.567.9....56.89.2..5.......4.....1......"
        "...2....789.2.....89..3..6...",
        (("r2c3", 2), ("r2c3", 6), ("r4c2", 1), ("r4c2", 9), ("r6c2", 9), ("r8c2", 1), ("r9c2", 9)),
    ),
]


@pytest.mark.parametrize("case", MINED, ids=lambda c: c[0])
def test_mined_positions(case):
    technique, _source, puzzle, marks, expected = case
    state = CandidateGrid.parse(marks)
    solution = bitdoku.solve(puzzle)
    for cell, value in enumerate(solution.cells):  # the position agrees with the solution
        assert state.value(cell) == value or state.has(cell, value)
    step = next(FINDERS[technique](state))
    assert named(step.eliminations, 9) == expected
    assert_sound(step, solution)


def test_death_blossom_text_names_stem_and_petals():
    state = CandidateGrid.parse(MINED[2][3])
    step = next(als.find_death_blossoms(state))
    assert step.text == (
        "stem r7c1 {4, 8, 9} links 4 to ALS {4, 5, 8} in r8c3, r9c3, 8 to ALS {2, 4, 5, 7, 8, 9} in r1c5, r2c5, "
        "r3c5, r5c5, r7c5, 9 to ALS {3, 4, 5, 9} in r2c1, r3c1, r5c1: whatever the stem holds, one petal is locked "
        "and holds 5; remove 5 from r5c3 (Death Blossom)"
    )


def test_collector_finds_every_als_once_against_brute_force():
    state = CandidateGrid.parse(MINED[0][3])
    found = als.collect_als(state, 3)
    masks = state.masks
    expected = set()
    for unit in state.layout.units:
        open_cells = [c for c in unit if masks[c]]
        for size in range(1, 4):
            for cells in combinations(open_cells, size):
                digits = 0
                for c in cells:
                    digits |= masks[c]
                if digits.bit_count() == size + 1:
                    expected.add(sum(1 << c for c in cells))
    assert {a.cells for a in found} == expected
    assert len(found) == len(expected)
    for a in found:
        cells = als.bits_of(a.cells)
        assert a.size == len(cells) and a.digits.bit_count() == a.size + 1
        assert set(cells) <= set(state.layout.units[a.unit])
    assert [a.size for a in found] == sorted(a.size for a in found)


def test_one_pool_serves_the_finders_on_one_state():
    state, twin = CandidateGrid.parse(MINED[0][3]), CandidateGrid.parse(MINED[0][3])
    pool = als.pool_for(state)
    assert als.pool_for(twin) is pool and pool.rcc_pairs() is pool.rcc_pairs()
    after = state.apply(next(als.find_als_xz(state)))
    assert als.pool_for(after) is not pool and als.pool_for(after).cg == after
    assert next(als.find_als_xz(state)).eliminations == (((3 * 9), 8),)  # a fresh pool gives the same step


def test_search_bounds_shrink_on_big_grids():
    assert als.max_als_cells(9) >= als.max_als_cells(16) >= als.max_als_cells(25) >= 2
    assert als.max_stem_digits(9) <= als.max_stem_digits(16)


def _walk_states(line: str, every: int = 1):
    """The states of a solve (``explain`` with guesses) in which a step beyond singles or a guess was made."""
    steps = [s for s in explain(line, guess=True) if s.technique not in ("Hidden Single", "Naked Single")]
    return [s.before for s in steps[::every]]


def test_every_step_is_sound_on_the_shipped_hard_samples():
    fired = dict.fromkeys(FINDERS, 0)
    for line in sample_lines("top1465_sample.txt")[::2] + sample_lines("hardest_sample.txt")[::2]:
        solution = bitdoku.solve(line)
        for state in _walk_states(line, every=2):
            for technique, finder in FINDERS.items():
                for _, step in zip(range(3), finder(state), strict=False):
                    fired[technique] += 1
                    assert step.technique == technique and step.eliminations
                    assert_sound(step, solution)
    assert all(fired.values()), fired


def test_16x16_states_fire_and_stay_sound():
    line = sample_lines("unique16x16_sample.txt")[0]
    solution = bitdoku.solve(line)
    state = CandidateGrid.parse(line)
    for technique, finder in FINDERS.items():
        steps = [step for _, step in zip(range(3), finder(state), strict=False)]
        assert steps, technique
        for step in steps:
            assert_sound(step, solution)


def test_6x6_positions_fire_and_stay_sound():
    """The 6x6 pattern grid with cells blanked on a fixed rule: every finder fires, each step sound (the puzzle
    need not be unique: no technique here assumes it, so the pattern grid's digits must all survive)."""
    solution = Grid.pattern(Shape(2, 3))
    puzzle = Grid.from_array([0 if (i * 3) % 10 < 6 else v for i, v in enumerate(solution.cells)], solution.shape)
    state = CandidateGrid.from_grid(puzzle)
    for technique, finder in FINDERS.items():
        steps = [step for _, step in zip(range(5), finder(state), strict=False)]
        assert steps, technique
        for step in steps:
            assert_sound(step, solution)


def test_64x64_search_stays_bounded_and_sound():
    """A 64x64 grid with every fifth cell open has thousands of bivalue cells: the caps on ALS and links keep each
    finder under a second or so, and what it finds is sound."""
    solution = Grid.pattern(Shape(8, 8))
    puzzle = Grid.from_array([0 if i % 5 == 0 else v for i, v in enumerate(solution.cells)], solution.shape)
    state = CandidateGrid.from_grid(puzzle)
    assert len(als.collect_als(state)) <= als.MAX_ALS
    for finder in FINDERS.values():
        for _, step in zip(range(2), finder(state), strict=False):
            assert_sound(step, solution)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(solutions([Shape(2, 3), Shape(3, 2), Shape(2, 4)]), st.data())
def test_small_shapes_stay_sound(solution, data):
    n_cells = solution.shape.n_cells
    blanks = data.draw(st.sets(st.integers(0, n_cells - 1), min_size=n_cells // 2, max_size=int(0.75 * n_cells)))
    puzzle = Grid.from_array([0 if i in blanks else v for i, v in enumerate(solution.cells)], solution.shape)
    state = CandidateGrid.from_grid(puzzle)  # no uniqueness is assumed, so every solution must survive
    for finder in FINDERS.values():
        for _, step in zip(range(5), finder(state), strict=False):
            assert_sound(step, solution)
