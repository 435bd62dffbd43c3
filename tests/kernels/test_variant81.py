"""The digit-major 9x9 variant kernel (``kernels/variant81.py``) against the reference engine and its cell-by-cell
twin (``kernels/variant.py``): same counts, same solutions, same nodes, same random draws; and the dispatch to it."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bitdoku import Grid, Shape
from bitdoku.engines import bitmask, reference
from bitdoku.geometry import Geometry
from bitdoku.kernels import status as codes
from bitdoku.kernels import variant, variant81
from bitdoku.kernels.fill import random_solution as fill_kernel
from bitdoku.kernels.rng import new_state

# Region maps drawn by ``generate.regions.random_jigsaw`` (seeds 0, 1, 2), written out so that these tests do not
# depend on the map generator.
JIGSAW_MAPS = ["AABBBBCCCAAAEEBBCCDDAEEBCCFGDAAEBCCFGDDAEBIFFGGDEEIIFFGDDEHHIIFGDHHHHIFFGGGHHHIII",
               "AAAAACCCCADBBBBBCFADDBBEBCFADGEBECCFADGEEEECFDDGEHHHFFDDGEHHIIFGGGHHIIFFGGHHIIIII",
               "ACCCCCCCCAAAABBBBCADAABBFBBDDDABFFFFDDDEEFEEFDDEEEEEFFGGGGGGHHIGHHHHHHHIGGIIIIIII"]
GEOMETRIES = [Geometry.parse(name) for name in ("x", "windoku", "anti-knight", "anti-king", "nonconsecutive",
                                                 "x+anti-knight", "windoku+anti-king", "x+nonconsecutive")]
GEOMETRIES += [Geometry.jigsaw(region_map) for region_map in JIGSAW_MAPS]
GEOMETRIES += [Geometry.jigsaw(JIGSAW_MAPS[1], rules=frozenset({"x"})),
               Geometry.jigsaw(JIGSAW_MAPS[2], rules=frozenset({"anti-king"}))]
#: The most blanks a puzzle may have here: the reference engine (the oracle) is slow on sparse 9x9 grids.
MAX_BLANKS = 48
RULE_FLAGS = [codes.ALL_RULES, codes.NAKED_SINGLES | codes.HIDDEN_SINGLES, codes.HIDDEN_SINGLES,
              codes.NAKED_SINGLES | codes.LOCKED_CANDIDATES]
#: Every stats slot both kernels fill the same way (placements are counted differently: batches here).
SAME_STATS = [codes.STAT_SOLUTIONS, codes.STAT_NODES, codes.STAT_GUESSES, codes.STAT_BACKTRACKS, codes.STAT_MAX_DEPTH]
NO_STOP = np.zeros(1, np.int64)


def _search81(puzzle: Grid, limit: int = 3, max_nodes: int = 10**6, flags: int = codes.ALL_RULES,
              stop: np.ndarray = NO_STOP, keep: int = 3):
    """Run the digit-major kernel directly, keeping the first ``keep`` solutions; (status, stats, solutions as
    uint8 rows)."""
    solutions = np.zeros((keep, 81), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    code = variant81.search(np.frombuffer(puzzle.cells, np.uint8), variant81.board_tables(puzzle.geometry), limit,
                            max_nodes, flags, solutions, stats, stop)
    return code, stats, solutions


def _search_cells(puzzle: Grid, limit: int = 3, max_nodes: int = 10**6, flags: int = codes.ALL_RULES):
    """The same on the cell-by-cell kernel."""
    solutions = np.zeros((limit, 81), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    code = variant.search(np.frombuffer(puzzle.cells, np.uint8), 9, puzzle.geometry.tables, limit, max_nodes, flags,
                          solutions, stats, np.zeros(1, np.int64))
    return code, stats, solutions


def _random_grid(geometry: Geometry, seed: int) -> np.ndarray:
    """A complete grid drawn by the generator's fill (random searches, restarted) on the digit-major kernel."""
    out = np.zeros(81, np.uint8)
    tables = variant81.board_tables(geometry)
    code, _ = fill_kernel(new_state(seed), 9, geometry.tables.units, geometry.tables.cell_units, tables, 10**6, out,
                          variant81.new_workspace(), np.zeros(1, np.int64))
    assert code == codes.LIMIT_REACHED, f"{geometry.name}: no random grid (status {code})"
    return out


@st.composite
def variant_puzzles(draw, min_blanks: int = 0, max_blanks: int = MAX_BLANKS) -> Grid:
    """A 9x9 variant puzzle: a random solution with min_blanks to max_blanks cells blanked and, sometimes, a digit or
    two written over cells (which may make it invalid, unsolvable or still fine)."""
    geometry = draw(st.sampled_from(GEOMETRIES))
    cells = _random_grid(geometry, draw(st.integers(0, 2**32)))
    for cell in draw(st.sets(st.integers(0, 80), min_size=min_blanks, max_size=max_blanks)):
        cells[cell] = 0
    if draw(st.booleans()):
        for _ in range(draw(st.integers(0, 2))):
            cells[draw(st.integers(0, 80))] = draw(st.integers(0, 9))
    return Grid(cells.tobytes(), Shape(3, 3), geometry)


@given(puzzle=variant_puzzles())
def test_counts_match_the_reference_engine_and_solutions_keep_the_rules(puzzle: Grid) -> None:
    expected = reference.search(puzzle, limit=3, max_nodes=10**7, keep=0)
    code, stats, solutions = _search81(puzzle)
    if expected.status.name == "INVALID":
        assert code == codes.INVALID
        return
    assert code != codes.INVALID
    found = int(stats[codes.STAT_SOLUTIONS])
    assert found == expected.count
    kept = {solutions[i].tobytes() for i in range(found)}
    assert len(kept) == found
    for cells in kept:
        assert puzzle.with_cells(cells).is_solution_of(puzzle)


@given(puzzle=variant_puzzles(max_blanks=64), flags=st.sampled_from(RULE_FLAGS))
def test_the_cell_by_cell_kernel_gives_the_same_search(puzzle: Grid, flags: int) -> None:
    # the same rules to the same fixpoint and the same branching: the same nodes, solutions in the same order
    # (sparse grids too, where the branching has choices to make; a spent budget is spent on the same nodes)
    code, stats, solutions = _search81(puzzle, flags=flags, max_nodes=20_000)
    twin_code, twin_stats, twin_solutions = _search_cells(puzzle, flags=flags, max_nodes=20_000)
    assert code == twin_code
    assert stats[SAME_STATS].tolist() == twin_stats[SAME_STATS].tolist()
    assert (solutions == twin_solutions).all()


def _branch_cell_by_hand(candidates: list[set[int]], empty: list[int], geometry: Geometry) -> int:
    """The branching rule written plainly: the first empty cell with the fewest candidates, but among the cells
    with the fewest candidates (two or more) the first with the highest score: each empty peer scores the digits
    it shares with the cell, each empty orthogonal neighbour (nonconsecutive) ``NEIGHBOUR_WEIGHT`` for each of
    its digits one above or below a digit of the cell (counted once for each such digit of the cell), both six
    times over for a peer or neighbour with two candidates; -1 when no cell is empty."""
    if not empty:
        return -1
    tables = geometry.tables
    fewest = min(len(candidates[cell]) for cell in empty)
    ties = [cell for cell in empty if len(candidates[cell]) == fewest]
    if fewest < 2:
        return ties[0]

    def weight(other: int) -> int:
        return 6 if len(candidates[other]) == 2 else 1

    def score(cell: int) -> int:
        peers = tables.peers[tables.peer_start[cell]:tables.peer_start[cell + 1]]
        neighbours = tables.adjacent[tables.adjacent_start[cell]:tables.adjacent_start[cell + 1]]
        by_peers = sum(len(candidates[cell] & candidates[peer]) * weight(peer) for peer in peers if peer in empty)
        by_neighbours = sum(weight(near) * sum(abs(d - e) == 1 for d in candidates[cell] for e in candidates[near])
                            for near in neighbours if near in empty)
        return by_peers + variant81.NEIGHBOUR_WEIGHT * by_neighbours

    return max(ties, key=lambda cell: (score(cell), -cell))


@given(puzzle=variant_puzzles(min_blanks=50, max_blanks=70))  # sparse: propagation leaves choices to make
def test_branching_takes_the_cell_whose_digits_its_peers_and_neighbours_hold_most(puzzle: Grid) -> None:
    # the rule both kernels share, against a plain rewrite of it
    tables = variant81.board_tables(puzzle.geometry)
    states = variant81.new_workspace()[0]
    nonconsecutive = variant81._has_rule(tables.adjacent)
    stats = np.zeros(codes.N_STATS, np.int64)
    if variant81._load_givens(states, np.frombuffer(puzzle.cells, np.uint8), tables, nonconsecutive) >= 0:
        return
    if not variant81._propagate(states, 0, codes.ALL_RULES, tables, nonconsecutive, stats):
        return
    candidates = [{d for d in range(9) if int(variant81._candidates(states, 0, cell)) >> d & 1} for cell in range(81)]
    empty = [cell for cell in range(81) if int(states[0, variant81.S_UNSOLVED + (cell >> 6)]) >> (cell & 63) & 1]
    expected = _branch_cell_by_hand(candidates, empty, puzzle.geometry)
    assert variant81._choose_cell(states, 0, 2, False, np.ones(1, np.uint64), tables, nonconsecutive) == expected
    # the cell-by-cell kernel's choice on the same candidates (a filled cell holds its digit as its value)
    cand = np.array([sum(1 << d for d in digits) for digits in candidates], np.uint64)
    value = np.array([0 if cell in empty else min(candidates[cell]) + 1 for cell in range(81)], np.uint8)
    assert variant._choose_cell(cand, value, 81, 2, False, np.ones(1, np.uint64), puzzle.geometry.tables) == expected


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: g.name)
def test_random_searches_make_the_draws_of_the_cell_by_cell_kernel(geometry: Geometry) -> None:
    # so a seed makes the same puzzles whichever kernel the generator runs (a search that spends its budget, as
    # nonconsecutive ones now and then do, spends it on the same nodes)
    for seed in range(3):
        grids, statuses = [], []
        for kernel in (variant, variant81):
            out = np.zeros((1, 81), np.uint8)
            stats = np.zeros(codes.N_STATS, np.int64)
            if kernel is variant:
                code = variant.search_in(variant.new_workspace(81), np.zeros(81, np.uint8), 9, geometry.tables, 1,
                                         2000, codes.ALL_RULES | codes.RANDOM_ORDER, out, stats, new_state(seed),
                                         np.zeros(0, np.uint8), -1, NO_STOP)
            else:
                code = variant81.search_in(variant81.new_workspace(), np.zeros(81, np.uint8),
                                           variant81.board_tables(geometry), 1, 2000,
                                           codes.ALL_RULES | codes.RANDOM_ORDER, out, stats, new_state(seed),
                                           np.zeros(0, np.uint8), -1, NO_STOP)
            grids.append(out[0])
            statuses.append((code, stats[SAME_STATS].tolist()))
        assert statuses[0] == statuses[1]
        assert (grids[0] == grids[1]).all()
        if statuses[0][0] == codes.LIMIT_REACHED:
            assert Grid(grids[1].tobytes(), Shape(3, 3), geometry).is_solved()


def test_the_generators_fill_runs_on_either_table_and_draws_the_same_grid() -> None:
    geometry = Geometry.jigsaw(JIGSAW_MAPS[0], rules=frozenset({"x"}))
    tables = geometry.tables
    grids = []
    for peers in (tables, variant81.board_tables(geometry)):
        out = np.zeros(81, np.uint8)
        code, _ = fill_kernel(new_state(5), 9, tables.units, tables.cell_units, peers, 10**5, out,
                              variant.workspace_for(9, peers), np.zeros(1, np.int64))
        assert code == codes.LIMIT_REACHED
        grids.append(out)
    assert (grids[0] == grids[1]).all()


def test_the_engine_and_the_generator_send_9x9_variants_here_and_other_sizes_to_the_cell_by_cell_kernel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    kernel = variant81.search
    monkeypatch.setattr(variant81, "search", lambda *args: calls.append(args) or kernel(*args))
    puzzle = Grid.empty("3x3").with_geometry("windoku+anti-king")  # X and Windoku alone: kernels/extra9.py
    assert bitmask.search(puzzle, limit=1, max_nodes=10**4, keep=1).solution.is_solution_of(puzzle)
    assert len(calls) == 1
    bitmask.search(Grid.empty("2x3").with_geometry("x"), limit=1, max_nodes=10**4, keep=0)
    bitmask.search(Grid.empty("3x3"), limit=1, max_nodes=10**4, keep=0)
    assert len(calls) == 1
    assert isinstance(bitmask.geometry_kernel_tables(puzzle.geometry)[2], variant81.Tables81)
    assert not isinstance(bitmask.geometry_kernel_tables(Geometry.parse("x", "2x3"))[2], variant81.Tables81)


def test_the_node_budget_stops_the_search() -> None:
    empty = Grid.empty("3x3").with_geometry("nonconsecutive")
    code, stats, _ = _search81(empty, limit=10**6, max_nodes=50, keep=0)
    assert code == codes.BUDGET_EXHAUSTED
    assert stats[codes.STAT_NODES] == 50


def test_a_set_stop_flag_returns_stopped_at_once() -> None:
    empty = Grid.empty("3x3").with_geometry("x")
    code, stats, _ = _search81(empty, limit=10**6, stop=np.ones(1, np.int64), keep=0)
    assert code == codes.STOPPED
    assert stats[codes.STAT_NODES] == 0


def test_a_stop_flag_set_from_another_thread_ends_a_long_search() -> None:
    # counting the solutions of the empty anti-king grid takes far longer than the test; the flag ends it
    stop = np.zeros(1, np.int64)
    result = []
    empty = Grid.empty("3x3").with_geometry("anti-king")
    worker = threading.Thread(target=lambda: result.append(_search81(empty, limit=10**12, max_nodes=10**12,
                                                                      stop=stop, keep=0)))
    worker.start()
    worker.join(0.2)
    stop[0] = 1
    worker.join(10)
    assert not worker.is_alive()
    code, stats, _ = result[0]
    assert code == codes.STOPPED
    assert stats[codes.STAT_NODES] > 1


@pytest.mark.parametrize(
    ("variant_name", "cells"),
    [
        ("x", {0: 5, 80: 5}),  # the main diagonal twice
        ("windoku", {10: 3, 30: 3}),  # window 1 twice (r2c2, r4c4)
        ("anti-knight", {0: 7, 11: 7}),  # r1c1 and r2c3, a knight's move apart
        ("anti-king", {0: 2, 10: 2}),  # r1c1 and r2c2, a king's move apart
        ("nonconsecutive", {40: 4, 41: 5}),  # 4 beside 5
        ("nonconsecutive", {40: 6, 31: 5}),  # 5 above 6
        ("x", {40: 10}),  # out of range
        ("jigsaw", {0: 1, 9: 1}),  # region A twice (r1c1, r2c1)
        ("x", {64: 4, 72: 4}),  # column 1 twice, in the second word of the masks
    ],
)
def test_conflicting_givens_are_invalid(variant_name: str, cells: dict[int, int]) -> None:
    values = np.zeros(81, np.uint8)
    for cell, digit in cells.items():
        values[cell] = digit
    geometry = Geometry.jigsaw(JIGSAW_MAPS[0]) if variant_name == "jigsaw" else Geometry.parse(variant_name)
    puzzle = Grid(values.tobytes(), Shape(3, 3), geometry)
    assert _search81(puzzle)[0] == codes.INVALID
    assert bitmask.search(puzzle, limit=2, max_nodes=100, keep=0).status.name == "INVALID"


def test_a_cell_that_the_givens_leave_empty_handed_is_a_contradiction() -> None:
    # r1c1 sees 1..4 in its row, 5..7 in its column, 8 on the main diagonal, 9 a knight's move away: no digit left
    values = np.zeros(81, np.uint8)
    for cell, digit in {1: 1, 2: 2, 3: 3, 4: 4, 18: 5, 36: 6, 54: 7, 80: 8, 19: 9}.items():
        values[cell] = digit
    puzzle = Grid(values.tobytes(), Shape(3, 3), Geometry.parse("x+anti-knight"))
    assert puzzle.is_valid()
    code, stats, _ = _search81(puzzle)
    assert code == codes.CONTRADICTION
    assert stats[codes.STAT_NODES] == 0


def test_count_many_gives_each_row_what_search_gives_it() -> None:
    geometry = Geometry.parse("windoku+anti-king")
    rows = []
    for seed in range(5):
        cells = _random_grid(geometry, seed)
        cells[np.random.default_rng(seed).choice(81, 50 + seed, replace=False)] = 0
        rows.append(cells)
    rows.append(np.full(81, 1, np.uint8))  # invalid
    puzzles = np.stack(rows)
    statuses, counts, nodes = (np.zeros(len(rows), np.int64) for _ in range(3))
    variant81.count_many(puzzles, variant81.board_tables(geometry), 2, 10**6, codes.ALL_RULES, statuses, counts,
                         nodes, np.zeros(1, np.int64))
    for row, cells in enumerate(puzzles):
        code, stats, _ = _search81(Grid(cells.tobytes(), Shape(3, 3), geometry), limit=2)
        assert (statuses[row], counts[row], nodes[row]) == (code, stats[codes.STAT_SOLUTIONS], stats[codes.STAT_NODES])
    assert statuses[-1] == codes.INVALID


def test_only_9x9_geometries_have_board_tables() -> None:
    with pytest.raises(ValueError, match="9x9"):
        variant81.board_tables(Geometry.parse("x", "2x3"))


NONCONSECUTIVE_GEOMETRIES = [g for g in GEOMETRIES if "nonconsecutive" in g.rules]


@pytest.mark.parametrize(("places", "losers"), [({0, 2}, {1}), ({0, 1}, {0, 1}), ({1, 9}, {0, 10}),
                                                ({0, 1, 2}, {1}), ({0, 4}, set())])
def test_a_digit_whose_places_share_a_neighbourhood_takes_the_consecutive_digits_from_it(
        places: set[int], losers: set[int]) -> None:
    # digit 5 (index 4) may only go to ``places`` in a unit: wherever it goes, each cell of ``losers`` is it or
    # beside it, so those cells lose 4 and 6 on both kernels (cells 0..2 are r1c1..r1c3, 9 and 10 r2c1, r2c2)
    geometry = Geometry.parse("nonconsecutive")
    states = variant81.new_workspace()[0]
    states[0, :] = 0
    for digit in range(9):
        states[0, 2 * digit], states[0, 2 * digit + 1] = ~np.uint64(0), np.uint64(variant81.HIGH_FULL)
    x0 = np.uint64(sum(1 << cell for cell in places))
    assert variant81._adjacent_places(states, 0, 4, x0, np.uint64(0), variant81.board_tables(geometry).adjacent) \
        == bool(losers)
    lost = {cell for cell in range(81) for digit in (3, 5)
            if not int(states[0, 2 * digit + (cell >> 6)]) >> (cell & 63) & 1}
    assert lost == losers
    assert all(int(states[0, 2 * digit]) == 2**64 - 1 for digit in (0, 1, 2, 4, 6, 7, 8))
    # the cell-by-cell kernel: the same unit as its positions (row 1 holds cells 0..8, column 1 cells 0, 9, ...)
    tables = geometry.tables
    unit = next(u for u in range(tables.units.shape[0]) if places <= set(tables.units[u].tolist()))
    cand = np.full(81, 0x1FF, np.uint64)
    value = np.zeros(81, np.uint8)
    spots = np.uint64(sum(1 << tables.units[unit].tolist().index(cell) for cell in places))
    sees = variant.peer_sets(9, tables)
    queued, struck = variant._adjacent_places(cand, value, np.zeros(81, np.int32), 0, tables.units[unit], spots,
                                              np.uint64(1 << 4), 9, sees, 81 + tables.units.shape[0])
    assert (queued, struck) == (0, bool(losers))
    assert {cell for cell in range(81) if cand[cell] != 0x1FF} == losers
    assert all(int(cand[cell]) == 0x1FF & ~(1 << 3 | 1 << 5) for cell in losers)


@given(geometry=st.sampled_from(NONCONSECUTIVE_GEOMETRIES), seed=st.integers(0, 2**32),
       blanks=st.sets(st.integers(0, 80), min_size=40, max_size=81))
def test_propagation_keeps_every_digit_of_a_solution(geometry: Geometry, seed: int, blanks: set[int]) -> None:
    # every rule, the neighbourhood rule included, only removes digits no solution has: a grid's digits stay
    # candidates of its blanked cells through the fixpoint, and the fixpoint is no contradiction
    solution = _random_grid(geometry, seed)
    cells = solution.copy()
    cells[list(blanks)] = 0
    tables = variant81.board_tables(geometry)
    states = variant81.new_workspace()[0]
    assert variant81._load_givens(states, cells, tables, True) < 0
    assert variant81._propagate(states, 0, codes.ALL_RULES, tables, True, np.zeros(codes.N_STATS, np.int64))
    for cell in range(81):
        assert int(variant81._candidates(states, 0, cell)) >> (int(solution[cell]) - 1) & 1


@given(cells=st.sets(st.integers(0, 80), max_size=81))
def test_the_cells_beside_a_set_are_its_cells_neighbours_in_the_table(cells: set[int]) -> None:
    # ``_consecutive_support`` shifts the set by a row and a column instead of ORing the table's rows
    adjacent = variant81.board_tables(Geometry.parse("nonconsecutive")).adjacent
    x = sum(1 << cell for cell in cells)
    beside0, beside1 = variant81._beside(np.uint64(x & (2**64 - 1)), np.uint64(x >> 64))
    expected = 0
    for cell in cells:
        expected |= int(adjacent[cell, 0]) | int(adjacent[cell, 1]) << 64
    assert int(beside0) | int(beside1) << 64 == expected
