"""The band kernel with the nonconsecutive relation (``kernels/nonconsecutive9.py``) against the reference engine and
the digit-major kernel: the same counts, statuses and solutions; its bit shifts against plain cell loops; which
geometries it takes; that the engine and the generator send 9x9 nonconsecutive to it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from tests.kernels.band9_twins import (
    assert_budget_and_stop_end_the_search,
    assert_count_many_matches_search,
    assert_matches_the_digit_major_kernel,
    assert_matches_the_reference_engine,
    puzzles,
    random_grid,
    search,
)

from bitdoku import Grid, Shape
from bitdoku.engines import bitmask, reference
from bitdoku.generate.request import Request
from bitdoku.geometry import Geometry
from bitdoku.kernels import nonconsecutive9, variant81
from bitdoku.kernels import status as codes
from bitdoku.kernels import sudoku9 as band

NONCONSECUTIVE = Geometry.parse("nonconsecutive")
RULE_FLAGS = [codes.ALL_RULES, codes.NAKED_SINGLES | codes.HIDDEN_SINGLES, codes.HIDDEN_SINGLES,
              codes.NAKED_SINGLES | codes.LOCKED_CANDIDATES, codes.NAKED_SINGLES, 0]


@njit
def _place(states, k, digit, band_index, pos):
    """The band kernel's ``_place``, callable from Python (it is inlined into compiled code only)."""
    return band._place(states, k, digit, band_index, pos)


@settings(max_examples=80)
@given(puzzle=puzzles([NONCONSECUTIVE]))
def test_counts_and_statuses_match_the_reference_engine_and_solutions_keep_the_rules(puzzle: Grid) -> None:
    assert_matches_the_reference_engine(nonconsecutive9, puzzle)


@settings(max_examples=80)
@given(puzzle=puzzles([NONCONSECUTIVE], max_blanks=81), flags=st.sampled_from(RULE_FLAGS))
def test_every_rule_set_gives_the_statuses_counts_and_solutions_of_the_digit_major_kernel(puzzle: Grid,
                                                                                          flags: int) -> None:
    assert_matches_the_digit_major_kernel(nonconsecutive9, puzzle, flags)


def _words(cells: set[int]) -> tuple[int, int, int]:
    words = [0, 0, 0]
    for cell in cells:
        words[band.CELL_BAND[cell]] |= 1 << int(band.CELL_POS[cell])
    return words[0], words[1], words[2]


def _cells(words: tuple[int, int, int]) -> set[int]:
    return {cell for cell in range(81) if (int(words[band.CELL_BAND[cell]]) >> int(band.CELL_POS[cell])) & 1}


def _beside(cell: int) -> set[int]:
    row, column = divmod(cell, 9)
    return {9 * r + c for r, c in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1))
            if 0 <= r < 9 and 0 <= c < 9}


@settings(max_examples=200)
@given(cells=st.sets(st.integers(0, 80)))
def test_the_shifted_words_are_the_cells_beside(cells: set[int]) -> None:
    expected = set().union(*(_beside(cell) for cell in cells)) if cells else set()
    assert _cells(nonconsecutive9._beside(*(np.int64(w) for w in _words(cells)))) == expected


def _near(places: set[int], units: list[list[int]]) -> set[int]:
    """The cells of a unit beside or on every place of the digit in it (at least one place), by plain loops (with
    one place, the cells beside it outside the unit are ``_support``'s)."""
    near: set[int] = set()
    for members in units:
        inside = places & set(members)
        if inside:
            near |= {cell for cell in members if inside <= _beside(cell) | {cell}}
    return near


@settings(max_examples=300)
@given(places=st.sets(st.integers(0, 80)))
def test_row_and_column_neighbourhoods_are_those_of_plain_loops(places: set[int]) -> None:
    words = _words(places)
    rows = [list(range(9 * row, 9 * row + 9)) for row in range(9)]
    columns = [list(range(column, 81, 9)) for column in range(9)]
    row_near = _cells(tuple(nonconsecutive9._row_near(np.int64(w)) for w in words))
    column_near = _cells(nonconsecutive9._column_near(*(np.int64(w) for w in words)))
    assert row_near == _near(places, rows)
    assert column_near == _near(places, columns)


@settings(max_examples=300)
@given(places=st.sets(st.integers(0, 80)))
def test_box_neighbourhoods_are_those_of_plain_loops_for_two_to_five_places(places: set[int]) -> None:
    boxes = [members for members in band.STANDARD_UNITS[18:].tolist() if 2 <= len(places & set(members)) <= 5]
    near = _cells(tuple(nonconsecutive9._box_near(np.int64(w)) for w in _words(places)))
    assert near == _near(places, boxes)


def _grid(cells: dict[int, int], geometry: Geometry = NONCONSECUTIVE) -> Grid:
    values = np.zeros(81, np.uint8)
    for cell, digit in cells.items():
        values[cell] = digit
    return Grid(values.tobytes(), Shape(3, 3), geometry)


@pytest.mark.parametrize(
    "cells",
    [
        {0: 4, 1: 5},  # side by side in a row
        {26: 8, 27: 9},  # r3c9 and r4c1: not beside (another row), but r3c9, r4c9 are
        {26: 8, 35: 9},  # r3c9 above r4c9, across the band edge
        {40: 2, 49: 1},
        {0: 1, 1: 1},  # row 1 twice: the band kernel's own check
    ],
)
def test_consecutive_givens_side_by_side_and_equal_givens_in_a_unit_are_invalid(cells: dict[int, int]) -> None:
    puzzle = _grid(cells)
    expected = codes.COMPLETE if cells == {26: 8, 27: 9} else codes.INVALID
    assert search(variant81, puzzle, limit=1)[0] in (expected, codes.LIMIT_REACHED)
    code = search(nonconsecutive9, puzzle, limit=1)[0]
    assert code in (expected, codes.LIMIT_REACHED)
    assert (code == codes.INVALID) == (expected == codes.INVALID)
    assert (bitmask.search(puzzle, limit=1, max_nodes=10**5, keep=0).status.name == "INVALID") == (
        expected == codes.INVALID)


def test_a_cell_that_the_relation_leaves_empty_handed_is_a_contradiction() -> None:
    # r1c1 sees 2..9 in its row and column but 1, and its neighbour r1c2 = 2 forbids 1: no digit left
    puzzle = _grid({1: 2, 2: 9, 3: 3, 4: 5, 5: 7, 6: 4, 18: 6, 36: 8})
    assert puzzle.is_valid()
    code, stats, _ = search(nonconsecutive9, puzzle)
    assert (code, stats[codes.STAT_NODES]) == (codes.CONTRADICTION, 0)
    assert search(variant81, puzzle)[0] == codes.CONTRADICTION


def test_the_relation_cuts_the_count_of_a_sparse_puzzle() -> None:
    cells = random_grid(NONCONSECUTIVE, 3)
    cells[np.random.default_rng(3).choice(81, 55, replace=False)] = 0
    puzzle = Grid(cells.tobytes(), Shape(3, 3), NONCONSECUTIVE)
    classic = Grid(cells.tobytes(), Shape(3, 3), Geometry.classic())
    found = search(nonconsecutive9, puzzle, limit=50)[1][codes.STAT_SOLUTIONS]
    assert found == search(variant81, puzzle, limit=50)[1][codes.STAT_SOLUTIONS]
    assert found < reference.search(classic, limit=50, max_nodes=10**7, keep=0).count


def test_count_many_gives_each_row_what_search_gives_it() -> None:
    assert_count_many_matches_search(nonconsecutive9, NONCONSECUTIVE, blanks=60)


def test_the_node_budget_and_the_stop_flag_end_the_search() -> None:
    assert_budget_and_stop_end_the_search(nonconsecutive9, NONCONSECUTIVE)


def test_only_classic_grids_with_the_nonconsecutive_relation_have_tables() -> None:
    assert nonconsecutive9.tables_for(NONCONSECUTIVE) is not None
    for name in ("classic", "x", "windoku", "anti-knight", "anti-king", "x+nonconsecutive",
                 "nonconsecutive+anti-king"):
        assert nonconsecutive9.tables_for(Geometry.parse(name)) is None, name
    assert nonconsecutive9.tables_for(Geometry.parse("nonconsecutive", "2x3")) is None


def test_the_engine_and_the_generator_send_nonconsecutive_here(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    kernel = nonconsecutive9.search
    monkeypatch.setattr(nonconsecutive9, "search", lambda *args: calls.append(args) or kernel(*args))
    for name in ("nonconsecutive", "x+nonconsecutive", "anti-king"):
        puzzle = Grid.empty("3x3").with_geometry(name)
        assert bitmask.search(puzzle, limit=1, max_nodes=10**5, keep=1).solution.is_solution_of(puzzle)
    assert len(calls) == 1
    assert isinstance(Request.make("3x3", variant="nonconsecutive").tables[2], nonconsecutive9.Nonconsecutive9Tables)
    assert isinstance(Request.make("3x3", variant="x+nonconsecutive").tables[2], variant81.Tables81)



def _misses_nothing(states: np.ndarray, scratch: np.ndarray, row: int) -> bool:
    """Whether a pass of ``_support`` that looks at every cell again (none marked seen) strikes nothing from the
    propagated state ``row`` (row + 1 is scratch)."""
    states[row + 1] = states[row]
    states[row + 1, nonconsecutive9.S_SEEN_ONES :] = 0
    return nonconsecutive9._support(states, np.int64(row + 1), scratch) == 0 and (
        states[row + 1, : nonconsecutive9.S_SEEN_ONES] == states[row, : nonconsecutive9.S_SEEN_ONES]).all()


@pytest.mark.parametrize("seed", range(12))
def test_support_looks_at_changed_cells_only_and_still_misses_nothing(seed: int) -> None:
    # Every propagation calls _support many times, each on the cells whose digits it has not seen. Down a path to
    # the solution (the root of a sparse puzzle, then one digit of the solution placed and propagated at a time),
    # a pass that looks at every cell again must find nothing left to strike at each fixpoint.
    tables = nonconsecutive9.tables_for(NONCONSECUTIVE)
    workspace = nonconsecutive9.new_workspace()
    states, _, scratch = workspace
    grid = random_grid(NONCONSECUTIVE, seed)
    draw = np.random.default_rng(seed)
    cells = grid.copy()
    cells[draw.choice(81, 73 + seed % 6, replace=False)] = 0
    code = nonconsecutive9.search_in(workspace, cells, tables, 1, 1, codes.ALL_RULES, np.zeros((0, 81), np.uint8),
                                     np.zeros(codes.N_STATS, np.int64), np.ones(1, np.uint64),
                                     np.zeros(0, np.uint8), np.int64(-1), np.zeros(1, np.int64))
    assert code == codes.BUDGET_EXHAUSTED
    assert _misses_nothing(states, scratch, 0)
    placed = 0
    for cell in draw.permutation(np.flatnonzero(cells == 0)):
        where, pos = band.CELL_BAND[cell], band.CELL_POS[cell]
        if not states[0, band.S_UNSOLVED + where] >> pos & 1:
            continue  # filled by the propagation already
        assert _place(states, np.int64(0), np.int64(grid[cell] - 1), where, pos)
        assert nonconsecutive9._propagate(states, np.int64(0), codes.ALL_RULES, scratch) >= 0
        assert _misses_nothing(states, scratch, 0)
        placed += 1
    assert placed >= 2


def _check(kernel, workspace, tables, cells: np.ndarray, grid: np.ndarray, cell: int, limit: int):
    """A removal check as the generator runs it (``grid`` the guide, ``cell`` losing its digit), keeping up to
    ``limit`` solutions: (status, solutions found, the set kept)."""
    solutions = np.zeros((limit, 81), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    code = kernel.search_in(workspace, cells, tables, limit, 10**6, codes.ALL_RULES, solutions, stats,
                            np.ones(1, np.uint64), grid, np.int64(cell), np.zeros(1, np.int64))
    found = int(stats[codes.STAT_SOLUTIONS])
    return code, found, {solutions[i].tobytes() for i in range(min(found, limit))}


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32), blanks=st.integers(20, 76), pick=st.integers(0, 80))
def test_removal_checks_with_the_wide_choice_find_the_other_solutions_of_the_digit_major_kernel(
        seed: int, blanks: int, pick: int) -> None:
    # A check (``changed_cell`` >= 0) branches by ``choose``'s wide rule; its answers must not change: the same
    # status, count (up to 10) and solutions as ``variant81``'s check, each a solution without the struck digit;
    # up to 48 blanks, the count is that of the reference engine's solutions without the grid's digit in the cell.
    grid = random_grid(NONCONSECUTIVE, seed)
    cells = grid.copy()
    cells[np.random.default_rng(seed).choice(81, blanks, replace=False)] = 0
    cell = int(np.flatnonzero(cells == 0)[pick % blanks])
    code, found, kept = _check(nonconsecutive9, nonconsecutive9.new_workspace(),
                               nonconsecutive9.tables_for(NONCONSECUTIVE), cells, grid, cell, 10)
    twin = _check(variant81, variant81.new_workspace(), variant81.board_tables(NONCONSECUTIVE), cells, grid, cell, 10)
    assert (code, found) == twin[:2]
    if found < 10:
        assert kept == twin[2]
    puzzle = Grid(cells.tobytes(), Shape(3, 3), NONCONSECUTIVE)
    for solution in kept:
        assert solution[cell] != grid[cell]
        assert puzzle.with_cells(solution).is_solution_of(puzzle)
    if blanks <= 48:
        expected = reference.search(puzzle, limit=20, max_nodes=10**7, keep=20)
        if expected.count < 20:  # every solution known: the check finds those without the grid's digit in cell
            assert found == min(sum(s.cells[cell] != grid[cell] for s in expected.solutions), 10)


def _candidates(states: np.ndarray, cell: int) -> int:
    where, pos = band.CELL_BAND[cell], int(band.CELL_POS[cell])
    return sum(1 << digit for digit in range(9) if int(states[0, 3 * digit + where]) >> pos & 1)


def _plain_choice(states: np.ndarray, tables, wide: bool) -> tuple[int, int]:
    """``choose`` on state 0 by plain loops over the cells, scored by the kernel's own ``_score``."""
    empty = [c for c in range(81) if int(states[0, band.S_UNSOLVED + band.CELL_BAND[c]]) >> int(band.CELL_POS[c]) & 1]
    digits = {c: _candidates(states, c) for c in empty}
    counts = {c: bin(digits[c]).count("1") for c in empty}
    fewest = min(counts.values())
    two = [0, 0, 0]
    for c in empty:
        if counts[c] == 2:
            two[band.CELL_BAND[c]] |= 1 << int(band.CELL_POS[c])
    few = list(counts.values()).count(fewest) <= nonconsecutive9.WIDEN_UP_TO
    weight = nonconsecutive9.WIDE_NEIGHBOUR_WEIGHT if wide else nonconsecutive9.NEIGHBOUR_WEIGHT
    best, best_value = -1, -1.0
    for c in empty:
        if counts[c] == fewest or (wide and few and counts[c] == fewest + 1):
            score = nonconsecutive9._score(states, np.int64(0), np.int64(c), np.int64(digits[c]), tables,
                                           np.int64(two[0]), np.int64(two[1]), np.int64(two[2]), np.int64(weight))
            if score / counts[c] ** 2 > best_value:
                best, best_value = c, score / counts[c] ** 2
    return best, digits[best]


@pytest.mark.parametrize("seed", range(6))
def test_the_wide_choice_takes_the_best_score_over_count_squared_among_the_fewest_and_one_more(seed: int) -> None:
    # At the root of each check of a sparse puzzle (a one-node budget: state 0 is its fixpoint), ``choose``
    # against plain loops: the narrow choice (the fill's) is the first best score among the fewest candidates; the
    # wide one (the checks') the first best score / count squared among the cells of the fewest candidates and,
    # when there are ``WIDEN_UP_TO`` of those or fewer, of one more. Both cases must come up, and the two choices
    # must differ somewhere. The searches with a guide (the generator's fill and checks) choose wide, the others not.
    tables = nonconsecutive9.tables_for(NONCONSECUTIVE)
    workspace = nonconsecutive9.new_workspace()
    states = workspace[0]
    grid = random_grid(NONCONSECUTIVE, seed)
    cells = grid.copy()
    cells[np.random.default_rng(seed).choice(81, 68 + seed % 6, replace=False)] = 0
    roots = differ = 0
    for cell in np.flatnonzero(cells == 0):
        code = nonconsecutive9.search_in(workspace, cells, tables, 1, 1, codes.ALL_RULES, np.zeros((0, 81), np.uint8),
                                         np.zeros(codes.N_STATS, np.int64), np.ones(1, np.uint64), grid,
                                         np.int64(cell), np.zeros(1, np.int64))
        if code != codes.BUDGET_EXHAUSTED:
            continue  # the root answered the check: no choice
        roots += 1
        narrow, wide = _plain_choice(states, tables, False), _plain_choice(states, tables, True)
        assert nonconsecutive9.choose(states, np.int64(0), tables, False) == narrow
        assert nonconsecutive9.choose(states, np.int64(0), tables, True) == wide
        for guide, choice in ((grid, wide), (np.zeros(0, np.uint8), narrow)):  # the generator's searches: wide
            context = (tables, workspace[2], guide, guide.shape[0] == 81, False, np.ones(1, np.uint64))
            assert nonconsecutive9._choose_in(states, np.int64(0), context) == choice
        differ += narrow != wide
    assert roots >= 20
    assert differ >= 1
