"""The search kernels against a slow, obvious brute-force counter, on random puzzles of several shapes.

``naive_count`` below is the oracle: plain Python backtracking over row, column and box masks, written to be
read, not to be fast. Every kernel and every rule combination must agree with it (counts up to a limit), and
every solution a kernel returns must be valid and keep the givens.
"""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitdoku.kernels import status as S
from bitdoku.kernels.batch import search_rows
from bitdoku.kernels.dfs import search, search_generic
from bitdoku.shape import Shape

SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4)]
MAX_BLANKS = {4: 16, 6: 36, 9: 60, 16: 90}


def naive_count(cells, shape, limit):
    """Count solutions up to ``limit`` by backtracking; 0 when the givens repeat a digit in a unit."""
    n, rows, cols = shape.n, shape.box_rows, shape.box_cols
    grid = [int(v) for v in cells]
    used = [[0] * n, [0] * n, [0] * n]

    def units_of(cell):
        r, c = divmod(cell, n)
        return r, c, (r // rows) * rows + c // cols

    for cell, v in enumerate(grid):
        if v:
            if v > n:
                return 0
            for kind, unit in enumerate(units_of(cell)):
                if used[kind][unit] >> v & 1:
                    return 0
                used[kind][unit] |= 1 << v
    found = 0

    def solve():
        nonlocal found
        best, best_options = None, None
        for cell, v in enumerate(grid):
            if v == 0:
                r, c, b = units_of(cell)
                taken = used[0][r] | used[1][c] | used[2][b]
                options = [d for d in range(1, n + 1) if not taken >> d & 1]
                if best is None or len(options) < len(best_options):
                    best, best_options = cell, options
        if best is None:
            found += 1
            return found >= limit
        units = units_of(best)
        for d in best_options:
            grid[best] = d
            for kind, unit in enumerate(units):
                used[kind][unit] |= 1 << d
            stop = solve()
            for kind, unit in enumerate(units):
                used[kind][unit] &= ~(1 << d)
            grid[best] = 0
            if stop:
                return True
        return False

    solve()
    return found


def is_solution(solution, puzzle, shape):
    """Every unit holds each digit once and every given is kept (Norvig's check)."""
    digits = list(range(1, shape.n + 1))
    units_ok = all(sorted(solution[unit].tolist()) == digits for unit in shape.tables.units)
    givens = puzzle != 0
    return units_ok and bool(np.all(solution[givens] == puzzle[givens]))


def random_grid(shape, rng):
    """A random valid grid: a box pattern with digits, rows in bands, bands, columns in stacks and stacks shuffled."""
    r, c, n = shape.box_rows, shape.box_cols, shape.n
    digits = rng.sample(range(1, n + 1), n)
    bands = rng.sample(range(c), c)
    row_order = [band * r + i for band in bands for i in rng.sample(range(r), r)]
    stacks = rng.sample(range(r), r)
    col_order = [stack * c + j for stack in stacks for j in rng.sample(range(c), c)]
    grid = [[digits[(c * (row % r) + row // r + col) % n] for col in col_order] for row in row_order]
    return np.array(grid, dtype=np.uint8).ravel()


@st.composite
def puzzles(draw, shapes=tuple(SHAPES)):
    """(shape, puzzle): a random grid with cells blanked and, sometimes, a few random digits written over it."""
    shape = draw(st.sampled_from(shapes))
    rng = random.Random(draw(st.integers(0, 2**32)))
    cells = random_grid(shape, rng)
    blanks = draw(st.integers(0, MAX_BLANKS[shape.n]))
    cells[rng.sample(range(shape.n_cells), blanks)] = 0
    for _ in range(draw(st.integers(0, 3)) if draw(st.booleans()) else 0):
        cells[rng.randrange(shape.n_cells)] = rng.randint(1, shape.n)
    return shape, cells


def run_search(puzzle, shape, flags=S.ALL_RULES, limit=3, keep=3, max_nodes=10**6, kernel=search):
    """Call a search kernel with fresh out-arrays: (status, stats, solutions)."""
    tables = shape.tables
    solutions = np.zeros((keep, shape.n_cells), np.uint8)
    stats = np.zeros(S.N_STATS, np.int64)
    code = kernel(puzzle, shape.n, tables.units, tables.cell_units, tables.peers, limit, max_nodes, flags,
                  solutions, stats, np.zeros(1, np.int64))
    return code, stats, solutions


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=puzzles())
def test_counts_match_naive_and_solutions_are_valid(case):
    shape, puzzle = case
    expected = naive_count(puzzle, shape, 3)
    code, stats, solutions = run_search(puzzle, shape)
    assert stats[S.STAT_SOLUTIONS] == expected
    assert code == (S.LIMIT_REACHED if expected == 3 else code)
    if expected < 3:
        assert code in (S.COMPLETE, S.INVALID, S.CONTRADICTION)
    if code in (S.INVALID, S.CONTRADICTION):
        assert expected == 0
    for solution in solutions[:expected]:
        assert is_solution(solution, puzzle, shape)
    assert len({bytes(s) for s in solutions[:expected]}) == expected


@settings(max_examples=120, deadline=None)
@given(case=puzzles())
def test_every_rule_combination_gives_the_same_counts(case):
    shape, puzzle = case
    reference = run_search(puzzle, shape, flags=0, kernel=search_generic)
    for flags in range(16 if shape.n == 9 else 8):
        code, stats, solutions = run_search(puzzle, shape, flags=flags)
        assert (code, stats[S.STAT_SOLUTIONS]) == (reference[0], reference[1][S.STAT_SOLUTIONS]), flags
        for solution in solutions[: stats[S.STAT_SOLUTIONS]]:
            assert is_solution(solution, puzzle, shape)


def test_empty_4x4_grid_has_288_solutions():
    shape = Shape(2, 2)
    for flags in range(8):
        code, stats, _ = run_search(np.zeros(16, np.uint8), shape, flags=flags, limit=1000, keep=0)
        assert code == S.COMPLETE
        assert stats[S.STAT_SOLUTIONS] == 288


def test_solutions_come_back_distinct_and_valid_up_to_the_array_size():
    shape = Shape(2, 2)
    code, _stats, solutions = run_search(np.zeros(16, np.uint8), shape, limit=1000, keep=300)
    assert code == S.COMPLETE
    assert len({bytes(s) for s in solutions[:288]}) == 288
    assert all(is_solution(s, np.zeros(16, np.uint8), shape) for s in solutions[:288])
    assert not solutions[288:].any()


@pytest.mark.parametrize("flags", [S.ALL_RULES, S.ALL_RULES | S.GENERIC_ONLY, 0])
def test_duplicate_givens_are_invalid(flags):
    shape = Shape(3, 3)
    with open("/work/shared/data/sudopedia_duplicate_givens.txt") as f:
        lines = f.read().split()
    for line in lines:
        puzzle = np.array([0 if ch == "." else int(ch) for ch in line], np.uint8)
        code, stats, _ = run_search(puzzle, shape, flags=flags)
        assert code == S.INVALID
        assert stats[S.STAT_SOLUTIONS] == 0


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(3, 3), Shape(2, 5)])
@pytest.mark.parametrize("generic", [False, True])
def test_out_of_range_digit_is_invalid(shape, generic):
    puzzle = np.zeros(shape.n_cells, np.uint8)
    puzzle[5] = shape.n + 1
    code, _, _ = run_search(puzzle, shape, flags=S.ALL_RULES | (S.GENERIC_ONLY if generic else 0))
    assert code == S.INVALID


@pytest.mark.parametrize("generic", [False, True])
def test_a_cell_without_candidates_is_a_contradiction(generic):
    shape = Shape(3, 3)
    puzzle = np.zeros(81, np.uint8)
    puzzle[1:9] = np.arange(1, 9)  # r1c1 sees 1..8 in its row
    puzzle[9 * 4] = 9  # and 9 in its column
    code, stats, _ = run_search(puzzle, shape, flags=S.ALL_RULES | (S.GENERIC_ONLY if generic else 0))
    assert code == S.CONTRADICTION
    assert stats[S.STAT_SOLUTIONS] == 0


@pytest.mark.parametrize("generic", [False, True])
def test_sudopedia_cases_have_their_published_counts(generic):
    shape = Shape(3, 3)
    flags = S.ALL_RULES | (S.GENERIC_ONLY if generic else 0)
    for name, expected in [("multisolution", 2), ("nosolution", 0), ("valid_edgecases", 1)]:
        with open(f"/work/shared/data/sudopedia_{name}.txt") as f:
            for line in f.read().split():
                puzzle = np.array([0 if ch == "." else int(ch) for ch in line], np.uint8)
                code, stats, solutions = run_search(puzzle, shape, flags=flags, limit=2)
                assert stats[S.STAT_SOLUTIONS] == expected, line
                assert code in ((S.LIMIT_REACHED,) if expected == 2 else (S.COMPLETE, S.CONTRADICTION))
                for solution in solutions[:expected]:
                    assert is_solution(solution, puzzle, shape)


@pytest.mark.parametrize("shape", [Shape(5, 5), Shape(8, 8)])
def test_node_budget_stops_an_almost_empty_big_grid(shape):
    puzzle = np.zeros(shape.n_cells, np.uint8)
    puzzle[0] = shape.n  # the top digit: bit 63 of the masks on 64x64
    puzzle[shape.n_cells - 1] = 1
    code, stats, _ = run_search(puzzle, shape, max_nodes=50, limit=1)
    assert code == S.BUDGET_EXHAUSTED
    assert stats[S.STAT_NODES] == 50
    assert stats[S.STAT_SOLUTIONS] == 0


def test_a_64x64_grid_with_blanks_is_solved_with_all_64_digits():
    shape = Shape(8, 8)
    rng = random.Random(64)
    grid = random_grid(shape, rng)
    puzzle = grid.copy()
    puzzle[rng.sample(range(shape.n_cells), 600)] = 0
    code, _stats, solutions = run_search(puzzle, shape, limit=1, keep=1)
    assert code == S.LIMIT_REACHED
    assert is_solution(solutions[0], puzzle, shape)
    assert solutions[0].max() == 64


def test_specialised_and_generic_9x9_agree_on_hard_puzzles():
    shape = Shape(3, 3)
    with open("/work/shared/data/norvig_top95.txt") as f:
        lines = f.read().split()[:30]
    for line in lines:
        puzzle = np.array([0 if ch == "." else int(ch) for ch in line], np.uint8)
        fast = run_search(puzzle, shape, limit=2)
        slow = run_search(puzzle, shape, flags=S.ALL_RULES | S.GENERIC_ONLY, limit=2)
        assert fast[1][S.STAT_SPECIALISED] == 1 and slow[1][S.STAT_SPECIALISED] == 0
        assert fast[0] == slow[0] == S.COMPLETE
        assert fast[1][S.STAT_SOLUTIONS] == slow[1][S.STAT_SOLUTIONS] == 1
        assert np.array_equal(fast[2][0], slow[2][0])
        assert is_solution(fast[2][0], puzzle, shape)


def test_a_nonstandard_units_table_keeps_9x9_off_the_specialised_kernel():
    shape = Shape(3, 3)
    tables = shape.tables
    units = tables.units.copy()
    units[[0, 1]] = units[[1, 0]]  # same geometry, the first two rows numbered the other way round
    cell_units = tables.cell_units.copy()
    cell_units[:18, 0] = 1 - cell_units[:18, 0]
    stats = np.zeros(S.N_STATS, np.int64)
    code = search(np.zeros(81, np.uint8), 9, units, cell_units, tables.peers, 1, 1000, S.ALL_RULES,
                  np.zeros((1, 81), np.uint8), stats)
    assert code == S.LIMIT_REACHED
    assert stats[S.STAT_SPECIALISED] == 0


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 3)])
def test_search_rows_matches_searching_each_row_alone(shape):
    rng = random.Random(7)
    batch = []
    for i in range(150):
        cells = random_grid(shape, rng)
        cells[rng.sample(range(shape.n_cells), shape.n_cells * 2 // 3)] = 0
        if i % 17 == 3:  # a duplicate given in row 1
            cells[0] = cells[1] = 1
        batch.append(cells)
    batch = np.array(batch)
    tables = shape.tables
    solutions, status = np.zeros_like(batch), np.zeros(len(batch), np.int8)
    stats = np.zeros((len(batch), S.N_STATS), np.int64)
    search_rows(batch, shape.n, tables.units, tables.cell_units, tables.peers, 2, 10**5, S.ALL_RULES,
                solutions, status, stats)
    assert set(status[3::17]) == {S.INVALID}
    for row, code in enumerate(status):
        single = run_search(batch[row], shape, limit=2, keep=1)
        assert code == single[0]
        assert np.array_equal(stats[row], single[1])
        if code in (S.COMPLETE, S.LIMIT_REACHED) and stats[row, S.STAT_SOLUTIONS] > 0:
            assert np.array_equal(solutions[row], single[2][0])
            assert is_solution(solutions[row], batch[row], shape)
