r"""A/B harness for copies of the 9x9 kernel (``kernels/sudoku9.py``): equality checks and interleaved timings.

Each variant is a file (a copy of ``sudoku9.py``, for example ``git show main:src/bitdoku/kernels/sudoku9.py``);
the harness copies it into a scratch folder as its own module with a small compiled loop over rows appended, so
several variants run side by side in one process. From the repository root::

    git show main:src/bitdoku/kernels/sudoku9.py > /tmp/sudoku9_main.py
    PYTHONPATH=src python benchmarks/sudoku9_ab.py check main=/tmp/sudoku9_main.py new=src/bitdoku/kernels/sudoku9.py
    PYTHONPATH=src python benchmarks/sudoku9_ab.py time main=/tmp/sudoku9_main.py new=src/bitdoku/kernels/sudoku9.py
    PYTHONPATH=src python benchmarks/sudoku9_ab.py time main=/tmp/sudoku9_main.py new=src/bitdoku/kernels/sudoku9.py \
        --copies 3 --rounds 15 --every 1    # three compiled copies of each, compared by geometric means

``check``: statuses, every stat and the solutions of each variant against the first, on the three sets (limits 1
and 2, rule flags 7) and on the edge files (sudopedia_*, nosolution_*, every 10th line of
serg_benchmark_multisolution, plus the empty grid) under rule flags 0..7 and (limit, node budget) pairs (1, -),
(2, -), (1000, 20,000), (1000, 37), (2, 5). ``time``: each set cut into chunks (17-clue 400 puzzles, top1465 120,
hardest 16), every ``--every``-th chunk timed ``--rounds`` times a variant in alternating order; the sum of the
per-chunk minima, in µs a puzzle, and its ratio to the first variant (the method of NOTES-kernels.md, round 6).
Node counts are exact; on a shared box only ratios from one run count.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SETS = {"17clue": "17clue_royle_49151.txt", "top1465": "magictour_top1465.txt", "hardest": "forum_hardest_1106.txt"}
CHUNK = {"17clue": 400, "top1465": 120, "hardest": 16}
EDGE = ["sudopedia_valid_edgecases.txt", "sudopedia_multisolution.txt", "sudopedia_nosolution.txt",
        "sudopedia_duplicate_givens.txt", "nosolution_derived_from_1106.txt", "nosolution_derived_from_top1465.txt",
        "serg_benchmark_multisolution.txt"]
BUDGETS = [(1, 10**9), (2, 10**9), (1000, 20_000), (1000, 37), (2, 5)]
DRIVER = '''

@njit(cache=True, nogil=True)
def ab_run_rows(puzzles, limit, max_nodes, flags, solutions, status, stats):
    """Search every row with one stack (appended by benchmarks/sudoku9_ab.py)."""
    states = np.empty((MAX_DEPTH, STATE_WORDS), np.uint32)
    frames = np.empty((MAX_DEPTH, 3), np.int64)
    stop = np.zeros(1, np.int64)
    for row in range(puzzles.shape[0]):
        status[row] = search9_in(puzzles[row], limit, max_nodes, flags, solutions[row], stats[row], states, frames,
                                 stop{extras})
'''
#: The arguments after ``stop`` that ``search9_in`` takes since it serves the generator too (seed, excluded cell
#: and digit); a variant's file from before takes none.
EXTRAS = ", np.int64(0), np.int64(-1), np.int64(0)"


def load(name: str, data: Path) -> np.ndarray:
    """The puzzles of a shared file as uint8 rows (a character other than a digit or '.' reads as 10)."""
    rows = []
    for line in (data / name).read_text().splitlines():
        text = line.strip()[:81]
        if len(text) == 81 and not text.startswith("#"):
            rows.append([0 if ch in ".0" else (ord(ch) - 48 if ch.isdigit() else 10) for ch in text])
    return np.array(rows, dtype=np.uint8)


def variants(specs: list[str], copies: int = 1) -> list[tuple[str, ModuleType]]:
    """Import each ``name=path`` copy of the kernel as its own module (in a scratch folder kept for Numba's cache).

    With ``copies`` > 1, each file is imported that many times (``name.1``, ``name.2``, ...; the variants
    interleaved), each copy compiled on its own: two compiled copies of one file differ by up to ~2% on this box
    (code placement), so a comparison of one copy each cannot resolve effects of that size (NOTES-kernels.md,
    round 12).
    """
    scratch = Path(tempfile.gettempdir()) / f"sudoku9_ab_{os.getuid()}"
    scratch.mkdir(exist_ok=True)
    sys.path.insert(0, str(scratch))
    out = []
    for copy in range(1, copies + 1):
        for spec in specs:
            name, path = spec.split("=", 1)
            suffix = "" if copies == 1 else f"_{copy}"
            module = scratch / f"ab_{name}{suffix}.py"
            source = Path(path).read_text()
            extras = EXTRAS if "exclude_cell" in source else ""
            text = source + DRIVER.format(extras=extras) + ("" if copies == 1 else f"\n# copy {copy}\n")
            if not module.exists() or module.read_text() != text:
                module.write_text(text)
            label = name if copies == 1 else f"{name}.{copy}"
            out.append((label, importlib.import_module(f"ab_{name}{suffix}")))
    return out


def summary(mods: list[tuple[str, ModuleType]], us: np.ndarray) -> str:
    """Geometric mean of each variant's copies, its ratio to the first variant's, and the spread of its copies."""
    names = list(dict.fromkeys(name.rsplit(".", 1)[0] for name, _ in mods))
    means = {}
    cells = []
    for name in names:
        times = np.array([t for (label, _), t in zip(mods, us, strict=True) if label.rsplit(".", 1)[0] == name])
        means[name] = float(np.exp(np.log(times).mean()))
        ratio, spread = means[name] / means[names[0]], times.max() / times.min()
        cells.append(f"{name} {means[name]:7.3f} ({ratio:.3f}, copies {spread:.3f})")
    return "  ".join(cells)


def run(module: ModuleType, puzzles: np.ndarray, limit: int, flags: int = 7, max_nodes: int = 10**9):
    """Statuses, stats and the first four solutions of each row."""
    n = puzzles.shape[0]
    solutions = np.zeros((n, 4, 81), np.uint8)
    status = np.zeros(n, np.int64)
    stats = np.zeros((n, 8), np.int64)
    module.ab_run_rows(puzzles, limit, max_nodes, flags, solutions, status, stats)
    return status, stats, solutions


def check(mods: list[tuple[str, ModuleType]], data: Path) -> int:
    """Count the cases where a variant's statuses, stats or solutions differ from the first variant's."""
    cases = [(label, load(file, data), limit, 7, 10**9) for label, file in SETS.items() for limit in (1, 2)]
    for file in EDGE:
        puzzles = load(file, data)[:: 10 if file.startswith("serg") else 1]
        puzzles = np.concatenate([puzzles, np.zeros((1, 81), np.uint8)])
        cases += [(file, puzzles, limit, flags, budget) for flags in range(8) for limit, budget in BUDGETS]
    bad = 0
    for label, puzzles, limit, flags, budget in cases:
        reference = run(mods[0][1], puzzles, limit, flags, budget)
        for name, module in mods[1:]:
            result = run(module, puzzles, limit, flags, budget)
            for what, a, b in zip(("status", "stats", "solutions"), reference, result, strict=True):
                if not np.array_equal(a, b):
                    bad += 1
                    print(f"mismatch: {name} {label} limit={limit} flags={flags} budget={budget} {what}")
    print(f"checked {len(cases)} cases x {len(mods) - 1} variants: {bad} mismatches")
    for label, file in SETS.items():
        for limit in (1, 2):
            nodes = run(mods[0][1], load(file, data), limit)[1][:, 1].mean()
            print(f"  {label} limit {limit}: {nodes:.3f} nodes a puzzle")
    return bad


def timing(mods: list[tuple[str, ModuleType]], data: Path, sets: list[str], rounds: int, every: int) -> None:
    """Print µs a puzzle (sum of per-chunk minima) of each variant and its ratio to the first, per set and mode."""
    for label in sets:
        puzzles, size = load(SETS[label], data), CHUNK[label]
        chunks = [puzzles[i:i + size] for i in range(0, len(puzzles) - size + 1, size)][::every]
        for limit in (1, 2):
            best = np.full((len(mods), len(chunks)), np.inf)
            for _, module in mods:
                run(module, chunks[0], limit)
            for r in range(rounds):
                for j, chunk in enumerate(chunks):
                    order = range(len(mods)) if (r + j) % 2 == 0 else reversed(range(len(mods)))
                    for i in order:
                        n = chunk.shape[0]
                        out = (np.zeros((n, 4, 81), np.uint8), np.zeros(n, np.int64), np.zeros((n, 8), np.int64))
                        start = time.perf_counter()
                        mods[i][1].ab_run_rows(chunk, limit, 10**9, 7, *out)
                        best[i, j] = min(best[i, j], time.perf_counter() - start)
            us = best.sum(axis=1) / (len(chunks) * size) * 1e6
            cells = "  ".join(f"{name} {t:7.3f} ({t / us[0]:.3f})" for (name, _), t in zip(mods, us, strict=True))
            print(f"{label:8s} {'first' if limit == 1 else 'unique':6s} {cells}", flush=True)
            if len(mods) > len({name.rsplit(".", 1)[0] for name, _ in mods}):
                print(f"{label:8s} {'first' if limit == 1 else 'unique':6s} geo-mean: {summary(mods, us)}", flush=True)


def main() -> None:
    """Parse the command line and run the check or the timing."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["check", "time"])
    parser.add_argument("variants", nargs="+", metavar="NAME=PATH", help="copies of sudoku9.py; the first is the base")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the shared puzzle files")
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--every", type=int, default=2, help="time every n-th chunk")
    parser.add_argument("--copies", type=int, default=1, help="compiled copies of each variant (time: geo-means)")
    args = parser.parse_args()
    print(os.popen("uptime").read().strip())
    mods = variants(args.variants, args.copies if args.mode == "time" else 1)
    if args.mode == "check":
        sys.exit(1 if check(mods, args.data) else 0)
    timing(mods, args.data, args.sets, args.rounds, args.every)
    print(os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
