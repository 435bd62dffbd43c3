"""Build the large-grid benchmark sets the project lacked: unique 16x16 and 25x25 puzzles of graded difficulty.

Public 16x16 and 25x25 collections (the ACS instance sets in ../shared/data) are mostly not unique, so a solver
benchmarked on them is timed on finding *a* solution of an under-constrained grid. These sets hold only puzzles
with exactly one solution, made by ``bitdoku generate``, in grades of falling clue counts: the fewer the clues,
the more a solver has to search (each file's header records the search effort the bitdoku engine needed).

Run from the repository root after ``pip install -e .``::

    python benchmarks/make_datasets.py [--out benchmarks/data] [--seed 2026] [--samples src/bitdoku/data]

(about two minutes for 16x16, ten for 25x25, on two cores).

The same seed rebuilds the same files, on any number of threads. ``--samples`` also writes the small extracts
shipped in the package for the tests (the first 3 puzzles of each grade).
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import bitdoku
from bitdoku.generate import generate_many
from bitdoku.kernels import status as codes


@dataclass(frozen=True)
class Grade:
    """One file: a shape, a name, the clue count (None: as few as a removal pass leaves) and how many puzzles."""

    shape: str
    name: str
    clues: int | None
    minimal: bool
    count: int

    @property
    def size(self) -> str:
        return bitdoku.Shape.parse(self.shape).size_name

    @property
    def file_name(self) -> str:
        return f"unique{self.size}_{self.name}.txt"

    @property
    def clue_rule(self) -> str:
        if self.minimal:
            return "minimal"
        return f"{self.clues} clues" if self.clues is not None else "as few clues as one removal pass leaves"

    def command(self, seed: int) -> str:
        options = f" --clues {self.clues}" if self.clues is not None else ""
        options += " --minimal" if self.minimal else ""
        return f"bitdoku generate --shape {self.shape} --count {self.count} --seed {seed}{options}"


GRADES = [  # clue counts chosen so that the engine's effort grows about tenfold a grade (see the file headers)
    Grade("4x4", "fill50", 128, False, 200),
    Grade("4x4", "fill42", 108, False, 200),
    Grade("4x4", "fill39", 100, False, 200),
    Grade("4x4", "minimal", None, True, 200),
    Grade("5x5", "fill52", 325, False, 100),
    Grade("5x5", "fill49", 305, False, 100),
    Grade("5x5", "fill47", 295, False, 100),
    Grade("5x5", "near-minimal", None, False, 100),
]
SAMPLE_LINES = 3


def build(grade: Grade, seed: int) -> tuple[list[bitdoku.Grid], float]:
    start = time.perf_counter()
    made = generate_many(grade.count, grade.shape, seed=seed, clues=grade.clues, minimal=grade.minimal,
                         time_limit=3600, max_nodes=10**10)
    return [generated.puzzle for generated in made], time.perf_counter() - start


#: Nodes the engine may spend on one puzzle when the effort is measured: the near-minimal 25x25 grade has a
#: heavy tail (a few puzzles need millions of nodes, minutes each, with today's generic kernel).
EFFORT_NODES = 200_000


def effort(puzzles: list[bitdoku.Grid]) -> str:
    """The bitdoku engine's search on the set, proving uniqueness within ``EFFORT_NODES`` a puzzle; also a check,
    by a full count that shares nothing with the removal kernel, that every puzzle it finishes is unique."""
    cells = np.frombuffer(b"".join(p.cells for p in puzzles), np.uint8).reshape(len(puzzles), -1)
    batch = bitdoku.count_many(cells, shape=puzzles[0].shape, limit=2, max_nodes=EFFORT_NODES)
    finished = batch.kernel_codes != codes.BUDGET_EXHAUSTED
    if not (batch.counts[finished] == 1).all():
        raise SystemExit("a generated puzzle is not unique: this is a bug, please report it")
    nodes = batch.stats[:, codes.STAT_NODES]
    guessless = float((batch.stats[:, codes.STAT_GUESSES] == 0).mean() * 100)
    over = int((~finished).sum())
    tail = f"; {over} need more than {EFFORT_NODES:,}" if over else ""
    return (f"search nodes to prove uniqueness (bitdoku {bitdoku.__version__}): median {int(np.median(nodes))}, "
            f"mean {nodes.mean():.0f}, max {nodes.max()}{tail}; {guessless:.0f}% need no guess")


def write(path: Path, grade: Grade, seed: int, puzzles: list[bitdoku.Grid], seconds: float) -> None:
    clues = [p.givens for p in puzzles]
    header = [
        f"# {len(puzzles)} unique {grade.size} puzzles, grade '{grade.name}' ({grade.clue_rule}; "
        f"clues {min(clues)}-{max(clues)}, mean {statistics.mean(clues):.1f})",
        f"# made by: {grade.command(seed)}  (benchmarks/make_datasets.py, {seconds:.0f} s)",
        f"# {effort(puzzles)}",
    ]
    path.write_text("\n".join(header + [p.to_line() for p in puzzles]) + "\n", encoding="utf-8")


def write_samples(out: Path, samples: Path) -> None:
    """The shipped extracts: the first ``SAMPLE_LINES`` puzzles of each grade's file in ``out``."""
    for size in sorted({grade.size for grade in GRADES}):
        lines = []
        for grade in (g for g in GRADES if g.size == size):
            puzzles = [line for line in (out / grade.file_name).read_text().splitlines() if not line.startswith("#")]
            lines.append(f"# grade {grade.name}: the first {SAMPLE_LINES} of benchmarks/data/{grade.file_name}")
            lines += puzzles[:SAMPLE_LINES]
        (samples / f"unique{size}_sample.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/data"))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--samples", type=Path, help="then write the shipped samples into this folder")
    parser.add_argument("--only", nargs="*", choices=["4x4", "5x5"], default=["4x4", "5x5"],
                        help="shapes to build (none: only write the samples from files already built)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for grade in (g for g in GRADES if g.shape in args.only):
        puzzles, seconds = build(grade, args.seed)
        write(args.out / grade.file_name, grade, args.seed, puzzles, seconds)
        print(f"{grade.file_name}: {len(puzzles)} puzzles in {seconds:.1f} s", flush=True)
    if args.samples:
        write_samples(args.out, args.samples)


if __name__ == "__main__":
    main()
