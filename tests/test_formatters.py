from decimal import Decimal

from app.i18n.formatters import file_size, money, short_number


def test_money():
    assert money(1234.5) == "$1,234.50"
    assert money(-5) == "-$5.00"
    assert money(0) == "$0.00"
    assert money(Decimal("0.005")) == "$0.01"
    assert money(5_000_000_000, micros=True) == "$5,000.00"
    assert money(-1_500_000, micros=True) == "-$1.50"


def test_short_number():
    assert short_number(999) == "999"
    assert short_number(1234) == "1.23K"
    assert short_number(5_600_000) == "5.6M"
    assert short_number(7_000_000_000) == "7B"
    assert short_number(-2500) == "-2.5K"


def test_file_size():
    assert file_size(0) == "0 Bytes"
    assert file_size(512) == "512 Bytes"
    assert file_size(1536) == "1.5 KB"
    assert file_size(1024**3 * 3) == "3 GB"
    assert file_size(1234567) == "1.18 MB"
