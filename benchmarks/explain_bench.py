"""How far ``explain`` gets by logic alone, and whether every step it takes is right.

Usage: PYTHONPATH=src python benchmarks/explain_bench.py [--sample N] [FILE ...]
(default files: the shared top1465 and forum_hardest_1106 lists). For each file, every puzzle is explained with
``guess=True`` (the full ladder, uniqueness techniques on: these puzzles have one solution) and every step is
checked against the solution found by the compiled engine: a placement puts the solution's digit, an elimination
never removes it. Prints the share of puzzles that needed a guess ("beyond logic"), the wrong steps (must be 0),
the time per puzzle (mean, median, worst) and how often each technique was used.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

import bitdoku
from bitdoku import Grid
from bitdoku.logic import explain
from bitdoku.logic.step import GUESS

DATA = Path("/work/shared/data")
DEFAULT_FILES = [DATA / "magictour_top1465.txt", DATA / "forum_hardest_1106.txt"]


def wrong_changes(step, solution: Grid) -> int:
    """How many of a step's placements and eliminations contradict the solution."""
    bad = sum(solution[cell] != digit for cell, digit in step.placements)
    return bad + sum(solution[cell] == digit for cell, digit in step.eliminations)


def bench(path: Path, sample: int | None) -> None:
    lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip()]
    if sample and len(lines) > sample:
        lines = lines[:: len(lines) // sample][:sample]
    explain(lines[0], guess=True)  # compile the kernels the ladder uses before timing
    guessed, wrong, steps, seconds = 0, 0, 0, []
    used: Counter[str] = Counter()
    for line in lines:
        solution = bitdoku.solve(line)
        start = time.perf_counter()
        taken = list(explain(line, guess=True))
        seconds.append(time.perf_counter() - start)
        guessed += any(step.technique == GUESS for step in taken)
        wrong += sum(wrong_changes(step, solution) for step in taken)
        steps += len(taken)
        used.update(step.technique for step in taken)
    print(f"\n{path.name}: {len(lines):,} puzzles, {steps:,} steps checked against the solution")
    print("| measure | value |\n|---|---:|")
    print(f"| needed a guess (beyond logic) | {guessed:,} ({guessed / len(lines):.1%}) |")
    print(f"| wrong placements or eliminations | {wrong} |")
    print(f"| ms a puzzle: mean / median / worst | {statistics.mean(seconds) * 1e3:.1f} / "
          f"{statistics.median(seconds) * 1e3:.1f} / {max(seconds) * 1e3:.0f} |")
    print("techniques used (steps): " + ", ".join(f"{name} {count:,}" for name, count in used.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--sample", type=int, default=None, help="Explain an evenly spaced sample of each file.")
    args = parser.parse_args()
    for path in args.files:
        bench(path, args.sample)


if __name__ == "__main__":
    main()
