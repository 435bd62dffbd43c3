"""Parallel search of one puzzle (issue 4): speedup of every mode on 1 and 2 threads, and the scheduling
overhead per sub-puzzle.

Run from the repository root after ``pip install -e '.[plot]'``::

    python benchmarks/parallel_bench.py [--data ../shared/data] [--repeat 3]

Workloads: counting every solution of the shipped big trees (``bitdoku/data/big_trees.txt``; the one with 18
givens takes about 3 s on one thread), the hardest 16x16 instance of the shared set (fill 25 %, first solution),
and msolve's hardest-to-verify set as a batch in count mode. Writes the experiment table, CSV, JSON and plot
to ``benchmarks/results/``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import bitdoku
from bitdoku.batch import count_many
from bitdoku.benchmark import load
from bitdoku.data import sample_lines
from bitdoku.experiment import format_table, plot_speedups, run_experiment, write_files
from bitdoku.parallel.farm import SchedulerStats
from bitdoku.parallel.threads import run_shared, run_threaded_farm
from bitdoku.parallel.tree import Tally, Tree

OUT = Path(__file__).resolve().parent / "results"
MODES = ["seq", "mixed", "pt_dfs", "pt_mix", "farm"]


def speedups(repeat: int) -> None:
    big = bitdoku.Grid.parse(sample_lines("big_trees.txt")[2])
    print(f"\n### Counting all {bitdoku.count_solutions(big, limit=10**9):,} solutions of one puzzle "
          f"(`{big.to_line()}`), best of {repeat}\n")
    measurements = run_experiment([big], MODES, [1, 2], repeat=repeat, limit=10**9)
    print(format_table(measurements))
    OUT.mkdir(exist_ok=True)
    write_files(measurements, OUT / "speedup_18_givens")
    plot_speedups(measurements, OUT / "speedup_18_givens", "count all solutions, 18 givens")


def overhead() -> None:
    print("\n### Scheduling overhead per sub-puzzle (threads, 2 workers)\n")
    print("| mode | tasks | kernel s (sum) | wall s | overhead µs/task |\n|---|---:|---:|---:|---:|")
    puzzle = np.frombuffer(bitdoku.Grid.parse(sample_lines("big_trees.txt")[0]).cells, np.uint8).copy()
    runs = {
        "pt_dfs": lambda t, s: run_shared(Tree(bitdoku.Shape(3, 3)), puzzle, t, 10**9, threads=2, lifo=True,
                                          scheduler_stats=s),
        "pt_mix": lambda t, s: run_shared(Tree(bitdoku.Shape(3, 3)), puzzle, t, 10**9, threads=2, lifo=False,
                                          scheduler_stats=s),
        "farm": lambda t, s: run_threaded_farm(Tree(bitdoku.Shape(3, 3)), puzzle, t, 10**9, threads=2, farm_stats=s),
    }
    for mode, run in runs.items():
        stats = SchedulerStats()
        run(Tally(limit=10**9, keep=0), stats)
        print(f"| {mode} | {stats.tasks:,} | {stats.kernel_seconds:.3f} | {stats.wall_seconds:.3f} | "
              f"{stats.overhead_us:,.0f} |")


def hard_instances(data: Path) -> None:
    print("\n### Hard instances of the shared data\n")
    # The hardest 16x16 line for this engine needs 1,452 nodes; the 25x25 lines 460-464 (fill 45 %) are the
    # ones no search here finishes within 50,000 nodes. Line 460, first solution, within 300,000 nodes:
    lines = (data / "sudoku25x25_acs_general_even.txt").read_text().split()
    hardest = bitdoku.Grid.parse(lines[459])
    for strategy, threads in (("dfs", 1), ("mixed", 1), ("pt_dfs", 2), ("pt_mix", 2), ("farm", 2)):
        start = time.perf_counter()
        result = bitdoku.search(hardest, limit=1, strategy=strategy, threads=threads, max_nodes=300_000)
        print(f"- 25x25 line 460 (45 % fill), first solution, {strategy} on {threads}: {result.status}, "
              f"{result.stats.nodes:,} nodes, {time.perf_counter() - start:.2f} s")
    verify = load(data / "msolve_hardest_to_verify.txt")
    for threads in (1, 2):
        start = time.perf_counter()
        result = count_many(verify, limit=2, threads=threads)
        print(f"- msolve_hardest_to_verify (1,000 puzzles, count to 2) on {threads} threads: "
              f"{time.perf_counter() - start:.3f} s, {dict((str(k), v) for k, v in result.summary().items())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    speedups(args.repeat)
    overhead()
    hard_instances(args.data)


if __name__ == "__main__":
    main()
