"""The row actions of account lists (users, advertisers, agencies): which buttons a row shows and what
each does. Actions that change or mail something ask first; page links navigate in place."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reactpy import Ref, component, html, use_ref, use_state

from app.access.models import UserStatus
from app.accounts import impersonation, second_factor, users
from app.accounts.schemas import AccountRow
from components.accounts.users.accounts_table import account_rows
from components.accounts.users.common import USER_PAGES
from components.ui.confirm import ConfirmDialog
from components.ui.console import Console, use_console
from components.ui.hooks import use_action
from components.ui.navigation import use_navigation
from components.widgets.datagrid import GridAction, GridPaging, GridView, data_grid

# Status actions, which ask first: action id -> the status it sets.
STATUS_ACTIONS = {"disable": UserStatus.DISABLED, "enable": UserStatus.ACTIVE}
RESET_PASSWORD = "reset_password"
RESET_SECOND_FACTOR = "reset_second_factor"
ASKING = (*STATUS_ACTIONS, RESET_PASSWORD, RESET_SECOND_FACTOR)  # the actions that ask first


def grid_actions(console: Console, *, pages: Sequence[tuple[str, str, str, str]] = USER_PAGES) -> list[GridAction]:
    """Login as, the first per-account page (edit) as a button, enable/disable; the account's other pages
    and the password reset in the row's "more" menu. Only what the role has."""
    t = console.t
    links: list[GridAction] = [{"id": name, "label": t(label), "icon": icon, "variant": "secondary",
                                **({"when": flag} if flag else {}), **({"menu": True} if index else {})}  # type: ignore[typeddict-item]
                               for index, (name, label, icon, flag) in enumerate(pages)
                               if console.path(name, id=0)]
    return [{"id": "login_as", "label": t("users.login_as"), "icon": "bi-box-arrow-in-right", "variant": "primary",
             "when": "can_enter"}, *links[:1],
            {"id": "disable", "label": t("users.disable"), "icon": "bi-slash-circle", "variant": "danger",
             "when": "can_disable", "slot": "status"},
            {"id": "enable", "label": t("users.enable"), "icon": "bi-check-circle", "variant": "success",
             "when": "can_enable", "slot": "status"},
            *links[1:],
            {"id": RESET_PASSWORD, "label": t("users.reset_password"), "icon": "bi-key", "when": "can_reset",
             "menu": True},
            {"id": RESET_SECOND_FACTOR, "label": t("users.reset_second_factor"), "icon": "bi-phone",
             "when": "can_reset_second_factor", "menu": True}]


@dataclass(frozen=True)
class AccountActions:
    on_action: Callable[[str, Any], None]  # hand to data_grid
    on_row_click: Callable[[Any], None]  # opens the row's main page
    elements: Any  # render once in the page: the navigation and the confirmation dialog


def use_account_actions(rows: Sequence[AccountRow] | None, reload: Callable[[], None],
                        name_of: Callable[[AccountRow], str] = lambda row: row.name,
                        open_page: str = "user.edit") -> AccountActions:
    """The grid's handlers and the elements they drive. The state behind them (the question being asked,
    pending writes, where to go) lives in a small sibling component, so asking does not re-render the
    page and resend every row of its grid (ARCHITECTURE.md: a re-render resends the whole component)."""
    host: Ref[Any] = use_ref(None)

    def on_action(action_id: str, user_id: Any) -> None:
        if host.current:
            host.current(action_id, int(user_id))

    def on_row_click(user_id: Any) -> None:
        on_action(open_page, user_id)

    return AccountActions(on_action, on_row_click,
                          _ActionHost(host, rows or [], reload, name_of))


@component
def _ActionHost(host: Ref[Any], rows: Sequence[AccountRow], reload: Callable[[], None],
                name_of: Callable[[AccountRow], str]) -> Any:
    console = use_console()
    t = console.t
    nothing_pending: tuple[str, int, str] | None = None
    pending, set_pending = use_state(nothing_pending)  # (action, user id, name) waiting for confirmation
    navigation, go = use_navigation()
    enter = use_action(impersonation.impersonate, on_done=console.go)

    def status_changed(user: Any) -> None:
        action_id = next(a for a, status in STATUS_ACTIONS.items() if status == user.status)
        row = next((r for r in rows or [] if r.id == user.id), None)
        console.toast("success", t(f"users.{action_id}d", name=name_of(row) if row else user.display_name))
        reload()

    change_status = use_action(users.set_status, on_done=status_changed)
    reset = use_action(users.send_password_reset,
                       on_done=lambda email: console.toast("success", t("users.reset_sent", email=email)))
    reset_factor = use_action(second_factor.reset, success="users.second_factor_reset", on_done=lambda _r: reload())

    def act(action_id: str, user_id: int) -> None:
        if action_id == "login_as":
            enter.submit(actor=console.actor, target_id=user_id)
        elif action_id in ASKING:
            row = next((r for r in rows if r.id == user_id), None)
            set_pending((action_id, user_id, name_of(row) if row else ""))
        elif path := console.path(action_id, id=user_id):
            go(path)

    host.current = act

    def confirm() -> None:
        if pending is None:
            return
        action_id, user_id, _name = pending
        set_pending(None)
        if action_id == RESET_PASSWORD:
            reset.submit(actor=console.actor, user_id=user_id)
        elif action_id == RESET_SECOND_FACTOR:
            reset_factor.submit(actor=console.actor, user_id=user_id)
        else:
            change_status.submit(actor=console.actor, user_id=user_id, status=STATUS_ACTIONS[action_id])

    dialog = (ConfirmDialog(t(f"users.confirm_{pending[0]}_title"), t(f"users.confirm_{pending[0]}", name=pending[2]),
                            t(f"users.{pending[0]}"), t("common.cancel"), confirm, lambda: set_pending(None),
                            danger=pending[0] in ("disable", RESET_SECOND_FACTOR)) if pending else "")
    return html.div(navigation, dialog)


def account_grid(console: Console, *, columns: Sequence[Any], rows: Sequence[AccountRow] | None,
                 actions: AccountActions, empty_text: str, height: int = 520, searchable: bool = True,
                 pages: Sequence[tuple[str, str, str, str]] = USER_PAGES, loading: bool = False,
                 paging: GridPaging | None = None, on_view_change: Callable[[GridView], Any] | None = None) -> Any:
    """The JS grid of accounts with their row buttons and "more" menu, as every account list shows it. With
    `paging`, `rows` are one page and the search and sort come back through `on_view_change` (data_grid)."""
    t = console.t
    return data_grid(columns=columns, rows=account_rows(console, rows or []), height=height,
                     search_placeholder=t("common.search") if searchable else None, empty_text=empty_text,
                     row_count_label=t("grid.rows"), more_label=t("grid.more"), locale=console.language,
                     actions=grid_actions(console, pages=pages), on_action=actions.on_action,
                     on_row_click=actions.on_row_click, loading_text=t("common.loading") if loading else None,
                     paging=paging, on_view_change=on_view_change)
