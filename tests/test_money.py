"""The one money parser (app/kernel/money.py): what a person types is read exactly, and everything else is refused under
the field's own name with a message that says what to type, never read as something else."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.kernel import money
from app.kernel.errors import Invalid
from app.kernel.i18n.catalog import translator


@pytest.mark.parametrize(("text", "field", "expected"), [
    ("12", "total_budget", Decimal("12.00")),
    ("12.5", "bid", Decimal("12.50")),
    ("1,234.50", "total_budget", Decimal("1234.50")),
    ("$1,234.50", "daily_budget", Decimal("1234.50")),
    ("  $ 1,234.5  ", "total_budget", Decimal("1234.50")),
    ("1.500", "bid", Decimal("1.50")),  # trailing zeros are not decimals
    (".75", "bid_min", Decimal("0.75")),
    ("100,000,000.00", "total_budget", Decimal("100000000.00")),  # the bound itself
    ("5000", "bid_max", Decimal("5000.00")),
    ("-250.75", "amount", Decimal("-250.75")),  # add funds takes adjustments either way
    ("$-3", "amount", Decimal("-3.00")),
    ("12.5", "margin", Decimal("12.50")),
    ("12.5 %", "margin", Decimal("12.50")),
    (Decimal("3"), "amount", Decimal("3.00")),
    (7, "bid", Decimal("7.00")),
])
def test_what_a_person_types_is_read_exactly(text: object, field: str, expected: Decimal) -> None:
    assert money.parse_money(text, field=field) == expected


DIGITS_BUDGET = "Enter the amount in digits 0-9, e.g. 5000.00."


@pytest.mark.parametrize(("text", "field", "message"), [
    ("", "total_budget", "Enter an amount, e.g. 5000.00."),
    ("   ", "bid", "Enter an amount, e.g. 2.50."),
    ("", "margin", "Enter an amount, e.g. 12.5."),
    (None, "amount", "Enter an amount, e.g. 250.00."),
    ("NaN", "total_budget", DIGITS_BUDGET),
    ("nan", "total_budget", DIGITS_BUDGET),
    ("Infinity", "total_budget", DIGITS_BUDGET),
    ("-Infinity", "amount", "Enter the amount in digits 0-9, e.g. 250.00."),
    ("1e3", "total_budget", money.EXPONENT),
    ("1E+30", "bid", money.EXPONENT),
    ("2.5E-1", "bid", money.EXPONENT),
    ("١٢٣", "total_budget", DIGITS_BUDGET),  # Arabic-Indic digits: Decimal would read 123
    ("１２", "total_budget", DIGITS_BUDGET),  # full-width digits
    ("ten", "total_budget", DIGITS_BUDGET),
    ("12.50 USD", "total_budget", DIGITS_BUDGET),
    ("1,5", "total_budget", money.COMMA),  # a decimal comma is not guessed
    ("12,34.00", "total_budget", money.COMMA),
    ("1.005", "bid", money.TWO_DECIMALS),
    ("0.001", "margin", money.TWO_DECIMALS),
    ("-5", "total_budget", money.NEGATIVE),
    ("$-5", "bid", money.NEGATIVE),
    ("-1", "margin", money.NEGATIVE),
    ("99999999999999", "total_budget", "At most $100,000,000.00."),
    ("100000000.01", "daily_budget", "At most $100,000,000.00."),
    ("5000.01", "bid", "At most $5,000.00."),
    ("5,000.01", "bid_max", "At most $5,000.00."),
    ("90.01", "margin", "At most 90.00 %."),
    ("1000000.01", "amount", "From -$1,000,000.00 to $1,000,000.00."),
    ("-1000000.01", "amount", "From -$1,000,000.00 to $1,000,000.00."),
    (0.1, "bid", "Enter the amount in digits 0-9, e.g. 2.50."),  # a float has already lost cents
    (Decimal("1E+3"), "bid", money.EXPONENT),
])
def test_a_refusal_names_the_field_and_says_what_to_type(text: object, field: str, message: str) -> None:
    with pytest.raises(Invalid) as refused:
        money.parse_money(text, field=field)
    assert refused.value.fields == {field: message}


def test_an_optional_field_may_be_empty_and_a_required_one_may_not() -> None:
    assert money.parse_money("  ", field="daily_budget", required=False) is None
    assert money.check("", field="daily_budget", required=False) == (None, None)
    assert money.check("", field="daily_budget")[1] == "Enter an amount, e.g. 250.00."


def test_every_field_has_a_bound_that_fits_its_column() -> None:
    biggest = 2**63 - 1  # BIGINT micro-dollars
    for field, spec in money.FIELDS.items():
        assert spec.maximum > 0, field
        assert money.to_micros(spec.maximum) <= biggest, field
    assert money.FIELDS["margin"].maximum * 100 < 2**31  # INTEGER basis points


def test_micros_are_exact() -> None:
    assert money.micros_or_none("1,234.56", field="total_budget") == (1_234_560_000, None)
    assert money.micros_or_none("0.29", field="bid") == (290_000, None)  # 0.29 * 1e6 as a float is 289999.99...


@pytest.mark.parametrize("language", ["sp", "gr", "it", "rs"])
def test_the_messages_speak_every_language_with_their_values(language: str) -> None:
    t = translator(language)
    for text, field in (("", "bid"), ("x", "bid"), ("99999", "bid"), ("2000000", "amount"), ("1e3", "bid"),
                        ("1,5", "bid"), ("1.001", "bid"), ("-1", "bid")):
        problem = money.check(text, field=field)[1]
        assert problem is not None and t(problem) != problem, (language, problem)
    assert "$5,000.00" in t(money.check("99999", field="bid")[1])
