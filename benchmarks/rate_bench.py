"""Time ``bitdoku.logic.rate`` on puzzle files and compare its scores with the compiled engine's guess counts.

Usage: PYTHONPATH=src python benchmarks/rate_bench.py [--sample 5000] [FILE ...]
(default files: the shared 17-clue and top1465 lists). For each file: µs per puzzle (single thread, parsing
included, compiled before timing), the level histogram, and the Spearman rank correlation between the score and
the guesses of ``bitdoku.batch.count_many(lines, limit=2)`` (or ``bitdoku.search`` when batch is unavailable).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import numpy as np

import bitdoku
from bitdoku.logic import rate
from bitdoku.logic.rating import LEVELS

DATA = Path("/work/shared/data")
DEFAULT_FILES = [DATA / "17clue_royle_49151.txt", DATA / "magictour_top1465.txt"]


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho: the Pearson correlation of the ranks (ties get their average rank)."""
    return float(np.corrcoef(_ranks(x), _ranks(y))[0, 1])


def _ranks(values: np.ndarray) -> np.ndarray:
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(len(values), dtype=float)
    for value in np.unique(values):  # average the ranks of ties
        tied = values == value
        ranks[tied] = ranks[tied].mean()
    return ranks


def guesses_of(lines: list[str]) -> np.ndarray:
    """Guesses per puzzle from the compiled engine."""
    try:
        from bitdoku.batch import count_many

        return np.asarray(count_many(lines, limit=2).stats[:, 2], dtype=float)
    except Exception:  # batch is optional here: fall back to one search a puzzle
        return np.array([bitdoku.search(line).stats.guesses for line in lines], dtype=float)


def bench(path: Path, sample: int | None) -> None:
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    if sample and len(lines) > sample:
        lines = lines[:: len(lines) // sample][:sample]
    rate(lines[0])  # compile the kernels
    start = time.perf_counter()
    ratings = [rate(line) for line in lines]
    seconds = time.perf_counter() - start
    levels = Counter(r.level for r in ratings)
    hardest = Counter(r.hardest for r in ratings)
    print(f"\n{path.name}: {len(lines):,} puzzles, {seconds:.2f} s, {seconds / len(lines) * 1e6:,.0f} µs/puzzle, "
          f"{len(lines) / seconds:,.0f} puzzles/s")
    print("| level | puzzles | share |\n|---|---:|---:|")
    for level in LEVELS:
        print(f"| {level} | {levels[level]:,} | {levels[level] / len(lines):.1%} |")
    print("hardest technique:", ", ".join(f"{name} {count}" for name, count in hardest.most_common()))
    scores = np.array([r.score for r in ratings])
    guesses = guesses_of(lines)
    print(f"Spearman(score, engine guesses) = {spearman(scores, guesses):.3f}")
    solved = [r for r in ratings if r.level != "beyond logic"]
    if solved:
        mask = np.array([r.level != "beyond logic" for r in ratings])
        print(f"  among puzzles solved by logic ({mask.sum():,}): {spearman(scores[mask], guesses[mask]):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--sample", type=int, default=None, help="Rate an evenly spaced sample of each file.")
    args = parser.parse_args()
    for path in args.files:
        bench(path, args.sample)


if __name__ == "__main__":
    main()
