"""DSP connections: credentials encrypted at rest and never shown (service answers, API answers, pages, the change
history), admin only (co-admin, agency and advertiser refused by the service and the API), and the HTTP/JSON
connector against a real local fake DSP. A sync is a push through the job queue (app/dsps/pushes.py): the request
answers "queued"; the job records the DSP's id, or, after its last attempt, a timeout, a 5xx or an answer it cannot
read as the sync error, with the campaign untouched and syncable again. SQLite's table queue and PostgreSQL's
procrastinate both run these (the suite's two passes)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cryptography.fernet import Fernet
from sqlmodel import select

from app import jobs
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignUpdate
from app.creatives.models import Creative
from app.dsps import credentials as dsp_credentials
from app.dsps import pushes
from app.dsps import service as dsps
from app.dsps.connectors import http_json
from app.dsps.models import Dsp, DspAssociation
from app.dsps.schemas import AnyAssociation, DspCreate, DspRead, DspUpdate
from app.history import change_log
from app.history.models import AuditEntry
from app.jobs import tasks
from app.kernel.errors import Conflict, Forbidden, Invalid, NotAuthenticated
from app.reference import metadata
from tests.fake_dsp import FakeDsp, running_fake_dsp
from tests.helpers import actor_of, bearer_headers, settle_jobs
from tests.test_creatives import CAMPAIGN, _image_creative

SECRET = "sk_live_dsp_Zq8vR2mN5tW1xY7"  # what must never come back out
STAFF = "admin@demo.example"
REFUSED = ("coadmin@demo.example", "agency@demo.example", "advertiser@demo.example")


@pytest.fixture
def fake() -> Any:
    with running_fake_dsp(SECRET) as server:
        yield server


@pytest.fixture
def quick(settings, monkeypatch) -> None:
    """A connector timeout well under the fake's slow answer; the connector's tries and the queue's attempts of a
    push (as many as in production) 10 ms apart."""
    monkeypatch.setattr(settings, "dsp_request_timeout_s", 0.5)
    monkeypatch.setattr(http_json, "BACKOFF_S", (0.01,))
    declared = tasks.get(pushes.TASK)
    monkeypatch.setitem(tasks.TASKS, pushes.TASK, tasks.Task(declared.name, declared.fn,
                                                            tasks.RetryPolicy(pushes.ATTEMPTS, (0.01,))))


def _pushed(db, actor, dsp_id: int, entity: str, local_id: int) -> AnyAssociation:
    """Sync through the service (answered "queued"), let the queue run the push, and read the map's line."""
    asked = dsps.sync(db, actor=actor, dsp_id=dsp_id, entity=entity, local_id=local_id)
    assert asked.state == "queued" and asked.association.push_state == "queued", asked
    db.commit()
    settle_jobs()
    db.expire_all()
    return next(line for line in dsps.associations(db, actor=actor, entity=entity, local_id=local_id)
                if line.dsp_id == dsp_id)


def _exchanges(db, actor, n: int = 2) -> list[int]:
    return [row.id for row in metadata.active_values(db, actor=actor, kind="exchange")[:n]]


def _dsp(db, actor, url: str, **extra: Any) -> DspRead:
    data = {"name": "Acme Bidder", "connector": "http_json", "endpoint_url": url, "api_key": SECRET,
            "exchange_ids": _exchanges(db, actor), **extra}
    return dsps.create_dsp(db, actor=actor, data=DspCreate(**data))


def _a_campaign(db) -> Campaign:
    """An advertiser's campaign (the demo seed has none until the demo advertising is added)."""
    made = campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"), data=CampaignUpdate.model_validate(dict(CAMPAIGN)))
    campaign = db.get(Campaign, made.id)
    assert campaign is not None
    return campaign


def test_credentials_are_encrypted_at_rest_and_decrypt_back(db):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, "https://bidder.example/api")
    stored = db.get(Dsp, created.id)
    assert SECRET not in stored.credentials_encrypted and stored.credentials_encrypted
    assert dsp_credentials.decrypt(stored.credentials_encrypted) == SECRET
    assert created.credentials_set is True
    assert SECRET not in created.model_dump_json() and SECRET not in json.dumps([d.model_dump() for d in dsps.list_dsps(db, actor=admin)])


def test_a_separate_key_encrypts_new_credentials_and_still_reads_old_ones(settings, monkeypatch):
    old = dsp_credentials.encrypt(SECRET)  # made with the key derived from secret_key
    monkeypatch.setattr(settings, "dsp_credentials_key", Fernet.generate_key().decode())
    new = dsp_credentials.encrypt(SECRET)
    assert dsp_credentials.decrypt(old) == dsp_credentials.decrypt(new) == SECRET
    monkeypatch.setattr(settings, "dsp_credentials_key", "")
    with pytest.raises(dsp_credentials.CredentialsUnreadable):
        dsp_credentials.decrypt(new)  # the separate key is needed for what it encrypted


def test_an_edit_keeps_the_key_unless_replaced_and_the_history_never_holds_it(db):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, "https://bidder.example/api")
    before = db.get(Dsp, created.id).credentials_encrypted
    dsps.update_dsp(db, actor=admin, dsp_id=created.id, data=DspUpdate(**{"name": "Acme Bidder EU", "api_key": ""}))
    assert db.get(Dsp, created.id).credentials_encrypted == before
    dsps.update_dsp(db, actor=admin, dsp_id=created.id, data=DspUpdate(**{"api_key": "replaced-key-42"}))
    assert dsp_credentials.decrypt(db.get(Dsp, created.id).credentials_encrypted) == "replaced-key-42"
    db.flush()
    history = db.exec(select(AuditEntry).where(AuditEntry.entity == "dsp")).all()
    text = json.dumps([entry.changes for entry in history])
    assert SECRET not in text and "replaced-key-42" not in text
    assert any(entry.changes.get("credentials") == ["***", "***"] for entry in history)
    log = change_log.page(db, actor=admin, kind="dsp", record_id=created.id).entries
    assert [e.action for e in log] == ["update", "update", "create"]
    # The creation shows the key as set (— → ***) and leaves out the fields it left empty (no "— → —" lines).
    made = {c.field: (c.old, c.new) for c in log[-1].changes}
    assert made["credentials"] == (None, "***") and "seat_id" not in made


def test_bad_input_names_its_field(db):
    admin = actor_of(db, STAFF)
    with pytest.raises(Invalid) as caught:
        dsps.create_dsp(db, actor=admin, data=DspCreate(**{"name": "", "endpoint_url": "ftp://x", "api_key": "",
                                               "exchange_ids": [999_999]}))
    assert set(caught.value.fields) == {"name", "endpoint_url", "exchange_ids"}
    with pytest.raises(Invalid) as caught:
        dsps.create_dsp(db, actor=admin, data=DspCreate(**{"name": "X", "endpoint_url": "https://user:pw@bidder.example/"}))
    assert caught.value.fields == {"endpoint_url": dsps.INVALID_ENDPOINT}
    with pytest.raises(Invalid) as caught:
        dsps.create_dsp(db, actor=admin, data=DspCreate(**{"name": "X", "endpoint_url": "http://10.0.0.5:8080/rtb"}))
    assert caught.value.fields == {"api_key": dsps.REQUIRED}, "a private address is a valid endpoint"
    _dsp(db, admin, "https://bidder.example/api")
    with pytest.raises(Invalid) as caught:
        _dsp(db, admin, "https://other.example/api", name="acme bidder")
    assert caught.value.fields == {"name": dsps.NAME_TAKEN}


def test_a_seat_id_is_an_identifier_and_goes_with_every_push(db, fake: FakeDsp, quick):
    """The buyer seat the DSP gave the console is typed by an admin: spec section 5's identifier rule (letters,
    digits, _ and -) holds it, a refused seat saves nothing, and a sync sends the seat to the DSP."""
    admin = actor_of(db, STAFF)
    rule = "Use only letters, digits, _ and -."
    for bad in ("seat 42", "seat.42", "séat", "seat/42", "42;drop"):
        with pytest.raises(Invalid) as caught:
            _dsp(db, admin, fake.url, seat_id=bad)
        assert caught.value.fields == {"seat_id": rule}, bad
    with pytest.raises(Invalid) as caught:
        _dsp(db, admin, fake.url, seat_id="s" * 65)
    assert caught.value.fields == {"seat_id": "At most 64 characters."}
    assert dsps.list_dsps(db, actor=admin) == []
    created = _dsp(db, admin, fake.url, seat_id=" Seat_42-eu ")
    assert created.seat_id == "Seat_42-eu"
    with pytest.raises(Invalid) as caught:
        dsps.update_dsp(db, actor=admin, dsp_id=created.id, data=DspUpdate(**{"seat_id": "Seat 43"}))
    assert caught.value.fields == {"seat_id": rule}
    assert dsps.get_dsp(db, actor=admin, dsp_id=created.id).seat_id == "Seat_42-eu"
    _pushed(db, admin, created.id, "campaign", _a_campaign(db).id)
    assert fake.requests[-1]["body"]["seat_id"] == "Seat_42-eu"
    assert dsps.update_dsp(db, actor=admin, dsp_id=created.id, data=DspUpdate(**{"seat_id": ""})).seat_id == ""


@pytest.mark.parametrize("email", REFUSED)
def test_only_admin_reaches_dsps_in_the_services(db, email):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, "https://bidder.example/api")
    other = actor_of(db, email)
    campaign = _a_campaign(db)
    calls = [lambda: dsps.list_dsps(db, actor=other), lambda: dsps.active_dsps(db, actor=other),
             lambda: dsps.get_dsp(db, actor=other, dsp_id=created.id),
             lambda: dsps.create_dsp(db, actor=other, data=DspCreate(**{"name": "Mine"})),
             lambda: dsps.update_dsp(db, actor=other, dsp_id=created.id, data=DspUpdate(**{"name": "Mine"})),
             lambda: dsps.set_status(db, actor=other, dsp_id=created.id, status="inactive"),
             lambda: dsps.test_connection(db, actor=other, dsp_id=created.id),
             lambda: dsps.try_connection(db, actor=other, endpoint_url="https://x.example", api_key="k"),
             lambda: dsps.associations(db, actor=other, entity="campaign", local_id=campaign.id),
             lambda: dsps.sync(db, actor=other, dsp_id=created.id, entity="campaign", local_id=campaign.id)]
    for call in calls:
        with pytest.raises(Forbidden):
            call()
    db.commit()
    assert jobs.outstanding() == 0 and db.exec(select(DspAssociation)).all() == [], "a refused sync queues nothing"
    with pytest.raises(NotAuthenticated):
        dsps.list_dsps(db, actor=None)  # type: ignore[arg-type]


def test_a_sync_is_queued_then_delivered_and_a_resync_updates_it(db, fake: FakeDsp, quick):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url)
    campaign = _a_campaign(db)
    asked = dsps.sync(db, actor=admin, dsp_id=created.id, entity="campaign", local_id=campaign.id)
    assert (asked.state, asked.message) == ("queued", "Queued for Acme Bidder.")
    assert asked.association.remote_id == "" and fake.requests == [], "nothing is sent within the request"
    db.commit()
    settle_jobs()
    db.expire_all()
    line = dsps.associations(db, actor=admin, entity="campaign", local_id=campaign.id)[0]
    assert line.push_state == "delivered" and line.campaign_associate_id == line.remote_id == "cam-0001"
    assert line.synced_at and line.last_error == "" and line.dsp_name == "Acme Bidder"
    pushed = fake.requests[-1]
    assert (pushed["method"], pushed["path"]) == ("POST", "/v1/campaigns")
    assert pushed["authorization"] == f"Bearer {SECRET}"
    assert pushed["body"]["external_id"] == campaign.id and pushed["body"]["name"] == campaign.name
    again = _pushed(db, admin, created.id, "campaign", campaign.id)
    assert again.remote_id == "cam-0001" and again.push_state == "delivered"
    assert (fake.requests[-1]["method"], fake.requests[-1]["path"]) == ("PUT", "/v1/campaigns/cam-0001")
    shown = dsps.associations(db, actor=admin, entity="campaign", local_id=campaign.id)
    assert [(s.dsp_name, s.campaign_associate_id) for s in shown] == [("Acme Bidder", "cam-0001")]
    assert SECRET not in json.dumps([s.model_dump() for s in shown]) + asked.model_dump_json()
    assert pushes.failed_pushes(db) == []


def test_two_pushes_queued_together_create_the_campaign_once(db, fake: FakeDsp, quick):
    """Jobs with one key run one at a time and in order: the second push updates what the first created."""
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url)
    campaign = _a_campaign(db)
    for _ in range(2):
        dsps.sync(db, actor=admin, dsp_id=created.id, entity="campaign", local_id=campaign.id)
    db.commit()
    settle_jobs()
    assert [(r["method"], r["path"]) for r in fake.requests] == [("POST", "/v1/campaigns"),
                                                                  ("PUT", "/v1/campaigns/cam-0001")]


def test_a_creative_sync_gives_the_creative_maps(db, fake: FakeDsp, quick):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url)
    creative = db.get(Creative, _image_creative(db, actor_of(db, "advertiser@demo.example")).id)
    line = _pushed(db, admin, created.id, "creative", creative.id)
    assert line.push_state == "delivered", line
    assert line.creative_associate_id == "cre-0001"
    assert line.creative_primary_id == creative.id
    assert fake.requests[-1]["body"]["type"] == creative.type


def test_a_dsp_that_fails_twice_then_answers_is_delivered_on_the_third_attempt(db, fake: FakeDsp, quick):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url)
    campaign = _a_campaign(db)
    fake.failing_answers = 2  # HTTP 500 twice (the connector does not retry a 500 itself: the queue does)
    line = _pushed(db, admin, created.id, "campaign", campaign.id)
    assert line.push_state == "delivered" and line.remote_id == "cam-0001" and line.last_error == "", line
    assert [r["method"] for r in fake.requests] == ["POST"] * 3
    assert pushes.failed_pushes(db) == []


def test_a_create_whose_answer_was_lost_is_not_made_twice_on_the_dsp(db, fake: FakeDsp, quick):
    """The DSP made the campaign but its answer came after the connector gave up; the queue's next attempt sends the
    create again with the same Idempotency-Key, and the DSP answers what it made: one campaign there, its id here."""
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url)
    campaign = _a_campaign(db)
    fake.mode = "lost_answer"
    line = _pushed(db, admin, created.id, "campaign", campaign.id)
    posts = [r for r in fake.requests if r["method"] == "POST"]
    assert len(posts) == 2 and posts[0]["idempotency_key"] == posts[1]["idempotency_key"] != ""
    assert (line.push_state, line.remote_id) == ("delivered", "cam-0001") and list(fake.objects) == ["cam-0001"]
    other = _pushed(db, admin, created.id, "campaign", _a_campaign(db).id)  # another thing: another key
    assert other.remote_id == "cam-0002" and fake.requests[-1]["idempotency_key"] != posts[0]["idempotency_key"]


@pytest.mark.parametrize(("mode", "message"), [
    ("slow", "The DSP did not answer within 0.5 s."),
    ("error_500", "The DSP answered HTTP 503."),
    ("not_json", "The DSP's answer was not JSON."),
    ("no_id", "The DSP's answer has no id."),
])
def test_a_push_that_always_fails_ends_failed_with_the_dsps_message(db, fake: FakeDsp, quick, mode, message):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url)
    campaign = _a_campaign(db)
    first = _pushed(db, admin, created.id, "campaign", campaign.id)
    before = campaigns.get_campaign(db, actor=admin, campaign_id=campaign.id)
    fake.mode = mode
    line = _pushed(db, admin, created.id, "campaign", campaign.id)
    assert line.push_state == "failed" and line.last_error == message
    assert line.remote_id == first.remote_id, "the last good id is kept"
    assert line.synced_at == first.synced_at and line.attempted_at > line.synced_at
    assert campaigns.get_campaign(db, actor=admin, campaign_id=campaign.id) == before
    failed = pushes.failed_pushes(db)
    assert [(f.dsp_name, f.entity, f.local_id, f.error) for f in failed] == [("Acme Bidder", "campaign", campaign.id,
                                                                              message)]
    assert jobs.outstanding() == 0, "nothing left to retry"
    fake.mode = "ok"
    recovered = _pushed(db, admin, created.id, "campaign", campaign.id)
    assert recovered.push_state == "delivered" and recovered.last_error == ""
    assert pushes.failed_pushes(db) == []


def test_a_push_that_breaks_in_the_console_ends_failed_not_queued_forever(db, fake: FakeDsp, quick, monkeypatch):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url)

    def broken(*_args: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(pushes, "payload", broken)
    line = _pushed(db, admin, created.id, "campaign", _a_campaign(db).id)
    assert (line.push_state, line.last_error) == ("failed", pushes.UNEXPECTED.format(kind="RuntimeError"))
    assert fake.requests == [] and jobs.failures() == 1


def test_a_busy_dsp_is_asked_again_within_one_attempt(db, fake: FakeDsp, quick):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url)
    campaign = _a_campaign(db)
    fake.busy_answers = 2  # 503 twice, then the DSP takes it: the connector's own tries, one job attempt
    line = _pushed(db, admin, created.id, "campaign", campaign.id)
    assert line.push_state == "delivered" and line.remote_id == "cam-0001", line
    assert [r["method"] for r in fake.requests] == ["POST"] * 3


def test_a_first_sync_that_fails_leaves_no_id_and_a_wrong_key_is_reported(db, fake: FakeDsp, quick):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url, api_key="not-the-right-key")
    campaign = _a_campaign(db)
    failed = _pushed(db, admin, created.id, "campaign", campaign.id)
    assert failed.remote_id == "" and failed.synced_at is None and failed.push_state == "failed"
    assert failed.last_error == "The DSP refused the API key (HTTP 401)."
    assert db.exec(select(DspAssociation)).one().last_error == failed.last_error


def test_a_push_whose_dsp_was_deactivated_meanwhile_fails_without_calling_it(db, fake: FakeDsp, quick):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url)
    dsps.sync(db, actor=admin, dsp_id=created.id, entity="campaign", local_id=_a_campaign(db).id)
    dsps.set_status(db, actor=admin, dsp_id=created.id, status="inactive")
    db.commit()
    settle_jobs()
    assert [f.error for f in pushes.failed_pushes(db)] == [pushes.INACTIVE] and fake.requests == []


def test_an_inactive_dsp_is_not_synced_to(db, fake: FakeDsp):
    admin = actor_of(db, STAFF)
    created = _dsp(db, admin, fake.url, status="inactive")
    with pytest.raises(Conflict):
        dsps.sync(db, actor=admin, dsp_id=created.id, entity="campaign", local_id=_a_campaign(db).id)
    assert dsps.active_dsps(db, actor=admin) == []


def test_the_connection_test_before_and_after_saving(db, fake: FakeDsp, quick):
    admin = actor_of(db, STAFF)
    good = dsps.try_connection(db, actor=admin, endpoint_url=fake.url, api_key=SECRET)
    assert good.ok and good.message.startswith("HTTP 200")
    assert dsps.try_connection(db, actor=admin, endpoint_url=fake.url, api_key="wrong").ok is False
    fake.mode = "slow"
    assert dsps.try_connection(db, actor=admin, endpoint_url=fake.url, api_key=SECRET).model_dump() == {
        "ok": False, "message": "The DSP did not answer within 0.5 s."}
    fake.mode = "ok"
    created = _dsp(db, admin, fake.url)
    # An edit form tests with the stored key when no new one is typed.
    assert dsps.try_connection(db, actor=admin, endpoint_url=fake.url, dsp_id=created.id).ok
    tested = dsps.test_connection(db, actor=admin, dsp_id=created.id)
    assert tested.ok and tested.dsp.last_test_ok is True and tested.dsp.last_test_at
    assert fake.requests[-1]["path"] == "/v1/health"


def test_an_exchange_a_dsp_buys_on_cannot_be_deleted(db):
    admin = actor_of(db, STAFF)
    exchange = _exchanges(db, admin, 1)[0]
    _dsp(db, admin, "https://bidder.example/api", exchange_ids=[exchange])
    assert metadata.usage_counts(db, "exchange", [exchange])[exchange] >= 1


# --- the API --------------------------------------------------------------------------------------------

def _body(url: str, exchanges: list[int]) -> dict[str, Any]:
    return {"name": "Acme Bidder", "connector": "http_json", "endpoint_url": url, "api_key": SECRET,
            "status": "active", "exchange_ids": exchanges}


def test_the_api_creates_lists_syncs_and_never_answers_the_key(client, db, fake: FakeDsp, quick):
    headers = bearer_headers(client, STAFF)
    exchanges = _exchanges(db, actor_of(db, STAFF))
    db.commit()
    answers = []
    made = client.post("/api/newDsp/createNewDsp", json=_body(fake.url, exchanges), headers=headers)
    assert made.status_code == 200, made.text
    answers.append(made.text)
    dsp = made.json()["data"]["dsp"]
    assert made.json()["data"]["test"]["ok"] is True and dsp["last_test_ok"] is True
    assert dsp["credentials_set"] is True and "api_key" not in dsp
    for path in ("/api/dsp/list", "/api/dsp/activeDspList", f"/api/dsp/{dsp['id']}", f"/api/dsp/{dsp['id']}/changelog"):
        reply = client.get(path, headers=headers)
        assert reply.status_code == 200, (path, reply.text)
        answers.append(reply.text)
    assert [row["name"] for row in client.get("/api/dsp/activeDspList", headers=headers).json()["data"]] == ["Acme Bidder"]
    updated = client.put(f"/api/dsp/{dsp['id']}", json={"endpoint_url": fake.url + "/"}, headers=headers)
    answers.append(updated.text)
    assert updated.json()["data"]["endpoint_url"] == fake.url + "/"
    campaign_id = _a_campaign(db).id
    db.commit()
    synced = client.post(f"/api/dsp/{dsp['id']}/sync", json={"entity": "campaign", "id": campaign_id}, headers=headers)
    answers.append(synced.text)
    assert synced.status_code == 202 and synced.json()["message"] == "Queued", synced.text
    assert synced.json()["data"]["state"] == "queued"
    assert synced.json()["data"]["association"]["push_state"] == "queued"
    settle_jobs()
    maps = client.get(f"/api/dsp/associations/campaign/{campaign_id}", headers=headers).json()["data"]["items"]
    assert (maps[0]["push_state"], maps[0]["campaign_associate_id"]) == ("delivered", "cam-0001")
    fake.mode = "error_500"
    failed = client.post(f"/api/dsp/{dsp['id']}/sync", json={"entity": "campaign", "id": campaign_id}, headers=headers)
    assert failed.status_code == 202 and failed.json()["data"]["state"] == "queued"
    settle_jobs()
    maps = client.get(f"/api/dsp/associations/campaign/{campaign_id}", headers=headers).json()["data"]["items"]
    assert (maps[0]["push_state"], maps[0]["last_error"]) == ("failed", "The DSP answered HTTP 503."), "kept"
    answers += [failed.text, json.dumps(maps)]
    assert not [a for a in answers if SECRET in a]


def test_the_api_names_bad_fields(client, db):
    headers = bearer_headers(client, STAFF)
    reply = client.post("/api/dsp/createDSP", json={"name": "", "endpoint_url": "nope", "api_key": ""},
                        headers=headers)
    assert reply.status_code == 422
    assert set(reply.json()["data"]["fields"]) >= {"name", "endpoint_url"}
    reply = client.post("/api/dsp/createDSP", headers=headers, json={
        "name": "Seated", "endpoint_url": "https://bidder.example/api", "api_key": SECRET, "seat_id": "seat #1"})
    assert reply.status_code == 422 and reply.json()["data"]["fields"] == {"seat_id": "Use only letters, digits, _ and -."}
    assert client.get("/api/dsp/list", headers=headers).json()["data"] == []


@pytest.mark.parametrize("email", REFUSED)
def test_the_api_refuses_everyone_but_admin(client, db, email):
    created = _dsp(db, actor_of(db, STAFF), "https://bidder.example/api")
    db.commit()
    headers = bearer_headers(client, email)
    calls = [("get", "/api/dsp/list", None), ("get", "/api/dsp/activeDspList", None),
             ("get", f"/api/dsp/{created.id}", None), ("post", "/api/dsp/createDSP", _body("https://x.example", [])),
             ("post", "/api/newDsp/createNewDsp", _body("https://x.example", [])),
             ("put", f"/api/dsp/{created.id}", {"name": "Mine"}),
             ("post", f"/api/dsp/{created.id}/status", {"status": "inactive"}),
             ("post", f"/api/dsp/{created.id}/test", None),
             ("post", f"/api/dsp/{created.id}/sync", {"entity": "campaign", "id": 1})]
    for method, path, body in calls:
        reply = getattr(client, method)(path, headers=headers, **({"json": body} if body is not None else {}))
        assert reply.status_code == 403, (path, reply.text)
        assert SECRET not in reply.text


def test_the_rest_create_answers_201_with_the_dsps_url_and_the_spec_name_answers_200(client, db):
    """POST /dsp answers as every REST create does (201, Location readable with the same token); the spec's client
    reads dsp/createDSP's 200 without a Location."""
    headers = bearer_headers(client, STAFF)
    made = client.post("/api/dsp", headers=headers, json={**_body("https://bidder.example/api", []), "name": "One"})
    assert made.status_code == 201 and made.json()["code"] == 201, made.text
    read = client.get(made.headers["location"], headers=headers).json()["data"]
    assert read == made.json()["data"] and read["name"] == "One"
    spec = client.post("/api/dsp/createDSP", headers=headers, json={**_body("https://bidder.example/api", []),
                                                                    "name": "Two"})
    assert (spec.status_code, spec.json()["code"], "location" in spec.headers) == (200, 200, False)
