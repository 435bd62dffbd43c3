"""The 25x25 heavy tail (issue 12): nodes and time of the restarted first-solution search, variant against variant.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/tail25_bench.py --instances 461 --seeds 0-9                  # 461 over ten seeds
    python benchmarks/tail25_bench.py --instances H20 --seeds 0-3 --cap 300000     # the 20 hardest, 4 seeds
    python benchmarks/tail25_bench.py --instances all --seeds 0                    # the whole set

Each search is ``boards.first_solution`` called directly, one thread, under a node cap (a capped search counts
the cap); variants alternate instance by instance in one process, so their times share the load of the box
(quote ratios). Nodes are exact for a seed: seed 0 is the default search's (``dfs.RESTART_SEED``), seed s >= 1
draws instance i from ``new_state(s * 1000003 + i)`` (benchmarks/NOTES-kernels.md, round 7). Every solution is
verified. Instances are 0-based line numbers of the file (461 is line 462); ``H20`` names the 20 hardest of
round 7, ``H45`` the 50 at 45 % fill, ``all`` the 1,050. Variants: ``base`` (``NO_WEIGHTS``: pairs and MRV,
the search before dom/wdeg) and ``wdeg`` (the default search: dom/wdeg branching from N = 25). Figures and
what lost: benchmarks/results/tail25.md.
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
from bitdoku.kernels import boards
from bitdoku.kernels import status as codes
from bitdoku.kernels.dfs import RESTART_SEED
from bitdoku.kernels.rng import new_state
from bitdoku.shape import Shape

REPO = Path(__file__).resolve().parents[1]
FILE = "sudoku25x25_acs_general_even.txt"
H20 = [461, 467, 462, 463, 495, 452, 491, 471, 450, 453, 486, 493, 481, 479, 451, 483, 468, 509, 469, 477]
VARIANTS = {
    "base": codes.ALL_RULES | codes.NO_WEIGHTS,
    "wdeg": codes.ALL_RULES,
}


def instances(spec: list[str], total: int) -> list[int]:
    """Instance indices from names (H20, H45, all), single numbers, comma lists and ranges a-b."""
    chosen: list[int] = []
    for item in (part for entry in spec for part in entry.split(",")):
        if item == "H20":
            chosen += H20
        elif item == "H45":
            chosen += list(range(450, 500))
        elif item == "all":
            chosen += list(range(total))
        elif "-" in item:
            low, high = item.split("-")
            chosen += list(range(int(low), int(high) + 1))
        else:
            chosen.append(int(item))
    return chosen


def seeds(spec: str) -> list[int]:
    """Seeds from a range a-b or a comma list."""
    if "-" in spec:
        low, high = spec.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(s) for s in spec.split(",")]


def solve(puzzle: np.ndarray, shape: Shape, flags: int, seed: int, index: int, cap: int,
          unit: int) -> tuple[bool, int, int, float]:
    """One search: (solved and verified, nodes, restarts, seconds)."""
    rng = np.full(1, RESTART_SEED, np.uint64) if seed == 0 else new_state(seed * 1000003 + index)
    solutions = np.zeros((1, shape.n_cells), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    start = time.perf_counter()
    status = boards.first_solution(puzzle, shape.n, shape.box_rows, cap, flags, solutions, stats, rng,
                                   np.int64(unit), np.zeros(1, np.int64))
    seconds = time.perf_counter() - start
    solved = status == codes.LIMIT_REACHED and bool(verify_solutions(puzzle[None], solutions, shape)[0])
    if status == codes.LIMIT_REACHED and not solved:
        sys.exit(f"tail25_bench: instance {index}, seed {seed}: a wrong solution")
    if status == codes.COMPLETE:
        sys.exit(f"tail25_bench: instance {index}, seed {seed}: 'no solution' on a solvable grid")
    return solved, int(stats[codes.STAT_NODES]), int(stats[codes.STAT_RESTARTS]), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data",
                        help="folder of the shared puzzle files")
    parser.add_argument("--file", default=FILE, help="puzzle file in --data (default: the 25x25 ACS set)")
    parser.add_argument("--instances", nargs="+", default=["H20"],
                        help="0-based indices, comma lists, ranges a-b, H20, H45 or all (default: H20)")
    parser.add_argument("--seeds", default="0", help="seeds: a-b or comma list (0: the default search's seed)")
    parser.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=list(VARIANTS))
    parser.add_argument("--cap", type=int, default=300_000, help="node cap a search (default 300,000)")
    parser.add_argument("--unit", type=int, default=boards.RESTART_UNIT, help="restart unit (dead ends)")
    parser.add_argument("--each", action="store_true", help="print every search")
    args = parser.parse_args()
    path = args.data / args.file
    if not path.is_file():
        sys.exit(f"tail25_bench: {path} not found (--data names the folder of the shared sets)")
    puzzles = load(path)
    shape = Shape.infer(puzzles.shape[1])
    chosen, chosen_seeds = instances(args.instances, len(puzzles)), seeds(args.seeds)
    for flags in VARIANTS.values():
        solve(puzzles[0], shape, flags, 0, 0, 10, args.unit)  # compile or load before timing
    results: dict[str, list[tuple[int, int, bool, int, float]]] = {name: [] for name in args.variants}
    for index in chosen:
        for seed in chosen_seeds:
            for name in args.variants:
                solved, nodes, restarts, seconds = solve(puzzles[index], shape, VARIANTS[name], seed, index,
                                                         args.cap, args.unit)
                results[name].append((index, seed, solved, nodes, seconds))
                if args.each:
                    print(f"{name:6} instance {index:4} seed {seed}: {'solved' if solved else 'CAPPED':6} "
                          f"{nodes:9,} nodes {restarts:4} restarts {seconds * 1e3:10.1f} ms", flush=True)
    print(f"\n{len(chosen)} instances x {len(chosen_seeds)} seeds, cap {args.cap:,}, unit {args.unit}\n")
    print("| variant | searches | capped | nodes sum | median | p99 | worst (instance, seed) | mean ms | "
          "median ms | p99 ms | worst ms | µs a node |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for name, rows in results.items():
        nodes = np.array([row[3] for row in rows])
        ms = np.array([row[4] for row in rows]) * 1e3
        worst = max(rows, key=lambda row: row[3])
        print(f"| {name} | {len(rows)} | {sum(not row[2] for row in rows)} | {nodes.sum():,} | "
              f"{statistics.median(nodes):,.0f} | {np.percentile(nodes, 99):,.0f} | "
              f"{worst[3]:,} ({worst[0]}, {worst[1]}) | {ms.mean():.2f} | {np.median(ms):.2f} | "
              f"{np.percentile(ms, 99):.1f} | {ms.max():.1f} | {ms.sum() * 1e3 / nodes.sum():.1f} |")


if __name__ == "__main__":
    main()
