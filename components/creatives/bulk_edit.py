"""/creative/bulk-creative-edit (the advertiser's click and tracking URLs on many creatives at once) and the
admin's /admin/bulk-creative-status: one result per creative, applied or refused with its reason (a creative saved
since the grid showed it, among them: Apply names each row's version, components/ui/bulk.py)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.creatives import service as creatives
from app.creatives.models import CreativeStatus
from app.creatives.schemas import BulkChanges, CreativeRow
from components.creatives.common import as_json, back_to_list
from components.creatives.creative_list import grid_rows
from components.ui.bulk import bulk_page
from components.ui.console import Console, use_console
from components.ui.field_store import FieldStore, StoreSelect, StoreText
from components.ui.grid_host import ColumnSpec, declared_columns
from components.widgets.datagrid import GridColumn

# The URL fields a bulk edit may set (the service refuses a field the creative's type does not have).
URL_FIELDS = (("click_url", "creatives.field.click_url"), ("pixel_urls", "creatives.field.pixel_urls"),
              ("impression_urls", "creatives.field.impression_urls"))
# The shared bulk page (components/ui/bulk.py) reads the results as JSON, like its grid.
BULK_UPDATE, BULK_STATUS = (as_json(service) for service in (creatives.bulk_update, creatives.bulk_status))


def _columns(console: Console) -> list[GridColumn]:
    t = console.t
    keys: tuple[ColumnSpec, ...] = (("name", "text", 220, False), ("type", "text", 95, False),
                                    ("status", "badge", 95, False), ("size", "text", 120, False),
                                    ("click_url", "text", 220, False))
    return declared_columns(lambda key: t(f"creatives.col.{key}"), keys)


def _grid_rows(console: Console, rows: list[CreativeRow]) -> list[dict[str, Any]]:
    return grid_rows(console, [row.model_dump() for row in rows])


def _url_fields(store: FieldStore, errors: dict[str, str]) -> Any:
    t = use_console().t
    return html.div(
        html.p({"className": "small text-body-secondary"}, t("creatives.bulk_help")),
        *[StoreText(store, name, t(label), error=errors.get(name), key=name,
                    help_text=t("creatives.url_list_help") if name != "click_url" else "")
          for name, label in URL_FIELDS],
        html.div({"className": "invalid-feedback d-block mb-2", "data-field-error": "changes"}, errors["changes"])
        if errors.get("changes") else "")


def _apply_urls(console: Console, store: FieldStore, ids: list[int], submit: Any) -> None:
    values = store.snapshot()
    changes = {name: values[name] for name, _label in URL_FIELDS if str(values.get(name) or "").strip()}
    submit(actor=console.actor, creative_ids=ids, changes=BulkChanges(**changes), language=console.language)


def _status_fields(store: FieldStore, errors: dict[str, str]) -> Any:
    t = use_console().t
    return StoreSelect(store, "status", t("campaigns.filter_status"),
                       [(s.value, t(f"creatives.status.{s.value}")) for s in CreativeStatus],
                       error=errors.get("status"), key="status")


def _apply_status(console: Console, store: FieldStore, ids: list[int], submit: Any) -> None:
    submit(actor=console.actor, creative_ids=ids, status=str(store.get("status") or ""), language=console.language)


def _creative_bulk_page(title_key: str, subtitle_key: str, fields: Any, apply: Any, action_fn: Any,
                        initial: dict[str, Any]) -> Any:
    console = use_console()
    return bulk_page(title_key, subtitle_key, "campaigns.bulk_changes", fields, apply, action_fn, initial,
                     read=creatives.list_creatives_page, sorts=creatives.LIST_SORTS, columns=_columns(console),
                     to_rows=_grid_rows,
                     back=back_to_list(console), versioned=True)


@component
def BulkCreativeEditPage() -> Any:
    return _creative_bulk_page("creatives.bulk_edit_title", "creatives.bulk_edit_subtitle", _url_fields, _apply_urls,
                               BULK_UPDATE, {})


@component
def BulkCreativeStatusPage() -> Any:
    return _creative_bulk_page("creatives.bulk_status_title", "creatives.bulk_status_subtitle", _status_fields,
                               _apply_status, BULK_STATUS, {"status": CreativeStatus.PAUSED.value})

