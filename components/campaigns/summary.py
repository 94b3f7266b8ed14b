"""The campaign form's "what will run" card: the settings as a media buyer reads them back before saving
(flight and its length, budgets, bid, cap, and targeting in counts), and below it the forecast of what those
settings would deliver (forecast_panel.py). It re-renders alone as fields change."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from reactpy import component, html

from app.campaigns import flight
from app.campaigns.schemas import CampaignOptions
from app.kernel import money as amounts
from app.kernel.i18n.formatters import money
from components.campaigns.common import bare_label, goal_text
from components.campaigns.forecast_panel import ForecastPanel
from components.ui.console import use_console
from components.ui.field_store import FieldStore, use_watch


def _amount(values: dict[str, Any], field: str) -> Decimal | None:
    """The field's amount as the save will read it (the one money parser); None while empty or not yet valid."""
    return amounts.check(values.get(field), field=field, required=False)[0]


def flight_day_count(start: str, end: str, time_zone: str) -> int | None:
    """The days the flight runs on, by the rule the save and the forecast keep (an end date is inclusive)."""
    where = flight.zone(time_zone)
    try:
        return flight.flight_days(flight.given(start, where, end=False), flight.given(end, where, end=True), where)
    except (TypeError, ValueError):
        return None


@component
def CampaignSummary(store: FieldStore, *, options: CampaignOptions, advertiser: str, advertiser_id: int | None = None) -> Any:
    console = use_console()
    t = console.t
    values = use_watch(store, "summary")
    lang = console.language

    def shown(field: str) -> str:
        amount = _amount(values, field)
        return money(amount, language=lang) if amount is not None else "—"

    start, end = str(values.get("starts_at") or ""), str(values.get("ends_at") or "")
    days = flight_day_count(start, end, str(values.get("time_zone") or "UTC")) if start and end else None
    flight_text = (f"{start.replace('T', ' ')} → {end.replace('T', ' ') if end else t('campaigns.no_end')}"
                   if start else "—")
    daily = _amount(values, "daily_budget")
    strategy = str(values.get("bid_strategy") or "cpm")
    bid_low, bid_high = values.get("bid_min"), values.get("bid_max")
    cap = str(values.get("frequency_cap") or "").strip()
    goal = str(values.get("goal_metric") or "none")

    def count(key: str) -> int:
        value = values.get(f"targeting.{key}")
        return len(value) if isinstance(value, list) else 0

    fence_points = len([p for p in str(values.get("targeting.geo_fence") or "").split("|") if p.strip()])
    daypart = values.get("targeting.dayparting") or []
    hours = sum(len(day) for day in daypart) if daypart else 0
    countries = {c.code: c.name for c in options.countries}
    chosen_countries = [countries.get(code, code) for code in values.get("targeting.countries") or []]
    where = (", ".join(chosen_countries[:3]) + (f" +{len(chosen_countries) - 3}" if len(chosen_countries) > 3 else "")
             if chosen_countries else t("campaigns.everywhere"))
    extras = [t(f"campaigns.summary_{key}", count=count(key)) for key in ("regions", "cities") if count(key)]
    if fence_points:
        extras.append(t("campaigns.summary_points", count=fence_points))
    narrowing = [t(f"campaigns.field.{key}") for key in ("languages", "device_types", "operating_systems",
                                                          "os_versions", "manufacturers",
                                                          "browsers", "carriers", "exchanges") if count(key)]

    rows = [
        ("advertiser", t("campaigns.field.advertiser"), advertiser or "—"),
        ("flight", t("campaigns.flight"), flight_text + (f" · {t('campaigns.summary_days', count=days)}" if days else "")),
        ("time_zone", t("campaigns.field.time_zone"), str(values.get("time_zone") or "UTC")),
        ("budget", t("campaigns.field.total_budget"),
         shown("total_budget") + (f" · {t('campaigns.summary_daily', amount=shown('daily_budget'))}"
                                  if daily is not None else "")),
        ("pacing", t("campaigns.field.pacing"), t(f"campaigns.pacing.{values.get('pacing') or 'even'}")),
        ("bid", t("campaigns.field.bid"),
         f"{shown('bid')} {t(f'campaigns.strategy.{strategy}')}"
         + (f" · {shown('bid_min') if bid_low else '—'} – {shown('bid_max') if bid_high else '—'}"
            if bid_low or bid_high else "")),
        ("frequency", t("campaigns.field.frequency_cap"),
         t("campaigns.summary_cap", count=cap, period=t(f"campaigns.period.{values.get('frequency_period') or 'day'}"))
         if cap else t("campaigns.no_cap")),
        ("goal", t("campaigns.field.goal_metric"), goal_text(console, goal, str(values.get("goal_target") or ""))),
        ("where", t("campaigns.geography"), where + (f" · {', '.join(extras)}" if extras else "")),
        ("narrowing", t("campaigns.summary_narrowed"), ", ".join(narrowing) if narrowing else t("campaigns.no_narrowing")),
        ("schedule", t("campaigns.schedule"), t("campaigns.daypart_some", hours=hours) if hours
         else t("campaigns.daypart_all")),
    ]
    return html.aside(
        {"className": "card dsp-card shadow-sm border-0", "data-summary": ""},
        html.div({"className": "card-header bg-transparent"},
                 html.h2({"className": "h6 mb-0 fw-semibold"}, t("campaigns.summary_title"))),
        html.div({"className": "card-body"},
                 html.dl({"className": "mb-0 small dsp-summary"},
                         *[html.div({"key": key, "className": "mb-2", "data-summary-row": key},
                                    html.dt({"className": "text-body-secondary fw-normal"}, bare_label(label)),
                                    html.dd({"className": "mb-0 fw-medium"}, value))
                           for key, label, value in rows]),
                 ForecastPanel(store, advertiser_id=advertiser_id, key=f"forecast-{advertiser_id}")),
    )
