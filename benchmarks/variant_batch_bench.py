"""Variant puzzles one by one, in a batch, and at the kernel: what the batch path costs over the kernel (issue 14).

Run from the repository root (with ``PYTHONPATH=src`` or after ``pip install -e .``)::

    python benchmarks/variant_batch_bench.py [--only x windoku ...] [--first 1000] [--rounds 5]

For each saved set of ``benchmarks/data/variants`` (``variants_bench.py generate``), every puzzle counted to two
(the uniqueness check) on one thread, three ways, rounds interleaved in one process:

* ``one by one``: ``bitdoku.search(grid, limit=2)`` a puzzle, what a variant file's puzzles took before batches;
* ``batch``: ``bitdoku.count_many(array, variant=geometry, threads=1)``, the public batch path
  (``kernels/variant_rows.py``), outputs and ``BatchResult`` included;
* ``kernel``: the variant kernel's own ``count_many`` (no solutions kept, no result objects), the figure the
  speed targets are measured on (``variant_nodes_bench.py solve``).

µs a puzzle are the median of the rounds; the ratios batch/kernel and one-by-one/batch are taken round by round
(medians). Every way must find every puzzle unique.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from importlib import import_module
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from variants_bench import SETS, load_set

import bitdoku
from bitdoku.engines.bitmask import variant_kernel
from bitdoku.kernels import status as codes

#: Sets whose puzzles take milliseconds each (minimal nonconsecutive puzzles of ~7 clues): fewer by default.
SLOW_SETS = {"nonconsecutive": 100}


def one_by_one(grids: list[bitdoku.Grid]) -> float:
    start = time.perf_counter()
    for grid in grids:
        assert bitdoku.search(grid, limit=2).status is bitdoku.Status.UNIQUE
    return time.perf_counter() - start


def batch(array: np.ndarray, geometry: bitdoku.Geometry) -> float:
    start = time.perf_counter()
    result = bitdoku.count_many(array, variant=geometry, threads=1)
    seconds = time.perf_counter() - start
    assert result.summary() == {bitdoku.Status.UNIQUE: len(array)}
    return seconds


def kernel(array: np.ndarray, geometry: bitdoku.Geometry) -> float:
    name, tables = variant_kernel(geometry)
    module = import_module(f"bitdoku.kernels.{name}")
    statuses, counts, nodes = (np.zeros(len(array), np.int64) for _ in range(3))
    start = time.perf_counter()
    module.count_many(array, tables, 2, 10**7, codes.ALL_RULES, statuses, counts, nodes, np.zeros(1, np.int64))
    seconds = time.perf_counter() - start
    assert (counts == 1).all()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--first", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print("| set | puzzles | one by one µs | batch µs | kernel µs | batch / kernel | one by one / batch |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.only:
        geometry, grids = load_set(name)
        grids = grids[: min(args.first, SLOW_SETS.get(name, args.first))]
        array = np.frombuffer(b"".join(grid.cells for grid in grids), np.uint8).reshape(len(grids), 81).copy()
        kernel(array[:1], geometry), batch(array[:1], geometry), one_by_one(grids[:1])  # compile or load
        times: dict[str, list[float]] = {"one": [], "batch": [], "kernel": []}
        for _ in range(args.rounds):
            times["one"].append(one_by_one(grids))
            times["batch"].append(batch(array, geometry))
            times["kernel"].append(kernel(array, geometry))
        per = {way: statistics.median(seconds) / len(grids) * 1e6 for way, seconds in times.items()}
        over_kernel = statistics.median(b / k for b, k in zip(times["batch"], times["kernel"], strict=True))
        over_batch = statistics.median(o / b for o, b in zip(times["one"], times["batch"], strict=True))
        print(f"| {name} | {len(grids)} | {per['one']:.1f} | {per['batch']:.1f} | {per['kernel']:.1f} | "
              f"{over_kernel:.3f} | {over_batch:.2f} |", flush=True)


if __name__ == "__main__":
    main()
