"""Creative files made on the spot, for the demo data (and the tests): banners drawn by Pillow, and an MP4
that carries its length and picture size but no frames.

No video encoder is installed with the console (no ffmpeg), so the MP4 is assembled box by box following
ISO/IEC 14496-12: ftyp, then moov with mvhd (time scale and duration) and one video track whose tkhd carries
the picture size. That is all a reader needs for length and size; a player has nothing to show."""

from __future__ import annotations

import struct
from io import BytesIO

from PIL import Image, ImageColor, ImageDraw, ImageFont

_MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)


def banner(width: int, height: int, text: str = "", *, colours: tuple[str, str] = ("#4f46e5", "#0ea5e9"),
           fmt: str = "PNG") -> bytes:
    """A left-to-right gradient with `text` centred on it."""
    start, end = (ImageColor.getrgb(c) for c in colours)
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for x in range(width):
        share = x / max(1, width - 1)
        draw.line([(x, 0), (x, height)], fill=tuple(round(a + (b - a) * share) for a, b in zip(start, end, strict=True)))
    if text:
        size = max(10, min(height // 4, width * 3 // (2 * max(1, len(text)))))
        draw.text((width / 2, height / 2), text, fill="white", anchor="mm", font=ImageFont.load_default(size=size))
    out = BytesIO()
    image.save(out, format=fmt)
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
