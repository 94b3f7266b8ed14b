"""Flights as the buyer entered them (issue 38, items 4 and 5): a campaign's days are those of its time zone on
every page, reply, forecast and check, and an end date given without a time runs through the end of that day
(stored as the next midnight of the zone, the first instant it no longer runs). Tokyo, Los Angeles across its DST
changes, and UTC."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import Session, select

import components.pages  # noqa: F401  (the route table answers the delivery check's links, as in the console)
from app.access.models import User
from app.alerts import checks
from app.campaigns import export as campaign_export
from app.campaigns import flight
from app.campaigns import forecast as forecasts
from app.campaigns import service as campaigns
from app.campaigns.diagnosis.campaign_checks import flight as flight_check
from app.campaigns.diagnosis.checks import Subject
from app.campaigns.forecast_schemas import ForecastDraft
from app.campaigns.models import Campaign, CampaignStatus, as_utc
from app.campaigns.schemas import CampaignUpdate
from app.funds.diagnosis import one_day_budget
from app.kernel import csv_exports
from app.kernel.db import run
from app.statistics import dashboards, explain
from app.warehouse import get_store
from app.warehouse.base import FactRow
from components.campaigns.campaign_form import initial_values
from components.campaigns.summary import flight_day_count
from components.statistics.insight import pacing_ask
from tests.helpers import actor_of, stored_csv_text
from tests.render import text_of, walk
from tests.test_campaign_pages import page_at

ADVERTISER = "advertiser@demo.example"
TOKYO, LOS_ANGELES = "Asia/Tokyo", "America/Los_Angeles"
ZONES = (TOKYO, LOS_ANGELES, "UTC")
FLIGHT_INPUTS = ("field-starts_at", "field-ends_at")


def _settings(**changes: Any) -> CampaignUpdate:
    return CampaignUpdate.model_validate({"name": "Flight", "objective": "traffic", "total_budget": "3100",
                                          "bid": "2.00", "bid_strategy": "cpm", **changes})


def _stored(db: Session, campaign_id: int) -> Campaign:
    row = db.get(Campaign, campaign_id)
    assert row is not None
    return row


def _local_today(zone: str) -> date:
    return datetime.now(ZoneInfo(zone)).date()


@pytest.mark.parametrize("zone", ZONES)
def test_an_end_date_without_a_time_runs_through_that_day_in_the_campaigns_zone(db, zone) -> None:
    me = actor_of(db, ADVERTISER)
    made = campaigns.create_campaign(db, actor=me, data=_settings(starts_at="2027-01-01", ends_at="2027-01-31",
                                                                  time_zone=zone))
    row = _stored(db, made.id)
    where = ZoneInfo(zone)
    assert as_utc(row.starts_at) == datetime(2027, 1, 1, tzinfo=where)
    assert as_utc(row.ends_at) == datetime(2027, 2, 1, tzinfo=where)  # it runs all of the 31st
    assert (made.starts_on, made.ends_on) == ("2027-01-01", "2027-01-31")
    assert made.starts_at == datetime(2027, 1, 1, tzinfo=where).isoformat()  # with the zone's offset
    listed = next(r for r in campaigns.list_campaigns(db, actor=me) if r.id == made.id)
    assert (listed.starts_on, listed.ends_on, listed.time_zone) == ("2027-01-01", "2027-01-31", zone)

    # Saving what the reply or the form shows changes nothing: the dates mean the same both ways.
    form = initial_values(made)
    assert (form["starts_at"], form["ends_at"]) == ("2027-01-01", "2027-01-31")
    campaigns.update_campaign(db, actor=me, campaign_id=made.id,
                              data=CampaignUpdate(starts_at=form["starts_at"], ends_at=form["ends_at"]))
    campaigns.update_campaign(db, actor=me, campaign_id=made.id,
                              data=CampaignUpdate(starts_at=made.starts_at, ends_at=made.ends_at))
    assert (as_utc(_stored(db, made.id).starts_at), as_utc(_stored(db, made.id).ends_at)) == \
        (datetime(2027, 1, 1, tzinfo=where), datetime(2027, 2, 1, tzinfo=where))


def test_a_tokyo_flight_shows_its_own_days_not_utcs(db) -> None:
    """2026-11-29 00:00 in Tokyo is 2026-11-28 15:00 UTC: the reply, the list, the export and the form say 29."""
    me = actor_of(db, ADVERTISER)
    made = campaigns.create_campaign(db, actor=me, data=_settings(starts_at="2026-12-29", ends_at="2027-01-31",
                                                                  time_zone=TOKYO))
    assert made.starts_at == "2026-12-29T00:00:00+09:00" and made.ends_at == "2027-02-01T00:00:00+09:00"
    assert (made.starts_on, made.ends_on) == ("2026-12-29", "2027-01-31")
    link = campaign_export.export_campaigns(db, actor=me, columns=["name", "starts_at", "ends_at"])
    stored = csv_exports.open_export(token=link.csv_download_url.removeprefix(csv_exports.URL_PREFIX), actor=me)[0]
    rows = list(csv.reader(io.StringIO(stored_csv_text(stored).lstrip("\ufeff"))))
    assert ["Flight", "2026-12-29", "2027-01-31"] in rows


def test_los_angeles_days_keep_their_midnights_across_the_dst_changes(db) -> None:
    me = actor_of(db, ADVERTISER)
    spring = campaigns.create_campaign(db, actor=me, data=_settings(starts_at="2027-03-13", ends_at="2027-03-14",
                                                                    time_zone=LOS_ANGELES))
    row = _stored(db, spring.id)
    assert as_utc(row.starts_at) == datetime(2027, 3, 13, 8, tzinfo=UTC)  # PST, UTC-8
    assert as_utc(row.ends_at) == datetime(2027, 3, 15, 7, tzinfo=UTC)  # the 15th's midnight is PDT, UTC-7
    assert (spring.starts_on, spring.ends_on) == ("2027-03-13", "2027-03-14")
    autumn = campaigns.create_campaign(db, actor=me, data=_settings(name="Autumn", starts_at="2027-11-06",
                                                                    ends_at="2027-11-07", time_zone=LOS_ANGELES))
    assert as_utc(_stored(db, autumn.id).ends_at) == datetime(2027, 11, 8, 8, tzinfo=UTC)  # back on PST
    assert (autumn.starts_on, autumn.ends_on) == ("2027-11-06", "2027-11-07")
    where = ZoneInfo(LOS_ANGELES)
    assert flight.flight_days(row.starts_at, row.ends_at, where) == 2  # a 47-hour flight of two whole days


@pytest.mark.parametrize("zone", ZONES)
def test_a_flight_ending_today_still_runs_today(db, zone) -> None:
    """An end date of today is accepted and the campaign is live until the zone's midnight, not ended since the
    last one."""
    me = actor_of(db, ADVERTISER)
    today = _local_today(zone)
    made = campaigns.create_campaign(db, actor=me, data=_settings(starts_at=str(today - timedelta(days=3)),
                                                                  ends_at=str(today), time_zone=zone))
    assert made.shown_status == "draft" and "active" in made.next_statuses
    assert made.ends_on == str(today)


@pytest.mark.parametrize(("given", "days"), [
    ({"starts_at": "2027-01-01", "ends_at": "2027-01-31"}, 31),  # dates: the 31st is a flight day
    ({"starts_at": "2027-01-01T00:00", "ends_at": "2027-01-31T00:00"}, 30),  # it stops as the 31st begins
    ({"starts_at": "2027-01-01T09:00", "ends_at": "2027-01-31T18:00"}, 31),
    # The reply's own times, in Tokyo's offset, count Tokyo's days: 2026-11-29 .. 2027-01-31.
    ({"starts_at": "2026-11-29T00:00:00+09:00", "ends_at": "2027-02-01T00:00:00+09:00", "time_zone": TOKYO}, 64),
    ({"starts_at": "2027-03-01", "ends_at": "2027-03-31", "time_zone": LOS_ANGELES}, 31),  # across the DST change
])
def test_the_forecast_counts_the_days_the_saved_campaign_runs(db, given, days) -> None:
    me = actor_of(db, ADVERTISER)
    draft = ForecastDraft.model_validate({"bid": "2.00", **given})
    assert forecasts.forecast(db, actor=me, draft=draft).flight_days == days
    zone = given.get("time_zone", "UTC")
    saved = campaigns.create_campaign(db, actor=me, data=_settings(time_zone=zone, **{
        k: v for k, v in given.items() if k != "time_zone"}))
    row = _stored(db, saved.id)
    assert flight.flight_days(row.starts_at, row.ends_at, ZoneInfo(zone)) == days  # the same count
    assert flight_day_count(given["starts_at"], given["ends_at"], zone) == days  # and the form's summary says it too


def _active(db: Session, advertiser_id: int, *, zone: str, first: date, last: date | None,
            daily: int | None = None) -> Campaign:
    where = ZoneInfo(zone)
    row = Campaign(advertiser_id=advertiser_id, name=f"Zoned {zone}", status=CampaignStatus.ACTIVE, time_zone=zone,
                   starts_at=flight.midnight(first, where),
                   ends_at=None if last is None else flight.midnight(last + timedelta(days=1), where),
                   total_budget_micros=3_100_000_000, daily_budget_micros=daily, bid_micros=2_000_000)
    db.add(row)
    db.flush()
    return row


def _spend(advertiser_id: int, campaign_id: int, hour: datetime, micros: int, batch: str) -> None:
    get_store().ingest(batch, [FactRow(hour.astimezone(UTC).replace(tzinfo=None), advertiser_id, campaign_id, 0,
                                       "Magnite", "Android", "US", "app.example", "phone", 100, 1, micros)],
                       source="test")


def test_insight360_paces_a_tokyo_flight_on_tokyos_days(db, demo_ids) -> None:
    advertiser = demo_ids[ADVERTISER]
    for campaign in db.exec(select(Campaign)).all():
        db.delete(campaign)
    today = _local_today(TOKYO)
    first = today - timedelta(days=2)
    tokyo = _active(db, advertiser, zone=TOKYO, first=first, last=today + timedelta(days=7))
    db.commit()
    # Spent at 01:00 on its first day in Tokyo: the day before in UTC, yet within the flight.
    _spend(advertiser, tokyo.id or 0, datetime.combine(first, datetime.min.time(), ZoneInfo(TOKYO)).replace(hour=1),
           5_000_000, "flight-days-insight")
    [pacing] = dashboards.insight(db, actor=actor_of(db, ADVERTISER), today=today).pacing
    assert (pacing.starts_on, pacing.ends_on) == (str(first), str(today + timedelta(days=7)))
    assert pacing.time_zone == TOKYO
    assert pacing.spent == 5.0 and pacing.spent_since == str(first)
    assert pacing.expected == 930.0  # 3 of its 10 days: $3,100 x 3 / 10
    # Its explanation sums the same rows, by the same days.
    told = explain.explain(db, actor=actor_of(db, ADVERTISER), metric="spend", **pacing_ask(pacing))
    assert told.totals["spend_micros"] == 5_000_000


def test_the_delivery_check_names_an_ended_flights_last_day(db, demo_ids) -> None:
    me = actor_of(db, ADVERTISER)
    today = _local_today(TOKYO)
    ended = _active(db, me.id, zone=TOKYO, first=today - timedelta(days=9), last=today - timedelta(days=1))
    owner = db.get(User, me.id)
    [reason] = flight_check(Subject(db=db, actor=me, campaign=ended, advertiser=owner))
    assert reason.code == "flight_ended"
    assert reason.message == f"The flight ended on {today - timedelta(days=1)}."  # its last day, as entered


def test_the_balance_check_spreads_the_budget_over_the_flights_days_left_in_its_zone(db, demo_ids) -> None:
    me = actor_of(db, ADVERTISER)
    owner = db.get(User, me.id)
    today = _local_today(TOKYO)
    running = _active(db, me.id, zone=TOKYO, first=today - timedelta(days=1), last=today + timedelta(days=1))
    # $3,100 left over today and tomorrow (its last day): $1,550 a day, not over three days.
    assert one_day_budget(Subject(db=db, actor=me, campaign=running, advertiser=owner)) == 1_550_000_000


def test_under_delivery_judges_yesterday_by_the_campaigns_own_day(db, demo_ids) -> None:
    """An open-ended Tokyo campaign spent its whole $100 daily budget on Tokyo's yesterday, which was mostly the day
    before UTC's yesterday: it is on pace, not 100 % behind."""
    advertiser = demo_ids[ADVERTISER]
    now = datetime.now(UTC).replace(hour=12, minute=30, second=0, microsecond=0)  # 21:30 in Tokyo
    yesterday = now.astimezone(ZoneInfo(TOKYO)).date() - timedelta(days=1)
    campaign = _active(db, advertiser, zone=TOKYO, first=yesterday - timedelta(days=4), last=None,
                       daily=100_000_000)
    db.commit()
    _spend(advertiser, campaign.id or 0, datetime.combine(yesterday, datetime.min.time(), ZoneInfo(TOKYO))
           .replace(hour=1), 100_000_000, "flight-days-alerts")
    facts = checks.read_facts(db, [advertiser], now)
    running = [c for c in facts.campaigns[advertiser] if c.id == campaign.id]
    assert running and checks.under_delivery(running, facts.deliveries[advertiser], now) == []


def _flight_inputs(campaign_id: int) -> dict[str, tuple[str, str]]:
    """The edit form's flight inputs: id -> (type, value)."""
    return {node["attributes"]["id"]: (node["attributes"]["type"], node["attributes"]["value"])
            for node in walk(page_at(f"/campaignEditForm/{campaign_id}", ADVERTISER))
            if node.get("tagName") == "input" and node.get("attributes", {}).get("id") in FLIGHT_INPUTS}


def test_the_form_and_the_view_show_the_dates_entered_and_keep_a_time_of_day(demo_ids) -> None:
    """The form's flight fields are dates (the end: the last day), unless the saved value has a time of day, which
    the form then keeps in a date-time field; the view says the same dates."""
    def made(db: Session, **changes: str) -> Any:
        return campaigns.create_campaign(db, actor=actor_of(db, ADVERTISER), data=_settings(time_zone=TOKYO, **changes))

    dates = run(lambda db: made(db, starts_at="2026-12-29", ends_at="2027-01-31"))
    assert _flight_inputs(dates.id) == {
        "field-starts_at": ("date", "2026-12-29"), "field-ends_at": ("date", "2027-01-31")}
    view = text_of(page_at(f"/campaign/{dates.id}/", ADVERTISER))
    assert "2026-12-29" in view and "2027-01-31" in view and "2027-02-01" not in view

    timed = run(lambda db: made(db, name="Timed", starts_at="2026-12-29T09:30", ends_at="2027-01-31T18:00"))
    assert _flight_inputs(timed.id) == {
        "field-starts_at": ("datetime-local", "2026-12-29T09:30"),
        "field-ends_at": ("datetime-local", "2027-01-31T18:00")}
