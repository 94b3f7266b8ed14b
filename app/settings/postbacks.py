"""Conversion postbacks: the URL a client's measurement partner is called on, and which events it gets.

Set by the acting user (agency or advertiser) while an admin has postback_enabled ENABLED for them.
"""

from __future__ import annotations

import secrets

from sqlmodel import Session

from app.access import preferences
from app.access.models import UserSettings
from app.access.policy import Actor, require
from app.history import audit
from app.kernel import validation as v
from app.kernel.errors import Forbidden, Invalid

# POSTBACK_EVENTS is named "as" itself: the pages read the events here, beside the rules that use them.
from app.settings.schemas import POSTBACK_EVENTS as POSTBACK_EVENTS
from app.settings.schemas import PostbackEndpointRead, PostbackRead

ENABLED = "ENABLED"
URL_MAX_LENGTH = 500

# Placeholders replaced in the postback URL when a postback is sent.
POSTBACK_MACROS: tuple[str, ...] = (
    "click_id", "event", "event_time", "campaign_id", "creative_id", "advertiser_id", "app_id", "device_id",
    "ip", "country", "revenue", "currency",
)

# Events received on the postback endpoint that count as a conversion (the others are only custom events).
CONVERSION_EVENTS: frozenset[str] = frozenset({
    "install", "purchase", "registration", "subscription", "trial_started", "checkout_initiated", "conversion"})
ENDPOINT_PATH = "/api/postback/{token}"
# The query a measurement partner appends to the endpoint, in its own macro syntax where it has one.
ENDPOINT_QUERY = "click_id={click_id}&event=install&campaign_id={campaign_id}&country={country}&os={os}"

NOT_ENABLED = "Postbacks are not enabled for this account."
URL_TOO_LONG = v.too_long(URL_MAX_LENGTH)
NO_EVENTS = "Choose at least one event."


def _settings(db: Session, actor: Actor, action: str) -> UserSettings:
    require(actor, "postback", action)
    settings = preferences.settings_of(db, actor.id)
    if settings.postback_enabled != ENABLED:
        raise Forbidden(NOT_ENABLED)
    return settings


def _view(settings: UserSettings) -> PostbackRead:
    return PostbackRead(url=settings.postback_url or "",
                        events=[e for e in POSTBACK_EVENTS if e in (settings.postback_events or [])])


def get_postback(db: Session, *, actor: Actor) -> PostbackRead:
    """{url, events} of the acting user (events in POSTBACK_EVENTS order)."""
    return _view(_settings(db, actor, "view"))


def update_postback(db: Session, *, actor: Actor, url: str | None = None,
                    events: list[str] | None = None) -> PostbackRead:
    """Save the URL and events given (one left out, None, keeps its value). An empty URL with no events switches
    the postback off."""
    settings = _settings(db, actor, "update")
    url = (settings.postback_url or "") if url is None else url.strip()
    chosen = list(settings.postback_events or []) if events is None else list(dict.fromkeys(events))
    if any(e not in POSTBACK_EVENTS for e in chosen):
        raise Invalid({"events": "Not an allowed value."})
    errors: dict[str, str] = {}
    if len(url) > URL_MAX_LENGTH:
        errors["url"] = URL_TOO_LONG
    elif message := v.optional_http_url(url):
        errors["url"] = message
    elif not url and chosen:
        errors["url"] = "This field is required."
    if url and not chosen:
        errors["events"] = NO_EVENTS
    if errors:
        raise Invalid(errors)
    before = _view(settings)
    settings.postback_url = url
    settings.postback_events = [e for e in POSTBACK_EVENTS if e in chosen]
    db.add(settings)
    after = _view(settings)
    audit.record(db, actor=actor, entity="postback", entity_id=actor.id, action="update", before=before.model_dump(),
                 after=after.model_dump())
    return after


def postback_endpoint(db: Session, *, actor: Actor) -> PostbackEndpointRead:
    """The acting user's conversion endpoint (its token, path and an example). The token (the endpoint's only
    credential) is made the first time it is asked for and kept; the path is relative to the console's address."""
    settings = _settings(db, actor, "view")
    if not settings.postback_token:
        settings.postback_token = secrets.token_urlsafe(24)  # 192 random bits
        db.add(settings)
        audit.record(db, actor=actor, entity="postback", entity_id=actor.id, action="token",
                     after={"token": "created"})
    path = ENDPOINT_PATH.format(token=settings.postback_token)
    return PostbackEndpointRead(token=settings.postback_token, path=path, example=f"{path}?{ENDPOINT_QUERY}")
