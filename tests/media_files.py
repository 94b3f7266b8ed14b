"""Real creative files made in the test: images by Pillow, a minimal MP4 (app/demo/media.py says
how it is built) and a PNG that claims too many pixels."""

from __future__ import annotations

import struct
import zlib
from io import BytesIO

from PIL import Image

from app.demo.media import mp4_bytes


def image_bytes(width: int = 300, height: int = 250, fmt: str = "PNG") -> bytes:
    out = BytesIO()
    Image.new("RGB", (width, height), (200, 30, 60)).save(out, format=fmt)
    return out.getvalue()


def png_bomb(width: int = 100_000, height: int = 100_000) -> bytes:
    """A PNG header claiming a huge picture: Pillow refuses it before decoding anything."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">2I5B", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


__all__ = ["image_bytes", "mp4_bytes", "png_bomb"]
