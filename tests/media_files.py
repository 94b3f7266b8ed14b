"""Real creative files made in the test: images by Pillow, a minimal MP4 (app/demo/media.py says
how it is built), a PNG that claims too many pixels and large whole PNGs of one colour."""

from __future__ import annotations

import functools
import struct
import zlib
from io import BytesIO

from PIL import Image

from app.demo.media import mp4_bytes


def image_bytes(width: int = 300, height: int = 250, fmt: str = "PNG") -> bytes:
    out = BytesIO()
    Image.new("RGB", (width, height), (200, 30, 60)).save(out, format=fmt)
    return out.getvalue()


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(width: int, height: int, color_type: int, idat: bytes) -> bytes:
    header = struct.pack(">2I5B", width, height, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b"")


def png_bomb(width: int = 100_000, height: int = 100_000) -> bytes:
    """A PNG header claiming a huge picture: Pillow refuses it before decoding anything."""
    return _png(width, height, 2, zlib.compress(b"\0" * 64))


PNG_BANDS = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}  # mode -> (PNG colour type, bytes a pixel)


@functools.cache
def solid_png(width: int, height: int, mode: str = "L") -> bytes:
    """A whole PNG of one colour (black) of any size, a few kilobytes a megapixel: its rows are compressed one by
    one, so the picture itself is never held (Pillow's Image.new would take up to 4 bytes a pixel)."""
    color_type, bands = PNG_BANDS[mode]
    row = b"\0" * (1 + width * bands)  # each row: filter type 0, then its pixels
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    return _png(width, height, color_type, idat)


__all__ = ["image_bytes", "mp4_bytes", "png_bomb", "solid_png"]
