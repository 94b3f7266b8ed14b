"""Conversion postbacks: a token writes its own advertiser's statistics only, once per click and event; bad
parameters are refused by name with nothing written; enabled clients get the event forwarded to their URL,
retried while their server fails, off the request path, and each forward is recorded."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from sqlmodel import Session, col, select

from app.access.models import UserStatus
from app.access.preferences import settings_of
from app.campaigns.models import Campaign
from app.demo.advertising import seed_demo_advertising
from app.jobs import tasks as jobs_tasks
from app.kernel.config import get_settings
from app.kernel.errors import Invalid, NotFound
from app.settings import postbacks
from app.settings.models import PostbackDelivery
from app.statistics import postback_ingest
from app.statistics import service as statistics
from app.warehouse import get_store
from tests.helpers import actor_of, other_tenant, settle_jobs, user_by_email


class FakeTracker:
    """A client's tracker on 127.0.0.1: records each request path; answers `statuses` in turn (then 200)."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.statuses: list[int] = []
        tracker = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                tracker.paths.append(self.path)
                status = tracker.statuses.pop(0) if tracker.statuses else 200
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def tracker() -> Iterator[FakeTracker]:
    fake = FakeTracker()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


@pytest.fixture
def client_setup(db: Session, tracker: FakeTracker, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    forward = jobs_tasks.TASKS["postbacks.forward"]  # retried 50 ms apart, not seconds
    monkeypatch.setitem(jobs_tasks.TASKS, forward.name, dataclasses.replace(forward, retry=jobs_tasks.RetryPolicy(
        forward.retry.attempts, (0.05,))))
    advertiser = actor_of(db, "advertiser@demo.example")  # postbacks ENABLED in the demo seed
    seed_demo_advertising(db, actor=advertiser)
    campaign = db.exec(select(Campaign).where(Campaign.advertiser_id == advertiser.id).order_by(col(Campaign.id))).first()
    assert campaign is not None
    # Set directly: the settings form accepts only URLs with a domain name, and the fake tracker is on 127.0.0.1.
    settings = settings_of(db, advertiser.id)
    settings.postback_url = tracker.url + "/pb?c={click_id}&e={event}&r={revenue}&cc={country}"
    settings.postback_events = ["install", "purchase"]
    endpoint = postbacks.postback_endpoint(db, actor=advertiser)
    _agency, rival = other_tenant(db)
    rival_campaign = Campaign(advertiser_id=rival.id, name="Rival", starts_at=datetime.now(UTC),
                              total_budget_micros=1, bid_micros=1)
    db.add(rival_campaign)
    db.commit()
    return {"advertiser": advertiser, "campaign": campaign.id, "token": endpoint.token, "path": endpoint.path,
            "rival_campaign": rival_campaign.id}


def today_totals(db: Session, actor: Any, **options: Any) -> dict[str, Any]:
    today = datetime.now(UTC).date()
    return statistics.statistics(db, actor=actor, start=today, end=today, **options)[0]


def test_a_postback_counts_once_and_is_forwarded(client: Any, db: Session, client_setup: dict[str, Any],
                                                 tracker: FakeTracker) -> None:
    query = {"click_id": "c/1 &x", "event": "purchase", "campaign_id": client_setup["campaign"], "country": "de",
             "revenue": "4.99"}
    first = client.get(client_setup["path"], params=query)
    assert first.status_code == 200, first.text
    assert first.json()["data"]["conversion"] is True and first.json()["data"]["forwarded"] is True
    again = client.post(client_setup["path"], data=query)  # a partner's retry, as a form this time
    assert again.status_code == 200 and again.json()["data"]["duplicate"] is True
    settle_jobs()

    totals = today_totals(db, client_setup["advertiser"], events=["purchase"])
    assert (totals["conversions"], totals["event_purchase"], totals["impressions"]) == (1, 1, 0)
    assert tracker.paths == ["/pb?c=c%2F1%20%26x&e=purchase&r=4.99&cc=DE"]  # once: the retry is not forwarded
    delivery = db.exec(select(PostbackDelivery)).one()
    assert (delivery.status_code, delivery.attempts, delivery.error) == (200, 1, "")


def test_a_failing_tracker_is_retried_three_times_and_recorded(db: Session, client_setup: dict[str, Any],
                                                               tracker: FakeTracker) -> None:
    tracker.statuses = [500, 503, 500]
    started = time.monotonic()
    answer = postback_ingest.receive_postback(token=client_setup["token"], params={
        "click_id": "k2", "event": "install", "campaign_id": str(client_setup["campaign"]), "country": "AT"})
    assert time.monotonic() - started < 1  # the caller does not wait for the tracker
    assert answer.forwarded is True
    settle_jobs()
    assert len(tracker.paths) == 3
    delivery = db.exec(select(PostbackDelivery)).one()
    assert (delivery.status_code, delivery.attempts, delivery.error) == (500, 3, "HTTP 500")
    assert postback_ingest.recent_deliveries(db, actor=client_setup["advertiser"])[0].attempts == 3

    tracker.statuses = [500]  # one failure, then the tracker recovers
    postback_ingest.receive_postback(token=client_setup["token"], params={
        "click_id": "k3", "event": "install", "campaign_id": str(client_setup["campaign"]), "country": "AT"})
    settle_jobs()
    newest = postback_ingest.recent_deliveries(db, actor=client_setup["advertiser"])[0]
    assert (newest.status_code, newest.attempts) == (200, 2)


def test_events_not_chosen_are_recorded_but_not_forwarded(db: Session, client_setup: dict[str, Any],
                                                          tracker: FakeTracker) -> None:
    answer = postback_ingest.receive_postback(token=client_setup["token"], params={
        "click_id": "k4", "event": "level_5", "campaign_id": str(client_setup["campaign"]), "country": "FR"})
    settle_jobs()
    assert (answer.conversion, answer.forwarded) == (False, False)
    assert tracker.paths == []
    totals = today_totals(db, client_setup["advertiser"], events=["level_5"])
    assert (totals["conversions"], totals["event_level_5"]) == (0, 1)


def test_bad_tokens_and_parameters_write_nothing(client: Any, db: Session, client_setup: dict[str, Any]) -> None:
    good = {"click_id": "k", "event": "install", "campaign_id": client_setup["campaign"], "country": "DE"}
    missing = client.get("/api/postback/not-a-token", params=good)
    assert missing.status_code == 404 and missing.json()["success"] is False
    for change, field in (({"country": "XX"}, "country"), ({"event": "Install!"}, "event"),
                          ({"event_time": "2020-01-01 10:00"}, "event_time"), ({"device_type": "watch"}, "device_type"),
                          ({"campaign_id": client_setup["rival_campaign"]}, "campaign_id"),
                          ({"campaign_id": "x"}, "campaign_id"), ({"click_id": ""}, "click_id")):
        reply = client.get(client_setup["path"], params={**good, **change})
        assert reply.status_code == 422, (change, reply.text)
        assert field in reply.json()["data"]["fields"], (change, reply.json())
    assert get_store().first_and_last_hour(None) is None


def test_a_token_writes_only_its_own_advertisers(db: Session, client_setup: dict[str, Any]) -> None:
    """An agency's token records for its advertisers' campaigns, never another agency's; the advertiser's
    own token cannot reach the rival's campaign either."""
    agency = actor_of(db, "agency@demo.example")
    agency_settings = settings_of(db, agency.id)
    agency_settings.postback_enabled = postbacks.ENABLED
    db.add(agency_settings)
    db.commit()
    agency_token = postbacks.postback_endpoint(db, actor=agency).token
    db.commit()
    own = postback_ingest.receive_postback(token=agency_token, params={
        "click_id": "a1", "event": "install", "campaign_id": str(client_setup["campaign"]), "country": "DE"})
    assert own.duplicate is False
    for token in (agency_token, client_setup["token"]):
        with pytest.raises(Invalid) as caught:
            postback_ingest.receive_postback(token=token, params={
                "click_id": "a2", "event": "install", "campaign_id": str(client_setup["rival_campaign"]),
                "country": "DE"})
        assert caught.value.fields == {"campaign_id": postback_ingest.NO_CAMPAIGN}
    admin = actor_of(db, "admin@demo.example")
    rows = statistics.statistics(db, actor=admin, start=datetime.now(UTC).date(), end=datetime.now(UTC).date(),
                                 dimensions=["advertiser_id"])
    assert [(r["advertiser_id"], r["conversions"]) for r in rows] == [(client_setup["advertiser"].id, 1)]
    # A disabled account's token stops working.
    user_by_email(db, "agency@demo.example").status = UserStatus.DISABLED
    db.commit()
    with pytest.raises(NotFound):
        postback_ingest.receive_postback(token=agency_token, params={
            "click_id": "a3", "event": "install", "campaign_id": str(client_setup["campaign"]), "country": "DE"})


def test_a_forward_to_a_private_address_is_refused_unless_allowed(db: Session, client_setup: dict[str, Any],
                                                                  tracker: FakeTracker,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # A client must not make the server call its own network (here the tracker on 127.0.0.1 stands for an
    # internal service, or cloud metadata at 169.254.169.254).
    monkeypatch.setattr(get_settings(), "postback_allow_private_targets", False)
    postback_ingest.receive_postback(token=client_setup["token"], params={
        "click_id": "ssrf", "event": "install", "campaign_id": str(client_setup["campaign"]), "country": "AT"})
    settle_jobs()
    assert tracker.paths == []
    delivery = db.exec(select(PostbackDelivery)).one()
    assert delivery.attempts == 0 and "private or local address (127.0.0.1)" in delivery.error
