"""Train the digit classifier that ``bitdoku.photo`` ships (``src/bitdoku/photo/digits.npz``).

Re-runnable, with a fixed seed: the same photos and fonts give the same model. The samples are
* digit crops cut from the labelled photographs of the training split (``imageN.jpg`` with ``imageN.dat``), by
  the reader's own stages (grid finder, warp, lines, glyph), each photo several times with its corners jittered;
* digits 1-9 and letters A-G (the values 10-16 of a 16x16 grid) rendered from the fonts on the machine
  (``fc-list``) and OpenCV's Hershey fonts, drawn in a cell with its grid lines, then augmented (stroke width,
  perspective, blur, noise, contrast);
* "no digit" samples: shaded dots, blots, and pencil marks (small candidates in a 3x3 or 4x4 mini-grid, as
  solving apps show them in empty cells), whenever the reader's glyph finder takes them for a digit.
The classes are 0 ("no digit") and the values 1-16, written ``CLASSES``.
The photos are split into training and validation by PUZZLE (photos of the same puzzle share a ``.dat``
content and go to the same side), seeded; the validation list is stored in the model's metadata, and
``benchmarks/photo_bench.py`` reads it from there.

    .venv/bin/python tools/train_digits.py --photos ../shared/data/photos

Photographs: Wicht, B., Hennebert, J., "Camera-based Sudoku recognition with deep belief network", SoCPaR 2014,
pp. 83-88; dataset wichtounet/sudoku_dataset, CC-BY-4.0.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from bitdoku.photo import cells, digits
from bitdoku.photo.decode import decode
from bitdoku.photo.locate import find_grid

SEED = 38
#: The class of each output: "." for no digit, then the values 1-16 as bitdoku writes them.
CLASSES = ".123456789ABCDEFG"
VALIDATION_SHARE = 0.25
OUT = Path(__file__).resolve().parent.parent / "src" / "bitdoku" / "photo" / "digits.npz"
ATTRIBUTION = ('Wicht, B., Hennebert, J., "Camera-based Sudoku recognition with deep belief network", SoCPaR 2014, '
               "pp. 83-88; dataset wichtounet/sudoku_dataset (CC-BY-4.0)")

Photo = tuple[Path, npt.NDArray[np.int64]]  # the image and its 81 digits, 0 for an empty cell


def load_photos(folder: Path) -> list[Photo]:
    """Every labelled photo of the folder: the .dat holds two header lines, then 9 lines of 9 digits."""
    photos = []
    for path in sorted(folder.glob("image*.jpg"), key=lambda p: int(p.stem[5:])):
        label = path.with_suffix(".dat")
        if label.exists():
            numbers = " ".join(label.read_text().splitlines()[2:]).split()
            photos.append((path, np.array([int(n) for n in numbers[:81]])))
    return photos


def outlines(folder: Path) -> dict[str, npt.NDArray[np.float32]]:
    """The true corners (top-left clockwise) from outlines.csv, by file name."""
    found = {}
    with (folder / "outlines.csv").open() as handle:
        for row in csv.DictReader(handle):
            found[row["file"]] = np.array([[float(row[f"p{i}_x"]), float(row[f"p{i}_y"])] for i in range(1, 5)],
                                          np.float32)
    return found


def split_by_puzzle(photos: list[Photo], seed: int = SEED, share: float = VALIDATION_SHARE
                    ) -> tuple[list[Photo], list[Photo]]:
    """Training and validation photos, with all photos of one puzzle on the same side (seeded shuffle of the
    distinct puzzles, ordered by the hash of their digits so that the file order does not matter)."""
    puzzles = sorted({"".join(map(str, labels)) for _, labels in photos},
                     key=lambda p: hashlib.sha1(p.encode()).hexdigest())
    order = np.random.default_rng(seed).permutation(len(puzzles))
    held = {puzzles[i] for i in order[: round(share * len(puzzles))]}
    validation = [p for p in photos if "".join(map(str, p[1])) in held]
    return [p for p in photos if "".join(map(str, p[1])) not in held], validation


def oriented(gray: npt.NDArray[np.uint8], corners: npt.NDArray[np.float32], labels: npt.NDArray[np.int64]
             ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
    """The warped grid turned so that its filled cells match the labels' (photos taken sideways exist)."""
    best = (-1, None, None)
    for turn in range(4):
        warped = cells.warp(gray, np.roll(corners, turn, axis=0))
        boxes = cells.cell_boxes(warped)
        mask = cells.ink(warped)
        filled = np.array([digits.glyph(warped, mask, box).image is not None for box in boxes])
        agree = int((filled == (labels > 0)).sum()) + (1 if turn == 0 else 0)
        if agree > best[0]:
            best = (agree, warped, boxes)
    return best[1], best[2]


def photo_samples(photo: Photo, corners: npt.NDArray[np.float32] | None, rng: np.random.Generator, jitters: int
                  ) -> tuple[list[npt.NDArray[np.float32]], list[int]]:
    """Digit crops of one photo, cut by the reader's stages, once as found and ``jitters`` times with its corners
    moved by up to 1.5 % of the grid's side."""
    path, labels = photo
    decoded = decode(path)
    found = find_grid(decoded.gray)
    if found is None:
        if corners is None:
            return [], []
        found = corners / decoded.scale
    images, targets = [], []
    side = float(np.linalg.norm(found[0] - found[1]))
    for attempt in range(jitters + 1):
        moved = found + (rng.uniform(-0.015, 0.015, (4, 2)) * side if attempt else 0)
        warped, boxes = oriented(decoded.gray, moved.astype(np.float32), labels)
        mask = cells.ink(warped)
        for box, label in zip(boxes, labels, strict=True):
            glyph = digits.glyph(warped, mask, box)
            if glyph.image is not None:  # label 0: a smudge taken for a digit, which the classifier learns to refuse
                images.append(glyph.image)
                targets.append(int(label))
    return images, targets


def font_files() -> list[str]:
    """The TrueType fonts on this machine (fc-list), sorted so the run does not depend on its order."""
    try:
        listed = subprocess.run(["fc-list", ":", "file"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    return sorted({line.split(":")[0].strip() for line in listed.splitlines() if line.strip().endswith(":")
                   and line.split(":")[0].strip().endswith((".ttf", ".otf"))})


def rendered_samples(rng: np.random.Generator, count: int, pencil: float = 0.0, crisp: float = 0.0
                     ) -> tuple[list[npt.NDArray[np.float32]], list[int]]:
    """``count`` digits (and a share ``pencil`` of cells of pencil marks, as "no digit") drawn in the middle cell
    of a 3 x 3 patch of grid, augmented, cut as the reader cuts."""
    from PIL import Image, ImageDraw, ImageFont

    fonts = [ImageFont.truetype(f, 64) for f in font_files()]
    images, targets = [], []
    cell = cells.CELL
    while len(images) < count:
        kind = rng.random()
        digit = int(rng.integers(1, len(CLASSES))) if kind > 0.04 + pencil else 0  # 0: an empty cell with clutter
        canvas = Image.new("L", (3 * cell * 4, 3 * cell * 4), int(rng.integers(170, 256)))
        draw = ImageDraw.Draw(canvas)
        ink = int(rng.integers(0, 90))
        for k in range(4):
            width = int(rng.integers(1, 6))
            draw.line([(k * cell * 4, 0), (k * cell * 4, 12 * cell)], fill=ink, width=width)
            draw.line([(0, k * cell * 4), (12 * cell, k * cell * 4)], fill=ink, width=width)
        size = int(rng.uniform(0.45, 0.8) * cell * 4)
        centre = (6 * cell + rng.uniform(-0.08, 0.08) * cell * 4, 6 * cell + rng.uniform(-0.08, 0.08) * cell * 4)
        if digit == 0 and fonts and kind < pencil:
            _pencil_marks(draw, fonts[int(rng.integers(len(fonts)))], ink, rng)
            patch = np.asarray(canvas)
        elif digit == 0:
            patch = _clutter(np.array(canvas), ink, rng)
        elif fonts and rng.random() < 0.75:
            font = fonts[int(rng.integers(len(fonts)))].font_variant(size=size)
            draw.text(centre, CLASSES[digit], fill=ink, font=font, anchor="mm",
                      stroke_width=int(rng.integers(0, 3)), stroke_fill=ink)
            patch = np.asarray(canvas)
        else:
            patch = _hershey(np.array(canvas), digit, size, centre, ink, rng)
        sample = _augmented(patch, rng, crisp)
        mask = cells.ink(sample)
        glyph = digits.glyph(sample, mask, np.array([cell, cell, 2 * cell, 2 * cell]) + rng.integers(-2, 3, 4))
        if glyph.image is not None:
            images.append(glyph.image)
            targets.append(digit)
    return images, targets


def _hershey(patch: npt.NDArray[np.uint8], digit: int, size: int, centre: tuple[float, float], ink: int,
             rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """A digit in one of OpenCV's own stroke fonts (they look like the thin digits of some newspapers)."""
    font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                           cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN]))
    thickness = int(rng.integers(2, 9))
    (w, h), _ = cv2.getTextSize(CLASSES[digit], font, 1.0, thickness)
    scale = size / h
    (w, h), _ = cv2.getTextSize(CLASSES[digit], font, scale, thickness)
    origin = (round(centre[0] - w / 2), round(centre[1] + h / 2))
    cv2.putText(patch, CLASSES[digit], origin, font, scale, ink, thickness, cv2.LINE_AA)
    return patch


def _pencil_marks(draw: Any, font: Any, ink: int, rng: np.random.Generator) -> None:
    """Candidates written small in the middle cell, each in its place of a 3x3 (or 4x4) mini-grid: an empty
    cell of a solving app's screenshot, which must read as empty."""
    cell = cells.CELL * 4
    k = 3 if rng.random() < 0.6 else 4
    small = font.font_variant(size=max(6, int(cell / k * rng.uniform(0.45, 0.8))))
    pad = rng.uniform(0.02, 0.1) * cell
    step = (cell - 2 * pad) / k
    for value in np.flatnonzero(rng.random(k * k) < rng.uniform(0.2, 1.0)):
        row, col = divmod(int(value), k)
        draw.text((cell + pad + (col + 0.5) * step, cell + pad + (row + 0.5) * step), CLASSES[int(value) + 1],
                  fill=ink, font=small, anchor="mm")


def _clutter(patch: npt.NDArray[np.uint8], ink: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """What an empty cell may hold: a shaded, speckled area or a blot. (Pen strokes and stubs of lines were
    tried as well: they look too much like a 1 or a 7, and the model learnt to miss real ones.)"""
    cell = cells.CELL * 4
    kind = int(rng.choice([0, 2]))
    if kind == 0:  # screened shading: printed dots
        area = patch[cell:2 * cell, cell:2 * cell]
        dots = rng.random(area.shape) < rng.uniform(0.1, 0.5)
        area[dots] = np.minimum(area[dots], ink + rng.integers(0, 120))
    elif kind == 1:  # a pen stroke
        start = tuple(int(v) for v in rng.integers(cell, 2 * cell, 2))
        end = tuple(int(v) for v in rng.integers(cell, 2 * cell, 2))
        cv2.line(patch, start, end, ink, int(rng.integers(2, 8)), cv2.LINE_AA)
    elif kind == 2:  # a blot
        centre = tuple(int(v) for v in rng.integers(cell + 20, 2 * cell - 20, 2))
        cv2.ellipse(patch, centre, tuple(int(v) for v in rng.integers(4, 30, 2)), float(rng.uniform(0, 180)), 0, 360,
                    ink, -1)
    else:  # a thick line drawn off its place, as a misplaced cut leaves it
        x = int(cell + rng.integers(-10, 25))
        cv2.line(patch, (x, 0), (x, 3 * cell), ink, int(rng.integers(6, 16)))
    return patch


def _augmented(patch: npt.NDArray[np.uint8], rng: np.random.Generator, crisp: float = 0.0) -> npt.NDArray[np.uint8]:
    """A random perspective, then shrunk to the warped grid's scale, blurred, noised, contrast squeezed; or, for
    a share ``crisp``, only shrunk by a random factor and back, as a screenshot's cell of 20-50 px is warped."""
    side = patch.shape[0]
    if crisp and rng.random() < crisp:  # no draw when 0: the shipped model's stream of samples is kept
        shown = max(8, int(3 * cells.CELL * rng.uniform(0.6, 1.5)))
        small = cv2.resize(patch, (shown, shown), interpolation=cv2.INTER_AREA)
        return cv2.resize(small, (3 * cells.CELL, 3 * cells.CELL), interpolation=cv2.INTER_LINEAR)
    source = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    target = (source + rng.uniform(-0.04, 0.04, (4, 2)) * side).astype(np.float32)
    warped = cv2.warpPerspective(patch, cv2.getPerspectiveTransform(source, target), (side, side),
                                 borderMode=cv2.BORDER_REPLICATE)
    small = cv2.resize(warped, (3 * cells.CELL, 3 * cells.CELL), interpolation=cv2.INTER_AREA).astype(np.float32)
    if rng.random() < 0.7:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 2.0))
    small = small * rng.uniform(0.5, 1.0) + rng.uniform(0, 80)
    small += rng.normal(0, rng.uniform(0, 10), small.shape)
    return np.clip(small, 0, 255).astype(np.uint8)


def train(images: npt.NDArray[np.float32], targets: npt.NDArray[np.int64], *, hidden: int, epochs: int,
          seed: int) -> dict[str, npt.NDArray[np.float32]]:
    """A 784-hidden-17 perceptron by mini-batch Adam on the cross-entropy, with L2 weight decay."""
    rng = np.random.default_rng(seed)
    x = images.reshape(len(images), -1)
    mean, std = x.mean(axis=0), x.std(axis=0) + 0.1
    x = (x - mean) / std
    y = targets
    params = {"w1": rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden)), "b1": np.zeros(hidden),
              "w2": rng.normal(0, np.sqrt(2 / hidden), (hidden, len(CLASSES))), "b2": np.zeros(len(CLASSES))}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    step = 0
    for epoch in range(epochs):
        rate = 2e-3 * (0.5 ** (epoch / max(1, epochs / 3)))
        for batch in np.array_split(rng.permutation(len(x)), max(1, len(x) // 128)):
            step += 1
            grads = _gradients(params, x[batch], y[batch])
            for k, g in grads.items():
                m, v = moments[k]
                m[:] = 0.9 * m + 0.1 * (g + 1e-4 * params[k])
                v[:] = 0.999 * v + 0.001 * (g + 1e-4 * params[k]) ** 2
                params[k] -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return {"mean": mean.astype(np.float32), "std": std.astype(np.float32),
            **{k: v.astype(np.float32) for k, v in params.items()}}


def _gradients(params: dict[str, npt.NDArray[np.float64]], x: npt.NDArray[np.float64], y: npt.NDArray[np.int64]
               ) -> dict[str, npt.NDArray[np.float64]]:
    """Back-propagation of the mean cross-entropy through the two layers."""
    pre = x @ params["w1"] + params["b1"]
    hidden = np.maximum(pre, 0)
    logits = hidden @ params["w2"] + params["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    probabilities = np.exp(logits)
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    probabilities[np.arange(len(y)), y] -= 1
    d_logits = probabilities / len(y)
    d_hidden = (d_logits @ params["w2"].T) * (pre > 0)
    return {"w2": hidden.T @ d_logits, "b2": d_logits.sum(axis=0), "w1": x.T @ d_hidden, "b1": d_hidden.sum(axis=0)}


def samples(photos: list[Photo], folder: Path, rng: np.random.Generator, jitters: int
            ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """The crops and digits of a list of photos, stacked."""
    corners = outlines(folder)
    images: list[npt.NDArray[np.float32]] = []
    targets: list[int] = []
    for photo in photos:
        more, labels = photo_samples(photo, corners.get(photo[0].name), rng, jitters)
        images += more
        targets += labels
    return np.array(images, np.float32), np.array(targets)


def accuracy(weights: dict[str, npt.NDArray[np.float32]], images: npt.NDArray[np.float32],
             targets: npt.NDArray[np.int64]) -> float:
    from bitdoku.photo.classify import forward

    predicted = forward(weights, images.reshape(len(images), -1)).argmax(axis=1)
    return float((predicted == targets).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=Path, default=Path("../shared/data/photos"))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=25)
    parser.add_argument("--jitters", type=int, default=3, help="extra cuts of each photo with moved corners")
    parser.add_argument("--rendered", type=int, default=40000, help="digits and letters rendered from fonts")
    parser.add_argument("--pencil", type=float, default=0.0,
                        help="share of rendered cells filled with pencil marks, as 'no digit' (the glyph finder "
                             "already drops most pencil marks; 0.06 made faint photo digits read as empty)")
    parser.add_argument("--crisp", type=float, default=0.0,
                        help="share of rendered digits left unblurred, as in screenshots (0.3 read the screenshots "
                             "no better and lost a validation photo)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    training, validation = split_by_puzzle(load_photos(args.photos), args.seed)
    photo_x, photo_y = samples(training, args.photos, rng, args.jitters)
    font_x, font_y = (rendered_samples(rng, args.rendered, args.pencil, args.crisp) if args.rendered
                      else (np.zeros((0, 28, 28)), np.zeros(0)))
    check_x, check_y = samples(validation, args.photos, rng, 0)
    print(f"{len(training)} training photos ({len(photo_y)} crops), {len(font_y)} rendered digits, "
          f"{len(validation)} validation photos ({len(check_y)} crops); {time.perf_counter() - start:.0f} s",
          file=sys.stderr)
    x = np.concatenate([photo_x, font_x]).astype(np.float32)
    y = np.concatenate([photo_y, font_y]).astype(np.int64)
    weights = train(x, y, hidden=args.hidden, epochs=args.epochs, seed=args.seed)
    metadata = {"attribution": ATTRIBUTION, "classes": CLASSES, "seed": args.seed, "hidden": args.hidden,
                "epochs": args.epochs, "jitters": args.jitters, "rendered": args.rendered, "pencil": args.pencil,
                "crisp": args.crisp, "fonts": [Path(f).name for f in font_files()],
                "training": [p.name for p, _ in training], "validation": [p.name for p, _ in validation],
                "validation_crop_accuracy": accuracy(weights, check_x, check_y),
                "training_crop_accuracy": accuracy(weights, photo_x, photo_y)}
    np.savez_compressed(args.out, metadata=json.dumps(metadata), **weights)
    print(f"crop accuracy: training {metadata['training_crop_accuracy']:.4f}, validation "
          f"{metadata['validation_crop_accuracy']:.4f}; {args.out} {args.out.stat().st_size / 1e3:.0f} kB; "
          f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
