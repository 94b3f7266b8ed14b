"""The report builder: /report/create/{report_type}, /report/edit/{id} (and the agency's, admin's and
co-admin's), plus /admin/report/create/multi-dimensional. Each bad input is named beside its field."""

from __future__ import annotations

from typing import Any

from reactpy import component, event, html, use_state
from reactpy_router import use_params

from app.kernel.config import get_settings
from app.reports import service as reports
from app.reports.schemas import BuilderOptions, ReportRead, ReportSaved, ReportSettings
from components.reports.common import TYPE_ICONS, column_text
from components.ui import styles
from components.ui.console import use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.forms import checkbox_list, select_field, submitted_values, switch_field
from components.ui.hooks import use_action, use_query
from components.ui.links import back_link
from components.ui.navigation import use_navigation

TIME_ZONES = ("UTC", "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
              "America/Sao_Paulo", "Europe/London", "Europe/Berlin", "Europe/Madrid", "Europe/Rome",
              "Europe/Moscow", "Asia/Dubai", "Asia/Kolkata", "Asia/Singapore", "Asia/Tokyo", "Australia/Sydney")
MULTI = "multi-dimensional"


def multi_values(submit_event: Any) -> dict[str, list[str]]:
    """The chosen options of each <select multiple> (their options carry data-multi): submitted_values keeps one
    value per select."""
    found: dict[str, list[str]] = {}
    target = submit_event.get("target") if isinstance(submit_event, dict) else None
    for element in target if isinstance(target, list) else []:
        if not isinstance(element, list):
            continue
        for option in element:
            field = (option.get("dataset") or {}).get("multi") if isinstance(option, dict) else None
            if field:
                chosen = found.setdefault(field, [])
                if option.get("selected"):
                    chosen.append(str(option.get("value", "")))
    return found


def multi_select(*, name: str, label: str, options: list[tuple[str, str]], selected: list[str], error: str | None,
                 help_text: str = "") -> Any:
    """A multi-select list (Ctrl/Shift-click); uncontrolled, read from the submit event."""
    chosen = {str(v) for v in selected}
    return html.div(
        {"className": "mb-3"},
        html.label({"className": styles.FORM_LABEL, "htmlFor": f"field-{name}"}, label),
        html.select({"id": f"field-{name}", "multiple": True, "size": 6, "data-multi-select": name,
                     "className": "form-select form-select-sm" + (" is-invalid" if error else ""),
                     "defaultValue": sorted(chosen)},
                    *[html.option({"value": value, "key": value, "data-multi": name}, text) for value, text in options]),
        html.div({"className": "invalid-feedback", "data-field-error": name}, error) if error else "",
        html.div({"className": "form-text"}, help_text) if help_text and not error else "",
    )


def text_input(*, name: str, label: str, default: str, error: str | None, kind: str = "text",
               placeholder: str = "", help_text: str = "", max_length: int | None = None) -> Any:
    """An uncontrolled text input: read from the submit event, so typing re-renders nothing."""
    attrs: dict[str, Any] = {"id": f"field-{name}", "name": name, "type": kind, "defaultValue": default,
                             "placeholder": placeholder, "className": "form-control" + (" is-invalid" if error else ""),
                             "autoComplete": "off", "aria-invalid": "true" if error else "false"}
    if max_length:
        attrs["maxLength"] = max_length
    return html.div({"className": "mb-3"},
                    html.label({"className": styles.FORM_LABEL, "htmlFor": f"field-{name}"}, label),
                    html.input(attrs),
                    html.div({"className": "invalid-feedback", "data-field-error": name}, error) if error else "",
                    html.div({"className": "form-text"}, help_text) if help_text and not error else "")


def _form_data(values: dict[str, Any], multi: dict[str, list[str]]) -> ReportSettings:
    filters = {key: multi.get(f"filter_{key}", []) for key in ("campaign_id", "country", "exchange", "os")}
    return ReportSettings(
        name=values.get("name", ""), advertiser_id=values.get("advertiser_id") or None,
        dimensions=values.get("dimensions", []), metrics=values.get("metrics", []), events=values.get("events", []),
        filters={k: v for k, v in filters.items() if v}, period=values.get("period", "last_7_days"),
        start_date=values.get("start_date", ""), end_date=values.get("end_date", ""),
        time_zone=values.get("time_zone", "UTC"), schedule=values.get("schedule", "none"),
        recipients=values.get("recipients", ""))


def _keyed(options: list[tuple[str, str]]) -> list[Any]:
    """Checkbox options whose values are keys (checkbox_list is annotated for ids; it keeps any value)."""
    return list(options)


@component
def ReportForm(report: ReportRead | None, report_type: str) -> Any:
    console = use_console()
    t = console.t
    # The form's first values: the report's settings, or a new report's.
    base: dict[str, Any] = report.model_dump() if report else {"name": "", "advertiser_id": None, "dimensions": list(reports.REPORT_TYPES.get(report_type, ())),
                      "metrics": ["impressions", "clicks", "ctr", "spend", "ecpm", "conversions"], "events": [],
                      "filters": {}, "period": "last_7_days", "start_date": "", "end_date": "", "time_zone": "UTC",
                      "schedule": "none", "recipients": []}
    advertiser, set_advertiser = use_state(str(base["advertiser_id"] or ""))
    period, set_period = use_state(base["period"])
    schedule, set_schedule = use_state(base["schedule"])
    dims, set_dims = use_state(list(base["dimensions"]))
    metrics, set_metrics = use_state(list(base["metrics"]))
    events, set_events = use_state(list(base["events"]))
    time_zone, set_time_zone = use_state(base["time_zone"])
    run_now, set_run_now = use_state(True)
    options = use_query(reports.builder_options, actor=console.actor, advertiser_id=int(advertiser) if advertiser else None,
                        language=console.language, deps=[advertiser, console.language])
    navigation, go = use_navigation()

    def saved(result: ReportSaved | ReportRead) -> None:
        saved_report = result.report if isinstance(result, ReportSaved) else result
        console.toast("success", t("reports.saved", name=saved_report.name))
        go(console.path("report.view", id=saved_report.id) or "/")

    save = use_action(reports.create_and_run if run_now else (reports.update_report if report else reports.create_report),
                      on_done=saved)
    errors = save.errors

    @event(prevent_default=True)
    def submit(submit_event: Any) -> None:
        data = _form_data(submitted_values(submit_event), multi_values(submit_event))
        if run_now:
            save.submit(actor=console.actor, data=data, report_type=report_type,
                        report_id=report.id if report else None)
        elif report:
            save.submit(actor=console.actor, report_id=report.id, data=data)
        else:
            save.submit(actor=console.actor, data=data, report_type=report_type)

    choices: BuilderOptions | None = options.value
    staff_or_agency = console.role is not None and console.role.value != "ADVERTISER"
    filters = base["filters"]
    return html.form(
        {"onSubmit": submit, "noValidate": True, "name": "report", "data-form": "report"},
        navigation,
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-7"},
                          card(text_input(name="name", label=t("reports.field.name"), default=base["name"],
                                          error=errors.get("name"), max_length=120,
                                          placeholder=t("reports.name_placeholder")),
                               select_field(name="advertiser_id", label=t("reports.field.advertiser"), value=advertiser,
                                            options=[("", t("reports.all_advertisers"))]
                                            + [(str(a.id), a.name) for a in (choices.advertisers if choices else [])],
                                            on_change=set_advertiser, error=errors.get("advertiser_id"),
                                            help_text=t("reports.advertiser_hint")) if staff_or_agency else "",
                               html.div({"className": "row g-3"},
                                        html.div({"className": "col-md-4"},
                                                 select_field(name="period", label=t("reports.field.period"), value=period,
                                                              options=[(p, t(f"reports.period.{p}"))
                                                                       for p in (choices.periods if choices else [period])],
                                                              on_change=set_period, error=errors.get("period"))),
                                        *([html.div({"className": "col-md-4", "key": field},
                                                    text_input(name=f"{field}_date", label=t(f"reports.field.{field}_date"),
                                                               kind="date", default=base.get(f"{field}_date") or "",
                                                               error=errors.get(f"{field}_date")))
                                           for field in ("start", "end")] if period == "custom" else [])),
                               select_field(name="time_zone", label=t("reports.field.time_zone"), value=time_zone,
                                            options=[(z, z) for z in dict.fromkeys((base["time_zone"], *TIME_ZONES))],
                                            on_change=set_time_zone, error=errors.get("time_zone")),
                               title=t("reports.section.basics")),
                          card(checkbox_list(name="dimensions", label=t("reports.field.dimensions"),
                                             options=_keyed([(d, column_text(console, d))
                                                             for d in (choices.dimensions if choices else dims)]),
                                             selected=dims, on_change=set_dims, error=errors.get("dimensions"),
                                             help_text=t("reports.dimensions_any" if report_type == MULTI
                                                         else "reports.dimensions_hint"), hide_label=True),
                               title=t("reports.field.dimensions"), class_name="mt-4"),
                          card(checkbox_list(name="metrics", label=t("reports.field.metrics"),
                                             options=_keyed([(m, column_text(console, m))
                                                             for m in (choices.metrics if choices else metrics)]),
                                             selected=metrics, on_change=set_metrics, error=errors.get("metrics"),
                                             hide_label=True),
                               checkbox_list(name="events", label=t("reports.field.events"),
                                             options=_keyed([(e, e) for e in choices.events]), selected=events,
                                             on_change=set_events, error=errors.get("events"))
                               if choices and choices.events else
                               html.p({"className": "small text-body-secondary mb-0", "data-empty": "events"},
                                      t("reports.no_events")),
                               title=t("reports.section.columns"), class_name="mt-4")),
                 html.div({"className": "col-xl-5"},
                          card(multi_select(name="filter_campaign_id", label=t("reports.filter.campaign"),
                                            options=[(str(c.id), c.name if not staff_or_agency
                                                      else f"{c.name} · {c.advertiser}")
                                                     for c in (choices.campaigns if choices else [])],
                                            selected=filters.get("campaign_id", []),
                                            error=errors.get("filters.campaign_id"), help_text=t("reports.filter_hint")),
                               multi_select(name="filter_country", label=t("reports.filter.country"),
                                            options=[(c.code, c.name) for c in (choices.countries if choices else [])],
                                            selected=filters.get("country", []), error=errors.get("filters.country")),
                               multi_select(name="filter_exchange", label=t("reports.filter.exchange"),
                                            options=[(x, x) for x in (choices.exchanges if choices else [])],
                                            selected=filters.get("exchange", []), error=errors.get("filters.exchange")),
                               multi_select(name="filter_os", label=t("reports.filter.os"),
                                            options=[(x, x) for x in (choices.os if choices else [])],
                                            selected=filters.get("os", []), error=errors.get("filters.os")),
                               title=t("reports.section.filters")),
                          card(select_field(name="schedule", label=t("reports.field.schedule"), value=schedule,
                                            options=[(s, t(f"reports.schedule.{s}")) for s in
                                                     ("none", "daily", "weekly", "monthly")],
                                            on_change=set_schedule, error=errors.get("schedule"),
                                            help_text=t("reports.schedule_hint", at=get_settings().report_schedule_at)),
                               text_input(name="recipients", label=t("reports.field.recipients"),
                                          default=", ".join(base["recipients"]),
                                          error=errors.get("recipients"), placeholder="name@example.com, ...",
                                          help_text=t("reports.recipients_hint")) if schedule != "none" else
                               html.input({"type": "hidden", "name": "recipients", "value": ""}),
                               title=t("reports.section.delivery"), class_name="mt-4"),
                          html.div({"className": "card dsp-card shadow-sm border-0 mt-4"},
                                   html.div({"className": "card-body d-flex flex-wrap align-items-center gap-3"},
                                            switch_field(name="run_now", label=t("reports.run_after_save"),
                                                         checked=run_now, on_change=set_run_now),
                                            html.button({"type": "submit", "className": "btn btn-primary ms-auto",
                                                         "disabled": save.pending, "data-action": "save-report"},
                                                        html.span({"className": "spinner-border spinner-border-sm me-2"})
                                                        if save.pending else html.i({"className": "bi bi-check2 me-1"}),
                                                        t("reports.save_and_run" if run_now else "reports.save")))))),
    )


@component
def ReportCreatePage() -> Any:
    console = use_console()
    t = console.t
    report_type = str(use_params().get("report_type") or MULTI)
    allowed = console.actor is not None and report_type in reports.types_for(console.actor)
    return html.div(
        {"data-page": "report-create"},
        page_header(t("reports.create_title", type=t(f"reports.type.{report_type}") if allowed else report_type),
                    t(f"reports.type_hint.{report_type}") if allowed else "",
                    back_link(console, "reports", "reports.back")),
        ReportForm(None, report_type, key=report_type) if allowed else
        card(html.p({"className": "mb-0", "data-state": "not-found"}, t("reports.unknown_type"))),
    )


@component
def ReportEditPage() -> Any:
    console = use_console()
    t = console.t
    report_id = int(use_params().get("id", 0))
    report = use_query(reports.get_report, actor=console.actor, report_id=report_id, deps=[report_id])
    if report.loading:
        return loading_page(t, t("reports.edit_title"))
    if report.value is None:
        return html.div(page_header(t("reports.edit_title"), "", back_link(console, "reports", "reports.back")),
                        card(html.p({"className": "mb-0", "data-state": "not-found"}, t("reports.not_found"))))
    kind = report.value.report_type
    return html.div(
        {"data-page": "report-edit"},
        page_header(t("reports.edit_title"),
                    html.span(html.i({"className": f"bi {TYPE_ICONS.get(kind, 'bi-table')} me-1"}),
                              t(f"reports.type.{kind}"), " · ", report.value.name),
                    back_link(console, "reports", "reports.back")),
        ReportForm(report.value, kind, key=str(report_id)),
    )
