r"""A/B harness for copies of the extra-unit 9x9 kernel (``kernels/extra9.py``): X and Windoku sets, interleaved.

Each variant is a file (a copy of ``extra9.py``, for example ``git show main:src/bitdoku/kernels/extra9.py``),
imported as a module of its own, so several variants run side by side in one process. From the repository root::

    git show main:src/bitdoku/kernels/extra9.py > /tmp/extra9_main.py
    PYTHONPATH=src python research/extra9_ab.py /tmp/extra9_main.py src/bitdoku/kernels/extra9.py --rounds 5

Each set (``--sets``, the saved sets of ``variants_bench.py``) goes through each variant's ``count_many`` (limit 2:
the uniqueness check), the variants in turn, ``--rounds`` times: the batch in the thread's CPU time (µs a
puzzle, median of the rounds, and the first variant's over this one's), the same batch with a one-node budget
(the root), and the nodes (mean, median, max, the top tenth's share: exact). Every variant must give each puzzle
the first variant's status and count; the puzzles whose nodes differ from the first variant's are counted.
Used for benchmarks/results/variant_speed7.md; on a shared box only ratios from one run count.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the maintained scripts it uses
from variants_bench import load_set

from bitdoku.kernels import status as codes


def load_variant(path: Path, index: int, scratch: Path) -> ModuleType:
    """A copy of the kernel imported as a module of its own (``extra9_ab_<index>``), from a copy in ``scratch``: a
    package file loaded under another name would leave compiled kernels in the cache that the package's own
    imports cannot load (Numba's cache imports the module by name)."""
    name = f"extra9_ab_{index}"
    copy = scratch / f"{name}.py"
    shutil.copyfile(path, copy)
    spec = importlib.util.spec_from_file_location(name, copy)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def count_batch(kernel: ModuleType, tables: np.ndarray, cells: np.ndarray, max_nodes: int) -> tuple[float, ...]:
    """One ``count_many`` over the set: (CPU seconds a puzzle, statuses, counts, nodes)."""
    statuses, counts, nodes = (np.zeros(len(cells), np.int64) for _ in range(3))
    start = time.thread_time()
    kernel.count_many(cells, tables, 2, max_nodes, codes.ALL_RULES, statuses, counts, nodes, np.zeros(1, np.int64))
    return (time.thread_time() - start) / len(cells), statuses, counts, nodes


def compare(name: str, variants: list[Path], kernels: list[ModuleType], rounds: int) -> None:
    """Print one set's rows: nodes, batch and root of each variant, against the first."""
    geometry, puzzles = load_set(name)
    cells = np.stack([np.frombuffer(puzzle.cells, np.uint8) for puzzle in puzzles])
    tables = [kernel.tables_for.__wrapped__(geometry) for kernel in kernels]  # each module's own tables
    for kernel, table in zip(kernels, tables, strict=True):
        count_batch(kernel, table, cells[:5], 10**9)  # compile or load
    batches: list[list[float]] = [[] for _ in kernels]
    roots: list[list[float]] = [[] for _ in kernels]
    nodes: list[np.ndarray] = []
    answers = None
    for round_ in range(rounds):
        for i, (kernel, table) in enumerate(zip(kernels, tables, strict=True)):
            seconds, statuses, counts, used = count_batch(kernel, table, cells, 10**9)
            batches[i].append(seconds)
            roots[i].append(count_batch(kernel, table, cells, 1)[0])
            if round_ == 0:
                nodes.append(used)
                answers = answers or (statuses, counts)
                if not ((statuses == answers[0]).all() and (counts == answers[1]).all()):
                    raise SystemExit(f"{variants[i]}: statuses or counts differ from {variants[0]} on {name}")
    base = statistics.median(batches[0])
    for i, path in enumerate(variants):
        batch, used = statistics.median(batches[i]), nodes[i]
        top = np.sort(used)[-len(used) // 10 :].sum() / used.sum()
        print(f"| {name} | {path} | {used.mean():.2f} / {np.median(used):.0f} / {used.max()} ({top:.0%}) | "
              f"{int((used != nodes[0]).sum())} | {1e6 * batch:.2f} (min {1e6 * min(batches[i]):.2f}) | "
              f"{base / batch:.3f} | {1e6 * statistics.median(roots[i]):.2f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", type=Path, help="copies of extra9.py; the first is the base")
    parser.add_argument("--sets", nargs="*", default=["x", "windoku"])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}")
    print("| set | variant | nodes mean / median / max (top tenth) | puzzles with other nodes | batch µs a puzzle | "
          "first / this | root µs |")
    print("|---|---|---|---:|---|---:|---:|")
    scratch = Path(tempfile.gettempdir()) / "extra9_ab"
    scratch.mkdir(exist_ok=True)
    kernels = [load_variant(path, index, scratch) for index, path in enumerate(args.variants)]
    for name in args.sets:
        compare(name, args.variants, kernels, args.rounds)
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
