"""Where minimal nonconsecutive generation spends its nodes, and probing in its removal checks (issue 14, nc3).

Run from the repository root with ``PYTHONPATH=src``::

    python research/nc_probe_bench.py attempts --count 400 --first-seed 30000 --by-clues
    python research/nc_probe_bench.py record --count 30 --out /tmp/nc_checks.npz
    git apply research/results/nc_generate3_probe.patch   # compare only: the probing kept out of the kernel
    python research/nc_probe_bench.py compare --checks /tmp/nc_checks.npz --depths 0 1 2 3 5 8 --by-clues
    python research/nc_probe_bench.py compare --depths 0 90 --modes 0 3072 --rounds 1

* ``attempts``: the generator's attempts (``make.attempt_rows``) for ``--count`` seeds in one call: nodes of the
  fill and of the removal checks, the puzzles' clues; run it with another tree's ``src`` on ``PYTHONPATH`` to
  compare trees (exact node counts).
* ``record`` replays the generator's attempts (the draws of ``make.attempt_rows``: the fill, the order of the
  cells, the removal pass; its puzzles are checked against the generator's) and saves every check it ran (the
  puzzle without the cell, the grid, the cell, the answer).
* ``compare`` runs those checks again through ``nonconsecutive9.search_in`` with several settings, rounds
  interleaved in one process, and prints the nodes and the time of each, checking every answer against the
  recorded one. A setting is a probe depth (``_probe`` at the nodes with fewer open branch points than it; 0:
  never) and a mode (the patch's ``PROBE_*`` flag bits: 512 singles-only probes, 1024 one sweep, 2048 only the
  peers and neighbours of the branching cell, 1 << 21 naked-singles-only probes, 1 << 22 probing the cells of the
  fewest candidates when that is three or more, 1 << 23 only after a failed sibling, 1 << 24 only cells whose
  two digits are consecutive). Needs the patch.
"""

from __future__ import annotations

import argparse
import collections
import os
import time

import numpy as np

from bitdoku.generate.request import Request
from bitdoku.generate.symmetry import orbits
from bitdoku.geometry import Geometry
from bitdoku.kernels import dig, fill, make, nonconsecutive9
from bitdoku.kernels import status as codes
from bitdoku.kernels.rng import new_state, shuffle

GEOMETRY = Geometry.parse("nonconsecutive")
REQUEST = Request.make("3x3", minimal=True, variant=GEOMETRY)
UNITS, CELL_UNITS, TABLES = REQUEST.tables
WORKSPACE = nonconsecutive9.new_workspace()
STOP = np.zeros(1, np.int64)
NO_SOLUTIONS = np.zeros((0, 81), np.uint8)
FIRST_SEED = 1000


def check(puzzle: np.ndarray, grid: np.ndarray, cell: int, flags: int) -> tuple[int, int]:
    """The generator's check on ``puzzle`` (``cell`` already empty): (status, nodes)."""
    stats = np.zeros(codes.N_STATS, np.int64)
    code = nonconsecutive9.search_in(WORKSPACE, puzzle, TABLES, 1, 10**12, flags, NO_SOLUTIONS, stats,
                                     np.ones(1, np.uint64), grid, np.int64(cell), STOP)
    return code, int(stats[codes.STAT_NODES])


def attempt(seed: int) -> tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, int, int, int]]]:
    """One attempt's draws and removal pass: (grid, puzzle, checks as (puzzle, cell, status, nodes))."""
    rng = new_state(seed)
    grid = np.zeros(81, np.uint8)
    fill.random_solution(rng, 9, UNITS, CELL_UNITS, TABLES, 10**9, grid, WORKSPACE, STOP)
    order = np.arange(len(orbits(REQUEST.shape, REQUEST.symmetry)), dtype=np.int32)
    shuffle(rng, order)
    if hasattr(dig, "edge_first"):  # the generator's order since nc4 (older trees: the shuffle alone)
        dig.edge_first(order, orbits(REQUEST.shape, REQUEST.symmetry), 9)
    puzzle = grid.copy()
    checks = []
    for cell in order:
        puzzle[cell] = 0
        code, nodes = check(puzzle, grid, int(cell), codes.ALL_RULES)
        checks.append((puzzle.copy(), int(cell), code, nodes))
        if code != codes.COMPLETE:
            puzzle[cell] = grid[cell]
    return grid, puzzle, checks


def record(args: argparse.Namespace) -> None:
    seeds = range(FIRST_SEED, FIRST_SEED + args.count)
    rngs = np.array([[seed] for seed in seeds], np.uint64)
    made = np.zeros((args.count, 81), np.uint8)
    outcome = np.zeros((args.count, make.N_OUTCOME), np.int64)
    make.attempt_rows(rngs, 9, UNITS, CELL_UNITS, TABLES, orbits(REQUEST.shape, REQUEST.symmetry), 0,
                      REQUEST.check_nodes, REQUEST.check_rules, 10**9, False, made, np.zeros_like(made), outcome, STOP)
    puzzles, grids, cells, statuses, nodes, attempts = [], [], [], [], [], []
    for row, seed in enumerate(seeds):
        grid, puzzle, checks = attempt(seed)
        if (puzzle != made[row]).any():
            raise SystemExit(f"seed {seed}: this pass and the generator's made other puzzles")
        for cut, cell, code, spent in checks:
            puzzles.append(cut)
            grids.append(grid)
            cells.append(cell)
            statuses.append(code)
            nodes.append(spent)
            attempts.append(row)
    np.savez(args.out, puzzles=np.array(puzzles), grids=np.array(grids), cells=np.array(cells),
             statuses=np.array(statuses), nodes=np.array(nodes), attempts=np.array(attempts))
    print(f"{len(cells)} checks of {args.count} attempts, {sum(nodes) / args.count:.0f} nodes an attempt -> {args.out}")


def compare(args: argparse.Namespace) -> None:
    data = np.load(args.checks)
    puzzles, grids, cells, statuses = data["puzzles"], data["grids"], data["cells"], data["statuses"]
    attempts = int(data["attempts"].max()) + 1
    clues = (puzzles != 0).sum(axis=1) + (statuses != codes.COMPLETE)  # the clues left after the check
    modes = args.modes or [args.mode] * len(args.depths)
    settings = [codes.ALL_RULES | (depth << nonconsecutive9.PROBE_SHIFT) | (mode if i else 0)
                for i, (depth, mode) in enumerate(zip(args.depths, modes, strict=True))]
    for flags in settings:  # compile and warm
        check(puzzles[0].copy(), grids[0], int(cells[0]), flags)
    times = collections.defaultdict(list)
    nodes: dict[int, np.ndarray] = {}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for flags in settings:
            spent = np.zeros(len(cells), np.int64)
            start = time.process_time()
            for i in range(len(cells)):
                code, spent[i] = check(puzzles[i].copy(), grids[i], int(cells[i]), flags)
                if code != statuses[i]:
                    raise SystemExit(f"check {i}: status {code}, recorded {statuses[i]}")
            times[flags].append(time.process_time() - start)
            nodes[flags] = spent
    base = settings[0]
    print(f"load {load:.1f} -> {os.getloadavg()[0]:.1f}; {len(cells)} checks of {attempts} attempts, "
          f"{args.rounds} rounds interleaved; every status as recorded")
    print("| probe depth | nodes an attempt | kept / removed checks' nodes | ms an attempt (best) | µs a node | "
          "time against depth " f"{args.depths[0]} |")
    print("|---|---:|---:|---:|---:|---:|")
    for depth, flags in zip(args.depths, settings, strict=True):
        kept = nodes[flags][statuses != codes.COMPLETE].sum() / attempts
        removed = nodes[flags][statuses == codes.COMPLETE].sum() / attempts
        best = min(times[flags])
        print(f"| {depth} | {nodes[flags].sum() / attempts:.0f} | {kept:.0f} / {removed:.0f} | "
              f"{1000 * best / attempts:.2f} | {1e6 * best / nodes[flags].sum():.2f} | "
              f"{min(times[base]) / best:.2f}x |")
    if args.by_clues:
        print("| clues left | " + " | ".join(f"depth {d} nodes" for d in args.depths) + " |")
        print("|---|" + "---:|" * len(args.depths))
        for left in sorted(set(np.minimum(clues, 12).tolist())):
            pick = np.minimum(clues, 12) == left
            print(f"| {left}{'+' if left == 12 else ''} | "
                  + " | ".join(f"{nodes[f][pick].sum() / attempts:.0f}" for f in settings) + " |")


def attempts(args: argparse.Namespace) -> None:
    """The generator's attempts for ``--count`` seeds in one ``make.attempt_rows`` call: nodes of the fill and
    of the checks (run it under each tree's ``PYTHONPATH`` to compare them: exact counts)."""
    seeds = range(args.first_seed, args.first_seed + args.count)
    rngs = np.array([[seed] for seed in seeds], np.uint64)
    made = np.zeros((args.count, 81), np.uint8)
    outcome = np.zeros((args.count, make.N_OUTCOME), np.int64)
    make.attempt_rows(rngs[:1].copy(), 9, UNITS, CELL_UNITS, TABLES, orbits(REQUEST.shape, REQUEST.symmetry), 0,
                      REQUEST.check_nodes, REQUEST.check_rules, 10**9, False, made[:1], made[:1].copy(), outcome[:1],
                      STOP)  # compile or load first
    start = time.process_time()
    make.attempt_rows(rngs, 9, UNITS, CELL_UNITS, TABLES, orbits(REQUEST.shape, REQUEST.symmetry), 0,
                      REQUEST.check_nodes, REQUEST.check_rules, 10**9, False, made, np.zeros_like(made), outcome, STOP)
    seconds = time.process_time() - start
    fill_nodes = outcome[:, make.FILL_NODES].mean()
    check_nodes = outcome[:, make.CHECK_NODES].mean()
    print(f"load {os.getloadavg()[0]:.1f}; {args.count} attempts from seed {args.first_seed}: fill {fill_nodes:.0f} "
          f"nodes, checks {check_nodes:.0f} nodes, {fill_nodes + check_nodes:.0f} in all; clues "
          f"{(made != 0).sum(axis=1).mean():.2f}; {args.count / seconds:.1f} attempts a second (thread time)")
    if args.by_clues:
        clues = (made != 0).sum(axis=1)
        print("| clues of the puzzle | attempts | fill nodes | check nodes |")
        print("|---|---:|---:|---:|")
        for count in sorted(set(clues.tolist())):
            pick = clues == count
            print(f"| {count} | {pick.sum()} | {outcome[pick, make.FILL_NODES].mean():.0f} | "
                  f"{outcome[pick, make.CHECK_NODES].mean():.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    steps = parser.add_subparsers(dest="step", required=True)
    step = steps.add_parser("record")
    step.add_argument("--count", type=int, default=40)
    step.add_argument("--out", default="/tmp/nc_checks.npz")
    step.set_defaults(run=record)
    step = steps.add_parser("compare")
    step.add_argument("--checks", default="/tmp/nc_checks.npz")
    step.add_argument("--depths", type=int, nargs="+", default=[0, 1, 2, 3])
    step.add_argument("--rounds", type=int, default=3)
    step.add_argument("--by-clues", action="store_true")
    step.add_argument("--mode", type=int, default=0, help="PROBE_ONCE (1024) | PROBE_NEAR (2048)")
    step.add_argument("--modes", type=int, nargs="+", help="a mode for each depth (the first one's is ignored)")
    step.set_defaults(run=compare)
    step = steps.add_parser("attempts")
    step.add_argument("--count", type=int, default=200)
    step.add_argument("--first-seed", type=int, default=FIRST_SEED)
    step.add_argument("--by-clues", action="store_true", help="nodes by the clues of the puzzle made")
    step.set_defaults(run=attempts)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
