"""How far past its time limit does a call run? Generation before and after the stop flag, searches after (issue 16).

Before the stop flag, a time limit was checked between kernel calls only, and one call could be long: a 64x64
grid's fill is a single call of several seconds, so ``generate --shape 8x8 --time-limit 1`` ran for seconds more.
Now the kernels read a flag the watchdog sets at the deadline. This script runs each case in a child process on a
source tree (``--old``, ``--new``), after a warm-up that compiles or loads the kernels, and prints the time each
call took and its overshoot (time taken minus the limit), median over ``--repeat`` seeds.

* ``generate``: ``bitdoku.generate(shape, time_limit=T)`` on grids whose puzzle takes far longer than T (64x64,
  25x25), until its ``GenerationLimitError``; both trees.
* ``search``: ``bitdoku.search(..., time_limit=T)`` on searches that would run for hours (counting every 9x9
  grid, a 25x25 and a 64x64 empty-grid count); the new tree only (the old one has no ``time_limit``).
* ``strategy:NAME``: the same 9x9 count with ``strategy=NAME`` on 2 threads (the tree strategies share one
  flag); ``portfolio`` counts with ``pt_dfs``, so it is timed on a 64x64 first solution, which its restarts do
  not find in seconds.

    python benchmarks/time_limit_overshoot.py --old /tmp/old/src --new src --limits 0.5 1 2 --repeat 3
    python benchmarks/time_limit_overshoot.py --kinds strategy --limits 0.5 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, sys, time
import bitdoku
from bitdoku.errors import GenerationLimitError
kind, shape, limit, seed = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
if kind == "generate":
    bitdoku.generate("2x2", seed=1)  # compiles or loads the generator's kernels
    start = time.perf_counter()
    try:
        bitdoku.generate(shape, seed=seed, time_limit=limit)
        outcome = "made"
    except GenerationLimitError:
        outcome = "limit"
else:
    empty = bitdoku.Grid.empty(shape)
    strategy = kind.partition(":")[2] or "dfs"
    count = 1 if strategy == "portfolio" else 10**15
    bitdoku.search(empty, limit=count, strategy=strategy, threads=2, time_limit=0)  # compiles or loads its kernels
    start = time.perf_counter()
    outcome = str(bitdoku.search(empty, limit=count, strategy=strategy, threads=2, time_limit=limit).status)
print(json.dumps([time.perf_counter() - start, outcome]))
"""

CASES = (("generate", "8x8"), ("generate", "5x5"), ("search", "3x3"), ("search", "5x5"), ("search", "8x8"),
         *((f"strategy:{name}", "3x3") for name in ("bfs", "mixed", "pt_dfs", "pt_mix", "farm")),
         ("strategy:portfolio", "8x8"))


def run(src: str, cache: str, kind: str, shape: str, limit: float, seed: int) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(Path(src).resolve()), "NUMBA_CACHE_DIR": cache}
    done = subprocess.run([sys.executable, "-c", CHILD, kind, shape, str(limit), str(seed)], env=env,
                          capture_output=True, text=True, check=True)
    seconds, outcome = json.loads(done.stdout.strip().splitlines()[-1])
    return seconds, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", help="the src/ directory of the tree before the stop flag (generate only)")
    parser.add_argument("--new", default="src")
    parser.add_argument("--cache-old", default="/tmp/bitdoku-ab-cache-old")
    parser.add_argument("--cache-new", default=os.environ.get("NUMBA_CACHE_DIR", "/tmp/bitdoku-ab-cache-new"))
    parser.add_argument("--limits", type=float, nargs="+", default=[0.5, 1.0, 2.0])
    parser.add_argument("--repeat", type=int, default=3, help="seeds a case (the median is shown)")
    parser.add_argument("--kinds", nargs="+", default=["generate", "search", "strategy"],
                        help="which cases to run (default: all)")
    args = parser.parse_args()
    print("| call | grid | tree | limit s | took s (median) | overshoot s (median, max) | outcomes |")
    print("|---|---|---|---|---|---|---|")
    for kind, shape in CASES:
        if kind.partition(":")[0] not in args.kinds:
            continue
        trees = [("new", args.new, args.cache_new)]
        if kind == "generate" and args.old:
            trees.insert(0, ("old", args.old, args.cache_old))
        for limit in args.limits:
            for tree, src, cache in trees:
                runs = [run(src, cache, kind, shape, limit, seed) for seed in range(1, args.repeat + 1)]
                took = [seconds for seconds, _ in runs]
                over = [seconds - limit for seconds in took]
                outcomes = ", ".join(sorted({outcome for _, outcome in runs}))
                n = int(shape[0]) * int(shape[2])
                print(f"| {kind} | {n}x{n} | {tree} | {limit:g} | {statistics.median(took):.2f} | "
                      f"{statistics.median(over):+.2f}, {max(over):+.2f} | {outcomes} |", flush=True)


if __name__ == "__main__":
    main()
