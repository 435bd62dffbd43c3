"""An image's width and height read from its first bytes, before anything is decoded.

Decoding first and checking after lets a 50,000 x 50,000 "decompression bomb" of a few kilobytes take gigabytes
of memory; reading the header costs microseconds, so the pixel count is checked before a decoder sees the data.
Only the formats the reader accepts are known here: JPEG, PNG, BMP, WebP, GIF (its first frame).
"""

from __future__ import annotations

import struct

from bitdoku.photo.errors import PhotoError

#: SOF markers of JPEG (baseline, progressive, lossless...): FFC0-FFCF except DHT (C4), JPG (C8) and DAC (CC).
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def image_format(data: bytes) -> str | None:
    """The format's name from the file's first 12 bytes (its magic number), or None when it is none of ours."""
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:2] == b"BM":
        return "BMP"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    return None


def image_size(data: bytes) -> tuple[str, int, int]:
    """The format's name, the width and the height, or a PhotoError ("not an image", "truncated")."""
    if not data:
        raise PhotoError("the file is empty", kind="empty")
    kind = image_format(data)
    if kind == "JPEG":
        return (kind, *_jpeg_size(data))
    if kind == "PNG":
        return (kind, *_unpack(">II", data, 16))
    if kind == "BMP":
        width, height = _unpack("<ii", data, 18)
        return kind, abs(width), abs(height)
    if kind == "WebP":
        return (kind, *_webp_size(data))
    if kind == "GIF":
        return (kind, *_unpack("<HH", data, 6))
    raise PhotoError("not an image: expected a JPEG, PNG, BMP, WebP or GIF file", kind="not-an-image")


def _unpack(layout: str, data: bytes, offset: int) -> tuple[int, int]:
    """Two integers at ``offset``, or "truncated" when the header stops short of them."""
    if len(data) < offset + struct.calcsize(layout):
        raise PhotoError("the image is truncated: its header is incomplete", kind="truncated")
    first, second = struct.unpack_from(layout, data, offset)
    return int(first), int(second)


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """Walk the JPEG segments to the frame header (SOF); check that the scan is followed by an end marker."""
    offset = 2
    while offset + 4 <= len(data):
        if data[offset] != 0xFF:
            raise PhotoError("not an image: the JPEG's segments are broken", kind="not-an-image")
        marker = data[offset + 1]
        if marker == 0xFF:  # fill byte
            offset += 1
            continue
        (length,) = struct.unpack_from(">H", data, offset + 2)
        if marker in _SOF:
            height, width = _unpack(">HH", data, offset + 5)
            if data.rfind(b"\xff\xd9", offset) < 0:
                raise PhotoError("the JPEG is truncated: it has no end marker", kind="truncated")
            return width, height
        offset += 2 + length
    raise PhotoError("the JPEG is truncated: no frame header found", kind="truncated")


def _webp_size(data: bytes) -> tuple[int, int]:
    """WebP's three variants keep the size in three places (lossy VP8, lossless VP8L, extended VP8X)."""
    chunk = data[12:16]
    if chunk == b"VP8 ":
        width, height = _unpack("<HH", data, 26)
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    raise PhotoError("the WebP image is truncated or of an unknown kind", kind="truncated")
