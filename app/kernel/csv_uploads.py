"""Uploaded spreadsheets as Europe writes them: the one reader of every CSV a person uploads (inventory and
smart-app list entries, audience device ids, geo-fence points, statistics batches).

Excel saves "CSV" with the list separator of the computer's region: a comma in English, a semicolon where the comma
is the decimal mark (Spanish, German, Italian, Russian: the console's own sp/gr/it/rs), a tab as "Unicode text".
Read with a comma only, a semicolon file's every line was one cell and was refused line by line (issue 38 item 8).

The separator is found by csv.Sniffer restricted to semicolon and tab first, then comma: a comma is also the decimal
mark in the files that use semicolons ("48,85;2,35" holds two numbers), so a separator that is consistent from line
to line wins over a comma that is. A sample no separator splits is one column (read as comma CSV, as before). A
sample holding semicolons or tabs that are not consistent cannot be read safely: it is refused whole, naming why,
rather than cut into the wrong cells.
"""

from __future__ import annotations

import csv
import io
import re
from typing import TYPE_CHECKING

from app.kernel.errors import Invalid

if TYPE_CHECKING:
    from _csv import Reader

SAMPLE_CHARS = 64 * 1024  # what the separator is told from: hundreds of lines of any upload
PREFERRED = ";\t"  # never a decimal mark: consistent, they are the separator
COMMA = ","
MIXED = ("The file's columns could not be told apart: separate them with commas, semicolons or tabs, the same on "
         "every line, and upload it again.")
NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}
_DECIMAL_COMMA = re.compile(r"[+-]?\d+,\d+")
_QUOTED = re.compile(r'"(?:[^"]|"")*"')  # a quoted cell: a separator inside it separates nothing


def _sample(text: str) -> str:
    """The first SAMPLE_CHARS of the text, cut at a line's end (a half line would look inconsistent)."""
    if len(text) <= SAMPLE_CHARS:
        return text
    head = text[:SAMPLE_CHARS]
    return head[:head.rfind("\n") + 1] or head


def separator_of(text: str, *, field: str = "file") -> str:
    """The column separator of an uploaded CSV's text: ";" or a tab when consistent from line to line, else ","
    (also for a file of one column). Invalid on `field` when semicolons or tabs appear but split no column
    consistently."""
    sample = _QUOTED.sub('""', _sample(text.lstrip("\ufeff")))
    sniffer = csv.Sniffer()
    for candidates in (PREFERRED, COMMA):
        try:
            return sniffer.sniff(sample, delimiters=candidates).delimiter
        except csv.Error:
            continue
    if any(mark in sample for mark in PREFERRED):
        raise Invalid({field: MIXED})
    return COMMA


def rows(text: str, *, field: str = "file") -> tuple[str, Reader]:
    """(the separator, a csv.reader of the text by it): a leading BOM, as spreadsheets write, left out."""
    separator = separator_of(text, field=field)
    return separator, csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=separator)


def first_cell(line: str, separator: str) -> str:
    """A line's first cell (quotes removed), for readers that stream lines themselves (audience device ids)."""
    if separator not in line and '"' not in line:
        return line
    return next(csv.reader([line], delimiter=separator), [""])[0] if line.strip() else line


def number_text(cell: str, separator: str) -> str:
    """A numeric cell with its decimal comma as a point where the file is not comma-separated ("1,5" in a
    semicolon file is one and a half); other cells as they are."""
    text = cell.strip()
    if separator != COMMA and _DECIMAL_COMMA.fullmatch(text):
        return text.replace(",", ".")
    return text


def refused_lines(reason: str, refused: list[tuple[int, str, str]], *, shown: int = 20) -> str:
    """The message of an upload refused because none of its lines was usable: `reason`, that nothing changed, and
    its first `shown` refused lines as (line number, text, why)."""
    lines = "; ".join(f"line {number} ({text}): {why}" for number, text, why in refused[:shown])
    more = f"; and {len(refused) - shown:,} more" if len(refused) > shown else ""
    return f"{reason} Nothing was changed." + (f" Refused: {lines}{more}." if lines else "")
