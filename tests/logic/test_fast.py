import numpy as np
import pytest

from bitdoku import Grid, Shape
from bitdoku.data import sample_lines
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.explain import LADDER, next_step
from bitdoku.logic.kernels import singles as singles_kernel

SINGLES = tuple(rung for rung in LADDER if rung.single)


def kernel_singles(grid: Grid):
    tables, n = grid.shape.tables, grid.n
    values = np.frombuffer(grid.cells, dtype=np.uint8).copy()
    masks = np.zeros(grid.shape.n_cells, dtype=np.uint64)
    assert singles_kernel.load_candidates(values, tables.units, tables.cell_units, n, masks)
    counts = np.zeros(2, dtype=np.int64)
    status = singles_kernel.run_singles(values, masks, tables.units, tables.peers, n, counts)
    return status, CandidateGrid(values.tobytes(), tuple(masks.tolist()), grid.shape), counts


def python_singles(grid: Grid):
    state, counts = CandidateGrid.from_grid(grid), [0, 0]
    while (step := next_step(state, SINGLES)) is not None:
        counts[step.technique == "Naked Single"] += 1
        state = state.apply(step)
    return state, counts


@pytest.mark.parametrize("name", ["17clue_sample.txt", "top1465_sample.txt", "sample16x16.txt", "sample25x25.txt"])
def test_kernel_singles_match_the_python_finders(name):
    for line in sample_lines(name)[:10]:
        grid = Grid.parse(line)
        status, state, counts = kernel_singles(grid)
        expected, expected_counts = python_singles(grid)
        assert state == expected and list(counts) == expected_counts
        assert status == (singles_kernel.SOLVED if state.is_solved() else singles_kernel.STALLED)


def test_load_candidates_matches_the_grid_and_rejects_clashes():
    grid = Grid.parse(sample_lines("famous.txt")[0])
    _, state, _ = kernel_singles(Grid.parse(sample_lines("valid_edgecases.txt")[1]))
    assert state.is_solved()
    tables = grid.shape.tables
    masks = np.zeros(81, dtype=np.uint64)
    values = np.frombuffer(grid.cells, np.uint8).copy()
    assert singles_kernel.load_candidates(values, tables.units, tables.cell_units, 9, masks)
    assert masks.tolist() == list(CandidateGrid.from_grid(grid).masks)
    clash = np.frombuffer(Grid.parse("11" + "." * 79).cells, np.uint8).copy()
    assert not singles_kernel.load_candidates(clash, tables.units, tables.cell_units, 9, masks)


def test_the_kernel_reports_a_contradiction():
    state = CandidateGrid.from_grid(Grid.empty("2x2")).eliminate([(0, d) for d in (1, 2, 3)]).eliminate([(1, 4)])
    values = np.frombuffer(state.values, np.uint8).copy()
    masks = np.array(state.masks, dtype=np.uint64)
    masks[0] = 0  # r1c1 open with no candidate
    tables = Shape(2, 2).tables
    status = singles_kernel.run_singles(values, masks, tables.units, tables.peers, 4, np.zeros(2, np.int64))
    assert status == singles_kernel.CONTRADICTION


def test_full_mask_for_64_digits():
    assert singles_kernel._full(64) == np.uint64(2**64 - 1) and singles_kernel._full(9) == 511
