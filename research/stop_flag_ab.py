"""Does the stop flag slow the kernels down? An interleaved A/B of two source trees (issue 16, time limits).

Every search kernel now reads a stop flag where it checks its node budget (one load a node). This script times
``count_many(threads=1)`` (limit 2 on 9x9, a first solution on 16x16) with the source tree ``--old`` (e.g.
``git archive 534ed1e src | tar -x -C /tmp/old``) and ``--new`` in alternating child processes, ``--rounds``
times each (a child keeps the best of ``--repeat`` timings), and prints each tree's median µs a puzzle and the
ratio new/old, with the node counts, which must be equal (the flag never changes the search). Each tree keeps its
own Numba cache (``--cache-old``, ``--cache-new``); a warm-up call compiles or loads the kernels before any timing.

    python research/stop_flag_ab.py --old /tmp/old/src --new src --data ../shared/data --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

#: (name, file, shape, puzzles taken, limit): 9x9 on the band kernel, 16x16 on the bitboard kernel.
SETS = (
    ("17-clue", "17clue_royle_49151.txt", "3x3", 20_000, 2),
    ("top1465", "magictour_top1465.txt", "3x3", 1465, 2),
    ("16x16 first", "sudoku16x16_acs_general_even.txt", "4x4", 200, 1),
)

CHILD = r"""
import json, sys, time
import numpy as np
from bitdoku.batch import count_many, as_puzzle_array
from bitdoku.benchmark import load
out = {}
for name, path, shape, take, limit in json.loads(sys.argv[1]):
    puzzles, shape = as_puzzle_array(load(path)[:take], shape)
    count_many(puzzles[:2], shape=shape, limit=limit, threads=1)  # compile or load
    best = float("inf")
    for _ in range(int(sys.argv[2])):
        start = time.perf_counter()
        result = count_many(puzzles, shape=shape, limit=limit, threads=1)
        best = min(best, time.perf_counter() - start)
    out[name] = (best / len(puzzles) * 1e6, int(result.stats[:, 1].sum()))
print(json.dumps(out))
"""


def run_tree(src: str, cache: str, sets: list, repeat: int) -> dict:
    """One child process on one source tree: {set: (µs a puzzle, best of ``repeat``; nodes)}."""
    env = {**os.environ, "PYTHONPATH": str(Path(src).resolve()), "NUMBA_CACHE_DIR": cache}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(sets), str(repeat)], env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True, help="the src/ directory of the tree before the change")
    parser.add_argument("--new", default="src", help="the src/ directory of the tree after it")
    parser.add_argument("--cache-old", default="/tmp/bitdoku-ab-cache-old")
    parser.add_argument("--cache-new", default=os.environ.get("NUMBA_CACHE_DIR", "/tmp/bitdoku-ab-cache-new"))
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="timings a child makes of each set (the best counts)")
    args = parser.parse_args()
    sets = [(name, str(Path(args.data) / file), shape, take, limit) for name, file, shape, take, limit in SETS]
    times: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    nodes: dict[str, dict[str, int]] = {"old": {}, "new": {}}
    for round_ in range(args.rounds):
        order = ("old", "new") if round_ % 2 == 0 else ("new", "old")
        for tree in order:
            src, cache = (args.old, args.cache_old) if tree == "old" else (args.new, args.cache_new)
            for name, (micros, count) in run_tree(src, cache, sets, args.repeat).items():
                times[tree].setdefault(name, []).append(micros)
                nodes[tree][name] = count
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    print("| set | old µs/puzzle (median) | new µs/puzzle (median) | new/old | per-round ratios | nodes equal |")
    print("|---|---|---|---|---|---|")
    for name, *_ in SETS:
        old, new = times["old"][name], times["new"][name]
        ratios = [n / o for n, o in zip(new, old, strict=True)]
        same = nodes["old"][name] == nodes["new"][name]
        print(f"| {name} | {statistics.median(old):.2f} | {statistics.median(new):.2f} | "
              f"{statistics.median(ratios):.3f} | {', '.join(f'{r:.3f}' for r in ratios)} | "
              f"{'yes' if same else 'NO'} ({nodes['new'][name]:,}) |")


if __name__ == "__main__":
    main()
