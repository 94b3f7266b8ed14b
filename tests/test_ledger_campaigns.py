"""Delivery charged by campaign (issue 21): the statistics store splits a batch's spend by campaign, the ledger
books spend and margin per campaign (a campaign that is 0, unknown or another advertiser's is booked without one),
a retried batch never charges twice in either reference format, and the ledger a person reads has a row per
campaign and day whose balances add up; the migration adds the column on SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from app.access.models import UserSettings
from app.campaigns.models import Campaign, CampaignStatus
from app.demo.advertising import seed_demo_advertising
from app.funds import ledger
from app.funds import service as funds
from app.funds.models import LedgerEntry
from app.kernel.errors import NotFound
from app.messaging.models import Notification
from app.statistics import ingestion
from app.warehouse.base import FactRow
from tests.helpers import actor_of, bearer_headers, insert_bare_user, other_tenant, run_alembic, user_by_email

ADMIN, AGENCY, ADVERTISER = "admin@demo.example", "agency@demo.example", "advertiser@demo.example"
OPENING = 5_000_000_000  # the demo seed's $5,000 deposit
MARGIN_BPS = 1250
DAY = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=5)
CENT = Decimal("0.01")


def _campaign(db: Session, advertiser_id: int, name: str) -> int:
    campaign = Campaign(advertiser_id=advertiser_id, name=name, status=CampaignStatus.ACTIVE,
                        starts_at=DAY - timedelta(days=10), total_budget_micros=10_000_000_000, bid_micros=2_000_000)
    db.add(campaign)
    db.flush()
    assert campaign.id is not None
    return campaign.id


@pytest.fixture
def advertiser(db: Session) -> int:
    """The demo advertiser with a 12.5 % agency margin and two campaigns of its own, "Alpha" and "Beta"."""
    user = user_by_email(db, ADVERTISER)
    settings = db.get(UserSettings, user.id)
    assert settings is not None and user.id is not None
    settings.margin_bps = MARGIN_BPS
    db.add(settings)
    _campaign(db, user.id, "Beta")
    _campaign(db, user.id, "Alpha")
    return user.id


def _campaign_id(db: Session, name: str) -> int:
    campaign_id = db.exec(select(Campaign.id).where(Campaign.name == name)).one()
    assert campaign_id is not None
    return campaign_id


def _fact(advertiser_id: int, campaign_id: int, hour: datetime, spend: int) -> FactRow:
    return FactRow(hour=hour.replace(tzinfo=None), advertiser_id=advertiser_id, campaign_id=campaign_id, creative_id=0,
                   exchange="Google AdX", os="Android", country="US", app="com.example.game", device_type="phone",
                   impressions=100, spend_micros=spend)


def _charges(db: Session, advertiser_id: int) -> list[tuple[str, int | None, int]]:
    """(kind, campaign id, amount) of the advertiser's delivery charges, by kind and campaign (none first)."""
    return sorted(((e.kind, e.campaign_id, e.amount_micros) for e in db.exec(select(LedgerEntry).where(
        LedgerEntry.advertiser_id == advertiser_id, col(LedgerEntry.kind).in_(("spend", "margin"))))),
        key=lambda charge: (charge[0], charge[1] or 0))


def _balance(db: Session, advertiser_id: int) -> int:
    return funds.balances_micros(db, [advertiser_id])[advertiser_id]


def test_a_batch_is_charged_per_campaign_and_reads_as_a_row_per_campaign_and_day(db: Session, advertiser: int) -> None:
    alpha, beta = _campaign_id(db, "Alpha"), _campaign_id(db, "Beta")
    rows = [{"hour": (DAY + timedelta(hours=hour)).isoformat(), "advertiser_id": advertiser, "campaign_id": campaign,
             "creative_id": 0, "exchange": "Google AdX", "os": "Android", "country": "US", "app": "com.example.game",
             "device_type": "phone", "impressions": 1000, "clicks": 3, "spend_micros": spend, "conversions": 0}
            for hour in (9, 10) for campaign, spend in ((alpha, 1_000_000), (beta, 3_000_000))]
    answer = ingestion.ingest_batch(db, actor=actor_of(db, ADMIN), batch_id="by-campaign", rows=rows)
    assert answer.spend_micros_by_advertiser == {str(advertiser): 8_000_000}
    assert _charges(db, advertiser) == [("margin", beta, -750_000), ("margin", alpha, -250_000),
                                        ("spend", beta, -6_000_000), ("spend", alpha, -2_000_000)]

    grouped = ledger.grouped_ledger(db, actor=actor_of(db, ADVERTISER), advertiser_id=advertiser)
    delivery = [r for r in grouped if r.kind == "delivery"]
    # The batch is booked at one moment (now): one day, a row per campaign, by name.
    assert [(r.campaign, r.campaign_id, r.spend, r.margin, r.amount) for r in delivery] == [
        ("Alpha", alpha, "-2.00", "-0.25", "-2.25"), ("Beta", beta, "-6.00", "-0.75", "-6.75")]
    assert [len(r.hours) for r in delivery] == [1, 1]  # type: ignore[arg-type]
    assert grouped[0].balance == "4991.00" and grouped[1].balance == "4993.25"
    assert grouped[-1].campaign is None and grouped[-1].kind == "deposit"


def test_a_campaign_that_is_0_unknown_or_another_advertisers_is_booked_without_one(db: Session,
                                                                                  advertiser: int) -> None:
    _agency, rival = other_tenant(db)
    assert rival.id is not None
    rivals_campaign = _campaign(db, rival.id, "Rival's")
    alpha = _campaign_id(db, "Alpha")
    funds.charge_delivery(db, reference="stats:mixed", charges={
        advertiser: {0: 1_000_000, 987_654: 2_000_000, rivals_campaign: 3_000_000, alpha: 4_000_000, 2**40: 1}})
    assert _charges(db, advertiser) == [("margin", None, -750_000), ("margin", alpha, -500_000),
                                        ("spend", None, -6_000_001), ("spend", alpha, -4_000_000)]
    assert _charges(db, rival.id) == []  # nothing lands on the other advertiser's ledger or campaign
    rows = ledger.grouped_ledger(db, actor=actor_of(db, AGENCY), advertiser_id=advertiser)
    assert [(r.campaign_id, r.campaign, r.amount) for r in rows[:2]] == [
        (alpha, "Alpha", "-4.50"), (None, None, "-6.75")]

    # The same through the store: a statistics row without a campaign (0) is charged, without a campaign.
    answer = ingestion.store_and_charge(db, batch_id="no-campaign", source="test",
                                        facts=[_fact(advertiser, 0, DAY, 2_000_000)])
    assert answer.spend_micros_by_advertiser == {str(advertiser): 2_000_000}
    assert ("spend", None, -2_000_000) in _charges(db, advertiser)


def test_a_retried_batch_never_charges_twice_in_either_reference_format(db: Session, advertiser: int) -> None:
    alpha, beta = _campaign_id(db, "Alpha"), _campaign_id(db, "Beta")
    split = {advertiser: {alpha: 1_000_000, beta: 2_000_000}}
    first = funds.charge_delivery(db, charges=split, reference="stats:b")
    assert funds.charge_delivery(db, charges=split, reference="stats:b") == first == {advertiser: OPENING - 3_375_000}
    # A batch charged before campaigns were recorded ("stats:old:<advertiser>:spend"), retried by the new code
    # with its campaign split, and the other way round: the batch's entries are found, nothing more is booked.
    funds.charge_delivery(db, charges={advertiser: 3_000_000}, reference="stats:old")
    assert db.exec(select(LedgerEntry.reference).where(LedgerEntry.reference == f"stats:old:{advertiser}:spend")).one()
    funds.charge_delivery(db, charges=split, reference="stats:old")
    funds.charge_delivery(db, charges={advertiser: 3_000_000}, reference="stats:b")
    assert _balance(db, advertiser) == OPENING - 2 * 3_375_000
    # A batch whose id merely starts like another's ("stats:b:<advertiser>") is a batch of its own.
    funds.charge_delivery(db, charges=split, reference=f"stats:b:{advertiser}")
    assert _balance(db, advertiser) == OPENING - 3 * 3_375_000
    references = db.exec(select(LedgerEntry.reference).where(col(LedgerEntry.reference).is_not(None))).all()
    assert len(references) == len(set(references)) == 4 + 2 + 4
    assert max(len(r or "") for r in references) <= 191


def test_the_longest_reference_with_the_largest_ids_fits_the_column(db: Session, advertiser: int) -> None:
    longest = "r" * funds.REFERENCE_MAX_LENGTH
    funds.charge_delivery(db, charges={advertiser: {2**31 - 1: 1_000_000}}, reference=longest)
    # 10-digit ids in ":<advertiser>:c<campaign>:margin" still fit the column's 191 characters.
    assert len(f"{longest}:{2**31 - 1}:c{2**31 - 1}:margin") <= 191
    assert _balance(db, advertiser) == OPENING - 1_125_000


def test_running_out_pauses_active_campaigns_once_when_charged_by_campaign(db: Session, advertiser: int) -> None:
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))
    alpha = _campaign_id(db, "Alpha")
    active = db.exec(select(Campaign.id).where(Campaign.advertiser_id == advertiser,
                                               Campaign.status == CampaignStatus.ACTIVE)).all()
    result = funds.charge_delivery(db, charges={advertiser: {alpha: 4_000_000_000, 0: 1}}, reference="big")
    assert result[advertiser] == OPENING - 4_500_000_001 and set(db.exec(select(Campaign.status).where(
        col(Campaign.id).in_(active))).all()) == {"active"}
    result = funds.charge_delivery(db, charges={advertiser: {alpha: 500_000_000}}, reference="bigger")
    assert result[advertiser] < 0
    assert set(db.exec(select(Campaign.status).where(col(Campaign.id).in_(active))).all()) == {"paused"}
    told = db.exec(select(Notification).where(Notification.user_id == advertiser,
                                              col(Notification.title).contains("ran out"))).all()
    assert len(told) == 1


def _cents(text: object) -> Decimal:
    return Decimal(str(text))


def test_every_row_balance_is_the_row_below_plus_its_amount(db: Session, advertiser: int) -> None:
    alpha, beta = _campaign_id(db, "Alpha"), _campaign_id(db, "Beta")
    for day in range(3):
        for hour in range(0, 24, 5):
            at = DAY + timedelta(days=day, hours=hour)
            funds.charge_delivery(db, charges={advertiser: {alpha: 1_234_567 + hour, beta: 765_433 * (day + 1), 0: 99}},
                                  reference=f"stats:{at:%Y%m%d%H}", booked_at=at)
        if day == 1:  # a deposit in the middle of a day splits its charges around it
            funds.append_entry(db, advertiser_id=advertiser, amount_micros=100_000_000, kind="deposit", note="Top-up",
                               reference=None, booked_at=DAY + timedelta(days=1, hours=12, minutes=1))
    rows = ledger.grouped_ledger(db, actor=actor_of(db, ADVERTISER), advertiser_id=advertiser)
    assert [(r.kind, r.campaign) for r in rows[:4]] == [("delivery", "Alpha"), ("delivery", "Beta"),
                                                            ("delivery", None), ("delivery", "Alpha")]
    assert rows[0].balance == ledger.advertiser_balance(db, actor=actor_of(db, ADVERTISER),
                                                        advertiser_id=advertiser).balance
    assert len([r for r in rows if r.kind == "delivery"]) == 3 * 3 + 3  # day two split by the deposit
    assert sum(int(r.entries) for r in rows) == len(db.exec(select(LedgerEntry).where(
        LedgerEntry.advertiser_id == advertiser)).all())
    for later, earlier in zip(rows, rows[1:], strict=False):
        assert abs(_cents(later.balance) - _cents(earlier.balance) - _cents(later.amount)) <= CENT
    for row in rows:
        if row.kind == "delivery":
            hours = row.hours
            assert hours[0].balance == row.balance  # type: ignore[index]
            assert abs(sum(_cents(h.amount) for h in hours) - _cents(row.amount)) <= CENT * len(hours)  # type: ignore[attr-defined]


def test_the_api_answers_the_campaign_rows_and_keeps_other_tenants_out(client, db: Session, advertiser: int) -> None:
    alpha = _campaign_id(db, "Alpha")
    funds.charge_delivery(db, charges={advertiser: {alpha: 2_000_000, 0: 1_000_000}}, reference="stats:api",
                          booked_at=DAY)
    _agency, rival = other_tenant(db)
    db.commit()
    headers = bearer_headers(client, AGENCY)
    rows = client.get(f"/api/funds/{advertiser}/ledger", params={"group": "day"}, headers=headers).json()["data"][
        "items"]
    assert [(r["kind"], r["campaign_id"], r["campaign"], r["amount"]) for r in rows] == [
        ("delivery", alpha, "Alpha", "-2.25"), ("delivery", None, None, "-1.12"), ("deposit", None, None, "5000.00")]
    assert rows[0]["hours"][0]["hour"].startswith(f"{DAY:%Y-%m-%d}T00:00")
    entries = client.get(f"/api/funds/{advertiser}/ledger", headers=headers).json()["data"]["items"]
    assert sorted((e["kind"], e["campaign_id"] or 0) for e in entries) == [
        ("deposit", 0), ("margin", 0), ("margin", alpha), ("spend", 0), ("spend", alpha)]
    assert client.get(f"/api/funds/{rival.id}/ledger", params={"group": "day"}, headers=headers).status_code == 404
    described = client.get("/api/openapi.json").json()["paths"]["/funds/{advertiser_id}/ledger"]["get"]["description"]
    assert "campaign" in described
    with pytest.raises(NotFound):
        ledger.grouped_ledger(db, actor=actor_of(db, "rival-adv@other.example"), advertiser_id=advertiser)


# -- the migration --------------------------------------------------------------------------------------------

def test_the_migration_adds_the_campaign_and_keeps_the_entries(empty_database: str) -> None:
    run_alembic(empty_database, "upgrade", "0016")
    engine = sa.create_engine(empty_database)
    with engine.begin() as connection:
        insert_bare_user(connection)
        connection.execute(sa.text("INSERT INTO ledger_entries (advertiser_id, amount_micros, kind, note, created_at, "
                                   "reference) SELECT id, -5, 'spend', '', CURRENT_TIMESTAMP, 'stats:x:1:spend' FROM users"))
    run_alembic(empty_database, "upgrade", "head")
    inspector = sa.inspect(engine)
    assert {c["name"]: c["nullable"] for c in inspector.get_columns("ledger_entries")}["campaign_id"] is True
    assert any(fk["referred_table"] == "campaigns" and fk["constrained_columns"] == ["campaign_id"]
               for fk in inspector.get_foreign_keys("ledger_entries"))
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT reference, campaign_id FROM ledger_entries")).all() == [
            ("stats:x:1:spend", None)]
    run_alembic(empty_database, "downgrade", "0016")
    assert "campaign_id" not in {c["name"] for c in sa.inspect(engine).get_columns("ledger_entries")}
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM ledger_entries")).scalar_one() == 1
    engine.dispose()
