"""The band kernel with extra units (``kernels/extra9.py``, X and Windoku) against the reference engine and the
digit-major kernel: the same counts, statuses and solutions (not the same nodes: its inference and branching
differ); which geometries it takes; and that the engine sends X and Windoku to it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from tests.kernels.band9_twins import (
    NO_STOP,
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
from bitdoku.geometry import Geometry
from bitdoku.kernels import extra9, sudoku9, variant81
from bitdoku.kernels import status as codes

JIGSAW_MAP = "AABBBBCCCAAAEEBBCCDDAEEBCCFGDAAEBCCFGDDAEBIFFGGDEEIIFFGDDEHHIIFGDHHHHIFFGGGHHHIII"
GEOMETRIES = [Geometry.parse(name) for name in ("x", "windoku", "x+windoku")]
RULE_FLAGS = [codes.ALL_RULES, codes.NAKED_SINGLES | codes.HIDDEN_SINGLES, codes.HIDDEN_SINGLES,
              codes.NAKED_SINGLES | codes.LOCKED_CANDIDATES, codes.NAKED_SINGLES, 0]


@given(puzzle=puzzles(GEOMETRIES))
def test_counts_and_statuses_match_the_reference_engine_and_solutions_keep_the_rules(puzzle: Grid) -> None:
    assert_matches_the_reference_engine(extra9, puzzle)


@settings(max_examples=60)
@given(puzzle=puzzles(GEOMETRIES, max_blanks=81), flags=st.sampled_from(RULE_FLAGS))
def test_every_rule_set_gives_the_statuses_counts_and_solutions_of_the_digit_major_kernel(puzzle: Grid,
                                                                                          flags: int) -> None:
    assert_matches_the_digit_major_kernel(extra9, puzzle, flags)


def _grid(geometry: str, cells: dict[int, int]) -> Grid:
    values = np.zeros(81, np.uint8)
    for cell, digit in cells.items():
        values[cell] = digit
    return Grid(values.tobytes(), Shape(3, 3), Geometry.parse(geometry))


@pytest.mark.parametrize(
    ("geometry", "cells"),
    [
        ("x", {0: 5, 80: 5}),  # the main diagonal twice
        ("x", {8: 3, 72: 3}),  # the anti-diagonal twice
        ("windoku", {10: 7, 30: 7}),  # the first window (r2c2, r4c4) twice
        ("x+windoku", {40: 2, 60: 2}),  # the main diagonal (r5c5, r7c7), also the last window
        ("x", {0: 1, 1: 1}),  # row 1 twice: the band kernel's own check
    ],
)
def test_equal_givens_in_a_unit_are_invalid(geometry: str, cells: dict[int, int]) -> None:
    puzzle = _grid(geometry, cells)
    assert search(extra9, puzzle)[0] == codes.INVALID
    assert bitmask.search(puzzle, limit=2, max_nodes=100, keep=0).status.name == "INVALID"


def test_a_cell_that_the_extra_units_leave_empty_handed_is_a_contradiction() -> None:
    # r1c1 sees 1..4 in its row, 5..7 in its column and 8, 9 on the main diagonal: no digit left
    puzzle = _grid("x", {1: 1, 2: 2, 3: 3, 4: 4, 18: 5, 36: 6, 54: 7, 70: 8, 80: 9})
    assert puzzle.is_valid()
    code, stats, _ = search(extra9, puzzle)
    assert (code, stats[codes.STAT_NODES]) == (codes.CONTRADICTION, 0)
    assert search(variant81, puzzle)[0] == codes.CONTRADICTION


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda geometry: geometry.name)
def test_the_extra_units_cut_the_count_of_a_sparse_puzzle(geometry: Geometry) -> None:
    # the extra units make the count: the classic rules alone find more solutions of the same cells
    cells = random_grid(geometry, 3)
    cells[np.random.default_rng(3).choice(81, 60, replace=False)] = 0
    puzzle = Grid(cells.tobytes(), Shape(3, 3), geometry)
    classic = Grid(cells.tobytes(), Shape(3, 3), Geometry.classic())
    found = search(extra9, puzzle, limit=50)[1][codes.STAT_SOLUTIONS]
    assert found == search(variant81, puzzle, limit=50)[1][codes.STAT_SOLUTIONS]
    assert found < reference.search(classic, limit=50, max_nodes=10**7, keep=0).count


def test_count_many_gives_each_row_what_search_gives_it() -> None:
    assert_count_many_matches_search(extra9, Geometry.parse("x+windoku"), blanks=50)


def test_the_node_budget_and_the_stop_flag_end_thesearch() -> None:
    assert_budget_and_stop_end_the_search(extra9, Geometry.parse("x"))


def test_only_classic_grids_with_extra_units_have_tables() -> None:
    assert extra9.tables_for(Geometry.parse("x")) is not None
    assert extra9.tables_for(Geometry.parse("windoku")) is not None
    for name in ("classic", "anti-knight", "anti-king", "nonconsecutive", "x+anti-knight", "windoku+anti-king"):
        assert extra9.tables_for(Geometry.parse(name)) is None, name
    assert extra9.tables_for(Geometry.jigsaw(JIGSAW_MAP, rules=frozenset({"x"}))) is None
    assert extra9.tables_for(Geometry.parse("x", "2x3")) is None


def test_the_engine_sends_x_and_windoku_here(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    kernel = extra9.search
    monkeypatch.setattr(extra9, "search", lambda *args: calls.append(args) or kernel(*args))
    for name in ("x", "windoku", "anti-king"):
        puzzle = Grid.empty("3x3").with_geometry(name)
        assert bitmask.search(puzzle, limit=1, max_nodes=10**4, keep=1).solution.is_solution_of(puzzle)
    assert len(calls) == 2


@pytest.mark.parametrize("seed", range(20))
def test_windokus_implied_units_hold_every_digit_in_a_windoku_grid(seed: int) -> None:
    cells = random_grid(Geometry.parse("windoku"), seed)
    assert len(extra9.WINDOKU_IMPLIED) == 5
    for members in extra9.WINDOKU_IMPLIED:
        assert sorted(cells[members].tolist()) == list(range(1, 10))


def test_equal_givens_in_an_implied_unit_leave_no_solution_but_are_not_invalid() -> None:
    # r1c2 and r5c3 are in the implied unit of rows 1, 5, 9 by columns 2-4, in no unit of the puzzle's rules
    puzzle = _grid("windoku", {1: 6, 38: 6})
    assert puzzle.is_valid()
    code, stats, _ = search(extra9, puzzle)
    assert (code, stats[codes.STAT_SOLUTIONS], stats[codes.STAT_NODES]) == (codes.COMPLETE, 0, 1)


def _empty_root(tables: np.ndarray) -> np.ndarray:
    """The stack of a search of the empty grid stopped after its root (state 0: every candidate left)."""
    states = np.zeros((extra9.MAX_DEPTH, extra9.STATE_WORDS), np.uint32)
    extra9.search_in(states, np.zeros((extra9.MAX_DEPTH, 2), np.int64), np.zeros(81, np.uint8), tables, 2, 1,
                     codes.ALL_RULES, np.zeros((0, 81), np.uint8), np.zeros(codes.N_STATS, np.int64), NO_STOP)
    return states


def test_scored_ties_pick_the_cell_with_the_most_peers_holding_its_digits() -> None:
    # the empty X grid: nine candidates everywhere; r5c5 sees both diagonals, so its peers hold its digits most
    tables = extra9.tables_for(Geometry.parse("x"))
    states = _empty_root(tables)
    assert extra9.choose(states, 0, tables, extra9.ALL_PEERS, True) == (40, 0x1FF)
    assert extra9.choose(states, 0, tables, extra9.ALL_PEERS) == (0, 0x1FF)  # without: the first cell
    assert tables[extra9.SIZES, 2] == 1
    assert extra9.tables_for(Geometry.parse("windoku"))[extra9.SIZES, 2] == 0  # more nodes there: not scored


def _root(cells: np.ndarray, tables: np.ndarray, flags: int = codes.ALL_RULES) -> tuple[int, np.ndarray]:
    """The status of a search stopped after its root, and its state 0."""
    states = np.zeros((extra9.MAX_DEPTH, extra9.STATE_WORDS), np.uint32)
    status = extra9.search_in(states, np.zeros((extra9.MAX_DEPTH, 2), np.int64), cells, tables, 2, 1, flags,
                              np.zeros((0, 81), np.uint8), np.zeros(codes.N_STATS, np.int64), NO_STOP)
    return status, states[0]


def _candidates(state: np.ndarray, cell: int) -> int:
    """The digits (a 9-bit mask) a state leaves in a cell."""
    band, pos = int(sudoku9.CELL_BAND[cell]), int(sudoku9.CELL_POS[cell])
    return sum(((int(state[3 * digit + band]) >> pos) & 1) << digit for digit in range(9))


@pytest.mark.parametrize("flags", RULE_FLAGS)
def test_the_diagonal_pass_leaves_what_the_extra_unit_pass_leaves(flags: int) -> None:
    # X runs ``_diagonals`` (the diagonals as constants); the table without the mark runs the general pass. Random
    # X puzzles of 40-64 blanks: most roots stop unsolved, where both passes must leave the same candidates. With
    # locked candidates X's root also runs ``_diagonal_links`` (the general pass does not): there it must leave a
    # subset of the general pass's candidates that still holds the grid the puzzle was cut from.
    geometry = Geometry.parse("x")
    tables = extra9.tables_for(geometry)
    general = tables.copy()
    general[extra9.DIAGONALS, 0] = 0
    unsolved = 0
    for seed in range(60):
        full = random_grid(geometry, seed)
        cells = full.copy()
        cells[np.random.default_rng(seed).choice(81, 40 + seed % 25, replace=False)] = 0
        status, state = _root(cells, tables, flags)
        general_status, general_state = _root(cells, general, flags)
        if flags & codes.LOCKED_CANDIDATES:
            if general_status != codes.BUDGET_EXHAUSTED:
                assert status == general_status
                continue
            for cell in range(81):
                assert _candidates(state, cell) & ~_candidates(general_state, cell) == 0
                assert _candidates(state, cell) >> (int(full[cell]) - 1) & 1
            unsolved += status == codes.BUDGET_EXHAUSTED
            continue
        assert status == general_status
        if status == codes.BUDGET_EXHAUSTED:  # the root's fixpoint, without a contradiction or a solution
            assert (state[: sudoku9.S_UNSOLVED + 3] == general_state[: sudoku9.S_UNSOLVED + 3]).all()
            unsolved += 1
    assert unsolved >= 20


_MAIN = [10 * i for i in range(9)]
_ANTI = [8 * i + 8 for i in range(9)]


def _links_by_units(places: list[set[int]], filled: set[int]) -> list[set[int]]:
    """``_diagonal_links``' rules cell by cell, for each digit (``places[digit]``: the cells whose word holds it):
    the places each clears (never a filled cell). A row with two places, one on a diagonal, clears the diagonal's
    cell in the other's column; a column with two, the diagonal's cell in the other's row; a box on a diagonal
    whose places are all on it clears the rest of the diagonal."""
    cleared: list[set[int]] = []
    for cells in places:
        out: set[int] = set()
        for diagonal in (_MAIN, _ANTI):
            by_column = {cell % 9: cell for cell in diagonal}
            by_row = {cell // 9: cell for cell in diagonal}
            for line in range(9):
                row = [cell for cell in cells if cell // 9 == line]
                if len(row) == 2 and set(row) & set(diagonal):
                    out |= {by_column[cell % 9] for cell in row if cell not in diagonal}
                column = [cell for cell in cells if cell % 9 == line]
                if len(column) == 2 and set(column) & set(diagonal):
                    out |= {by_row[cell // 9] for cell in column if cell not in diagonal}
            for box in range(9):
                inside = [cell for cell in cells if (cell // 27) * 3 + (cell % 9) // 3 == box]
                on = [cell for cell in diagonal if (cell // 27) * 3 + (cell % 9) // 3 == box]
                if on and inside and set(inside) <= set(on):
                    out |= set(diagonal) - set(on)
        cleared.append(out & cells - filled)
    return cleared


def _random_state(rng: np.random.Generator) -> tuple[np.ndarray, list[set[int]], set[int]]:
    """State 0 of a stack with random candidates: a few filled cells, each empty cell a random set of digits
    (sparse enough for rows and columns of two places); (states, places of each digit, filled cells)."""
    states = np.zeros((extra9.MAX_DEPTH, extra9.STATE_WORDS), np.uint32)
    places: list[set[int]] = [set() for _ in range(9)]
    filled = set(rng.choice(81, rng.integers(0, 20), replace=False).tolist())
    density = rng.uniform(0.1, 0.5)
    for cell in range(81):
        band, pos = int(sudoku9.CELL_BAND[cell]), int(sudoku9.CELL_POS[cell])
        digits = [int(rng.integers(9))] if cell in filled else np.flatnonzero(rng.random(9) < density).tolist()
        for digit in digits:
            states[0, 3 * digit + band] |= 1 << pos
            places[digit].add(cell)
        if cell not in filled:
            states[0, sudoku9.S_UNSOLVED + band] |= 1 << pos
    return states, places, filled


def test_the_diagonal_links_clear_what_the_rules_say_cell_by_cell() -> None:
    # random candidate states (not consistent ones: every pattern of places) against the rules written per unit
    rng = np.random.default_rng(14)
    cleared_some = 0
    for _ in range(400):
        states, places, filled = _random_state(rng)
        expected = _links_by_units(places, filled)
        changed = extra9._diagonal_links(states, 0, 0x1FF)
        for digit in range(9):
            kept = {cell for cell in range(81) if states[0, 3 * digit + int(sudoku9.CELL_BAND[cell])]
                    >> int(sudoku9.CELL_POS[cell]) & 1}
            assert kept == places[digit] - expected[digit]
        assert changed == any(expected)
        cleared_some += any(expected)
    assert cleared_some >= 100


@njit
def _found(states: np.ndarray) -> int:
    """``extra9._links_found`` on state 0 (an intrinsic: callable from compiled code only)."""
    return extra9._links_found(sudoku9._band_words(states, 0, 0), sudoku9._band_words(states, 0, 1),
                               sudoku9._band_words(states, 0, 2), np.int64(states[0, sudoku9.S_UNSOLVED]),
                               np.int64(states[0, sudoku9.S_UNSOLVED + 1]), np.int64(states[0, sudoku9.S_UNSOLVED + 2]))


def test_the_vector_test_finds_the_digits_the_rules_clear() -> None:
    # digits 1-8 at once in 32-bit lanes: bit d set exactly when the rules written per unit clear something of d
    rng = np.random.default_rng(26)
    found_some = 0
    for _ in range(400):
        states, places, filled = _random_state(rng)
        expected = _links_by_units(places, filled)
        assert _found(states) == sum(1 << digit for digit in range(8) if expected[digit])
        found_some += any(expected[:8])
    assert found_some >= 100


def test_the_roots_candidates_are_a_fixpoint_of_the_diagonal_links() -> None:
    # random X puzzles stopped after their root: the rules written per unit find nothing more to clear there
    geometry = Geometry.parse("x")
    tables = extra9.tables_for(geometry)
    changed = 0
    for seed in range(40):
        cells = random_grid(geometry, seed)
        cells[np.random.default_rng(seed).choice(81, 58, replace=False)] = 0
        status, state = _root(cells, tables)
        if status != codes.BUDGET_EXHAUSTED:
            continue
        places = [{cell for cell in range(81) if _candidates(state, cell) >> digit & 1} for digit in range(9)]
        filled = {cell for cell in range(81) if not int(state[sudoku9.S_UNSOLVED + int(sudoku9.CELL_BAND[cell])])
                  >> int(sudoku9.CELL_POS[cell]) & 1}
        assert not any(_links_by_units(places, filled))
        changed += 1
    assert changed >= 10


def test_choose_takes_two_candidate_cells_on_a_diagonal_first() -> None:
    # roots of random X puzzles where the best-scored two-candidate cell is off the diagonals, and some are on them
    geometry = Geometry.parse("x")
    tables = extra9.tables_for(geometry)
    diagonal = {cell for members in extra9.X_DIAGONALS for cell in members}
    seen = 0
    for seed in range(40):
        cells = random_grid(geometry, seed)
        cells[np.random.default_rng(seed).choice(81, 56, replace=False)] = 0
        status, state = _root(cells, tables)
        pairs = [cell for cell in range(81) if bin(_candidates(state, cell)).count("1") == 2 and cells[cell] == 0]
        states = state[None, :]
        scored, _ = extra9.choose(states, 0, tables, extra9.ALL_PEERS, True)
        if status != codes.BUDGET_EXHAUSTED or scored in diagonal or not diagonal & set(pairs):
            continue
        seen += 1
        cell, digits = extra9.choose(states, 0, tables, extra9.ALL_PEERS, True, extra9.ON_EXTRA)
        assert cell in diagonal and cell in pairs and digits == _candidates(state, cell)
    assert seen >= 3
