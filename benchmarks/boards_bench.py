"""The bitboard kernel for 16x16 and 25x25 grids (issue 12): node speed, first solutions, counting to 2.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/boards_bench.py [--data ../shared/data] [--only nodes first count] [--rounds 3] [--evict-mb 32]

* ``nodes``: microseconds a search node on the same searches (first solution, no restarts, a node budget an
  instance) for three kernels, rounds interleaved, medians: the bitboard kernel (``boards``), the cell-by-cell
  kernel with its unit queue (``GENERIC_ONLY``) and the same with every unit scanned on every pass
  (``GENERIC_ONLY | FULL_SCAN``, the algorithm of the generic kernel before issue 12; it runs each unit through
  the per-unit rule, which makes it ~15 % slower than that kernel was, so the ratio against it runs high). All
  three must visit the same nodes; the script stops if they do not.
* ``first``: the default first-solution search (``search(limit=1)``, restarts on) on every instance of the
  16x16 and 25x25 ACS sets, one thread, each instance timed around the kernel call: solved, mean, median, p99,
  worst, and per fill level. Every solution is verified.
* ``count``: ``search(limit=2)`` (exhaustive, no restarts) on every 16x16 instance with a budget: the budget
  must never be hit.

The SAT solver's side of the comparison is ``compare_bench.py --sets 16x16 25x25``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from bitdoku.batch import verify_solutions
from bitdoku.benchmark import load
from bitdoku.kernels import status as codes
from bitdoku.kernels.dfs import search
from bitdoku.shape import Shape

REPO = Path(__file__).resolve().parents[1]
SETS = {  # name: (file, shape, node budget an instance for ``nodes``, instances for ``nodes``)
    "16x16": ("sudoku16x16_acs_general_even.txt", Shape(4, 4), 20_000, slice(0, None)),
    "25x25": ("sudoku25x25_acs_general_even.txt", Shape(5, 5), 2_000, slice(300, 500)),
}
KERNELS = {
    "boards": codes.ALL_RULES | codes.NO_RESTARTS,
    "generic (unit queue)": codes.ALL_RULES | codes.GENERIC_ONLY,
    "generic (full scan, before issue 12)": codes.ALL_RULES | codes.GENERIC_ONLY | codes.FULL_SCAN,
}


def run(puzzle: np.ndarray, shape: Shape, limit: int, max_nodes: int, flags: int) -> tuple[int, np.ndarray,
                                                                                          np.ndarray, float]:
    """One kernel call: (status, stats, solutions, seconds)."""
    tables = shape.tables
    solutions = np.zeros((limit, shape.n_cells), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    start = time.perf_counter()
    status = search(puzzle, shape.n, tables.units, tables.cell_units, tables.peers, limit, max_nodes, flags,
                    solutions, stats)
    return status, stats, solutions, time.perf_counter() - start


def node_speed(data: Path, rounds: int) -> None:
    print("\n### Microseconds a node, same searches, rounds interleaved (medians)\n")
    print("| set | instances | nodes | " + " | ".join(KERNELS) + " | boards speed-up (full scan / boards) |")
    print("|---|---:|---:|" + "---:|" * len(KERNELS) + "---:|")
    for name, (file, shape, budget, part) in SETS.items():
        puzzles = load(data / file)[part]
        times: dict[str, list[float]] = {kernel: [] for kernel in KERNELS}
        nodes: dict[str, int] = {}
        for flags in KERNELS.values():
            run(puzzles[0], shape, 1, 10, flags)  # compile or load
        for _ in range(rounds):
            for kernel, flags in KERNELS.items():
                total, count = 0.0, 0
                for puzzle in puzzles:
                    _, stats, _, seconds = run(puzzle, shape, 1, budget, flags)
                    total += seconds
                    count += int(stats[codes.STAT_NODES])
                times[kernel].append(total)
                nodes[kernel] = count
        if len(set(nodes.values())) != 1:
            sys.exit(f"the kernels visited different nodes on {name}: {nodes}")
        count = nodes["boards"]
        per_node = {kernel: statistics.median(t) / count * 1e6 for kernel, t in times.items()}
        cells = " | ".join(f"{per_node[kernel]:.2f}" for kernel in KERNELS)
        speedup = per_node["generic (full scan, before issue 12)"] / per_node["boards"]
        print(f"| {name} | {len(puzzles)} | {count:,} | {cells} | {speedup:.1f}x |")


def first_solutions(data: Path, evict_mb: int = 0) -> None:
    """Each instance's first solution, timed around the kernel call; with ``evict_mb``, a buffer of that many MB
    is written before each call (untimed), so that every call starts on caches something else has filled, as
    in ``compare_bench.py``, where each call follows the load of a CNF of about a hundred thousand clauses."""
    evict = np.zeros(evict_mb * 2**20 // 8, np.int64)
    print("\n### First solution, default search (restarts on), one thread, every instance"
          + (f", {evict_mb} MB written before each call" if evict_mb else "") + "\n")
    print("| set | fill | instances | solved | restarted | mean ms | median ms | p99 ms | worst ms | worst nodes |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, (file, shape, _, _) in SETS.items():
        puzzles = load(data / file)
        run(puzzles[0], shape, 1, 10, codes.ALL_RULES)
        rows = []
        for puzzle in puzzles:
            evict += 1
            status, stats, solutions, seconds = run(puzzle, shape, 1, 2_000_000, codes.ALL_RULES)
            solved = status == codes.LIMIT_REACHED and bool(verify_solutions(puzzle[None], solutions, shape)[0])
            rows.append((round(float((puzzle > 0).mean()), 2), solved, int(stats[codes.STAT_RESTARTS]) > 0,
                         seconds, int(stats[codes.STAT_NODES])))
        fills = sorted({row[0] for row in rows})
        for fill in [None, *fills]:
            part = [row for row in rows if fill is None or row[0] == fill]
            seconds = np.array([row[3] for row in part]) * 1e3
            label = "all" if fill is None else f"{fill:.0%}"
            print(f"| {name} | {label} | {len(part)} | {sum(row[1] for row in part)} | "
                  f"{sum(row[2] for row in part)} | {seconds.mean():.3f} | {np.median(seconds):.3f} | "
                  f"{np.percentile(seconds, 99):.2f} | {seconds.max():.1f} | {max(row[4] for row in part):,} |")


def count_to_two(data: Path) -> None:
    print("\n### Count to 2 (exhaustive, no restarts), 16x16, budget 1,000,000 nodes an instance\n")
    file, shape, _, _ = SETS["16x16"]
    puzzles = load(data / file)
    run(puzzles[0], shape, 2, 10, codes.ALL_RULES)
    results = [run(puzzle, shape, 2, 1_000_000, codes.ALL_RULES) for puzzle in puzzles]
    seconds = np.array([result[3] for result in results]) * 1e3
    hits = sum(result[0] == codes.BUDGET_EXHAUSTED for result in results)
    counts = np.bincount([int(result[1][codes.STAT_SOLUTIONS]) for result in results], minlength=3)
    print("| instances | budget hit | 0 / 1 / 2 solutions | mean ms | median ms | worst ms |")
    print("|---:|---:|---|---:|---:|---:|")
    print(f"| {len(puzzles)} | {hits} | {counts[0]} / {counts[1]} / {counts[2]} | {seconds.mean():.3f} | "
          f"{np.median(seconds):.3f} | {seconds.max():.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--only", nargs="+", choices=["nodes", "first", "count"], default=["nodes", "first", "count"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--evict-mb", type=int, default=0, metavar="MB",
                        help="first: write a buffer of MB megabytes before each call (cold caches; default 0)")
    args = parser.parse_args()
    for file, *_ in SETS.values():
        if not (args.data / file).is_file():
            sys.exit(f"boards_bench: {args.data / file} not found (--data names the folder of the shared sets)")
    if "nodes" in args.only:
        node_speed(args.data, args.rounds)
    if "first" in args.only:
        first_solutions(args.data, args.evict_mb)
    if "count" in args.only:
        count_to_two(args.data)


if __name__ == "__main__":
    main()
