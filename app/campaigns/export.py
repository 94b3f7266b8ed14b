"""CSV export of the campaign list as the user sees it (same filters, same row scope), downloaded once from a
short-lived link made by the shared CSV exports (app/kernel/csv_exports.py: the file, the signed link, cells a
spreadsheet never runs as formulas).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlmodel import Session

from app.access.policy import Actor, require
from app.campaigns import service as campaigns
from app.campaigns.models import CampaignStatus
from app.kernel.csv_exports import ExportLink, export_link, write_export
from app.kernel.errors import Invalid
from app.kernel.i18n.catalog import Translator, translator
from app.kernel.model_base import utcnow

# Columns whose list values are keys the page shows translated: the catalog key of each value.
LABEL_KEYS = {"status": "campaigns.status.{}", "objective": "campaigns.objective.{}",
              "bid_strategy": "campaigns.strategy.{}", "traffic_type": "campaigns.traffic.{}"}
# The list page's switch column: on for an active campaign. Exported as a readable yes / no under its title.
SWITCH = "active"
SWITCH_TEXT = {True: "campaigns.export_on", False: "campaigns.export_off"}
EXPORT_COLUMNS = (*campaigns.LIST_COLUMNS, SWITCH)
_DAY_COLUMNS = {"starts_at": "starts_on", "ends_at": "ends_on"}
_TIME_COLUMNS = ("updated_at",)
_NUMBER_COLUMNS = ("id", "advertiser_id", "total_budget", "daily_budget", "bid")
_NATURAL = re.compile(r"(\d+)")


def _cells(row: dict[str, Any], columns: list[str], t: Translator) -> list[Any]:
    """A list row as a spreadsheet wants it: labels as the page shows them, money as numbers with cents, a
    flight's days as ISO dates in the campaign's time zone (its last day for the end), the last change as an ISO time (UTC)."""
    cells: list[Any] = []
    for column in columns:
        value = row["status"] == CampaignStatus.ACTIVE if column == SWITCH else row[column]
        if column == "status":
            value = row.get("shown_status", value)  # an ended flight is listed as ended, so it is exported so
        if column == SWITCH:
            value = t(SWITCH_TEXT[value])
        elif value is None:
            value = ""
        elif column in LABEL_KEYS:
            key = LABEL_KEYS[column].format(value)
            label = t(key)
            value = value if label == key else label  # a traffic type the admin added has no catalog words
        elif column in _DAY_COLUMNS:
            value = row[_DAY_COLUMNS[column]] or ""  # the first and last days in the campaign's time zone
        elif column in _TIME_COLUMNS:
            value = datetime.fromisoformat(value).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
        cells.append(value)
    return cells


def _matches(row: dict[str, Any], cells: list[Any], columns: list[str], terms: list[str]) -> bool:
    """The list grid's search: every term occurs in the row's shown text or raw values of the exported columns."""
    raw = (row.get(column) for column in columns)
    text = "\u0000".join([*map(str, cells), *("" if value is None else str(value) for value in raw)]).lower()
    return all(term in text for term in terms)


def _sort_key(column: str, cell: Any) -> Any:
    """The grid's order of a column: figures as numbers, dates by time, text as people read it ("Campaign 2"
    before "Campaign 10", case ignored)."""
    if column in _NUMBER_COLUMNS:
        return Decimal(str(cell))
    if column in _DAY_COLUMNS or column in _TIME_COLUMNS:
        return str(cell)
    return [int(part) if part.isdigit() else part for part in _NATURAL.split(str(cell).casefold())]


def _grid_order(rows: list[tuple[dict[str, Any], list[Any]]], sort: str, cell_of: Any) -> list[Any]:
    """Rows in the order the grid sorts them by `sort` ("-key" descending): empty values last either way, ties
    in the list's own order (newest change first), as the grid's stable sort keeps them. `cell_of(row,
    column)` is the column's value as exported."""
    column = sort.lstrip("-")
    if not column or column == SWITCH:  # the grid does not sort its switch column
        return rows
    keyed = [(cell_of(pair[0], column), pair) for pair in rows]
    filled = [(value, pair) for value, pair in keyed if value != ""]
    ordered = sorted(filled, key=lambda item: _sort_key(column, item[0]), reverse=sort.startswith("-"))
    return [pair for _value, pair in ordered] + [pair for value, pair in keyed if value == ""]


def export_campaigns(db: Session, *, actor: Actor, columns: list[str], status: str = "", search: str = "",
                     advertiser_id: int | None = None, include_archived: bool = False, sort: str = "",
                     headers: list[str] | None = None, language: str | None = None) -> ExportLink:
    """Write the campaign list as its page shows it to a CSV file; returns the link to it.

    The rows are those list_campaigns gives for these filters (the actor's scope, the status, one advertiser),
    with `columns` (list columns and the page's "active" switch; none: every list column) in that order.
    `search` keeps rows where each of its words occurs in some exported column, shown or raw, as the list's
    search box does; `sort` orders them as the grid does (one column, "-" first for descending; default: the
    newest change first). Values are written in `language` as the page shows them (see _cells); `headers`
    titles the columns (the page's translated labels; the column keys otherwise). The link works for 15
    minutes, for the exporting user only."""
    require(actor, "campaign", "view")
    chosen = list(columns or campaigns.LIST_COLUMNS)
    unknown = [column for column in chosen if column not in EXPORT_COLUMNS]
    if unknown:
        raise Invalid({"columns": f"Unknown columns: {', '.join(map(str, unknown))}. "
                                  f"Choose from: {', '.join(EXPORT_COLUMNS)}."})
    if headers is not None and len(headers) != len(chosen):
        raise Invalid({"headers": "Give one title per column."})
    if sort and sort.lstrip("-") not in EXPORT_COLUMNS:
        raise Invalid({"sort": f"Sort by one of: {', '.join(EXPORT_COLUMNS)} (a leading - for descending)."})
    t, terms = translator(language), search.lower().split()
    listed = [row.model_dump() for row in campaigns.list_campaigns(
        db, actor=actor, status=status, advertiser_id=advertiser_id, include_archived=include_archived)]
    shown = [(row, cells) for row in listed if _matches(row, cells := _cells(row, chosen, t), chosen, terms)]
    stored = write_export(headers if headers is not None else chosen,
                          (cells for _row, cells in _grid_order(shown, sort, lambda row, column: _cells(row, [column], t)[0])))
    return export_link(actor=actor, stored=stored, filename=f"Campaigns-{utcnow():%Y%m%d-%H%M%S}.csv")
