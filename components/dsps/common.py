"""Pieces the DSP pages share: status badges, the back link, the not-found state, the tabs between one DSP's
pages (components/ui/entity_pages.py), the exchange picker's options and the last connection test's line."""

from __future__ import annotations

from typing import Any

from reactpy import html

from app.dsps.models import DspStatus
from components.ui.console import Console
from components.ui.entity_pages import EntityPages

DSPS = EntityPages(
    prefix="dsps", list_page="dsps", icon="bi-hdd-network",
    variants={DspStatus.ACTIVE: "success", DspStatus.INACTIVE: "secondary"},
    tabs=(("dsp.view", "dsps.tab_overview", "bi-eye"), ("dsp.edit", "dsps.tab_edit", "bi-pencil"),
          ("dsp.change_log", "dsps.tab_change_log", "bi-clock-history")))
status_badge, status_cell = DSPS.status_badge, DSPS.status_cell
back_to_list, not_found = DSPS.back_to_list, DSPS.not_found


def utc_minute(value: str | None) -> str:
    """An ISO time as "2026-11-25 14:03 UTC" (the other record pages' style); "—" for none."""
    return value[:16].replace("T", " ") + " UTC" if value else "—"


def test_result(console: Console, ok: bool | None, message: str, *, when: str | None = None) -> Any:
    """The outcome of a connection test, in a coloured line: ok, failed with the DSP's reason, or not tested."""
    t = console.t
    if ok is None:
        return html.span({"className": "text-body-secondary", "data-test-result": "none"}, t("dsps.not_tested"))
    icon, colour, label = ("bi-check-circle-fill", "success", t("dsps.test_ok")) if ok else \
        ("bi-x-circle-fill", "danger", t("dsps.test_failed"))
    return html.span({"className": f"text-{colour}", "data-test-result": "ok" if ok else "failed"},
                     html.i({"className": f"bi {icon} me-1"}), label, f" · {message}" if message else "",
                     html.span({"className": "text-body-secondary"}, f" · {utc_minute(when)}") if when else "")
