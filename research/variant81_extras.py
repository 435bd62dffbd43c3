"""Two figures of the 9x9 variant kernel (``kernels/variant81.py``) that ``variants_bench.py`` does not give.

Run from the repository root (with ``PYTHONPATH=src`` or after ``pip install -e .``)::

    python research/variant81_extras.py rules [--first 300] [--rounds 3]   # do locked candidates pay?
    python research/variant81_extras.py compile                            # first compile, cold cache

* ``rules``: each saved set (``benchmarks/data/variants``, written by ``variants_bench.py generate``) through
  ``variant81.count_many`` with all rules and with naked and hidden singles only, rounds interleaved, medians: µs a
  puzzle (batch mean, heavy tail included) and nodes.
* ``compile``: a fresh process with an empty ``NUMBA_CACHE_DIR`` builds the tables of the X geometry and makes one
  search of the empty X grid, timed around the call (compile included); then a second process, same cache, does the
  same (load only).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from bitdoku.kernels import status as codes
from bitdoku.kernels import variant81

SETS = ("x", "windoku", "jigsaw-1", "jigsaw-2", "jigsaw-3", "anti-knight", "anti-king")
RULES = {"all rules": codes.ALL_RULES, "naked + hidden singles": codes.NAKED_SINGLES | codes.HIDDEN_SINGLES}
ONE_SEARCH = """
import time
import numpy as np
from bitdoku.geometry import Geometry
from bitdoku.kernels import status as codes
from bitdoku.kernels import variant81
tables = variant81.board_tables(Geometry.parse("x"))
solutions, stats = np.zeros((2, 81), np.uint8), np.zeros(codes.N_STATS, np.int64)
start = time.perf_counter()
variant81.search(np.zeros(81, np.uint8), tables, 2, 1000, codes.ALL_RULES, solutions, stats, np.zeros(1, np.int64))
print(f"{time.perf_counter() - start:.2f}")
"""


def compare_rules(first: int, rounds: int) -> None:
    """Print the table of ``rules``."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks"))
    from variants_bench import load_set

    print("| set | " + " | ".join(RULES) + " | all rules faster by |\n|---|---|---|---:|")
    for name in SETS:
        geometry, puzzles = load_set(name)
        cells = np.stack([np.frombuffer(p.cells, np.uint8) for p in puzzles[:first]])
        tables = variant81.board_tables(geometry)
        out = [np.zeros(len(cells), np.int64) for _ in range(3)]
        seconds: dict[str, list[float]] = {rule: [] for rule in RULES}
        nodes = {}
        for _ in range(rounds):
            for rule, flags in RULES.items():
                start = time.perf_counter()
                variant81.count_many(cells, tables, 2, 10**9, flags, *out)
                seconds[rule].append(time.perf_counter() - start)
                if not (out[1] == 1).all():
                    raise SystemExit(f"{name}: a puzzle without exactly one solution")
                nodes[rule] = out[2].mean()
        medians = {rule: statistics.median(seconds[rule]) for rule in RULES}
        cells_text = " | ".join(f"{1e6 * medians[r] / len(cells):.1f} µs, {nodes[r]:.1f} nodes" for r in RULES)
        print(f"| {name} | {cells_text} | {medians['naked + hidden singles'] / medians['all rules']:.2f}x |",
              flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def first_compile() -> None:
    """Print the seconds of one search in a process with a cold cache, then with a warm one."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold cache (compile)", "warm cache (load)"):
            seconds = subprocess.run([sys.executable, "-c", ONE_SEARCH], env=env, check=True, capture_output=True,
                                     text=True).stdout.strip()
            print(f"{label}: {seconds} s")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("rules", "compile"))
    parser.add_argument("--first", type=int, default=300, help="puzzles of each set (rules)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (rules)")
    args = parser.parse_args()
    if args.step == "rules":
        compare_rules(args.first, args.rounds)
    else:
        first_compile()


if __name__ == "__main__":
    main()
