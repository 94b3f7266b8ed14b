"""The geo-fence CSV reader: a file of latitude, longitude, radius rows becomes the spec's pipe list, or a
message naming the line that is wrong."""

from __future__ import annotations

import pytest

from app.campaigns.targeting import geo_fence_from_csv
from app.kernel.csv_uploads import MIXED


@pytest.mark.parametrize(("text", "fence", "problem"), [
    ("latitude,longitude,radius\n48.1,11.5,5\n\n52.5,13.4,2.5\n", "48.1,11.5,5|52.5,13.4,2.5", None),
    ("\ufeff48.1,11.5,5\r\n", "48.1,11.5,5", None),
    ("48.1,11.5,5\n48.1;11.5;5\n", "", MIXED),  # separators that change from line to line: refused whole
    ("48,1;11,5;5\n52,5;13,4;2,5\n", "48.1,11.5,5|52.5,13.4,2.5", None),  # a semicolon file's decimal commas
    ("48.1,11.5\n", "", "Line 1: expected latitude, longitude and radius as numbers."),
    ("", "", "The file holds no points."),
    ("95,11.5,5\n", "95,11.5,5", "Entry 1: latitude must be between -90 and 90."),
])
def test_a_geo_fence_csv_becomes_the_pipe_list_or_a_message_naming_the_line(text, fence, problem):
    assert geo_fence_from_csv(text) == (fence, problem)
