"""Killer Sudoku on the cage kernel (issue 37): the shared Killers solved and proven unique, time a puzzle.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/killer_bench.py [--data ../shared/data] [--count 4000] [--repeat 3] [--cpsat 50]

Each puzzle is searched with ``limit=2`` (a solution and the proof that it is the only one) through
``bitdoku.search``; its solution is checked against the file's. Times are per puzzle, one thread, the best of
``--repeat`` searches of it, run back to back (the kernel compiled, and each puzzle's tables built, before the
clock starts), as a file is searched: each puzzle right after its tables are built, hot in the CPU caches.
``--cold`` times ``--repeat`` passes over all the puzzles instead, each puzzle's tables cold again (4,000
Killers' tables do not fit in the caches): 20-30 % slower. The compile and the table building are reported
apart.

``--cpsat N`` (``pip install -e '.[cpsat]'``) also solves the first N puzzles with OR-tools CP-SAT, one worker,
the model of the issue: a variable 1-9 a cell, AllDifferent on every row, column, box and cage, each cage's sum
as a linear equality; a first solve, then a second with that solution forbidden (the uniqueness proof). Each
puzzle is timed with both in turn (interleaved, so that the machine's load falls on both alike); the times are
the model's building and both solves for CP-SAT, the best of ``--repeat`` searches for bitdoku.
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
    parser.add_argument("--cpsat", type=int, default=0, help="also time OR-tools CP-SAT on the first N puzzles")
    parser.add_argument("--cold", action="store_true",
                        help="time each pass over all the puzzles (their tables cold in the CPU caches) instead of "
                             "each puzzle's searches back to back")
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
    passes = [(index, puzzle) for _ in range(options.repeat) for index, puzzle in enumerate(puzzles)]
    if not options.cold:  # a file's puzzle is searched right after its tables are built: hot in the caches
        passes.sort(key=lambda item: item[0])
    for index, puzzle in passes:
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
    if options.cpsat:
        compare_with_cpsat(puzzles[: options.cpsat], [row[2] for row in rows[: options.cpsat]], options.repeat)


def compare_with_cpsat(puzzles: list[Grid], solutions: list[str], repeat: int) -> None:
    """Time CP-SAT and bitdoku on the same puzzles, in turn, and print both and their ratio."""
    ours: list[float] = []
    theirs: list[float] = []
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        start = time.perf_counter()
        found = cpsat_solutions(puzzle)
        theirs.append(time.perf_counter() - start)
        if found != [solution]:
            raise SystemExit(f"CP-SAT found {found} for {puzzle.to_killer_line()}, not the file's one solution")
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            result = search(puzzle)
            best = min(best, time.perf_counter() - start)
        if result.status is not Status.UNIQUE:
            raise SystemExit(f"bitdoku: {result.status} for {puzzle.to_killer_line()}")
        ours.append(best)
    for name, times in (("CP-SAT (1 worker, solve + second-solution check)", theirs), ("bitdoku.search", ours)):
        ms = [t * 1e3 for t in times]
        print(f"{name}: mean {statistics.fmean(ms):.3f} ms, median {statistics.median(ms):.3f} ms, "
              f"worst {max(ms):.3f} ms over {len(ms)} Killers")
    print(f"CP-SAT / bitdoku: mean {statistics.fmean(theirs) / statistics.fmean(ours):.0f}x, "
          f"median {statistics.median(theirs) / statistics.median(ours):.0f}x, "
          f"worst {max(theirs) / max(ours):.0f}x")


def cpsat_solutions(puzzle: Grid) -> list[str]:
    """The puzzle's solutions by CP-SAT, up to two: a solve, then a solve with the first solution forbidden."""
    from ortools.sat.python import cp_model

    n = puzzle.n
    model = cp_model.CpModel()
    cells = [model.new_int_var(1, n, f"c{i}") for i in range(puzzle.shape.n_cells)]
    for unit in puzzle.shape.tables.units.tolist():
        model.add_all_different([cells[i] for i in unit])
    for cage in puzzle.cages:
        members = [cells[i] for i in cage.cells]
        model.add_all_different(members)
        if cage.total is not None:
            model.add(sum(members) == cage.total)
    for i, given in enumerate(puzzle.cells):
        if given:
            model.add(cells[i] == given)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    found: list[str] = []
    while len(found) < 2 and solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        values = [solver.value(cell) for cell in cells]
        found.append("".join(map(str, values)))
        differs = [model.new_bool_var(f"d{i}") for i in range(len(cells))]
        for cell, value, flag in zip(cells, values, differs, strict=True):
            model.add(cell != value).only_enforce_if(flag)
        model.add_bool_or(differs)
    return found


if __name__ == "__main__":
    main()
