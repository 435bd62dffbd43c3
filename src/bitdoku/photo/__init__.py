"""Read a Sudoku from a photograph: ``bitdoku.photo.read(image)`` gives a ``PhotoReading``.

Needs OpenCV (``pip install 'bitdoku[photo]'``); it is imported on the first read, never by ``import bitdoku``
nor by importing this package, so a missing extra is reported as a ``MissingExtraError`` when it matters.

The digit classifier shipped here was trained on photographs by Wicht, B., Hennebert, J., "Camera-based Sudoku
recognition with deep belief network", SoCPaR 2014 (dataset wichtounet/sudoku_dataset, CC-BY-4.0); see MODEL.md.
"""

from __future__ import annotations

from bitdoku.photo.errors import PhotoError
from bitdoku.photo.reader import parse_size, read
from bitdoku.photo.reading import PhotoReading

__all__ = ["PhotoError", "PhotoReading", "parse_size", "read"]
