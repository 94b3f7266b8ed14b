"""/admin/metadata (ADMIN and CO-ADMIN): the reference lists the campaign pickers offer. Add, rename,
retire and restore values; delete only the ones nothing uses. OS versions name their operating system and
carriers their country (metadata.DETAILS), chosen beside the name when adding or editing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_memo, use_state

from app.reference import geo, metadata
from app.reference.metadata import DETAILS, NAME_MAX_LENGTH
from app.reference.models import REFERENCE_KINDS
from components.ui import styles
from components.ui.confirm import ConfirmDialog
from components.ui.console import use_console
from components.ui.elements import empty_state, page_header, spinner
from components.ui.forms import form, selected_value
from components.ui.hooks import use_action, use_query

KIND_ICONS: dict[str, str] = {
    "exchange": "bi-diagram-3",
    "operating_system": "bi-laptop",
    "os_version": "bi-phone",
    "browser": "bi-globe2",
    "manufacturer": "bi-cpu",
    "carrier": "bi-broadcast-pin",
    "traffic_type": "bi-signpost-split",
}
_ACTIVE_ITEM = {"background": "color-mix(in srgb, var(--dsp-primary) 10%, transparent)",
                "color": "var(--dsp-primary)", "fontWeight": 600}
_ACTIVE_BADGE = {"background": "var(--dsp-primary)", "color": "var(--dsp-on-primary)"}
_ROW_ACTION = "btn btn-sm btn-outline-secondary text-nowrap"
# The column heading and the "none" choice of each detail (metadata.DETAILS).
DETAIL_LABELS: dict[str, tuple[str, str]] = {"parent_id": ("metadata.col.operating_system", "metadata.no_system"),
                                             "country": ("metadata.col.country", "metadata.no_country")}


def use_detail_options(kind: str) -> list[tuple[str, str]]:
    """The choices of a kind's detail as (value, text): the active operating systems for OS versions, every
    ISO country for carriers; none for kinds without a detail."""
    console = use_console()
    detail = DETAILS.get(kind)
    systems = use_query(metadata.active_values, actor=console.actor, kind="operating_system", deps=[kind])
    countries = use_memo(lambda: geo.countries(actor=console.actor, language=console.language)
                         if detail == "country" and console.actor is not None else [], [detail, console.language])
    if detail == "parent_id":
        return [(str(r.id), r.name) for r in systems.value or []]
    return [(c.code, c.name) for c in countries]


def _detail_select(*, kind: str, value: str, options: list[tuple[str, str]], on_change: Callable[[str], None],
                   error: str | None, t: Callable[..., str], key: str) -> Any:
    """The detail's <select> inside the name's input group. Its options carry `data-field` so the submit event
    says which one is chosen (components/ui/forms.submitted_values)."""
    detail = DETAILS.get(kind)
    if detail is None:
        return ""
    label, none = DETAIL_LABELS[detail]
    choices = [("", t(none)), *options]
    return html.select(
        {"key": f"{key}-{detail}", "name": detail, "value": value, "aria-label": t(label),
         "className": "form-select flex-grow-0 w-auto" + (" is-invalid" if error else ""), "style": {"maxWidth": "14rem"},
         "data-detail": detail, "onChange": lambda e: on_change(selected_value(e))},
        *[html.option({"value": option, "key": option or "none", "data-field": detail}, text) for option, text in choices])


def _detail_args(kind: str, values: dict[str, Any]) -> dict[str, Any]:
    """The service's keyword for the submitted detail: parent_id as an id (or None), country as its code."""
    detail = DETAILS.get(kind)
    raw = str(values.get(detail, "") or "") if detail else ""
    if detail == "parent_id":
        return {"parent_id": int(raw) if raw.isdigit() else None}
    if detail == "country":
        return {"country": raw or None}
    return {}


def _name_form(*, name: str, value: str, on_change: Callable[[str], None], on_submit: Callable[[dict[str, Any]], Any],
               button: Any, error: str | None, label: str, placeholder: str = "", extra: Any = "",
               on_escape: Callable[[], None] | None = None, autofocus: bool = False, key: str = "",
               detail: Any = "", detail_values: dict[str, Any] | None = None) -> Any:
    """One text input (and the kind's detail select, if any) with its button(s); the field error shows under
    the input. `key` gives each list (or row) its own input element, so switching lists never carries typed
    text over. `on_submit` receives the submitted values: the name and the detail."""
    def key_down(e: dict[str, Any]) -> None:
        if on_escape and e.get("key") == "Escape":
            on_escape()

    attrs: dict[str, Any] = {
        "key": key or name, "name": "name", "type": "text", "value": value, "maxLength": NAME_MAX_LENGTH, "autoComplete": "off",
        "placeholder": placeholder, "aria-label": label, "aria-invalid": "true" if error else "false",
        "className": "form-control" + (" is-invalid" if error else ""),
        "onChange": lambda e: on_change(e["target"]["value"]), "onKeyDown": key_down,
    }
    if autofocus:
        attrs["autoFocus"] = True
    return form(
        on_submit,
        html.div({"className": "input-group has-validation"}, html.input(attrs), detail, button, extra,
                 html.div({"className": "invalid-feedback", "data-field-error": "name"}, error) if error else ""),
        name=name, values={**(detail_values or {}), "name": value},
    )


@component
def AddValueForm(kind: str, on_added: Callable[[], None]) -> Any:
    console = use_console()
    t = console.t
    text, set_text = use_state("")
    chosen, set_chosen = use_state("")  # the detail: an operating system's id or a country code
    options = use_detail_options(kind)
    detail = DETAILS.get(kind)

    def done(row: dict[str, Any]) -> None:
        set_text("")
        console.toast("success", t("metadata.added", name=row["name"]))
        on_added()

    add = use_action(metadata.add_value, on_done=lambda row: done(row.model_dump()))
    button = html.button({"type": "submit", "className": "btn btn-primary px-3", "disabled": add.pending},
                         html.i({"className": "bi bi-plus-lg me-1"}), t("metadata.add"))
    detail_error = add.errors.get(detail) if detail else None
    return html.div({"className": "mb-4"},
                    _name_form(name="add-value", value=text, on_change=set_text, button=button,
                               on_submit=lambda values: add.submit(actor=console.actor, kind=kind, name=values["name"],
                                                                   **_detail_args(kind, values)),
                               key=f"add-{kind}", error=add.errors.get("name") or add.errors.get("kind") or detail_error,
                               label=t("metadata.add_label"), placeholder=t("metadata.add_placeholder"),
                               detail=_detail_select(kind=kind, value=chosen, options=options, on_change=set_chosen,
                                                     error=detail_error, t=t, key=f"add-{kind}"),
                               detail_values={detail: chosen} if detail else None))


@component
def RenameForm(row: dict[str, Any], on_saved: Callable[[], None], on_cancel: Callable[[], None]) -> Any:
    """Mounted only while a row is being edited, so a cancelled attempt leaves no stale error behind. Saves the
    name and, for OS versions and carriers, the operating system or country together."""
    console = use_console()
    t = console.t
    kind = row["kind"]
    detail = DETAILS.get(kind)
    text, set_text = use_state(row["name"])
    chosen, set_chosen = use_state(str(row.get(detail) or "") if detail else "")
    options = use_detail_options(kind)
    if detail == "parent_id" and chosen and chosen not in {value for value, _ in options}:
        options = [(chosen, row.get("parent") or chosen), *options]  # its current system, even if retired since

    def done(saved: dict[str, Any]) -> None:
        if saved["name"] != row["name"]:
            console.toast("success", t("metadata.renamed", name=saved["name"]))
        elif detail and saved.get(detail) != row.get(detail):
            console.toast("success", t("metadata.saved", name=saved["name"]))
        on_saved()

    rename = use_action(metadata.edit_value, on_done=lambda saved: done(saved.model_dump()))
    detail_error = rename.errors.get(detail) if detail else None
    save = html.button({"type": "submit", "className": "btn btn-primary", "disabled": rename.pending,
                        "title": t("metadata.save"), "aria-label": t("metadata.save")},
                       html.i({"className": "bi bi-check2"}))
    cancel = html.button({"type": "button", "className": "btn btn-outline-secondary", "title": t("common.cancel"),
                          "aria-label": t("common.cancel"), "onClick": lambda _e: on_cancel()},
                         html.i({"className": "bi bi-x-lg"}))
    return _name_form(name="rename-value", value=text, on_change=set_text, button=save, extra=cancel,
                      on_submit=lambda values: rename.submit(actor=console.actor, value_id=row["id"],
                                                             name=values["name"], **_detail_args(kind, values)),
                      error=rename.errors.get("name") or detail_error, label=t("metadata.rename_label", name=row["name"]),
                      on_escape=on_cancel, autofocus=True, key=f"rename-{row['id']}",
                      detail=_detail_select(kind=kind, value=chosen, options=options, on_change=set_chosen,
                                            error=detail_error, t=t, key=f"rename-{row['id']}"),
                      detail_values={detail: chosen} if detail else None)


def _status_badge(t: Callable[..., str], retired: bool) -> Any:
    if retired:
        return html.span({"className": "badge rounded-pill text-bg-light border text-body-secondary",
                          "data-status": "retired"}, html.i({"className": "bi bi-archive me-1"}),
                         t("metadata.status.retired"))
    return html.span({"className": "badge rounded-pill bg-success-subtle text-success-emphasis", "data-status": "active"},
                     html.i({"className": "bi bi-check-circle me-1"}), t("metadata.status.active"))


def _usage(t: Callable[..., str], used: int) -> Any:
    if not used:
        return html.span({"className": "text-body-secondary small", "data-used": "0"}, t("metadata.unused"))
    return html.span({"className": "badge rounded-pill bg-primary-subtle text-primary-emphasis", "data-used": str(used),
                      "title": t("metadata.in_use_hint")},
                     html.i({"className": "bi bi-link-45deg me-1"}), t("metadata.used_by", count=used))


@component
def _detail_cell(row: dict[str, Any], country_names: dict[str, str]) -> Any:
    detail = DETAILS.get(row["kind"])
    if detail is None:
        return ""
    shown = row.get("parent") if detail == "parent_id" else country_names.get(row.get("country") or "", "")
    return html.td({"className": "text-nowrap", "data-detail": detail}, shown or html.span(
        {"className": "text-body-secondary"}, "—"))


@component
def ValueRow(row: dict[str, Any], on_changed: Callable[[], None], ask_delete: Callable[[dict[str, Any]], None],
             country_names: dict[str, str] | None = None) -> Any:
    console = use_console()
    t = console.t
    editing, set_editing = use_state(False)

    def toggled(saved: dict[str, Any]) -> None:
        key = "metadata.retired_done" if saved["retired"] else "metadata.restored"
        console.toast("success", t(key, name=saved["name"]))
        on_changed()

    toggle = use_action(metadata.set_retired, on_done=lambda saved: toggled(saved.model_dump()))
    retired = bool(row["retired"])

    def saved() -> None:
        set_editing(False)
        on_changed()

    name_cell: Any
    if editing:
        name_cell = RenameForm(row, saved, lambda: set_editing(False))
    else:
        name_cell = html.span({"className": "fw-medium" + (" text-body-secondary text-decoration-line-through"
                                                           if retired else "")}, row["name"])
    actions = html.div(
        {"className": "d-flex justify-content-end gap-1 flex-nowrap"},
        "" if editing else html.button(
            {"type": "button", "className": _ROW_ACTION, "data-action": "rename", "onClick": lambda _e: set_editing(True)},
            html.i({"className": "bi bi-pencil me-1"}), t("metadata.edit" if row["kind"] in DETAILS else "metadata.rename")),
        html.button(
            {"type": "button", "className": _ROW_ACTION, "disabled": toggle.pending,
             "data-action": "restore" if retired else "retire",
             "onClick": lambda _e: toggle.submit(actor=console.actor, value_id=row["id"], retired=not retired)},
            html.i({"className": "bi " + ("bi-arrow-counterclockwise" if retired else "bi-archive") + " me-1"}),
            t("metadata.restore" if retired else "metadata.retire")),
        html.span(  # in use: a lock in the delete button's place keeps the rows aligned and says why
            {"className": "btn btn-sm text-body-secondary", "role": "img", "data-action": "delete-locked",
             "title": t("metadata.in_use_hint"), "aria-label": t("metadata.in_use_hint")},
            html.i({"className": "bi bi-lock"})) if row["used"] else html.button(
            {"type": "button", "className": "btn btn-sm btn-outline-danger", "data-action": "delete",
             "title": t("metadata.delete"), "aria-label": t("metadata.delete"), "onClick": lambda _e: ask_delete(row)},
            html.i({"className": "bi bi-trash"})),
    )
    return html.tr(
        {"data-value": row["name"], "data-retired": "true" if retired else "false"},
        html.td({"className": "ps-3", "style": {"minWidth": "14rem"}, "colSpan": 2 if editing and
                 row["kind"] in DETAILS else 1}, name_cell),
        "" if editing else _detail_cell(row, country_names or {}),
        html.td(_status_badge(t, retired)),
        html.td(_usage(t, int(row["used"]))),
        html.td({"className": "text-body-secondary small text-nowrap"}, row["updated"][:10]),
        html.td({"className": "pe-3", "style": {"width": "1%"}}, actions),  # as wide as its buttons, no wider
    )


def _empty_state(t: Callable[..., str]) -> Any:
    return empty_state("bi-inbox", t("metadata.empty_title"), t("metadata.empty_text"), marker={"data-empty": "true"})


@component
def KindPanel(kind: str, version: int, on_changed: Callable[[], None]) -> Any:
    console = use_console()
    t = console.t
    query = use_query(metadata.list_values, actor=console.actor, kind=kind, deps=[kind, version])
    rows = [r.model_dump() for r in query.value] if query.value is not None else None
    doomed, set_doomed = use_state(None)  # the row waiting for delete confirmation

    def deleted(gone: dict[str, Any]) -> None:
        console.toast("success", t("metadata.deleted", name=gone["name"]))
        on_changed()

    remove = use_action(metadata.delete_value, on_done=lambda gone: deleted(gone.model_dump()))

    def confirm() -> None:
        if doomed is not None:
            set_doomed(None)
            remove.submit(actor=console.actor, value_id=doomed["id"])

    ordered = rows or []  # by name: a row stays in place when it is retired or restored
    detail = DETAILS.get(kind)
    country_names = use_memo(lambda: {c.code: c.name for c in geo.countries(actor=console.actor,
                                                                            language=console.language)}
                             if detail == "country" and console.actor is not None else {},
                             [detail, console.language])
    active = sum(1 for r in ordered if not r["retired"])
    header = html.div(
        {"className": "card-header bg-transparent d-flex flex-wrap align-items-center justify-content-between gap-2"},
        html.div({"className": "d-flex align-items-center gap-2"},
                 html.i({"className": f"bi {KIND_ICONS[kind]} text-primary"}),
                 html.h2({"className": "h6 mb-0 fw-semibold"}, t(REFERENCE_KINDS[kind]))),
        html.span({"className": "small text-body-secondary", "data-summary": kind},
                  t("metadata.summary", active=active, retired=len(ordered) - active)),
    )
    if rows is None and query.loading:  # after a write the old rows stay until the new ones are in
        body: Any = spinner(t("common.loading"))
    elif not ordered:
        body = _empty_state(t)
    else:
        body = html.div(
            {"className": "table-responsive border rounded-3"},
            html.table(
                {"className": "table table-hover align-middle mb-0"},
                html.thead({"className": "table-light"},
                           html.tr(html.th({"className": "ps-3 small fw-semibold"}, t("metadata.col.name")),
                                   html.th({"className": "small fw-semibold"}, t(DETAIL_LABELS[detail][0]))
                                   if detail else "",
                                   html.th({"className": "small fw-semibold"}, t("metadata.col.status")),
                                   html.th({"className": "small fw-semibold"}, t("metadata.col.usage")),
                                   html.th({"className": "small fw-semibold"}, t("metadata.col.updated")),
                                   html.th({"className": "pe-3 small fw-semibold text-end"}, t("metadata.col.actions")))),
                html.tbody(*[ValueRow(row, on_changed, set_doomed, country_names, key=str(row["id"])) for row in ordered]),
            ),
        )
    return html.div(
        {"className": styles.CARD, "data-kind-panel": kind},
        header,
        html.div({"className": styles.CARD_BODY},
                 AddValueForm(kind, on_changed, key=f"add-{kind}"),
                 body,
                 html.p({"className": "small text-body-secondary mt-3 mb-0"},
                        html.i({"className": "bi bi-info-circle me-1"}), t("metadata.retire_hint"))),
        ConfirmDialog(t("metadata.confirm_delete_title"), t("metadata.confirm_delete", name=doomed["name"]),
                      t("metadata.delete"), t("common.cancel"), confirm, lambda: set_doomed(None))
        if doomed else "",
    )


def _kind_nav(t: Callable[..., str], current: str, counts: dict[str, dict[str, int]],
              choose: Callable[[str], None]) -> Any:
    def item(kind: str) -> Any:
        selected = kind == current
        count = counts.get(kind, {}).get("active", 0)
        return html.button(
            {"type": "button", "key": kind, "data-kind": kind, "aria-current": "true" if selected else "false",
             "className": "list-group-item list-group-item-action border-0 rounded-3 d-flex align-items-center "
                          "gap-2 py-2 px-3" + ("" if selected else " bg-transparent"),
             "style": _ACTIVE_ITEM if selected else {}, "onClick": lambda _e: choose(kind)},
            html.i({"className": f"bi {KIND_ICONS[kind]}"}),
            html.span({"className": "flex-grow-1 text-start"}, t(REFERENCE_KINDS[kind])),
            html.span({"className": "badge rounded-pill" + ("" if selected else " bg-body-secondary text-body-secondary"),
                       "style": _ACTIVE_BADGE if selected else {}, "data-count": str(count)}, str(count)),
        )

    return html.div(
        {"className": styles.CARD},
        html.div({"className": "card-body p-2"},
                 html.div({"className": "small text-uppercase fw-semibold text-body-secondary px-3 pt-2 pb-1",
                           "style": {"letterSpacing": ".04em", "fontSize": ".7rem"}}, t("metadata.lists")),
                 html.nav({"className": "list-group list-group-flush gap-1", "aria-label": t("metadata.lists")},
                          *[item(kind) for kind in REFERENCE_KINDS])),
    )


@component
def MetadataPage() -> Any:
    console = use_console()
    t = console.t
    kind, set_kind = use_state(next(iter(REFERENCE_KINDS)))
    version, set_version = use_state(0)  # bumped after every write: the list and the badges reload
    counted = use_query(metadata.kind_counts, actor=console.actor, deps=[version]).value
    counts = {k: c.model_dump() for k, c in (counted or {}).items()}

    def changed() -> None:
        set_version(lambda v: v + 1)

    return html.div(
        {"data-page": "metadata"},
        page_header(t("metadata.title"), t("metadata.subtitle")),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-lg-3"}, _kind_nav(t, kind, counts or {}, set_kind)),
                 html.div({"className": "col-lg-9"}, KindPanel(kind, version, changed, key=kind))),
    )
