"""What inventory-list and smart-app-list pages share: the result of a batch of entries (counts and the refused
lines with their numbers and reasons), the entries editor (typed lines or a CSV uploaded over HTTP, to add,
replace or remove), the entries grid with its counts by kind, and the CSV export of the entries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.supply import app_entries
from app.supply.schemas import EntryBatchResult, InventoryListRead, SmartAppListRead
from components.ui import styles
from components.ui.console import Console, use_console
from components.ui.cursor_pages import use_cursor_pages
from components.ui.download import ServiceDownload
from components.ui.elements import card
from components.ui.forms import form, select_field
from components.ui.hooks import use_action
from components.widgets.datagrid import data_grid
from components.widgets.file_upload import file_upload

MODES = ("add", "replace", "remove")
ENTRIES_PAGE_SIZE = 100  # entries a grid page: the grid's 420 px show ~12 rows, the rest scroll
REFUSED_SHOWN = 200  # on the page; the API reply lists up to app_entries.REFUSED_SHOWN


def kind_badge(console: Console, kind: str) -> Any:
    return html.span({"className": "badge " + ("text-bg-success" if kind == "allow" else "text-bg-danger"),
                      "data-kind": kind}, console.t(f"applists.kind.{kind}"))


def result_panel(console: Console, result: EntryBatchResult | None, *, file_name: str = "") -> Any:
    """The outcome of a batch: what was added, the duplicates, and every refused line with its reason."""
    if not result:
        return ""
    t = console.t
    refused = result.refused
    figures = [("added", result.added, "success"), ("duplicates_in_batch", result.duplicates_in_batch, "secondary"),
               ("already_in_list", result.already_in_list, "secondary"),
               ("removed", result.removed, "warning"), ("refused", result.refused_count, "danger")]
    return html.div(
        {"className": "border rounded-3 p-3 mt-3 bg-body-tertiary", "data-result": "entries", "role": "status"},
        html.div({"className": "d-flex flex-wrap align-items-center gap-2 mb-2"},
                 html.i({"className": "bi bi-clipboard-check text-primary"}),
                 html.span({"className": "fw-semibold"},
                           t("applists.result_title", count=result.lines) + (f" · {file_name}" if file_name else "")),
                 html.span({"className": "small text-body-secondary ms-auto"},
                           t("applists.result_total", count=result.total))),
        html.div({"className": "d-flex flex-wrap gap-2"},
                 *[html.span({"key": key, "className": f"badge rounded-pill text-bg-{variant} fw-normal px-3 py-2",
                              "data-count": key}, t(f"applists.result.{key}", count=value))
                   for key, value, variant in figures if value or key in ("added", "refused")]),
        html.div({"className": "table-responsive mt-3", "style": {"maxHeight": "16rem"}},
                 html.table({"className": "table table-sm small mb-0", "data-refused": str(result.refused_count)},
                            html.thead(html.tr(html.th({"style": {"width": "5rem"}}, t("applists.line")),
                                               html.th(t("applists.entry")), html.th(t("applists.reason")))),
                            html.tbody(*[html.tr({"key": f"{r.line}-{r.text}", "data-line": str(r.line)},
                                                 html.td(str(r.line)), html.td(html.code(r.text)),
                                                 html.td(t(r.reason)))
                                         for r in refused[:REFUSED_SHOWN]])),
                 html.p({"className": "small text-body-secondary mt-2 mb-0"},
                        t("applists.more_refused", count=result.refused_count - min(len(refused), REFUSED_SHOWN)))
                 if result.refused_count > REFUSED_SHOWN else "") if refused else "",
    )


@component
def EntriesEditor(list_id: int, change: Callable[..., Any], id_kw: str, upload_url: str, upload_field: str,
                  on_changed: Callable[[], None]) -> Any:
    """Typed lines or an uploaded CSV, added to the list, replacing its entries, or removed from it."""
    console = use_console()
    t = console.t
    mode, set_mode = use_state("add")
    no_outcome: tuple[EntryBatchResult, str] | None = None
    outcome, set_outcome = use_state(no_outcome)  # (result, file name)
    upload_error, set_upload_error = use_state("")
    version, set_version = use_state(0)  # a new text area after a successful apply

    def done(result: EntryBatchResult) -> None:
        set_outcome((result, ""))
        set_version(lambda v: v + 1)
        console.toast("success", t("applists.applied", added=result.added, removed=result.removed,
                                   refused=result.refused_count))
        on_changed()

    apply = use_action(change, on_done=done)

    def submit(values: dict[str, Any]) -> None:
        apply.submit(actor=console.actor, **{id_kw: list_id}, text=str(values.get("entries") or ""),
                     mode=str(values.get("mode") or mode))

    def uploaded(data: dict[str, Any]) -> None:  # the upload route's JSON reply (EntriesUploaded)
        set_upload_error("")
        result = EntryBatchResult.model_validate(data["result"])
        set_outcome((result, data.get("filename") or ""))
        console.toast("success", t("applists.uploaded", added=result.added, refused=result.refused_count))
        on_changed()

    error = apply.errors.get("entries") or apply.errors.get("mode")
    return card(
        form(submit,
             html.div({"className": "row g-3 align-items-end"},
                      html.div({"className": "col-md-4"},
                               select_field(name="mode", label=t("applists.mode"), value=mode, on_change=set_mode,
                                            options=[(m, t(f"applists.mode.{m}")) for m in MODES], class_name="")),
                      html.div({"className": "col-md-8 small text-body-secondary"}, t(f"applists.mode_help.{mode}"))),
             html.div({"className": "mt-3"},
                      html.label({"className": styles.FORM_LABEL, "htmlFor": "field-entries"}, t("applists.entries")),
                      html.textarea({"id": "field-entries", "name": "entries", "rows": 6, "key": f"entries-{version}",
                                     "className": "form-control font-monospace small" + (" is-invalid" if error else ""),
                                     "placeholder": "com.example.app\nid389801252\nexample.com", "defaultValue": ""}),
                      html.div({"className": "invalid-feedback", "data-field-error": "entries"}, error) if error else
                      html.div({"className": "form-text"}, t("applists.entries_help"))),
             html.div({"className": "d-flex flex-wrap align-items-center gap-2 mt-3"},
                      html.button({"type": "submit", "className": "btn btn-primary btn-sm", "data-action": "apply-entries",
                                   "disabled": apply.pending},
                                  html.span({"className": "spinner-border spinner-border-sm me-1"}) if apply.pending else
                                  html.i({"className": "bi bi-check2 me-1"}), t("applists.apply")),
                      html.span({"className": "text-body-secondary small px-1"}, t("applists.or")),
                      file_upload(name="entries_csv", url=upload_url, label=t("applists.upload_csv"),
                                  busy_label=t("applists.uploading"), accept=".csv,.txt,text/csv,text/plain",
                                  fields={upload_field: list_id, "mode": mode}, on_uploaded=uploaded,
                                  on_error=lambda message: (set_upload_error(t(message)), set_outcome(None))),
                      html.span({"className": "small text-body-secondary"}, t("applists.upload_help")))),
        html.div({"className": "alert alert-danger py-2 small mt-3 mb-0", "role": "alert", "data-upload-error": ""},
                 upload_error) if upload_error else "",
        result_panel(console, outcome[0], file_name=outcome[1]) if outcome else "",
        title=t("applists.change_entries"))


@component
def EntriesGrid(list_id: int, read: Callable[..., Any], id_kw: str, version: int) -> Any:
    """The entries in the JS grid a page at a time (`read`: the kind's entries_page), searched on the server: a
    list holds up to 500,000 entries, which a page must not read or send whole. In its own component so the
    page's state never resends it."""
    console = use_console()
    t = console.t
    search, set_search = use_state("")
    pages = use_cursor_pages(read, filters=[list_id, version, search], page_size=ENTRIES_PAGE_SIZE,
                             actor=console.actor, search=search, **{id_kw: list_id})
    shown = [{"value": r.value, "kind": t(f"applists.entry_kind.{r.kind}")} for r in pages.items]
    return data_grid(columns=[{"key": "value", "label": t("applists.entry"), "width": 420, "sortable": False},
                              {"key": "kind", "label": t("applists.col.entry_kind"), "width": 140,
                               "sortable": False}],
                     rows=shown, row_key="value", height=420, search_placeholder=t("applists.search_entries"),
                     empty_text=t("applists.no_entries"), row_count_label=t("grid.rows"), more_label=t("grid.more"),
                     locale=console.language, loading_text=t("common.loading") if pages.query.loading else None,
                     on_view_change=lambda view: set_search(view.query.strip()), paging=pages.paging)


@component
def ExportEntriesButton(list_id: int, export: Callable[..., Any], id_kw: str) -> Any:
    """The entries as CSV through the download helper and its toasts (spec section 8)."""
    t = use_console().t
    return ServiceDownload(export, {id_kw: list_id}, t("applists.export_file"), t("applists.export"), "export",
                           class_name="btn btn-light border btn-sm")


def counts_facts(console: Console, row: InventoryListRead | SmartAppListRead) -> list[tuple[str, Any]]:
    t = console.t
    return [(t("applists.col.entries"), html.span({"data-total": str(row.entries)}, f"{row.entries:,}")),
            (t("applists.col.apps"), html.span({"data-apps": str(row.apps)}, f"{row.apps:,}")),
            (t("applists.col.domains"), html.span({"data-domains": str(row.domains)}, f"{row.domains:,}"))]


MAX_UPLOAD_TEXT = f"{app_entries.MAX_UPLOAD_BYTES // (1024 * 1024)} MB"
