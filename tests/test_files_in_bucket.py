"""With DSP_FILES_URL=s3://… every kind of file the console keeps lives in the bucket, not on this machine's
disk, and comes back through its /files route with today's checks and headers: a creative file, a logo, a
CSV export, a report run's CSV (moto's S3 server stands in for the bucket: tests/fake_s3.py)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from botocore.exceptions import EndpointConnectionError, NoCredentialsError
from sqlmodel import select
from starlette.testclient import TestClient

from app.creatives.models import CreativeAsset
from app.jobs import clock
from app.kernel import csv_exports
from app.kernel.config import get_settings
from app.kernel.db import run, session_scope
from app.kernel.faults import FILES_DOWN, FILES_REFUSED, infrastructure_error
from app.reports import service as reports
from app.settings import company
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.fake_s3 import Bucket
from tests.fake_s3 import files_in_bucket as files_in_bucket  # noqa: F401  (fixture)
from tests.fake_s3 import s3_endpoint as s3_endpoint  # noqa: F401  (fixture)
from tests.helpers import actor_of, bearer_headers, wait_for_run
from tests.media_files import image_bytes, mp4_bytes

DAY = date.today() - timedelta(days=2)


@pytest.fixture(autouse=True)
def stop_scheduler():  # type: ignore[no-untyped-def]
    yield
    clock.shutdown()  # no scheduler thread outlives a test


def test_a_creative_file_is_kept_in_the_bucket_and_served_from_it(client: TestClient,
                                                                  files_in_bucket: Bucket) -> None:  # noqa: F811
    me = bearer_headers(client, "advertiser@demo.example")
    picture = image_bytes(317, 233)  # a size no other test uploads: its name (its hash) is new to the local disk
    uploaded = client.post("/api/uploads/creative", headers=me, files={"file": ("banner.png", picture, "image/png")},
                           data={"purpose": "image"})
    assert uploaded.status_code == 201, uploaded.text
    url = uploaded.json()["data"]["url"]
    name = url.rsplit("/", 1)[-1]
    assert files_in_bucket.object_names() == [f"console/uploads/creatives/{name}"]
    assert not (get_settings().uploads_dir / "creatives" / name).exists(), "the file went to the local disk"

    served = client.get(url)  # public, as on an ad server: no sign-in
    assert served.status_code == 200 and served.content == picture
    assert served.headers["content-type"] == "image/png"
    assert served.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert served.headers["content-security-policy"] == "default-src 'none'"
    assert served.headers["x-content-type-options"] == "nosniff"
    assert client.get("/files/creatives/" + "0" * 64 + ".png").status_code == 404
    assert client.get("/files/creatives/.hidden.png").status_code == 404  # a name the server never makes


def test_a_video_plays_and_seeks_from_the_bucket(client: TestClient, files_in_bucket: Bucket) -> None:  # noqa: F811
    me = bearer_headers(client, "advertiser@demo.example")
    video = mp4_bytes()
    uploaded = client.post("/api/uploads/creative", headers=me, files={"file": ("ad.mp4", video, "video/mp4")},
                           data={"purpose": "video"})
    assert uploaded.status_code == 201, uploaded.text
    url = uploaded.json()["data"]["url"]
    part = client.get(url, headers={"range": "bytes=4-11"})  # what a player asks for when it seeks
    assert part.status_code == 206 and part.content == video[4:12]
    assert part.headers["content-range"] == f"bytes 4-11/{len(video)}"
    assert part.headers["content-type"] == "video/mp4"
    assert client.get(url, headers={"range": f"bytes={len(video) + 10}-"}).status_code == 416
    tail = client.get(url, headers={"range": "bytes=-4"})
    assert tail.status_code == 206 and tail.content == video[-4:]
    head = client.head(url)
    assert head.status_code == 200 and head.headers["content-length"] == str(len(video)) and head.content == b""
    assert client.get(url).content == video


def test_a_logo_is_kept_in_the_bucket_and_shown_from_it(client: TestClient, files_in_bucket: Bucket) -> None:  # noqa: F811
    admin = bearer_headers(client, "admin@demo.example")
    config_id = run(company.branding_for_host, host="").id
    logo = image_bytes(120, 40)
    reply = client.post(f"/api/company-config/{config_id}/logo", headers=admin,
                        files={"file": ("logo.png", logo, "image/png")})
    assert reply.status_code == 200, reply.text
    url = reply.json()["data"]["logoSrc"]
    assert files_in_bucket.object_names() == [f"console/uploads/branding/{url.rsplit('/', 1)[-1]}"]
    served = client.get(url)  # the login page shows it: no sign-in
    assert served.status_code == 200 and served.content == logo
    assert served.headers["content-type"] == "image/png"
    assert served.headers["cache-control"] == "public, max-age=86400"
    assert served.headers["content-security-policy"] == "default-src 'none'"
    assert client.get("/files/branding/logo-1-missing.png").status_code == 404
    refused = client.post(f"/api/company-config/{config_id}/logo", headers=bearer_headers(client, "agency@demo.example"),
                          files={"file": ("logo.png", logo, "image/png")})
    assert refused.status_code == 403
    assert len(files_in_bucket.object_names()) == 1


def test_a_csv_export_is_kept_in_the_bucket_and_downloaded_by_its_user_only(
        client: TestClient, files_in_bucket: Bucket) -> None:  # noqa: F811
    me = bearer_headers(client, "advertiser@demo.example")
    reply = client.post("/api/campaigns/export", headers=me, json={"columns": ["name"]})
    assert reply.status_code == 200, reply.text
    link = reply.json()["data"]
    [stored] = files_in_bucket.object_names()
    assert stored.startswith("console/exports/") and stored.endswith(".csv")
    download = client.get(link["csv_download_url"], headers=me)
    assert download.status_code == 200
    assert download.headers["content-type"].startswith("text/csv")
    assert download.headers["content-disposition"] == f'attachment; filename="{link["filename"]}"'
    assert download.headers["cache-control"] == "no-store"
    assert download.text.lstrip("\ufeff").splitlines()[0] == "name"
    assert client.get(link["csv_download_url"]).status_code == 401
    assert client.get(link["csv_download_url"], headers=bearer_headers(client, "agency@demo.example")).status_code == 403


def test_a_report_runs_csv_is_written_to_the_bucket_and_downloaded(client: TestClient, demo_ids: dict[str, int],
                                                                   files_in_bucket: Bucket) -> None:  # noqa: F811
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("bucket-report", [FactRow(
        hour=datetime(DAY.year, DAY.month, DAY.day, 10), advertiser_id=advertiser, campaign_id=0, creative_id=0,
        exchange="Google AdX", os="Android", country="US", app="com.example.game", device_type="phone",
        impressions=5, clicks=1, spend_micros=2_000_000)], source="test")
    me = bearer_headers(client, "advertiser@demo.example")
    created = client.post("/api/report/create", headers=me, json={
        "name": "By exchange", "report_type": "exchange", "period": "custom", "start_date": DAY.isoformat(),
        "end_date": DAY.isoformat()}).json()
    run_id = client.post("/api/reports/generate", headers=me, json={"report_id": created["data"]["id"]}).json()["data"]["run_id"]
    finished = wait_for_run(run_id)
    assert finished.status == "completed", finished.error
    assert f"console/reports/{finished.result_file}" in files_in_bucket.object_names()

    with session_scope() as db:  # the report page's table, read from the bucket
        table = reports.run_result(db, actor=actor_of(db, "advertiser@demo.example"), run_id=run_id)
    assert table.available and [row["exchange"] for row in table.rows] == ["Google AdX"]
    link = client.get("/api/report/download", headers=me, params={"run_id": run_id}).json()["data"]
    body = client.get(link["csv_download_url"], headers=me)
    assert body.status_code == 200 and "Google AdX,5,1,20.0000,2" in body.text
    assert body.headers["content-disposition"] == f'attachment; filename="{link["filename"]}"'
    # The link's file is the bucket's own copy: deleting the run's file leaves the download working.
    assert client.post("/api/report/deleteCSVReportFile", headers=me, json={"run_id": run_id}).json()["success"]
    assert f"console/reports/{finished.result_file}" not in files_in_bucket.object_names()
    assert client.get(link["csv_download_url"], headers=me).text == body.text


def test_expired_exports_are_swept_from_the_bucket(client: TestClient, files_in_bucket: Bucket,  # noqa: F811
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    me = bearer_headers(client, "advertiser@demo.example")
    first = client.post("/api/campaigns/export", headers=me, json={"columns": ["name"]}).json()["data"]
    [old] = files_in_bucket.object_names()
    monkeypatch.setattr(csv_exports, "LINK_LIFETIME", timedelta(seconds=-60))  # every earlier link has expired
    client.post("/api/campaigns/export", headers=me, json={"columns": ["name"]})
    [new] = files_in_bucket.object_names()
    assert new != old, "the next export removes the expired one"
    assert client.get(first["csv_download_url"], headers=me).status_code == 404


def test_a_bucket_that_refuses_the_server_answers_503_and_saves_nothing(
        client: TestClient, demo_ids: dict[str, int], files_in_bucket: Bucket,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    me = bearer_headers(client, "advertiser@demo.example")
    monkeypatch.setattr(get_settings(), "files_url", "s3://no-such-bucket/console/")
    reply = client.post("/api/uploads/creative", headers=me, data={"purpose": "image"},
                        files={"file": ("banner.png", image_bytes(320, 50), "image/png")})
    assert reply.status_code == 503, reply.text
    assert reply.json()["message"] == FILES_REFUSED
    with session_scope() as db:
        assert db.exec(select(CreativeAsset)).all() == [], "the asset row was rolled back with the file"


@pytest.mark.parametrize("error", [EndpointConnectionError(endpoint_url="http://files.example:9000"),
                                   NoCredentialsError()])
def test_an_unreachable_bucket_maps_to_one_clear_answer(error: Exception) -> None:
    fault = infrastructure_error(error)
    assert fault is not None and (fault.code, fault.message) == (503, FILES_DOWN)
