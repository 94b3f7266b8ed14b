"""Conversion postbacks coming in on /api/postback/{token}, and going out to the client's own postback URL.

A measurement partner calls the endpoint once per attributed event. The token is the credential: it belongs to
one advertiser (or agency) and only ever writes statistics of that advertiser (an agency's: of its
advertisers), for a campaign of theirs. Each event is one hourly fact (events {event: 1}, plus a conversion for
CONVERSION_EVENTS), stored through the same checks as an ingestion batch, with (token, click_id, event) as its
batch id: a partner that retries changes nothing.

When the client has postbacks ENABLED, a URL and the event among its chosen events, the event is forwarded to
that URL (macros replaced) by a job of the app's queue ("postbacks.forward"), written in the same transaction as
the event: the caller never waits for a third party's server, a forward survives a restart, and each forward's
final outcome is recorded in postback_deliveries.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import quote

import httpx
import pycountry
from sqlmodel import Session, col, select

from app import jobs
from app.access.models import User, UserSettings, UserStatus
from app.access.policy import Actor, require
from app.access.roles import Role
from app.campaigns.models import Campaign
from app.kernel import pinned_http
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.kernel.errors import Invalid, NotFound
from app.settings.models import PostbackDelivery
from app.settings.postbacks import CONVERSION_EVENTS, ENABLED, POSTBACK_MACROS
from app.statistics import ingestion
from app.statistics.schemas import PostbackDeliveryRead, PostbackReceipt, RowValue
from app.warehouse.schema import DEVICE_TYPES, EVENT_NAME_PATTERN

logger = logging.getLogger(__name__)

PARAMETERS: dict[str, str] = {
    "click_id": "The click the event is attributed to (required; with the event, it makes a retry harmless)",
    "event": "The event name: a-z, 0-9 and _ (required). "
             f"{', '.join(sorted(CONVERSION_EVENTS))} also count as a conversion",
    "campaign_id": "Your campaign's id (required)",
    "creative_id": "The creative's id, 0 when unknown",
    "country": "ISO 3166-1 alpha-2 country of the device (required)",
    "os": "Operating system name (default unknown)",
    "exchange": "Exchange name (default unknown)",
    "app": "App bundle id or site domain (default unknown)",
    "device_type": f"One of {', '.join(DEVICE_TYPES)} (default other)",
    "event_time": "ISO 8601 time with its offset (default now)",
    "revenue": "The event's revenue, e.g. 4.99 (passed on to your postback URL)",
    "currency": "ISO 4217 code of the revenue (default USD)",
    "device_id": "Advertising id of the device (passed on to your postback URL)",
    "ip": "IP address of the device (passed on to your postback URL)",
}
UNKNOWN = "unknown"
MAX_VALUE = 200
TIMEOUT_S = 5.0
ATTEMPTS = 3
BACKOFF_S: tuple[float, ...] = (1.0, 3.0)  # before the second and third attempts (the queue waits, no thread)
FUTURE_SLACK = timedelta(minutes=10)  # a partner's clock may run a little ahead of ours
_EVENT = re.compile(EVENT_NAME_PATTERN)

BAD_TOKEN = "No such postback endpoint."
NO_CAMPAIGN = "No such campaign of yours."

@dataclass(frozen=True)
class Forward:
    user_id: int
    advertiser_id: int
    event: str
    url: str


def _owner(db: Session, token: str) -> tuple[UserSettings, User]:
    found = None
    if token and len(token) <= 64:
        found = db.exec(select(UserSettings, User).join(User, col(User.id) == UserSettings.user_id)
                        .where(UserSettings.postback_token == token)).first()
    if found is None or found[1].status != UserStatus.ACTIVE or found[1].role not in (Role.ADVERTISER, Role.AGENCY):
        raise NotFound(BAD_TOKEN)
    return found[0], found[1]


def _allowed_advertisers(db: Session, owner: User) -> set[int]:
    assert owner.id is not None
    if owner.role == Role.ADVERTISER:
        return {owner.id}
    return {i for i in db.exec(select(col(User.id)).where(User.agency_id == owner.id, User.role == Role.ADVERTISER)) if i}


def _parse(params: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The parameters as plain values, and the problems by field name."""
    def text(name: str, default: str | None = None) -> str | None:
        value = params.get(name)
        value = value.strip() if isinstance(value, str) else None
        return value or default

    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    for name in ("click_id", "event", "campaign_id", "country"):
        if not text(name):
            errors[name] = ingestion.REQUIRED
    for name in PARAMETERS:
        value = text(name)
        if value and len(value) > MAX_VALUE:
            errors[name] = f"At most {MAX_VALUE} characters."
    event = text("event", "")
    if event and not _EVENT.match(event):
        errors["event"] = "Use a-z, 0-9 and _ (at most 40 characters)."
    values["event"] = event
    moment = datetime.now(UTC).replace(tzinfo=None)
    if raw_time := text("event_time"):
        parsed = ingestion.parse_hour(raw_time)
        if parsed is None:
            errors["event_time"] = ingestion.BAD_HOUR
        elif parsed > moment + FUTURE_SLACK:
            errors["event_time"] = "This time is in the future."
        else:
            moment = parsed
    values["event_time"] = moment
    revenue = text("revenue", "")
    if revenue:
        try:
            amount = Decimal(revenue)
            if not amount.is_finite() or amount < 0:
                raise InvalidOperation
        except InvalidOperation:
            errors["revenue"] = "Give an amount, e.g. 4.99."
    currency = (text("currency", "USD") or "USD").upper()
    if pycountry.currencies.get(alpha_3=currency) is None:
        errors["currency"] = "Not an ISO 4217 currency code."
    values.update(revenue=revenue, currency=currency, click_id=text("click_id", ""),
                  device_id=text("device_id", ""), ip=text("ip", ""))
    return values, errors


def batch_id_of(token: str, click_id: str, event: str) -> str:
    """The batch id of one postback: the same (token, click, event) always gives the same id. Hashed, so the
    token never reaches the statistics store and any click id fits the batch id's characters."""
    digest = hashlib.sha256(f"{token}\n{click_id}\n{event}".encode()).hexdigest()
    return f"postback:{digest[:40]}"


def _forward_url(template: str, values: Mapping[str, str]) -> str:
    url = template
    for name in POSTBACK_MACROS:
        url = url.replace("{" + name + "}", quote(values.get(name, ""), safe=""))
    return url


def record_postback(db: Session, *, token: str, params: Mapping[str, str]) -> tuple[PostbackReceipt, Forward | None]:
    """Store one postback (Invalid naming the parameter, nothing written, when one is wrong) and say whether it
    is to be forwarded. Answers ({batch_id, event, conversion, duplicate, forwarded}, the forward or None)."""
    settings, owner = _owner(db, token)
    assert owner.id is not None
    values, errors = _parse(params)
    campaign_id = ingestion.count_of(params.get("campaign_id"))
    campaign = db.get(Campaign, campaign_id) if campaign_id else None
    allowed = _allowed_advertisers(db, owner)
    if "campaign_id" not in errors and (campaign is None or campaign.advertiser_id not in allowed):
        errors["campaign_id"] = NO_CAMPAIGN  # another tenant's campaign answers like a missing one
    if errors:
        raise Invalid(errors)
    assert campaign is not None
    event = values["event"]
    moment: datetime = values["event_time"]
    row: dict[str, RowValue] = {"hour": moment.replace(minute=0, second=0, microsecond=0, tzinfo=UTC),
           "advertiser_id": campaign.advertiser_id, "campaign_id": campaign.id,
           "creative_id": params.get("creative_id") or 0, "exchange": params.get("exchange") or UNKNOWN,
           "os": params.get("os") or UNKNOWN, "country": params.get("country"), "app": params.get("app") or UNKNOWN,
           "device_type": params.get("device_type") or "other", "impressions": 0, "clicks": 0, "spend_micros": 0,
           "conversions": 1 if event in CONVERSION_EVENTS else 0, "events": {event: 1}}
    facts = ingestion.check_rows(db, [("", row)], allowed_advertisers=allowed)
    batch_id = batch_id_of(token, values["click_id"], event)
    stored = ingestion.store_and_charge(db, batch_id=batch_id, facts=facts, source="postback")
    forward = None
    if (not stored.duplicate and settings.postback_enabled == ENABLED and settings.postback_url
            and event in (settings.postback_events or [])):
        macros = {"click_id": values["click_id"], "event": event,
                  # Unix seconds, as the settings page's macro list promises (what MMP templates expect).
                  "event_time": str(int(moment.replace(tzinfo=UTC).timestamp())), "campaign_id": str(campaign.id),
                  "creative_id": str(facts[0].creative_id), "advertiser_id": str(campaign.advertiser_id),
                  "app_id": facts[0].app, "device_id": values["device_id"], "ip": values["ip"],
                  "country": facts[0].country, "revenue": values["revenue"], "currency": values["currency"]}
        forward = Forward(owner.id, campaign.advertiser_id, event,
                          _forward_url(settings.postback_url, macros))
    answer = PostbackReceipt(batch_id=batch_id, event=event, conversion=event in CONVERSION_EVENTS,
                             duplicate=stored.duplicate, forwarded=forward is not None)
    return answer, forward


def receive_postback(*, token: str, params: Mapping[str, str]) -> PostbackReceipt:
    """record_postback in its own unit of work, with the forward (if any) queued in it: a forward exists iff
    the event was stored. Blocking: call it from a worker thread (the API does), never on the event loop."""
    with session_scope() as db:
        answer, forward = record_postback(db, token=token, params=params)
        if forward is not None:
            jobs.defer(db, "postbacks.forward", **asdict(forward))
    return answer


def _record(forward: Forward, *, status: int | None, error: str, attempts: int) -> None:
    with session_scope() as db:
        db.add(PostbackDelivery(user_id=forward.user_id, advertiser_id=forward.advertiser_id, event=forward.event,
                                url=forward.url[:2048], status_code=status, error=error[:255], attempts=attempts))


@jobs.task("postbacks.forward", attempts=ATTEMPTS, backoff=BACKOFF_S)
def forward_job(user_id: int, advertiser_id: int, event: str, url: str) -> None:
    """GET the client's URL once per attempt. A server error (5xx, 429) or no answer is retried by the queue,
    BACKOFF_S apart, up to ATTEMPTS times; a 2xx-4xx answer is final (a 404 will not become a 200 by asking
    again). The final outcome is recorded. The host is resolved once per attempt, refused when any address is
    private or local (unless DSP_POSTBACK_ALLOW_PRIVATE_TARGETS, for trackers inside the same network: DNS
    answers change, so on every attempt), and the request goes to the checked address."""
    forward = Forward(user_id, advertiser_id, event, url)
    number, last = jobs.attempt()
    try:
        target = pinned_http.resolve(url, allow_private=get_settings().postback_allow_private_targets)
    except pinned_http.Refused as refusal:
        _record(forward, status=None, error=str(refusal), attempts=0)
        return
    status: int | None = None
    try:
        with httpx.Client(timeout=TIMEOUT_S, follow_redirects=False) as http:
            status = pinned_http.request(http, "GET", target,
                                         headers={"user-agent": "DSP-Console-Postback/1"}).status_code
        error = "" if status < 400 else f"HTTP {status}"
    except httpx.HTTPError as failure:
        error = f"{type(failure).__name__}: {failure}"
    final = status is not None and status < 500 and status != 429
    if not final and number < last:
        raise jobs.Retry(error)
    _record(forward, status=status, error=error, attempts=number)


def recent_deliveries(db: Session, *, actor: Actor, limit: int = 20) -> list[PostbackDeliveryRead]:
    """The acting user's last forwards, newest first (for its settings page)."""
    require(actor, "postback", "view")
    rows = db.exec(select(PostbackDelivery).where(PostbackDelivery.user_id == actor.id)
                   .order_by(col(PostbackDelivery.id).desc()).limit(limit)).all()
    return [PostbackDeliveryRead(event=r.event, url=r.url, status_code=r.status_code, error=r.error,
                                 attempts=r.attempts, at=r.created_at.isoformat()) for r in rows]
