"""Render Sudoku screenshots for the photo reader's tests and benchmark: 6x6, 9x9 and 16x16 grids drawn with
Pillow in the machine's fonts, light or dark, with or without pencil marks in the empty cells.

A screenshot is what a solving app or a web page shows: flat colours, thin cell lines and thick box lines,
values centred in their cells (letters A-G for 10-16), candidates written small in a mini-grid of the box's
shape in empty cells (which the reader must take as empty). The renders are a pure function of their
arguments, so a seed gives the same set on every machine with the same fonts.

    .venv/bin/python tools/render_screens.py --out /tmp/screens --count 3     # a few PNGs to look at

``tests/photo`` and ``benchmarks/screenshot_bench.py`` import ``render`` and ``font_paths`` from here.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from bitdoku.formats.tokens import ALPHABET
from bitdoku.shape import Shape

#: Fonts wanted, by file name, in order; whichever of them the machine has are used (DejaVu and Liberation
#: come with Debian's chromium package and fonts-dejavu-core; the others are optional).
PREFERRED = ("DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf", "DejaVuSans-Bold.ttf",
             "DejaVuSansCondensed.ttf", "LiberationSans-Regular.ttf", "LiberationSerif-Regular.ttf",
             "LiberationMono-Regular.ttf", "LiberationSansNarrow-Regular.ttf", "DejaVuSerif-Bold.ttf")


@dataclass(frozen=True)
class Theme:
    """The colours of a screenshot (RGB)."""

    name: str
    page: tuple[int, int, int]
    cell: tuple[int, int, int]
    line: tuple[int, int, int]
    given: tuple[int, int, int]
    pencil: tuple[int, int, int]


LIGHT = Theme("light", (250, 250, 250), (255, 255, 255), (40, 40, 40), (20, 20, 20), (110, 110, 130))
DARK = Theme("dark", (24, 26, 30), (33, 36, 42), (200, 200, 205), (235, 235, 240), (140, 150, 170))
THEMES = (LIGHT, DARK)


def font_paths() -> list[str]:
    """The preferred fonts found on this machine (``fc-list``), in PREFERRED order; any TrueType font when none
    of them is there; an empty list without fontconfig (``render`` then uses Pillow's own default font)."""
    try:
        listed = subprocess.run(["fc-list", ":", "file"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    files = sorted({line.split(":")[0].strip() for line in listed.splitlines()})
    by_name = {Path(f).name: f for f in files}
    found = [by_name[name] for name in PREFERRED if name in by_name]
    return found or [f for f in files if f.endswith(".ttf")][:5]


def render(values: npt.ArrayLike, shape: Shape, *, font: str | None = None, theme: Theme = LIGHT,
           pencil: bool = False, cell: int = 40, margin: int = 24) -> Image.Image:
    """The puzzle ``values`` (N*N, 0 for empty) as an RGB screenshot; with ``pencil``, each empty cell shows
    the values its row, column and box do not hold, small, in a mini-grid of the box's shape."""
    n = shape.n
    grid = np.asarray(values, np.int64).reshape(n, n)
    side = n * cell + 2 * margin
    image = Image.new("RGB", (side, side), theme.page)
    draw = ImageDraw.Draw(image)
    draw.rectangle([margin, margin, margin + n * cell, margin + n * cell], fill=theme.cell)
    for k in range(n + 1):
        across = k % shape.box_rows == 0  # a thick horizontal line closes a band of box_rows rows
        down = k % shape.box_cols == 0
        at = margin + k * cell
        draw.line([(margin, at), (margin + n * cell, at)], fill=theme.line, width=3 if across else 1)
        draw.line([(at, margin), (at, margin + n * cell)], fill=theme.line, width=3 if down else 1)
    big = _font(font, round(cell * 0.62))
    small = _font(font, max(5, round(cell / max(shape.box_rows, shape.box_cols) * 0.7)))  # never overlapping
    for row in range(n):
        for col in range(n):
            x, y = margin + col * cell, margin + row * cell
            if grid[row, col]:
                draw.text((x + cell / 2, y + cell / 2), ALPHABET[grid[row, col] - 1], fill=theme.given, font=big,
                          anchor="mm")
            elif pencil:
                _candidates(draw, grid, shape, row, col, (x, y, cell), small, theme.pencil)
    return image


def _candidates(draw: ImageDraw.ImageDraw, grid: npt.NDArray[np.int64], shape: Shape, row: int, col: int,
                box: tuple[int, int, int], font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
                colour: tuple[int, int, int]) -> None:
    """The cell's candidates, value v at its place (v - 1) of a box_rows x box_cols mini-grid."""
    x, y, cell = box
    top, left = row - row % shape.box_rows, col - col % shape.box_cols
    seen = set(grid[row].tolist()) | set(grid[:, col].tolist())
    seen |= set(grid[top:top + shape.box_rows, left:left + shape.box_cols].ravel().tolist())
    pad = cell * 0.06
    width, height = (cell - 2 * pad) / shape.box_cols, (cell - 2 * pad) / shape.box_rows
    for value in range(1, shape.n + 1):
        if value not in seen:
            r, c = divmod(value - 1, shape.box_cols)
            draw.text((x + pad + (c + 0.5) * width, y + pad + (r + 0.5) * height), ALPHABET[value - 1],
                      fill=colour, font=font, anchor="mm")


def _font(path: str | None, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at ``size`` pixels, or Pillow's own scalable default when there is no font file."""
    if path is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(path, size)


def random_puzzle(shape: Shape, rng: np.random.Generator, givens: float = 0.4) -> npt.NDArray[np.int64]:
    """A random solution of ``shape`` (the pattern grid shuffled by the moves that keep it valid), with all but
    a share ``givens`` of the cells emptied. Not unique: for reading back, not for solving."""
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    base = np.array([[(bc * (r % br) + r // br + c) % n for c in range(n)] for r in range(n)])
    rows = np.concatenate([band * br + rng.permutation(br) for band in rng.permutation(n // br)])
    cols = np.concatenate([stack * bc + rng.permutation(bc) for stack in rng.permutation(n // bc)])
    solution = (rng.permutation(n) + 1)[base[rows][:, cols]].ravel()
    solution[rng.permutation(n * n)[round(givens * n * n):]] = 0
    return solution


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("screens"))
    parser.add_argument("--count", type=int, default=2, help="puzzles of each size")
    parser.add_argument("--seed", type=int, default=38)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    fonts = font_paths() or [None]
    for shape in (Shape(2, 3), Shape(3, 3), Shape(4, 4)):
        for index in range(args.count):
            values = random_puzzle(shape, rng)
            font = fonts[index % len(fonts)]
            for theme in THEMES:
                for pencil in (False, True):
                    name = f"{shape.size_name}-{index}-{Path(font or 'default').stem}-{theme.name}" \
                           f"{'-pencil' if pencil else ''}.png"
                    render(values, shape, font=font, theme=theme, pencil=pencil).save(args.out / name)
    print(f"{len(list(args.out.glob('*.png')))} screenshots in {args.out}; fonts: {', '.join(map(str, fonts))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
