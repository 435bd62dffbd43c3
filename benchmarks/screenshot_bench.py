"""Screenshots read back: exact share by size, font, theme and pencil marks, cells right, CPU time an image.

A reproducible set (seeded): unique puzzles from ``bitdoku.generate`` of each size (6x6, 9x9, 16x16), each
rendered by ``tools/render_screens.py`` in every font found (up to five), light and dark, with and without
pencil marks, at a cell size drawn from 28-48 px; with ``--chromium``, the project's own page as well (the
puzzle loaded by its permalink, a screenshot of the grid element). Each image is read from its PNG bytes
(decode included) on one core, with the solver's correction, as ``bitdoku.photo.read`` does by default.

    .venv/bin/python benchmarks/screenshot_bench.py [--puzzles 8] [--chromium] [--failures]
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import bitdoku
from bitdoku.photo import PhotoError, read
from bitdoku.shape import Shape

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import render_screens as screens

SHAPES = (Shape(2, 3), Shape(3, 3), Shape(4, 4))


@dataclass(frozen=True)
class Outcome:
    """One screenshot read: its labels (size, font, theme, pencil), exactness before and after the solver's
    correction, cells right, CPU seconds."""

    labels: dict[str, str]
    as_read: bool
    exact: bool
    cells: int
    total: int
    cpu: float
    note: str


def measure(png: bytes, values: np.ndarray, labels: dict[str, str]) -> Outcome:
    """Read one screenshot from its PNG bytes, timed in CPU seconds (decode and correction included)."""
    start = time.process_time()
    try:
        reading = read(png, size="auto")
    except PhotoError as error:
        return Outcome(labels, False, False, 0, values.size, time.process_time() - start, str(error))
    cpu = time.process_time() - start
    before = np.array(reading.as_read.to_array()).ravel()
    after = np.array(reading.grid.to_array()).ravel()
    if after.size != values.size:
        return Outcome(labels, False, False, 0, values.size, cpu, f"read as {reading.grid.shape.size_name}")
    wrong = [f"{i}:{after[i]}!={values[i]}" for i in np.flatnonzero(after != values)]
    return Outcome(labels, bool((before == values).all()), bool((after == values).all()),
                   int((after == values).sum()), values.size, cpu, f"wrong {wrong}")


def pillow_set(puzzles: int, seed: int) -> list[tuple[bytes, np.ndarray, dict[str, str]]]:
    """The rendered screenshots, with their puzzles and labels."""
    rng = np.random.default_rng(seed)
    fonts = screens.font_paths()[:5] or [None]
    shots = []
    for shape in SHAPES:
        for index in range(puzzles):
            values = np.array(bitdoku.generate(shape, seed=seed * 1000 + index).to_array()).ravel()
            for font in fonts:
                for theme in screens.THEMES:
                    for pencil in (False, True):
                        image = screens.render(values, shape, font=font, theme=theme, pencil=pencil,
                                               cell=int(rng.integers(28, 49)))
                        buffer = io.BytesIO()
                        image.save(buffer, format="PNG")
                        labels = {"size": shape.size_name, "font": Path(font or "default").stem,
                                  "theme": theme.name, "pencil": "pencil" if pencil else "plain", "source": "pillow"}
                        shots.append((buffer.getvalue(), values, labels))
    return shots


def chromium_set(puzzles: int, seed: int) -> list[tuple[bytes, np.ndarray, dict[str, str]]]:
    """Screenshots of the project's page (``bitdoku.web``) in Chromium, each puzzle loaded by its permalink; the
    page has no dark theme (style.css sets ``color-scheme: light``) and shows no candidates until one plays."""
    import shutil
    from urllib.parse import urlencode

    from playwright.sync_api import sync_playwright

    from bitdoku.web import create_app, serve_in_thread

    shots = []
    with serve_in_thread(create_app()) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                             args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for shape in SHAPES:
            for index in range(puzzles):
                grid = bitdoku.generate(shape, seed=seed * 1000 + index)
                page.goto(f"{url}/?{urlencode({'shape': str(shape), 'p': grid.to_line()})}")
                page.get_by_role("grid").wait_for()
                page.wait_for_timeout(300)
                png = page.get_by_role("grid").screenshot()
                labels = {"size": shape.size_name, "font": "page", "theme": "light", "pencil": "plain",
                          "source": "chromium"}
                shots.append((png, np.array(grid.to_array()).ravel(), labels))
        browser.close()
    return shots


def report(outcomes: list[Outcome], failures: bool) -> None:
    """Exact shares by each label, then the whole."""
    print(f"{'group':<34}{'images':>7}{'as read':>9}{'exact':>8}{'cells':>9}{'cpu s':>8}{'p95':>7}{'max':>7}")
    for key in ("source", "size", "font", "theme", "pencil"):
        groups: dict[str, list[Outcome]] = defaultdict(list)
        for outcome in outcomes:
            groups[outcome.labels[key]].append(outcome)
        for name, group in sorted(groups.items()):
            _line(f"{key}={name}", group)
    _line("all", outcomes)
    if failures:
        for outcome in outcomes:
            if not outcome.exact:
                print("   ", outcome.labels, outcome.note)


def _line(title: str, group: list[Outcome]) -> None:
    cpu = np.array([o.cpu for o in group])
    print(f"{title:<34}{len(group):>7}{np.mean([o.as_read for o in group]):>9.1%}"
          f"{np.mean([o.exact for o in group]):>8.1%}{sum(o.cells for o in group) / sum(o.total for o in group):>9.2%}"
          f"{cpu.mean():>8.3f}{np.percentile(cpu, 95):>7.3f}{cpu.max():>7.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, default=8, help="puzzles of each size")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--chromium", action="store_true", help="add screenshots of the project's page")
    parser.add_argument("--failures", action="store_true", help="list the screenshots not read exactly")
    args = parser.parse_args(argv)
    shots = pillow_set(args.puzzles, args.seed)
    if args.chromium:
        shots += chromium_set(args.puzzles, args.seed)
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    read(shots[0][0], size="auto")  # load the model and the solver's compiled kernels before timing
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; timed on one core; "
          f"fonts: {', '.join(Path(f).stem for f in screens.font_paths()[:5]) or 'Pillow default'}")
    report([measure(png, values, labels) for png, values, labels in shots], args.failures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
