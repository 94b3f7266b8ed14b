"""Figures and days in the reader's language on the report and Insight360 pages, as the console writes them."""

from __future__ import annotations

from types import SimpleNamespace

from components.reports.report_view import _total_text


def test_a_reports_totals_follow_the_readers_language():
    spanish, english = SimpleNamespace(language="sp"), SimpleNamespace(language="en")
    assert _total_text(spanish, "impressions", 2029093) == "2.029.093"  # was "2,029,093" in every language
    assert _total_text(english, "impressions", 2029093) == "2,029,093"
    assert _total_text(spanish, "ctr", 0.9123) == "0,91%"
    assert _total_text(spanish, "spend", "13425.51") == "$13.425,51"


def test_insight360s_pacing_says_when_a_campaign_ends_as_the_dashboard_writes_its_days():
    from functools import partial

    from app.access.roles import Role
    from app.kernel.i18n.catalog import translator
    from components.pages import ROUTES
    from components.statistics.insight import _pacing_row
    from tests.render import text_of

    item = SimpleNamespace(campaign_id=1, campaign_name="Spring Sale", budget_used=40.0, pacing=100.0, spent=400.0,
                           budget=1000.0, ends_on="2027-01-03")
    for language, shown in (("en", "Ends Jan 3, 2027"), ("sp", "3 ene 2027")):
        console = SimpleNamespace(t=translator(language), language=language, role=Role.ADVERTISER,
                                  path=partial(ROUTES.path, role=Role.ADVERTISER))
        text = text_of(_pacing_row(console, item, on_explain=lambda _item: None))
        assert shown in text, text  # was "Ends 2027-01-03", ISO text beside "Oct 26, 2026 – Nov 24, 2026"
