"""Forms submit what the user typed: values come from the submit event itself, so keystrokes and the
submit arriving together (a fast typist, a password manager, a busy server) never submit stale state."""

from __future__ import annotations

import asyncio
from typing import Any

from reactpy import component, html, use_state

from app.accounts import service as accounts
from app.demo.seed import DEMO_PASSWORD
from components.accounts.auth.login import LoginPage
from components.ui.console import ConsoleContext
from components.ui.forms import checkbox_list, form, select_field, submit_button, submitted_values, text_field
from tests.render import _layout, handler_target, logged_out_console, run_async, settle, walk


def _input(name: str, value: str, kind: str = "text", checked: bool = False) -> dict[str, Any]:
    return {"tagName": "INPUT", "name": name, "type": kind, "value": value, "checked": checked}


def _submit_event(*elements: Any) -> dict[str, Any]:
    """A form's submit event as ReactPy's client serializes it: the target is the list of its elements."""
    return {"type": "submit", "target": [*elements, {"tagName": "BUTTON", "name": "", "type": "submit", "value": ""}]}


def _change_target(model: dict[str, Any], field: str) -> str:
    node = next(n for n in walk(model) if n.get("attributes", {}).get("name") == field)
    return str(node["eventHandlers"]["onChange"]["target"])


async def _burst(layout: Any, model: dict[str, Any], typed: dict[str, str], submit: dict[str, Any]) -> None:
    """Every keystroke's change event and the submit, delivered back to back with no render between."""
    for field, value in typed.items():
        await layout.deliver({"type": "layout-event", "target": _change_target(model, field),
                              "data": [{"target": {"value": value}}]})
    await layout.deliver({"type": "layout-event", "target": handler_target(model, "onSubmit"), "data": [submit]})


def test_a_burst_of_typing_and_submit_submits_the_typed_values() -> None:
    received: list[dict[str, Any]] = []

    @component
    def SignIn() -> Any:
        email, set_email = use_state("")
        password, set_password = use_state("")
        return form(received.append,
                    text_field(name="email", label="E-mail", value=email, on_change=set_email),
                    text_field(name="password", label="Password", value=password, on_change=set_password,
                               kind="password"),
                    submit_button("Sign in"), name="login", values={"email": email, "password": password})

    async def scenario() -> None:
        async with _layout(SignIn, logged_out_console(), "/") as layout:
            model = await settle(layout, (await layout.render())["model"])
            typed = {"email": "ana@example.com", "password": "s3cret-pass"}
            await _burst(layout, model, typed, _submit_event(_input("email", typed["email"]),
                                                             _input("password", typed["password"], "password")))
            for _ in range(50):  # the handlers run in tasks of their own
                if received:
                    break
                await asyncio.sleep(0.01)

    run_async(scenario())
    assert received == [{"email": "ana@example.com", "password": "s3cret-pass"}]


def test_the_login_page_signs_in_with_values_typed_in_the_same_burst_as_the_submit(demo_ids: dict[str, int]) -> None:
    tickets: list[str] = []
    console = logged_out_console()
    console = type(console)(**{**console.__dict__, "begin_session": lambda ticket, _next: tickets.append(ticket)})

    @component
    def Page() -> Any:
        return ConsoleContext(LoginPage(), value=console)

    async def scenario() -> dict[str, Any]:
        async with _layout(Page, console, "/login") as layout:
            model = await settle(layout, (await layout.render())["model"])
            email, password = "agency@demo.example", DEMO_PASSWORD
            await _burst(layout, model, {"email": email, "password": password},
                         _submit_event(_input("email", email, "email"), _input("password", password, "password")))
            await asyncio.sleep(0.05)  # let the submit handler start the sign-in before settling
            return await settle(layout, model)

    model = run_async(scenario())
    assert len(tickets) == 1, "the sign-in did not go through"
    assert not [n for n in walk(model) if n.get("attributes", {}).get("data-field-error")], \
        "field errors for fields the user had filled"


def test_a_wrong_password_shows_why_above_the_form(demo_ids: dict[str, int]) -> None:
    console = logged_out_console()

    async def scenario() -> dict[str, Any]:
        async with _layout(LoginPage, console, "/login") as layout:
            model = await settle(layout, (await layout.render())["model"])
            await layout.deliver({"type": "layout-event", "target": handler_target(model, "onSubmit"),
                                  "data": [_submit_event(_input("email", "agency@demo.example", "email"),
                                                         _input("password", "wrong-Pass-1", "password"))]})
            await asyncio.sleep(0.05)
            return await settle(layout, model)

    model = run_async(scenario())
    alert = next(n for n in walk(model) if n.get("attributes", {}).get("role") == "alert")
    assert alert["children"] == [accounts.BAD_CREDENTIALS]


def test_submitted_values_reads_every_kind_of_field() -> None:
    @component
    def Everything() -> Any:
        return form(lambda _values: None,
                    select_field(name="role", label="Role", value="a", options=[("a", "A"), ("b", "B")],
                                 on_change=lambda _v: None),
                    checkbox_list(name="exchanges", label="Exchanges", options=[(1, "One"), (2, "Two")],
                                  selected=[], on_change=lambda _v: None),
                    html.input({"name": "agree", "type": "checkbox"}))

    model = run_async(_first_model(Everything))
    options = [n["attributes"] for n in walk(model) if n.get("tagName") == "option"]
    assert {o["data-field"] for o in options} == {"role"}, "a <select>'s options must say whose value they are"
    boxes = [n["attributes"]["name"] for n in walk(model) if n.get("attributes", {}).get("type") == "checkbox"]
    assert boxes == ["exchanges[]", "exchanges[]", "agree"]

    submitted = submitted_values({"target": [
        [{"value": "a", "selected": False, "dataset": {"field": "role"}},
         {"value": "b", "selected": True, "dataset": {"field": "role"}}],
        {"name": "exchanges", "type": "fieldset"},
        _input("exchanges[]", "1", "checkbox", checked=False),
        _input("exchanges[]", "2", "checkbox", checked=True),
        _input("agree", "on", "checkbox", checked=True),
        _input("notes", "Ünïcode — text"),
        {"name": "", "type": "submit", "value": ""},
    ]})
    assert submitted == {"role": "b", "exchanges": ["2"], "agree": True, "notes": "Ünïcode — text"}


def test_state_fills_in_only_what_the_form_does_not_hold() -> None:
    received: list[dict[str, Any]] = []

    @component
    def Picker() -> Any:
        return form(received.append, text_field(name="label", label="Label", value="old", on_change=lambda _v: None),
                    values={"label": "old", "chosen_ids": [3, 4]})

    async def scenario() -> None:
        async with _layout(Picker, logged_out_console(), "/") as layout:
            model = await settle(layout, (await layout.render())["model"])
            await layout.deliver({"type": "layout-event", "target": handler_target(model, "onSubmit"),
                                  "data": [_submit_event(_input("label", "new"))]})
            for _ in range(50):
                if received:
                    break
                await asyncio.sleep(0.01)

    run_async(scenario())
    assert received == [{"label": "new", "chosen_ids": [3, 4]}]


async def _first_model(page: Any) -> dict[str, Any]:
    async with _layout(page, logged_out_console(), "/") as layout:
        return (await layout.render())["model"]


def test_two_ticks_in_one_burst_both_count() -> None:
    """Checkbox lists build each click's list on the one before it, not on the render before both."""
    seen: list[list[int]] = []

    @component
    def Exchanges() -> Any:
        chosen, set_chosen = use_state([])
        seen.append(list(chosen))
        return checkbox_list(name="exchanges", label="Exchanges", options=[(1, "One"), (2, "Two"), (3, "Three")],
                             selected=chosen, on_change=set_chosen)

    async def scenario() -> None:
        async with _layout(Exchanges, logged_out_console(), "/") as layout:
            model = await settle(layout, (await layout.render())["model"])
            for value in ("1", "3"):  # delivered back to back, no render between
                node = next(n for n in walk(model) if n.get("attributes", {}).get("value") == value)
                await layout.deliver({"type": "layout-event", "target": node["eventHandlers"]["onChange"]["target"],
                                      "data": [{"target": {"checked": True, "value": value}}]})
            await asyncio.sleep(0.05)  # the handlers run in tasks of their own
            await settle(layout, model)

    run_async(scenario())
    assert seen[-1] == [1, 3]
