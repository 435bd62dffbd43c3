"""Time ``bitdoku.generate.canon.canonical_many`` (minlex canonical forms) on the shared puzzle lists.

Usage: python benchmarks/canon_bench.py [--data ../shared/data] [--threads 1 2] [--repeat 3] [--check 12]

For each file: puzzles/s and µs/puzzle on each thread count (best of ``--repeat`` runs, the JIT compile or cache
load timed on its own), how many rows overflowed the kernel's candidate arrays and went to the exhaustive twin,
how many distinct classes the list holds, and a spot check: ``--check`` rows drawn with a fixed seed are
compared with ``canonical_exhaustive`` (about a second each), and each timed form must be a fixed point.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from bitdoku.benchmark import load
from bitdoku.generate.canon import canonical_exhaustive, canonical_many, minlex_batch
from bitdoku.kernels import minlex

FILES = ("17clue_royle_49151.txt", "magictour_top1465.txt", "forum_hardest_1106.txt")
TARGET = 20_000  # puzzles per second per core


def best_seconds(puzzles: np.ndarray, threads: int, repeat: int) -> tuple[float, np.ndarray]:
    """The best time of ``repeat`` runs of ``canonical_many``, and the forms of the last run."""
    best, forms = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        forms = canonical_many(puzzles, threads=threads)
        best = min(best, time.perf_counter() - start)
    assert forms is not None
    return best, forms


def spot_check(puzzles: np.ndarray, forms: np.ndarray, count: int, seed: int = 2024) -> int:
    """How many of ``count`` seeded random rows agree with the exhaustive twin (each one that does not is shown)."""
    rows = np.random.default_rng(seed).choice(len(puzzles), size=min(count, len(puzzles)), replace=False)
    agree = 0
    for row in rows:
        expected = canonical_exhaustive(puzzles[row])
        if (expected == forms[row]).all():
            agree += 1
        else:
            print(f"  MISMATCH on row {row}: kernel {forms[row].tolist()} exhaustive {expected.tolist()}")
    return agree


def bench(path: Path, threads: list[int], repeat: int, check: int) -> None:
    puzzles = load(path)
    start = time.perf_counter()
    canonical_many(puzzles[:1], threads=1)  # compiles, or loads the cache
    compile_seconds = time.perf_counter() - start
    _, status = minlex_batch(puzzles, threads=max(threads))
    overflow = int(np.count_nonzero(status != minlex.OK))
    print(f"\n{path.name}: {len(puzzles):,} puzzles, JIT {compile_seconds:.1f} s, "
          f"exhaustive fallbacks {overflow:,}")
    print("| threads | puzzles/s | µs/puzzle | puzzles/s per core |\n|---:|---:|---:|---:|")
    forms = None
    for count in threads:
        seconds, forms = best_seconds(puzzles, count, repeat)
        rate = len(puzzles) / seconds
        print(f"| {count} | {rate:,.0f} | {seconds / len(puzzles) * 1e6:.2f} | {rate / count:,.0f} |")
    assert forms is not None
    fixed = (canonical_many(forms, threads=max(threads)) == forms).all(axis=1)
    classes = len({form.tobytes() for form in forms})
    agree = spot_check(puzzles, forms, check)
    print(f"distinct classes {classes:,}; forms that are fixed points {int(fixed.sum()):,}/{len(forms):,}; "
          f"spot check against the exhaustive twin {agree}/{min(check, len(puzzles))}")
    if not fixed.all() or agree < min(check, len(puzzles)):
        raise SystemExit(f"{path.name}: wrong canonical forms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data",
                        help="The folder of the shared puzzle lists [default: ../shared/data].")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3, help="Timed runs per thread count; the best one counts.")
    parser.add_argument("--check", type=int, default=12, help="Rows per file checked against the exhaustive twin.")
    parser.add_argument("files", nargs="*", default=list(FILES), help="File names inside --data.")
    args = parser.parse_args()
    print(f"canonical_many, best of {args.repeat}, target {TARGET:,} puzzles/s per core")
    for name in args.files:
        bench(args.data / name, args.threads, args.repeat, args.check)


if __name__ == "__main__":
    main()
