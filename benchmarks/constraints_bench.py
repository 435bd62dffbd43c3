"""Counting to 2 on 9x9 grids with a dozen setters' constraints: bitdoku against OR-tools CP-SAT, same run.

The puzzles are made here, reproducibly (``--seed``): a solution of a shipped 9x9 puzzle (``top1465_sample``),
then a dozen constraints drawn at random on it and kept only when that solution keeps them (so each puzzle has a
solution): thermometers, white and black dots, X and V, whispers, renban and palindrome lines, odd and even cells,
minimum and maximum cells, a clone. ``--givens`` of the solution's digits are shown (0: a setter's empty grid).
"Per kind" sets hold one kind alone, a dozen of it a puzzle.

Each puzzle is counted to 2 (``bitdoku.search(limit=2)``; CP-SAT: the same model with one worker, solutions
enumerated and the search stopped at the second), interleaved puzzle by puzzle; the times are medians of
``--repeat`` runs each. bitdoku's times are the search alone (the grid parsed and its tables built before), as
CP-SAT's are ``Solve`` alone on a model built before.

    pip install -e '.[cpsat]'   # OR-tools, for the comparison only
    python benchmarks/constraints_bench.py --puzzles 200 --givens 0 --cpsat
    python benchmarks/constraints_bench.py --per-kind --puzzles 30 --cpsat
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from importlib.resources import files
from itertools import pairwise

from bitdoku import Geometry, Grid, Shape, search, solve
from bitdoku.constraints.variant import Constraint, broken, orthogonal_neighbours
from bitdoku.engines import reference

N = 9
SHAPE = Shape(3, 3)
MIXED = ("thermometer", "difference", "ratio", "xv", "whispers", "renban", "palindrome", "odd", "even", "minimum",
         "maximum", "clone")


def solutions(count: int) -> list[bytes]:
    """Solutions of the shipped top1465 sample's puzzles, as many as asked (cycled, digits relabelled)."""
    lines = [line.split()[0] for line in files("bitdoku.data").joinpath("top1465_sample.txt").read_text().split("\n")
             if line.strip() and not line.startswith("#")]
    base = [solve(Grid.parse(line)).cells for line in lines[:50]]
    rng = random.Random(7)
    found = []
    for index in range(count):
        digits = list(range(1, N + 1))
        rng.shuffle(digits)
        found.append(bytes(digits[d - 1] for d in base[index % len(base)]))
    return found


def walk(rng: random.Random, length: int) -> tuple[int, ...]:
    cells = [rng.randrange(N * N)]
    while len(cells) < length:
        free = [c for c in orthogonal_neighbours(cells[-1], N) if c not in cells]
        if not free:
            break
        cells.append(rng.choice(free))
    return tuple(cells)


def draw(kind: str, rng: random.Random, solution: bytes) -> Constraint | None:
    """One constraint of ``kind`` on random cells, or None when the solution does not keep it."""
    digits = dict(enumerate(solution))
    if kind in ("thermometer", "whispers", "renban", "palindrome"):
        cells = walk(rng, rng.randint(3, 5) if kind != "palindrome" else rng.choice((3, 5)))
        if kind == "thermometer" and digits[cells[0]] > digits[cells[-1]]:
            cells = cells[::-1]
        found = Constraint(kind, cells)
    elif kind in ("difference", "ratio", "xv"):
        cells = walk(rng, 2)
        value = {"xv": rng.choice((10, 5))}.get(kind)
        found = Constraint(kind, cells, value)
    elif kind in ("odd", "even", "minimum", "maximum"):
        found = Constraint(kind, (rng.randrange(N * N),))
    else:
        cells = walk(rng, 3)
        others = tuple(sorted(rng.sample(range(N * N), len(cells))))
        found = Constraint("clone", cells, None, others)
    if len(found.cells) < 2 and kind in ("thermometer", "whispers", "renban", "palindrome", "difference"):
        return None
    return None if broken(found, digits, N) else found


def puzzle(rng: random.Random, solution: bytes, kinds: tuple[str, ...], size: int, givens: int) -> Grid:
    found: list[Constraint] = []
    while len(found) < size:
        constraint = draw(rng.choice(kinds), rng, solution)
        if constraint is not None:
            found.append(constraint)
    shown = set(rng.sample(range(N * N), givens))
    cells = bytes(solution[c] if c in shown else 0 for c in range(N * N))
    return Grid(cells, SHAPE, Geometry(SHAPE, constraints=tuple(found)))


# -- CP-SAT ---------------------------------------------------------------------------------------------------


def cpsat_counter(grid: Grid) -> Callable[[], int]:
    """A function that counts the grid's solutions to 2 with CP-SAT on a model built once."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [model.NewIntVar(1, N, f"c{c}") for c in range(N * N)]
    for unit in SHAPE.tables.units.tolist():
        model.AddAllDifferent([x[c] for c in unit])
    for cell, digit in enumerate(grid.cells):
        if digit:
            model.Add(x[cell] == digit)
    for constraint in grid.constraints:
        _add(model, x, constraint)

    class Stop(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def on_solution_callback(self) -> None:
            self.count += 1
            if self.count >= 2:
                self.StopSearch()

    def count() -> int:
        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        callback = Stop()
        solver.Solve(model, callback)
        return callback.count

    return count


def _add(model, x, constraint: Constraint) -> None:  # type: ignore[no-untyped-def]
    kind, cells, value = constraint.kind, constraint.cells, constraint.amount
    pairs = list(pairwise(cells))
    if kind == "thermometer":
        for a, b in pairs:
            model.Add(x[a] < x[b])
    elif kind == "difference":
        a, b = cells
        gap = model.NewIntVar(0, N, "")
        model.AddAbsEquality(gap, x[a] - x[b])
        model.Add(gap == value)
    elif kind == "ratio":
        a, b = cells
        first = model.NewBoolVar("")
        model.Add(x[a] == value * x[b]).OnlyEnforceIf(first)
        model.Add(x[b] == value * x[a]).OnlyEnforceIf(first.Not())
    elif kind == "xv":
        model.Add(x[cells[0]] + x[cells[1]] == value)
    elif kind == "whispers":
        for a, b in pairs:
            gap = model.NewIntVar(0, N, "")
            model.AddAbsEquality(gap, x[a] - x[b])
            model.Add(gap >= value)
    elif kind == "renban":
        model.AddAllDifferent([x[c] for c in cells])
        high, low = model.NewIntVar(1, N, ""), model.NewIntVar(1, N, "")
        model.AddMaxEquality(high, [x[c] for c in cells])
        model.AddMinEquality(low, [x[c] for c in cells])
        model.Add(high - low == len(cells) - 1)
    elif kind == "palindrome":
        for i in range(len(cells) // 2):
            model.Add(x[cells[i]] == x[cells[-1 - i]])
    elif kind == "clone":
        for a, b in zip(cells, constraint.others, strict=True):
            model.Add(x[a] == x[b])
    elif kind in ("odd", "even"):
        half = model.NewIntVar(0, N, "")
        model.Add(x[cells[0]] == 2 * half + (1 if kind == "odd" else 0))
    elif kind in ("minimum", "maximum"):
        for other in orthogonal_neighbours(cells[0], N):
            model.Add(x[cells[0]] < x[other] if kind == "minimum" else x[cells[0]] > x[other])
    else:
        raise ValueError(kind)


# -- running --------------------------------------------------------------------------------------------------


def timed(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(grids: list[Grid], repeat: int, cpsat: bool) -> tuple[list[float], list[float]]:
    ours, theirs = [], []
    for grid in grids:
        _ = grid.geometry.cage_tables  # built before timing, as CP-SAT's model is
        count = search(grid, limit=2).count
        ours.append(timed(lambda grid=grid: search(grid, limit=2), repeat))
        if cpsat:
            counter = cpsat_counter(grid)
            if min(counter(), 2) != min(count, 2):  # the same answer, or no figure: say who is wrong
                truth = reference.search(grid, limit=2, max_nodes=10**8, keep=1).count
                raise SystemExit(f"bitdoku counts {count}, CP-SAT {counter()}, the reference {truth}: "
                                 f"{grid.to_fpuzzles()}")
            theirs.append(timed(counter, repeat))
    return ours, theirs


def report(name: str, ours: list[float], theirs: list[float]) -> None:
    line = f"{name:12} {len(ours):4} puzzles  bitdoku median {statistics.median(ours) * 1e3:7.3f} ms " \
           f"p95 {sorted(ours)[int(0.95 * (len(ours) - 1))] * 1e3:7.3f} ms"
    if theirs:
        ratios = [t / o for o, t in zip(ours, theirs, strict=True)]
        line += f"  CP-SAT median {statistics.median(theirs) * 1e3:8.3f} ms"
        line += f"  ratio median {statistics.median(ratios):7.1f}x"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=100)
    parser.add_argument("--size", type=int, default=12, help="constraints a puzzle")
    parser.add_argument("--givens", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-kind", action="store_true", help="one set a kind, as well as the mixed set")
    parser.add_argument("--cpsat", action="store_true", help="time OR-tools CP-SAT on the same puzzles")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sols = solutions(args.puzzles)
    sets = {"mixed": MIXED} | ({kind: (kind,) for kind in MIXED} if args.per_kind else {})
    for name, kinds in sets.items():
        grids = [puzzle(rng, s, kinds, args.size, args.givens) for s in sols]
        report(name, *measure(grids, args.repeat, args.cpsat))


if __name__ == "__main__":
    main()
