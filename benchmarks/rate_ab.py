"""Same-run A/B of the SE rater between two source trees: each puzzle rated by both, in turn, on one machine.

Usage:
  python benchmarks/rate_ab.py OLD_SRC NEW_SRC [--file F] [--count 3000] [--step K] [--chunk 50]
  e.g.  git archive ca86c25 src | tar -x -C /tmp/old
        python benchmarks/rate_ab.py /tmp/old/src src --file /work/shared/data/17clue_royle_49151.txt --count 5000

Two worker processes, one per tree (``PYTHONPATH`` = the tree), each compiles every logic kernel first
(``logic.warmup``); the driver then sends them the same chunks of puzzles, one worker at a time (never both at
once, so they do not share the two cores), the first of the pair alternating from chunk to chunk so neither
gets the warmer caches. Each worker returns the CPU time (``time.process_time``) and the rating
(``Rating.to_dict()``) of every puzzle; the driver checks the ratings are equal and prints the mean, median, p99
and worst of each tree, the ratio of the means, the median ratio a puzzle, and the worst puzzles of each tree and
those B slowed down most. Give each tree its own ``NUMBA_CACHE_DIR`` (``--cache-a``/``--cache-b``, default
``<tree>/../.numba-cache``) so neither recompiles the other's kernels. Times are of one run on a shared machine:
quote the ratios, not the absolute figures against another run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

_WORKER = r"""
import json, sys, time
from bitdoku.logic import rate
from bitdoku.logic.warmup import warm_up
warm_up()
rate(sys.argv[1])
print("ready", flush=True)
for line in sys.stdin:
    out = []
    for puzzle in json.loads(line):
        start = time.process_time()
        found = rate(puzzle).to_dict()
        out.append((time.process_time() - start, found))
    print(json.dumps(out), flush=True)
"""


def _worker(src: Path, cache: Path, first: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(src), NUMBA_CACHE_DIR=str(cache))
    proc = subprocess.Popen([sys.executable, "-c", _WORKER, first], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env=env)
    if proc.stdout is None or proc.stdout.readline().strip() != "ready":
        raise SystemExit(f"the worker of {src} did not start")
    return proc


def _ask(proc: subprocess.Popen, chunk: list[str]) -> list[tuple[float, dict]]:
    proc.stdin.write(json.dumps(chunk) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def _summary(name: str, ms: np.ndarray) -> str:
    return (f"{name}: mean {ms.mean():.3f} ms, median {np.median(ms):.3f}, p99 {np.percentile(ms, 99):.2f}, "
            f"worst {ms.max():.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="The first tree's src directory (A).")
    parser.add_argument("new", type=Path, help="The second tree's src directory (B).")
    parser.add_argument("--file", type=Path, default=Path("/work/shared/data/17clue_royle_49151.txt"),
                        help="Puzzle file, one a line (first column).")
    parser.add_argument("--count", type=int, default=3000, help="Puzzles, evenly spaced (0: all).")
    parser.add_argument("--offset", type=int, default=0, help="The first line of the evenly spaced sample.")
    parser.add_argument("--chunk", type=int, default=50, help="Puzzles a turn.")
    parser.add_argument("--cache-a", type=Path, default=None, help="NUMBA_CACHE_DIR of A.")
    parser.add_argument("--cache-b", type=Path, default=None, help="NUMBA_CACHE_DIR of B.")
    args = parser.parse_args()
    lines = [line.split()[0] for line in args.file.read_text().splitlines() if line.strip()]
    if args.count and len(lines) > args.count:
        lines = lines[args.offset :: len(lines) // args.count][: args.count]
    trees = (args.old.resolve(), args.new.resolve())
    caches = (args.cache_a or trees[0].parent / ".numba-cache", args.cache_b or trees[1].parent / ".numba-cache")
    procs = [_worker(tree, cache, lines[0]) for tree, cache in zip(trees, caches, strict=True)]
    times = np.zeros((len(lines), 2))
    differ = 0
    for index, start in enumerate(range(0, len(lines), args.chunk)):
        chunk = lines[start : start + args.chunk]
        found: list[list[tuple[float, dict]]] = [[], []]
        for j in (0, 1) if index % 2 == 0 else (1, 0):
            found[j] = _ask(procs[j], chunk)
        for i, (a, b) in enumerate(zip(*found, strict=True)):
            times[start + i] = a[0], b[0]
            if a[1] != b[1]:
                differ += 1
                print(f"{chunk[i]}: A {a[1]}\n  B {b[1]}")
    for proc in procs:
        proc.stdin.close()
        proc.wait()
    ms = times * 1e3
    print(f"{len(lines)} puzzles of {args.file.name}, CPU time, load {os.getloadavg()[0]:.1f} at the end")
    print(_summary(f"A {args.old}", ms[:, 0]))
    print(_summary(f"B {args.new}", ms[:, 1]))
    print(f"B/A: ratio of the means {ms[:, 1].sum() / ms[:, 0].sum():.3f}, median ratio a puzzle "
          f"{np.median(ms[:, 1] / np.maximum(ms[:, 0], 1e-6)):.3f}; {differ} ratings differ")
    for name, order in (("worst of A", np.argsort(-ms[:, 0])), ("worst of B", np.argsort(-ms[:, 1])),
                        ("most slowed down in B", np.argsort(ms[:, 0] - ms[:, 1]))):
        print(f"{name}: " + ", ".join(f"{lines[i]} (A {ms[i, 0]:.1f} ms, B {ms[i, 1]:.1f} ms)" for i in order[:3]))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
