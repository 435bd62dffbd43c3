"""Variant puzzles (issue 14): generate 9x9 sets of every variant, then time solving them with the uniqueness check.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/variants_bench.py generate [--count 1000] [--only x windoku ...]   # writes the data files
    python benchmarks/variants_bench.py solve [--only ...] [--rounds 3]                   # times them

* ``generate``: for each set, ``generate_many(count, variant=..., minimal=True, seed=SEED, threads=...)``; the
  rate is unique minimal puzzles a second (one thread unless ``--threads``; the puzzles are the same on any
  number), compile excluded (a warm-up puzzle first). The puzzles go
  to ``benchmarks/data/variants/<set>.txt``: ``#`` header lines (``variant:``, ``seed:``, and for a jigsaw
  ``regions:``, the one region map every puzzle of the file uses), then one puzzle a line. Jigsaw sets use maps
  drawn by ``generate.regions.random_jigsaw(seed=1, 2, 3)``.
* ``solve``: each file's puzzles searched to two solutions (the uniqueness check), on both variant kernels, the
  cell-by-cell ``kernels/variant.py`` ("old") and the digit-major ``kernels/variant81.py`` ("new", what the engine
  runs for 9x9), three ways: the kernel call per puzzle timed around it (median and mean µs, nodes: they must be
  the same on both kernels, puzzle by puzzle), the compiled batch loop ``count_many`` over the whole file (µs a
  puzzle: no Python call per puzzle), and the public ``bitdoku.count_solutions(..., limit=2)`` per puzzle (median
  µs, Python overhead included). Rounds interleave the kernels (old, new, old, new, ...) and keep the medians;
  ratios are old / new within the run. Every puzzle must have exactly one solution, and each solution must pass
  ``Grid.is_solution_of``.
* ``generate --no-save`` times the generator without saving or comparing (for a kernel change that changes the
  puzzles, as a stronger nonconsecutive propagation changes its random fill); each puzzle is then checked,
  untimed, to be unique and minimal (every clue taken out in turn gives a second solution).
* ``generate --kernel old`` runs the generator on the cell-by-cell kernel (its tables in place of variant81's),
  for the before/after rates; the puzzles are the same (both kernels make the same random draws), which the run
  checks against the file the default kernel wrote.

Both write their table to ``benchmarks/results/variants_bench.md`` (generate and solve sections), except
``generate --check`` and ``--no-save``, which print it only: a check run is not the figures of record.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import numpy as np

import bitdoku
from bitdoku.generate import generate_many
from bitdoku.generate.regions import random_jigsaw
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.kernels import status as codes
from bitdoku.kernels import variant, variant81

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "benchmarks" / "data" / "variants"
RESULTS = REPO / "benchmarks" / "results" / "variants_bench.md"
SEED = 14
SETS = ("x", "windoku", "jigsaw-1", "jigsaw-2", "jigsaw-3", "anti-knight", "anti-king", "nonconsecutive")


def geometry_of(name: str) -> Geometry:
    """The geometry of a set: a variant name, or ``jigsaw-k`` for the map of ``random_jigsaw(seed=k)``."""
    if name.startswith("jigsaw-"):
        return random_jigsaw("3x3", seed=int(name.split("-")[1]))
    return Geometry.parse(name)


def use_old_kernel() -> None:
    """Make the generator hand variants the cell-by-cell kernel's tables (``GeometryTables``), not variant81's."""
    from bitdoku.generate import grids, removal, request

    def old_tables(geometry: Geometry) -> tuple:
        tables = geometry.tables
        return (geometry.shape.tables if geometry.is_classic else (tables.units, tables.cell_units, tables))

    for module in (grids, removal, request):
        module.geometry_kernel_tables = old_tables


def generate_set(name: str, count: int, threads: int = 1, save: bool | None = True) -> tuple[list[Grid], float]:
    """Generate a set and save it (``save`` False: check it against the saved one; None: check that each puzzle
    is unique and minimal); (puzzles, seconds). The puzzles do not depend on ``threads``."""
    geometry = geometry_of(name)
    next(generate_many(1, variant=geometry, minimal=True, seed=SEED + 1, threads=1))  # compile or load the kernels
    start = time.perf_counter()
    puzzles = [g.puzzle for g in generate_many(count, variant=geometry, minimal=True, seed=SEED, threads=threads)]
    seconds = time.perf_counter() - start
    if save is None:
        for puzzle in puzzles:
            check_unique_and_minimal(puzzle)
        return puzzles, seconds
    if not save:
        saved = load_set(name)[1]
        if [p.cells for p in puzzles] != [p.cells for p in saved[:count]]:
            raise SystemExit(f"{name}: the old kernel made other puzzles than the saved ones")
        return puzzles, seconds
    DATA.mkdir(parents=True, exist_ok=True)
    header = [f"# variant: {geometry.name}", f"# seed: {SEED} (generate_many(count, variant=..., minimal=True))"]
    if geometry.regions is not None:
        header.append(f"# regions: {geometry.region_map()}")
    lines = header + [puzzle.to_line() for puzzle in puzzles]
    (DATA / f"{name}.txt").write_text("\n".join(lines) + "\n")
    return puzzles, seconds


def check_unique_and_minimal(puzzle: Grid) -> None:
    """Stop the run unless the puzzle has one solution and loses it with any one clue taken out."""
    if bitdoku.count_solutions(puzzle, limit=2) != 1:
        raise SystemExit(f"{puzzle.variant}: a generated puzzle is not unique: {puzzle.to_line()}")
    for cell, digit in enumerate(puzzle.cells):
        if digit and bitdoku.count_solutions(puzzle.with_cells(puzzle.cells[:cell] + b"\0" + puzzle.cells[cell + 1:]),
                                             limit=2) != 2:
            raise SystemExit(f"{puzzle.variant}: a generated puzzle is not minimal (r{cell // 9 + 1}c{cell % 9 + 1}): "
                             f"{puzzle.to_line()}")


def load_set(name: str) -> tuple[Geometry, list[Grid]]:
    """A saved set: its geometry (from the header) and its puzzles."""
    lines = (DATA / f"{name}.txt").read_text().splitlines()
    fields = dict(line[2:].split(": ", 1) for line in lines if line.startswith("# "))
    geometry = Geometry.parse(fields["variant"], regions=fields.get("regions"))
    puzzles = [Grid.parse(line).with_geometry(geometry) for line in lines if line and not line.startswith("#")]
    return geometry, puzzles


def time_kernel_calls(kernel: str, geometry: Geometry, cells: np.ndarray
                      ) -> tuple[list[float], list[int], np.ndarray]:
    """Each puzzle through a kernel (``"old"``: variant.py, ``"new"``: variant81.py), timed around the call:
    (seconds, nodes, first solutions)."""
    tables = geometry.tables if kernel == "old" else variant81.board_tables(geometry)
    stop = np.zeros(1, np.int64)
    solutions = np.zeros((len(cells), 1, 81), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    seconds, nodes = [], []
    for row in range(len(cells)):
        start = time.perf_counter()
        if kernel == "old":
            status = variant.search(cells[row], 9, tables, 2, 10**9, codes.ALL_RULES, solutions[row], stats, stop)
        else:
            status = variant81.search(cells[row], tables, 2, 10**9, codes.ALL_RULES, solutions[row], stats, stop)
        seconds.append(time.perf_counter() - start)
        nodes.append(int(stats[codes.STAT_NODES]))
        if status != codes.COMPLETE or stats[codes.STAT_SOLUTIONS] != 1:
            raise SystemExit(f"{geometry.name} puzzle {row} ({kernel} kernel): status {status}, "
                             f"{stats[codes.STAT_SOLUTIONS]} solutions")
    return seconds, nodes, solutions[:, 0]


def time_batch(kernel: str, geometry: Geometry, cells: np.ndarray) -> float:
    """The whole set through a kernel's ``count_many``: seconds a puzzle."""
    statuses, counts, nodes = (np.zeros(len(cells), np.int64) for _ in range(3))
    start = time.perf_counter()
    no_stop = np.zeros(1, np.int64)
    if kernel == "old":
        variant.count_many(cells, 9, geometry.tables, 2, 10**9, codes.ALL_RULES, statuses, counts, nodes, no_stop)
    else:
        variant81.count_many(cells, variant81.board_tables(geometry), 2, 10**9, codes.ALL_RULES, statuses, counts,
                             nodes, no_stop)
    seconds = time.perf_counter() - start
    if not (counts == 1).all():
        raise SystemExit(f"{geometry.name}: count_many ({kernel} kernel) found a puzzle without exactly one solution")
    return seconds / len(cells)


def time_public(puzzles: list[Grid]) -> list[float]:
    """``bitdoku.count_solutions(limit=2)`` per puzzle, timed around the call."""
    seconds = []
    for puzzle in puzzles:
        start = time.perf_counter()
        count = bitdoku.count_solutions(puzzle, limit=2)
        seconds.append(time.perf_counter() - start)
        if count != 1:
            raise SystemExit(f"{puzzle.variant}: count_solutions gave {count}")
    return seconds


def solve_set(name: str, rounds: int, first: int | None = None) -> dict[str, float]:
    geometry, puzzles = load_set(name)
    puzzles = puzzles[:first]
    cells = np.stack([np.frombuffer(p.cells, np.uint8) for p in puzzles])
    kernels = ("old", "new")
    for kernel in kernels:
        time_kernel_calls(kernel, geometry, cells[:2])  # compile or load
    time_public(puzzles[:2])
    medians: dict[str, list[float]] = {kernel: [] for kernel in kernels}
    means: dict[str, list[float]] = {kernel: [] for kernel in kernels}
    batch: dict[str, list[float]] = {kernel: [] for kernel in kernels}
    public = []
    for _ in range(rounds):
        found = {}
        for kernel in kernels:
            seconds, nodes, solutions = time_kernel_calls(kernel, geometry, cells)
            medians[kernel].append(statistics.median(seconds))
            means[kernel].append(statistics.fmean(seconds))
            found[kernel] = (nodes, solutions)
            batch[kernel].append(time_batch(kernel, geometry, cells))
        if found["old"][0] != found["new"][0] or not (found["old"][1] == found["new"][1]).all():
            raise SystemExit(f"{name}: the kernels visited other nodes or found other solutions")
        public.append(statistics.median(time_public(puzzles)))
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        if not puzzle.with_cells(solution.tobytes()).is_solution_of(puzzle):
            raise SystemExit(f"{name}: a solution breaks the rules")
    result = {"puzzles": len(puzzles), "clues": statistics.fmean(p.givens for p in puzzles),
              "nodes": statistics.fmean(nodes), "max_nodes": max(nodes), "public": 1e6 * statistics.median(public)}
    for kernel in kernels:
        result[f"{kernel}_median"] = 1e6 * statistics.median(medians[kernel])
        result[f"{kernel}_mean"] = 1e6 * statistics.median(means[kernel])
        result[f"{kernel}_batch"] = 1e6 * statistics.median(batch[kernel])
    return result


def write_section(title: str, table: list[str], results: Path = RESULTS) -> None:
    """Replace (or add) one ``## title`` section of the results file."""
    text = results.read_text() if results.exists() else "# Variant benchmarks (issue 14)\n"
    sections = text.split("\n## ")
    kept = [sections[0]] + [s for s in sections[1:] if not s.startswith(title)]
    kept.append(title + "\n\n" + "\n".join(table) + "\n")
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text("\n## ".join(part.rstrip("\n") + "\n" for part in kept))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("generate", "solve"))
    parser.add_argument("--only", nargs="*", default=list(SETS), choices=SETS)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="generate on this many threads (same puzzles)")
    parser.add_argument("--first", type=int, default=None, help="solve only the first puzzles of each set")
    parser.add_argument("--kernel", choices=("new", "old"), default="new",
                        help="generate on variant81 (new, the default) or on variant.py (old; implies --check)")
    parser.add_argument("--check", action="store_true",
                        help="generate without saving: the puzzles must be the first ones of the saved set")
    parser.add_argument("--no-save", action="store_true",
                        help="generate without saving or comparing; check each puzzle is unique and minimal")
    parser.add_argument("--results", type=Path, default=RESULTS, help=f"the tables go here (default {RESULTS})")
    args = parser.parse_args()
    if args.step == "generate":
        if args.kernel == "old":
            use_old_kernel()
        table = ["| set | kernel | puzzles | mean clues | threads | seconds | minimal puzzles/s |",
                 "|---|---|---:|---:|---:|---:|---:|"]
        for name in args.only:
            save = None if args.no_save else args.kernel == "new" and not args.check
            puzzles, seconds = generate_set(name, args.count, args.threads, save=save)
            clues = statistics.fmean(p.givens for p in puzzles)
            table.append(f"| {name} | {args.kernel} | {len(puzzles)} | {clues:.1f} | {args.threads} | {seconds:.1f} | "
                         f"{len(puzzles) / seconds:.1f} |")
            print(table[-1], flush=True)
        if args.check or args.no_save:
            return  # a check run prints its table; the results keep the figures of the run that saved the sets
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        write_section(f"Generation ({args.kernel} kernel; 9x9, unique minimal; {', '.join(args.only)})",
                      [f"Load average at the end of the run: {load} (on {os.cpu_count()} cores).", "", *table],
                      args.results)
    else:
        table = ["| set | puzzles | mean clues | nodes mean (max) | call median µs old / new (ratio) | "
                 "call mean µs old / new (ratio) | batch µs/puzzle old / new (ratio) | count_solutions median µs |",
                 "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for name in args.only:
            r = solve_set(name, args.rounds, args.first)
            cells = [f"{r[f'old_{w}']:.1f} / {r[f'new_{w}']:.1f} ({r[f'old_{w}'] / r[f'new_{w}']:.1f}x)"
                     for w in ("median", "mean", "batch")]
            table.append(f"| {name} | {r['puzzles']} | {r['clues']:.1f} | {r['nodes']:.1f} ({r['max_nodes']}) | "
                         f"{' | '.join(cells)} | {r['public']:.1f} |")
            print(table[-1], flush=True)
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        write_section(f"Solving with the uniqueness check (count to 2, one thread; {', '.join(args.only)})",
                      [f"Load average at the end of the run: {load} (on {os.cpu_count()} cores).", "", *table],
                      args.results)


if __name__ == "__main__":
    main()
