"""CSV export of the campaign list: the chosen columns of the rows the user sees (filters, sort, row scope),
cells a spreadsheet would run as formulas shown as text, and a download link that works for 15 minutes and
only for the user who exported."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import export as campaign_export
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel import csv_exports
from app.kernel.db import run
from app.kernel.errors import Invalid
from tests.helpers import actor_of, bearer_headers, browser_session, other_tenant, stored_csv_text

BASE = {"objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1000",
        "bid_strategy": "cpm", "bid": "2"}


def _rows(path_or_text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path_or_text.lstrip("\ufeff"))))


def _file_rows(export: dict[str, str], actor: Actor) -> list[list[str]]:
    token = export.csv_download_url.removeprefix(csv_exports.URL_PREFIX)
    stored = csv_exports.open_export(token=token, actor=actor)[0]
    return _rows(stored_csv_text(stored))


def _seed(db: Session) -> None:
    me = actor_of(db, "advertiser@demo.example")
    for name, budget in (("Spring Sale", "500"), ("-Winter Sale", "700"), ("Autumn Push", "900")):
        campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": name, "total_budget": budget}))


def test_columns_filters_and_sort_follow_the_list(db):
    _seed(db)
    me = actor_of(db, "advertiser@demo.example")
    export = campaign_export.export_campaigns(db, actor=me, columns=["name", "total_budget", "status"],
                                              search="sale", sort="-total_budget")
    assert export.filename.startswith("Campaigns-") and export.filename.endswith(".csv")
    assert _file_rows(export, me) == [
        ["name", "total_budget", "status"],
        ["'-Winter Sale", "700.00", "Draft"],  # a leading - would make a spreadsheet formula of it
        ["Spring Sale", "500.00", "Draft"]]
    everything = _file_rows(campaign_export.export_campaigns(db, actor=me, columns=[]), me)
    assert everything[0] == list(campaigns.LIST_COLUMNS) and len(everything) == 4
    with pytest.raises(Invalid) as error:
        campaign_export.export_campaigns(db, actor=me, columns=["name", "password_hash"])
    assert set(error.value.fields) == {"columns"}
    with pytest.raises(Invalid) as error:
        campaign_export.export_campaigns(db, actor=me, columns=["name"], sort="-secret")
    assert set(error.value.fields) == {"sort"}


@pytest.mark.parametrize("text", ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tTab", "\rCR"])
def test_formula_starts_are_shown_as_text(text):
    assert csv_exports.safe_cell(text) == "'" + text
    assert csv_exports.safe_cell("Plain - text") == "Plain - text" and csv_exports.safe_cell(None) == ""


def test_another_tenants_campaigns_never_reach_an_export(db):
    rival_agency, rival_advertiser = other_tenant(db)
    campaigns.create_campaign(db, actor=actor_of(db, rival_agency.email), advertiser_id=rival_advertiser.id,
                              data=CampaignUpdate.model_validate({**BASE, "name": "Rival Sale"}))
    _seed(db)
    for email in ("agency@demo.example", "advertiser@demo.example"):
        actor = actor_of(db, email)
        names = [row[0] for row in _file_rows(campaign_export.export_campaigns(db, actor=actor, columns=["name"]),
                                              actor)[1:]]
        assert "Rival Sale" not in names and len(names) == 3


def test_the_download_is_an_attachment_for_its_user_only(client):
    run(_seed)
    me = bearer_headers(client, "advertiser@demo.example")
    reply = client.post("/api/campaning/exportCampaningData", headers=me, json={"columns": ["name"], "search": "spring"})
    assert reply.status_code == 200 and reply.json()["success"] is True
    url = reply.json()["data"]["csv_download_url"]
    assert url.startswith("/files/exports/")
    download = client.get(url, headers=me)
    assert download.status_code == 200
    assert download.headers["content-type"].startswith("text/csv")
    assert download.headers["content-disposition"].startswith("attachment;")
    assert _rows(download.text) == [["name"], ["Spring Sale"]]
    cookie, _ = browser_session("advertiser@demo.example")  # the browser's session works too
    client.cookies.set("dsp_session", cookie)
    assert client.get(url).status_code == 200
    client.cookies.clear()
    other = client.get(url, headers=bearer_headers(client, "agency@demo.example"))  # the agency sees the campaign,
    assert other.status_code == 403  # but the link is the advertiser's
    assert client.get(url).status_code == 401  # nobody signed in
    assert client.get(url[:-3] + "abc", headers=me).status_code == 404  # a forged signature


def test_an_expired_link_is_refused(client, monkeypatch):
    run(_seed)
    me = bearer_headers(client, "advertiser@demo.example")
    monkeypatch.setattr(csv_exports, "LINK_LIFETIME", timedelta(seconds=-1))
    url = client.post("/api/campaigns/export", headers=me, json={"columns": ["name"]}).json()["data"]["csv_download_url"]
    reply = client.get(url, headers=me)
    assert reply.status_code == 404 and reply.text == csv_exports.EXPIRED


def test_the_search_and_titles_follow_the_grid(db):
    """The list's search box matches words in any shown column; the page sends its translated titles."""
    _seed(db)
    me = actor_of(db, "advertiser@demo.example")
    export = campaign_export.export_campaigns(db, actor=me, columns=["name", "status"], search="SPRING draft",
                                              headers=["Nombre", "Estado"])
    assert _file_rows(export, me) == [["Nombre", "Estado"], ["Spring Sale", "Draft"]]
    with pytest.raises(Invalid) as error:
        campaign_export.export_campaigns(db, actor=me, columns=["name", "status"], headers=["Nombre"])
    assert set(error.value.fields) == {"headers"}


def test_the_page_columns_export_as_the_list_shows_them(db):
    """The list page sends its grid's columns, the "On" switch among them (refused as an unknown column before):
    labels in the user's language, the switch as on / off, money with cents, the flight's days as ISO dates in
    the campaign's time zone, and the grid's order (numbers in names read as numbers, empty values last)."""
    me = actor_of(db, "advertiser@demo.example")
    for name, zone, ends in (("Campaign 10", "UTC", None), ("Campaign 2", "Asia/Tokyo", "2026-12-31"),
                             ("Campaign 1", "UTC", "2026-12-15")):
        campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": name, "time_zone": zone, "ends_at": ends}))
    live = next(c for c in campaigns.list_campaigns(db, actor=me) if c.name == "Campaign 1")
    campaigns.set_status(db, actor=me, campaign_id=live.id, status="active")
    columns = ["name", "status", "active", "objective", "starts_at", "ends_at", "bid"]
    export = campaign_export.export_campaigns(db, actor=me, columns=columns, sort="name", search="campaign",
                                              headers=["Nombre", "Estado", "Encendida", "Objetivo", "Inicio", "Fin",
                                                       "Puja"], language="sp")
    assert _file_rows(export, me) == [
        ["Nombre", "Estado", "Encendida", "Objetivo", "Inicio", "Fin", "Puja"],
        ["Campaign 1", "Activa", "Activada", "Tráfico", "2026-12-01", "2026-12-15", "2.00"],
        ["Campaign 2", "Borrador", "Desactivada", "Tráfico", "2026-12-01", "2026-12-31", "2.00"],
        ["Campaign 10", "Borrador", "Desactivada", "Tráfico", "2026-12-01", "", "2.00"]]
    by_end = _file_rows(campaign_export.export_campaigns(db, actor=me, columns=["name"], sort="-ends_at"), me)
    assert [row[0] for row in by_end[1:]] == ["Campaign 2", "Campaign 1", "Campaign 10"]  # no end date last
    shown_text = _file_rows(campaign_export.export_campaigns(db, actor=me, columns=["name", "status"], search="activa",
                                                             language="sp"), me)
    assert [row[0] for row in shown_text[1:]] == ["Campaign 1"]  # the search reads the translated labels too
