"""Postback settings: only while an admin has postbacks ENABLED for the user, a valid http(s) URL, events from the
declared list; each user sees and sets only their own. And the settings page never comes up blank."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from app.access.models import UserSettings
from app.history.models import AuditEntry
from app.kernel.errors import Forbidden, Invalid
from app.settings import postbacks
from tests.helpers import actor_of, other_tenant
from tests.render import render_model, signed_in_console, text_of, walk

ADVERTISER = "advertiser@demo.example"
GOOD_URL = "https://track.example.com/pb?click={click_id}&ev={event}&rev={revenue}"


def _set(db: Session, user_id: int, **values: object) -> None:
    row = db.get(UserSettings, user_id) or UserSettings(user_id=user_id)
    for key, value in values.items():
        setattr(row, key, value)
    db.add(row)
    db.commit()


def test_advertiser_saves_url_and_events(db: Session, demo_ids: dict[str, int]) -> None:
    me = actor_of(db, ADVERTISER)
    assert postbacks.get_postback(db, actor=me).model_dump() == {"url": "", "events": []}
    saved = postbacks.update_postback(db, actor=me, url=f"  {GOOD_URL} ", events=["purchase", "install", "purchase"])
    assert saved.model_dump() == {"url": GOOD_URL, "events": ["install", "purchase"]}  # trimmed, de-duplicated, list order
    assert postbacks.get_postback(db, actor=me) == saved
    entry = db.exec(select(AuditEntry).where(AuditEntry.entity == "postback")).one()
    assert entry.entity_id == str(demo_ids[ADVERTISER]) and entry.actor_id == me.id
    assert entry.changes == {"url": ["", GOOD_URL], "events": [[], ["install", "purchase"]]}

    # An empty URL with no events switches postbacks off.
    assert postbacks.update_postback(db, actor=me, url="", events=[]).model_dump() == {"url": "", "events": []}


@pytest.mark.parametrize(("url", "events", "fields"), [
    ("not a url", ["install"], {"url": "Please enter a valid URL."}),
    ("ftp://files.example.com/pb", ["install"], {"url": "Please enter a valid URL."}),
    ("javascript:alert(1)", ["install"], {"url": "Please enter a valid URL."}),
    ("https://{host}/pb", ["install"], {"url": "Please enter a valid URL."}),
    ("https://track.example.com/" + "a" * 500, ["install"], {"url": "At most 500 characters."}),
    ("", ["install"], {"url": "This field is required."}),
    (GOOD_URL, [], {"events": "Choose at least one event."}),
    (GOOD_URL, ["install", "teleport"], {"events": "Not an allowed value."}),
])
def test_bad_input_is_a_field_error_and_saves_nothing(db: Session, url: str, events: list[str],
                                                     fields: dict[str, str]) -> None:
    me = actor_of(db, ADVERTISER)
    with pytest.raises(Invalid) as error:
        postbacks.update_postback(db, actor=me, url=url, events=events)
    assert error.value.fields == fields
    assert postbacks.get_postback(db, actor=me).model_dump() == {"url": "", "events": []}


def test_refused_unless_postbacks_are_enabled_for_the_acting_user(db: Session, demo_ids: dict[str, int]) -> None:
    agency = actor_of(db, "agency@demo.example")  # no postbacks switched on
    with pytest.raises(Forbidden, match="Postbacks are not enabled for this account."):
        postbacks.get_postback(db, actor=agency)
    with pytest.raises(Forbidden, match="Postbacks are not enabled for this account."):
        postbacks.update_postback(db, actor=agency, url=GOOD_URL, events=["install"])

    _set(db, demo_ids[ADVERTISER], postback_enabled="DISABLED")
    with pytest.raises(Forbidden):
        postbacks.update_postback(db, actor=actor_of(db, ADVERTISER), url=GOOD_URL, events=["install"])

    with pytest.raises(Forbidden, match="You do not have permission to do that."):
        postbacks.get_postback(db, actor=actor_of(db, "admin@demo.example"))


def test_each_account_has_its_own_postback(db: Session, demo_ids: dict[str, int]) -> None:
    _agency, rival = other_tenant(db)
    assert rival.id is not None
    _set(db, rival.id, postback_enabled="ENABLED")
    _set(db, demo_ids["agency@demo.example"], postback_enabled="ENABLED")
    postbacks.update_postback(db, actor=actor_of(db, "rival-adv@other.example"), url="https://rival.example.com/pb",
                              events=["purchase"])
    postbacks.update_postback(db, actor=actor_of(db, "agency@demo.example"), url="https://agency.example.com/pb",
                              events=["install"])
    assert postbacks.get_postback(db, actor=actor_of(db, ADVERTISER)).model_dump() == {"url": "", "events": []}
    assert postbacks.get_postback(db, actor=actor_of(db, "agency@demo.example")).url == \
        "https://agency.example.com/pb"


def test_events_and_macros_are_declared_once_and_translated() -> None:
    from app.kernel.i18n.catalog import translator

    assert {"install", "open", "registration", "purchase", "add_to_cart", "level_achieved"} <= set(
        postbacks.POSTBACK_EVENTS)
    assert len(set(postbacks.POSTBACK_EVENTS)) == len(postbacks.POSTBACK_EVENTS)
    assert {"click_id", "event", "campaign_id"} <= set(postbacks.POSTBACK_MACROS)
    for language in ("en", "sp", "gr", "it", "rs"):
        t = translator(language)
        for name in postbacks.POSTBACK_EVENTS:
            assert t(f"postback.event.{name}") != f"postback.event.{name}"
        for name in postbacks.POSTBACK_MACROS:
            assert t(f"postback.macro.{name}") != f"postback.macro.{name}"


# ---- the page ----

def _sections(model: dict) -> set[str]:
    """Which parts of the settings page are on screen."""
    found = set()
    for node in walk(model):
        attributes = node.get("attributes", {})
        if node.get("tagName") == "form" and attributes.get("name") == "postback":
            found.add("postback")
        if "data-api-keys" in attributes:
            found.add("api_keys")
        if attributes.get("data-client-settings") == "empty":
            found.add("explanation")
    return found

def test_page_shows_postback_and_api_keys_when_both_are_on(demo_ids: dict[str, int]) -> None:
    from components.settings.client_settings import ClientSettingsPage

    model = render_model(ClientSettingsPage, signed_in_console(ADVERTISER), path="/advertiser-settings")
    text = text_of(model)
    assert _sections(model) == {"postback", "api_keys"}
    assert "{click_id}" in text and "Add to cart" in text
    boxes = [n["attributes"]["value"] for n in walk(model) if n.get("attributes", {}).get("name") == "events[]"]
    assert boxes == list(postbacks.POSTBACK_EVENTS)
    assert "No API keys yet" in text


def test_page_explains_itself_when_nothing_is_on(demo_ids: dict[str, int]) -> None:
    from components.settings.client_settings import ClientSettingsPage

    model = render_model(ClientSettingsPage, signed_in_console("agency@demo.example"), path="/agency/agency-settings")
    assert _sections(model) == {"explanation"}
    assert "Ask your account manager" in text_of(model)


def test_page_shows_only_what_is_on(db: Session, demo_ids: dict[str, int]) -> None:
    from components.settings.client_settings import ClientSettingsPage

    _set(db, demo_ids["agency@demo.example"], api_access=True)
    model = render_model(ClientSettingsPage, signed_in_console("agency@demo.example"), path="/agency/agency-settings")
    assert _sections(model) == {"api_keys"}
