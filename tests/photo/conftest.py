"""Shared pieces of the photo tests: the committed photos (with their attribution in data/ATTRIBUTION)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

DATA = Path(__file__).parent / "data"
PHOTOS = ("image1.jpg", "image118.jpg", "image165.jpg")


def digits_of(photo: str) -> np.ndarray:
    """The 81 digits a photo shows, from its .dat (two header lines, then 9 lines of 9 digits)."""
    lines = (DATA / photo).with_suffix(".dat").read_text().splitlines()[2:]
    return np.array([int(n) for n in " ".join(lines).split()]).reshape(9, 9)


def outline_of(photo: str) -> np.ndarray:
    """The photo's true grid corners (top-left clockwise), from data/outlines.csv."""
    with (DATA / "outlines.csv").open() as handle:
        row = next(r for r in csv.DictReader(handle) if r["file"] == photo)
    return np.array([[float(row[f"p{i}_x"]), float(row[f"p{i}_y"])] for i in range(1, 5)])


@pytest.fixture(params=PHOTOS)
def photo(request: pytest.FixtureRequest) -> str:
    return str(request.param)
