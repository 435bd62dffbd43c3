"""Equality check for the band variant kernels (``extra9``, ``jigsaw9``, ``nonconsecutive9``) against a revision.

Round loop1 moved their search loops into ``kernels/band_search.py``; this holds the kernels' results to what they
were at ``--old`` (main's files, imported as modules of their own beside the working tree's), on every band
variant set of ``variants_bench.py`` (``benchmarks/data/variants``): statuses, all eight stats and the first four
solutions of each puzzle, of the puzzle with its last three givens removed (many solutions), under (limit, node
budget) pairs (1, -), (2, -), (1000, 20,000), (1000, 37), (2, 5); for ``nonconsecutive9`` also the generator's
calls: a guided search with a changed cell (a clue removal's check) and random fills of the empty grid
(``RANDOM_ORDER``, 50 seeds, budgets 40 and 10^6), where the rng state after the call must match too. From the
repository root::

    PYTHONPATH=src python research/band_loop_check.py [--old main]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the maintained scripts it uses
from variant_nodes_bench import old_kernel, set_cells

from bitdoku.kernels import extra9, jigsaw9, nonconsecutive9
from bitdoku.kernels import status as codes
from bitdoku.kernels.rng import new_state

BUDGETS = [(1, 10**9), (2, 10**9), (1000, 20_000), (1000, 37), (2, 5)]
SETS = {"x": "extra9", "windoku": "extra9", "jigsaw-1": "jigsaw9", "jigsaw-2": "jigsaw9", "jigsaw-3": "jigsaw9",
        "nonconsecutive": "nonconsecutive9"}
NEW = {"extra9": extra9, "jigsaw9": jigsaw9, "nonconsecutive9": nonconsecutive9}


def opened(cells: np.ndarray) -> np.ndarray:
    """The puzzles with their last three givens removed (most get many solutions)."""
    out = cells.copy()
    for row in out:
        row[np.flatnonzero(row)[-3:]] = 0
    return out


def results(kernel, tables, cells: np.ndarray, limit: int, budget: int) -> tuple:
    """Statuses, stats and the first four solutions of each row through ``kernel.search``."""
    n = len(cells)
    status, stats, solutions = np.zeros(n, np.int64), np.zeros((n, 8), np.int64), np.zeros((n, 4, 81), np.uint8)
    stop = np.zeros(1, np.int64)
    for row in range(n):
        status[row] = kernel.search(cells[row], tables, limit, budget, codes.ALL_RULES, solutions[row], stats[row],
                                    stop)
    return status, stats, solutions


def generator_calls(kernel, tables, cells: np.ndarray) -> list[np.ndarray]:
    """``nonconsecutive9.search_in`` as the generator calls it: random fills and guided checks of a changed cell."""
    ws = kernel.new_workspace()
    stop = np.zeros(1, np.int64)
    out = []
    for seed in range(50):
        for budget in (40, 10**6):
            rng, stats, grid = new_state(seed), np.zeros(8, np.int64), np.zeros((1, 81), np.uint8)
            status = kernel.search_in(ws, np.zeros(81, np.uint8), tables, 1, budget,
                                      codes.ALL_RULES | codes.RANDOM_ORDER, grid, stats, rng, np.zeros(0, np.uint8),
                                      np.int64(-1), stop)
            out += [np.array([status]), stats.copy(), grid.copy(), rng.copy()]
    for row in cells[:100]:
        solution = np.zeros((1, 81), np.uint8)
        kernel.search(row, tables, 1, 10**9, codes.ALL_RULES, solution, np.zeros(8, np.int64), stop)
        for cell in np.flatnonzero(row)[:5]:
            puzzle = row.copy()
            puzzle[cell] = 0
            stats = np.zeros(8, np.int64)
            status = kernel.search_in(ws, puzzle, tables, 1, 10**9, codes.ALL_RULES, np.zeros((0, 81), np.uint8),
                                      stats, new_state(1), solution[0], np.int64(cell), stop)
            out += [np.array([status]), stats.copy()]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="main", help="the revision to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as where:  # a fresh path: the cache of an old copy is never reloaded
        old = {name: old_kernel(args.old, Path(where), f"src/bitdoku/kernels/{name}.py") for name in NEW}
        raise SystemExit(1 if compare(old) else 0)


def compare(old: dict) -> int:
    """Print each set's comparisons; the number of mismatches."""
    mismatches = cases = 0
    for name, kernel_name in SETS.items():
        geometry, cells = set_cells(name, None)
        tables = NEW[kernel_name].tables_for(geometry)
        for puzzles in (cells, opened(cells)):
            for limit, budget in BUDGETS:
                before = results(old[kernel_name], tables, puzzles, limit, budget)
                after = results(NEW[kernel_name], tables, puzzles, limit, budget)
                bad = sum(int((a != b).sum()) for a, b in zip(before, after, strict=True))
                mismatches += bad
                cases += len(puzzles)
                print(f"{name} {'opened' if puzzles is not cells else 'puzzles'} limit {limit} budget {budget}: "
                      f"{len(puzzles)} puzzles, nodes {after[1][:, codes.STAT_NODES].sum()}, mismatches {bad}",
                      flush=True)
        if kernel_name == "nonconsecutive9":
            before = generator_calls(old[kernel_name], tables, cells)
            after = generator_calls(NEW[kernel_name], tables, cells)
            bad = sum(int((a != b).sum()) for a, b in zip(before, after, strict=True))
            mismatches += bad
            cases += len(before) // 2
            print(f"{name} generator calls: {len(before)} arrays, mismatches {bad}", flush=True)
    print(f"{cases} cases, {mismatches} mismatches")
    return mismatches


if __name__ == "__main__":
    main()
