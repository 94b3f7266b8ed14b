"""Number formats of the spec (section 9): money, K/M/B shortening and file sizes."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from app.models.ledger import MICROS_PER_DOLLAR


def money(amount: Decimal | int | float, *, micros: bool = False) -> str:
    """Dollar sign, two decimals, thousands separators, minus sign first: -$1,234.50."""
    value = Decimal(amount) / MICROS_PER_DOLLAR if micros else Decimal(str(amount))
    value = value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"


def short_number(value: float | int) -> str:
    """1234 -> 1.23K, 5_600_000 -> 5.6M, 7e9 -> 7B; below a thousand unchanged."""
    number = float(value)
    for size, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "K")):
        if abs(number) >= size:
            text = f"{number / size:.2f}".rstrip("0").rstrip(".")
            return f"{text}{suffix}"
    return f"{int(number)}" if number == int(number) else f"{number:.2f}"


_SIZE_UNITS = ("Bytes", "KB", "MB", "GB", "TB", "PB")


def file_size(size: int) -> str:
    """1024 per step, two decimals: 1536 -> '1.5 KB', 0 -> '0 Bytes'."""
    if size <= 0:
        return "0 Bytes"
    value, unit = float(size), 0
    while value >= 1024 and unit < len(_SIZE_UNITS) - 1:
        value /= 1024
        unit += 1
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{text} {_SIZE_UNITS[unit]}"
