"""A/B of two versions of the kernel of cages (``kernels/cages.py``), timed puzzle by puzzle in turn (issue 37).

Copy the kernel to two files, change one, and run ``python research/killer_kernel_ab.py A.py B.py``: each copy is
imported as a module (compiled here, ``cache=True`` or not), the same shared Killers (every 4th of the 4,000) are
searched with ``limit=2`` by each in turn, best of five, and the mean, median, worst and nodes are printed. Timing
the two in turn puts the machine's load on both alike, which separate runs of ``benchmarks/killer_bench.py`` did
not on a shared machine. A one-round research tool: NOTES-killer.md has what it measured.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import numpy as np

from bitdoku import Grid
from bitdoku.kernels import status as codes

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "killer_krazydad_even_books.txt"


def load(path: str) -> object:
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def run(module: object, puzzle: Grid) -> int:
    t = puzzle.geometry.cage_tables
    stats = np.zeros(codes.N_STATS, np.int64)
    search = module.search  # type: ignore[attr-defined]
    arguments = [np.full(81, 511, np.int64), np.zeros(81, np.int8), t.peer_start, t.peers, t.units, t.cell_units, 9,
                 t.cage_start, t.cage_cells, t.combo_start, t.combos, 2, 10**7, np.zeros((1, 81), np.int8), stats,
                 np.zeros(1, np.int64)]
    if search.py_func.__code__.co_argcount > len(arguments):  # the kernel since 3 Dec takes a seed (0: in order)
        arguments.append(0)
    search(*arguments)
    return int(stats[codes.STAT_NODES])


def main() -> None:
    modules = [load(path) for path in sys.argv[1:]]
    rows = [line.split() for line in DATA.read_text().splitlines()[::4]]
    puzzles = [Grid.parse(f"{cage_map} {sums}", variant="killer") for cage_map, sums, *_ in rows]
    for module in modules:
        run(module, puzzles[0])  # compile
    best = [[float("inf")] * len(puzzles) for _ in modules]
    nodes = [0] * len(modules)
    for _ in range(5):
        for index, puzzle in enumerate(puzzles):
            for which, module in enumerate(modules):
                start = time.perf_counter()
                nodes[which] += run(module, puzzle)
                best[which][index] = min(best[which][index], time.perf_counter() - start)
    for path, times, count in zip(sys.argv[1:], best, nodes, strict=True):
        micro = np.array(times) * 1e6
        print(f"{path}: mean {micro.mean():.1f} µs, median {np.median(micro):.1f}, worst {micro.max():.0f}, "
              f"nodes a puzzle {count / 5 / len(puzzles):.2f}")


if __name__ == "__main__":
    main()
