"""The Python client (clients/python, `dsp_console_client`) against a live server: signed in with a key and with a
password, it reads every campaign page by page, pushes a statistics batch and reads the figures back, sends and
reads the spec's envelope, waits out a 429 as Retry-After says, and raises errors that name their field. The
README's "Use the API from Python" example runs here too, so it cannot go stale.

One server for the module, with a low write limit per key (the 429) and the envelope key set (the envelope test;
plain JSON keeps working beside it). Each test signs in afresh: a write limit counts per sign-in or key."""

from __future__ import annotations

import json
import re
import threading
import time
import typing
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import dsp_console_client as client_models
import httpx
import pytest
from dsp_console_client import ApiError, BatchRow, CampaignDetail, DspConsole, RetryPolicy, cryptojs
from sqlmodel import col, select

from app.campaigns.models import Campaign
from app.demo.seed import DEMO_PASSWORD
from app.kernel.config import REPO_ROOT
from app.kernel.db import session_scope
from app.main import create_api
from app.web import client_envelope
from tests.conftest import reset_database
from tests.faults import Server

ENVELOPE_KEY = "the-spec-client's-fixed-key"
WRITES_PER_KEY = 5  # a minute, per key or sign-in: low enough to meet in a test, high enough for the others
ADVERTISER = "advertiser@demo.example"
EXTRA_CAMPAIGNS = 7  # beside the demo's: the advertiser's list spans several pages of PAGE
PAGE = 3


@pytest.fixture(scope="module")
def seeded() -> dict[str, int]:
    ids = reset_database()
    with session_scope() as db:
        for number in range(EXTRA_CAMPAIGNS):
            db.add(Campaign(advertiser_id=ids[ADVERTISER], name=f"Client paging {number}", starts_at=datetime.now(UTC),
                            total_budget_micros=500_000_000, bid_micros=2_000_000))
        db.commit()
    return ids


class ThrottledWrites:
    """Writes with one key past its limit, on a thread started as soon as the server is up: the 429's Retry-After
    (up to a minute, the limit's window) is waited out while the other tests run."""

    def __init__(self, url: str, key: str) -> None:
        self.waits: list[float] = []
        self.answers: list[Any] = []
        self.error: BaseException | None = None

        def sleep(seconds: float) -> None:
            self.waits.append(seconds)
            time.sleep(seconds)

        self.client = DspConsole(url, api_key=key, sleep=sleep, retry=RetryPolicy(attempts=3, max_wait_s=61))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            # Until one write is over the limit and waited for: WRITES_PER_KEY + 1 writes, or more when the minute
            # happened to turn between them.
            for number in range(3 * WRITES_PER_KEY):
                self.answers.append(self.client.call("PATCH", "/auth/profile", body={"lastName": f"Writer {number}"}))
                if self.waits:
                    return
        except BaseException as error:  # reported by the test that reads it
            self.error = error
        finally:
            self.client.close()


@pytest.fixture(scope="module")
def server(seeded: dict[str, int], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    live = Server(tmp_path_factory.mktemp("python-client"), env={
        "DSP_API_WRITES_PER_MINUTE_PER_KEY": str(WRITES_PER_KEY), "DSP_CLIENT_ENVELOPE_KEY": ENVELOPE_KEY})
    try:
        yield live.start()
    finally:
        live.stop()


def sign_in_admin(server: Server) -> DspConsole:
    return DspConsole.sign_in(server.url, "admin@demo.example", DEMO_PASSWORD)


def new_key(server: Server, seeded: dict[str, int], label: str) -> str:
    with sign_in_admin(server) as admin:
        return admin.users.create_api_key(seeded[ADVERTISER], label).token


@pytest.fixture(scope="module")
def throttled(server: Server, seeded: dict[str, int]) -> ThrottledWrites:
    return ThrottledWrites(server.url, new_key(server, seeded, "throttled"))


@pytest.fixture(scope="module")
def advertiser(server: Server, seeded: dict[str, int], throttled: ThrottledWrites) -> Iterator[DspConsole]:
    """The advertiser's client for most tests (a client holds at most 5 keys: this one, the throttled writer's,
    the envelope test's and the README's)."""
    with DspConsole(server.url, api_key=new_key(server, seeded, "client test")) as client:
        yield client


def test_a_key_reads_every_campaign_once_over_several_pages_and_each_by_id(advertiser: DspConsole,
                                                                           seeded: dict[str, int]) -> None:
    pages = list(advertiser.campaigns.pages(limit=PAGE))
    seen = [campaign for page in pages for campaign in page.items]
    with session_scope() as db:
        expected = set(db.exec(select(col(Campaign.id)).where(Campaign.advertiser_id == seeded[ADVERTISER],
                                                               Campaign.status != "archived")))
    assert len(pages) >= 3 and all(len(page.items) == PAGE for page in pages[:-1])
    assert [c.id for c in seen] == list(dict.fromkeys(c.id for c in seen))  # none twice
    assert {c.id for c in seen} == expected == {c.id for c in advertiser.campaigns.iterate(limit=PAGE)}
    assert pages[0].total == len(expected)
    for row in seen:
        detail = advertiser.campaigns.get(row.id)
        assert isinstance(detail, CampaignDetail)
        assert (detail.id, detail.name, detail.advertiser_id) == (row.id, row.name, seeded[ADVERTISER])


def test_a_pushed_batch_is_read_back_to_the_cent(server: Server, advertiser: DspConsole,
                                                 seeded: dict[str, int]) -> None:
    campaign = next(advertiser.campaigns.iterate(limit=PAGE, search="Client paging"))
    row = BatchRow(hour=datetime(2025, 6, 3, 14, tzinfo=UTC), advertiser_id=seeded[ADVERTISER],
                   campaign_id=campaign.id, exchange="Google AdX", os="Android", app="com.example.game",
                   country="DE", device_type="phone", impressions=18_250, clicks=141, spend_micros=43_805_000)
    with sign_in_admin(server) as admin:
        stored = admin.statistics.push_batch("client-test:2025-06-03T14", [row])
        again = admin.statistics.push_batch("client-test:2025-06-03T14", [row])
    assert (stored.rows, stored.duplicate, again.duplicate) == (1, False, True)
    assert stored.spend_micros_by_advertiser[seeded[ADVERTISER]] >= 43_805_000  # the spend, and a margin if any
    figures = advertiser.statistics.read(start="2025-06-03", end="2025-06-03", dimensions=["campaign_id"],
                                         metrics=["impressions", "clicks", "spend"],
                                         filters={"campaign_id": [campaign.id]})
    assert len(figures) == 1
    assert (figures[0]["impressions"], figures[0]["clicks"], figures[0]["spend_micros"]) == (18_250, 141, 43_805_000)


def test_bodies_go_and_come_back_in_the_spec_envelope_when_a_key_is_configured(server: Server,
                                                                             seeded: dict[str, int]) -> None:
    wire: list[tuple[str, Any]] = []

    def sent(request: httpx.Request) -> None:
        wire.append(("request", json.loads(request.content)))

    def answered(response: httpx.Response) -> None:
        response.read()
        wire.append(("response", response.json()))

    with httpx.Client(event_hooks={"request": [sent], "response": [answered]}) as http, \
            DspConsole(server.url, api_key=new_key(server, seeded, "envelope"), envelope_key=ENVELOPE_KEY,
                       http=http) as client:
        profile = client.call("PATCH", "/auth/profile", body={"companyName": "Envelope Apps Ltd"})
    assert profile["company_name"] == "Envelope Apps Ltd"
    assert [(side, set(body)) for side, body in wire] == [("request", {"encryptedData"}),
                                                          ("response", {"encryptedResponse"})]
    # The server's CryptoJS code and the client's read each other's text (the client may not import the server's).
    assert json.loads(client_envelope.decrypt(wire[0][1]["encryptedData"], ENVELOPE_KEY)) == {
        "companyName": "Envelope Apps Ltd"}
    assert cryptojs.decrypt(client_envelope.encrypt("[1]", ENVELOPE_KEY), ENVELOPE_KEY) == "[1]"


def test_errors_carry_status_code_message_and_the_field(server: Server, advertiser: DspConsole) -> None:
    with pytest.raises(ApiError) as too_many:
        advertiser.campaigns.page(limit=501)
    assert (too_many.value.status, too_many.value.code, too_many.value.field) == (422, 422, "limit")
    assert "500" in too_many.value.fields["limit"]
    with pytest.raises(ApiError) as bad_email:
        advertiser.call("PATCH", "/auth/profile", body={"email": "not an address"})
    assert (bad_email.value.status, bad_email.value.field) == (422, "email")
    with pytest.raises(ApiError) as unknown_key, DspConsole(server.url, api_key="dsp_nobody.nothing") as stranger:
        stranger.campaigns.page()
    assert (unknown_key.value.status, unknown_key.value.field) == (401, None)
    assert unknown_key.value.message
    with pytest.raises(ApiError) as wrong_password:
        DspConsole.sign_in(server.url, "admin@demo.example", "not the password")
    assert wrong_password.value.status == 401


def test_a_sign_in_token_is_renewed_by_the_server(server: Server) -> None:
    with sign_in_admin(server) as admin:
        admin.transport.renew()
        assert admin.transport.token_expires_at and admin.transport.token_expires_at > time.time() + 3600
        assert admin.campaigns.page(limit=1).items  # the renewed token works


def test_a_saved_report_runs_and_its_csv_holds_the_figures(server: Server, advertiser: DspConsole) -> None:
    report = advertiser.reports.create(name="Client report", dimensions=["date"], metrics=["impressions"],
                                       period="custom", start_date=datetime(2025, 6, 3).date(),
                                       end_date=datetime(2025, 6, 3).date())
    csv_text = advertiser.reports.run(report.id, timeout_s=120)
    lines = csv_text.strip().splitlines()
    assert len(lines) == 2 and "2025-06-03" in lines[1], csv_text


def test_the_client_models_name_only_fields_the_api_documents() -> None:
    """Each model's fields exist in its /docs schema, and a field the server may leave null is optional here."""
    schemas = create_api().openapi()["components"]["schemas"]
    pairs = {client_models.Campaign: "CampaignListRow", CampaignDetail: "CampaignRead",
             client_models.Creative: "CreativeRow", client_models.User: "AccountRow",
             client_models.ApiKey: "ApiKeyCreated", client_models.BatchStored: "BatchStored",
             client_models.Report: "ReportRead", client_models.ReportRun: "ReportRunRead"}
    for model, name in pairs.items():
        schema = schemas[name]
        for field, info in model.model_fields.items():
            assert field in schema["properties"], f"{model.__name__}.{field} is not in {name}"
            nullable = {"type": "null"} in schema["properties"][field].get("anyOf", [])
            if nullable:
                assert type(None) in typing.get_args(info.annotation), f"{model.__name__}.{field} may be null"
            if info.is_required():
                assert field in schema.get("required", []), f"{name} may leave out {field}"


@pytest.fixture(scope="module")
def readme_key(server: Server, seeded: dict[str, int]) -> str:
    return new_key(server, seeded, "readme")


def run_example(readme: Path, after: str, live: dict[str, str], capsys: pytest.CaptureFixture[str]
                ) -> tuple[dict[str, Any], str]:
    """Runs the first ```python block after `after` in `readme`, its placeholders replaced by `live` values; its
    variables and what it printed."""
    section = readme.read_text().split(after, 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None, f"{readme.name} has a ```python example after {after!r}"
    source = code.group(1)
    for placeholder, value in live.items():
        assert placeholder in source, f"the example in {readme.name} no longer says {placeholder}"
        source = source.replace(placeholder, value)
    namespace: dict[str, Any] = {}
    capsys.readouterr()
    exec(compile(source, str(readme), "exec"), namespace)  # noqa: S102 (our own README's example)
    for value in namespace.values():
        if isinstance(value, DspConsole):
            value.close()
    return namespace, capsys.readouterr().out


def test_the_readme_example_runs_against_a_live_server(server: Server, readme_key: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    namespace, printed = run_example(Path(REPO_ROOT) / "README.md", "## Use the API from Python", {
        "https://console.example.com": server.url, "dsp_AbCd1234.s3cr3t": readme_key,
        "admin@example.com": "admin@demo.example", '"password"': repr(DEMO_PASSWORD)}, capsys)
    assert "Client paging" in printed  # the campaigns it listed
    figures = namespace["figures"]
    assert figures and figures[0]["impressions"] == 18_250


def test_the_client_packages_readme_example_runs_too(server: Server, readme_key: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    _, printed = run_example(Path(REPO_ROOT) / "clients/python/README.md", "# dsp_console_client", {
        "https://console.example.com": server.url, '"dsp_..."': repr(readme_key)}, capsys)
    assert "422 limit" in printed


def test_a_429_is_retried_after_the_wait_retry_after_asks_for(throttled: ThrottledWrites) -> None:
    throttled.thread.join(timeout=150)
    assert not throttled.thread.is_alive(), "the throttled writes never ended"
    assert throttled.error is None, repr(throttled.error)
    assert len(throttled.waits) == 1 and 1 <= throttled.waits[0] <= 60  # Retry-After, in whole seconds
    # The write over the limit went through once the window turned.
    assert throttled.answers[-1]["last_name"] == f"Writer {len(throttled.answers) - 1}"



# --- The retry policy on its own, against scripted answers (httpx.MockTransport): no server needed ---

def scripted(*answers: httpx.Response) -> tuple[DspConsole, list[float], list[str]]:
    """A client whose calls get `answers` in turn; the waits it asked for; what it sent ("GET /api/x Bearer ...")."""
    waits: list[float] = []
    sent: list[str] = []
    queue = list(answers)

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(f"{request.method} {request.url.path} {request.headers.get('authorization')}")
        return queue.pop(0)

    client = DspConsole("http://console.test", api_key="dsp_a.b", http=httpx.Client(
        transport=httpx.MockTransport(answer)), sleep=waits.append)
    return client, waits, sent


def refused(status: int, retry_after: str | None = None) -> httpx.Response:
    headers = {"Retry-After": retry_after} if retry_after else {}
    return httpx.Response(status, headers=headers, json={"success": False, "code": status, "message": "Not now.",
                                                         "data": None})


def done(data: Any = None) -> httpx.Response:
    return httpx.Response(200, json={"success": True, "code": 200, "message": "OK", "data": data})


def test_a_write_is_retried_after_a_429_or_a_503_waiting_what_retry_after_says() -> None:
    client, waits, sent = scripted(refused(429, "7"), refused(503, "2"), done({"id": 1}))
    assert client.call("POST", "/campaigns", body={"name": "x"}) == {"id": 1}
    assert (waits, sent) == ([7.0, 2.0], ["POST /api/campaigns Bearer dsp_a.b"] * 3)
    in_a_while = (datetime.now(UTC) + timedelta(seconds=30)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    client, waits, _ = scripted(refused(429, in_a_while), done())
    client.call("GET", "/campaigns")
    assert len(waits) == 1 and 25 <= waits[0] <= 30  # an HTTP date: the seconds until then


def test_a_500_is_retried_with_backoff_only_where_a_repeat_does_no_harm() -> None:
    client, waits, sent = scripted(refused(500), refused(502), done([]))
    assert client.call("GET", "/campaigns") == []
    assert len(waits) == 2 and all(0 <= wait <= 60 for wait in waits)
    client, waits, sent = scripted(refused(500), done())
    with pytest.raises(ApiError) as error:
        client.call("POST", "/campaigns", body={"name": "x"})  # it may have been saved: not sent twice
    assert (error.value.status, waits, len(sent)) == (500, [], 1)


def test_retries_end_after_the_last_attempt_or_a_wait_too_long_to_honour() -> None:
    client, waits, sent = scripted(*[refused(502)] * 5)
    with pytest.raises(ApiError) as error:
        client.call("GET", "/campaigns")
    assert (error.value.status, len(waits), len(sent)) == (502, 4, 5)
    client, waits, _ = scripted(refused(429, "3600"))
    with pytest.raises(ApiError) as error:
        client.call("POST", "/campaigns", body={})
    assert (error.value.status, error.value.retry_after_s, waits) == (429, 3600.0, [])


def test_an_answer_that_is_not_the_apis_json_is_still_an_api_error() -> None:
    client, _, _ = scripted(httpx.Response(413, text="<html>Request Entity Too Large</html>"))
    with pytest.raises(ApiError) as error:
        client.call("POST", "/campaigns", body={})
    assert (error.value.status, error.value.field) == (413, None)
    assert "Too Large" in error.value.message


def test_a_sign_in_token_near_its_end_is_renewed_before_the_next_call() -> None:
    later_ms = int((time.time() + 7200) * 1000)
    client, _, sent = scripted(done({"token": "renewed", "expiresAt": later_ms}), done([]))
    client.transport.adopt({"token": "first", "expiresAt": int((time.time() + 60) * 1000)})
    client.call("GET", "/campaigns")
    assert sent == ["GET /api/auth/refresh-token Bearer first", "GET /api/campaigns Bearer renewed"]
    assert client.transport.token_expires_at == later_ms / 1000
