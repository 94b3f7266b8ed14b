"""Alerts (issue 27): each kind raised once and cleared when its cause is gone, told to the right people (the
notifications dropdown; e-mail only when subscribed), listed in scope by GET /api/alerts, and run by the
scheduled job of the queue."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, col, select

from app import jobs
from app.access.roles import Role
from app.alerts import jobs as alert_jobs
from app.alerts import service as alerts
from app.alerts.kinds import AlertKind, fix_link
from app.alerts.models import Alert
from app.campaigns.models import Campaign, CampaignStatus
from app.demo.seed import DEMO_PASSWORD, create_user
from app.dsps.models import Dsp, DspAssociation, PushState
from app.funds.models import LedgerEntry
from app.jobs import clock
from app.jobs.models import ClockSlot
from app.kernel.db import session_scope
from app.kernel.money import MICROS_PER_DOLLAR
from app.messaging.models import EmailOutbox, Notification
from app.reports.models import Report, ReportRun, RunStatus
from app.warehouse import get_store
from app.warehouse.base import FactRow
from components.shell.notifications_menu import NotificationsMenu
from tests.faults import wait_until
from tests.helpers import actor_of, bearer_headers, other_tenant, settle_jobs, user_by_email, walk_pages
from tests.render import deliver_and_settle, signed_in_console, text_of, walk

NOW = datetime.now(UTC).replace(minute=30, second=0, microsecond=0)
USD = MICROS_PER_DOLLAR


def _spend(advertiser_id: int, campaign_id: int, hour: datetime, dollars: int) -> None:
    get_store().ingest(f"test-{uuid.uuid4().hex}", [FactRow(
        hour=hour.replace(minute=0, second=0, microsecond=0), advertiser_id=advertiser_id, campaign_id=campaign_id,
        creative_id=0, exchange="x", os="ios", country="US", app="a", device_type="phone", impressions=1000,
        spend_micros=dollars * USD)], source="test")


def _campaign(db: Session, advertiser_id: int, *, days_in: int, days_left: int | None, budget: int = 1000,
              daily: int | None = None) -> Campaign:
    row = Campaign(advertiser_id=advertiser_id, name=f"Flight {uuid.uuid4().hex[:6]}", status=CampaignStatus.ACTIVE,
                   starts_at=NOW - timedelta(days=days_in),
                   ends_at=NOW + timedelta(days=days_left) if days_left is not None else None,
                   total_budget_micros=budget * USD, daily_budget_micros=daily * USD if daily else None,
                   bid_micros=2 * USD)
    db.add(row)
    db.commit()
    return row


def _check() -> None:
    assert alert_jobs.run_checks(NOW) is not None


def _open(kind: AlertKind) -> list[Alert]:
    with session_scope() as db:
        return list(db.exec(select(Alert).where(Alert.kind == kind, col(Alert.open_key).is_not(None))))


def _open_all() -> list[Alert]:
    with session_scope() as db:
        return list(db.exec(select(Alert).where(col(Alert.open_key).is_not(None))))


def _all(kind: AlertKind) -> list[Alert]:
    with session_scope() as db:
        return list(db.exec(select(Alert).where(Alert.kind == kind)))


def _notified(user_id: int, title_start: str) -> int:
    with session_scope() as db:
        return len([n for n in db.exec(select(Notification).where(Notification.user_id == user_id))
                    if n.title.startswith(title_start)])


def test_low_balance_is_raised_once_told_to_advertiser_and_agency_and_cleared_by_a_deposit(db, demo_ids) -> None:
    advertiser, agency = demo_ids["advertiser@demo.example"], demo_ids["agency@demo.example"]
    # $5,000 (the demo deposit) at $2,000 a day over the last 7 whole days: 2.5 days left, under the default 3.
    for days_ago in range(1, 8):
        _spend(advertiser, 0, NOW - timedelta(days=days_ago), 2000)
    _check()
    _check()  # the cause is still there: still one alert, told once
    [alert] = _all(AlertKind.LOW_BALANCE)
    assert alert.open_key and alert.cleared_at is None and alert.owner_id == advertiser
    assert "2.5 days" in alert.title
    assert _notified(advertiser, "Low balance") == 1 and _notified(agency, "Low balance") == 1
    assert _notified(demo_ids["admin@demo.example"], "Low balance") == 0  # staff read the list, not a flood

    db.add(LedgerEntry(advertiser_id=advertiser, amount_micros=20_000 * USD, kind="deposit"))
    db.commit()
    _check()
    [cleared] = _all(AlertKind.LOW_BALANCE)
    assert cleared.open_key is None and cleared.cleared_at is not None

    # The user's own threshold: 15 days of $2,000 is more than the $25,000 now there.
    alerts.update_subscription(db, actor=actor_of(db, "advertiser@demo.example"), low_balance_days=15)
    db.commit()
    _check()
    assert len(_open(AlertKind.LOW_BALANCE)) == 1 and len(_all(AlertKind.LOW_BALANCE)) == 2


def test_a_silent_campaign_raises_no_spend_and_under_delivery_and_delivery_clears_both(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    # Three days into a ten-day $1,000 flight: even pacing expects $300 by now; it has spent nothing.
    silent = _campaign(db, advertiser, days_in=3, days_left=7)
    young = _campaign(db, advertiser, days_in=0, days_left=10)  # started minutes ago: neither yet
    _check()
    _check()
    [no_spend] = _open(AlertKind.NO_SPEND)
    [behind] = _open(AlertKind.UNDER_DELIVERY)
    assert no_spend.subject == behind.subject == f"campaign:{silent.id}" != f"campaign:{young.id}"
    assert "100 % behind" in behind.title

    _spend(advertiser, silent.id or 0, NOW - timedelta(hours=2), 150)  # spends again, but half of the pace
    _check()
    assert not _open(AlertKind.NO_SPEND) and len(_open(AlertKind.UNDER_DELIVERY)) == 1
    _spend(advertiser, silent.id or 0, NOW - timedelta(days=1), 100)  # $250 of $300: within 20 %
    _check()
    assert not _open(AlertKind.UNDER_DELIVERY)
    assert [a.cleared_at is not None for a in _all(AlertKind.UNDER_DELIVERY)] == [True]


def test_an_open_ended_campaign_is_paced_on_its_daily_budget(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    campaign = _campaign(db, advertiser, days_in=5, days_left=None, daily=100)
    _spend(advertiser, campaign.id or 0, NOW, 5)  # this hour: today, whatever the time
    _spend(advertiser, campaign.id or 0, (NOW - timedelta(days=1)).replace(hour=12), 70)  # yesterday: 30 % behind
    _check()
    [behind] = _open(AlertKind.UNDER_DELIVERY)
    assert "30 % behind" in behind.title and not _open(AlertKind.NO_SPEND)


def test_one_pass_raises_for_some_advertisers_and_clears_for_others(db, demo_ids, monkeypatch) -> None:
    """A pass reads every advertiser's facts together (here two at a time, so it spans several reads): each
    advertiser's alerts still follow its own causes only, raised once and cleared once, in the same pass."""
    monkeypatch.setattr(alert_jobs, "CHUNK", 2)
    spender = demo_ids["advertiser@demo.example"]
    rival_agency, rival = other_tenant(db)
    newcomer = create_user(db, email="newcomer@other.example", role=Role.ADVERTISER, password=DEMO_PASSWORD,
                           first_name="New", last_name="Comer", company_name="Newcomer", agency_id=rival_agency.id)
    db.add(LedgerEntry(advertiser_id=rival.id, amount_micros=1000 * USD, kind="deposit"))
    db.add(LedgerEntry(advertiser_id=newcomer.id, amount_micros=100 * USD, kind="deposit"))
    db.commit()
    for days_ago in range(1, 8):  # $5,000 at $2,000 a day: 2.5 days left
        _spend(spender, 0, NOW - timedelta(days=days_ago), 2000)
    silent = _campaign(db, rival.id or 0, days_in=3, days_left=7)  # $300 expected by now, nothing spent
    _check()
    assert {(a.kind, a.owner_id) for a in _open_all()} == {
        (AlertKind.LOW_BALANCE, spender), (AlertKind.NO_SPEND, rival.id), (AlertKind.UNDER_DELIVERY, rival.id)}

    db.add(LedgerEntry(advertiser_id=spender, amount_micros=20_000 * USD, kind="deposit"))  # clears its low balance
    db.commit()
    _spend(rival.id or 0, silent.id or 0, NOW - timedelta(hours=2), 150)  # spends again: no more no-spend, still behind
    for days_ago in range(1, 8):  # $100 at $50 a day: 2 days left
        _spend(newcomer.id or 0, 0, NOW - timedelta(days=days_ago), 50)
    _check()
    assert {(a.kind, a.owner_id) for a in _open_all()} == {
        (AlertKind.UNDER_DELIVERY, rival.id), (AlertKind.LOW_BALANCE, newcomer.id)}
    cleared = {(a.kind, a.owner_id) for kind in AlertKind for a in _all(kind) if a.cleared_at is not None}
    assert cleared == {(AlertKind.LOW_BALANCE, spender), (AlertKind.NO_SPEND, rival.id)}
    assert len(_all(AlertKind.UNDER_DELIVERY)) == 1 and _notified(rival.id or 0, "Under-delivering") == 1
    assert _notified(newcomer.id or 0, "Low balance") == 1 and _notified(rival_agency.id or 0, "Low balance") == 1


def test_a_failed_report_run_alerts_its_owner_until_a_run_completes(db, demo_ids) -> None:
    owner = demo_ids["agency@demo.example"]
    report = Report(owner_id=owner, name="Weekly", report_type="campaign")
    db.add(report)
    db.flush()
    db.add(ReportRun(report_id=report.id, requested_by=owner, status=RunStatus.FAILED, error="The store was down",
                     finished_at=NOW))
    db.commit()
    _check()
    _check()
    [alert] = _open(AlertKind.REPORT_FAILED)
    assert alert.owner_id == owner and "The store was down" in alert.detail
    assert _notified(owner, "Report failed") == 1

    db.add(ReportRun(report_id=report.id or 0, requested_by=owner, status=RunStatus.COMPLETED, finished_at=NOW))
    db.commit()
    _check()
    assert not _open(AlertKind.REPORT_FAILED) and len(_all(AlertKind.REPORT_FAILED)) == 1


def test_a_failed_dsp_push_alerts_admins_only_until_pushed(db, demo_ids) -> None:
    dsp = Dsp(name="Fake DSP", endpoint_url="https://dsp.example/api")
    db.add(dsp)
    db.flush()
    push = DspAssociation(dsp_id=dsp.id or 0, entity="campaign", local_id=7, push_state=PushState.FAILED,
                          last_error="HTTP 500", attempted_at=NOW)
    db.add(push)
    db.commit()
    _check()
    [alert] = _open(AlertKind.PUSH_FAILED)
    assert alert.owner_id is None and alert.detail == "HTTP 500"
    assert _notified(demo_ids["admin@demo.example"], "Push to Fake DSP failed") == 1
    assert _notified(demo_ids["coadmin@demo.example"], "Push to") == 0  # the DSP connections are admin-only
    assert alerts.list_alerts(db, actor=actor_of(db, "admin@demo.example")).total == 1
    for email in ("coadmin@demo.example", "agency@demo.example", "advertiser@demo.example"):
        assert alerts.list_alerts(db, actor=actor_of(db, email)).total == 0

    push.push_state = PushState.DELIVERED
    db.add(push)
    db.commit()
    _check()
    assert not _open(AlertKind.PUSH_FAILED)


def test_e_mail_goes_only_to_those_subscribed_to_the_kind(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    alerts.update_subscription(db, actor=actor_of(db, "advertiser@demo.example"), email_kinds=["low_balance"])
    alerts.update_subscription(db, actor=actor_of(db, "agency@demo.example"), email_kinds=["no_spend"])
    db.commit()
    for days_ago in range(1, 8):
        _spend(advertiser, 0, NOW - timedelta(days=days_ago), 2000)
    _check()
    _check()
    with session_scope() as read:
        mails = [(m.to_address, m.subject) for m in read.exec(select(EmailOutbox))
                 if m.subject.startswith("Alert:")]
    assert mails == [("advertiser@demo.example", "Alert: Low balance: about 2.5 days of spend left")]


def test_the_list_shows_only_alerts_in_scope_open_first_a_page_at_a_time(client, db, demo_ids) -> None:
    rival_agency, rival = other_tenant(db)
    db.commit()
    for advertiser_id in (demo_ids["advertiser@demo.example"], rival.id or 0):
        for days_ago in range(1, 8):
            _spend(advertiser_id, 0, NOW - timedelta(days=days_ago), 2000)
    db.add(LedgerEntry(advertiser_id=rival.id, amount_micros=1000 * USD, kind="deposit"))
    db.commit()
    _check()
    for n in range(3):  # cleared ones, older: after the open ones whatever their id
        db.add(Alert(kind=AlertKind.REPORT_FAILED, subject=f"report:{900 + n}", owner_id=rival.id, title="Old",
                     cleared_at=NOW))
    db.commit()

    mine = walk_pages(client, bearer_headers(client, "agency@demo.example"), "/api/alerts", 1)
    assert [(a["subject"], a["open"]) for a in mine] == [(f"advertiser:{demo_ids['advertiser@demo.example']}", True)]
    theirs = walk_pages(client, bearer_headers(client, "rival-agency@other.example"), "/api/alerts", 2)
    assert [a["open"] for a in theirs] == [True, False, False, False]
    assert all(a["owner_id"] == rival.id for a in theirs)
    everything = walk_pages(client, bearer_headers(client, "admin@demo.example"), "/api/alerts", 2, state="open")
    assert len(everything) == 2 and all(a["open"] and a["kind"] == "low_balance" for a in everything)
    assert rival_agency.id not in {a["owner_id"] for a in mine}
    # Each carries its fix for the reader's role: the agency's funds page, the admin's add-funds page.
    assert mine[0]["fix"] == {"label": "Add funds", "page": "funds", "link": "/agency/funds"}
    assert {a["fix"]["link"] for a in everything} == {"/admin/addfund"}


@pytest.mark.parametrize(("kind", "subject", "role", "page", "link"), [
    (AlertKind.LOW_BALANCE, "advertiser:12", Role.ADVERTISER, "funds", "/funds"),
    (AlertKind.NO_SPEND, "campaign:7", Role.ADVERTISER, "campaign.view", "/campaign/7/"),
    (AlertKind.UNDER_DELIVERY, "campaign:7", Role.ADMIN, "campaign.view", "/admin/campaign/viewCampaign/7"),
    (AlertKind.REPORT_FAILED, "report:3", Role.AGENCY, "report.view", "/agency/report/view/3"),
    (AlertKind.PUSH_FAILED, "push:4:campaign:7", Role.ADMIN, "dsp.view", "/admin/viewdsp/4"),
    (AlertKind.PUSH_FAILED, "push:4:campaign:7", Role.ADVERTISER, "dsp.view", None),  # no such page: no link
])
def test_each_alert_links_to_its_fix_for_the_readers_role(kind: AlertKind, subject: str, role: Role, page: str,
                                                          link: str | None) -> None:
    found = fix_link(kind, subject, role)
    assert (found.page, found.link) == (page, link) and found.label


def test_the_subscription_api_reads_updates_and_names_a_wrong_field(client, demo_ids) -> None:
    headers = bearer_headers(client, "advertiser@demo.example")
    first = client.get("/api/alerts/subscription", headers=headers).json()["data"]
    assert first == {"email_kinds": [], "low_balance_days": 3, "has_balance": True,
                     "kinds": ["low_balance", "no_spend", "under_delivery", "report_failed"]}
    saved = client.put("/api/alerts/subscription", headers=headers, json={"email_kinds": ["no_spend"]}).json()["data"]
    assert saved["email_kinds"] == ["no_spend"] and saved["low_balance_days"] == 3  # left out: kept
    refused = client.put("/api/alerts/subscription", headers=headers,
                         json={"email_kinds": ["push_failed"], "low_balance_days": 0})
    assert refused.status_code == 422
    assert set(refused.json()["data"]["fields"]) == {"email_kinds", "low_balance_days"}


def test_the_clock_queues_one_check_a_slot_and_the_job_runs_the_checks(db, demo_ids, settings, monkeypatch) -> None:
    monkeypatch.setattr(settings, "alert_check_minutes", 5.0)
    for days_ago in range(1, 8):
        _spend(demo_ids["advertiser@demo.example"], 0, NOW - timedelta(days=days_ago), 2000)
    assert alert_jobs.tick() is True
    assert alert_jobs.tick() is False  # the slot is taken (by this process or another)
    assert jobs.keys(alert_jobs.KEY) == {alert_jobs.KEY}
    settle_jobs()
    assert len(_open(AlertKind.LOW_BALANCE)) == 1


def test_the_process_clock_queues_a_check_when_it_starts_unless_the_checks_are_off(db, demo_ids, settings,
                                                                                  monkeypatch) -> None:
    monkeypatch.setattr(settings, "alert_check_minutes", 0)  # DSP_ALERT_CHECK_MINUTES=0: no checks
    try:
        assert clock.start().get_job(f"every-{alert_jobs.KEY}") is None
        clock.shutdown()
        monkeypatch.setattr(settings, "alert_check_minutes", 5.0)
        clock.start()  # its first tick is due at once: the check is queued (this process claims the slot)
        wait_until(lambda: jobs.keys(alert_jobs.KEY) == {alert_jobs.KEY}, "the clock to queue the check")
    finally:
        clock.shutdown()
    settle_jobs()
    assert not jobs.keys(alert_jobs.KEY)


def test_a_check_does_not_run_while_another_holds_the_lease(db, demo_ids) -> None:
    alert_jobs.tick()  # makes the clock row
    settle_jobs()
    with session_scope() as write:
        slot = write.get(ClockSlot, alert_jobs.KEY)
        assert slot is not None
        slot.lease_until = NOW + timedelta(minutes=5)
        write.add(slot)
    assert alert_jobs.run_checks(NOW) is None
    assert alert_jobs.run_checks(NOW + timedelta(minutes=6)) == 0  # a lease left by a dead process runs out


@pytest.mark.parametrize("email", ["advertiser@demo.example"])
def test_the_notifications_dropdown_shows_a_raised_alert(db, demo_ids, email: str) -> None:
    for days_ago in range(1, 8):
        _spend(user_by_email(db, email).id or 0, 0, NOW - timedelta(days=days_ago), 2000)
    _check()

    def open_menu(model: dict) -> tuple[str, list]:
        button = next(n for n in walk(model) if n.get("tagName") == "button" and "onClick" in n.get("eventHandlers", {}))
        return button["eventHandlers"]["onClick"]["target"], [{}]

    model, _sent = deliver_and_settle(NotificationsMenu, signed_in_console(email), "/", open_menu)
    assert "Low balance: about 2.5 days of spend left" in text_of(model)
    fixes = [n["attributes"]["data-notification-fix"] for n in walk(model)
             if "data-notification-fix" in n.get("attributes", {})]
    assert "/funds" in fixes  # where this reader adds funds (the demo seed's note links the documentation)
    assert "Balance $5,000.00" in text_of(model) or "Balance $5000.00" in text_of(model)


@pytest.mark.parametrize(("email", "push_shown"), [("advertiser@demo.example", False), ("admin@demo.example", True)])
def test_the_profile_alerts_card_offers_the_kinds_the_user_receives(db, demo_ids, email: str, push_shown: bool) -> None:
    from components.accounts.alert_settings import AlertSettings
    from tests.render import render_model

    alerts.update_subscription(db, actor=actor_of(db, email), email_kinds=["no_spend"], low_balance_days=5)
    db.commit()
    model = render_model(AlertSettings, signed_in_console(email))
    switches = {n["attributes"]["name"]: n["attributes"]["checked"] for n in walk(model)
                if n.get("attributes", {}).get("role") == "switch"}
    assert switches == {"email_low_balance": False, "email_no_spend": True, "email_under_delivery": False,
                        "email_report_failed": False, **({"email_push_failed": False} if push_shown else {})}
    days = [n["attributes"]["value"] for n in walk(model) if n.get("attributes", {}).get("name") == "low_balance_days"]
    assert days == ([] if push_shown else ["5"])  # an admin has no balance of its own to set a threshold for
