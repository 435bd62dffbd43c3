"""How well ``bitdoku.photo.read`` reads the shared photographs, split as the model was trained.

For the validation split (photos of puzzles the classifier never saw) and, separately, the training split: the
share of images read with all 81 cells right before and after the solver's correction, the share of cells right,
the grid-corner error against ``outlines.csv`` (the largest of the four corners' distances, as a share of the
grid's side) and the seconds an image, decoding included, on one core (wall clock, and the process's CPU time,
which a machine shared with other jobs inflates less).

    .venv/bin/python benchmarks/photo_bench.py --photos ../shared/data/photos [--failures]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from train_digits import Photo, load_photos, outlines

from bitdoku.photo import PhotoError, read
from bitdoku.photo.classify import load


@dataclass
class Outcome:
    """One photo's result: exact before and after correction, cells right, corner error, seconds."""

    name: str
    exact_before: bool
    exact_after: bool
    cells_right: int
    corner_error: float | None
    seconds: float
    cpu_seconds: float
    note: str


def measure(photo: Photo, truth: np.ndarray | None) -> Outcome:
    """Read one photo, timed from its file's bytes on disk to the corrected grid."""
    path, labels = photo
    start, cpu_start = time.perf_counter(), time.process_time()
    try:
        reading = read(path)
    except PhotoError as error:
        return Outcome(path.name, False, False, 0, None, time.perf_counter() - start,
                       time.process_time() - cpu_start, str(error))
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    before = np.array(reading.as_read.to_array()).ravel()
    after = np.array(reading.grid.to_array()).ravel()
    error = None
    if truth is not None:
        found = np.array(reading.corners)
        side = float(np.linalg.norm(truth[0] - truth[1]))
        error = min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in range(4)) / side
    if after.size != labels.size:  # read as another size (the reader detects it): every cell counts as wrong
        note = f"read as {reading.grid.shape.size_name}, not 9x9"
        return Outcome(path.name, False, False, 0, error, seconds, cpu_seconds, note)
    wrong = [f"r{i // 9 + 1}c{i % 9 + 1}:{after[i]}!={labels[i]}" for i in np.flatnonzero(after != labels)]
    note = f"{reading.status.value}; corrected {reading.corrected_names()}; wrong {wrong}"
    return Outcome(path.name, bool((before == labels).all()), bool((after == labels).all()),
                   int((after == labels).sum()), error, seconds, cpu_seconds, note)


def report(title: str, outcomes: list[Outcome], failures: bool) -> None:
    """One line of figures for a split (and its failures, when asked)."""
    n = len(outcomes)
    errors = [o.corner_error for o in outcomes if o.corner_error is not None]
    seconds = np.array([o.seconds for o in outcomes])
    cpu = np.array([o.cpu_seconds for o in outcomes])
    print(f"{title:<11} {n:>6} {sum(o.exact_before for o in outcomes) / n:>8.1%} "
          f"{sum(o.exact_after for o in outcomes) / n:>8.1%} {sum(o.cells_right for o in outcomes) / (81 * n):>8.2%} "
          f"{np.median(errors):>9.2%} {np.mean(np.array(errors) < 0.03):>8.1%} "
          f"{seconds.mean():>7.3f} {np.percentile(seconds, 95):>7.3f} {seconds.max():>7.3f} "
          f"{cpu.mean():>7.3f} {np.percentile(cpu, 95):>7.3f}")
    if failures:
        for outcome in outcomes:
            if not outcome.exact_after:
                print(f"    {outcome.name}: {outcome.note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=Path, default=Path("../shared/data/photos"))
    parser.add_argument("--failures", action="store_true", help="list the photos not read exactly")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    photos = {p[0].name: p for p in load_photos(args.photos)}
    metadata = load().metadata
    corners = outlines(args.photos)
    read(photos[metadata["training"][0]][0])  # load the model and the solver's compiled kernel before timing
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; timed on one core")
    print(f"{'split':<11} {'images':>6} {'exact':>8} {'+solver':>8} {'cells':>8} {'corner':>9} {'<3%':>8} "
          f"{'s mean':>7} {'s p95':>7} {'s max':>7} {'cpu s':>7} {'cpu p95':>7}")
    for title in ("validation", "training"):
        names = [name for name in metadata[title] if name in photos]
        report(title, [measure(photos[name], corners.get(name)) for name in names], args.failures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
