"""The speed of the SE-scale rater, without changing a rating: a regression check of the ratings, a same-run A/B
of the incremental ladder against the straightforward one, and a profile of the ladder's rungs.

Usage:
  PYTHONPATH=src python benchmarks/rate_speed.py save /tmp/ratings.json   # before a change
  PYTHONPATH=src python benchmarks/rate_speed.py check /tmp/ratings.json  # after it: lists every difference
  PYTHONPATH=src python benchmarks/rate_speed.py ab --top 100 --clue17 2000 --se 0
  PYTHONPATH=src python benchmarks/rate_speed.py rungs --top 100 --clue17 0 --se 0 [--slowest 50]

The set (default): an evenly spaced sample of 300 top1465 puzzles, 500 17-clue puzzles and the whole SE-rated file
(640 puzzles); ``--top``, ``--clue17`` and ``--se`` change the counts (0 leaves a file out). ``save``/``check``
compare a rating whole: score, level, hardest technique, step histogram and each technique's highest difficulty,
and the solve's path: every step it applied beyond the kernel's singles (technique, placements, eliminations,
cells, sentence) and every technique it recorded (with its difficulty and count, the kernel's singles included),
in order, so a change that keeps the score but takes another path is caught too.
``ab`` rates each puzzle twice (each way first in turn), with the ladder memo (``bitdoku.logic.changes``) and
without it (every rung on the whole state), checks that both ratings are equal and prints the CPU times (mean,
median, ratio).
``rungs`` times every rung of the SE ladder (``--slowest K``: only the K slowest puzzles of the sample).
Times are of one run on a shared machine: compare them only within a run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from bitdoku.grid import Grid
from bitdoku.logic import rate, se
from bitdoku.logic.changes import LadderMemo
from bitdoku.logic.explain import default_max_steps

DATA = Path("/work/shared/data")
FILES = {"top": DATA / "magictour_top1465.txt", "clue17": DATA / "17clue_royle_49151.txt",
         "se": DATA / "se_rated_sudoku_exchange_dev.txt"}


def sample(path: Path, count: int) -> list[str]:
    """``count`` evenly spaced puzzles of a file (its first column), all of them when it has fewer."""
    lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip()]
    if count <= 0:
        return []
    return lines if len(lines) <= count else lines[:: len(lines) // count][:count]


def ratings(groups: dict[str, list[str]]) -> dict[str, dict[str, object]]:
    """Rate every puzzle; puzzle -> ``Rating.to_dict()`` with the solve's path (``"path"``: every step applied
    beyond the kernel's singles, and every technique recorded with its difficulty, in order), and the time of each
    group on stderr."""
    from bitdoku.logic import rating

    out: dict[str, dict[str, object]] = {}
    path: list[object] = []
    apply, record = rating._apply, se.SeSolve.record

    def applied(step: se.Step, *args: object) -> object:
        path.append([step.technique, step.placements, step.eliminations, sorted(step.cells), step.text])
        return apply(step, *args)

    def recorded(solve: se.SeSolve, technique: str, difficulty: float, times: int = 1) -> None:
        if times > 0:
            path.append([technique, difficulty, times])
        record(solve, technique, difficulty, times)

    rating._apply, se.SeSolve.record = applied, recorded
    try:
        for group, puzzles in groups.items():
            start = time.perf_counter()
            for puzzle in puzzles:
                path.clear()
                out[puzzle] = rate(puzzle).to_dict() | {"path": json.loads(json.dumps(path))}
            if puzzles:
                spent = time.perf_counter() - start
                print(f"{group}: {len(puzzles)} puzzles, {spent / len(puzzles) * 1e3:.2f} ms mean", file=sys.stderr)
    finally:
        rating._apply, se.SeSolve.record = apply, record
    return out


class _NoMemo(LadderMemo):
    """The straightforward ladder: every rung looks at the whole state."""

    def changes(self, rung: int, masks: tuple[int, ...], n: int) -> None:
        return None


def ab(groups: dict[str, list[str]]) -> int:
    """Each puzzle rated without, then with the ladder memo; the ratings must agree. Prints the times."""
    differ = 0
    for group, puzzles in groups.items():
        if not puzzles:
            continue
        times = np.zeros((len(puzzles), 2))
        for i, puzzle in enumerate(puzzles):
            found: list[dict[str, object]] = [{}, {}]
            for j in (0, 1) if i % 2 else (1, 0):  # either first in turn: the second run finds warm caches
                se.LadderMemo = (_NoMemo, LadderMemo)[j]
                start = time.process_time()
                found[j] = rate(puzzle).to_dict()
                times[i, j] = time.process_time() - start
            se.LadderMemo = LadderMemo
            if found[0] != found[1]:
                differ += 1
                print(f"{puzzle}: without the memo {found[0]}, with it {found[1]}")
        ms = times * 1e3
        print(f"{group}: {len(puzzles)} puzzles; without the memo mean {ms[:, 0].mean():.2f} ms, median "
              f"{np.median(ms[:, 0]):.3f}; with it mean {ms[:, 1].mean():.2f} ms, median {np.median(ms[:, 1]):.3f}; "
              f"ratio of the means {ms[:, 1].sum() / ms[:, 0].sum():.3f}, median ratio a puzzle "
              f"{np.median(ms[:, 1] / ms[:, 0]):.3f}")
    print(f"{differ} ratings differ")
    return 1 if differ else 0


def rungs(puzzles: list[str], slowest: int | None) -> None:
    """The time, calls and hits of every rung of the SE ladder over the puzzles (the kernel's singles apart)."""
    if slowest:
        spent = []
        for puzzle in puzzles:
            start = time.perf_counter()
            rate(puzzle)
            spent.append((time.perf_counter() - start, puzzle))
        puzzles = [puzzle for _, puzzle in sorted(spent, reverse=True)[:slowest]]
    clock: Counter = Counter()
    calls: Counter = Counter()
    hits: Counter = Counter()

    def timed(rung: se.SeRung) -> se.SeRung:
        def run(cg, *changes, find=rung.find, name=rung.technique):
            start = time.perf_counter()
            try:
                step = next(find(cg, *changes), None)
            finally:
                clock[name] += time.perf_counter() - start
                calls[name] += 1
            hits[name] += step is not None
            return iter(() if step is None else (step,))

        return rung._replace(find=run)

    ladder = tuple(timed(rung) for rung in se.SE_LADDER)
    start = time.perf_counter()
    for puzzle in puzzles:
        grid = Grid.parse(puzzle)
        se.se_solve(grid, default_max_steps(grid.shape), ladder)
    total = time.perf_counter() - start
    print(f"{len(puzzles)} puzzles, {total / len(puzzles) * 1e3:.2f} ms mean (SE ladder, uniqueness check apart)")
    print("| rung | ms/puzzle | share | calls | hits | µs/call |\n|---|---:|---:|---:|---:|---:|")
    for name, spent in clock.most_common():
        print(f"| {name} | {spent / len(puzzles) * 1e3:.3f} | {spent / total:.1%} | {calls[name]} | {hits[name]} | "
              f"{spent / calls[name] * 1e6:.0f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("save", "check", "ab", "rungs"))
    parser.add_argument("path", nargs="?", type=Path, help="The JSON file of ratings (save, check).")
    parser.add_argument("--top", type=int, default=300, help="top1465 puzzles (default 300).")
    parser.add_argument("--clue17", type=int, default=500, help="17-clue puzzles (default 500).")
    parser.add_argument("--se", type=int, default=640, help="SE-rated puzzles (default 640, the whole file).")
    parser.add_argument("--slowest", type=int, default=None, help="rungs: only the K slowest puzzles.")
    args = parser.parse_args()
    groups = {group: sample(FILES[group], count)
              for group, count in (("top", args.top), ("clue17", args.clue17), ("se", args.se))}
    rate(sample(FILES["top"], 1)[0])  # compile outside the timings
    if args.what == "ab":
        return ab(groups)
    if args.what == "rungs":
        rungs([p for puzzles in groups.values() for p in puzzles], args.slowest)
        return 0
    if args.path is None:
        parser.error(f"{args.what} needs the path of a JSON file")
    found = ratings(groups)
    if args.what == "save":
        args.path.write_text(json.dumps(found, indent=0, sort_keys=True))
        print(f"saved {len(found)} ratings to {args.path}")
        return 0
    saved = json.loads(args.path.read_text())
    differ = [p for p in found if p in saved and found[p] != saved[p]]
    missing = [p for p in found if p not in saved]
    for puzzle in differ[:20]:
        before, after = saved[puzzle].pop("path"), found[puzzle].pop("path")
        pairs = enumerate(zip(before, after, strict=False))
        at = next((i for i, (a, b) in pairs if a != b), min(len(before), len(after)))
        print(f"{puzzle}\n  before {saved[puzzle]}\n  after  {found[puzzle]}\n  steps differ from step {at}: "
              f"{before[at:at + 1]} / {after[at:at + 1]}")
    print(f"{len(found)} rated, {len(differ)} differ, {len(missing)} not in {args.path}")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
