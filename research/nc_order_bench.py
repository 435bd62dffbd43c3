"""Removal orders, the cost of a node and of a check's root for minimal nonconsecutive puzzles (issue 14, nc4).

Run from the repository root with ``PYTHONPATH=src``::

    python research/nc_order_bench.py orders --first-seed 30000 --count 200 none edge_first manh
    python research/nc_probe_bench.py record --count 30 --out /tmp/nc_checks.npz   # on main's tree
    python research/nc_order_bench.py node-cost --checks /tmp/nc_checks.npz --rounds 3
    python research/nc_order_bench.py roots --checks /tmp/nc_checks.npz

* ``orders``: the generator's attempts (the fill and the shuffle of ``make.attempt_rows``, the same draws) with
  the shuffled order then sorted, stably, by a key of the cell (``KEYS``): check nodes an attempt (exact), the
  clues of the puzzles made (a histogram) and attempts a second (process time). ``edge_first`` is what
  ``dig.edge_first`` does; ``none`` is the plain shuffle (main).
* ``node-cost``: the recorded checks through ``nonconsecutive9.search_in``, every status checked against the
  recorded one: nodes (exact) and µs a node (the best round, process time). Run it with each tree's ``src`` on
  ``PYTHONPATH`` in alternate processes to compare two kernels (same nodes, so the ratio of the µs is the gain).
* ``roots``: the same checks with a one-node budget (loading the puzzle and propagating the root only) against
  in full: what a check's root costs.
"""

from __future__ import annotations

import argparse
import collections
import os
import time

import numpy as np
from nc_probe_bench import CELL_UNITS, NO_SOLUTIONS, STOP, TABLES, UNITS, WORKSPACE, check

from bitdoku.kernels import fill, nonconsecutive9
from bitdoku.kernels import status as codes
from bitdoku.kernels.rng import new_state, shuffle


def _ring(cell: int) -> int:
    row, column = divmod(cell, 9)
    return min(row, column, 8 - row, 8 - column)


def _centre(cell: int) -> int:
    row, column = divmod(cell, 9)
    return abs(row - 4) + abs(column - 4)


#: Sort keys of a cell (its index and its digit in the grid): smaller goes first.
KEYS = {
    "none": lambda cell, digit: 0,
    "edge_first": lambda cell, digit: _ring(cell),
    "edge_last": lambda cell, digit: -_ring(cell),
    "border_only": lambda cell, digit: min(_ring(cell), 1),
    "two_rings": lambda cell, digit: min(_ring(cell), 2),
    "ends_first": lambda cell, digit: 0 if digit in (1, 9) else 1,
    "ends_last": lambda cell, digit: 1 if digit in (1, 9) else 0,
    "mid_first": lambda cell, digit: abs(digit - 5),
    "mid_last": lambda cell, digit: -abs(digit - 5),
    "neighbours": lambda cell, digit: 2 + (0 < cell // 9 < 8) + (0 < cell % 9 < 8),
    "ring_ends": lambda cell, digit: 10 * _ring(cell) + (digit not in (1, 9)),
    "ring_mid": lambda cell, digit: 10 * _ring(cell) - abs(digit - 5),
    "power": lambda cell, digit: (2 + (0 < cell // 9 < 8) + (0 < cell % 9 < 8)) * (1 + (digit not in (1, 9))),
    "manh": lambda cell, digit: -_centre(cell),
    "manh_mid": lambda cell, digit: -10 * _centre(cell) - abs(digit - 5),
    "euclid": lambda cell, digit: -((cell // 9 - 4) ** 2 + (cell % 9 - 4) ** 2),
    "mid_ring": lambda cell, digit: -10 * abs(digit - 5) + _ring(cell),
    "sum": lambda cell, digit: _ring(cell) - abs(digit - 5),
}


def _attempt(seed: int, key: str) -> tuple[int, int]:
    """One attempt with the order sorted by ``key``: (check nodes, clues of the puzzle)."""
    rng = new_state(seed)
    grid = np.zeros(81, np.uint8)
    fill.random_solution(rng, 9, UNITS, CELL_UNITS, TABLES, 10**9, grid, WORKSPACE, STOP)
    order = np.arange(81, dtype=np.int32)
    shuffle(rng, order)
    puzzle = grid.copy()
    spent = 0
    for cell in sorted(order.tolist(), key=lambda cell: KEYS[key](cell, int(grid[cell]))):
        puzzle[cell] = 0
        code, nodes = check(puzzle, grid, cell, codes.ALL_RULES)
        spent += nodes
        if code != codes.COMPLETE:
            puzzle[cell] = grid[cell]
    return spent, int(np.count_nonzero(puzzle))


def orders(args: argparse.Namespace) -> None:
    print("| order | check nodes an attempt (mean / median) | clues (mean) | clues: puzzles | attempts/s | load |")
    print("|---|---:|---:|---|---:|---:|")
    for key in args.keys:
        start = time.process_time()
        made = [_attempt(seed, key) for seed in range(args.first_seed, args.first_seed + args.count)]
        seconds = time.process_time() - start
        nodes = np.array([m[0] for m in made])
        clues = np.array([m[1] for m in made])
        histogram = ", ".join(f"{c}: {n}" for c, n in sorted(collections.Counter(clues.tolist()).items()))
        print(f"| {key} | {nodes.mean():,.0f} / {np.median(nodes):,.0f} | {clues.mean():.2f} | {histogram} | "
              f"{args.count / seconds:.1f} | {os.getloadavg()[0]:.1f} |", flush=True)


def _replay(data: np.lib.npyio.NpzFile, max_nodes: int) -> int:
    """Every recorded check (its status checked unless cut by ``max_nodes``); the nodes in all."""
    stats = np.zeros(codes.N_STATS, np.int64)
    rng = np.ones(1, np.uint64)
    total = 0
    for i, cell in enumerate(data["cells"]):
        code = nonconsecutive9.search_in(WORKSPACE, data["puzzles"][i], TABLES, 1, max_nodes, codes.ALL_RULES,
                                         NO_SOLUTIONS, stats, rng, data["grids"][i], np.int64(cell), STOP)
        if max_nodes > 1 and code != data["statuses"][i]:
            raise SystemExit(f"check {i}: status {code}, recorded {data['statuses'][i]}")
        total += int(stats[codes.STAT_NODES])
    return total


def _best(data: np.lib.npyio.NpzFile, max_nodes: int, rounds: int) -> tuple[float, int]:
    """The best process time of ``rounds`` replays, and their nodes."""
    best, nodes = float("inf"), 0
    for _ in range(rounds):
        start = time.process_time()
        nodes = _replay(data, max_nodes)
        best = min(best, time.process_time() - start)
    return best, nodes


def node_cost(args: argparse.Namespace) -> None:
    data = dict(np.load(args.checks))
    _replay({key: value[:5] for key, value in data.items()}, 10**12)  # compile or load first
    best, nodes = _best(data, 10**12, args.rounds)
    print(f"{len(data['cells'])} checks: {nodes} nodes, best {best:.3f} s, {1e6 * best / nodes:.3f} µs a node; "
          f"load {os.getloadavg()[0]:.1f}")


def roots(args: argparse.Namespace) -> None:
    data = dict(np.load(args.checks))
    attempts = int(data["attempts"].max()) + 1
    _replay(data, 1)
    root, _ = _best(data, 1, args.rounds)
    full, nodes = _best(data, 10**12, args.rounds)
    print(f"{len(data['cells'])} checks of {attempts} attempts: the root only {1e6 * root / len(data['cells']):.2f} "
          f"µs a check, {1e3 * root / attempts:.3f} ms an attempt; in full {1e3 * full / attempts:.2f} ms an attempt "
          f"({nodes / attempts:.0f} nodes): the roots {root / full:.1%}; load {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    steps = parser.add_subparsers(dest="step", required=True)
    step = steps.add_parser("orders")
    step.add_argument("keys", nargs="+", choices=sorted(KEYS))
    step.add_argument("--first-seed", type=int, default=30000)
    step.add_argument("--count", type=int, default=200)
    step.set_defaults(run=orders)
    for name, run in (("node-cost", node_cost), ("roots", roots)):
        step = steps.add_parser(name)
        step.add_argument("--checks", default="/tmp/nc_checks.npz")
        step.add_argument("--rounds", type=int, default=3)
        step.set_defaults(run=run)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
