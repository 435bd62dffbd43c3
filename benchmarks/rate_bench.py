"""Time ``bitdoku.logic.rate`` on puzzle files, compare its scores with the compiled engine's guess counts, and
measure how well the SE-scale rating agrees with Sudoku Explainer.

Usage: PYTHONPATH=src python benchmarks/rate_bench.py [--sample 5000] [--scale se|bitdoku] [--se FILE] [FILE ...]
(default files: the shared 17-clue and top1465 lists). For each file: µs per puzzle (single thread, parsing
included, compiled before timing) with the mean, median, p99 and worst time of one puzzle (wall and CPU),
the level histogram, and the Spearman rank correlation between the score and the guesses of
``bitdoku.batch.count_many(lines, limit=2)`` (or ``bitdoku.search`` when batch is unavailable).

SE agreement (``--se``, default the shared ``se_rated_sudoku_exchange_dev.txt``, lines "puzzle rating"; ``--se ''``
skips it): Spearman(rating, SE) over all puzzles and among SE >= 5.0, the share rated within 0.5 of SE, how many
end "beyond logic", a table of SE against our score by SE band, and the time spent in each technique family.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import numpy as np

import bitdoku
from bitdoku.logic import rate
from bitdoku.logic.difficulty import spearman
from bitdoku.logic.rating import LEVELS

DATA = Path("/work/shared/data")
DEFAULT_FILES = [DATA / "17clue_royle_49151.txt", DATA / "magictour_top1465.txt"]
SE_FILE = DATA / "se_rated_sudoku_exchange_dev.txt"


def guesses_of(lines: list[str]) -> np.ndarray:
    """Guesses per puzzle from the compiled engine."""
    try:
        from bitdoku.batch import count_many

        return np.asarray(count_many(lines, limit=2).stats[:, 2], dtype=float)
    except Exception:  # batch is optional here: fall back to one search a puzzle
        return np.array([bitdoku.search(line).stats.guesses for line in lines], dtype=float)


def bench(path: Path, sample: int | None, scale: str = "se") -> None:
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    if sample and len(lines) > sample:
        lines = lines[:: len(lines) // sample][:sample]
    warm_up()
    ratings, times, cpu = [], [], []
    for line in lines:
        start, start_cpu = time.perf_counter(), time.process_time()
        ratings.append(rate(line, scale=scale))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    seconds = sum(times)
    levels = Counter(r.level for r in ratings)
    hardest = Counter(r.hardest for r in ratings)
    ms = np.array(times) * 1e3
    print(f"\n{path.name} ({scale} scale): {len(lines):,} puzzles, {seconds:.2f} s, "
          f"{seconds / len(lines) * 1e6:,.0f} µs/puzzle, "
          f"{len(lines) / seconds:,.0f} puzzles/s")
    for kind, spent in (("wall", ms), ("CPU", np.array(cpu) * 1e3)):  # CPU time: less sensitive to a loaded box
        print(f"{kind} ms a puzzle: mean {spent.mean():.3f}, median {np.median(spent):.3f}, "
              f"p99 {np.percentile(spent, 99):.2f}, worst {spent.max():.1f} ({lines[int(spent.argmax())]})")
    print("| level | puzzles | share |\n|---|---:|---:|")
    for level in LEVELS:
        print(f"| {level} | {levels[level]:,} | {levels[level] / len(lines):.1%} |")
    print("hardest technique:", ", ".join(f"{name} {count}" for name, count in hardest.most_common()))
    scores = np.array([r.score for r in ratings])
    guesses = guesses_of(lines)
    print(f"Spearman(score, engine guesses) = {spearman(scores, guesses):.3f}")
    solved = [r for r in ratings if r.level != "beyond logic"]
    if solved:
        mask = np.array([r.level != "beyond logic" for r in ratings])
        print(f"  among puzzles solved by logic ({mask.sum():,}): {spearman(scores[mask], guesses[mask]):.3f}")


def warm_up() -> None:
    """Compile the singles kernels and the solver a guess calls, so that no compile time is measured."""
    hard = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    for scale in ("se", "bitdoku"):
        rate(hard, scale=scale)


def family_of(technique: str) -> str:
    """The family a technique of the SE ladder belongs to, for the time profile."""
    for family, words in FAMILIES:
        if any(word in technique for word in words):
            return family
    return "other"


FAMILIES = (
    ("direct", ("Direct",)),
    ("ALS wings", ("WXYZ",)),
    ("intersections", ("Locked Candidates",)),
    ("subsets", ("Naked", "Hidden")),
    ("fish", ("Wing", "fish", "Swordfish", "Jellyfish")),
    ("single digit", ("Skyscraper", "Kite", "Turbot", "Strong Links", "X-Chain", "Colouring", "Empty Rectangle")),
    ("uniqueness", ("Unique", "BUG")),
    ("exclusion", ("Exclusion",)),
    ("chains", ("Chain", "Remote", "Cycle", "Forcing", "Nishio")),
)


def timed_ladder(clock: Counter) -> tuple:
    """The SE ladder with each finder timed into ``clock`` (family -> seconds)."""
    from bitdoku.logic.se import SE_LADDER

    def timed(find, family):
        def run(cg, *changes):  # an incremental rung is given the changes since it last failed
            start = time.perf_counter()
            try:
                step = next(find(cg, *changes), None)
            finally:
                clock[family] += time.perf_counter() - start
            return iter(() if step is None else (step,))
        return run

    return tuple(rung._replace(find=timed(rung.find, family_of(rung.technique))) for rung in SE_LADDER)


@contextmanager
def timed_kernel_and_guesses(clock: Counter):
    """Time the singles-and-direct-rules kernel and the solver calls of guesses into ``clock`` meanwhile."""
    from bitdoku.logic import se

    explain = sys.modules["bitdoku.logic.explain"]  # the module (``bitdoku.logic.explain`` is the function)

    def timed(function, family):
        def run(*args):
            start = time.perf_counter()
            try:
                return function(*args)
            finally:
                clock[family] += time.perf_counter() - start
        return run

    kernel, solution = se.se_singles, explain._solution_for
    se.se_singles = timed(kernel, "kernel: singles and direct rules")
    explain._solution_for = timed(solution, "guesses (solver)")
    try:
        yield
    finally:
        se.se_singles, explain._solution_for = kernel, solution


def se_agreement(path: Path, sample: int | None) -> None:
    """How the SE-scale rating agrees with Sudoku Explainer on a two-column file (puzzle, SE rating)."""
    from bitdoku.logic.explain import default_max_steps
    from bitdoku.logic.rating import se_rating_of
    from bitdoku.logic.se import se_solve

    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    if sample and len(rows) > sample:
        rows = rows[:: len(rows) // sample][:sample]
    warm_up()
    clock: Counter = Counter()
    ladder = timed_ladder(clock)
    ratings, seconds = [], []
    budget = default_max_steps(bitdoku.Grid.parse(rows[0][0]).shape)
    with timed_kernel_and_guesses(clock):
        for puzzle, _ in rows:
            start = time.perf_counter()
            ratings.append(se_rating_of(se_solve(bitdoku.Grid.parse(puzzle), budget, ladder)))
            seconds.append(time.perf_counter() - start)
    se = np.array([float(value) for _, value in rows])
    ours = np.array([r.score for r in ratings])
    old = np.array([rate(puzzle, scale="bitdoku").score for puzzle, _ in rows])
    high = se >= 5.0
    beyond = sum(r.level == "beyond logic" for r in ratings)
    print(f"\nSE agreement, {path.name}: {len(rows)} puzzles, {sum(seconds) / len(rows) * 1e3:.1f} ms/puzzle")
    print("| measure | SE scale | bitdoku scale |\n|---|---:|---:|")
    print(f"| Spearman(rating, SE), all | {spearman(ours, se):.3f} | {spearman(old, se):.3f} |")
    print(f"| Spearman among SE >= 5.0 ({high.sum()}) | {spearman(ours[high], se[high]):.3f} | "
          f"{spearman(old[high], se[high]):.3f} |")
    print(f"| Spearman among SE < 5.0 ({(~high).sum()}) | {spearman(ours[~high], se[~high]):.3f} | "
          f"{spearman(old[~high], se[~high]):.3f} |")
    print(f"| rated within 0.5 of SE | {np.mean(np.abs(ours - se) <= 0.5 + 1e-9):.1%} | - |")
    print(f"| rated exactly as SE | {np.mean(np.abs(ours - se) < 1e-9):.1%} | - |")
    print(f"| beyond logic | {beyond} | {sum(s >= 10 for s in old)} |")
    print("| SE band | puzzles | exact | within 0.5 | beyond logic |\n|---|---:|---:|---:|---:|")
    for low, top in ((0, 3.0), (3.0, 4.0), (4.0, 5.0), (5.0, 6.0), (6.0, 7.0), (7.0, 8.0), (8.0, 99)):
        band = (se >= low) & (se < top)
        if band.any():
            close = np.abs(ours[band] - se[band])
            print(f"| {low:.1f}-{min(top, 10):.1f} | {band.sum()} | {np.mean(close < 1e-9):.0%} | "
                  f"{np.mean(close <= 0.5 + 1e-9):.0%} | {int((ours[band] >= 10).sum())} |")
    total = sum(seconds)
    print("time per technique family (share of the rating time; the rest is glue: states, steps, histogram):")
    print(", ".join(f"{family} {spent / total:.0%} ({spent / len(rows) * 1e3:.2f} ms/puzzle)"
                    for family, spent in clock.most_common()))
    hardest = Counter(r.hardest for r in ratings)
    print("hardest technique:", ", ".join(f"{name} {count}" for name, count in hardest.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--sample", type=int, default=None, help="Rate an evenly spaced sample of each file.")
    parser.add_argument("--scale", choices=("se", "bitdoku"), default="se", help="The rating scale to time.")
    parser.add_argument("--se", type=str, default=str(SE_FILE),
                        help="Two-column file (puzzle, SE rating) to check agreement with SE; '' to skip.")
    args = parser.parse_args()
    if args.se:
        se_agreement(Path(args.se), args.sample)
    for path in args.files:
        bench(path, args.sample, args.scale)


if __name__ == "__main__":
    main()
