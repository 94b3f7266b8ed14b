"""The report page's figures in the reader's language: totals grouped as the rest of the console groups them."""

from __future__ import annotations

from types import SimpleNamespace

from components.reports.report_view import _total_text


def test_a_reports_totals_follow_the_readers_language():
    spanish, english = SimpleNamespace(language="sp"), SimpleNamespace(language="en")
    assert _total_text(spanish, "impressions", 2029093) == "2.029.093"  # was "2,029,093" in every language
    assert _total_text(english, "impressions", 2029093) == "2,029,093"
    assert _total_text(spanish, "ctr", 0.9123) == "0,91%"
    assert _total_text(spanish, "spend", "13425.51") == "$13.425,51"
