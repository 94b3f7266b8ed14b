"""Click redirects: the spec's `redirector` call (section 7, "Admin"), defined here as a tracking link that counts
a click and forwards the browser to the ad's landing page.

    GET /api/redirector?campaign_id=12&creative_id=34&country=DE[&click_id=...][&to=...&sig=...]

Public, as a click comes from whoever saw the ad. So that it can never be an open redirect (a link on our domain
sending people anywhere), it forwards only to
- the creative's own click URL (the default, when `to` is left out, or `to` equal to it), or
- a URL the server signed for this campaign and creative (`sig`, an HMAC under the app's secret: signed_link),
and refuses anything else with 400 naming `to`. The creative must be one the campaign shows.

The click is stored where delivery statistics and postbacks are stored: one hourly fact with clicks 1 (no
impressions, no spend), written through the same checks and the same idempotent batch write
(ingestion.store_and_charge), so it is in the campaign's click count on every dashboard and report without a
second counter to add. Its batch id is derived from (campaign, creative, click_id) when the link carries the
exchange's click id, so a click followed twice (a reload, a prefetch) counts once; without one every request is a
click. Nothing about the visitor is stored (no address, no user agent): only the placement the link names, as
the other writers store it.

A console whose DSP also reports clicks in its delivery batches should use either those or this link for a
campaign, not both, or its clicks are counted twice.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC
from urllib.parse import urlencode

from sqlmodel import Session, select

from app.campaigns.models import Campaign
from app.creatives.models import CampaignCreative, Creative
from app.kernel import validation as v
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.kernel.errors import BadRequest, Invalid
from app.statistics import ingestion
from app.statistics.schemas import RowValue

PATH = "/api/redirector"
UNKNOWN = "unknown"
MAX_VALUE = 200
# The query parameters, described once for the OpenAPI document and the service.
PARAMETERS: dict[str, str] = {
    "campaign_id": "The campaign the ad ran in (required)",
    "creative_id": "The creative clicked, one the campaign shows (required)",
    "country": "ISO 3166-1 alpha-2 country of the device, as the exchange's macro fills it (required)",
    "click_id": "The exchange's click id: a click with the same id counts once (default: every request counts)",
    "to": "Where to forward: the creative's click URL (the default), or a URL the server signed (with sig)",
    "sig": "The server's signature of `to` for this campaign and creative (from a signed link)",
    "os": "Operating system name (default unknown)",
    "exchange": "Exchange name (default unknown)",
    "app": "App bundle id or site domain (default unknown)",
    "device_type": "phone, tablet, desktop, ctv or other (default other)",
}
REQUIRED = ("campaign_id", "creative_id", "country")

NO_AD = "No such ad: the campaign does not show this creative."
NOT_ALLOWED = "Not a target this ad may forward to: use the creative's click URL or a signed link."
NO_TARGET = "This creative has no click URL: give a signed `to`."


@dataclass(frozen=True)
class ClickForward:
    target: str
    batch_id: str
    duplicate: bool = False


def _signature(campaign_id: int, creative_id: int, to: str) -> str:
    # A key of its own derived from the app's secret, so a signature here can never pass for another token.
    key = hashlib.sha256(b"dsp-console redirector\n" + get_settings().secret_key.encode()).digest()
    return hmac.new(key, f"{campaign_id}\n{creative_id}\n{to}".encode(), hashlib.sha256).hexdigest()[:32]


def signed_link(*, campaign_id: int, creative_id: int, to: str, country: str = "{country}") -> str:
    """A redirector link forwarding to `to` (e.g. a landing page with tracking parameters the creative's click
    URL lacks); `country` defaults to the macro an exchange fills."""
    query = {"campaign_id": campaign_id, "creative_id": creative_id, "to": to,
             "sig": _signature(campaign_id, creative_id, to), "country": country}
    return f"{PATH}?{urlencode(query, safe='{}')}"


def _text(params: Mapping[str, str], name: str) -> str:
    value = params.get(name)
    return value.strip() if isinstance(value, str) else ""


def _target(creative: Creative, campaign_id: int, to: str, sig: str) -> str:
    """The URL to forward to, or BadRequest naming `to`."""
    if not to:
        if not creative.click_url:
            raise BadRequest({"to": NO_TARGET})
        return creative.click_url
    if v.click_url(to) is not None:  # even a signed target must be an http(s) URL with a domain
        raise BadRequest({"to": v.INVALID_URL})
    assert creative.id is not None
    if to == creative.click_url or (sig and hmac.compare_digest(sig, _signature(campaign_id, creative.id, to))):
        return to
    raise BadRequest({"to": NOT_ALLOWED})


def _ad(db: Session, params: Mapping[str, str]) -> tuple[Campaign, Creative]:
    errors = {name: ingestion.REQUIRED for name in REQUIRED if not _text(params, name)}
    errors |= {name: f"At most {MAX_VALUE} characters." for name in PARAMETERS
               if name != "to" and len(_text(params, name)) > MAX_VALUE}
    if errors:
        raise BadRequest(errors)
    campaign_id = ingestion.count_of(_text(params, "campaign_id"))
    creative_id = ingestion.count_of(_text(params, "creative_id"))
    campaign = db.get(Campaign, campaign_id) if campaign_id else None
    creative = db.get(Creative, creative_id) if creative_id else None
    shown = campaign is not None and creative is not None and db.exec(
        select(CampaignCreative.id).where(CampaignCreative.campaign_id == campaign_id,
                                          CampaignCreative.creative_id == creative_id)).first() is not None
    if not shown:
        raise BadRequest({"campaign_id" if campaign is None else "creative_id": NO_AD})
    assert campaign is not None and creative is not None
    return campaign, creative


def _batch_id(campaign_id: int, creative_id: int, click_id: str) -> str:
    if not click_id:
        return f"click:{uuid.uuid4().hex}"
    digest = hashlib.sha256(f"{campaign_id}\n{creative_id}\n{click_id}".encode()).hexdigest()
    return f"click:{digest[:40]}"


def record_click(db: Session, *, params: Mapping[str, str]) -> ClickForward:
    """Check the link, store its click (once per click_id) and answer where to forward. BadRequest naming the
    parameter, and nothing stored, when the link is not one of ours."""
    campaign, creative = _ad(db, params)
    assert campaign.id is not None and creative.id is not None
    target = _target(creative, campaign.id, _text(params, "to"), _text(params, "sig"))
    row: dict[str, RowValue] = {
        "hour": ingestion.now_hour().replace(tzinfo=UTC), "advertiser_id": campaign.advertiser_id,
        "campaign_id": campaign.id, "creative_id": creative.id, "exchange": _text(params, "exchange") or UNKNOWN,
        "os": _text(params, "os") or UNKNOWN, "country": _text(params, "country"),
        "app": _text(params, "app") or UNKNOWN, "device_type": _text(params, "device_type") or "other",
        "impressions": 0, "clicks": 1, "spend_micros": 0, "conversions": 0, "events": {}}
    try:
        facts = ingestion.check_rows(db, [("", row)])
    except Invalid as problem:  # a placement the exchange filled wrongly: named as the link's parameter
        raise BadRequest(problem.fields) from None
    batch_id = _batch_id(campaign.id, creative.id, _text(params, "click_id"))
    stored = ingestion.store_and_charge(db, batch_id=batch_id, facts=facts, source="click")
    return ClickForward(target=target, batch_id=batch_id, duplicate=stored.duplicate)


def follow_click(*, params: Mapping[str, str]) -> ClickForward:
    """record_click in its own unit of work. Blocking (database and statistics writes): call it from a worker
    thread, never on the event loop."""
    with session_scope() as db:
        return record_click(db, params=params)
