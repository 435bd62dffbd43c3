"""Check that a change to the rater leaves every SE-scale rating as it was: save the ratings of a fixed set of
puzzles before the change, compare after it.

Usage:
  PYTHONPATH=src python benchmarks/rate_regress.py --save /tmp/ratings.json   # before the change
  PYTHONPATH=src python benchmarks/rate_regress.py --check /tmp/ratings.json  # after it: lists every difference

The set (default): an evenly spaced sample of 300 top1465 puzzles, 500 17-clue puzzles and the whole SE-rated file
(640 puzzles); ``--top``, ``--clue17`` and ``--se`` change the counts (0 leaves a file out). A rating is compared
whole: score, level, hardest technique, step histogram and each technique's highest difficulty. Also prints the
time of each group (same run, so only ratios against another run on a loaded box mean anything).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bitdoku.logic import rate

DATA = Path("/work/shared/data")
FILES = {"top": DATA / "magictour_top1465.txt", "clue17": DATA / "17clue_royle_49151.txt",
         "se": DATA / "se_rated_sudoku_exchange_dev.txt"}


def sample(path: Path, count: int) -> list[str]:
    """``count`` evenly spaced puzzles of a file (its first column), all of them when it has fewer."""
    lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip()]
    if count <= 0:
        return []
    return lines if len(lines) <= count else lines[:: len(lines) // count][:count]


def ratings(counts: dict[str, int]) -> dict[str, dict[str, object]]:
    """Rate every puzzle of the set; puzzle -> ``Rating.to_dict()``, and the time of each group on stderr."""
    rate(sample(FILES["top"], 1)[0])  # compile outside the timings
    out: dict[str, dict[str, object]] = {}
    for group, count in counts.items():
        puzzles = sample(FILES[group], count)
        start = time.perf_counter()
        for puzzle in puzzles:
            out[puzzle] = rate(puzzle).to_dict()
        if puzzles:
            spent = time.perf_counter() - start
            print(f"{group}: {len(puzzles)} puzzles, {spent / len(puzzles) * 1e3:.2f} ms mean", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--save", type=Path, help="Write the ratings to this JSON file.")
    what.add_argument("--check", type=Path, help="Compare the ratings with this JSON file.")
    parser.add_argument("--top", type=int, default=300, help="top1465 puzzles (default 300).")
    parser.add_argument("--clue17", type=int, default=500, help="17-clue puzzles (default 500).")
    parser.add_argument("--se", type=int, default=640, help="SE-rated puzzles (default 640, the whole file).")
    args = parser.parse_args()
    found = ratings({"top": args.top, "clue17": args.clue17, "se": args.se})
    if args.save:
        args.save.write_text(json.dumps(found, indent=0, sort_keys=True))
        print(f"saved {len(found)} ratings to {args.save}")
        return 0
    saved = json.loads(args.check.read_text())
    differ = [p for p in found if p in saved and found[p] != saved[p]]
    missing = [p for p in found if p not in saved]
    for puzzle in differ[:20]:
        print(f"{puzzle}\n  before {saved[puzzle]}\n  after  {found[puzzle]}")
    print(f"{len(found)} rated, {len(differ)} differ, {len(missing)} not in {args.check}")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
