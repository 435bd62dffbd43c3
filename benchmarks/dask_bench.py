"""Dask against threads: a file of puzzles through a LocalCluster and through ``bitdoku.batch.solve_many``.

    PYTHONPATH=src python benchmarks/dask_bench.py [/work/shared/data/17clue_royle_49151.txt] \
        [--workers 2] [--repeat 5] [--limit 1] [--chunks 2048,5000,10000,25000] [--times 1] [--skip-farm] \
        [--via-scheduler]

Both sides get the same parsed uint8 array (parsing is not timed), run after a warm-up (every worker has
compiled or loaded its kernels). The batch runs in rounds: the in-process batch, then each Dask driver once,
``--repeat`` rounds; each driver gets its best time against the best in-process time, and the median of its
rounds' shares (a round's in-process time over the driver's). Every Dask result is checked equal, array for
array, to the in-process result, and every solution is verified. Then the farm searches one puzzle with
2,058,658 solutions on the cluster (best of ``--repeat``). The scheduling overhead per task is (wall x worker
threads - kernel seconds) / tasks; see NOTES-dask.md.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
from distributed import Client

from bitdoku.batch import as_puzzle_array, solve_many, verify_solutions
from bitdoku.parallel import distributed as dd
from bitdoku.solver import search

DEFAULT_FILE = "/work/shared/data/17clue_royle_49151.txt"
MANY = "..2...6..9.......5.75.9......4237..........2....1.9....2.....68..8........6.....2"
FIELDS = ("puzzles", "solutions", "status_codes", "counts", "stats", "kernel_codes")


def best_of(repeat: int, run):
    """(best seconds, last result) of ``repeat`` runs of ``run()``."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def check_same(result, expected) -> None:
    for name in FIELDS:
        if not np.array_equal(getattr(result, name), getattr(expected, name)):
            raise SystemExit(f"the Dask result differs from the in-process one in {name}")


def bench_batch(client: Client, puzzles: np.ndarray, args) -> None:
    """Rounds of the in-process batch and every Dask driver, one run each a round in turn, so that the machine's
    drift reaches all of them alike; each driver's share is its round's in-process time over its own."""
    rows = len(puzzles)
    drivers = [(scatter, chunk) for scatter in (False, True) for chunk in args.chunks]
    local_times, dask_times = [], {driver: [] for driver in drivers}
    tasks = {}
    for _ in range(args.repeat):
        start = time.perf_counter()
        local = solve_many(puzzles, limit=args.limit, threads=args.workers)
        local_times.append(time.perf_counter() - start)
        for scatter, chunk in drivers:
            stats = dd.SchedulerStats()
            start = time.perf_counter()
            result = dd.solve_many(client, puzzles, chunk_size=chunk, limit=args.limit, stats=stats, scatter=scatter)
            dask_times[scatter, chunk].append(time.perf_counter() - start)
            tasks[scatter, chunk] = stats
            check_same(result, local)
    solved = np.array([status.has_solution for status in local.statuses])
    if not verify_solutions(puzzles[solved], local.solutions[solved], local.shape).all():
        raise SystemExit("an in-process solution failed verification")
    best_local = min(local_times)
    print(f"{rows:,} puzzles, limit={args.limit}, {args.workers} workers (1 thread each) vs {args.workers} threads, "
          f"{args.repeat} rounds, client {'direct to workers' if client.direct_to_workers else 'via the scheduler'}")
    print(f"{'driver':<26}{'chunk':>8}{'tasks':>6}{'best s':>8}{'median s':>9}{'best/best':>10}{'median share':>13}"
          f"{'µs/task':>9}")
    print(f"{'in-process threads':<26}{'':>8}{'':>6}{best_local:>8.3f}{statistics.median(local_times):>9.3f}"
          f"{'100%':>10}{'100%':>13}{'':>9}")
    for (scatter, chunk), times in dask_times.items():
        shares = [here / there for here, there in zip(local_times, times, strict=True)]
        name = "dask, scatter" if scatter else "dask, arrays in the task"
        stats = tasks[scatter, chunk]
        print(f"{name:<26}{chunk:>8,}{stats.tasks:>6}{min(times):>8.3f}{statistics.median(times):>9.3f}"
              f"{best_local / min(times):>10.0%}{statistics.median(shares):>13.0%}{stats.overhead_us:>9,.0f}")


def bench_farm(client: Client, args) -> None:
    print(f"\nfarm: count every solution of {MANY}")
    print(f"{'driver':<28}{'threshold':>10}{'slice':>11}{'tasks':>7}{'seconds':>9}{'µs/task':>10}")
    seconds, expected = best_of(args.repeat, lambda: search(MANY, limit=3_000_000, keep=0, strategy="farm",
                                                            threads=args.workers))
    print(f"{'threads (farm)':<28}{320:>10}{500_000:>11,}{'':>7}{seconds:>9.3f}{'':>10}")
    for threshold, slice_nodes in ((320, 500_000), (320, 2_000_000), (None, 500_000), (None, 2_000_000)):
        stats = dd.SchedulerStats()

        def run(threshold=threshold, slice_nodes=slice_nodes, stats=stats):
            stats.__init__()
            return dd.search(client, MANY, limit=3_000_000, keep=0, threshold=threshold, slice_nodes=slice_nodes,
                             stats=stats)

        dask_seconds, result = best_of(args.repeat, run)
        if result.count != expected.count:
            raise SystemExit(f"the Dask farm counted {result.count:,}, not {expected.count:,}")
        shown = threshold or f"{max(32, dd.THRESHOLD_PER_WORKER * args.workers)}*"
        print(f"{'dask farm':<28}{shown:>10}{slice_nodes:>11,}{stats.tasks:>7}{dask_seconds:>9.3f}"
              f"{stats.overhead_us:>10,.0f}")
    solved = dd.search(client, MANY, limit=1)
    print(f"solve mode (limit=1): {solved.status}, {solved.stats.nodes:,} nodes (count mode: "
          f"{result.stats.nodes:,})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=DEFAULT_FILE)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--limit", type=int, default=1)
    parser.add_argument("--chunks", type=lambda text: [int(x) for x in text.split(",")],
                        default=[2048, 5000, 10000, 25000])
    parser.add_argument("--times", type=int, default=1, help="repeat the file's puzzles this many times")
    parser.add_argument("--skip-farm", action="store_true")
    parser.add_argument("--via-scheduler", action="store_true",
                        help="results reach the client through the scheduler (Dask's default for a Client) rather "
                             "than straight from the workers (bitdoku.parallel.distributed.connect's local client)")
    args = parser.parse_args()
    lines = [line.split("#", 1)[0].strip() for line in Path(args.file).read_text().splitlines()]
    puzzles, _ = as_puzzle_array([line for line in lines if line])
    puzzles = np.tile(puzzles, (args.times, 1))
    solve_many(puzzles[:10], threads=args.workers)  # compile here too
    client, cluster = dd.local_client(args.workers)  # the CLI's local cluster: direct gathers, no profiler
    client.direct_to_workers = not args.via_scheduler
    with cluster, client:
        start = time.perf_counter()
        dd.warm_up(client)
        print(f"workers warmed up in {time.perf_counter() - start:.2f} s")
        bench_batch(client, puzzles, args)
        if not args.skip_farm:
            bench_farm(client, args)


if __name__ == "__main__":
    main()
