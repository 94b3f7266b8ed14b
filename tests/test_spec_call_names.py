"""The spec's call names of section 7 that had no counterpart (issue 26): singleUserData, updateUser, addAdvertiser,
uploadLogo and generate-api-credentials answer as their REST twins and refuse what they refuse; redirector counts a
click once and forwards only to the ad's own targets; sheetData's file holds exactly the caller's rows."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import pytest
from sqlmodel import Session, col, select

from app.campaigns.models import Campaign
from app.creatives.models import CampaignCreative, Creative
from app.demo.advertising import seed_demo_advertising
from app.kernel.config import get_settings
from app.kernel.db import run, session_scope
from app.statistics import click_redirects
from app.statistics import service as statistics
from app.web import client_envelope
from tests.helpers import actor_of, bearer_headers, other_tenant
from tests.media_files import image_bytes


def _rival_ids() -> tuple[int, int]:
    def make(db: Session) -> tuple[int, int]:
        agency, advertiser = other_tenant(db)
        assert agency.id is not None and advertiser.id is not None
        return agency.id, advertiser.id

    return run(make)


# ---- aliases: the same answers as the REST twin, the same refusals ----------------------------------------

def test_single_user_data_and_update_user_answer_as_their_twins(client: Any, demo_ids: dict[str, int]) -> None:
    agency = bearer_headers(client, "agency@demo.example")
    own = demo_ids["advertiser@demo.example"]
    alias = client.get("/api/singleUserData", params={"user_id": own}, headers=agency)
    assert alias.status_code == 200, alias.text
    assert alias.json() == client.get(f"/api/users/{own}", headers=agency).json()
    updated = client.post("/api/updateUser", headers=agency, json={"user_id": own, "firstName": "Renamed"})
    assert updated.status_code == 200, updated.text
    data = updated.json()["data"]
    assert data == client.get(f"/api/users/{own}", headers=agency).json()["data"]
    assert data["name"].startswith("Renamed ") and data["email"] == "advertiser@demo.example"  # left out: kept

    _rival_agency, rival = _rival_ids()
    assert client.get("/api/singleUserData", params={"user_id": rival}, headers=agency).status_code == 404
    refused = client.post("/api/updateUser", headers=agency, json={"user_id": rival, "firstName": "Mine"})
    assert refused.status_code == 404
    advertiser = bearer_headers(client, "advertiser@demo.example")
    assert client.get("/api/singleUserData", params={"user_id": own}, headers=advertiser).status_code == 403
    assert client.post("/api/updateUser", headers=advertiser, json={"user_id": own, "firstName": "X"}).status_code == 403


def test_add_advertiser_makes_an_advertiser_of_the_agency(client: Any, demo_ids: dict[str, int]) -> None:
    agency = bearer_headers(client, "agency@demo.example")
    body = {"email": "spec-new@adv.example", "password": "api-Pass-1", "firstName": "Spec", "lastName": "New",
            "companyName": "Spec Co"}
    created = client.post("/api/addAdvertiser", headers=agency, json=body)
    assert created.status_code == 200, created.text
    data = created.json()["data"]
    assert data["role"] == "ADVERTISER" and data["agency_id"] == demo_ids["agency@demo.example"]
    assert "spec-new@adv.example" in {u["email"] for u in client.get("/api/users", headers=agency).json()["data"]["items"]}
    again = client.post("/api/addAdvertiser", headers=agency, json=body)  # the e-mail is taken, as on POST /users
    assert again.status_code == 422 and "email" in again.json()["data"]["fields"]
    advertiser = bearer_headers(client, "advertiser@demo.example")
    refused = client.post("/api/addAdvertiser", headers=advertiser, json={**body, "email": "x@adv.example"})
    assert refused.status_code == 403


def test_upload_logo_changes_the_brand_for_admins_only(client: Any, demo_ids: dict[str, int]) -> None:
    picture = {"file": ("logo.png", image_bytes(120, 40), "image/png")}
    agency = bearer_headers(client, "agency@demo.example")
    assert client.post("/api/uploadLogo", headers=agency, files=picture).status_code == 403
    admin = bearer_headers(client, "admin@demo.example")
    before = client.get("/api/auth/agency-config").json()["data"]
    uploaded = client.post("/api/uploadLogo", headers=admin, files=picture)
    assert uploaded.status_code == 200, uploaded.text
    logo = uploaded.json()["data"]["logoSrc"]
    assert logo != before.get("logoSrc") and client.get(logo).status_code == 200
    not_a_picture = client.post("/api/uploadLogo", headers=admin, files={"file": ("logo.png", b"MZ\x90\x00", "image/png")})
    assert not_a_picture.status_code == 422 and "logo" in not_a_picture.json()["data"]["fields"]


def test_generate_api_credentials_makes_a_working_key_in_scope_only(client: Any, demo_ids: dict[str, int]) -> None:
    own = demo_ids["advertiser@demo.example"]  # API access on in the demo seed
    agency = bearer_headers(client, "agency@demo.example")
    made = client.post("/api/generate-api-credentials", headers=agency, json={"user_id": own, "label": "Spec"})
    assert made.status_code == 200, made.text
    token = made.json()["data"]["token"]
    key = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/auth/profile", headers=key).json()["data"]["email"] == "advertiser@demo.example"
    listed = client.get(f"/api/users/{own}/api-keys", headers=agency).json()["data"]["items"]
    assert [k["label"] for k in listed] == ["Spec"]
    # As the twin: a key cannot mint keys, and another tenant's user is not found.
    assert client.post("/api/generate-api-credentials", headers=key,
                       json={"user_id": own, "label": "More"}).status_code == 403
    _rival_agency, rival = _rival_ids()
    assert client.post("/api/generate-api-credentials", headers=agency,
                       json={"user_id": rival, "label": "Theirs"}).status_code == 404


# ---- redirector -------------------------------------------------------------------------------------------

@pytest.fixture
def ad(demo_ids: dict[str, int]) -> dict[str, Any]:
    """A campaign of the demo advertiser, a creative it shows, and one of the same advertiser it does not."""
    with session_scope() as db:
        advertiser = actor_of(db, "advertiser@demo.example")
        seed_demo_advertising(db, actor=advertiser)
        db.commit()
        link = db.exec(select(CampaignCreative).join(Creative, col(Creative.id) == CampaignCreative.creative_id)
                       .where(Creative.advertiser_id == advertiser.id, Creative.click_url != "")
                       .order_by(col(CampaignCreative.id))).first()
        assert link is not None
        creative = db.get(Creative, link.creative_id)
        assert creative is not None
        shown = set(db.exec(select(CampaignCreative.creative_id).where(CampaignCreative.campaign_id == link.campaign_id)))
        other = db.exec(select(Creative.id).where(Creative.advertiser_id == advertiser.id,
                                                  col(Creative.id).not_in(shown))).first()
        return {"advertiser": advertiser, "campaign_id": link.campaign_id, "creative_id": link.creative_id,
                "click_url": creative.click_url, "other_creative": other}


def _clicks(ad: dict[str, Any]) -> int:
    today = datetime.now(UTC).date()
    with session_scope() as db:
        rows = statistics.statistics(db, actor=ad["advertiser"], start=today, end=today, metrics=["clicks"],
                                     filters={"campaign_id": [ad["campaign_id"]]})
    return int(rows[0]["clicks"] or 0) if rows else 0


def _follow(client: Any, **params: Any) -> Any:
    return client.get("/api/redirector", params=params, follow_redirects=False)


def test_a_click_is_counted_once_and_forwarded_to_the_creatives_click_url(client: Any, ad: dict[str, Any]) -> None:
    base = {"campaign_id": ad["campaign_id"], "creative_id": ad["creative_id"], "country": "DE"}
    before = _clicks(ad)
    first = _follow(client, **base, click_id="exch-1")
    assert first.status_code == 302, first.text
    assert first.headers["location"] == ad["click_url"]
    assert first.headers["cache-control"] == "no-store"
    assert _clicks(ad) == before + 1
    assert _follow(client, **base, click_id="exch-1").status_code == 302  # a reload: forwarded, not counted again
    assert _clicks(ad) == before + 1
    assert _follow(client, **base, to=ad["click_url"]).headers["location"] == ad["click_url"]  # no click id: counts
    assert _clicks(ad) == before + 2


def test_only_the_ads_own_or_signed_targets_are_forwarded_to(client: Any, ad: dict[str, Any]) -> None:
    base = {"campaign_id": ad["campaign_id"], "creative_id": ad["creative_id"], "country": "DE"}
    before = _clicks(ad)
    for params, field in (({**base, "to": "https://evil.example/phish"}, "to"),
                          ({**base, "to": "https://evil.example/phish", "sig": "0" * 32}, "to"),
                          ({**base, "to": "javascript:alert(1)"}, "to"),
                          ({**base, "creative_id": ad["other_creative"]}, "creative_id"),
                          ({**base, "campaign_id": 987654}, "campaign_id"),
                          ({**base, "country": "Narnia"}, "country"),
                          ({k: v for k, v in base.items() if k != "country"}, "country")):
        refused = _follow(client, **params)
        assert refused.status_code == 400, (params, refused.text)
        assert field in refused.json()["data"]["fields"], (params, refused.text)
        assert "location" not in refused.headers
    assert _clicks(ad) == before  # nothing refused was counted

    landing = "https://shop.example/landing?utm_source=dsp"
    link = click_redirects.signed_link(campaign_id=ad["campaign_id"], creative_id=ad["creative_id"], to=landing,
                                       country="FR")
    signed = client.get(link, follow_redirects=False)
    assert signed.status_code == 302 and signed.headers["location"] == landing
    assert _clicks(ad) == before + 1
    # The signature binds the target to its ad: the same signed target under another creative is refused.
    with session_scope() as db:
        other_link = db.exec(select(CampaignCreative).where(CampaignCreative.creative_id != ad["creative_id"])).first()
    if other_link is not None:
        moved = link.replace(f"creative_id={ad['creative_id']}", f"creative_id={other_link.creative_id}")
        moved = moved.replace(f"campaign_id={ad['campaign_id']}", f"campaign_id={other_link.campaign_id}")
        assert client.get(moved, follow_redirects=False).status_code == 400


# ---- sheetData --------------------------------------------------------------------------------------------

def _sheet(client: Any, headers: dict[str, str], body: dict[str, Any]) -> list[dict[str, str]]:
    reply = client.post("/api/sheetData", headers=headers, json=body)
    assert reply.status_code == 200, reply.text
    download = client.get(reply.json()["data"]["csv_download_url"], headers=headers)
    assert download.status_code == 200
    return list(csv.DictReader(io.StringIO(download.content.decode("utf-8-sig"))))


def test_sheet_data_holds_exactly_the_callers_rows(client: Any, ad: dict[str, Any]) -> None:
    with session_scope() as db:
        _agency, rival = other_tenant(db)
        db.add(Campaign(advertiser_id=rival.id, name="Rival Campaign", starts_at=datetime.now(UTC),
                        total_budget_micros=1, bid_micros=1))
        db.add(Creative(advertiser_id=rival.id, name="Rival Creative", type="image", click_url="https://r.example"))
        db.commit()
    advertiser = bearer_headers(client, "advertiser@demo.example")
    agency = bearer_headers(client, "agency@demo.example")
    admin = bearer_headers(client, "admin@demo.example")

    campaigns = _sheet(client, advertiser, {"list": "campaigns"})
    listed = client.get("/api/campaigns", headers=advertiser).json()["data"]["items"]
    assert sorted(int(r["id"]) for r in campaigns) == sorted(c["id"] for c in listed) and campaigns

    creatives = _sheet(client, agency, {"list": "creatives"})
    listed = client.get("/api/creatives", headers=agency).json()["data"]["items"]
    assert sorted(int(r["id"]) for r in creatives) == sorted(c["id"] for c in listed) and creatives
    assert "Rival Creative" not in {r["name"] for r in creatives}
    assert "Rival Creative" in {r["name"] for r in _sheet(client, admin, {"list": "creatives"})}
    shown = _sheet(client, agency, {"list": "creatives", "filters": {"campaign_id": ad["campaign_id"]}})
    assert str(ad["creative_id"]) in {r["id"] for r in shown}

    users = _sheet(client, agency, {"list": "users"})
    assert [r["email"] for r in users] == ["advertiser@demo.example"]
    assert {"can_edit", "password"}.isdisjoint(users[0])  # the list's columns, not its buttons or secrets
    assert len(_sheet(client, admin, {"list": "users", "filters": {"role": "AGENCY"}})) == 2


def test_sheet_data_refuses_what_the_list_refuses(client: Any, demo_ids: dict[str, int]) -> None:
    advertiser = bearer_headers(client, "advertiser@demo.example")
    assert client.post("/api/sheetData", headers=advertiser, json={"list": "users"}).status_code == 403
    wrong = client.post("/api/sheetData", headers=advertiser, json={"list": "campaigns", "filters": {"role": "ADMIN"}})
    assert wrong.status_code == 422 and "filters.role" in wrong.json()["data"]["fields"]
    bad = client.post("/api/sheetData", headers=advertiser, json={"list": "creatives", "filters": {"status": "gone"}})
    assert bad.status_code == 422 and "filters.status" in bad.json()["data"]["fields"]
    assert client.post("/api/sheetData", json={"list": "campaigns"}).status_code == 401


def test_a_signed_link_is_a_redirector_path() -> None:
    link = click_redirects.signed_link(campaign_id=1, creative_id=2, to="https://a.example/")
    assert link.startswith(click_redirects.PATH + "?") and "country={country}" in link
    assert urlencode({"to": "https://a.example/"}) in link


def test_the_spec_client_calls_a_new_name_through_its_envelope(client: Any, demo_ids: dict[str, int],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """As the spec's client sends it: the body sealed as encryptedData, the answer read from encryptedResponse."""
    key = "spec-client-key-2026"
    monkeypatch.setattr(get_settings(), "client_envelope_key", key)
    agency = bearer_headers(client, "agency@demo.example")
    body = {"user_id": demo_ids["advertiser@demo.example"], "companyName": "Sealed Co"}
    reply = client.post("/api/updateUser", headers=agency,
                        json={"encryptedData": client_envelope.encrypt(json.dumps(body), key)})
    assert reply.status_code == 200, reply.text
    answer = json.loads(client_envelope.decrypt(reply.json()["encryptedResponse"], key))
    assert answer["success"] is True and answer["data"]["company_name"] == "Sealed Co"
