import struct
import zlib

import cv2
import numpy as np
import pytest

from bitdoku.photo.errors import PhotoError
from bitdoku.photo.header import image_size


@pytest.mark.parametrize("extension, kind", [(".jpg", "JPEG"), (".png", "PNG"), (".bmp", "BMP"), (".webp", "WebP")])
def test_the_size_is_read_from_the_header(extension, kind):
    ok, encoded = cv2.imencode(extension, np.zeros((37, 53, 3), np.uint8))
    assert ok
    assert image_size(encoded.tobytes()) == (kind, 53, 37)


def test_a_gif_header_gives_its_size():
    assert image_size(b"GIF89a" + struct.pack("<HH", 300, 200) + b"\0" * 20) == ("GIF", 300, 200)


def huge_png(width: int, height: int) -> bytes:
    """A PNG that declares a huge size in a few dozen bytes (a decompression bomb's header)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + header
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(header)) + chunk + struct.pack(">I", zlib.crc32(chunk))


def test_a_declared_size_is_read_without_decoding():
    assert image_size(huge_png(100_000, 100_000)) == ("PNG", 100_000, 100_000)


@pytest.mark.parametrize("data, kind", [
    (b"", "empty"),
    (b"hello, world", "not-an-image"),
    (b"\x89PNG\r\n\x1a\n\0\0", "truncated"),
    (b"\xff\xd8\xff\xe0\0\x10JFIF", "truncated"),
])
def test_bad_headers_are_errors_of_their_kind(data, kind):
    with pytest.raises(PhotoError) as raised:
        image_size(data)
    assert raised.value.kind == kind


def test_a_jpeg_cut_short_is_truncated():
    _, encoded = cv2.imencode(".jpg", np.full((64, 64), 128, np.uint8))
    with pytest.raises(PhotoError, match="truncated"):
        image_size(encoded.tobytes()[: len(encoded) // 2])
