"""The campaign form's forecast (issue 27, "Forecast while editing"): impressions and spend a day and the reach
over the flight for the targeting, budgets and bid being edited, as ranges, from the advertiser's own delivery
(app/campaigns/forecast.py). It reads again ~300 ms after the last change of a value it depends on, off the event
loop, and shows only the answer for the newest values (use_debounced_query)."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError
from reactpy import component, html
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import forecast as forecasts
from app.campaigns.forecast_schemas import CountRange, Forecast, ForecastDraft
from app.campaigns.targeting import EMPTY
from app.kernel.errors import Invalid
from app.kernel.i18n.formatters import money, short_number
from components.ui.console import Console, use_console
from components.ui.field_store import FieldStore, use_watch
from components.ui.hooks import use_debounced_query

# The form's fields a forecast reads (and the targeting document's keys, read from "targeting.<key>").
DRAFT_FIELDS = ("starts_at", "ends_at", "time_zone", "total_budget", "daily_budget", "bid_strategy", "bid")
DEBOUNCE_S = 0.3


def draft_of(values: dict[str, Any], advertiser_id: int | None) -> dict[str, Any]:
    """The ForecastDraft the form's values make (the same keys POST /api/campaigns/forecast takes)."""
    draft: dict[str, Any] = {field: str(values.get(field) or "") for field in DRAFT_FIELDS}
    draft["bid_strategy"] = draft["bid_strategy"] or "cpm"
    draft["advertiser_id"] = advertiser_id
    draft["targeting"] = {key: values.get(f"targeting.{key}", empty) for key, empty in EMPTY.items()}
    return draft


def forecast_or_problems(db: Session, *, actor: Actor, draft: dict[str, Any]) -> Forecast | dict[str, str]:
    """The forecast, or the fields that keep it from being made (a bid being typed): the form shows those as a
    hint, not as an error toast, since the user is still typing."""
    try:
        return forecasts.forecast(db, actor=actor, draft=ForecastDraft.model_validate(draft))
    except Invalid as error:
        return dict(error.fields)
    except ValidationError as error:
        return {".".join(str(p) for p in e["loc"]): e["msg"] for e in error.errors()}


def _range(low: str, high: str) -> str:
    """"12K–18K"; one figure when the range is none (a budget caps every day alike)."""
    return low if low == high else f"{low}–{high}"


def _counts(figures: CountRange) -> str:
    return _range(short_number(figures.low), short_number(figures.high))


def _row(key: str, label: str, value: str, detail: str = "") -> Any:
    return html.div({"key": key, "className": "mb-2", "data-forecast-row": key},
                    html.dt({"className": "text-body-secondary fw-normal"}, label),
                    html.dd({"className": "mb-0 fw-medium"}, value,
                            html.span({"className": "text-body-secondary fw-normal ms-1"}, detail) if detail else ""))


def _shown(console: Console, answer: Forecast) -> list[Any]:
    t, lang = console.t, console.language
    if answer.no_history or answer.impressions_per_day is None or answer.spend_per_day is None:
        return [html.p({"className": "mb-0 text-body-secondary", "data-forecast": "no-history"},
                       html.i({"className": "bi bi-info-circle-fill me-1"}), t("campaigns.forecast_no_history"))]
    impressions, spend = answer.impressions_per_day, answer.spend_per_day
    rows = [
        _row("impressions", t("campaigns.forecast_impressions"), _counts(impressions),
             t("campaigns.forecast_expected", value=short_number(impressions.expected))),
        _row("spend", t("campaigns.forecast_spend"),
             _range(money(spend.low, language=lang), money(spend.high, language=lang)),
             t("campaigns.forecast_expected", value=money(spend.expected, language=lang))),
        _row("reach", t("campaigns.forecast_reach", days=answer.reach_days or 0),
             _counts(answer.reach) + " " + t("campaigns.forecast_devices")) if answer.reach is not None else
        _row("reach", t("campaigns.forecast_reach_title"), t("campaigns.forecast_no_reach")),
    ]
    notes = []
    if impressions.high == 0:
        notes.append(t("campaigns.forecast_bid_too_low"))
    elif answer.bid_share is not None and round(answer.bid_share * 100) < 100:
        notes.append(t("campaigns.forecast_bid_share", share=round(answer.bid_share * 100)))
    if answer.capped_by:
        notes.append(t("campaigns.forecast_capped"))
    if answer.not_applied:
        labels = [t(f"campaigns.field.{key}") for key in answer.not_applied]
        notes.append(t("campaigns.forecast_not_applied", keys=", ".join(
            label if not label.startswith("campaigns.") else key for label, key in zip(labels, answer.not_applied,
                                                                                         strict=True))))
    return [html.dl({"className": "mb-1 small dsp-summary", "data-forecast": "figures"}, *rows),
            *[html.p({"key": f"note-{index}", "className": "small text-body-secondary mb-1", "data-forecast-note": ""},
                     note) for index, note in enumerate(notes)]]


@component
def ForecastPanel(store: FieldStore, *, advertiser_id: int | None) -> Any:
    console = use_console()
    t = console.t
    values = use_watch(store, "forecast")
    draft = draft_of(values, advertiser_id)
    query = use_debounced_query(forecast_or_problems, key=json.dumps(draft, sort_keys=True, default=str),
                                delay_s=DEBOUNCE_S, actor=console.actor, draft=draft)
    answer = query.value
    if answer is None:
        body: list[Any] = [html.p({"className": "mb-0 small text-body-secondary"}, t("campaigns.forecasting"))]
    elif isinstance(answer, dict):
        body = [html.p({"className": "mb-0 small text-body-secondary", "data-forecast": "needs-values"},
                       t("campaigns.forecast_needs_values"))]
    else:
        body = _shown(console, answer)
    basis = t("campaigns.forecast_basis", days=answer.history_days) if isinstance(answer, Forecast) and \
        answer.history_days else ""
    return html.section(
        {"className": "border-top pt-3 mt-2", "data-forecast-panel": "", "aria-busy": "true" if query.loading else "false"},
        html.h3({"className": "small text-uppercase text-body-secondary fw-semibold mb-2 d-flex align-items-center"},
                html.i({"className": "bi bi-graph-up me-1"}), t("campaigns.forecast_title"),
                html.span({"className": "spinner-border spinner-border-sm ms-2", "role": "status"})
                if query.loading else ""),
        *body,
        html.p({"className": "small text-body-secondary mb-0 mt-1"}, basis) if basis else "",
    )
