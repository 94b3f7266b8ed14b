"""A statement that foots: the figures a ledger row shows, from the exact ones.

Entries are micro-dollars and a statement shows cents, and rounding each row's amount and balance on their own
broke it: deposit $100 and six spends of $1.2346, and a row read "96.29, -1.24, 95.06" while the amounts shown
summed to 92.57 against a balance of 92.575933.

The choice: a row's balance is its exact balance rounded to the cent, and its amount is the difference of that
rounded balance and the previous row's. On screen and in the API's dollar texts every row reads previous + amount =
balance, and the amounts shown add up to the balance shown. Balances round half a cent up (toward +infinity, as the
pages' money formatter rounds a positive balance): that rounding moves by exactly a cent when the balance does, so
an entry of whole cents (a deposit, an adjustment, a charge of $2.25) always shows its own amount, even after a
12.5 % margin has left the balance at half a cent. A charge of fractions of a cent may show a cent more or less
than its own rounding; the exact figures travel beside the shown ones (`amount_micros`, `balance_micros`, and the
hours dialog's tooltips)."""

from __future__ import annotations

from decimal import Decimal

from app.kernel.money import CENT, MICROS_PER_DOLLAR

_MICRO = Decimal("0.000001")
_MICROS_PER_CENT = MICROS_PER_DOLLAR // 100


def shown(micros: int) -> Decimal:
    """Micro-dollars rounded to the cent, half a cent up: floor((micros + half a cent) / a cent), in whole
    integers, so shown(m + c) == shown(m) + c for any whole number of cents c."""
    return (Decimal((micros + _MICROS_PER_CENT // 2) // _MICROS_PER_CENT) * CENT).quantize(CENT)


def step(before_micros: int, after_micros: int) -> str:
    """The change from one shown balance to the next, in dollar text ("-1.24"): what a row shows as its amount."""
    return str(shown(after_micros) - shown(before_micros))


def footed(amount_micros: int, balance_micros: int) -> tuple[str, str]:
    """(amount, balance) as a statement row shows them, from its exact amount and the exact balance after it."""
    return step(balance_micros - amount_micros, balance_micros), str(shown(balance_micros))


def less(total: str, part: str) -> str:
    """What is left of a shown total after a shown part ("-1.39" less "-0.15": "-1.24"): a delivery row's spend
    beside its margin, so the two add up to its amount on screen."""
    return str(Decimal(total) - Decimal(part))


def exact(micros: int) -> str:
    """Micro-dollars as dollars to the micro-dollar ("-1.234600"): the figure behind a rounded one."""
    return str((Decimal(micros) / MICROS_PER_DOLLAR).quantize(_MICRO))
