"""What a report's result is: its columns (with the names beside the ids), their labels and kinds, the days a
period stands for, its cells as the CSV writes them, and the file's name and storage key. Shared by the report
service (pages, API) and the runs that write the files (app/reports/jobs.py), so neither imports the other."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from app.kernel.storage import REPORTS
from app.reports.models import Report, ReportRun
from app.statistics import service as statistics
from app.warehouse.base import StatsValue
from app.warehouse.schema import EVENT_PREFIX, METRICS

REPORT_NOT_FOUND = "Report not found."
INTERRUPTED = "interrupted by a restart"
# Beside an id dimension the CSV also names the thing (statistics.add_names).
NAME_COLUMNS = {"advertiser_id": "advertiser_name", "campaign_id": "campaign_name", "creative_id": "creative_name"}
COLUMN_LABELS = {
    "date": "Date", "hour": "Hour", "advertiser_id": "Advertiser ID", "advertiser_name": "Advertiser",
    "campaign_id": "Campaign ID", "campaign_name": "Campaign", "creative_id": "Creative ID",
    "creative_name": "Creative", "exchange": "Exchange", "os": "OS", "country": "Country", "app": "App",
    "device_type": "Device type", "impressions": "Impressions", "clicks": "Clicks", "ctr": "CTR (%)",
    "spend": "Spend ($)", "ecpm": "eCPM ($)", "ecpc": "eCPC ($)", "conversions": "Conversions", "cpa": "CPA ($)",
}


def result_key(name: str) -> str:
    """Where a run's CSV is kept in the file store (app/kernel/storage.py): reports/<name>."""
    return f"{REPORTS}/{name}"


def column_label(key: str) -> str:
    if key.startswith(EVENT_PREFIX):
        return f"Event: {key[len(EVENT_PREFIX):]}"
    return COLUMN_LABELS.get(key, key)


def column_kind(key: str) -> str:
    """number | money | percent | text (how a page formats a result column)."""
    if key in METRICS:
        return METRICS[key].kind
    if key.startswith(EVENT_PREFIX):
        return "number"
    return "text"


def result_columns(report: Report) -> list[str]:
    columns: list[str] = []
    for dimension in report.dimensions:
        columns.append(dimension)
        if dimension in NAME_COLUMNS:
            columns.append(NAME_COLUMNS[dimension])
    return columns + list(report.metrics) + [EVENT_PREFIX + e for e in report.events]


# --- periods -----------------------------------------------------------------------------------------------

# The presets that count back from today: how many days, today included (statistics.last_days).
LAST_DAYS = {"last_7_days": 7, "last_30_days": 30}


def resolve_period(period: str, start: date | None, end: date | None, *, time_zone: str,
                   today: date | None = None) -> tuple[date, date]:
    """A report's days in its time zone. "Last 7/30 days" are the days ending today, today included, as the
    dashboards count them (statistics.last_days): the same words give the same dates and figures on both.
    "Yesterday" and "last month" are closed days; "this month" runs to today."""
    today = today or statistics.today_in(time_zone)
    if period in LAST_DAYS:
        return statistics.last_days(LAST_DAYS[period], today=today)
    if period == "yesterday":
        yesterday = today - timedelta(days=1)
        return yesterday, yesterday
    if period == "this_month":
        return today.replace(day=1), today
    if period == "last_month":
        last = today.replace(day=1) - timedelta(days=1)
        return last.replace(day=1), last
    return statistics.parse_period(start, end)


def csv_filename(report: Report, run: ReportRun) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in report.name).strip("-") or "Report"
    return f"{safe}-{run.period_start}-{run.period_end}.csv"


def format_cell(key: str, value: StatsValue) -> str | int:
    """A value as the CSV writes it: money to the micro-dollar (so sums match the totals), ratios rounded."""
    if value is None:
        return ""
    if isinstance(value, float):
        if key == "spend":
            return f"{value:.6f}".rstrip("0").rstrip(".") if value else "0"
        return f"{value:.4f}"
    if isinstance(value, date | datetime):
        return value.isoformat()
    return value
