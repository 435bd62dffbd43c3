"""The study's experiment: solve a puzzle file with each mode at each degree of parallelism, repeat, and
compare. Times are per run over the whole file; speedups are against ``seq`` (the compiled depth-first search,
the best sequential time), so they say what the parallel modes buy over the fastest single thread.
"""

from __future__ import annotations

import csv
import json
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from bitdoku.engines.result import SearchResult
from bitdoku.errors import MissingExtraError
from bitdoku.grid import Grid
from bitdoku.shape import Shape
from bitdoku.solver import search

SEQUENTIAL_MODES = ("seq", "dfs", "bfs", "mixed")
PARALLEL_MODES = ("pt_dfs", "pt_mix", "farm", "dask")
MODES = SEQUENTIAL_MODES + PARALLEL_MODES

#: Runs one puzzle: (puzzle, mode, degree, limit, max_nodes) -> SearchResult.
Runner = Callable[[Grid, str, int, int, int], SearchResult]


@dataclass(frozen=True)
class Measurement:
    """One (mode, degree) cell of the experiment: run times over the whole file, and what was found."""

    mode: str
    threads: int
    runs: int
    min_seconds: float
    median_seconds: float
    solutions: int
    nodes: int
    speedup: float = 0.0


def local_runner(puzzle: Grid, mode: str, degree: int, limit: int, max_nodes: int) -> SearchResult:
    """The in-process modes; ``seq`` is the plain compiled search (strategy ``dfs``)."""
    strategy = "dfs" if mode == "seq" else mode
    return search(puzzle, limit=limit, keep=1, max_nodes=max_nodes, strategy=strategy, threads=degree)


def run_experiment(
    puzzles: Sequence[Grid], modes: Sequence[str], degrees: Sequence[int], *, repeat: int = 3, limit: int = 1,
    max_nodes: int = 10**9, runner: Runner = local_runner,
    on_result: Callable[[Grid, SearchResult], None] | None = None,
) -> list[Measurement]:
    """Time every mode at every degree (sequential modes at degree 1 only); checks that all modes agree."""
    measurements, counts = [], {}
    for mode in modes:
        for degree in (1,) if mode in SEQUENTIAL_MODES else degrees:
            times, found, nodes = [], 0, 0
            for run in range(repeat):
                start = time.perf_counter()
                results = [runner(puzzle, mode, degree, limit, max_nodes) for puzzle in puzzles]
                times.append(time.perf_counter() - start)
                found, nodes = sum(r.count for r in results), sum(r.stats.nodes for r in results)
                if on_result is not None and run == 0:
                    for puzzle, result in zip(puzzles, results, strict=True):
                        on_result(puzzle, result)
            counts[(mode, degree)] = [r.count for r in results]
            measurements.append(Measurement(mode, degree, repeat, min(times), statistics.median(times), found, nodes))
    _check_agreement(counts)
    return _with_speedups(measurements)


def _check_agreement(counts: dict) -> None:
    """Every mode must count the same solutions per puzzle; a difference is a bug, never a result."""
    first = next(iter(counts.values()), None)
    for (mode, degree), found in counts.items():
        if found != first:
            raise AssertionError(f"mode {mode} on {degree} threads counted {found}, others {first}")


def _with_speedups(measurements: list[Measurement]) -> list[Measurement]:
    base = next((m.min_seconds for m in measurements if m.mode == "seq"), measurements[0].min_seconds)
    return [
        Measurement(**{**asdict(m), "speedup": base / m.min_seconds if m.min_seconds else 0.0}) for m in measurements
    ]


def format_table(measurements: list[Measurement]) -> str:
    """A Markdown table: mode, threads, min and median seconds, speedup against seq, solutions, nodes."""
    lines = ["| mode | threads | min s | median s | speedup | solutions | nodes |"]
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for m in measurements:
        lines.append(f"| {m.mode} | {m.threads} | {m.min_seconds:.3f} | {m.median_seconds:.3f} | {m.speedup:.2f}x"
                     f" | {m.solutions:,} | {m.nodes:,} |")
    return "\n".join(lines)


def write_files(measurements: list[Measurement], prefix: Path) -> list[Path]:
    """Write ``prefix.csv`` and ``prefix.json``; return the paths."""
    rows = [asdict(m) for m in measurements]
    csv_path, json_path = prefix.with_suffix(".csv"), prefix.with_suffix(".json")
    with csv_path.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    json_path.write_text(json.dumps(rows, indent=2) + "\n")
    return [csv_path, json_path]


def plot_speedups(measurements: list[Measurement], prefix: Path, title: str) -> list[Path]:
    """Draw speedup against threads, one line a parallel mode (and the ideal), as PNG and SVG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtraError("the speedup plot", "plot") from None
    figure, axes = plt.subplots(figsize=(6, 4.5))
    degrees = sorted({m.threads for m in measurements})
    axes.plot(degrees, degrees, linestyle=":", color="grey", label="ideal")
    for mode in dict.fromkeys(m.mode for m in measurements):
        points = [(m.threads, m.speedup) for m in measurements if m.mode == mode]
        if mode in SEQUENTIAL_MODES:
            axes.axhline(points[0][1], linewidth=0.8, linestyle="--", label=f"{mode} (sequential)", alpha=0.6)
        else:
            axes.plot(*zip(*points, strict=True), marker="o", label=mode)
    axes.set(xlabel="threads (workers for dask)", ylabel="speedup over seq", title=title, xticks=degrees)
    axes.legend(fontsize="small")
    axes.grid(alpha=0.3)
    paths = [prefix.with_suffix(".png"), prefix.with_suffix(".svg")]
    for path in paths:
        figure.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(figure)
    return paths


@contextmanager
def experiment_runner(address: str | None, workers: int) -> Iterator[Callable[..., SearchResult]]:
    """The experiment's runner with a ``dask`` mode: connect (or start a local cluster of ``workers``
    processes), warm the workers up, and run the farm there with ``degree`` workers; other modes run here."""
    from bitdoku.parallel import distributed

    client, cluster = distributed.local_client(workers) if address in (None, "local") else distributed.connect(address)

    def run(puzzle: Grid, mode: str, degree: int, limit: int, max_nodes: int) -> SearchResult:
        if mode != "dask":
            return local_runner(puzzle, mode, degree, limit, max_nodes)
        return distributed.search(client, puzzle, limit=limit, keep=1, max_nodes=max_nodes, workers=degree)

    try:
        distributed.warm_up(client, {Shape(3, 3)})
        yield run
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
