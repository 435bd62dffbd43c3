"""Killer Sudoku by human-style logic (issue 37): how many of the shared Killers ``explain`` solves without a guess,
whether every step is right, the time a puzzle, and the techniques used.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/killer_explain_bench.py [--data ../shared/data] [--count N] [--start K] [--rate]

Each puzzle (no givens, every cell in a cage) is explained with ``bitdoku.explain`` on the Killer ladder
(``explain.KILLER_LADDER``); each step is checked against the file's solution (a placement puts the solution's
digit, an elimination never removes it), and the last state must be the solution. Times are per puzzle, one
thread, wall clock and CPU time (the machine may be shared: CPU time is the steadier figure), parsing excluded,
the groups of each puzzle's geometry built inside the clock (a solve pays for them once). ``--rate`` also times
``rate`` on both scales and prints the level histograms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from bitdoku import Grid
from bitdoku.logic import explain, rate

FILE = "killer_krazydad_even_books.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--count", type=int, default=4000, help="puzzles to explain (default: all)")
    parser.add_argument("--start", type=int, default=0, help="the first line (0-based)")
    parser.add_argument("--rate", action="store_true", help="also time rate on both scales")
    options = parser.parse_args()
    rows = [line.split() for line in (options.data / FILE).read_text().splitlines()]
    rows = rows[options.start: options.start + options.count]
    puzzles = [(Grid.parse(f"{cage_map} {sums}", variant="killer"), Grid.parse(solution).cells, name)
               for cage_map, sums, solution, name in rows]
    list(explain(puzzles[0][0]))  # imports and first calls outside the clock (a copy of the first puzzle is timed)
    puzzles[0] = (Grid.parse(f"{rows[0][0]} {rows[0][1]}", variant="killer"), *puzzles[0][1:])

    used: Counter[str] = Counter()
    wall, cpu, steps_made = [], [], []
    guessed, wrong, unsolved = [], 0, []
    for grid, solution, name in puzzles:
        start, start_cpu = time.perf_counter(), time.process_time()
        steps = list(explain(grid))
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        steps_made.append(len(steps))
        for step in steps:
            used[step.technique] += 1
            wrong += sum(solution[cell] != digit for cell, digit in step.placements)
            wrong += sum(solution[cell] == digit for cell, digit in step.eliminations)
        if steps[-1].technique in ("Stalled", "Contradiction"):
            guessed.append(name)
        elif steps[-1].after.values != solution:
            unsolved.append(name)
    count = len(puzzles)
    solved = count - len(guessed) - len(unsolved)
    print(f"{count} Killers (lines {options.start + 1}-{options.start + count} of {FILE})")
    print(f"solved by logic: {solved} ({100 * solved / count:.2f} %), stalled: {len(guessed)}, wrong end: "
          f"{len(unsolved)}, wrong steps: {wrong} of {sum(steps_made)}")
    for label, times in (("wall", wall), ("cpu", cpu)):
        ms = sorted(t * 1000 for t in times)
        print(f"{label}: mean {statistics.fmean(ms):.2f} ms, median {statistics.median(ms):.2f} ms, "
              f"p99 {ms[int(0.99 * (len(ms) - 1))]:.2f} ms, worst {ms[-1]:.2f} ms a puzzle")
    print(f"steps a puzzle: mean {statistics.fmean(steps_made):.1f}")
    print("techniques (steps):")
    for technique, steps in used.most_common():
        print(f"  {technique:32} {steps:8}")
    if guessed:
        print("stalled:", ", ".join(guessed[:20]))
    if options.rate:
        _rate(puzzles)


def _rate(puzzles: list[tuple[Grid, bytes, str]]) -> None:
    for scale in ("se", "bitdoku"):
        levels: Counter[str] = Counter()
        start = time.process_time()
        for grid, _, _ in puzzles:
            levels[rate(grid, scale=scale).level] += 1
        ms = (time.process_time() - start) / len(puzzles) * 1000
        print(f"rate ({scale}): {ms:.2f} ms a puzzle (cpu); levels: "
              + ", ".join(f"{level} {count}" for level, count in levels.most_common()))


if __name__ == "__main__":
    main()
