"""Number formats of the spec (section 9): money, K/M/B shortening and file sizes; and calendar days.

Money follows the user's language the way the browser's Intl.NumberFormat does for the JS grid
(js_modules/src/lib/format.js), so a figure reads the same whether Python or the grid drew it;
tests/test_formatters.py runs both over the same inputs. The separators are a small table rather than a
locale library because these five are all we need and CLDR's output (which Intl uses) is what we match.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from app.kernel.money import MICROS_PER_DOLLAR

# language code -> (group separator, decimal separator, minimum digits before grouping starts); CLDR's
# minimumGroupingDigits of 2 leaves Spanish and Italian 4-digit amounts ungrouped (1234,50).
_SEPARATORS: dict[str, tuple[str, str, int]] = {
    "en": (",", ".", 1),
    "sp": (".", ",", 2),
    "gr": (".", ",", 1),
    "it": (".", ",", 2),
    "rs": ("\u00a0", ",", 1),
}
_CENT = Decimal("0.01")


def money(amount: Decimal | int | float | str, *, micros: bool = False, language: str = "en") -> str:
    """Dollar sign, two decimals, minus sign first: -$1,234.50 (en), -$1.234,50 (gr)."""
    value = Decimal(amount) / MICROS_PER_DOLLAR if micros else Decimal(str(amount))
    value = value.quantize(_CENT, rounding=ROUND_HALF_UP)
    group, decimal, min_grouping = _SEPARATORS.get(language, _SEPARATORS["en"])
    whole, cents = f"{abs(value):.2f}".split(".")
    if len(whole) >= 4 + (min_grouping - 1):
        whole = f"{int(whole):,}".replace(",", group)
    sign = "-" if value < 0 else ""
    return f"{sign}${whole}{decimal}{cents}"


def grouped(value: int | float, *, language: str = "en", decimals: int = 0) -> str:
    """A count with the language's thousands separator: 1,234,567 (en), 1.234.567 (gr)."""
    group, decimal, min_grouping = _SEPARATORS.get(language, _SEPARATORS["en"])
    whole, _, fraction = f"{abs(value):.{decimals}f}".partition(".")
    if len(whole) >= 4 + (min_grouping - 1):
        whole = f"{int(whole):,}".replace(",", group)
    sign = "-" if value < 0 else ""
    return f"{sign}{whole}{decimal + fraction if fraction else ''}"


def _two_decimals(value: float) -> str:
    """At most two decimals, thousands grouped as Intl does in English (1,023.5)."""
    return f"{value:,.2f}".rstrip("0").rstrip(".")


_STEPS = ((1.0, ""), (1e3, "K"), (1e6, "M"), (1e9, "B"))


def short_number(value: float | int) -> str:
    """1234 -> 1.23K, 5_600_000 -> 5.6M, 7e9 -> 7B; below a thousand unchanged. A figure that rounds up
    to the next step takes it: 999,999 -> 1M, not 1000K."""
    number = float(value)
    sign = "-" if number < 0 else ""
    magnitude = abs(number)
    step = max(i for i, (size, _suffix) in enumerate(_STEPS) if magnitude >= size or i == 0)
    while step + 1 < len(_STEPS) and round(magnitude / _STEPS[step][0], 2) >= 1000:
        step += 1
    size, suffix = _STEPS[step]
    if step == 0:
        return f"{sign}{int(magnitude)}" if magnitude == int(magnitude) else f"{sign}{magnitude:.2f}"
    return f"{sign}{_two_decimals(magnitude / size)}{suffix}"


_SIZE_UNITS = ("Bytes", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB")


def file_size(size: int | float) -> str:
    """1024 per step, at most two decimals: 1536 -> '1.5 KB', 0 -> '0 Bytes', -1536 -> '-1.5 KB'.
    A size that rounds up to the next step takes it: 1,048,575 -> '1 MB', not '1024 KB'."""
    if size == 0:
        return "0 Bytes"
    sign = "-" if size < 0 else ""
    value, unit = float(abs(size)), 0
    while unit < len(_SIZE_UNITS) - 1 and round(value, 2) >= 1024:
        value /= 1024
        unit += 1
    return f"{sign}{_two_decimals(value)} {_SIZE_UNITS[unit]}"


# A calendar day as the JS grid draws a 'date' column of calendar days (js_modules/src/lib/format.js: Intl's
# dateStyle "medium" in UTC), so a dialog's note and the grid cells beside it write a day alike; CLDR's patterns
# and short month names, one table as for _SEPARATORS (tests/test_formatters.py compares them with Intl).
_DAY_PATTERNS: dict[str, str] = {
    "en": "{month} {day}, {year}",  # Nov 26, 2026
    "sp": "{day} {month} {year}",  # 26 nov 2026
    "gr": "{day:02d}.{month_number:02d}.{year}",  # 26.11.2026
    "it": "{day} {month} {year}",  # 26 nov 2026
    "rs": "{day} {month} {year} г.",  # 26 нояб. 2026 г.
}
_MONTHS: dict[str, tuple[str, ...]] = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "sp": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"),
    "it": ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"),
    "rs": ("янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.", "окт.", "нояб.", "дек."),
}


def day(value: date | str, *, language: str = "en") -> str:
    """A calendar day as the grid writes one: Nov 1, 2026 (en), 1 nov 2026 (sp), 01.11.2026 (gr)."""
    when = date.fromisoformat(value) if isinstance(value, str) else value
    code = language if language in _DAY_PATTERNS else "en"
    month = _MONTHS[code][when.month - 1] if code in _MONTHS else ""  # German writes the month's number
    return _DAY_PATTERNS[code].format(day=when.day, month=month, month_number=when.month, year=when.year)


def day_range(first: date | str, last: date | str, *, language: str = "en") -> str:
    """A period's first and last day: Nov 1, 2026 – Nov 30, 2026 (reports and dashboards show their days alike)."""
    return f"{day(first, language=language)} – {day(last, language=language)}"
