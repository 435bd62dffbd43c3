"""The benchmarks' runner: issue 3's tables (the fast engine), and every maintained benchmark by name.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/run.py [--data ../shared/data] [--quick]     # issue 3's sections
    python benchmarks/run.py --only datasets rules                 # some of them
    python benchmarks/run.py --list                                # every name --only takes
    python benchmarks/run.py --only cadical boards                 # maintained benchmarks (BENCHMARKS below)
    python benchmarks/run.py --only tdoku -- --tdoku /tmp/tdoku-src   # after --: more arguments for the script

Sections: datasets (first solution and uniqueness, 1 thread), 2-thread scaling, the cost of each propagation rule,
the 9x9 specialisation, single-call latency from Python, and whole-process wall time with a warm and a cold
Numba cache. Every solution timed is verified (``bitdoku.batch.verify_solutions``); JIT time is never timed.
A benchmark's name runs its script (benchmarks/README.md) as a child process with the same Python and its default
arguments; ``--quick`` applies to the sections only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

import numpy as np

import bitdoku
from bitdoku.benchmark import bench_array, format_table, load
from bitdoku.data import DEMO
from bitdoku.kernels import status as codes

HERE = Path(__file__).resolve().parent
DATASETS = [  # (file, node budget per puzzle, repeats): the big grids' hard bands would run for hours unbounded
    ("17clue_royle_49151.txt", 10**8, 3),
    ("magictour_top1465.txt", 10**8, 3),
    ("forum_hardest_1106.txt", 10**8, 3),
    ("famous.txt", 10**8, 3),
    ("serg_benchmark_multisolution.txt", 10**8, 3),
    ("nosolution_derived_from_top1465.txt", 10**8, 3),
    ("sudoku16x16_acs_general_even.txt", 100_000, 1),
    ("sudoku25x25_acs_general_even.txt", 5_000, 1),
]
SCALING = ["17clue_royle_49151.txt", "magictour_top1465.txt", "forum_hardest_1106.txt"]
RULES = {"none (MRV only)": 0, "naked": codes.NAKED_SINGLES, "naked + locked": 5, "naked + hidden": 3, "all": 7}

#: The maintained benchmarks: name -> (script in this folder, its default arguments; "{data}" is --data).
BENCHMARKS = {
    "tdoku": ("compare_bench.py", ["--data", "{data}", "--sets", "17clue", "top1465", "hardest", "--repeats", "5"]),
    "cadical": ("compare_bench.py", ["--data", "{data}", "--sets", "16x16", "25x25"]),
    "boards": ("boards_bench.py", ["--data", "{data}"]),
    "nodes25": ("boards_ab.py", ["--data", "{data}", "--generic", "b71526f^", "--mode", "dfs"]),
    "tail25": ("tail25_bench.py", ["--data", "{data}", "--instances", "461", "--seeds", "0-9"]),
    "portfolio": ("portfolio_bench.py", ["--data", "{data}", "--fill", "45", "50", "--rounds", "2"]),
    "pipeline": ("pipeline_bench.py", ["--data", "{data}", "--runs", "7"]),
    "parallel": ("parallel_bench.py", ["--data", "{data}"]),
    "dask": ("dask_bench.py", ["{data}/17clue_royle_49151.txt", "--skip-farm", "--times", "20", "--chunks", "100000",
                               "--repeat", "9"]),
    "generate": ("generate_bench.py", []),
    "canon": ("canon_bench.py", ["--data", "{data}"]),
    "rate": ("rate_bench.py", ["{data}/17clue_royle_49151.txt", "{data}/magictour_top1465.txt"]),
    "explain": ("explain_bench.py", []),
    "variants": ("variants_bench.py", ["solve", "--rounds", "3"]),
    "variants-generate": ("variants_bench.py", ["generate", "--no-save", "--count", "500", "--threads", "1"]),
    "variant-nodes": ("variant_nodes_bench.py", ["solve", "--old", "HEAD", "--rounds", "5"]),
    "variant-batch": ("variant_batch_bench.py", ["--rounds", "5"]),
    "web": ("web_bench.py", []),
    "web-load": ("web_load.py", ["--requests", "100000", "--clients", "200"]),
    "first-run": ("first_run_bench.py", ["--runs", "3"]),
    "compile": ("compile_profile.py", ["solve9"]),
    "memory": ("memory_bench.py", ["--data", "{data}"]),
    "faults": ("faults_bench.py", ["kill"]),
    "faults-dask": ("faults_bench.py", ["dask", "--batches", "3", "--kills", "3"]),
    "time-limits": ("time_limit_overshoot.py", ["--kinds", "strategy", "search", "--limits", "0.5", "--repeat", "3"]),
    "fuzz": ("fuzz_campaign.py", []),
    "killer": ("killer_bench.py", ["--data", "{data}"]),
    "killer-generate": ("killer_generate_bench.py", []),
    "killer-explain": ("killer_explain_bench.py", ["--data", "{data}"]),
    "make-datasets": ("make_datasets.py", []),
}


def section(title: str) -> None:
    print(f"\n### {title}\n", flush=True)


def datasets(data: Path, quick: bool) -> None:
    section("Datasets, 1 thread (best of 3)")
    rows = []
    for name, budget, repeat in DATASETS:
        puzzles = load(data / name)
        if quick:
            puzzles = puzzles[:500]
        for mode in ("first", "unique"):
            rows.append(bench_array(name, puzzles, mode=mode, threads=1, max_nodes=budget, repeat=repeat))
    print(format_table(rows))
    grid = np.frombuffer(bitdoku.Grid.parse(DEMO).cells, np.uint8).reshape(1, 81).repeat(2000, axis=0)
    print()
    print(format_table([bench_array("main test grid x2000", grid, mode=m, threads=1) for m in ("first", "unique")]))


def scaling(data: Path, quick: bool) -> None:
    section("Threads: 1 against 2 (uniqueness check)")
    rows = []
    for name in SCALING:
        puzzles = load(data / name)[: 500 if quick else None]
        rows += [bench_array(name, puzzles, threads=t) for t in (1, 2)]
    print(format_table(rows))
    for one, two in zip(rows[::2], rows[1::2], strict=True):
        print(f"- {one.name}: {one.seconds / two.seconds:.2f}x on 2 threads")


def rules(data: Path, quick: bool) -> None:
    section("What each propagation rule buys (µs/puzzle and nodes/puzzle, uniqueness check, 1 thread)")
    names = {"17clue_royle_49151.txt": 2000, "magictour_top1465.txt": None, "forum_hardest_1106.txt": None}
    print("| rules | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    loaded = {name: load(data / name)[: 200 if quick else rows] for name, rows in names.items()}
    for label, flags in RULES.items():
        cells = []
        for name, puzzles in loaded.items():
            row = bench_array(name, puzzles, rules=flags, repeat=1 if flags < 3 else 3)
            cells.append(f"{row.us_per_puzzle:,.1f} µs / {row.nodes_per_puzzle:,.1f}")
        print(f"| {label} | " + " | ".join(cells) + " |")
    section("The 9x9 specialisation (all rules, uniqueness check, 1 thread)")
    print("| file | generic kernel µs | specialised µs | gain |\n|---|---|---|---|")
    for name, puzzles in loaded.items():
        generic = bench_array(name, puzzles, rules=codes.ALL_RULES | codes.GENERIC_ONLY, repeat=1)
        special = bench_array(name, puzzles)
        print(f"| {name} | {generic.us_per_puzzle:,.1f} | {special.us_per_puzzle:,.2f} | "
              f"{generic.seconds / special.seconds:.0f}x |")


def latency() -> None:
    section("One call from Python, including parsing (best of 5 x 20,000 calls)")
    bitdoku.solve(DEMO)
    calls = {
        "bitdoku.solve(text)": lambda: bitdoku.solve(DEMO),
        "bitdoku.is_unique(text)": lambda: bitdoku.is_unique(DEMO),
        "bitdoku.Grid.parse(text)": lambda: bitdoku.Grid.parse(DEMO),
    }
    for label, call in calls.items():
        best = min(timeit.repeat(call, number=20_000, repeat=5)) / 20_000
        print(f"- `{label}` on the main test grid: {best * 1e6:.1f} µs")


def process_time() -> None:
    section("Whole process: `bitdoku solve PUZZLE`")
    command = [sys.executable, "-m", "bitdoku", "solve", DEMO]
    subprocess.run(command, capture_output=True, check=True)  # make sure the cache is warm
    warm = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        warm.append(time.perf_counter() - start)
    print(f"- warm cache: best {min(warm):.2f} s, median {sorted(warm)[2]:.2f} s (5 runs)")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label, args in (("one puzzle", [DEMO]), ("then a file (batch kernel)", [str(_sample("famous.txt"))])):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "bitdoku", "solve", *args], capture_output=True, check=True, env=env)
            print(f"- cold cache, {label}: {time.perf_counter() - start:.1f} s (compiles, then caches)")


def _sample(name: str) -> Path:
    from bitdoku.data import sample_path

    return sample_path(name)


def run_benchmark(name: str, data: Path, extra: list[str]) -> int:
    """Run a maintained benchmark's script with its default arguments (and ``extra``) from the repository root."""
    script, defaults = BENCHMARKS[name]
    command = [sys.executable, str(HERE / script), *(a.replace("{data}", str(data)) for a in defaults), *extra]
    print(f"\n### {name}: {' '.join(command[1:])}\n", flush=True)
    return subprocess.run(command, cwd=HERE.parent).returncode


def main() -> None:
    sections = ["datasets", "scaling", "rules", "latency", "process"]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    parser.add_argument("--quick", action="store_true", help="500 puzzles a file: a smoke run, not the record")
    parser.add_argument("--only", nargs="*", default=sections, metavar="NAME",
                        help="sections of issue 3 and names of maintained benchmarks (--list)")
    parser.add_argument("--list", action="store_true", help="print the names --only takes")
    parser.add_argument("extra", nargs="*", help="after --: more arguments for the named benchmarks' scripts")
    args = parser.parse_args()
    if args.list:
        print("sections (issue 3): " + " ".join(sections))
        for name, (script, defaults) in BENCHMARKS.items():
            print(f"{name:18} {script} {' '.join(defaults)}".rstrip())
        return
    unknown = [name for name in args.only if name not in sections and name not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown name {', '.join(unknown)} (--list prints the names)")
    steps = {"datasets": lambda: datasets(args.data, args.quick), "scaling": lambda: scaling(args.data, args.quick),
             "rules": lambda: rules(args.data, args.quick), "latency": latency, "process": process_time}
    if any(name in steps for name in args.only):
        print(f"bitdoku {bitdoku.__version__}, numba threads available: {os.cpu_count()}")
    failed = []
    for name in args.only:
        if name in steps:
            steps[name]()
        elif run_benchmark(name, args.data, args.extra):
            failed.append(name)
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
