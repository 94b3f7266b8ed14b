"""Money as people type it: the one parser for every amount that enters the console (forms, API, bulk edits, CSV),
and the declared table of money fields with their bounds. A kernel module: it imports no service or domain.

What is accepted: digits 0-9 with an optional point and at most two decimals, thousands separated by commas in
groups of three, a leading "$" (a trailing "%" for a percentage), spaces around: "12", "12.5", "1,234.50",
" $1,234.50 ", "12.5 %". A comma is only ever a thousands separator: "1,5" is refused, not guessed (it reads as
1.50 in four of our five languages and as fifteen in the fifth).

What is refused, with a message a person understands, under the field's own name (Invalid.fields): an empty
required field, NaN / Infinity and anything else that is not digits, exponents ("1e3", "1E+30": nobody types
money that way, and Decimal would quietly read them as 1,000 and 10^30), digits of other scripts ("١٢٣": Python's
Decimal and int read them as 123), more than two decimals, a negative amount where the field takes none, and an
amount above the field's bound (the message says the bound, as money).

Amounts are Decimal with two places; rows keep integer micro-dollars (MICROS_PER_DOLLAR), so to_micros is exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from app.kernel.errors import Invalid
from app.kernel.i18n.catalog import Message

MICROS_PER_DOLLAR = 1_000_000
CENT = Decimal("0.01")


@dataclass(frozen=True)
class MoneyField:
    """One kind of amount: its largest value (either way when `signed`), the example its messages give, and
    whether it is dollars ("$") or a percentage ("%")."""

    maximum: Decimal
    example: str
    signed: bool = False
    unit: str = "$"


# The bounds. Each fits its column with room to spare (BIGINT micro-dollars hold up to $9.2 trillion; the margin is
# an INTEGER of basis points) and sits well above anything a real DSP account does, so a refusal means a typo.
FIELDS: dict[str, MoneyField] = {
    # Add funds (/admin/addfund, the API, card top-ups): one ledger entry, a deposit or refund, or an adjustment
    # that may take money off (so either way). A million a time: larger sums are split or wired by contract.
    "amount": MoneyField(Decimal("1000000.00"), "250.00", signed=True),
    # Money an agency moves from one of its advertisers to another (app/funds/transfers.py): the same million a
    # time, one way only (the other way is a transfer the other way round).
    "transfer": MoneyField(Decimal("1000000.00"), "250.00"),
    # A campaign's budgets: a hundred million dollars is beyond any single campaign's flight.
    "total_budget": MoneyField(Decimal("100000000.00"), "5000.00"),
    "daily_budget": MoneyField(Decimal("100000000.00"), "250.00"),
    # Bids are per thousand impressions (CPM) or per click (CPC): even premium CPMs stay in the hundreds, so
    # $5,000 is a typo guard, not a business limit.
    "bid": MoneyField(Decimal("5000.00"), "2.50"),
    "bid_min": MoneyField(Decimal("5000.00"), "1.00"),
    "bid_max": MoneyField(Decimal("5000.00"), "5.00"),
    # An agency's margin on its advertiser's media spend, in percent: above 90 % it would keep most of the spend.
    "margin": MoneyField(Decimal("90.00"), "12.5", unit="%"),
}

REQUIRED = "Enter an amount, e.g. {example}."
NOT_DIGITS = "Enter the amount in digits 0-9, e.g. {example}."
COMMA = "Use a point for decimals and commas only between thousands, e.g. 1,234.50."
EXPONENT = "Write the amount out in full, e.g. 1000 rather than 1e3."
TWO_DECIMALS = "Enter an amount with at most two decimals."
NEGATIVE = "Enter an amount of zero or more."
TOO_LARGE = "At most {limit}."
TOO_LARGE_EITHER_WAY = "From -{limit} to {limit}."

_LOOKS_EXPONENT = re.compile(r"[0-9.,]+e[+-]?[0-9]+", re.ASCII | re.IGNORECASE)
# Plain digits, or digits grouped by thousands with commas; an optional point and fraction. ASCII only.
_AMOUNT = re.compile(r"(?P<whole>[0-9]+|[0-9]{1,3}(?:,[0-9]{3})+)?(?:\.(?P<fraction>[0-9]*))?", re.ASCII)


def shown(amount: Decimal, unit: str = "$") -> str:
    """An amount as these messages show it: "$1,000,000.00", "90.00 %"."""
    text = f"{amount:,.2f}"
    return f"{text} %" if unit == "%" else f"${text}"


def check(value: Any, *, field: str, required: bool = True) -> tuple[Decimal | None, str | None]:
    """(amount, None), (None, None) for an empty optional field, or (None, what is wrong) for `field` (a key of
    FIELDS). For callers that gather every field's problem before refusing; parse_money raises instead."""
    spec = FIELDS[field]
    if isinstance(value, bool | float):
        # A float has already lost cents (0.1 + 0.2); callers pass text, Decimal or int.
        return None, Message(NOT_DIGITS, example=spec.example)
    text = ("" if value is None else str(value)).strip()
    if spec.unit == "%":
        text = text.removesuffix("%").rstrip()
    negative = text.startswith("-")
    text = text.removeprefix("-").strip()
    if spec.unit == "$":
        text = text.removeprefix("$").strip()
        if not negative and text.startswith("-"):  # "$-5"
            negative, text = True, text[1:].strip()
    if not text:
        if negative:
            return None, Message(NOT_DIGITS, example=spec.example)
        return None, Message(REQUIRED, example=spec.example) if required else None
    if _LOOKS_EXPONENT.fullmatch(text):
        return None, EXPONENT
    match = _AMOUNT.fullmatch(text)
    if match is None or not (match["whole"] or match["fraction"]):
        return None, COMMA if "," in text else Message(NOT_DIGITS, example=spec.example)
    amount = Decimal((match["whole"] or "0").replace(",", "") + "." + (match["fraction"] or "0"))
    if negative and amount and not spec.signed:
        return None, NEGATIVE
    if amount > spec.maximum:
        limit = shown(spec.maximum, spec.unit)
        return None, Message(TOO_LARGE_EITHER_WAY if spec.signed else TOO_LARGE, limit=limit)
    if len((match["fraction"] or "").rstrip("0")) > 2:
        return None, TWO_DECIMALS
    amount = amount.quantize(CENT)
    return (-amount if negative and amount else amount), None


def parse_money(value: Any, *, field: str, required: bool = True) -> Decimal | None:
    """The amount `value` holds for `field`, two places; None for an empty optional field. Raises Invalid naming
    the field."""
    amount, problem = check(value, field=field, required=required)
    if problem:
        raise Invalid({field: problem})
    return amount


def to_micros(amount: Decimal) -> int:
    """Dollars (two places at most) as integer micro-dollars, exactly."""
    return int(amount * MICROS_PER_DOLLAR)


def micros_or_none(value: Any, *, field: str, required: bool = True) -> tuple[int | None, str | None]:
    """check(), in micro-dollars: what a row stores."""
    amount, problem = check(value, field=field, required=required)
    return (to_micros(amount) if amount is not None else None), problem


def dollars(micros: int) -> str:
    """Micro-dollars as the API and pages show money: dollars with two decimals as text ("5000.00", "-12.35"),
    rounded half to even like Decimal.quantize; never a float (0.1 + 0.2 is not 0.3, and a client cannot tell
    12.3 from 12.30)."""
    return str((Decimal(micros) / MICROS_PER_DOLLAR).quantize(CENT))
