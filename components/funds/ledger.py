"""An advertiser's ledger as the funds pages show it (/funds and the payment lists): a day's delivery charges in
one row per campaign (app/funds/ledger.py grouped_ledger); a click on it opens its hours.

The grid and the hours dialog are sibling components: opening a day re-renders the dialog only, never the grid
and its rows (a ref hands the dialog's setter to the grid's click)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any

from reactpy import component, html, use_ref, use_state

from app.funds import ledger
from app.funds.footing import exact
from app.funds.ledger import LedgerRow
from app.funds.schemas import LedgerDeliveryRow, LedgerHour
from app.kernel.i18n.formatters import money
from components.funds.common import grid_height
from components.ui.console import Console, use_console
from components.ui.cursor_pages import use_cursor_pages
from components.ui.elements import card
from components.ui.links import app_link
from components.widgets.datagrid import GridAction, GridColumn, GridPaging, data_grid

# Credits green, charges muted, adjustments by their sign.
KIND_VARIANTS = {"deposit": "success", "refund": "info", "delivery": "secondary", "spend": "secondary",
                 "margin": "warning"}
SHOW_HOURS = "hours"


def ledger_columns(console: Console, *, show_by: bool) -> list[GridColumn]:
    t = console.t
    # Widths fit the grid and its hours button in a 1440-pixel window, with the "entered by" column too (the
    # payment lists): about 1,010 pixels of columns.
    # Not sortable: a statement reads newest first, each balance the one below it plus its amount.
    by: list[GridColumn] = [{"key": "by", "label": t("payments.by"), "width": 130, "sortable": False}] if show_by else []
    return [{"key": "date", "label": t("payments.date"), "type": "date", "width": 185, "sortable": False},
            {"key": "kind", "label": t("payments.kind"), "type": "badge", "width": 105, "sortable": False},
            {"key": "campaign", "label": t("ledger.campaign"), "width": 160 if show_by else 180, "sortable": False},
            {"key": "note", "label": t("payments.note"), "width": 170 if show_by else 280, "sortable": False},
            *by,
            {"key": "amount", "label": t("payments.amount"), "type": "money", "width": 120, "sortable": False},
            {"key": "balance", "label": t("payments.balance"), "type": "money", "width": 140, "sortable": False}]


def _note(console: Console, row: LedgerRow) -> str:
    """A delivery day in words: how many hourly charges, and media and margin when a margin was charged."""
    if not isinstance(row, LedgerDeliveryRow):
        return row.note
    hours = len(row.hours)
    if Decimal(row.margin) == 0:
        return console.t("ledger.delivery_note", count=hours)
    language = console.language
    return console.t("ledger.delivery_note_margin", count=hours,
                     spend=money(-Decimal(row.spend), language=language),
                     margin=money(-Decimal(row.margin), language=language))


def campaign_label(console: Console, row: LedgerRow) -> str:
    """The campaign a delivery row paid for; charges without one say so (money in and out has none)."""
    if not isinstance(row, LedgerDeliveryRow):
        return ""
    return row.campaign if row.campaign else console.t("ledger.no_campaign")


def grid_rows(console: Console, rows: list[LedgerRow]) -> list[dict[str, Any]]:
    """The grid's rows: kinds as badges, a delivery row's campaign and totals in words; its hours stay on the
    server."""
    def variant(row: LedgerRow) -> str:
        return KIND_VARIANTS.get(row.kind, "danger" if row.amount.startswith("-") else "primary")
    return [{**row.model_dump(exclude={"hours"}), "note": _note(console, row),
             "campaign": campaign_label(console, row),
             "kind": {"text": console.t(f"ledger.{row.kind}"), "variant": variant(row)},
             SHOW_HOURS: isinstance(row, LedgerDeliveryRow) and bool(row.hours)} for row in rows]


def _hour_label(iso: str) -> str:
    start = datetime.fromisoformat(iso)
    return f"{start:%H:%M}–{(start.hour + 1) % 24:02d}:00"


def _hours_table(console: Console, day: LedgerDeliveryRow) -> Any:
    t, language = console.t, console.language
    cells = ("hour", "spend", "margin", "amount", "balance")
    labels = (t("ledger.col.hour"), t("ledger.spend"), t("ledger.margin"), t("payments.amount"),
              t("payments.balance"))
    return html.table(
        {"className": "table table-sm align-middle mb-0 small"},
        html.thead(html.tr(*[html.th({"key": c, "className": "" if c == "hour" else "text-end"}, label)
                             for c, label in zip(cells, labels, strict=True)])),
        html.tbody(*[html.tr({"key": hour.hour}, html.td(_hour_label(hour.hour)), *_figures(hour, cells[1:], language))
                     for hour in day.hours]),
        html.tfoot(html.tr({"className": "fw-semibold"}, html.td(_note(console, day)),
                           *_figures(day, cells[1:], language))))


def _figures(line: LedgerDeliveryRow | LedgerHour, cells: tuple[str, ...], language: str) -> list[Any]:
    """A line's figures as cells: shown to the cent so that they foot (app/funds/footing.py), each exact to the
    micro-dollar in its tooltip."""
    return [html.td({"key": c, "className": "text-end", "title": exact(getattr(line, f"{c}_micros"))},
                    money(getattr(line, c), language=language)) for c in cells]


@component
def HoursDialog(days: dict[str, LedgerDeliveryRow], opener: Any) -> Any:
    """The hours of the delivery row (a campaign's day) last clicked, in a dialog (a grid row may be far down a
    long page); the campaign's name links to its page."""
    console = use_console()
    t = console.t
    shown, set_shown = use_state("")  # the row's id: one campaign's charges on one day
    opener.current = set_shown
    day = days.get(shown)
    if day is None:
        return html.p({"className": "small text-body-secondary mt-2 mb-0"}, t("ledger.hours_hint")) if days else ""
    title = t("ledger.hours_title", day=day.date)  # YYYY-MM-DD reads the same in every language
    campaign = campaign_label(console, day)
    path = console.path("campaign.view", id=day.campaign_id) if day.campaign_id else None
    return html.div(
        html.div({"className": "modal-backdrop fade show"}),
        html.div({"className": "modal fade show d-block", "role": "dialog", "aria-modal": "true", "aria-label": title,
                  "tabIndex": -1, "data-ledger-hours": day.date},
                 html.div({"className": "modal-dialog modal-lg modal-dialog-centered modal-dialog-scrollable"},
                          html.div({"className": "modal-content border-0 shadow"},
                                   html.div({"className": "modal-header"},
                                            html.div(html.h2({"className": "modal-title h5 mb-1"}, title),
                                                     html.div({"className": "small", "data-ledger-campaign": campaign},
                                                              html.i({"className": "bi bi-megaphone me-1",
                                                                      "aria-hidden": "true"}),
                                                              app_link({"to": path}, campaign) if path else campaign)),
                                            html.button({"type": "button", "className": "btn-close",
                                                         "aria-label": t("common.close"),
                                                         "onClick": lambda _e: set_shown("")})),
                                   html.div({"className": "modal-body"}, _hours_table(console, day))))),
    )


@component
def LedgerGrid(rows: list[LedgerRow], show_by: bool, open_day: Callable[[str], None], paging: GridPaging,
               loading: bool, set_search: Callable[[str], None]) -> Any:
    console = use_console()
    t = console.t
    actions: list[GridAction] = [{"id": SHOW_HOURS, "label": t("ledger.show_hours"), "icon": "bi-clock-history",
                                  "when": SHOW_HOURS}]
    return data_grid(columns=ledger_columns(console, show_by=show_by), rows=grid_rows(console, rows),
                     height=grid_height(len(rows)), actions=actions, paging=paging,
                     on_action=lambda _action, key: open_day(str(key)), on_row_click=lambda key: open_day(str(key)),
                     empty_text=t("payments.empty"), row_count_label=t("grid.rows"), locale=console.language,
                     loading_text=t("common.loading") if loading else None, search_placeholder=t("common.search"),
                     on_view_change=lambda view: set_search(view.query.strip()))


PAGE_SIZE = 50


@component
def LedgerCard(advertiser_id: int, title: str = "", show_by: bool = False) -> Any:
    """An advertiser's statement a page at a time (ledger.grouped_ledger_page, newest first; searched on the
    server, as the whole statement is not in the browser), its days' hours a click away. In its own component so
    a search or a page never renders the page around it again."""
    console = use_console()
    search, set_search = use_state("")
    pages = use_cursor_pages(ledger.grouped_ledger_page, filters=[advertiser_id, search], page_size=PAGE_SIZE,
                             actor=console.actor, advertiser_id=advertiser_id, search=search)
    rows: list[LedgerRow] = pages.items
    opener = use_ref(None)

    def open_day(key: str) -> None:
        if opener.current is not None:
            opener.current(key)

    days = {row.id: row for row in rows if isinstance(row, LedgerDeliveryRow) and row.hours}
    return card(LedgerGrid(rows, show_by, open_day, pages.paging, pages.query.value is None, set_search),
                HoursDialog(days, opener), title=title)
