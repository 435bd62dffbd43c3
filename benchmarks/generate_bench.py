"""The generator's figures for benchmarks/RESULTS.md (issue 9).

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/generate_bench.py [--only rates levels large distribution] [--quick]

* ``rates``: 9x9 minimal puzzles per second on 1 and 2 threads, plain and with rotational symmetry.
* ``levels``: the rate for each ``--difficulty`` level (generate, rate, keep what fits).
* ``large``: 16x16 and 25x25 unique puzzles (the default, near-minimal), and minimal 16x16 ones.
* ``distribution``: clue counts and ratings of 10,000 9x9 minimal puzzles, beside the published figures.

Every puzzle timed is verified afterwards by code that shares nothing with the removal kernel: uniqueness by a
full count to two (``bitdoku.count_many``), and minimality by counting every puzzle with one clue taken away.
The JIT compile (or cache load) is done before any timing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import numpy as np

import bitdoku
from bitdoku.generate import generate_many

LEVEL_ORDER = ("easy", "medium", "hard", "expert", "extreme", "beyond logic")
#: Top-down generators (a random grid, clues deleted in random order until minimal), 1,000,000 puzzles each:
#: D. Berthier, The Hidden Logic of Sudoku, online supplement "Classification results", table 1.
TOP_DOWN = {"mean": 24.38, "sd": 1.12}
#: The real distribution of minimal puzzles (controlled-bias estimate, Berthier, Sudoku Player's Forum).
REAL = {20: 1.32e-7, 21: 0.000034, 22: 0.00348, 23: 0.148, 24: 2.28, 25: 13.42, 26: 31.91, 27: 32.71, 28: 15.48,
        29: 3.598, 30: 0.41, 31: 0.0241, 32: 0.00102}


def timed(count: int, shape: str = "3x3", **options) -> tuple[list[bitdoku.Grid], float, list]:
    """Generate ``count`` puzzles; (puzzles, seconds, records)."""
    start = time.perf_counter()
    records = list(generate_many(count, shape, **options))
    return [r.puzzle for r in records], time.perf_counter() - start, records


def verify(puzzles: list[bitdoku.Grid], minimal: bool) -> tuple[int, int]:
    """(unique, minimal) counts by full solution counts: every puzzle, and every puzzle less one clue."""
    if not puzzles:
        return 0, 0
    shape = puzzles[0].shape
    cells = np.frombuffer(b"".join(p.cells for p in puzzles), np.uint8).reshape(len(puzzles), -1)
    unique = int((bitdoku.count_many(cells, shape=shape, limit=2).counts == 1).sum())
    if not minimal:
        return unique, 0
    smaller, owner = [], []
    for index, row in enumerate(cells):
        for cell in np.flatnonzero(row):
            less = row.copy()
            less[cell] = 0
            smaller.append(less)
            owner.append(index)
    counts = bitdoku.count_many(np.array(smaller), shape=shape, limit=2).counts
    removable = np.zeros(len(puzzles), bool)
    np.logical_or.at(removable, np.array(owner), counts == 1)
    return unique, int((~removable).sum())


def row(name: str, puzzles: list, seconds: float, threads: int, minimal: bool) -> str:
    unique, minimal_count = verify(puzzles, minimal)
    clues = [p.givens for p in puzzles]
    rate = len(puzzles) / seconds
    checked = f"{unique:,} unique" + (f", {minimal_count:,} minimal" if minimal else "")
    return (f"| {name} | {len(puzzles):,} | {threads} | {rate:,.1f} | {seconds / len(puzzles) * 1e3:.3f} | "
            f"{statistics.mean(clues):.2f} | {checked} |")


HEADER = ("| what | puzzles | threads | puzzles/s | ms/puzzle | mean clues | verified |\n"
          "|---|---:|---:|---:|---:|---:|---|")


def rates(quick: bool) -> None:
    print("\n### 9x9 minimal puzzles\n\n" + HEADER)
    count = 2_000 if quick else 20_000
    for threads in (1, 2):
        puzzles, seconds, _ = timed(count, seed=1, threads=threads)
        print(row("9x9 minimal", puzzles, seconds, threads, True), flush=True)
    for threads in (1, 2):
        puzzles, seconds, _ = timed(count // 4, seed=2, threads=threads, symmetry="rotational", minimal=True)
        print(row("9x9 minimal, rotational", puzzles, seconds, threads, True), flush=True)


def levels(quick: bool) -> None:
    print("\n### 9x9 minimal puzzles at each level (generate, rate, keep what fits)\n")
    print("| level | puzzles | threads | puzzles/s | ms/puzzle | attempts/puzzle | verified |\n"
          "|---|---:|---:|---:|---:|---:|---|")
    count = 20 if quick else 200
    for level in LEVEL_ORDER:
        n = count // 10 if level in ("extreme", "beyond logic") else count
        puzzles, seconds, records = timed(n, seed=3, threads=2, difficulty=level, time_limit=600)
        unique, _ = verify(puzzles, False)
        same = sum(bitdoku.rate(p).level == level for p in puzzles)
        attempts = statistics.mean(r.attempts for r in records)
        print(f"| {level} | {n:,} | 2 | {n / seconds:,.1f} | {seconds / n * 1e3:.2f} | {attempts:.1f} | "
              f"{unique:,} unique, {same:,} rated {level} |", flush=True)


def large(quick: bool) -> None:
    print("\n### 16x16 and 25x25\n\n" + HEADER)
    cases = [
        ("16x16 unique (near-minimal, the default)", "4x4", {}, 40 if quick else 200, False),
        ("16x16 minimal", "4x4", {"minimal": True}, 4 if quick else 20, True),
        ("25x25 unique (near-minimal, the default)", "5x5", {}, 4 if quick else 20, False),
    ]  # 25x25 minimal: more than 50 minutes a puzzle today (RESULTS.md), too long for this table
    for name, shape, options, count, check_minimal in cases:
        for threads in (1, 2):
            puzzles, seconds, _ = timed(count, shape, seed=4, threads=threads, time_limit=3600, **options)
            print(row(name, puzzles, seconds, threads, check_minimal), flush=True)


def distribution(quick: bool) -> None:
    count = 1_000 if quick else 10_000
    puzzles, _, records = timed(count, seed=5, threads=2, rated=True)
    clues = [p.givens for p in puzzles]
    histogram = Counter(clues)
    print(f"\n### Clue counts of {count:,} 9x9 minimal puzzles (seed 5)\n")
    print(f"mean {statistics.mean(clues):.2f}, sd {statistics.pstdev(clues):.2f} "
          f"(top-down generators: mean {TOP_DOWN['mean']}, sd {TOP_DOWN['sd']}; all minimal puzzles: mean "
          f"{sum(k * p for k, p in REAL.items()) / sum(REAL.values()):.2f})\n")
    print("| clues | this run % | all minimal puzzles % |\n|---:|---:|---:|")
    for k in range(min(clues), max(clues) + 1):
        print(f"| {k} | {100 * histogram[k] / count:.2f} | {REAL.get(k, 0):.3g} |")
    scores = [r.rating.score for r in records]
    tally = Counter(r.rating.level for r in records)
    print(f"\n### Ratings of the same puzzles\n\nmean score {statistics.mean(scores):.2f}, median "
          f"{statistics.median(scores):.2f}\n")
    print("| level | puzzles | % |\n|---|---:|---:|")
    for level in LEVEL_ORDER:
        print(f"| {level} | {tally[level]:,} | {100 * tally[level] / count:.1f} |")
    hardest = Counter(r.rating.hardest for r in records).most_common(8)
    print("\nHardest technique needed (most common): " + ", ".join(f"{name} {n:,}" for name, n in hardest))


SECTIONS = {"rates": rates, "levels": levels, "large": large, "distribution": distribution}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="+", choices=list(SECTIONS), default=list(SECTIONS))
    parser.add_argument("--quick", action="store_true", help="fewer puzzles, for a smoke run")
    args = parser.parse_args()
    for shape in ("3x3", "4x4", "5x5"):  # compile (or load) every kernel before timing
        list(generate_many(1, shape, seed=0, rated=shape == "3x3", time_limit=600))
    bitdoku.count_many(np.zeros((1, 81), np.uint8), limit=2)
    for name in args.only:
        SECTIONS[name](args.quick)


if __name__ == "__main__":
    main()
