"""What the tests of the 9x9 variant kernels on the band state (``extra9``, ``jigsaw9``, ``nonconsecutive9``)
share: random puzzles of a geometry, a kernel's search, the two cross-checks, against the reference engine and
against the digit-major kernel (``variant81``), which run every variant 9x9 grid and are the kernels' twins, and
the checks of ``count_many``, the node budget and the stop flag."""

from __future__ import annotations

from types import ModuleType

import numpy as np
from hypothesis import strategies as st

from bitdoku import Grid, Shape
from bitdoku.engines import reference
from bitdoku.geometry import Geometry
from bitdoku.kernels import status as codes
from bitdoku.kernels import variant81
from bitdoku.kernels.fill import random_solution as fill_kernel
from bitdoku.kernels.rng import new_state

#: The most blanks a puzzle checked against the reference engine may have (it is slow on sparse 9x9 grids).
MAX_BLANKS = 48
NO_STOP = np.zeros(1, np.int64)


def search(kernel: ModuleType, puzzle: Grid, limit: int = 3, flags: int = codes.ALL_RULES,
           max_nodes: int = 10**6) -> tuple[int, np.ndarray, set[bytes]]:
    """(status, stats, solutions) of a kernel module (``extra9``, ``jigsaw9`` or ``variant81``) on the puzzle,
    keeping up to ``limit`` solutions."""
    geometry = puzzle.geometry
    tables = variant81.board_tables(geometry) if kernel is variant81 else kernel.tables_for(geometry)
    solutions = np.zeros((limit, 81), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    code = kernel.search(np.frombuffer(puzzle.cells, np.uint8), tables, limit, max_nodes, flags, solutions, stats,
                         NO_STOP)
    return code, stats, {solutions[i].tobytes() for i in range(min(limit, int(stats[codes.STAT_SOLUTIONS])))}


def random_grid(geometry: Geometry, seed: int) -> np.ndarray:
    """A complete grid of the geometry drawn by the generator's fill."""
    out = np.zeros(81, np.uint8)
    code, _ = fill_kernel(new_state(seed), 9, geometry.tables.units, geometry.tables.cell_units,
                          variant81.board_tables(geometry), 10**6, out, variant81.new_workspace(), NO_STOP)
    assert code == codes.LIMIT_REACHED
    return out


@st.composite
def puzzles(draw: st.DrawFn, geometries: list[Geometry], min_blanks: int = 0, max_blanks: int = MAX_BLANKS) -> Grid:
    """A random solution of one of the geometries with some cells blanked (none: a full grid) and, sometimes,
    digits written over cells (invalid, contradictory, unsolvable or still fine)."""
    geometry = draw(st.sampled_from(geometries))
    cells = random_grid(geometry, draw(st.integers(0, 2**32)))
    for cell in draw(st.sets(st.integers(0, 80), min_size=min_blanks, max_size=max_blanks)):
        cells[cell] = 0
    if draw(st.booleans()):
        for _ in range(draw(st.integers(1, 3))):
            cells[draw(st.integers(0, 80))] = draw(st.integers(0, 9))
    return Grid(cells.tobytes(), Shape(3, 3), geometry)


def assert_matches_the_reference_engine(kernel: ModuleType, puzzle: Grid) -> None:
    """The kernel's status and count are the reference engine's (up to 3), and each solution keeps the rules."""
    expected = reference.search(puzzle, limit=3, max_nodes=10**7, keep=0)
    code, stats, kept = search(kernel, puzzle)
    if expected.status.name == "INVALID":
        assert code == codes.INVALID
        return
    assert code in (codes.COMPLETE, codes.LIMIT_REACHED, codes.CONTRADICTION)
    assert int(stats[codes.STAT_SOLUTIONS]) == expected.count
    assert len(kept) == expected.count
    for cells in kept:
        assert puzzle.with_cells(cells).is_solution_of(puzzle)


def assert_matches_the_digit_major_kernel(kernel: ModuleType, puzzle: Grid, flags: int) -> None:
    """With the rules ``flags``, the kernel's status and count are ``variant81``'s, up to ten solutions; below ten,
    the same solutions (as sets: the order may differ), each keeping the rules. Sparse grids too."""
    code, stats, kept = search(kernel, puzzle, limit=10, flags=flags)
    twin_code, twin_stats, twin_kept = search(variant81, puzzle, limit=10, flags=flags)
    assert code == twin_code
    assert stats[codes.STAT_SOLUTIONS] == twin_stats[codes.STAT_SOLUTIONS]
    if stats[codes.STAT_SOLUTIONS] < 10:
        assert kept == twin_kept
    for cells in kept:
        assert puzzle.with_cells(cells).is_solution_of(puzzle)


def assert_count_many_matches_search(kernel: ModuleType, geometry: Geometry, blanks: int) -> None:
    """The kernel's ``count_many`` gives each row the status, count and nodes its ``search`` gives it: five random
    puzzles of the geometry with ``blanks`` to ``blanks + 4`` blanks, and an invalid row (``INVALID``)."""
    rows = []
    for seed in range(5):
        cells = random_grid(geometry, seed)
        cells[np.random.default_rng(seed).choice(81, blanks + seed, replace=False)] = 0
        rows.append(cells)
    rows.append(np.full(81, 1, np.uint8))  # invalid
    puzzles_array = np.stack(rows)
    statuses, counts, nodes = (np.zeros(len(rows), np.int64) for _ in range(3))
    kernel.count_many(puzzles_array, kernel.tables_for(geometry), 2, 10**6, codes.ALL_RULES, statuses, counts, nodes,
                      NO_STOP)
    for row, cells in enumerate(puzzles_array):
        code, stats, _ = search(kernel, Grid(cells.tobytes(), Shape(3, 3), geometry), limit=2)
        assert (statuses[row], counts[row], nodes[row]) == (code, stats[codes.STAT_SOLUTIONS], stats[codes.STAT_NODES])
    assert statuses[-1] == codes.INVALID


def assert_budget_and_stop_end_the_search(kernel: ModuleType, geometry: Geometry) -> None:
    """On the empty grid of the geometry, a 50-node budget ends the search after 50 nodes (``BUDGET_EXHAUSTED``),
    and a raised stop flag ends it (``STOPPED``)."""
    stats = np.zeros(codes.N_STATS, np.int64)
    args = (np.zeros(81, np.uint8), kernel.tables_for(geometry), 10**9)
    assert kernel.search(*args, 50, codes.ALL_RULES, np.zeros((0, 81), np.uint8), stats, NO_STOP) == (
        codes.BUDGET_EXHAUSTED)
    assert stats[codes.STAT_NODES] == 50
    assert kernel.search(*args, 10**6, codes.ALL_RULES, np.zeros((0, 81), np.uint8), stats,
                         np.ones(1, np.int64)) == codes.STOPPED
