"""Real creative files made in the test: images by Pillow, and a minimal MP4.

No video encoder is installed here (no ffmpeg), so the MP4 is assembled box by box following ISO/IEC
14496-12: ftyp, then moov with mvhd (time scale and duration) and one video track whose tkhd carries the
picture size. That is all a reader needs for length and size; the track has no samples."""

from __future__ import annotations

import struct
import zlib
from io import BytesIO

from PIL import Image

_MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)


def image_bytes(width: int = 300, height: int = 250, fmt: str = "PNG") -> bytes:
    out = BytesIO()
    Image.new("RGB", (width, height), (200, 30, 60)).save(out, format=fmt)
    return out.getvalue()


def _box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def mp4_bytes(*, duration_ms: int = 15_000, width: int = 640, height: int = 360, video: bool = True) -> bytes:
    scale = 1000
    ftyp = _box(b"ftyp", b"isom" + struct.pack(">I", 512) + b"isomiso2mp41")
    mvhd = _box(b"mvhd", struct.pack(">I4I", 0, 0, 0, scale, duration_ms) + struct.pack(">IH", 0x10000, 0x100)
                + b"\0" * 10 + _MATRIX + b"\0" * 24 + struct.pack(">I", 2))
    tkhd = _box(b"tkhd", struct.pack(">I5I", 3, 0, 0, 1, 0, duration_ms) + b"\0" * 8 + struct.pack(">4H", 0, 0, 0, 0)
                + _MATRIX + struct.pack(">2I", width << 16, height << 16))
    mdhd = _box(b"mdhd", struct.pack(">I4I2H", 0, 0, 0, scale, duration_ms, 0x55C4, 0))
    handler = b"vide" if video else b"meta"
    hdlr = _box(b"hdlr", struct.pack(">II", 0, 0) + handler + b"\0" * 12 + b"VideoHandler\0")
    trak = _box(b"trak", tkhd + _box(b"mdia", mdhd + hdlr))
    return ftyp + _box(b"moov", mvhd + trak)


def png_bomb(width: int = 100_000, height: int = 100_000) -> bytes:
    """A PNG header claiming a huge picture: Pillow refuses it before decoding anything."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">2I5B", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
