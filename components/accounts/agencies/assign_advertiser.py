"""/admin/assignAdvertiser and the co-admin copy: move advertisers between agencies (their campaigns,
funds and lists go with them; every move is in both agencies' and the advertiser's change log).

The advertisers grid shows one page (account_grids.accounts_list_page: the "from" agency, the search and the sort
in SQL); advertisers chosen on one page stay chosen on the others and Move takes them all, as the bulk pages do.
Another "from" agency ends the choice (the page says so under the filter): one move never takes advertisers of two
agencies chosen under two filters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import Ref, component, html, use_ref, use_state
from reactpy_router import use_search_params

from app.access.roles import Role
from app.accounts import account_grids, users
from app.accounts.schemas import AgencyChoice
from components.accounts.users.accounts_table import account_columns, account_rows
from components.ui.confirm import ConfirmDialog
from components.ui.console import use_console
from components.ui.elements import card, page_header
from components.ui.forms import select_field
from components.ui.grid_host import selection_labels
from components.ui.hooks import use_action, use_query
from components.ui.links import back_link
from components.ui.offset_pages import use_offset_pages
from components.widgets.datagrid import SelectionDrop, data_grid

ALL, DIRECT = "", "direct"  # filter values besides agency ids
PAGE_SIZE = 50
COLUMNS = ("name", "email", "company", "agency", "balance")


def _from_query(params: dict[str, list[str]]) -> str:
    value = (params.get("from") or [ALL])[0]
    return value if value.isdigit() or value == DIRECT else ALL


@component
def _MoveCard(host: Ref[Any], agencies: list[AgencyChoice], on_moved: Callable[[], None]) -> Any:
    """Where the chosen advertisers go, how many are chosen (on every page) and the Move button; re-renders alone as
    the grid's selection changes (the grid calls `host.current(ids)`)."""
    console = use_console()
    t = console.t
    selected, set_selected = use_state(list[int]())
    target, set_target = use_state(DIRECT)
    confirming, set_confirming = use_state(False)
    agency_names = {str(a.id): a.name for a in agencies}

    def chosen(ids: list[str]) -> None:
        set_selected([int(i) for i in ids if i.isdigit()])

    host.current = chosen

    def moved(count: int) -> None:
        console.toast("success", t("assign.moved", count=count, agency=agency_names.get(target, t("assign.direct"))))
        set_selected([])
        on_moved()

    assign = use_action(users.assign_advertisers, on_done=moved)

    def confirm() -> None:
        set_confirming(False)
        assign.submit(actor=console.actor, advertiser_ids=sorted(selected),
                      agency_id=int(target) if target != DIRECT else None)

    return html.div(
        card(select_field(name="agency_id", label=t("assign.move_to"), value=target,
                          options=[(DIRECT, t("assign.direct"))] + [(str(a.id), a.name) for a in agencies],
                          on_change=set_target, error=assign.errors.get("agency_id")),
             html.p({"className": "small text-body-secondary", "data-move-count": len(selected)},
                    t("assign.selected", count=len(selected))),
             html.div({"className": "invalid-feedback d-block mb-2"},
                      assign.errors["advertiser_ids"]) if assign.errors.get("advertiser_ids") else "",
             html.button({"type": "button", "className": "btn btn-primary w-100",
                          "disabled": not selected or assign.pending, "data-action": "move",
                          "onClick": lambda _e: set_confirming(True)},
                         html.i({"className": "bi bi-arrow-left-right me-1"}), t("assign.move")),
             html.p({"className": "small text-body-secondary mt-3 mb-0"}, t("assign.explain")),
             title=t("assign.move_to")),
        ConfirmDialog(t("assign.confirm_title"),
                      t("assign.confirm", count=len(selected), agency=agency_names.get(target, t("assign.direct"))),
                      t("assign.move"), t("common.cancel"), confirm, lambda: set_confirming(False), danger=False)
        if confirming else "",
    )


@component
def AssignAdvertiserPage() -> Any:
    console = use_console()
    t = console.t
    source, set_source = use_state(_from_query(use_search_params()))
    pages = use_offset_pages(account_grids.accounts_list_page, filters=[source], page_size=PAGE_SIZE,
                             actor=console.actor, role=Role.ADVERTISER.value,
                             agency_id=int(source) if source.isdigit() else None, without_agency=source == DIRECT)
    agencies: list[AgencyChoice] = use_query(users.agency_choices, actor=console.actor).value or []
    # A move, or another "from" agency, ends the choice: the grid drops every chosen row (keeping its search and
    # sort), and the move card, told at once, offers no Move for the old choice meanwhile.
    clears, set_clears = use_state(0)
    host: Ref[Any] = use_ref(None)

    def clear_choice() -> None:
        set_clears(lambda n: n + 1)
        if host.current:
            host.current([])

    def moved() -> None:
        clear_choice()
        pages.query.reload()

    def source_changed(value: str) -> None:
        clear_choice()
        set_source(value)

    # The account lists' columns, narrower: with the checkboxes they fit the card beside the move card at 1440 px.
    columns: list[Any] = account_columns(console, COLUMNS, name=130, email=175, company=120, agency=120, balance=105)
    source_options = [(ALL, t("assign.all_agencies")), (DIRECT, t("assign.direct"))] + \
        [(str(a.id), a.name) for a in agencies]
    return html.div(
        {"data-page": "assign-advertisers"},
        page_header(t("assign.title"), t("assign.subtitle"), back_link(console, "agencies", "agencies.back")),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          card(select_field(name="from", label=t("assign.current_agency"), value=source,
                                            options=source_options, on_change=source_changed,
                                            help_text=t("assign.filter_clears"), class_name="mb-3 dsp-filter"),
                               data_grid(columns=columns, rows=account_rows(console, pages.rows),
                                         height=480, search_placeholder=t("common.search"),
                                         empty_text=t("assign.none"), row_count_label=t("grid.rows"),
                                         locale=console.language, drop_selection=SelectionDrop(clears, None),
                                         loading_text=t("common.loading") if pages.query.loading else None,
                                         on_selection_change=lambda ids: host.current and host.current(ids),
                                         selection_across_pages=True,
                                         select_labels=selection_labels(t, "assign.select_all"),
                                         on_view_change=pages.on_view_change, paging=pages.paging),
                               title=t("assign.advertisers"))),
                 html.div({"className": "col-xl-4"}, _MoveCard(host, agencies, moved))),
    )
