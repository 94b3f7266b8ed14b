"""The spec's number formats (section 9), at their edges, and the same in Python and in the JS grid."""

from __future__ import annotations

import json
import shutil
import subprocess
from decimal import Decimal

import pytest

from app.kernel.config import REPO_ROOT
from app.kernel.i18n.catalog import LANGUAGES
from app.kernel.i18n.formatters import day, file_size, money, short_number


def test_money():
    assert money(1234.5) == "$1,234.50"
    assert money(-5) == "-$5.00"
    assert money(0) == "$0.00"
    assert money(Decimal("0.005")) == "$0.01"
    assert money(5_000_000_000, micros=True) == "$5,000.00"
    assert money(-1_500_000, micros=True) == "-$1.50"


def test_money_follows_the_language():
    assert money(1234.5, language="gr") == "$1.234,50"
    assert money(1234.5, language="sp") == "$1234,50"  # CLDR: Spanish groups from five digits
    assert money(12345.5, language="sp") == "$12.345,50"
    assert money(-1234.5, language="rs") == "-$1\u00a0234,50"


def test_short_number():
    assert short_number(999) == "999"
    assert short_number(1234) == "1.23K"
    assert short_number(5_600_000) == "5.6M"
    assert short_number(7_000_000_000) == "7B"
    assert short_number(-2500) == "-2.5K"


def test_short_number_carries_into_the_next_step():
    assert short_number(999_999) == "1M"
    assert short_number(999_999_999) == "1B"
    assert short_number(999.999) == "1K"
    assert short_number(999_499) == "999.5K"
    assert short_number(-999_999) == "-1M"


def test_file_size():
    assert file_size(0) == "0 Bytes"
    assert file_size(512) == "512 Bytes"
    assert file_size(1536) == "1.5 KB"
    assert file_size(1024**3 * 3) == "3 GB"
    assert file_size(1234567) == "1.18 MB"
    assert file_size(1_048_575) == "1 MB"
    assert file_size(-1536) == "-1.5 KB"


MONEY_INPUTS = [1234.5, -5, 0, 12345678.9, "0.50", 999.999, "-1234.56", 1.25, 100000,
                1.005, 2.675, "1.005", "-2.675", 0.005, -0.005, -0.004, 999.995, 1234567.891, 1e15]
BYTE_INPUTS = [0, 512, 1536, 1_048_575, -1536, -1_048_575, 1_073_741_823, 1_234_567, 1023, 5 * 1024**4,
               1023.999, 1024, -1, 1, 1_048_576 * 1023.996, 1024**8 * 2000]
DAY_INPUTS = [f"2026-{month:02d}-{month + 2:02d}" for month in range(1, 13)] + ["2027-01-01", "2026-11-26"]

_NODE_SCRIPT = """
import { makeFormatters } from %s;
const [languages, money, bytes, days] = JSON.parse(process.argv[1]);
const out = {};
for (const language of languages) {
  const f = makeFormatters(language);
  out[language] = { money: money.map((v) => f.cell('money', v)), bytes: bytes.map((v) => f.cell('bytes', v)),
                     days: days.map((v) => f.cell('date', v)) };
}
console.log(JSON.stringify(out));
"""


def test_python_and_the_js_grid_format_alike():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to run the grid's formatters (it builds the widgets too)")
    module = json.dumps((REPO_ROOT / "js_modules/src/lib/format.js").as_uri())
    argument = json.dumps([list(LANGUAGES), MONEY_INPUTS, BYTE_INPUTS, DAY_INPUTS])
    result = subprocess.run([node, "--input-type=module", "-e", _NODE_SCRIPT % module, argument],
                            capture_output=True, text=True, check=True, timeout=60)
    js = json.loads(result.stdout)
    for language in LANGUAGES:
        assert js[language]["money"] == [money(Decimal(str(v)), language=language) for v in MONEY_INPUTS], language
        # A day in a dialog's note reads as the grid's 'date' cells beside it (explain dialog, report rows).
        assert js[language]["days"] == [day(v, language=language) for v in DAY_INPUTS], language
    # The grid groups bytes by locale too; Python's file sizes are English, so compare in English.
    assert js["en"]["bytes"] == [file_size(v) for v in BYTE_INPUTS]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_dashboard_draws_its_money_in_the_users_language(language: str) -> None:
    from components.statistics.widgets import kpi_tiles
    from tests.render import logged_out_console, text_of, walk

    tiles = {n["attributes"]["data-kpi"]: text_of(n) for n in walk(kpi_tiles(logged_out_console(language)))
             if "data-kpi" in n.get("attributes", {})}
    assert tiles["spend"] == money(0, language=language)
