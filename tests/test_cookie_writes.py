"""A write signed in by the browser's session cookie must come from the console's own origin (issue 37): a page of
the same site on another port or subdomain gets the cookie sent along (SameSite=Lax allows same-site), and cloned
a campaign with it. Bearer calls are not asked (app/web/cookie_writes.py)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from sqlmodel import func, select

from app.access.sessions import SESSION_COOKIE
from app.campaigns.models import Campaign
from app.kernel.db import run
from app.web.cookie_writes import COOKIE_WRITE_REFUSED
from tests.helpers import bearer_headers, browser_session, user_by_email

EMAIL = "advertiser@demo.example"


def _campaigns() -> int:
    def count(db: Any) -> int:
        owner = user_by_email(db, EMAIL).id
        return int(db.exec(select(func.count()).select_from(Campaign).where(Campaign.advertiser_id == owner)).one())
    return int(run(count))


@pytest.fixture
def campaign_id(client: Any) -> int:
    """A campaign of the advertiser's, made over the API."""
    starts = (date.today() + timedelta(days=7)).isoformat()
    created = client.post("/api/campaigns", headers=bearer_headers(client, EMAIL), json={
        "name": "Cookie Week", "objective": "app_installs", "starts_at": starts, "time_zone": "UTC",
        "total_budget": "1200", "bid_strategy": "cpc", "bid": "0.35",
        "targeting": {"countries": ["US"], "device_types": ["phone"]}})
    assert created.status_code == 201, created.text
    return int(created.json()["data"]["id"])


@pytest.fixture
def signed_in(client: Any) -> Any:
    """The client holding the advertiser's browser session cookie."""
    token, _session_id = browser_session(EMAIL)
    client.cookies.set(SESSION_COOKIE, token)
    return client


def _clone(client: Any, campaign_id: int, **headers: str) -> Any:
    return client.post(f"/api/campaigns/{campaign_id}/clone", headers=headers)


@pytest.mark.parametrize("origin", ["http://testserver:8081", "http://shop.testserver", "null"])
def test_a_cookie_write_from_another_origin_of_the_site_is_refused_and_changes_nothing(signed_in, campaign_id,
                                                                                        origin) -> None:
    before = _campaigns()
    refused = _clone(signed_in, campaign_id, origin=origin)
    assert (refused.status_code, refused.json()["message"]) == (403, COOKIE_WRITE_REFUSED)
    assert _campaigns() == before


@pytest.mark.parametrize("fetch_site", ["same-site", "cross-site"])
def test_without_an_origin_sec_fetch_site_decides(signed_in, campaign_id, fetch_site) -> None:
    before = _campaigns()
    assert _clone(signed_in, campaign_id, **{"sec-fetch-site": fetch_site}).status_code == 403
    assert _campaigns() == before
    assert _clone(signed_in, campaign_id, **{"sec-fetch-site": "same-origin"}).status_code == 201
    assert _campaigns() == before + 1


def test_the_same_write_from_the_consoles_own_pages_works(signed_in, campaign_id) -> None:
    before = _campaigns()
    assert _clone(signed_in, campaign_id, origin="http://testserver").status_code == 201
    assert _campaigns() == before + 1


def test_a_cookie_write_with_neither_header_is_a_non_browser_client_and_works(signed_in, campaign_id) -> None:
    """curl with a copied cookie: it could send any Origin it liked, so refusing it would protect nothing."""
    assert _clone(signed_in, campaign_id).status_code == 201


def test_reads_and_bearer_calls_are_not_asked_where_they_come_from(client, signed_in, campaign_id) -> None:
    assert signed_in.get(f"/api/campaigns/{campaign_id}", headers={"origin": "http://testserver:8081"}).status_code == 200
    bearer = bearer_headers(client, EMAIL)
    client.cookies.clear()
    assert _clone(client, campaign_id, origin="http://testserver:8081", **bearer).status_code == 201
