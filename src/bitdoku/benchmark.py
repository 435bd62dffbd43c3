"""Benchmarks the way the solver community reports them: puzzles/s, µs/puzzle, % solved without guessing,
guesses/puzzle, with every solution verified and the JIT compile (or cache load) timed on its own."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bitdoku.batch import BatchResult, as_puzzle_array, solve_many, verify_solutions
from bitdoku.engines.result import Status
from bitdoku.kernels import status as codes
from bitdoku.reader import read_puzzles


@dataclass(frozen=True)
class BenchRow:
    """One file's measurements (times are the best of the repeats)."""

    name: str
    puzzles: int
    mode: str
    threads: int
    seconds: float
    compile_seconds: float
    no_guess_percent: float
    guesses_per_puzzle: float
    nodes_per_puzzle: float
    verified: int
    outcome: dict[str, int]

    @property
    def us_per_puzzle(self) -> float:
        return self.seconds / self.puzzles * 1e6

    @property
    def puzzles_per_second(self) -> float:
        return self.puzzles / self.seconds


COLUMNS = ("file", "puzzles", "mode", "threads", "puzzles/s", "µs/puzzle", "no guess %", "guesses/puzzle",
           "nodes/puzzle", "verified", "outcome", "JIT s")


def load(path: str | Path) -> np.ndarray:
    """A puzzle file as a uint8 batch array (all puzzles of one shape)."""
    array, _ = as_puzzle_array(list(read_puzzles(path)))
    return array


def bench_array(
    name: str, puzzles: np.ndarray, *, mode: str = "unique", threads: int = 1, repeat: int = 3,
    rules: int = codes.ALL_RULES, max_nodes: int | None = None,
) -> BenchRow:
    """Time ``solve_many`` on a batch ``repeat`` times and verify every solution it returns."""
    limit = {"first": 1, "unique": 2}[mode]
    start = time.perf_counter()
    solve_many(puzzles[:1], limit=limit, threads=1, rules=rules)  # compiles, or loads the cache
    compile_seconds = time.perf_counter() - start
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = solve_many(puzzles, limit=limit, threads=threads, rules=rules, max_nodes=max_nodes)
        best = min(best, time.perf_counter() - start)
    assert result is not None
    return _row(name, puzzles, result, mode, threads, best, compile_seconds)


def _row(name: str, puzzles: np.ndarray, result: BatchResult, mode: str, threads: int, seconds: float,
         compile_seconds: float) -> BenchRow:
    solved = np.array([s.has_solution for s in result.statuses])
    good = verify_solutions(puzzles[solved], result.solutions[solved], result.shape)
    if not good.all():
        raise AssertionError(f"{name}: {int((~good).sum())} wrong solutions")
    guesses = result.stats[:, codes.STAT_GUESSES]
    nodes = result.stats[:, codes.STAT_NODES]
    return BenchRow(
        name=name, puzzles=len(puzzles), mode=mode, threads=threads, seconds=seconds,
        compile_seconds=compile_seconds, no_guess_percent=100.0 * float((guesses == 0).mean()),
        guesses_per_puzzle=float(guesses.mean()), nodes_per_puzzle=float(nodes.mean()), verified=int(good.sum()),
        outcome={status.value: n for status, n in result.summary().items()},
    )


def format_table(rows: list[BenchRow]) -> str:
    """A Markdown table of the rows, ready for benchmarks/RESULTS.md."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in rows:
        outcome = ", ".join(f"{k} {v:,}" for k, v in sorted(r.outcome.items()))
        cells = (r.name, f"{r.puzzles:,}", r.mode, str(r.threads), f"{r.puzzles_per_second:,.0f}",
                 f"{r.us_per_puzzle:.2f}", f"{r.no_guess_percent:.1f}", f"{r.guesses_per_puzzle:.2f}",
                 f"{r.nodes_per_puzzle:.1f}", f"{r.verified:,}", outcome, f"{r.compile_seconds:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


__all__ = ["BenchRow", "Status", "bench_array", "format_table", "load"]
