"""Killer Sudoku on the cage kernel (issue 37): the shared Killers solved and proven unique, time a puzzle.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/killer_bench.py [--data ../shared/data] [--count 4000] [--repeat 3]

Each puzzle is searched with ``limit=2`` (a solution and the proof that it is the only one) through
``bitdoku.constraints.search``; its solution is checked against the file's. Times are per puzzle, one thread,
the best of ``--repeat`` passes over the same puzzles (the kernel compiled, and each puzzle's tables built, before
the clock starts); the first pass also reports the compile and the table building.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from bitdoku import Grid, Status, search

FILE = "killer_krazydad_even_books.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    rows = [line.split() for line in (options.data / FILE).read_text().splitlines()[: options.count]]

    start = time.perf_counter()
    search(f"{rows[0][0]} {rows[0][1]}", variant="killer")
    print(f"first call (compile or load the kernel): {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    puzzles = [Grid.parse(f"{cage_map} {sums}", variant="killer") for cage_map, sums, *_ in rows]
    parse_us = (time.perf_counter() - start) / len(rows) * 1e6
    start = time.perf_counter()
    for puzzle in puzzles:
        puzzle.geometry.cage_tables  # noqa: B018 - built here, kept with the puzzle's geometry
    tables_us = (time.perf_counter() - start) / len(rows) * 1e6
    print(f"{len(rows)} Killers: parse {parse_us:.0f} µs, tables {tables_us:.0f} µs a puzzle")

    best: list[float] = [float("inf")] * len(puzzles)
    nodes: list[int] = [0] * len(puzzles)
    for _ in range(options.repeat):
        for index, puzzle in enumerate(puzzles):
            start = time.perf_counter()
            result = search(puzzle)
            best[index] = min(best[index], time.perf_counter() - start)
            nodes[index] = result.stats.nodes
            solution = rows[index][2]
            if result.status is not Status.UNIQUE or result.solution is None or result.solution.to_line() != solution:
                raise SystemExit(f"line {index + 1}: {result.status}, not the file's unique solution")
    micro = [seconds * 1e6 for seconds in best]
    worst = max(range(len(micro)), key=micro.__getitem__)
    print(f"all {len(puzzles)} unique, each solution checked; one thread, best of {options.repeat}")
    print(f"µs a puzzle: mean {statistics.fmean(micro):.1f}, median {statistics.median(micro):.1f}, "
          f"worst {micro[worst]:.0f} (line {worst + 1}, {nodes[worst]} nodes)")
    print(f"nodes a puzzle: mean {statistics.fmean(nodes):.1f}, median {statistics.median(nodes):.0f}, "
          f"max {max(nodes)}; µs a node {sum(micro) / sum(nodes):.2f}")


if __name__ == "__main__":
    main()
