"""The bitboard kernel (``boards``) against the cell-by-cell kernel and a brute-force counter.

Three kernels search grids of every box shape: the cell-by-cell one (``GENERIC_ONLY``, with the incremental
unit queue and its full-scan twin ``FULL_SCAN``) and the bitboard one. With hidden singles on they reach the same
fixpoint at every node and choose the same branching cells, so they must agree on everything: status, solution
count, node count and the solutions themselves. The restarted first-solution search visits other nodes, so it
is checked against the brute-force counter instead: it must never report a wrong solution or a false "none".
"""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit
from tests.kernels.test_kernels_search import is_solution, naive_count, random_grid

from bitdoku.kernels import boards
from bitdoku.kernels import status as S
from bitdoku.kernels.boards import _propagate, _scratch, first_solution, is_box_geometry, search_boards
from bitdoku.kernels.dfs import search_generic
from bitdoku.kernels.restarts import luby
from bitdoku.kernels.rng import new_state
from bitdoku.shape import Shape

BOX_SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(2, 4), Shape(4, 2), Shape(3, 4),
              Shape(4, 3), Shape(4, 4)]
SMALL_SHAPES = BOX_SHAPES[:6]


# The kernel's helpers are inlined into compiled code and have no Python entry point (``kernels.jit.inlined``):
# the tests call them through these compiled wrappers.


@njit
def state_words(n):
    return boards.state_words(n)


@njit
def _placed(n):
    return boards._placed(n)


@njit
def _load(cells, st, n, r, c):
    return boards._load(cells, st, n, r, c)


@njit
def _place(st, k, n, r, c, digit, row, col):
    return boards._place(st, k, n, r, c, digit, row, col)


@njit
def _mark_all(st, k, n):
    boards._mark_all(st, k, n)


@njit
def _next_marked(marks, row):
    return boards._next_marked(marks, row)


@njit
def _pairs(st, k, n, r, c, work):
    return boards._pairs(st, k, n, r, c, work)


@njit
def _blame(st, k, n, r, c, weights):
    boards._blame(st, k, n, r, c, weights)


@njit
def _choose_weighted(st, k, n, r, c, planes, weights, rng):
    return boards._choose_weighted(st, k, n, r, c, planes, weights, rng)


@st.composite
def grids(draw, shapes=tuple(BOX_SHAPES)):
    """(shape, cells): a random grid, empty, full, nearly empty or half blank, sometimes with digits written over
    it (which may make it invalid, contradictory or unsolvable)."""
    shape = draw(st.sampled_from(shapes))
    rng = random.Random(draw(st.integers(0, 2**32)))
    cells = random_grid(shape, rng)
    kind = draw(st.sampled_from(["empty", "full", "near_empty", "partial"]))
    blanks = {"empty": shape.n_cells, "full": 0, "near_empty": shape.n_cells - rng.randint(1, shape.n)}.get(
        kind, rng.randint(0, shape.n_cells))
    cells[rng.sample(range(shape.n_cells), blanks)] = 0
    for _ in range(draw(st.integers(0, 3)) if draw(st.booleans()) else 0):
        cells[rng.randrange(shape.n_cells)] = rng.randint(1, shape.n)
    return shape, cells


def run(cells, shape, flags, limit=3, max_nodes=20_000, kernel=search_generic):
    """(status, stats, solutions) of one search with fresh out-arrays."""
    tables = shape.tables
    solutions = np.zeros((limit, shape.n_cells), np.uint8)
    stats = np.zeros(S.N_STATS, np.int64)
    code = kernel(cells, shape.n, tables.units, tables.cell_units, tables.peers, limit, max_nodes, flags, solutions,
                  stats, np.zeros(1, np.int64))
    return code, stats, solutions


def restarted(cells, shape, max_nodes, unit, seed=1, stopped=False, flags=S.ALL_RULES):
    """``first_solution`` with a small restart unit, so that small grids restart too; ``stopped`` sets its stop
    flag before it starts (as a portfolio member that lost)."""
    solutions = np.zeros((1, shape.n_cells), np.uint8)
    stats = np.zeros(S.N_STATS, np.int64)
    code = first_solution(cells, shape.n, shape.box_rows, max_nodes, flags, solutions, stats,
                          new_state(seed), unit, np.full(1, int(stopped), np.int64))
    return code, stats, solutions[0]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=grids(), flags=st.sampled_from([S.ALL_RULES, S.NAKED_SINGLES | S.HIDDEN_SINGLES, S.HIDDEN_SINGLES,
                                            S.HIDDEN_SINGLES | S.LOCKED_CANDIDATES]))
def test_boards_visit_the_same_nodes_as_the_cell_by_cell_kernel(case, flags):
    shape, cells = case
    boards = run(cells, shape, flags | S.NO_RESTARTS)
    generic = run(cells, shape, flags | S.GENERIC_ONLY)
    full_scan = run(cells, shape, flags | S.GENERIC_ONLY | S.FULL_SCAN)
    for other in (generic, full_scan):
        assert boards[0] == other[0]
        assert boards[1][S.STAT_SOLUTIONS] == other[1][S.STAT_SOLUTIONS]
        assert boards[1][S.STAT_NODES] == other[1][S.STAT_NODES]
        assert np.array_equal(boards[2], other[2])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=grids(SMALL_SHAPES), flags=st.integers(0, 7))
def test_boards_count_what_brute_force_counts(case, flags):
    shape, cells = case
    expected = naive_count(cells, shape, 3)
    code, stats, solutions = run(cells, shape, flags | S.NO_RESTARTS, max_nodes=10**6)
    assert stats[S.STAT_SOLUTIONS] == expected
    assert code == (S.LIMIT_REACHED if expected == 3 else code)
    assert code != S.BUDGET_EXHAUSTED
    for solution in solutions[:expected]:
        assert is_solution(solution, cells, shape)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=grids(SMALL_SHAPES), unit=st.integers(1, 8), seed=st.integers(0, 1000),
       flags=st.sampled_from([S.ALL_RULES, S.ALL_RULES | S.WEIGHTED, S.HIDDEN_SINGLES | S.WEIGHTED]))
def test_restarts_never_report_a_wrong_solution_or_a_false_none(case, unit, seed, flags):
    """With plain MRV or dom/wdeg branching (``WEIGHTED``, forced on below N = 25)."""
    shape, cells = case
    expected = naive_count(cells, shape, 1)
    code, stats, solution = restarted(cells, shape, 10**6, unit, seed, flags=flags)
    if expected:
        assert code == S.LIMIT_REACHED
        assert is_solution(solution, cells, shape)
    else:
        assert code in (S.COMPLETE, S.INVALID, S.CONTRADICTION)
        assert stats[S.STAT_SOLUTIONS] == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=grids(SMALL_SHAPES), flags=st.sampled_from([S.ALL_RULES, S.HIDDEN_SINGLES, S.NAKED_SINGLES, 0]))
def test_pairs_count_what_brute_force_counts(case, flags):
    shape, cells = case
    expected = naive_count(cells, shape, 3)
    code, stats, solutions = run(cells, shape, flags | S.PAIRS | S.NO_RESTARTS, max_nodes=10**6)
    assert stats[S.STAT_SOLUTIONS] == expected
    assert code != S.BUDGET_EXHAUSTED
    for solution in solutions[:expected]:
        assert is_solution(solution, cells, shape)


def root_state(cells, shape):
    """State 0 of the bitboard kernel after loading the givens (or None if they break the rules)."""
    n, r = shape.n, shape.box_rows
    st = np.empty((1, state_words(n)), np.uint64)
    return st if _load(cells, st, n, r, n // r) < 0 else None


def keeps(st, grid, shape):
    """Whether every cell of state 0 still has the digit of the solution ``grid`` among its candidates."""
    n = shape.n
    return all(int(st[0, (int(grid[cell]) - 1) * n + cell // n]) >> (cell % n) & 1 for cell in range(n * n))


def opened_root(shape, rng, least):
    """A random complete grid and the root state of a puzzle made from it by opening at least ``least`` cells
    (at random, up to all of them)."""
    grid = random_grid(shape, rng)
    cells = grid.copy()
    cells[rng.sample(range(shape.n_cells), rng.randint(least, shape.n_cells))] = 0
    return grid, root_state(cells, shape)


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(3, 4), Shape(4, 4), Shape(5, 5)])
def test_pairs_never_strike_a_true_candidate(shape):
    """Pairs on the fixpoint of the other rules (where the search runs them) keep a known solution's digits,
    and they do strike something on some grids."""
    rng = random.Random(shape.n)
    n, r = shape.n, shape.box_rows
    struck = 0
    for _ in range(60):
        grid, st = opened_root(shape, rng, shape.n_cells // 3)
        bands = np.empty(n // r, np.uint64)
        work = _scratch(n)
        assert _propagate(st, 0, n, r, n // r, S.ALL_RULES, bands, work) >= 0
        before = st.copy()
        struck += _pairs(st, 0, n, r, n // r, work)
        assert keeps(st, grid, shape)
        assert np.all(st[0, : n * n] & ~before[0, : n * n] == 0)  # only strikes
        assert _propagate(st, 0, n, r, n // r, S.ALL_RULES | S.PAIRS, bands, work) >= 0
        assert keeps(st, grid, shape)
    assert struck > 0


@pytest.mark.parametrize("shape", [Shape(3, 4), Shape(4, 4), Shape(5, 5)])
def test_change_marks_lose_nothing(shape):
    """The rules look only at the digits and rows marked changed since their last pass; a fixpoint reached that
    way, after placements as a search makes them, must be one that a pass over everything leaves as it is (a
    write left unmarked would leave a deduction undone here)."""
    rng = random.Random(3 * shape.n)
    n, r = shape.n, shape.box_rows
    flags = S.ALL_RULES | S.PAIRS
    bands = np.empty(n // r, np.uint64)
    work = _scratch(n)
    steps = 0
    for _ in range(30):
        grid, st = opened_root(shape, rng, shape.n_cells // 2)
        assert _propagate(st, 0, n, r, n // r, flags, bands, work) >= 0
        for _ in range(4):  # down the path to the known solution, as a search would go
            open_cells = [cell for cell in range(n * n) if st[0, n * n + cell // n] >> (cell % n) & 1]
            if not open_cells:
                break
            cell = rng.choice(open_cells)
            assert _place(st, 0, n, r, n // r, int(grid[cell]) - 1, cell // n, cell % n)
            assert _propagate(st, 0, n, r, n // r, flags, bands, work) >= 0
            before = st[0, : n * n + n].copy()
            _mark_all(st, 0, n)
            assert _propagate(st, 0, n, r, n // r, flags, bands, work) == 0
            assert np.array_equal(st[0, : n * n + n], before), f"cell r{cell // n + 1}c{cell % n + 1}"
            steps += 1
    assert steps > 20


def test_next_marked_walks_the_marked_rows_in_order():
    """``_next_marked`` gives the first set bit after ``row`` (-1: from bit 0), up to bit 63, or -1."""
    rng = random.Random(7)
    for _ in range(300):
        marks = rng.getrandbits(64) & rng.getrandbits(64)
        row = rng.randrange(-1, 64)
        later = [bit for bit in range(row + 1, 64) if marks >> bit & 1]
        assert _next_marked(np.uint64(marks), row) == (later[0] if later else -1), (hex(marks), row)


def filled_in(st, shape):
    """Each digit's filled rows, columns and boxes as ``_placed`` keeps them, found from the cells instead: a cell
    not open that keeps the digit's bit holds it."""
    n, r, c = shape.n, shape.box_rows, shape.n // shape.box_rows
    words = []
    for digit in range(n):
        rows = columns = boxes = 0
        for row in range(n):
            here = int(st[0, digit * n + row]) & ~int(st[0, n * n + row])
            for col in range(n):
                if here >> col & 1:
                    rows |= 1 << row
                    columns |= 1 << col
                    boxes |= 1 << (row // r * r + col // c)
        words += [rows, columns, boxes]
    return words


@pytest.mark.parametrize("shape", [Shape(3, 4), Shape(5, 5)])
def test_filled_in_words_follow_the_placements(shape):
    """Hidden singles and locked candidates skip the units where a digit is filled in by reading ``_placed``'s
    words, not the cells: after every propagation down random paths (wrong digits too, so dead ends as well),
    those words must say what the cells say, or a rule would skip a live unit or re-read a filled one."""
    rng = random.Random(5 * shape.n)
    n, r = shape.n, shape.box_rows
    flags = S.ALL_RULES | S.PAIRS
    bands = np.empty(n // r, np.uint64)
    work = _scratch(n)
    dead_ends = 0
    for _ in range(20):
        _, st = opened_root(shape, rng, shape.n_cells // 2)
        while True:
            outcome = _propagate(st, 0, n, r, n // r, flags, bands, work)
            assert [int(word) for word in st[0, _placed(n):]] == filled_in(st, shape)
            open_cells = [cell for cell in range(n * n) if st[0, n * n + cell // n] >> (cell % n) & 1]
            if outcome < 0 or not open_cells:
                dead_ends += outcome < 0
                break
            cell = rng.choice(open_cells)
            row, col = divmod(cell, n)
            digits = [d for d in range(n) if st[0, d * n + row] >> col & 1]
            if not digits or not _place(st, 0, n, r, n // r, rng.choice(digits), row, col):
                break
    assert dead_ends > 5


def test_blame_weighs_the_units_a_dead_end_leaves_empty():
    """r1c4 has no candidate (its row holds 1-3, its box 4), and digit 4 has no place in row 1 nor in box 1 (r2c4
    holds it): row 1 gains two, column 4 and boxes 1 and 2 one each, every other unit nothing."""
    shape = Shape(2, 2)
    n, r = shape.n, shape.box_rows
    cells = np.zeros(shape.n_cells, np.uint8)
    cells[[0, 1, 2, 7]] = [1, 2, 3, 4]  # r1c1-r1c3 and r2c4
    st = np.empty((1, state_words(n)), np.uint64)
    assert _load(cells, st, n, r, n // r) == S.CONTRADICTION
    weights = np.ones(3 * n, np.int64)
    _blame(st, 0, n, r, n // r, weights)
    expected = np.ones(3 * n, np.int64)
    expected[0] += 2  # row 1: an empty cell, and digit 4 without a place
    expected[n + 3] += 1  # column 4: the empty cell
    expected[2 * n + 1] += 1  # box 2: the empty cell
    expected[2 * n] += 1  # box 1: digit 4 without a place
    assert weights.tolist() == expected.tolist()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=grids(SMALL_SHAPES), seed=st.integers(0, 2**32))
def test_weighted_choice_takes_a_cell_with_the_fewest_candidates_per_weight(case, seed):
    """Against a brute-force ratio over every open cell (``Fraction``s), with random unit weights."""
    from fractions import Fraction

    shape, cells = case
    n, r = shape.n, shape.box_rows
    c = n // r
    st = root_state(cells, shape)
    if st is None or _propagate(st, 0, n, r, c, S.ALL_RULES, np.empty(c, np.uint64), _scratch(n)) < 0:
        return
    weights = np.array(random.Random(seed).choices(range(1, 50), k=3 * n), np.int64)
    ratios = {}
    for row in range(n):
        for col in range(n):
            if int(st[0, n * n + row]) >> col & 1:
                count = sum(int(st[0, d * n + row]) >> col & 1 for d in range(n))
                weight = weights[row] + weights[n + col] + weights[2 * n + (row // r) * r + col // c]
                ratios[row, col] = Fraction(count, int(weight))
    row, col = _choose_weighted(st, 0, n, r, c, np.empty(8, np.uint64), weights, new_state(seed))
    if not ratios:
        assert (row, col) == (-1, -1)
    else:
        assert ratios[row, col] == min(ratios.values())


def test_restarts_happen_and_keep_to_the_budget():
    shape = Shape(4, 4)
    rng = random.Random(3)
    restarted_somewhere = False
    for _ in range(20):
        cells = random_grid(shape, rng)
        cells[rng.sample(range(shape.n_cells), 180)] = 0
        code, stats, solution = restarted(cells, shape, 10**6, 1)
        assert code == S.LIMIT_REACHED and is_solution(solution, cells, shape)
        restarted_somewhere |= stats[S.STAT_RESTARTS] > 0
        budget = max(1, stats[S.STAT_NODES] // 2)
        code, stats, _ = restarted(cells, shape, budget, 1)
        assert stats[S.STAT_NODES] <= budget
        if code == S.BUDGET_EXHAUSTED:
            assert stats[S.STAT_SOLUTIONS] == 0
    assert restarted_somewhere


def test_a_set_stop_flag_ends_the_search_after_its_first_run():
    shape = Shape(4, 4)
    rng = random.Random(3)
    cut_short = 0
    for _ in range(20):
        cells = random_grid(shape, rng)
        cells[rng.sample(range(shape.n_cells), 180)] = 0
        code, stats, solution = restarted(cells, shape, 10**6, 1, stopped=True)
        assert stats[S.STAT_RESTARTS] == 0
        if code == S.LIMIT_REACHED:
            assert is_solution(solution, cells, shape)
        else:
            assert code == S.STOPPED and stats[S.STAT_NODES] < 10**6
            cut_short += 1
    assert cut_short > 0


def test_a_first_solution_search_restarts_by_default_and_is_deterministic():
    shape = Shape(5, 5)
    cells = np.zeros(shape.n_cells, np.uint8)
    first = run(cells, shape, S.ALL_RULES, limit=1)
    again = run(cells, shape, S.ALL_RULES, limit=1)
    assert first[0] == S.LIMIT_REACHED and is_solution(first[2][0], cells, shape)
    assert np.array_equal(first[2], again[2]) and np.array_equal(first[1], again[1])


@pytest.mark.parametrize("shape", [Shape(4, 4), Shape(5, 5), Shape(3, 5)])
def test_an_unsolvable_big_grid_is_proved_so_or_the_budget_reported(shape):
    cells = np.zeros(shape.n_cells, np.uint8)
    n = shape.n
    cells[1:n] = np.arange(2, n + 1)  # row 0 misses only 1 at column 0 ...
    cells[n * (n - 1)] = 1  # ... and column 0 has 1 at the bottom: no solution
    for limit in (1, 2):
        code, stats, _ = run(cells, shape, S.ALL_RULES, limit=limit, max_nodes=1000)
        assert code in (S.COMPLETE, S.CONTRADICTION) and stats[S.STAT_SOLUTIONS] == 0


def test_search_boards_honours_the_node_budget():
    stats = np.zeros(S.N_STATS, np.int64)
    code = search_boards(np.zeros(625, np.uint8), 25, 5, 10**6, 50, S.ALL_RULES, np.zeros((0, 625), np.uint8),
                         stats, new_state(0), np.zeros(0, np.uint8), -1, np.zeros(1, np.int64))
    assert code == S.BUDGET_EXHAUSTED and stats[S.STAT_NODES] == 50


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_box_geometry_is_recognised_only_for_plain_tables():
    for shape in BOX_SHAPES:
        assert is_box_geometry(shape.tables.units, shape.n, shape.box_rows)
    units = Shape(4, 4).tables.units.copy()
    units[[0, 1]] = units[[1, 0]]
    assert not is_box_geometry(units, 16, 4)
    assert not is_box_geometry(Shape(2, 3).tables.units, 6, 3)  # 3x2 boxes read as 2x3
