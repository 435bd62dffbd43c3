"""Time the search kernels on the shared puzzle files and verify every solution they return.

Run from the repository root::

    PYTHONPATH=src python benchmarks/kernel_bench.py                  # the four target sets, 1 and 2 threads
    PYTHONPATH=src python benchmarks/kernel_bench.py --flags 3 --generic magictour_top1465

Prints one table row per (file, engine, flags, threads): puzzles, µs per puzzle, puzzles per second, and the mean
nodes, guesses and backtracks per puzzle. JIT compile time is measured once, before any timing, and reported
on its own line. Numba's thread count is set here (``numba.set_num_threads``), never in library code.
"""

import argparse
import time
from pathlib import Path

import numba
import numpy as np

DATA = Path("/work/shared/data")
TARGETS = {  # file (or a literal grid) -> target µs per puzzle with limit=2, one thread
    "17clue_royle_49151": 5.0,
    "magictour_top1465": 15.0,
    "forum_hardest_1106": 60.0,
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..": 60.0,
}
ALPHABET = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def load(name: str) -> np.ndarray:
    """Read a puzzle file (or one literal grid) into a uint8 (B, N*N) array, '.' as 0."""
    path = DATA / f"{name}.txt"
    raw = path.read_bytes().split() if path.exists() else [name.encode()]
    table = np.zeros(256, np.uint8)
    for value, char in enumerate(ALPHABET, start=1):
        table[char] = value
    return table[np.frombuffer(b"".join(raw), np.uint8)].reshape(len(raw), -1)


def verify(puzzles: np.ndarray, solutions: np.ndarray, status: np.ndarray, tables) -> int:
    """Check that each solved row is a valid grid that keeps its givens; return the number of solved rows."""
    from bitdoku.kernels.status import COMPLETE, LIMIT_REACHED

    n = round(puzzles.shape[1] ** 0.5)
    solved = (status == COMPLETE) | (status == LIMIT_REACHED)
    rows = solutions[solved]
    for unit in tables.units:
        digits = np.sort(rows[:, unit], axis=1)
        bad = np.any(digits != np.arange(1, n + 1, dtype=np.uint8), axis=1)
        if bad.any():
            raise AssertionError(f"{bad.sum()} solutions break unit {unit}")
    givens = puzzles[solved] != 0
    if np.any(rows[givens] != puzzles[solved][givens]):
        raise AssertionError("a solution changed a given")
    return int(solved.sum())


def run(puzzles, tables, limit, flags, threads, repeat):
    """The best of ``repeat`` timed batch runs: (seconds, solutions, status, stats)."""
    from bitdoku.kernels.batch import search_many
    from bitdoku.kernels.status import N_STATS

    numba.set_num_threads(threads)
    rows, n_cells = puzzles.shape
    n = round(n_cells**0.5)
    best = None
    for _ in range(repeat):
        solutions = np.zeros((rows, n_cells), np.uint8)
        status = np.zeros(rows, np.int32)
        stats = np.zeros((rows, N_STATS), np.int64)
        start = time.perf_counter()
        search_many(puzzles, n, tables.units, tables.cell_units, tables.peers, limit, 10**7, flags, solutions,
                    status, stats)
        elapsed = time.perf_counter() - start
        if best is None or elapsed < best[0]:
            best = (elapsed, solutions, status, stats)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(TARGETS), help="file stems in /work/shared/data or grids")
    parser.add_argument("--flags", type=int, default=7, help="rule bits: 1 naked, 2 hidden, 4 locked")
    parser.add_argument("--generic", action="store_true", help="force the generic kernel (GENERIC_ONLY)")
    parser.add_argument("--limit", type=int, default=2)
    parser.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-rows", type=int, default=0, help="use only the first rows of each file")
    args = parser.parse_args()

    start = time.perf_counter()
    from bitdoku.kernels.batch import search_many
    from bitdoku.kernels.status import GENERIC_ONLY, STAT_BACKTRACKS, STAT_GUESSES, STAT_NODES, STATUS_NAMES
    from bitdoku.shape import Shape

    print(f"import {time.perf_counter() - start:.2f} s")
    flags = args.flags | (GENERIC_ONLY if args.generic else 0)
    engine = "generic" if args.generic else "auto"
    header = f"{'puzzles':>40} {'engine':>8} {'flags':>5} {'thr':>3} {'rows':>6} {'us/puz':>9} {'puz/s':>9}"
    print(header + f" {'nodes':>8} {'guesses':>8} {'backtr':>8} {'target':>7}  status")
    for name in args.names:
        puzzles = load(name)
        if args.max_rows:
            puzzles = puzzles[: args.max_rows]
        n = round(puzzles.shape[1] ** 0.5)
        tables = Shape.for_digits(n).tables
        start = time.perf_counter()
        search_many(puzzles[:1], n, tables.units, tables.cell_units, tables.peers, 2, 10, flags,
                    np.zeros((1, n * n), np.uint8), np.zeros(1, np.int32), np.zeros((1, 8), np.int64))
        compile_seconds = time.perf_counter() - start
        if compile_seconds > 0.05:
            print(f"compile (or cache load) {compile_seconds:.2f} s")
        for threads in args.threads:
            elapsed, solutions, status, stats = run(puzzles, tables, args.limit, flags, threads, args.repeat)
            verify(puzzles, solutions, status, tables)
            rows = len(puzzles)
            counts = np.bincount(status, minlength=5)
            summary = " ".join(f"{STATUS_NAMES[i]}={c}" for i, c in enumerate(counts) if c)
            micro = elapsed / rows * 1e6
            target = TARGETS.get(name, float("nan")) if threads == 1 else float("nan")
            label = name if len(name) <= 40 else name[:37] + "..."
            print(f"{label:>40} {engine:>8} {args.flags:>5} {threads:>3} {rows:>6} {micro:>9.2f} {rows / elapsed:>9.0f}"
                  f" {stats[:, STAT_NODES].mean():>8.1f} {stats[:, STAT_GUESSES].mean():>8.1f}"
                  f" {stats[:, STAT_BACKTRACKS].mean():>8.1f} {target:>7.1f}  {summary}")


if __name__ == "__main__":
    main()
