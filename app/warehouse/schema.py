"""What the delivery statistics hold, declared once: dimensions, counted measures and derived metrics.

The store, the report builder, the dashboards, the CSV exports and the API all read these tables, so a new
dimension or metric is one line here plus (for a dimension) a column in the store.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dimension:
    key: str  # the name reports, filters and the API use
    column: str  # the fact column (time dimensions are computed from `hour`)
    kind: str  # "int" (an id), "text" or "time"


DIMENSIONS: dict[str, Dimension] = {d.key: d for d in (
    Dimension("date", "hour", "time"),  # the day in the query's time zone
    Dimension("hour", "hour", "time"),  # the hour in the query's time zone
    Dimension("advertiser_id", "advertiser_id", "int"),
    Dimension("campaign_id", "campaign_id", "int"),
    Dimension("creative_id", "creative_id", "int"),
    Dimension("exchange", "exchange", "text"),
    Dimension("os", "os", "text"),
    Dimension("country", "country", "text"),  # ISO 3166-1 alpha-2
    Dimension("app", "app", "text"),  # app bundle id or site domain
    Dimension("device_type", "device_type", "text"),
)}

# The fact columns that describe where a row was delivered (everything but time); ingestion requires them.
PLACEMENT_COLUMNS: tuple[str, ...] = ("advertiser_id", "campaign_id", "creative_id", "exchange", "os", "country",
                                      "app", "device_type")
DEVICE_TYPES: tuple[str, ...] = ("phone", "tablet", "desktop", "ctv", "other")
# A fact row's optional device id: a hash of the device's advertising id (never the id itself), as lowercase hex
# (16 to 64 digits: a 64-bit hash up to SHA-256). Reach is the distinct count of these.
DEVICE_COLUMN = "device"
DEVICE_ID_PATTERN = r"^[0-9a-f]{16,64}$"

# Counted measures: summed as they are. Spend is integer micro-dollars (never float).
MEASURES: tuple[str, ...] = ("impressions", "clicks", "spend_micros", "conversions")


@dataclass(frozen=True)
class Metric:
    key: str
    kind: str  # number | money | percent (how pages format it)
    sql: str  # over the summed measures of one result row


# What a report can show. Ratios are NULL when their denominator is zero (shown as "–", never as 0 or inf).
METRICS: dict[str, Metric] = {m.key: m for m in (
    Metric("impressions", "number", "impressions"),
    Metric("clicks", "number", "clicks"),
    Metric("ctr", "percent", "clicks * 100.0 / NULLIF(impressions, 0)"),
    Metric("spend", "money", "spend_micros / 1e6"),
    Metric("ecpm", "money", "spend_micros / 1e3 / NULLIF(impressions, 0)"),
    Metric("ecpc", "money", "spend_micros / 1e6 / NULLIF(clicks, 0)"),
    Metric("conversions", "number", "conversions"),
    Metric("cpa", "money", "spend_micros / 1e6 / NULLIF(conversions, 0)"),
)}

EVENT_PREFIX = "event_"  # a custom event's report column: event_<name> (spec: event1..n / event_{name})
EVENT_NAME_PATTERN = r"^[a-z0-9_]{1,40}$"
