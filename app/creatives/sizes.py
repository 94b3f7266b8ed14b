"""The sizes each creative format takes, declared once: a file no ad slot takes is refused when the creative is
made (issue 38 item 9: a 1000×10 banner went active, and a 300×250 picture was taken as a native icon). The spec
allows no free size, so a size outside these is refused with the sizes allowed, never just flagged.

- Banners (image creatives, and html ones, which state their size): the IAB New Standard Ad Unit Portfolio's fixed
  sizes with the legacy sizes exchanges still sell.
- Native: a square icon; a main image of the ratios native placements crop to (1.91:1, as 1200×627, and 1:1).
- Video: the aspect ratios players take (16:9, 9:16, 4:3, 1:1); any resolution, as players scale.

Ratios allow RATIO_TOLERANCE either way: encoders round (854×480 is 16:9, 1200×628 is 1.91:1).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from app.kernel.i18n.catalog import Message

BANNER_SIZES: tuple[tuple[int, int], ...] = (
    (300, 250), (728, 90), (160, 600), (300, 600), (320, 50), (320, 100), (970, 250), (970, 90), (468, 60),
    (234, 60), (120, 600), (250, 250), (200, 200), (336, 280), (300, 50), (300, 1050), (480, 320), (320, 480),
    (768, 1024), (1024, 768), (300, 100), (120, 60), (120, 90), (120, 240), (125, 125), (180, 150), (240, 400),
    (250, 360), (580, 400), (930, 180), (970, 66), (980, 120), (88, 31))
NATIVE_MAIN_RATIOS: dict[str, Fraction] = {"1.91:1": Fraction(191, 100), "1:1": Fraction(1)}
VIDEO_RATIOS: dict[str, Fraction] = {"16:9": Fraction(16, 9), "9:16": Fraction(9, 16), "4:3": Fraction(4, 3),
                                     "1:1": Fraction(1)}
RATIO_TOLERANCE = 0.01  # 1 % of the ratio

_BANNERS = frozenset(BANNER_SIZES)
# Templates (app/kernel/i18n: one catalog entry each, whatever the size or the lists hold).
NOT_A_BANNER_SIZE = "{size} is not a banner size. Use one of the IAB sizes: {sizes}."
NOT_A_SQUARE_ICON = "A native icon is square (as 128x128); this picture is {size}."
NOT_A_NATIVE_RATIO = "A native main image is {ratios} (as 1200x627 or 627x627); this one is {size}."
NOT_A_VIDEO_RATIO = "A video is {ratios} (as 1280x720); this one is {size}."
NO_SIZE = "The file's size could not be read."
_ALLOWED = {NOT_A_BANNER_SIZE: {"sizes": ", ".join(f"{w}x{h}" for w, h in BANNER_SIZES)},
            NOT_A_NATIVE_RATIO: {"ratios": " or ".join(NATIVE_MAIN_RATIOS)},
            NOT_A_VIDEO_RATIO: {"ratios": ", ".join(VIDEO_RATIOS)}}


def _problem(width: int | None, height: int | None, fits: Callable[[int, int], bool], message: str) -> str | None:
    if not width or not height:
        return Message(NO_SIZE)
    return None if fits(width, height) else Message(message, size=f"{width}x{height}", **_ALLOWED.get(message, {}))


def _ratio_in(ratios: dict[str, Fraction]) -> Callable[[int, int], bool]:
    return lambda width, height: any(abs(width / height - float(ratio)) <= float(ratio) * RATIO_TOLERANCE
                                     for ratio in ratios.values())


def banner_problem(width: int | None, height: int | None) -> str | None:
    """Why a banner of this size fits no slot, or None when it is an IAB size."""
    return _problem(width, height, lambda w, h: (w, h) in _BANNERS, NOT_A_BANNER_SIZE)


def native_icon_problem(width: int | None, height: int | None) -> str | None:
    return _problem(width, height, lambda w, h: w == h, NOT_A_SQUARE_ICON)


def native_main_problem(width: int | None, height: int | None) -> str | None:
    return _problem(width, height, _ratio_in(NATIVE_MAIN_RATIOS), NOT_A_NATIVE_RATIO)


def video_problem(width: int | None, height: int | None) -> str | None:
    return _problem(width, height, _ratio_in(VIDEO_RATIOS), NOT_A_VIDEO_RATIO)
