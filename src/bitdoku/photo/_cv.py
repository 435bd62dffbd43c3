"""The one door to OpenCV: imported on first use, so that ``import bitdoku`` never loads it."""

from __future__ import annotations

from types import ModuleType

from bitdoku.errors import MissingExtraError


def cv2() -> ModuleType:
    """OpenCV, or a clear "install bitdoku[photo]" when it is missing (it is an optional extra)."""
    try:
        import cv2 as module
    except ImportError as error:
        raise MissingExtraError("reading a photo", "photo") from error
    return module
