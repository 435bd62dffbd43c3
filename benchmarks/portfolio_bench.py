"""The portfolio strategy against the sequential restarted search on the heavy tail of 25x25 (issue 12).

Run from the repository root on an idle machine (a portfolio needs a free core a member to pay)::

    python benchmarks/portfolio_bench.py [--data ../shared/data] [--fill 40 50] [--threads 2] [--rounds 1]

The instances are those of ``sudoku25x25_acs_general_even.txt`` whose fill (givens / cells) lies in the
``--fill`` band, where the first-solution search is heavy-tailed (NOTES-kernels.md, rounds 5 and 7). Each
instance is solved by ``bitdoku.search(limit=1)`` with ``strategy="dfs"`` (one thread, restarted search) and
with ``strategy="portfolio"`` on ``--threads`` threads, alternating which goes first, each timed around the
call. Every solution is verified. Prints mean, median, p90 and worst of each, and the instances where either
took longest; the same-run ratio of means is the figure to quote.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import bitdoku
from bitdoku import Grid

REPO = Path(__file__).resolve().parents[1]
FILE = "sudoku25x25_acs_general_even.txt"
BUDGET = 2_000_000


def band(data: Path, low: float, high: float) -> list[tuple[int, Grid]]:
    """(line number, puzzle) for every instance whose fill percentage lies in [low, high)."""
    chosen = []
    with open(data / FILE, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            grid = Grid.parse(line.strip())
            fill = 100 * grid.givens / len(grid)
            if low <= fill < high:
                chosen.append((number, grid))
    return chosen


def timed(grid: Grid, strategy: str, threads: int) -> float:
    """Seconds for one first-solution search; stops the run if the answer is wrong or missing."""
    start = time.perf_counter()
    result = bitdoku.search(grid, limit=1, max_nodes=BUDGET, strategy=strategy, threads=threads)
    seconds = time.perf_counter() - start
    if not result.solutions or not result.solutions[0].is_solution_of(grid):
        sys.exit(f"{strategy}: no verified solution ({result.status})")
    return seconds


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (f"| {name} | {1000 * statistics.mean(times):.1f} | {1000 * statistics.median(times):.2f} | "
            f"{1000 * p90:.1f} | {1000 * ordered[-1]:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--fill", type=float, nargs=2, default=(40.0, 50.0), metavar=("LOW", "HIGH"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    instances = band(args.data, *args.fill)
    print(f"{len(instances)} instances of {FILE} at {args.fill[0]:g}-{args.fill[1]:g} % fill, "
          f"portfolio on {args.threads} threads", file=sys.stderr)
    timed(instances[0][1], "dfs", 1), timed(instances[0][1], "portfolio", args.threads)  # compile, warm up
    times: dict[str, list[float]] = {"dfs": [], "portfolio": []}
    worst: list[tuple[float, float, int]] = []
    for round_ in range(args.rounds):
        for index, (line, grid) in enumerate(instances):
            order = ["dfs", "portfolio"] if (index + round_) % 2 == 0 else ["portfolio", "dfs"]
            pair = {name: timed(grid, name, 1 if name == "dfs" else args.threads) for name in order}
            for name, seconds in pair.items():
                times[name].append(seconds)
            worst.append((pair["dfs"], pair["portfolio"], line))
    print(f"## portfolio against dfs, 25x25 at {args.fill[0]:g}-{args.fill[1]:g} % fill "
          f"({len(instances)} instances, {args.rounds} round(s))\n")
    print("| strategy | mean ms | median ms | p90 ms | worst ms |\n|---|---:|---:|---:|---:|")
    print(summary("dfs, 1 thread", times["dfs"]))
    print(summary(f"portfolio, {args.threads} threads", times["portfolio"]))
    ratio = statistics.mean(times["portfolio"]) / statistics.mean(times["dfs"])
    print(f"\nportfolio / dfs, ratio of means: {ratio:.2f}\n\nslowest instances (line: dfs ms, portfolio ms):")
    for dfs_s, portfolio_s, line in sorted(worst, key=lambda w: -max(w[0], w[1]))[:5]:
        print(f"- line {line}: {1000 * dfs_s:.0f}, {1000 * portfolio_s:.0f}")


if __name__ == "__main__":
    main()
