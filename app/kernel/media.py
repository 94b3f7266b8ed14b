"""Creative files: what an upload really is, read from its bytes (never its name or declared type), and
where it is kept.

Images are read by Pillow (PNG, JPEG, GIF, WEBP) for their size; videos by mutagen (MP4) for their length.
An image is decoded (to find a truncated file) only within a budget read from its header first: at most
PIXEL_BUDGET pixels and DECODE_BUDGET_BYTES of decoded picture, and at most DECODES_AT_ONCE decodes in the process.
Files are stored once per content, as uploads/creatives/<sha256>.<ext> in the file store (app/kernel/storage.py),
and served publicly by /files/creatives/{name}: creative files are ad assets that exchanges and browsers fetch without signing in.
"""

from __future__ import annotations

import hashlib
import math
import re
import struct
import threading
from dataclasses import dataclass
from io import BytesIO

import mutagen
import mutagen.mp4
from PIL import Image, ImageMode, UnidentifiedImageError

from app.kernel.config import get_settings
from app.kernel.errors import Invalid
from app.kernel.storage import UPLOADS, get_storage

CREATIVES_DIR = "creatives"
# Pillow format -> (content type, extension): the image formats ad exchanges take.
IMAGE_FORMATS: dict[str, tuple[str, str]] = {
    "PNG": ("image/png", "png"),
    "JPEG": ("image/jpeg", "jpg"),
    "GIF": ("image/gif", "gif"),
    "WEBP": ("image/webp", "webp"),
}
VIDEO_CONTENT_TYPE, VIDEO_EXTENSION = "video/mp4", "mp4"
CONTENT_TYPES: dict[str, str] = {ext: kind for kind, ext in IMAGE_FORMATS.values()} | {VIDEO_EXTENSION: VIDEO_CONTENT_TYPE}
_STORED_NAME_RE = re.compile(r"^[0-9a-f]{64}\.(?:png|jpg|gif|webp|mp4)$")

EMPTY_FILE = "The file is empty."
NOT_AN_IMAGE = "Upload a PNG, JPEG, GIF or WEBP image."
NOT_A_VIDEO = "Upload an MP4 video."
# What an upload may cost to decode. Pixels bound the decode's time, bytes its memory (a pixel takes 1 to 4 bytes
# by mode). 40 MP is nearly five times the largest picture an ad is shown at (a full-screen interstitial at twice
# its CSS size: 2160 x 3840, 8.3 MP) and half Pillow's own bomb limit (89 MP, which still let an 81 MP PNG of a few
# kilobytes be decoded whole: 324 MB); 128 MB of decoded picture holds 32 MP in RGB or RGBA, four times that ad.
PIXEL_BUDGET = 40_000_000
DECODE_BUDGET_BYTES = 128 * 1_048_576
# Decodes run in the request's worker thread; a burst of uploads would otherwise decode side by side (FastAPI's
# pool has 40 threads). Two at once bounds the process's decode memory at twice the budget on the two-core
# servers the console is sized for; more would not decode faster there.
DECODES_AT_ONCE = 2
IMAGE_OVER_PIXEL_BUDGET = "Image is {width} x {height} pixels ({mp} MP); the limit is {limit} MP."
IMAGE_OVER_PILLOW_LIMIT = "Image is over {mp} MP; the limit is {limit} MP."
IMAGE_OVER_DECODE_BUDGET = ("Image is {width} x {height} pixels in {mode}, {mb} MB once decoded; the limit is "
                            "{limit} MB.")
VIDEO_WITHOUT_PICTURE = "The file has no video track."
VIDEO_WITHOUT_DURATION = "The video's length could not be read; upload another MP4 file."


@dataclass(frozen=True)
class Media:
    """What the bytes of an upload turned out to be."""

    kind: str  # "image" or "video"
    content_type: str
    extension: str
    width: int | None
    height: int | None
    duration_ms: int | None = None


def _too_big(limit: int) -> str:
    return f"The file is larger than {limit / 1_048_576:g} MB."


def _megapixels(pixels: int) -> str:
    # Rounded up to a tenth, so an image just past the limit never reads as the limit itself.
    return f"{math.ceil(pixels / 100_000) / 10:g}"


def decoded_bytes(width: int, height: int, mode: str) -> int:
    """The memory Pillow takes for a picture of this size and mode: a byte a pixel for one-band 8-bit modes (1, L,
    P), the band's size for I;16, I and F, and four bytes for every multi-band mode (Pillow pads RGB, LA and YCbCr
    to 32 bits a pixel)."""
    bands = ImageMode.getmode(mode)
    return width * height * (4 if len(bands.bands) > 1 else int(bands.typestr[-1]))


def decode_budget_problem(width: int, height: int, mode: str) -> str | None:
    """Why a picture of this size and mode is not decoded (past PIXEL_BUDGET or DECODE_BUDGET_BYTES), or None."""
    if width * height > PIXEL_BUDGET:
        return IMAGE_OVER_PIXEL_BUDGET.format(width=width, height=height, mp=_megapixels(width * height),
                                              limit=_megapixels(PIXEL_BUDGET))
    needed = decoded_bytes(width, height, mode)
    if needed > DECODE_BUDGET_BYTES:
        return IMAGE_OVER_DECODE_BUDGET.format(width=width, height=height, mode=mode,
                                               mb=math.ceil(needed / 1_048_576), limit=DECODE_BUDGET_BYTES // 1_048_576)
    return None


_DECODES = threading.BoundedSemaphore(DECODES_AT_ONCE)


def read_image(content: bytes, field: str, formats: dict[str, tuple[str, str]] | None = None,
               not_an_image: str = NOT_AN_IMAGE) -> Media:
    """What image `content` is, when it is whole (decoded to the last pixel: a truncated file is refused here,
    not broken in a browser later), of one of `formats` (Pillow format -> (content type, extension); the ad
    formats by default) and within the decode budget (decode_budget_problem: a small file can declare 30000x30000
    pixels and take gigabytes to decode, a decompression bomb), which is read from the header before any pixel is
    decoded. Else Invalid naming `field`."""
    formats = IMAGE_FORMATS if formats is None else formats
    try:
        # Only the accepted formats' readers look at the bytes (Pillow would otherwise try each of its ~40).
        with Image.open(BytesIO(content), formats=list(formats)) as probe:
            format_name = probe.format or ""
            width, height = probe.size
            mode = probe.mode
            probe.verify()  # structure and checksums, without decoding the pixels
        problem = decode_budget_problem(width, height, mode)
        if problem is not None:
            raise Invalid({field: problem})
        with _DECODES, Image.open(BytesIO(content), formats=[format_name]) as picture:
            # A JPEG is decoded at an eighth of its size: every byte of it is still read and decoded (a truncated
            # file fails the same), in 1/64 of the memory.
            picture.draft(picture.mode, (max(1, width // 8), max(1, height // 8)))
            picture.load()  # a truncated file fails here, not in a browser later
    except Image.DecompressionBombError:  # past twice Pillow's own limit: refused before its size is known here
        raise Invalid({field: IMAGE_OVER_PILLOW_LIMIT.format(mp=_megapixels(2 * (Image.MAX_IMAGE_PIXELS or 0)),
                                                             limit=_megapixels(PIXEL_BUDGET))}) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, struct.error):
        raise Invalid({field: not_an_image}) from None
    if format_name not in formats:
        raise Invalid({field: not_an_image})
    content_type, extension = formats[format_name]
    return Media("image", content_type, extension, width, height)


def _video_track_size(stream: BytesIO) -> tuple[int, int] | None:
    """(width, height) of the first video track, from its tkhd box. mutagen reads MP4 boxes but reports only
    audio properties, so the two fixed-point numbers at the end of tkhd are read here."""
    stream.seek(0)
    atoms = mutagen.mp4.Atoms(stream)  # type: ignore[attr-defined]  # public, though mutagen.mp4 omits it from __all__
    for trak in atoms[b"moov",].findall(b"trak"):
        found, handler = trak[b"mdia", b"hdlr"].read(stream)
        if not found or handler[8:12] != b"vide":
            continue
        found, header = trak[b"tkhd",].read(stream)
        if not found or len(header) < 8:
            return None
        width, height = int.from_bytes(header[-8:-4], "big") >> 16, int.from_bytes(header[-4:], "big") >> 16
        return width, height
    return None


def _video(content: bytes, field: str) -> Media:
    # An ISO media file starts with its ftyp box; mutagen also opens bare QuickTime atoms and M4A audio.
    if content[4:8] != b"ftyp":
        raise Invalid({field: NOT_A_VIDEO})
    stream = BytesIO(content)
    try:
        info = mutagen.mp4.MP4(stream).info
        size = _video_track_size(stream)
    except (mutagen.MutagenError, KeyError, ValueError, EOFError):
        raise Invalid({field: NOT_A_VIDEO}) from None
    if size is None:
        raise Invalid({field: VIDEO_WITHOUT_PICTURE})
    duration_ms = round(info.length * 1000) if info is not None else 0
    if duration_ms <= 0:
        raise Invalid({field: VIDEO_WITHOUT_DURATION})
    return Media("video", VIDEO_CONTENT_TYPE, VIDEO_EXTENSION, size[0] or None, size[1] or None, duration_ms)


def inspect(content: bytes, *, kind: str, field: str = "file") -> Media:
    """What `content` is, if it is a `kind` ("image" or "video") within that kind's size limit; else Invalid
    naming `field`. The file's name and declared type play no part."""
    settings = get_settings()
    limit = settings.max_creative_video_bytes if kind == "video" else settings.max_creative_image_bytes
    if not content:
        raise Invalid({field: EMPTY_FILE})
    if len(content) > limit:
        raise Invalid({field: _too_big(limit)})
    return _video(content, field) if kind == "video" else read_image(content, field)


def file_key(stored_name: str) -> str:
    """Where a creative file is kept (app/kernel/storage.py): uploads/creatives/<name>, in the data directory
    or the bucket."""
    return f"{UPLOADS}/{CREATIVES_DIR}/{stored_name}"


def store(content: bytes, media: Media) -> tuple[str, str]:
    """Write the file (once per content: its name is its hash) and return (sha256, stored name)."""
    digest = hashlib.sha256(content).hexdigest()
    stored = f"{digest}.{media.extension}"
    storage = get_storage()
    if not storage.exists(file_key(stored)):
        storage.put(file_key(stored), content)  # atomic: a reader never sees half a file
    return digest, stored


def url_of(stored_name: str | None) -> str | None:
    return f"/files/{CREATIVES_DIR}/{stored_name}" if stored_name else None


def stored_file(name: str) -> tuple[str, str] | None:
    """(storage key, content type) of a creative file's name, or None for a name the server never makes (the
    route answers 404 too when no such file is stored)."""
    if not _STORED_NAME_RE.match(name):
        return None
    return file_key(name), CONTENT_TYPES[name.rsplit(".", 1)[1]]
