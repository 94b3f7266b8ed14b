"""CSV export of the campaign list as shown, its download link (only for whoever asked, only while fresh),
and the geo-fence CSV reader."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import jwt
import pytest

from app.errors import Invalid, NotFound
from app.services import campaign_export, campaigns
from app.services.campaign_targeting import geo_fence_from_csv
from app.settings import get_settings
from tests.helpers import actor_of, bearer_headers
from tests.test_campaign_pages import SETTINGS


def _rows(path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def _file(actor, url: str):
    return campaign_export.export_file(actor=actor, token=url.rsplit("/", 1)[1])


def test_the_file_holds_the_shown_columns_rows_and_order_with_formulas_defused(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    for name, budget in (("Alpha Run", "300"), ("Beta Run", "1000"), ("Gamma Walk", "50")):
        campaigns.create_campaign(db, actor=advertiser, data={**SETTINGS, "name": name, "total_budget": budget})
    campaigns.create_campaign(db, actor=advertiser, data={**SETTINGS, "name": "-2 Sale"})  # starts like a formula
    result = campaign_export.export_campaigns(db, actor=advertiser, columns=["name", "total_budget", "active"],
                                              search="run", sort="-total_budget", headers=["Name", "Budget"])
    assert result["rows"] == 2
    assert _rows(_file(advertiser, result["csv_download_url"])) == [
        ["Name", "Budget"], ["Beta Run", "1000.00"], ["Alpha Run", "300.00"]]
    every = campaign_export.export_campaigns(db, actor=advertiser, columns=["name"], sort="name")
    assert [r[0] for r in _rows(_file(advertiser, every["csv_download_url"]))] == [
        "name", "'-2 Sale", "Alpha Run", "Beta Run", "Gamma Walk"]


def test_bad_columns_and_sorts_are_named(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    with pytest.raises(Invalid) as error:
        campaign_export.export_campaigns(db, actor=advertiser, columns=["name", "password_hash"])
    assert set(error.value.fields) == {"columns"}
    with pytest.raises(Invalid) as error:
        campaign_export.export_campaigns(db, actor=advertiser, columns=["name"], sort="secret")
    assert set(error.value.fields) == {"sort"}


def test_a_link_opens_only_for_its_requester_and_only_while_fresh(db):
    advertiser, agency = actor_of(db, "advertiser@demo.example"), actor_of(db, "agency@demo.example")
    url = campaign_export.export_campaigns(db, actor=advertiser, columns=["name"])["csv_download_url"]
    assert _file(advertiser, url).is_file()
    with pytest.raises(NotFound):
        _file(agency, url)
    name = _file(advertiser, url).name
    stale = jwt.encode({"file": name, "sub": str(advertiser.id), "exp": datetime.now(UTC) - timedelta(seconds=1)},
                       get_settings().secret_key, algorithm="HS256")
    with pytest.raises(NotFound):
        campaign_export.export_file(actor=advertiser, token=stale)
    forged = jwt.encode({"file": "../dsp.sqlite3", "sub": str(advertiser.id),
                         "exp": datetime.now(UTC) + timedelta(minutes=1)}, get_settings().secret_key, algorithm="HS256")
    with pytest.raises(NotFound):
        campaign_export.export_file(actor=advertiser, token=forged)


def test_the_api_exports_under_the_spec_name_and_serves_the_file(client):
    headers = bearer_headers(client, "advertiser@demo.example")
    assert client.post("/api/campaigns", json=SETTINGS, headers=headers).status_code == 200
    reply = client.get("/api/campaning/exportCampaningData", params={"columns": "name,status"}, headers=headers)
    assert reply.status_code == 200 and reply.json()["success"] is True
    url = reply.json()["data"]["csv_download_url"]
    download = client.get(url, headers=headers)
    assert download.status_code == 200 and download.headers["content-type"].startswith("text/csv")
    assert download.content.decode("utf-8-sig").splitlines() == ["name,status", "Autumn Push,draft"]
    other = client.get(url, headers=bearer_headers(client, "agency@demo.example"))
    assert other.status_code == 404 and other.json()["success"] is False
    bad = client.get("/api/campaning/exportCampaningData", params={"columns": "name,nope"}, headers=headers)
    assert bad.status_code == 422 and "columns" in str(bad.json())


@pytest.mark.parametrize(("text", "fence", "problem"), [
    ("latitude,longitude,radius\n48.1,11.5,5\n\n52.5,13.4,2.5\n", "48.1,11.5,5|52.5,13.4,2.5", None),
    ("\ufeff48.1,11.5,5\r\n", "48.1,11.5,5", None),
    ("48.1,11.5,5\n48.1;11.5;5\n", "", "Line 2: expected latitude, longitude and radius as numbers."),
    ("48.1,11.5\n", "", "Line 1: expected latitude, longitude and radius as numbers."),
    ("", "", "The file holds no points."),
    ("95,11.5,5\n", "95,11.5,5", "Entry 1: latitude must be between -90 and 90."),
])
def test_a_geo_fence_csv_becomes_the_pipe_list_or_a_message_naming_the_line(text, fence, problem):
    assert geo_fence_from_csv(text) == (fence, problem)
