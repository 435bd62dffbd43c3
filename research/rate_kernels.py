"""The SE rater's costly finders timed alone on the states where a real solve calls them, with their answers kept
so that two source trees can be checked to give the same ones.

Usage (each tree with its own ``PYTHONPATH`` and ``NUMBA_CACHE_DIR``):
  python research/rate_kernels.py record /tmp/states.pkl --count 40   # top1465, every 36th puzzle
  python research/rate_kernels.py time /tmp/states.pkl /tmp/old.pkl --rounds 3      # on the old tree
  python research/rate_kernels.py time /tmp/states.pkl /tmp/new.pkl --rounds 3      # on the new tree
  python research/rate_kernels.py compare /tmp/old.pkl /tmp/new.pkl

``record`` solves the puzzles on the SE ladder and keeps the state (values, masks) of every call of the forcing
rungs, the SE chain rung and the WXYZ-Wing rung. ``time`` gives, per family, the best of ``--rounds`` rounds of
CPU time a call: the forcing searches (``forcing._search``: every hint with its complexity, and their order),
the first step of the SE chains, the aligned exclusions and the four ALS wing finders (technique, text,
eliminations, placements, difficulty), and saves those answers; ``compare`` counts the states where two saved
runs differ (0 is the only good answer).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

from bitdoku.grid import Grid
from bitdoku.logic import als_wings, exclusion, forcing, se, se_chains
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.explain import default_max_steps
from bitdoku.shape import Shape

TOP = Path("/work/shared/data/magictour_top1465.txt")
SEARCHES = {"Cell Forcing Chain": forcing.MODE_MULTIPLE, "Dynamic Forcing Chain": forcing.MODE_DYNAMIC,
            "Nishio Forcing Chain": forcing.MODE_NISHIO}
FINDERS = {"Forcing Chain": {"SE chains": se_chains.find_se_chains,
                             "Aligned Pair Exclusion": exclusion.find_aligned_pair_exclusions,
                             "Aligned Triplet Exclusion": exclusion.find_aligned_triplet_exclusions},
           "WXYZ-Wing": {als_wings.NAMES[size]: als_wings.wing_finder(size) for size in range(3, 7)}}


def record(path: Path, count: int) -> None:
    """Keep the states at which a solve of ``count`` top1465 puzzles calls the rungs timed here."""
    lines = [line.split()[0] for line in TOP.read_text().splitlines() if line.strip()]
    states: dict[str, list[tuple[bytes, tuple[int, ...]]]] = {}

    def wrap(rung: se.SeRung) -> se.SeRung:
        def run(cg: CandidateGrid, *changes: object, find=rung.find, name=rung.technique):
            states.setdefault(name, []).append((cg.values, cg.masks))
            return find(cg, *changes)

        return rung._replace(find=run)

    wanted = set(SEARCHES) | set(FINDERS)
    ladder = tuple(wrap(rung) if rung.technique in wanted else rung for rung in se.SE_LADDER)
    for line in lines[1 :: len(lines) // count][:count]:
        grid = Grid.parse(line)
        se.se_solve(grid, default_max_steps(grid.shape), ladder)
    path.write_bytes(pickle.dumps(states))
    print({name: len(found) for name, found in states.items()})


def _best(rounds: int, work: list, call) -> tuple[float, list]:
    best, answers = float("inf"), []
    for _ in range(rounds):
        start = time.process_time()
        answers = [call(item) for item in work]
        best = min(best, time.process_time() - start)
    return best / max(len(work), 1), answers


def timed(states_path: Path, out: Path, rounds: int) -> None:
    """Time each family on its recorded states; save the answers."""
    states = pickle.loads(states_path.read_bytes())
    shape = Shape(3, 3)
    saved: dict[str, list] = {}

    def search(mode: forcing.Mode):
        def call(cg: CandidateGrid) -> object:
            hints = forcing._search(cg, mode)[1]
            return None if not len(hints) else (hints.found.tolist(), hints.order.tolist())

        return call

    def first(find):
        def call(cg: CandidateGrid) -> object:
            step = next(find(cg), None)
            return None if step is None else (step.technique, step.text, step.eliminations, step.placements,
                                              step.difficulty)

        return call

    jobs = [(name, name, search(mode)) for name, mode in SEARCHES.items()]
    jobs += [(name, key, first(find)) for key, finders in FINDERS.items() for name, find in finders.items()]
    for name, key, call in jobs:
        cgs = [CandidateGrid(values, masks, shape) for values, masks in states.get(key, [])]
        if not cgs:
            continue
        call(cgs[0])  # compiled before timing
        spent, saved[name] = _best(rounds, cgs, call)
        print(f"{name}: {len(cgs)} states, {spent * 1e3:.3f} ms a call (CPU, best of {rounds})", flush=True)
    out.write_bytes(pickle.dumps(saved))


def compare(a: Path, b: Path) -> int:
    """The number of states where two saved runs differ, per family."""
    first, second = pickle.loads(a.read_bytes()), pickle.loads(b.read_bytes())
    differ = 0
    for name in first.keys() & second.keys():
        count = sum(x != y for x, y in zip(first[name], second[name], strict=True))
        differ += count
        print(f"{name}: {len(first[name])} states, {count} differ")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("record", "time", "compare"))
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--count", type=int, default=40, help="record: top1465 puzzles solved.")
    parser.add_argument("--rounds", type=int, default=3, help="time: rounds, the best is kept.")
    args = parser.parse_args()
    if args.what == "record":
        record(args.paths[0], args.count)
        return 0
    if args.what == "time":
        timed(args.paths[0], args.paths[1], args.rounds)
        return 0
    return compare(args.paths[0], args.paths[1])


if __name__ == "__main__":
    sys.exit(main())
