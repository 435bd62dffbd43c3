"""The compiled variant kernel (``kernels/variant.py``) against the reference engine, every variant and shape."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.strategies import puzzles as classic_puzzles

from bitdoku import Grid, Shape
from bitdoku.engines import bitmask, reference
from bitdoku.geometry import Geometry
from bitdoku.kernels import status as codes
from bitdoku.kernels.rng import new_state
from bitdoku.kernels.variant import START_DEPTH, count_many, new_workspace, search, search_in

# Region maps drawn once by ``generate.regions.random_jigsaw`` (seeds 0, 1, 2; for 4x4 seeds 0 and 1, the boxes and
# one by hand), written out so that these tests do not depend on the map generator.
JIGSAW_MAPS = {
    Shape(2, 2): ["AABBAABBCCDDCCDD", "BBBABAAADDDCDCCC", "ADDCADDCAACCBBBB", "AABBAABCCDBCDDDC"],
    Shape(2, 3): ["EEEBBBEAABBBEEAFFFCAADDFCCADDFCCCDDF", "AAAAAAEEEEBBECBBBDECCCBDCCFDDDFFFFFD",
                  "BBBBBBAAAAAAEEEDDFECEDDFECCDDFCCCFFF"],
    Shape(3, 3): ["AABBBBCCCAAAEEBBCCDDAEEBCCFGDAAEBCCFGDDAEBIFFGGDEEIIFFGDDEHHIIFGDHHHHIFFGGGHHHIII",
                  "AAAAACCCCADBBBBBCFADDBBEBCFADGEBECCFADGEEEECFDDGEHHHFFDDGEHHIIFGGGHHIIFFGGHHIIIII",
                  "ACCCCCCCCAAAABBBBCADAABBFBBDDDABFFFFDDDEEFEEFDDEEEEEFFGGGGGGHHIGHHHHHHHIGGIIIIIII"],
}
RULE_SETS = ["x", "windoku", "anti-knight", "anti-king", "nonconsecutive", "x+anti-king", "windoku+anti-knight",
             "x+nonconsecutive"]


def _geometries(shape: Shape) -> list[Geometry]:
    found = [Geometry.parse(name, shape) for name in RULE_SETS]
    found += [Geometry.jigsaw(region_map, shape) for region_map in JIGSAW_MAPS[shape]]
    found += [Geometry.jigsaw(JIGSAW_MAPS[shape][1], shape, rules=frozenset({"x"})),
              Geometry.jigsaw(JIGSAW_MAPS[shape][0], shape, rules=frozenset({"anti-king"}))]
    return found


GEOMETRIES = [geometry for shape in JIGSAW_MAPS for geometry in _geometries(shape)]
#: The most blanks a 9x9 puzzle may have here: the reference engine (the oracle) is slow on sparse 9x9 grids.
MAX_BLANKS_9 = 48


def _kernel(puzzle: Grid, tables=None, limit: int = 3, max_nodes: int = 10**6, flags: int = codes.ALL_RULES):
    """Run the variant kernel directly; (status, stats, solutions as Grids)."""
    geometry = puzzle.geometry
    solutions = np.zeros((limit, puzzle.shape.n_cells), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    code = search(np.frombuffer(puzzle.cells, np.uint8), puzzle.n, geometry.tables if tables is None else tables,
                  limit, max_nodes, flags, solutions, stats, np.zeros(1, np.int64))
    found = min(int(stats[codes.STAT_SOLUTIONS]), limit)
    return code, stats, [puzzle.with_cells(solutions[i].tobytes()) for i in range(found)]


def _random_solution(geometry: Geometry, seed: int) -> Grid | None:
    """A complete grid of the geometry drawn by the kernel's random search, or None if it has none."""
    n_cells = geometry.shape.n_cells
    out = np.zeros((1, n_cells), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    for attempt in range(4):  # a random search has a heavy tail: a few fresh draws, not an empty 9x9 grid
        code = search_in(new_workspace(n_cells), np.zeros(n_cells, np.uint8), geometry.shape.n, geometry.tables, 1,
                         10**5, codes.ALL_RULES | codes.RANDOM_ORDER, out, stats, new_state(seed + attempt),
                         np.zeros(0, np.uint8), -1, np.zeros(1, np.int64))
        if code == codes.LIMIT_REACHED:
            return Grid(out[0].tobytes(), geometry.shape, geometry)
        if code != codes.BUDGET_EXHAUSTED:
            return None  # the geometry has no complete grid
    return None


@st.composite
def variant_puzzles(draw) -> Grid:
    """A variant puzzle: a random solution of a random geometry with cells blanked and, sometimes, a digit or two
    written over cells (which may make it invalid, unsolvable or still fine)."""
    geometry = draw(st.sampled_from(GEOMETRIES))
    n, n_cells = geometry.shape.n, geometry.shape.n_cells
    solution = _random_solution(geometry, draw(st.integers(0, 2**32)))
    cells = list(solution.cells) if solution is not None else [0] * n_cells
    most = MAX_BLANKS_9 if n == 9 else n_cells
    for cell in draw(st.sets(st.integers(0, n_cells - 1), max_size=most)):
        cells[cell] = 0
    if solution is None or draw(st.booleans()):
        for _ in range(draw(st.integers(0, 2))):
            cells[draw(st.integers(0, n_cells - 1))] = draw(st.integers(0, n))
    return Grid(bytes(cells), geometry.shape, geometry)


@given(puzzle=variant_puzzles())
def test_counts_match_the_reference_engine_and_solutions_keep_the_rules(puzzle: Grid) -> None:
    expected = reference.search(puzzle, limit=3, max_nodes=10**7, keep=0)
    code, stats, solutions = _kernel(puzzle)
    if expected.status.name == "INVALID":
        assert code == codes.INVALID
        return
    assert code != codes.INVALID
    if expected.status.name == "LIMIT":
        # The oracle ran out of nodes (an empty 9x9 jigsaw, drawn when the random fill above spent its budget, can
        # take the cell-order reference more than 10 million): the kernel must still find what it found.
        assert int(stats[codes.STAT_SOLUTIONS]) >= expected.count
    else:
        assert int(stats[codes.STAT_SOLUTIONS]) == expected.count
    assert len(set(solutions)) == len(solutions)
    for solution in solutions:
        assert solution.is_solution_of(puzzle)


@given(puzzle=variant_puzzles())
def test_the_engine_runs_variants_on_the_kernel_with_the_same_answer(puzzle: Grid) -> None:
    result = bitmask.search(puzzle, limit=2, max_nodes=10**6, keep=2)
    code, stats, solutions = _kernel(puzzle, limit=2)
    assert result.status == bitmask.public_status(code, int(stats[codes.STAT_SOLUTIONS]), 2)
    assert result.count == int(stats[codes.STAT_SOLUTIONS])
    assert result.stats.nodes == int(stats[codes.STAT_NODES])
    assert list(result.solutions) == solutions
    assert all(solution.geometry == puzzle.geometry for solution in result.solutions)


@given(puzzle=classic_puzzles(shapes=[Shape(2, 2), Shape(2, 3), Shape(3, 3)], max_blanks=0.75))
def test_classic_tables_through_the_variant_kernel_match_the_classic_engine(puzzle: Grid) -> None:
    classic = bitmask.search(puzzle, limit=3, max_nodes=10**6, keep=3)
    code, stats, solutions = _kernel(puzzle, tables=Geometry.classic(puzzle.shape).tables)
    if classic.status.name == "INVALID":
        assert code == codes.INVALID
        return
    assert int(stats[codes.STAT_SOLUTIONS]) == classic.count
    if classic.count < 3:  # every solution found: the same set
        assert sorted(s.cells for s in solutions) == sorted(s.cells for s in classic.solutions)
    else:  # the first 3 of more: which ones depends on each kernel's branching, which differs (pair scores)
        assert len({s.cells for s in solutions}) == 3 and all(s.is_solution_of(puzzle) for s in solutions)


def test_hard_classic_puzzles_give_the_classic_answers_through_the_variant_kernel() -> None:
    from importlib.resources import files

    lines = files("bitdoku.data").joinpath("top1465_sample.txt").read_text().split()
    tables = Geometry.classic("3x3").tables
    for line in [line for line in lines if len(line) == 81][:20]:
        puzzle = Grid.parse(line)
        classic = bitmask.search(puzzle, limit=2, max_nodes=10**6, keep=1)
        code, stats, solutions = _kernel(puzzle, tables=tables, limit=2)
        assert (code, int(stats[codes.STAT_SOLUTIONS])) == (codes.COMPLETE, 1) == (codes.COMPLETE, classic.count)
        assert solutions == list(classic.solutions)


@pytest.mark.parametrize("flags", [0, codes.NAKED_SINGLES, codes.HIDDEN_SINGLES, codes.ALL_RULES])
def test_every_rule_combination_counts_the_same(flags: int) -> None:
    geometry = Geometry.jigsaw(JIGSAW_MAPS[Shape(2, 2)][3], rules=frozenset({"x"}))
    empty = Grid.empty("2x2").with_geometry(geometry)
    expected = reference.search(empty, limit=10**4, max_nodes=10**7, keep=0).count
    code, stats, _ = _kernel(empty, limit=10**4, flags=flags)
    assert code == codes.COMPLETE
    assert stats[codes.STAT_SOLUTIONS] == expected > 0


@pytest.mark.parametrize(
    ("variant", "cells"),
    [
        ("x", {0: 5, 80: 5}),  # the main diagonal twice
        ("windoku", {10: 3, 30: 3}),  # window 1 twice (r2c2, r4c4)
        ("anti-knight", {0: 7, 11: 7}),  # r1c1 and r2c3, a knight's move apart
        ("anti-king", {0: 2, 10: 2}),  # r1c1 and r2c2, a king's move apart
        ("nonconsecutive", {40: 4, 41: 5}),  # 4 beside 5
        ("nonconsecutive", {40: 10}),  # out of range
    ],
)
def test_conflicting_givens_are_invalid(variant: str, cells: dict[int, int]) -> None:
    values = [0] * 81
    for cell, digit in cells.items():
        values[cell] = digit
    puzzle = Grid(bytes(values), Shape(3, 3), Geometry.parse(variant))
    assert _kernel(puzzle)[0] == codes.INVALID
    assert bitmask.search(puzzle, limit=2, max_nodes=100, keep=0).status.name == "INVALID"


def test_a_cell_that_the_givens_leave_empty_handed_is_a_contradiction() -> None:
    # r1c1 sees 1..4 in its row, 5..7 in its column, 8 on the main diagonal, 9 a knight's move away: no digit left
    values = [0] * 81
    for cell, digit in {1: 1, 2: 2, 3: 3, 4: 4, 18: 5, 36: 6, 54: 7, 80: 8, 19: 9}.items():
        values[cell] = digit
    puzzle = Grid(bytes(values), Shape(3, 3), Geometry.parse("x+anti-knight"))
    assert puzzle.is_valid()
    code, stats, _ = _kernel(puzzle)
    assert code == codes.CONTRADICTION
    assert stats[codes.STAT_NODES] == 0
    result = bitmask.search(puzzle, limit=2, max_nodes=100, keep=0)
    assert result.status.name == "NO_SOLUTION" and "r1c1" in result.reason


def test_the_node_budget_stops_the_search() -> None:
    empty = Grid.empty("3x3").with_geometry("nonconsecutive")
    code, stats, _ = _kernel(empty, limit=10**6, max_nodes=50)
    assert code == codes.BUDGET_EXHAUSTED
    assert stats[codes.STAT_NODES] == 50
    result = bitmask.search(empty, limit=10**6, max_nodes=50, keep=0)
    assert result.status.name == "LIMIT" and "50" in result.reason


def test_the_stack_grows_past_its_first_levels() -> None:
    # without rules every empty cell is a branch point: 36 open frames on 6x6, more than START_DEPTH levels
    empty = Grid.empty("2x3").with_geometry("x")
    code, stats, solutions = _kernel(empty, limit=1, flags=0)
    assert code == codes.LIMIT_REACHED
    assert stats[codes.STAT_MAX_DEPTH] == 36 > START_DEPTH
    assert solutions[0].is_solution_of(empty)


def test_a_64x64_grid_uses_all_64_digits() -> None:
    # no variant fits the 64x64 pattern grid (jigsaw symbols stop at 62), so the classic tables carry N = 64 here
    solution = Grid.pattern("8x8")
    cells = bytearray(solution.cells)
    for cell in range(0, len(cells), 37):
        cells[cell] = 0
    puzzle = Grid(bytes(cells), solution.shape)
    code, stats, solutions = _kernel(puzzle, tables=Geometry.classic("8x8").tables, limit=2)
    assert (code, int(stats[codes.STAT_SOLUTIONS])) == (codes.COMPLETE, 1)
    assert solutions == [solution]


def test_count_many_gives_each_row_what_search_gives_it() -> None:
    geometry = Geometry.parse("windoku")
    rows = []
    for seed in range(6):
        cells = bytearray(_random_solution(geometry, seed).cells)
        for cell in np.random.default_rng(seed).choice(81, 50 + seed, replace=False):
            cells[cell] = 0
        rows.append(np.frombuffer(bytes(cells), np.uint8))
    rows.append(np.full(81, 1, np.uint8))  # invalid
    puzzles = np.stack(rows)
    statuses, counts, nodes = (np.zeros(len(rows), np.int64) for _ in range(3))
    count_many(puzzles, 9, geometry.tables, 2, 10**6, codes.ALL_RULES, statuses, counts, nodes, np.zeros(1, np.int64))
    for row, cells in enumerate(puzzles):
        code, stats, _ = _kernel(Grid(cells.tobytes(), geometry.shape, geometry), limit=2)
        assert (statuses[row], counts[row], nodes[row]) == (code, stats[codes.STAT_SOLUTIONS], stats[codes.STAT_NODES])
    assert statuses[-1] == codes.INVALID
