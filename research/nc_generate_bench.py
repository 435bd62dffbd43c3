"""Where minimal nonconsecutive generation spends its nodes, and the schemes tried against it (issue 14).

Run from the repository root with ``PYTHONPATH=src``; every step takes the same seeds (``--count`` of them) and
drives the compiled kernel (``variant81.search_in``) from Python, one uniqueness check a call, so the schemes are
compared on exact node counts and, interleaved seed by seed in one process, on time::

    python research/nc_generate_bench.py breakdown --count 60   # today's removal pass, by clues left and outcome
    python research/nc_generate_bench.py schemes --count 40     # today's pass against clue-adding schemes
    python research/nc_generate_bench.py schemes --passes-only --first-seed 5000 --count 200   # the two fills
    python research/nc_generate_bench.py witness --count 30     # other searches for a failed check's solution
    python research/nc_generate_bench.py screen --count 30      # looking for necessary clues early
    python research/nc_generate_bench.py fill --count 60        # other random fills of the empty grid

* ``breakdown``: the generator's pass (``dig.remove_clues``: the full grid, cells in random order, each removed
  if the puzzle stays unique: one search for a solution with the cell's digit struck out, guided by the grid) on
  the fill of ``kernels.fill.random_solution``, the draws of ``make.attempt_rows``; its puzzles are checked against
  ``make.attempt_rows``'s. Nodes of the checks that removed a clue (a proof) and of those that kept it (a search
  that found another solution), by the clues left after the removal.
* ``schemes``: per seed, today's pass (with the fill before branch ``nc1`` and with today's) and the constructive
  scheme (from a few clues of the grid: search for two
  solutions, guided by the grid; add a clue where the other solution differs; repeat until unique; then the
  removal pass over those clues), without and with keeping witnesses (each added clue's other solution proves it
  necessary while it agrees with the grid on the later clues: the next clue is drawn among the cells where every
  earlier witness agrees, when there are any, and a clue with a witness left is not checked again).
  ``--check`` proves every puzzle unique and minimal, untimed (``bitdoku.count_solutions``).
* ``witness``: the checks of today's pass that kept their clue, searched again with random ties among the
  fewest-candidate cells, and with restarts on a doubling budget (random ties; the guide, or none).
* ``screen``: today's pass, but once the puzzle is down to K clues, a search (capped at C nodes) for another
  solution without each clue still to come: a clue found necessary then is kept without its later check
  (necessity is monotone: the same puzzles, which the step asserts).
* ``fill``: nodes a grid of the random-order fill (a random cell among the fewest candidates, random digits; the
  fill before branch ``nc1``) against searches with a random digit tried first at each cell (a random guide),
  restarted on a doubling budget, with the kernel's branching (what ``kernels.fill`` now does for nonconsecutive
  grids) or a random cell among the fewest candidates.
"""

from __future__ import annotations

import argparse
import collections
import os
import time

import numpy as np

import bitdoku
from bitdoku.generate.request import Request
from bitdoku.generate.symmetry import orbits
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.kernels import fill, make, variant81
from bitdoku.kernels import status as codes
from bitdoku.kernels.rng import below, new_state, shuffle

GEOMETRY = Geometry.parse("nonconsecutive")
TABLES = variant81.board_tables(GEOMETRY)
RULES = codes.ALL_RULES
FIRST_SEED = 1000
WORKSPACE = variant81.new_workspace()
STOP = np.zeros(1, np.int64)
NO_GUIDE = np.zeros(0, np.uint8)


def search(puzzle: np.ndarray, limit: int, solutions: np.ndarray, guide: np.ndarray = NO_GUIDE, changed: int = -1,
           flags: int = RULES, rng: np.ndarray | None = None, max_nodes: int = 10**9) -> tuple[int, int, int]:
    """One kernel search: (status, nodes, solutions found)."""
    stats = np.zeros(codes.N_STATS, np.int64)
    code = variant81.search_in(WORKSPACE, puzzle, TABLES, limit, max_nodes, flags, solutions, stats,
                               np.ones(1, np.uint64) if rng is None else rng, guide, np.int64(changed), STOP)
    return code, int(stats[codes.STAT_NODES]), int(stats[codes.STAT_SOLUTIONS])


def other_solution(puzzle: np.ndarray, grid: np.ndarray, cell: int, found: np.ndarray | None = None,
                   max_nodes: int = 10**9) -> tuple[int, int]:
    """The generator's check: a solution of the puzzle without ``cell``'s clue that puts another digit there
    (``found``: uint8[1, 81] for it)? (status: ``COMPLETE`` when none, nodes); the clue is given back."""
    puzzle[cell] = 0
    out = np.zeros((0, 81), np.uint8) if found is None else found
    code, nodes, _ = search(puzzle, 1, out, guide=grid, changed=cell, max_nodes=max_nodes)
    puzzle[cell] = grid[cell]
    return code, nodes


def random_grid(seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The generator's fill and cell order for a seed (``make.attempt_rows``'s draws): (grid, order, nodes)."""
    rng = new_state(seed)
    grid = np.zeros(81, np.uint8)
    _, nodes = fill.random_solution(rng, 9, TABLES.units, TABLES.cell_units, TABLES, 10**9, grid, WORKSPACE, STOP)
    order = np.arange(81, dtype=np.int32)
    shuffle(rng, order)
    return grid, order, nodes


def random_grid_before(seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """``random_grid`` with the fill before branch ``nc1`` (random order, no guide), the same draws as it made."""
    rng = new_state(seed)
    found = np.zeros((1, 81), np.uint8)
    nodes = _restarted_fill(rng, 81, None, found)
    order = np.arange(81, dtype=np.int32)
    shuffle(rng, order)
    return found[0].copy(), order, nodes


def removal_pass(grid: np.ndarray, order: np.ndarray, record: list | None = None) -> tuple[np.ndarray, int]:
    """Today's pass from the full grid: (puzzle, check nodes); ``record`` gets (clues left, nodes, removed)."""
    puzzle = grid.copy()
    total = 0
    for cell in order:
        code, nodes = other_solution(puzzle, grid, cell)
        total += nodes
        if code == codes.COMPLETE:
            puzzle[cell] = 0
        if record is not None:
            record.append((int(np.count_nonzero(puzzle)), nodes, code == codes.COMPLETE))
    return puzzle, total


def constructive(grid: np.ndarray, rng: np.ndarray, keep_witnesses: bool) -> tuple[np.ndarray, dict[str, int]]:
    """The clue-adding scheme (module docstring): (minimal puzzle, nodes by phase)."""
    puzzle = np.zeros(81, np.uint8)
    two = np.zeros((2, 81), np.uint8)
    nodes = {"add": 0, "final proof": 0, "minimise": 0}
    witnesses: list[np.ndarray] = []
    while True:
        _, spent, found = search(puzzle, 2, two, guide=grid)
        if found == 1:
            nodes["final proof"] += spent
            break
        nodes["add"] += spent
        other = two[0] if (two[0] != grid).any() else two[1]
        differ = other != grid
        if keep_witnesses and witnesses:
            kept = differ & np.all(np.array(witnesses) == grid, axis=0)
            differ = kept if kept.any() else differ
        cells = np.flatnonzero(differ)
        cell = cells[below(rng, len(cells))]
        puzzle[cell] = grid[cell]
        witnesses.append(other.copy())
    clues = np.flatnonzero(puzzle).astype(np.int32)
    shuffle(rng, clues)
    for cell in clues:
        if keep_witnesses and _has_witness(puzzle, grid, cell, witnesses):
            continue
        code, spent = other_solution(puzzle, grid, cell)
        nodes["minimise"] += spent
        if code == codes.COMPLETE:
            puzzle[cell] = 0
    return puzzle, nodes


def _has_witness(puzzle: np.ndarray, grid: np.ndarray, cell: int, witnesses: list[np.ndarray]) -> bool:
    """Whether a known solution of the puzzle without ``cell``'s clue puts another digit there."""
    others = puzzle != 0
    others[cell] = False
    return any(w[cell] != grid[cell] and (w[others] == grid[others]).all() for w in witnesses)


def check_unique_and_minimal(puzzle: np.ndarray) -> None:
    """Stop unless the puzzle has one solution and loses it without any one clue (the public API's count)."""
    grid = Grid(puzzle.tobytes(), GEOMETRY.shape, GEOMETRY)
    if bitdoku.count_solutions(grid, limit=2) != 1:
        raise SystemExit(f"not unique: {grid.to_line()}")
    for cell in np.flatnonzero(puzzle):
        fewer = puzzle.copy()
        fewer[cell] = 0
        if bitdoku.count_solutions(Grid(fewer.tobytes(), GEOMETRY.shape, GEOMETRY), limit=2) != 2:
            raise SystemExit(f"not minimal (cell {cell}): {grid.to_line()}")


def breakdown(args: argparse.Namespace) -> None:
    _same_as_generator(min(args.count, 5))
    removed, kept = collections.Counter(), collections.Counter()
    removed_n, kept_n = collections.Counter(), collections.Counter()
    fill_nodes = clues = 0
    for seed in range(FIRST_SEED, FIRST_SEED + args.count):
        grid, order, spent = random_grid(seed)
        fill_nodes += spent
        record: list = []
        puzzle, _ = removal_pass(grid, order, record)
        clues += np.count_nonzero(puzzle)
        for left, nodes, gone in record:
            bucket = min(left, 12)
            (removed if gone else kept)[bucket] += nodes
            (removed_n if gone else kept_n)[bucket] += 1
    n = args.count
    print(f"load {os.getloadavg()[0]:.1f}; {n} attempts; fill {fill_nodes / n:.0f} nodes; clues {clues / n:.2f}; "
          f"checks {(sum(removed.values()) + sum(kept.values())) / n:.0f} nodes: removed a clue "
          f"{sum(removed.values()) / n:.0f}, kept one {sum(kept.values()) / n:.0f}")
    print("| clues left after the check | removed: checks / nodes an attempt | kept: checks / nodes an attempt |")
    print("|---|---|---|")
    for left in sorted(set(removed) | set(kept)):
        label = f"{left}+" if left == 12 else str(left)
        print(f"| {label} | {removed_n[left] / n:.2f} / {removed[left] / n:.0f} | "
              f"{kept_n[left] / n:.2f} / {kept[left] / n:.0f} |")


def _same_as_generator(count: int) -> None:
    """Stop unless this script's pass makes the generator's puzzles (``make.attempt_rows``) for the first seeds."""
    request = Request.make("3x3", minimal=True, variant=GEOMETRY)
    rngs = np.array([[seed] for seed in range(FIRST_SEED, FIRST_SEED + count)], np.uint64)
    puzzles, solutions = np.zeros((count, 81), np.uint8), np.zeros((count, 81), np.uint8)
    outcome = np.zeros((count, make.N_OUTCOME), np.int64)
    make.attempt_rows(rngs, 9, *request.tables, orbits(request.shape, request.symmetry), 0, request.check_nodes,
                      request.check_rules, 10**9, False, puzzles, solutions, outcome, STOP)
    for row, seed in enumerate(range(FIRST_SEED, FIRST_SEED + count)):
        grid, order, _ = random_grid(seed)
        if (removal_pass(grid, order)[0] != puzzles[row]).any():
            raise SystemExit(f"seed {seed}: this pass and the generator's made other puzzles")


SCHEMES = ("removal pass, fill before", "removal pass", "constructive", "constructive, witnesses kept")


def schemes(args: argparse.Namespace) -> None:
    labels = SCHEMES[:2] if args.passes_only else SCHEMES
    nodes = {label: collections.Counter() for label in labels}
    seconds = dict.fromkeys(labels, 0.0)
    clues = dict.fromkeys(labels, 0)
    print(f"load {os.getloadavg()[0]:.1f}", flush=True)
    for seed in range(args.first_seed, args.first_seed + args.count):
        for label in labels:
            start = time.perf_counter()
            grid, order, spent = (random_grid_before if label.endswith("before") else random_grid)(seed)
            if label.startswith("removal pass"):
                puzzle, checks = removal_pass(grid, order)
                phases = {"checks": checks}
            else:
                puzzle, phases = constructive(grid, new_state(seed + 1), label.endswith("kept"))
            seconds[label] += time.perf_counter() - start
            nodes[label].update(phases, fill=spent)
            clues[label] += int(np.count_nonzero(puzzle))
            if args.check:
                check_unique_and_minimal(puzzle)
    n = args.count
    print(f"load at the end {os.getloadavg()[0]:.1f}; {n} seeds, interleaved; nodes an attempt"
          f"{'; every puzzle proven unique and minimal' if args.check else ''}")
    print("| scheme | puzzles/s | clues | fill | checks (today) | add | final proof | minimise | total nodes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label in labels:
        counts = nodes[label]
        cells = [f"{counts[key] / n:.0f}" if key in counts else "" for key in
                 ("fill", "checks", "add", "final proof", "minimise")]
        print(f"| {label} | {n / seconds[label]:.1f} | {clues[label] / n:.2f} | {' | '.join(cells)} | "
              f"{sum(counts.values()) / n:.0f} |")


def witness(args: argparse.Namespace) -> None:
    totals = collections.Counter()
    for seed in range(FIRST_SEED, FIRST_SEED + args.count):
        grid, order, _ = random_grid(seed)
        puzzle = grid.copy()
        rng = new_state(seed + 5)
        for cell in order:
            code, nodes = other_solution(puzzle, grid, cell)
            if code == codes.COMPLETE:
                puzzle[cell] = 0
                continue
            totals["guided by the grid (today)"] += nodes
            puzzle[cell] = 0
            totals["random ties, guided"] += _searched(puzzle, grid, cell, rng, None)
            for first in (32, 512):
                totals[f"random ties, guided, restarts from {first}"] += _searched(puzzle, grid, cell, rng, first)
            puzzle[cell] = grid[cell]
    print(f"load {os.getloadavg()[0]:.1f}; the checks that kept their clue, {args.count} attempts: nodes an attempt")
    print("| search | nodes |")
    print("|---|---:|")
    for label, total in totals.items():
        print(f"| {label} | {total / args.count:.0f} |")


def _searched(puzzle: np.ndarray, grid: np.ndarray, cell: int, rng: np.ndarray, first: int | None) -> int:
    """Nodes a randomised search (restarted on a doubling budget from ``first``, or not) takes to a solution."""
    found = np.zeros((0, 81), np.uint8)
    budget = 10**9 if first is None else first
    total = 0
    while True:
        code, nodes, _ = search(puzzle, 1, found, guide=grid, changed=cell, flags=RULES | codes.RANDOM_ORDER, rng=rng,
                                max_nodes=budget)
        total += nodes
        if code != codes.BUDGET_EXHAUSTED:
            if code != codes.LIMIT_REACHED:
                raise SystemExit("a randomised search disagreed with the check")
            return total
        budget *= 2


def screen(args: argparse.Namespace) -> None:
    configs = [(None, 0), (8, 300), (9, 300), (10, 300), (10, 1000), (10, 10**9)]
    print(f"load {os.getloadavg()[0]:.1f}; {args.count} attempts; check nodes an attempt (the same puzzles)")
    print("| screen at K clues, cap C | nodes |")
    print("|---|---:|")
    made: dict[int, bytes] = {}
    for at, cap in configs:
        total = 0
        for seed in range(FIRST_SEED, FIRST_SEED + args.count):
            grid, order, _ = random_grid(seed)
            puzzle, nodes = _screened_pass(grid, order, at, cap)
            total += nodes
            if made.setdefault(seed, puzzle.tobytes()) != puzzle.tobytes():
                raise SystemExit("screening changed a puzzle")
        label = "none (today)" if at is None else f"K {at}, C {cap:,}"
        print(f"| {label} | {total / args.count:.0f} |", flush=True)


def _screened_pass(grid: np.ndarray, order: np.ndarray, at: int | None, cap: int) -> tuple[np.ndarray, int]:
    """Today's pass with one screen for necessary clues at ``at`` clues: (puzzle, check nodes)."""
    puzzle = grid.copy()
    necessary: set[int] = set()
    total = 0
    for position, cell in enumerate(order):
        if at is not None and np.count_nonzero(puzzle) <= at:
            for later in order[position:]:
                code, nodes = other_solution(puzzle, grid, later, max_nodes=cap)
                total += nodes
                if code == codes.LIMIT_REACHED:
                    necessary.add(int(later))
            at = None
        if cell in necessary:
            continue
        code, nodes = other_solution(puzzle, grid, cell)
        total += nodes
        if code == codes.COMPLETE:
            puzzle[cell] = 0
    return puzzle, total


def fill_step(args: argparse.Namespace) -> None:
    seeds = range(FIRST_SEED, FIRST_SEED + args.count)
    print(f"load {os.getloadavg()[0]:.1f}; {args.count} grids; nodes a grid")
    print("| fill | nodes |")
    print("|---|---:|")
    before = sum(_restarted_fill(new_state(seed), 81, None) for seed in seeds)
    print(f"| random cell among the fewest, random digits (RANDOM_ORDER), restarts from 81: the fill before | "
          f"{before / args.count:.0f} |")
    now = sum(random_grid(seed)[2] for seed in seeds)
    print(f"| kernels.fill.random_solution now | {now / args.count:.0f} |")
    for first in (81, 300, 1000):
        for randomised in (False, True):
            total = sum(_restarted_fill(new_state(seed), first, randomised) for seed in seeds)
            cell = "random cell among the fewest" if randomised else "the kernel's scored cell"
            print(f"| {cell}, a random digit first, restarts from {first} | {total / args.count:.0f} |", flush=True)


def _restarted_fill(rng: np.ndarray, first: int, randomised: bool | None, found: np.ndarray | None = None) -> int:
    """Nodes to a grid (into ``found``, uint8[1, 81], if given) of a search guided by random digits (a fresh guide
    a restart), or with ``randomised`` None of the random-order search alone (``RANDOM_ORDER``, no guide)."""
    found = np.zeros((1, 81), np.uint8) if found is None else found
    budget, total = first, 0
    while True:
        if randomised is None:
            guide, flags = NO_GUIDE, RULES | codes.RANDOM_ORDER
        else:
            guide = np.array([1 + below(rng, 9) for _ in range(81)], np.uint8)
            flags = RULES | (codes.RANDOM_ORDER if randomised else 0)
        code, nodes, _ = search(np.zeros(81, np.uint8), 1, found, guide=guide, flags=flags, rng=rng,
                                max_nodes=budget)
        total += nodes
        if code == codes.LIMIT_REACHED:
            return total
        budget *= 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("breakdown", "schemes", "witness", "screen", "fill"))
    parser.add_argument("--count", type=int, default=30, help="attempts (seeds) a step")
    parser.add_argument("--check", action="store_true", help="schemes: prove each puzzle unique and minimal")
    parser.add_argument("--passes-only", action="store_true", help="schemes: the removal pass's two fills only")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED, help="the first seed (default 1000)")
    args = parser.parse_args()
    steps = {"breakdown": breakdown, "schemes": schemes, "witness": witness, "screen": screen, "fill": fill_step}
    steps[args.step](args)


if __name__ == "__main__":
    main()
