"""The shell rendered headless for real sessions: what each role sees in the top bar and menu."""

from __future__ import annotations

from app.accounts import impersonation
from app.accounts.console import console_state
from app.kernel.db import run
from components.pages import ROUTES
from components.shell.layout import ShellLayout
from components.shell.menu import menu_items
from components.ui.console import inert_console
from components.ui.elements import spinner
from tests.helpers import browser_session
from tests.render import render_model, signed_in_console, text_of, walk


def _shell(console) -> dict:
    return render_model(lambda: ShellLayout(spinner()), console, path="/x")


def _attr_values(model: dict, name: str) -> list[str]:
    return [n["attributes"][name] for n in walk(model) if name in n.get("attributes", {})]


def test_advertiser_top_bar(demo_ids):
    console = signed_in_console("advertiser@demo.example")
    model = _shell(console)
    assert _attr_values(model, "data-balance") == ["$5,000.00"]
    assert set(_attr_values(model, "data-view")) == {"old", "new"}  # insight_dashboard is set
    assert [i.href for i in menu_items(console)] == ["/dashboard", "/campaign", "/creatives", "/funds", "/audience", "/inventory-list", "/report", "/docs",
                                                    "https://support.northwind.example/"]


def test_agency_without_insight_has_no_view_switch_balance_or_api_docs(demo_ids):
    console = signed_in_console("agency@demo.example")
    model = _shell(console)
    assert _attr_values(model, "data-balance") == []
    assert _attr_values(model, "data-view") == []
    assert "/docs" not in [i.href for i in menu_items(console)]


def test_admin_always_has_the_view_switch(demo_ids):
    model = _shell(signed_in_console("admin@demo.example"))
    assert set(_attr_values(model, "data-view")) == {"old", "new"}
    assert _attr_values(model, "data-balance") == []


def test_impersonation_shows_who_acts_and_the_back_buttons(demo_ids):
    token, session_id = browser_session("admin@demo.example")
    admin = run(console_state, token=token, host="").actor
    run(impersonation.impersonate, actor=admin, target_id=demo_ids["agency@demo.example"])
    as_agency = run(console_state, token=token, host="").actor
    run(impersonation.impersonate, actor=as_agency, target_id=demo_ids["advertiser@demo.example"])
    model = _shell(inert_console(run(console_state, token=token, host=""), routes=ROUTES))
    assert _attr_values(model, "data-acting") == ["advertiser@demo.example"]
    assert _attr_values(model, "data-back") == ["AGENCY", "ADMIN"]
    assert "Back To Agency" in text_of(model) and "Back To Admin" in text_of(model)


def test_shell_speaks_the_chosen_language(demo_ids):
    model = _shell(signed_in_console("advertiser@demo.example", "sp"))
    assert "Saldo" in text_of(model) or "saldo" in text_of(model).lower()


def test_identity_block_is_hidden_for_admin_only(demo_ids):
    from components.shell.user_menu import identity_block, settings_link

    admin = signed_in_console("admin@demo.example")
    advertiser = signed_in_console("advertiser@demo.example")
    assert identity_block(admin) == ""
    assert "Arlo Advertiser" in text_of(identity_block(advertiser))
    assert settings_link(admin) == "/admin/settings"
    assert settings_link(signed_in_console("coadmin@demo.example")) is None


def test_an_info_toast_stays_until_closed_whatever_comes_after() -> None:
    from components.shell.toasts import MAX_VISIBLE_TOASTS, kept

    shown: tuple = ()
    shown = kept((*shown, (1, "info", "Starting download: report.csv")))
    for toast_id in range(2, 8):
        shown = kept((*shown, (toast_id, "success" if toast_id % 2 else "error", f"done {toast_id}")))
    assert (1, "info", "Starting download: report.csv") in shown, "the info toast was pushed out"
    assert len(shown) == MAX_VISIBLE_TOASTS
    assert [t[0] for t in shown] == [1, 6, 7], "the newest success and error toasts show, in order"
    # However many info toasts are open, a new error still shows.
    infos = tuple((i, "info", f"note {i}") for i in range(10, 14))
    assert kept((*infos, (20, "error", "failed"))) == (*infos, (20, "error", "failed"))


def test_the_balance_reads_in_the_users_language(demo_ids):
    german = _shell(signed_in_console("advertiser@demo.example", "gr"))
    assert "$5.000,00" in text_of(german)
    russian = _shell(signed_in_console("advertiser@demo.example", "rs"))
    assert "$5\u00a0000,00" in text_of(russian)


def test_the_toast_stack_keeps_an_info_toast_and_lets_the_others_close(monkeypatch) -> None:
    """ToastHost rendered headless: a burst of results past the limit leaves the info toast and the newest of the
    others; success and error then close themselves, the info toast stays until its reader closes it."""
    import asyncio

    from reactpy import Ref

    from components.shell import toasts
    from tests.render import _layout, handler_target, logged_out_console, run_async, settle

    monkeypatch.setattr(toasts, "TOAST_AUTO_CLOSE_S", 0.3)
    push: Ref = Ref(None)

    def shown(model: dict) -> list[tuple[str, str]]:
        return [(n["attributes"]["data-toast-kind"], text_of(n)) for n in walk(model)
                if "data-toast-kind" in n.get("attributes", {})]

    async def scenario() -> tuple[list, list, list]:
        async with _layout(lambda: toasts.ToastHost(push), logged_out_console(), "/") as layout:
            model = await settle(layout, (await layout.render())["model"])
            push.current("info", "Starting download: report.csv")
            for number in range(1, 6):
                push.current("success" if number % 2 else "error", f"done {number}")
            model = await settle(layout, model)
            crowded = shown(model)
            for _ in range(50):  # the auto-close timers run in effects of their own
                await asyncio.sleep(0.05)
                model = await settle(layout, model)
                if len(shown(model)) == 1:
                    break
            later = shown(model)
            await layout.deliver({"type": "layout-event", "target": handler_target(model, "onClick"), "data": [{}]})
            await asyncio.sleep(0.05)  # the click's handler runs in a task of its own
            return crowded, later, shown(await settle(layout, model))

    crowded, later, closed = run_async(scenario())
    assert crowded == [("info", "Starting download: report.csv"), ("error", "done 4"), ("success", "done 5")]
    assert later == [("info", "Starting download: report.csv")], "success and error close themselves, info stays"
    assert closed == [], "the close button closes an info toast"
