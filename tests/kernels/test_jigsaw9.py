"""The jigsaw band kernel (``kernels/jigsaw9.py``) against the reference engine and the digit-major kernel: the
same counts, statuses and solutions (not the same nodes: its branching differs); which geometries it takes; and
that the engine sends 9x9 jigsaws to it."""

from __future__ import annotations

import itertools

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
from bitdoku.engines import bitmask
from bitdoku.generate.regions import random_jigsaw
from bitdoku.geometry import Geometry
from bitdoku.kernels import jigsaw9, sudoku9, variant81
from bitdoku.kernels import status as codes

JIGSAW_MAP = "AABBBBCCCAAAEEBBCCDDAEEBCCFGDAAEBCCFGDDAEBIFFGGDEEIIFFGDDEHHIIFGDHHHHIFFGGGHHHIII"
#: Region maps: a fixed one, three random ones, and one with the diagonals too (extra units the kernel takes).
GEOMETRIES = [Geometry.jigsaw(JIGSAW_MAP), *(random_jigsaw("3x3", seed=seed) for seed in (4, 5, 6)),
              Geometry.jigsaw(JIGSAW_MAP, rules=frozenset({"x"}))]
RULE_FLAGS = [codes.ALL_RULES, codes.NAKED_SINGLES | codes.HIDDEN_SINGLES, codes.HIDDEN_SINGLES,
              codes.NAKED_SINGLES | codes.LOCKED_CANDIDATES, codes.NAKED_SINGLES, codes.LOCKED_CANDIDATES, 0]


@given(puzzle=puzzles(GEOMETRIES))
def test_counts_and_statuses_match_the_reference_engine_and_solutions_keep_the_rules(puzzle: Grid) -> None:
    assert_matches_the_reference_engine(jigsaw9, puzzle)


@settings(max_examples=80)
@given(puzzle=puzzles(GEOMETRIES, max_blanks=81), flags=st.sampled_from(RULE_FLAGS))
def test_every_rule_set_gives_the_statuses_counts_and_solutions_of_the_digit_major_kernel(puzzle: Grid,
                                                                                          flags: int) -> None:
    assert_matches_the_digit_major_kernel(jigsaw9, puzzle, flags)


def _grid(cells: dict[int, int], geometry: Geometry = GEOMETRIES[0]) -> Grid:
    values = np.zeros(81, np.uint8)
    for cell, digit in cells.items():
        values[cell] = digit
    return Grid(values.tobytes(), Shape(3, 3), geometry)


@pytest.mark.parametrize(
    "cells",
    [
        {0: 5, 29: 5},  # region A (r1c1, r4c3): neither a row, a column nor a box
        {2: 4, 3: 4},  # row 1 twice
        {0: 7, 72: 7},  # column 1 twice
        {0: 10},  # a digit above 9
    ],
)
def test_equal_givens_in_a_unit_are_invalid(cells: dict[int, int]) -> None:
    puzzle = _grid(cells)
    assert search(jigsaw9, puzzle)[0] == codes.INVALID
    assert search(variant81, puzzle)[0] == codes.INVALID


def test_equal_givens_in_a_box_that_is_no_region_are_fine() -> None:
    # two cells of one classic box, in other rows, columns and regions, that hold the same digit in a solution
    solution = random_grid(GEOMETRIES[0], 1)
    regions = GEOMETRIES[0].regions
    pairs = [(a, b) for a in range(81) for b in range(a + 1, 81)
             if solution[a] == solution[b] and Shape(3, 3).box_of(*divmod(a, 9)) == Shape(3, 3).box_of(*divmod(b, 9))
             and regions[a] != regions[b]]
    a, b = pairs[0]
    puzzle = _grid({a: int(solution[a]), b: int(solution[b])})
    code, stats, _ = search(jigsaw9, puzzle, limit=1)
    assert (code, stats[codes.STAT_SOLUTIONS]) == (codes.LIMIT_REACHED, 1)


def test_a_cell_that_its_region_leaves_empty_handed_is_a_contradiction() -> None:
    # r1c1 sees 1..4 in row 1, 5..7 in column 1 and 8, 9 in region A (r2c2, r2c3): no digit left
    puzzle = _grid({5: 1, 6: 2, 7: 3, 8: 4, 27: 5, 36: 6, 63: 7, 10: 8, 11: 9})
    assert puzzle.is_valid()
    code, stats, _ = search(jigsaw9, puzzle)
    assert (code, stats[codes.STAT_NODES]) == (codes.CONTRADICTION, 0)
    assert search(variant81, puzzle)[0] == codes.CONTRADICTION


@pytest.mark.parametrize("geometry", GEOMETRIES[:2], ids=("fixed map", "random map"))
def test_the_regions_make_the_count_of_a_sparse_puzzle(geometry: Geometry) -> None:
    # read with columns in place of the regions (a Latin square), the same cells have more solutions
    cells = random_grid(geometry, 3)
    cells[np.random.default_rng(3).choice(81, 54, replace=False)] = 0
    puzzle = Grid(cells.tobytes(), Shape(3, 3), geometry)
    found = search(jigsaw9, puzzle, limit=50)[1][codes.STAT_SOLUTIONS]
    assert 1 <= found < 50
    assert found == search(variant81, puzzle, limit=50)[1][codes.STAT_SOLUTIONS]
    latin = Grid(cells.tobytes(), Shape(3, 3), Geometry.jigsaw("ABCDEFGHI" * 9))  # "regions" = columns
    assert found < search(jigsaw9, latin, limit=50)[1][codes.STAT_SOLUTIONS]


def test_count_many_gives_each_row_what_search_gives_it() -> None:
    assert_count_many_matches_search(jigsaw9, GEOMETRIES[1], blanks=50)


def test_the_node_budget_and_the_stop_flag_end_thesearch() -> None:
    assert_budget_and_stop_end_the_search(jigsaw9, GEOMETRIES[0])


def test_only_9x9_jigsaws_without_relations_have_tables() -> None:
    assert jigsaw9.tables_for(Geometry.jigsaw(JIGSAW_MAP)) is not None
    assert jigsaw9.tables_for(Geometry.jigsaw(JIGSAW_MAP, rules=frozenset({"windoku"}))) is not None
    for name in ("classic", "x", "windoku", "anti-knight", "anti-king", "nonconsecutive"):
        assert jigsaw9.tables_for(Geometry.parse(name)) is None, name
    for rule in ("anti-knight", "anti-king", "nonconsecutive"):
        assert jigsaw9.tables_for(Geometry.jigsaw(JIGSAW_MAP, rules=frozenset({rule}))) is None, rule
    assert jigsaw9.tables_for(Geometry.jigsaw("AABB" "AABB" "CCDD" "CCDD")) is None


def test_the_engine_sends_jigsaws_here(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    kernel = jigsaw9.search
    monkeypatch.setattr(jigsaw9, "search", lambda *args: calls.append(args) or kernel(*args))
    for geometry in (GEOMETRIES[0], GEOMETRIES[4], Geometry.parse("anti-king"),
                     Geometry.jigsaw(JIGSAW_MAP, rules=frozenset({"anti-king"}))):
        puzzle = Grid.empty("3x3").with_geometry(geometry)
        assert bitmask.search(puzzle, limit=1, max_nodes=10**4, keep=1).solution.is_solution_of(puzzle)
    assert len(calls) == 2


@pytest.mark.parametrize("geometry", GEOMETRIES[:4], ids=("fixed map", "seed 4", "seed 5", "seed 6"))
def test_each_leftover_pair_holds_the_same_digits_in_every_solution(geometry: Geometry) -> None:
    regions = [set(members) for members in geometry.tables.units.tolist()[18:27]]
    pairs = jigsaw9.leftover_pairs(regions)
    assert 0 < len(pairs) <= jigsaw9.MAX_LEFTOVER_PAIRS
    for seed in range(8):
        grid = random_grid(geometry, seed)
        for inside, outside in pairs:
            assert 0 < len(inside) <= jigsaw9.LEFTOVER_CELLS
            assert sorted(grid[sorted(inside)]) == sorted(grid[sorted(outside)])


def _every_leftover_pair(regions: list[set[int]]) -> list[tuple[frozenset[int], frozenset[int]]]:
    """The law of leftovers by its definition: every run of lines, every choice of as many regions (sets)."""
    found = set()
    for a in range(9):
        for b in range(a + 1, 10):
            for lines in ({9 * r + c for r in range(a, b) for c in range(9)},
                          {9 * r + c for c in range(a, b) for r in range(9)}):
                for chosen in itertools.combinations(range(9), b - a):
                    covered = set().union(*(regions[i] for i in chosen))
                    inside, outside = frozenset(lines - covered), frozenset(covered - lines)
                    if 0 < len(inside) <= jigsaw9.LEFTOVER_CELLS:
                        found.add((inside, outside))
    return sorted(found, key=lambda pair: (len(pair[0]), sorted(pair[0]), sorted(pair[1])))


@pytest.mark.parametrize("seed", range(12))
def test_leftover_pairs_are_the_smallest_pairs_of_the_definition(seed: int) -> None:
    # the fast enumeration leaves regions out before trying combinations; it must find the same pairs
    regions = [set(members) for members in random_jigsaw(seed=seed).tables.units.tolist()[18:27]]
    assert jigsaw9.leftover_pairs(regions) == _every_leftover_pair(regions)[: jigsaw9.MAX_LEFTOVER_PAIRS]



def _recorded_pairs(tables: np.ndarray) -> list[tuple[frozenset[int], frozenset[int]]]:
    """The leftover pairs as ``tables_for`` records them cell by cell: the first word's pair sets in the cells' units
    rows, the second word's in the block after the pairs' sides."""
    n_units, n_pairs = int(tables[jigsaw9.SIZES, 0]), int(tables[jigsaw9.SIZES, 1])
    high = jigsaw9.UNITS + n_units + 1 + 2 * n_pairs
    sides: list[tuple[set[int], set[int]]] = [(set(), set()) for _ in range(n_pairs)]
    for cell in range(81):
        at = 30 * int(sudoku9.CELL_BAND[cell]) + int(sudoku9.CELL_POS[cell])
        for pair in range(n_pairs):
            word, bit = (jigsaw9.CELL_UNITS + at, 1), pair
            if pair >= jigsaw9.PAIRS_A_WORD:
                word, bit = (high + at, 0), pair - jigsaw9.PAIRS_A_WORD
            for side in range(2):
                if int(tables[word[0], word[1] + side]) >> bit & 1:
                    sides[pair][side].add(cell)
    return [(frozenset(inside), frozenset(outside)) for inside, outside in sides]


@pytest.mark.parametrize("geometry", GEOMETRIES[:4], ids=("fixed map", "seed 4", "seed 5", "seed 6"))
def test_the_tables_hold_every_leftover_pair_in_both_words(geometry: Geometry) -> None:
    # more pairs than one word holds (sides of up to 8 cells): the second word's pairs sit in a block of their own
    regions = [set(members) for members in geometry.tables.units.tolist()[18:27]]
    pairs = jigsaw9.leftover_pairs(regions)
    assert len(pairs) > jigsaw9.PAIRS_A_WORD
    assert _recorded_pairs(jigsaw9.tables_for(geometry)) == pairs


@pytest.mark.parametrize("geometry", GEOMETRIES[:4], ids=("fixed map", "seed 4", "seed 5", "seed 6"))
def test_the_second_word_of_leftover_pairs_takes_candidates_on_its_own(geometry: Geometry) -> None:
    # the first word's pairs switched off (their cells' pair sets cleared): the second word's still take candidates
    # at the root of some sparse puzzles, and never a digit of a solution
    tables = jigsaw9.tables_for(geometry)
    second_only = tables.copy()
    second_only[jigsaw9.CELL_UNITS : jigsaw9.CELL_UNITS + 90, 1:] = 0
    _check_root_narrows_soundly(geometry, second_only)


@pytest.mark.parametrize("geometry", GEOMETRIES[:4], ids=("fixed map", "seed 4", "seed 5", "seed 6"))
def test_the_law_of_leftovers_takes_candidates_no_solution_needs(geometry: Geometry) -> None:
    # sparse puzzles (many solutions): at the root, the pairs leave a subset of the candidates left without them,
    # a strict one on some puzzles, and keep every digit of every solution
    _check_root_narrows_soundly(geometry, jigsaw9.tables_for(geometry))


def _check_root_narrows_soundly(geometry: Geometry, tables: np.ndarray) -> None:
    """Over 12 sparse puzzles of the map (56 blanks from random grids: many solutions), the root's candidates with
    the leftover pairs of ``tables`` are a subset of those with none, a strict one on some puzzle, and keep every
    digit of every solution (``variant81``'s, which has no leftovers; ``jigsaw9`` finds as many)."""
    without = tables.copy()
    without[jigsaw9.SIZES, 1] = 0
    narrower = 0
    for seed in range(12):
        cells = random_grid(geometry, seed)
        cells[np.random.default_rng(seed).choice(81, 56, replace=False)] = 0
        puzzle = Grid(cells.tobytes(), Shape(3, 3), geometry)
        _, stats, solutions = search(variant81, puzzle, limit=200)
        assert search(jigsaw9, puzzle, limit=200)[1][codes.STAT_SOLUTIONS] == stats[codes.STAT_SOLUTIONS]
        with_pairs, plain = _root_candidates(tables, cells), _root_candidates(without, cells)
        assert not (with_pairs & ~plain).any()
        narrower += int((plain & ~with_pairs).any())
        for solution in solutions:
            digits = np.frombuffer(solution, np.uint8).astype(np.int64) - 1
            assert with_pairs[np.arange(81), digits].all()
    assert narrower > 0


def _root_candidates(tables: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """bool[81, 9]: the candidates the root's propagation leaves (a one-node budget)."""
    states = np.zeros((jigsaw9.MAX_DEPTH, jigsaw9.STATE_WORDS), np.uint32)
    jigsaw9.search_in(states, np.zeros((jigsaw9.MAX_DEPTH, 2), np.int64), cells, tables, 2, 1, codes.ALL_RULES,
                      np.zeros((0, 81), np.uint8), np.zeros(codes.N_STATS, np.int64), NO_STOP)
    return np.array([[(int(states[0, 3 * digit + sudoku9.CELL_BAND[cell]]) >> int(sudoku9.CELL_POS[cell])) & 1
                      for digit in range(9)] for cell in range(81)], bool)


def _cells_of(words: np.ndarray) -> set[int]:
    """The cells of three band words."""
    return {cell for cell in range(81)
            if int(words[int(sudoku9.CELL_BAND[cell])]) >> int(sudoku9.CELL_POS[cell]) & 1}


def _band_words(cells: set[int]) -> np.ndarray:
    """Three band words holding ``cells``."""
    words = np.zeros(3, np.int64)
    for cell in cells:
        words[int(sudoku9.CELL_BAND[cell])] |= 1 << int(sudoku9.CELL_POS[cell])
    return words


def test_compressing_bits_packs_the_bits_under_the_mask_in_order() -> None:
    # the bit-by-bit fallback (CPUs without BMI2), and pext where this CPU has it, against the definition
    rng = np.random.default_rng(9)
    kernels = [jigsaw9._compress_bits] + ([njit(lambda x, m: jigsaw9._pext(x, m))] if jigsaw9.HAS_PEXT else [])
    for _ in range(300):
        x, mask = (int(v) for v in rng.integers(0, 1 << 62, 2))
        mask &= int(rng.integers(0, 1 << 62))  # sparser masks too
        expected = sum(1 << i for i, bit in enumerate(b for b in range(64) if mask >> b & 1) if x >> bit & 1)
        for kernel in kernels:
            assert kernel(np.int64(x), np.int64(mask)) == expected


@njit
def _places(x0: int, x1: int, x2: int, tables: np.ndarray, gather: int, unit: int) -> int:
    return jigsaw9._places(x0, x1, x2, jigsaw9._flat(tables), gather, unit)


@njit
def _place_of(tables: np.ndarray, gather: int, unit: int, places: int) -> int:
    return jigsaw9._place_of(jigsaw9._flat(tables), gather, unit, places)


@njit
def _lock_at(gather: int, unit: int, places: int) -> int:
    return jigsaw9._lock_at(gather, unit, places)


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=("fixed map", "seed 4", "seed 5", "seed 6", "with diagonals"))
def test_a_units_places_gather_into_one_word_that_names_its_cells(geometry: Geometry) -> None:
    # what the unit pass reads: the gather row's shifts and packed cells turn a digit's words into the unit's places
    tables = jigsaw9.tables_for(geometry)
    gather = int(tables[jigsaw9.SIZES, 2])
    rng = np.random.default_rng(3)
    for unit, members in enumerate(geometry.tables.units.tolist()):
        shifts, packed = int(tables[gather + unit, 0]), int(tables[gather + unit, 1])
        for _ in range(20):
            held = {cell for cell in range(81) if rng.random() < 0.4}
            words = _band_words(held)
            places = int(_places(words[0], words[1], words[2], tables, gather, unit))
            named = {(packed >> 7 * i) & 127 for i in range(9) if places >> i & 1}
            assert places < 512 and named == held & set(members), (unit, shifts)
            one = places & -places
            if one:
                assert _place_of(tables, gather, unit, one) == (packed >> 7 * (one.bit_length() - 1)) & 127


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=("fixed map", "seed 4", "seed 5", "seed 6", "with diagonals"))
def test_the_lock_table_holds_the_cells_outside_a_unit_that_see_all_its_places(geometry: Geometry) -> None:
    # by the definition, from the geometry's own peer lists: for a set of two or more of a unit's cells, every cell
    # outside the unit that is a peer of each; nothing for fewer than two
    tables = jigsaw9.tables_for(geometry)
    gather = int(tables[jigsaw9.SIZES, 2])
    peers = geometry.tables
    seen_by = [set(peers.peers[peers.peer_start[cell] : peers.peer_start[cell + 1]].tolist()) for cell in range(81)]
    for unit, members in enumerate(geometry.tables.units.tolist()):
        ordered = sorted(members)
        for places in range(512):
            cells = [ordered[i] for i in range(9) if places >> i & 1]
            expected = set(range(81)) - set(members) if len(cells) >= 2 else set()
            for cell in cells:
                expected &= seen_by[cell]
            at = _lock_at(gather, unit, places)
            assert _cells_of(tables.reshape(-1)[at : at + 3]) == expected, (unit, cells)


@njit
def _one_unit(states: np.ndarray, digit: int, unit: int, tables: np.ndarray, by_gather: bool) -> tuple[int, int]:
    """One unit of the unit pass on state 0, by either twin (every rule on)."""
    flat, gather = jigsaw9._flat(tables), tables[jigsaw9.SIZES, 2]
    if by_gather:
        return jigsaw9._unit_by_gather(states, 0, digit, unit, True, True, flat, gather, tables)
    return jigsaw9._unit_by_folding(states, 0, digit, unit, True, True, flat, gather, tables)


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=("fixed map", "seed 4", "seed 5", "seed 6", "with diagonals"))
def test_the_unit_pass_twins_agree_on_every_unit(geometry: Geometry) -> None:
    # gathered places and lock rows (fast pext) against folded peer masks (the rest): the same status, the same
    # candidates taken, the same state after, for each digit and unsolved unit of loaded puzzles
    tables = jigsaw9.tables_for(geometry)
    rng = np.random.default_rng(5)
    acted = np.zeros(3, np.int64)  # placements, locks that took something, contradictions
    for seed in range(6):
        cells = random_grid(geometry, seed)
        cells[rng.random(81) < 0.45 + 0.05 * seed] = 0
        loaded = np.zeros((jigsaw9.MAX_DEPTH, jigsaw9.STATE_WORDS), np.uint32)
        if jigsaw9._load_givens(cells, loaded, tables) >= 0:
            continue
        for digit in range(9):
            for unit in range(int(tables[jigsaw9.SIZES, 0])):
                if int(loaded[0, jigsaw9.S_SOLVED + digit]) >> unit & 1:
                    continue
                gathered, folded = loaded.copy(), loaded.copy()
                outcome = _one_unit(gathered, digit, unit, tables, True)
                assert outcome == _one_unit(folded, digit, unit, tables, False), (seed, digit, unit)
                assert (gathered[0] == folded[0]).all(), (seed, digit, unit)
                acted += (outcome[0] > 0, outcome[1] > 0, outcome[0] < 0)
    assert acted[0] > 0 and acted[1] > 0, acted  # both kinds of deduction were compared
