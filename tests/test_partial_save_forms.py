"""The settings and configuration forms save only what the user changed there (issue 21): a form is loaded,
someone else changes another field of the same record meanwhile, the user changes one field and saves, and
every other field reads back as it was, the other person's change included."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlmodel import Session

from app.accounts import user_config, users
from app.kernel.db import run
from app.settings import company, postbacks
from components.accounts.profile_page import ProfileDetails
from components.accounts.users.user_config import ConfigForm
from components.accounts.users.user_form import EditUserForm
from components.settings.client_settings import PostbackForm
from components.settings.company_settings import BrandForm
from tests.helpers import actor_of, user_by_email
from tests.render import _layout, run_async, settle, signed_in_console, walk

ADMIN, ADVERTISER = "admin@demo.example", "advertiser@demo.example"


def _advertiser_id(db: Session) -> int:
    return user_by_email(db, ADVERTISER).id  # type: ignore[return-value]


def _config(db: Session) -> dict[str, Any]:
    config = user_config.get_config(db, actor=actor_of(db, ADMIN), user_id=_advertiser_id(db))
    return {key: getattr(config, key) for key in ("insight_dashboard", "postback_enabled", "api_access", "margin",
                                         "allowed_exchanges")}


def _details(db: Session) -> dict[str, Any]:
    return {name: getattr(user_by_email(db, ADVERTISER), name) for name in users.DETAIL_FIELDS}


def _brand(db: Session) -> dict[str, Any]:
    row = company.list_configs(db, actor=actor_of(db, ADMIN))[0]
    return {name: getattr(row, name) for name in company.EDITABLE_FIELDS}


def _postback(db: Session) -> dict[str, Any]:
    return postbacks.get_postback(db, actor=actor_of(db, ADVERTISER)).model_dump()


def _exchange_ids(db: Session) -> list[int]:
    config = user_config.get_config(db, actor=actor_of(db, ADMIN), user_id=_advertiser_id(db))
    return [x.id for x in config.exchange_options]


@dataclass(frozen=True)
class FormCase:
    email: str  # who has the form open
    form_name: str  # the <form name=...>
    page: Callable[[Session], Callable[[], Any]]  # the form as its page renders it, from what the page loads
    meanwhile: Callable[[Session], None]  # someone else's save, after the form was loaded
    edit: dict[str, Any]  # what the user changes in the form: a text, or a checkbox's checked state
    read: Callable[[Session], dict[str, Any]]  # every field of the record
    changed: dict[str, Any]  # what the save must have changed


def _config_page(db: Session) -> Callable[[], Any]:
    config = user_config.get_config(db, actor=actor_of(db, ADMIN), user_id=_advertiser_id(db))
    return lambda: ConfigForm(config, lambda: None)


def _margin_elsewhere(db: Session) -> None:
    user_config.update_config(db, actor=actor_of(db, ADMIN), user_id=_advertiser_id(db), margin="9",
                              allowed_exchanges=_exchange_ids(db)[:2])


def _user_page(db: Session) -> Callable[[], Any]:
    user = users.get_user(db, actor=actor_of(db, ADMIN), user_id=_advertiser_id(db))
    return lambda: EditUserForm(user, lambda: None)


def _company_elsewhere(db: Session) -> None:
    users.update_user(db, actor=actor_of(db, ADMIN), user_id=_advertiser_id(db), company_name="Renamed Elsewhere")


def _brand_page(db: Session) -> Callable[[], Any]:
    row = company.list_configs(db, actor=actor_of(db, ADMIN))[0]
    return lambda: BrandForm(row)


def _footer_elsewhere(db: Session) -> None:
    row = company.list_configs(db, actor=actor_of(db, ADMIN))[0]
    company.update_config(db, actor=actor_of(db, ADMIN), config_id=row.id, values={"footer_text": "Set elsewhere"})


def _postback_page(db: Session) -> Callable[[], Any]:
    initial = _postback(db)
    return lambda: PostbackForm(initial)


def _events_elsewhere(db: Session) -> None:
    postbacks.update_postback(db, actor=actor_of(db, ADVERTISER), events=["install", "open"])


CASES = {
    "user config": FormCase(ADMIN, "user-config", _config_page, _margin_elsewhere, {"insight_dashboard": False},
                            _config, {"insight_dashboard": False}),
    "user details": FormCase(ADMIN, "edit-user", _user_page, _company_elsewhere, {"first_name": "Arlene"},
                             _details, {"first_name": "Arlene"}),
    "profile": FormCase(ADVERTISER, "profile", lambda _db: ProfileDetails, _company_elsewhere,
                        {"last_name": "Buyer"}, _details, {"last_name": "Buyer"}),
    "brand": FormCase(ADMIN, "brand", _brand_page, _footer_elsewhere, {"name": "Southwind DSP"}, _brand,
                      {"name": "Southwind DSP"}),
    "postback": FormCase(ADVERTISER, "postback", _postback_page, _events_elsewhere,
                         {"url": "https://mmp.example/new?c={click_id}"}, _postback,
                         {"url": "https://mmp.example/new?c={click_id}"}),
}


def _submit_event(form_node: dict[str, Any], edit: dict[str, Any]) -> dict[str, Any]:
    """The form's submit event as the browser sends it (ReactPy serializes a form as its elements), with the
    fields as the page shows them and the user's `edit` applied."""
    elements = []
    for node in walk(form_node):
        attributes = node.get("attributes", {})
        name = attributes.get("name")
        if node.get("tagName") != "input" or not name:
            continue
        kind = attributes.get("type", "text")
        element = {"tagName": "INPUT", "name": name, "type": kind, "value": str(attributes.get("value", "")),
                   "checked": bool(attributes.get("checked"))}
        if name in edit:
            element["checked" if kind == "checkbox" else "value"] = edit[name]
        elements.append(element)
    return {"type": "submit", "target": [*elements, {"tagName": "BUTTON", "name": "", "type": "submit", "value": ""}]}


@pytest.fixture
def postbacks_on(demo_ids: dict[str, int]) -> None:
    def setup(db: Session) -> None:
        postbacks.update_postback(db, actor=actor_of(db, ADVERTISER), url="https://mmp.example/pb?c={click_id}",
                                  events=["install", "purchase"])
    run(setup)


@pytest.mark.parametrize("case_name", CASES)
def test_a_form_saves_the_field_changed_and_keeps_the_rest(case_name: str, postbacks_on: None) -> None:
    case = CASES[case_name]
    page = run(case.page)
    console = signed_in_console(case.email)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with _layout(page, console, "/") as layout:
            model = await settle(layout, (await layout.render())["model"])
            await asyncio.to_thread(run, case.meanwhile)
            before = await asyncio.to_thread(run, case.read)
            form_node = next(n for n in walk(model) if n.get("tagName") == "form"
                             and n.get("attributes", {}).get("name") == case.form_name)
            await layout.deliver({"type": "layout-event", "target": form_node["eventHandlers"]["onSubmit"]["target"],
                                  "data": [_submit_event(form_node, case.edit)]})
            for _ in range(500):  # the submit runs in a task of its own: wait until its save has landed
                after = await asyncio.to_thread(run, case.read)
                if after != before:
                    break
                await asyncio.sleep(0.02)
            await settle(layout, model)
            return before, await asyncio.to_thread(run, case.read)

    before, after = run_async(scenario())
    assert after == {**before, **case.changed}

