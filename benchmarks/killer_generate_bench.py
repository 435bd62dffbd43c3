"""Killer generation (issue 37): unique Killers a second, per shape and level, with their cage figures.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/killer_generate_bench.py [--count 200] [--threads 2] [--shapes 3x3 2x3] [--levels ...]

For each shape and level (``default`` is no ``difficulty``): ``generate_killers`` on ``--threads`` threads, then
on one, and the puzzles' mean cage size, one-cell cages, proof nodes, attempts and levels. Every puzzle timed is
verified afterwards: cages cover the grid once, are connected, hold different digits of the solution and add up
to its sums, and ``bitdoku.search(limit=2)`` on the line read back from ``to_killer_line()`` finds exactly the
solution (the generator's checks ran on the grid it built). The kernel of cages is compiled (or loaded) first.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import bitdoku
from bitdoku.generate.killer import KILLER_LEVELS, GeneratedKiller, generate_killers

#: Levels too slow for the default count: how many puzzles to make of them instead (extreme: ~1 s each).
SLOW_LEVELS = {"expert": 60, "extreme": 12}


def verified(made: GeneratedKiller) -> bool:
    """Whether a generated Killer is well formed and, read back from its line, unique with its solution."""
    puzzle, solution = made.puzzle, made.solution
    n = puzzle.n
    cells = sorted(cell for cage in puzzle.cages for cell in cage.cells)
    if cells != list(range(puzzle.shape.n_cells)):
        return False
    for cage in puzzle.cages:
        digits = [solution.cells[cell] for cell in cage.cells]
        if len(set(digits)) != len(digits) or sum(digits) != cage.total or not 1 <= len(digits) <= 6:
            return False
        reached, todo = {cage.cells[0]}, [cage.cells[0]]
        while todo:
            cell = todo.pop()
            for other in cage.cells:
                if other not in reached and abs(other // n - cell // n) + abs(other % n - cell % n) == 1:
                    reached.add(other)
                    todo.append(other)
        if len(reached) != len(cage.cells):
            return False
    again = bitdoku.Grid.parse(puzzle.to_killer_line(), variant="killer")
    result = bitdoku.search(again, limit=2)
    return result.status.value == "unique" and result.solution is not None and \
        result.solution.cells == solution.cells


def measure(shape: str, level: str | None, count: int, threads: int, seed: int) -> dict[str, object]:
    """One row: rates on ``threads`` and one thread, the cage figures, how many puzzles passed ``verified``."""
    start = time.perf_counter()
    made = list(generate_killers(count, shape, seed=seed, difficulty=level, threads=threads))
    parallel = time.perf_counter() - start
    start = time.perf_counter()
    alone = list(generate_killers(max(1, count // 2), shape, seed=seed, difficulty=level, threads=1))
    single = time.perf_counter() - start
    assert [m.puzzle for m in alone] == [m.puzzle for m in made[:len(alone)]], "threads changed the puzzles"
    features = [m.features for m in made]
    return {
        "shape": shape, "level": level or "default", "puzzles": count,
        "rate": count / parallel, "rate1": len(alone) / single,
        "mean_size": statistics.fmean(f.mean_size for f in features),
        "cages": statistics.fmean(f.cages for f in features),
        "singles": statistics.fmean(f.singles for f in features),
        "proof_nodes": statistics.median(f.nodes for f in features),
        "proof_max": max(f.nodes for f in features),
        "attempts": statistics.fmean(m.attempts for m in made),
        "levels": Counter(m.level for m in made),
        "verified": sum(verified(m) for m in made),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="puzzles a row (fewer for expert and extreme)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--shapes", nargs="+", default=["3x3", "2x3"])
    parser.add_argument("--levels", nargs="+", default=["default", *KILLER_LEVELS],
                        help="default (no difficulty) and the levels of KILLER_LEVELS")
    args = parser.parse_args()
    for shape in args.shapes:  # compile or load the kernel of cages for each shape before any timing
        next(generate_killers(1, shape, seed=0))
    print(f"| shape | level | puzzles | /s on {args.threads} threads | /s on 1 | mean cage size | cages | "
          "one-cell cages | proof nodes median / max | attempts | levels seen | verified |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|---:|")
    for shape in args.shapes:
        for name in args.levels:
            level = None if name == "default" else name
            count = min(args.count, SLOW_LEVELS.get(name, args.count))
            try:
                row = measure(shape, level, count, args.threads, args.seed)
            except ValueError as error:  # a level the shape does not reach (4x4 beyond easy)
                print(f"| {shape} | {name} | - | {error} |")
                continue
            levels = ", ".join(f"{lv} {n}" for lv, n in sorted(row["levels"].items(),  # type: ignore[attr-defined]
                                                                 key=lambda item: KILLER_LEVELS.index(item[0])))
            print(f"| {shape} | {row['level']} | {row['puzzles']} | {row['rate']:.1f} | {row['rate1']:.1f} | "
                  f"{row['mean_size']:.2f} | {row['cages']:.1f} | {row['singles']:.2f} | "
                  f"{row['proof_nodes']:g} / {row['proof_max']:,} | {row['attempts']:.2f} | {levels} | "
                  f"{row['verified']}/{row['puzzles']} |", flush=True)


if __name__ == "__main__":
    main()
