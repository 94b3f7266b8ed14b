"""Funds service: adding funds (permission, scope, validation), charging delivery (spend, margin, idempotency,
pausing on an empty balance) and the overview each role sees."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlmodel import Session, col, func, select

from app.access.models import UserSettings
from app.campaigns.models import Campaign, CampaignStatus
from app.demo.advertising import seed_demo_advertising
from app.funds import activation, ledger
from app.funds import service as funds
from app.funds.models import LedgerEntry
from app.history.models import AuditEntry
from app.kernel import money
from app.kernel.errors import Forbidden, Invalid, NotFound
from app.messaging.models import Notification
from tests.helpers import actor_of, other_tenant, user_by_email

ADMIN, CO_ADMIN, AGENCY, ADVERTISER = ("admin@demo.example", "coadmin@demo.example", "agency@demo.example",
                                       "advertiser@demo.example")
OPENING = 5_000_000_000  # the demo seed's $5,000 deposit


def balance(db: Session, advertiser_id: int) -> int:
    return funds.balances_micros(db, [advertiser_id])[advertiser_id]


@pytest.mark.parametrize("email", [ADMIN, CO_ADMIN])
def test_staff_add_a_deposit_that_the_advertiser_sees_and_is_told_about(db: Session, email: str) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    result = funds.add_funds(db, actor=actor_of(db, email), advertiser_id=advertiser.id, amount="250.75",
                             kind="deposit", note="Wire 42")
    assert result.balance == "5250.75" and result.amount_micros == 250_750_000
    own = actor_of(db, ADVERTISER)
    assert ledger.balance_micros(db, actor=own, advertiser_id=advertiser.id) == OPENING + 250_750_000
    assert ledger.payment_history(db, actor=own, advertiser_id=advertiser.id)[0].note == "Wire 42"
    note = db.exec(select(Notification).where(Notification.user_id == advertiser.id)
                   .order_by(col(Notification.id).desc())).first()
    assert note is not None and note.title == "$250.75 added to your balance"
    change = db.exec(select(AuditEntry).where(AuditEntry.entity == "funds",
                                              AuditEntry.entity_id == str(advertiser.id))).one()
    assert change.action == "deposit" and change.changes["amount"] == [None, "250.75"]
    assert change.actor_id == user_by_email(db, email).id


def test_an_adjustment_may_take_money_off_but_a_deposit_may_not(db: Session) -> None:
    admin, advertiser = actor_of(db, ADMIN), user_by_email(db, ADVERTISER)
    assert funds.add_funds(db, actor=admin, advertiser_id=advertiser.id, amount="-100", kind="adjustment",
                           note="Correction").balance == "4900.00"
    for kind in ("deposit", "refund"):
        with pytest.raises(Invalid) as refused:
            funds.add_funds(db, actor=admin, advertiser_id=advertiser.id, amount="-100", kind=kind, note="")
        assert refused.value.fields == {"amount": funds.CREDIT_POSITIVE}
    assert balance(db, advertiser.id) == OPENING - 100_000_000


DIGITS = "Enter the amount in digits 0-9, e.g. 250.00."
EITHER_WAY = "From -$1,000,000.00 to $1,000,000.00."


@pytest.mark.parametrize(("amount", "message"), [
    ("", "Enter an amount, e.g. 250.00."), ("ten", DIGITS), ("1.005", money.TWO_DECIMALS), ("0", funds.NOT_ZERO),
    ("0.00", funds.NOT_ZERO), ("1000000.01", EITHER_WAY), ("-1000001", EITHER_WAY), ("1E+30", money.EXPONENT),
    ("NaN", DIGITS), ("1,5", money.COMMA), ("Infinity", DIGITS), ("١٢٣", DIGITS), ("99999999999999", EITHER_WAY),
])
def test_amounts_are_validated_with_a_message_on_the_amount_field(db: Session, amount: str, message: str) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    with pytest.raises(Invalid) as refused:
        funds.add_funds(db, actor=actor_of(db, ADMIN), advertiser_id=advertiser.id, amount=amount, kind="deposit",
                        note="")
    assert refused.value.fields == {"amount": message}
    assert balance(db, advertiser.id) == OPENING


def test_amounts_accept_the_largest_entry_and_thousands_commas() -> None:
    assert funds.nonzero_amount("1000000.00") == (Decimal("1000000.00"), None)
    assert funds.nonzero_amount("$1,000,000.00") == (Decimal("1000000.00"), None)
    assert funds.nonzero_amount(" $7.10 ") == (Decimal("7.10"), None)
    assert funds.nonzero_amount(Decimal("3")) == (Decimal("3.00"), None)


def test_every_wrong_field_is_named_at_once(db: Session) -> None:
    agency = user_by_email(db, AGENCY)
    with pytest.raises(Invalid) as refused:
        funds.add_funds(db, actor=actor_of(db, ADMIN), advertiser_id=agency.id, amount="x", kind="spend",
                        note="n" * 256)
    assert set(refused.value.fields) == {"advertiser_id", "kind", "amount", "note"}
    assert refused.value.fields["advertiser_id"] == funds.CHOOSE_ADVERTISER
    assert refused.value.fields["kind"] == funds.CHOOSE_KIND


@pytest.mark.parametrize("email", [AGENCY, ADVERTISER])
def test_only_staff_add_funds(db: Session, email: str) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    with pytest.raises(Forbidden):
        funds.add_funds(db, actor=actor_of(db, email), advertiser_id=advertiser.id, amount="10", kind="deposit",
                        note="")
    assert balance(db, advertiser.id) == OPENING


def test_an_agency_sees_only_its_own_advertisers_funds(db: Session) -> None:
    _rival_agency, rival_advertiser = other_tenant(db)
    own = user_by_email(db, ADVERTISER)
    agency = actor_of(db, AGENCY)
    assert [row.id for row in funds.funds_overview(db, actor=agency)] == [own.id]
    with pytest.raises(NotFound):
        funds.funds_summary(db, actor=agency, advertiser_id=rival_advertiser.id)
    with pytest.raises(NotFound):
        ledger.payment_history(db, actor=agency, advertiser_id=rival_advertiser.id)
    staff = {row.id for row in funds.funds_overview(db, actor=actor_of(db, CO_ADMIN))}
    assert staff == {own.id, rival_advertiser.id}
    advertiser_view = funds.funds_overview(db, actor=actor_of(db, ADVERTISER))
    assert [row.id for row in advertiser_view] == [own.id]


def test_the_overview_adds_up_each_kind_and_filters_by_agency(db: Session) -> None:
    rival_agency, rival_advertiser = other_tenant(db)
    own = user_by_email(db, ADVERTISER)
    db.add(UserSettings(user_id=rival_advertiser.id, margin_bps=1000))
    admin = actor_of(db, ADMIN)
    funds.add_funds(db, actor=admin, advertiser_id=rival_advertiser.id, amount="100", kind="deposit", note="")
    funds.charge_delivery(db, charges={rival_advertiser.id: 20_000_000, own.id: 1_000_000}, reference="batch-1")
    rows = {row.id: row for row in funds.funds_overview(db, actor=admin)}
    rival = rows[rival_advertiser.id]
    assert (rival.deposits, rival.spend, rival.margin, rival.balance) == ("100.00", "20.00", "2.00", "78.00")
    assert rival.month_charged == "22.00" and rival.agency == "Rival Media" and rival.entries == 3
    assert rows[own.id].balance == "4999.00" and rows[own.id].margin == "0.00"
    only_rival = funds.funds_overview(db, actor=admin, agency_id=rival_agency.id)
    assert [row.id for row in only_rival] == [rival_advertiser.id]


def test_margin_is_rounded_half_up() -> None:
    assert funds.margin_micros(1_000_001, 1500) == 150_000  # 150000.15
    assert funds.margin_micros(3, 5000) == 2  # 1.5 -> 2
    assert funds.margin_micros(1_000_000, 0) == 0


def test_a_retried_batch_never_charges_twice(db: Session) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    settings = db.get(UserSettings, advertiser.id)
    assert settings is not None
    settings.margin_bps = 1500
    db.add(settings)
    db.flush()
    first = funds.charge_delivery(db, charges={advertiser.id: 10_000_000}, reference="stats-2026-11-24T10")
    again = funds.charge_delivery(db, charges={advertiser.id: 10_000_000}, reference="stats-2026-11-24T10")
    assert first == again == {advertiser.id: OPENING - 11_500_000}
    kinds = db.exec(select(LedgerEntry.kind, LedgerEntry.amount_micros, LedgerEntry.reference)
                    .where(col(LedgerEntry.reference).is_not(None))).all()
    assert sorted(kinds) == [("margin", -1_500_000, f"stats-2026-11-24T10:{advertiser.id}:margin"),
                             ("spend", -10_000_000, f"stats-2026-11-24T10:{advertiser.id}:spend")]


def test_a_bad_batch_writes_nothing(db: Session) -> None:
    advertiser, agency = user_by_email(db, ADVERTISER), user_by_email(db, AGENCY)
    for charges, reference in (({advertiser.id: -5}, "b"), ({agency.id: 5}, "b"), ({advertiser.id: 5}, "")):
        with pytest.raises(ValueError):
            funds.charge_delivery(db, charges=charges, reference=reference)
    assert balance(db, advertiser.id) == OPENING


def test_running_out_pauses_active_campaigns_once_with_one_notification(db: Session) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))  # five campaigns, one in each state
    active = db.exec(select(Campaign.id).where(Campaign.advertiser_id == advertiser.id,
                                               Campaign.status == CampaignStatus.ACTIVE)).all()
    assert active, "the demo advertiser has an active campaign"
    before = db.exec(select(func.max(Notification.id))).one() or 0
    funds.charge_delivery(db, charges={advertiser.id: 4_000_000_000}, reference="b1")
    assert db.exec(select(Campaign.status).where(col(Campaign.id).in_(active))).all() == ["active"] * len(active)
    result = funds.charge_delivery(db, charges={advertiser.id: 1_500_000_000}, reference="b2")
    assert result[advertiser.id] == -500_000_000
    assert set(db.exec(select(Campaign.status).where(col(Campaign.id).in_(active))).all()) == {"paused"}
    funds.charge_delivery(db, charges={advertiser.id: 1_000_000}, reference="b3")  # nothing left to pause
    notes = db.exec(select(Notification).where(Notification.user_id == advertiser.id, Notification.id > before)).all()
    paused_notes = [n for n in notes if "ran out" in n.title]
    assert len(paused_notes) == 1
    # Paused by the system (no acting person), recorded like any pause.
    changes = db.exec(select(AuditEntry).where(AuditEntry.entity == "campaign", AuditEntry.action == "set_status_paused",
                                               col(AuditEntry.actor_id).is_(None))).all()
    assert sorted(int(c.entity_id) for c in changes) == sorted(active)
    assert all(c.changes["status"] == ["active", "paused"] for c in changes)


def _active_campaigns(db: Session, advertiser_id: int) -> list[Campaign]:
    """The advertiser's active campaigns, loaded into the session (as a page that shows them would have)."""
    return list(db.exec(select(Campaign).where(Campaign.advertiser_id == advertiser_id,
                                               Campaign.status == CampaignStatus.ACTIVE)).all())


@pytest.mark.parametrize(("left_micros", "paused"), [
    (20_000, False), (10_000, False),  # two cents, one cent left: still money to spend
    (0, True),  # exactly $0.00: nothing left, the campaigns stop
    (-10_000, True),  # a cent below zero (a margin rounded up can overshoot)
])
def test_campaigns_pause_when_a_charge_leaves_exactly_nothing_not_while_a_cent_is_left(
        db: Session, left_micros: int, paused: bool) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))
    active = _active_campaigns(db, advertiser.id)
    assert active, "the demo advertiser has active campaigns"
    result = funds.charge_delivery(db, charges={advertiser.id: balance(db, advertiser.id) - left_micros},
                                   reference="to-the-cent")
    assert result == {advertiser.id: left_micros}
    # The rows this session already holds say so too: the page reading them next shows the pause.
    assert {c.status for c in active} == ({"paused"} if paused else {"active"})
    ran_out = db.exec(select(Notification).where(Notification.user_id == advertiser.id,
                                                 col(Notification.title).contains("ran out"))).all()
    assert len(ran_out) == (1 if paused else 0)


def test_a_batch_without_spend_for_an_advertiser_charges_and_pauses_nothing(db: Session) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))
    funds.add_funds(db, actor=actor_of(db, ADMIN), advertiser_id=advertiser.id,
                    amount=f"-{OPENING // 1_000_000 - 1}", kind="adjustment", note="Spent elsewhere")  # $1.00 left
    active = _active_campaigns(db, advertiser.id)
    assert active
    assert funds.charge_delivery(db, charges={advertiser.id: 0}, reference="quiet-hour") == {advertiser.id: 1_000_000}
    assert db.exec(select(LedgerEntry).where(col(LedgerEntry.reference).is_not(None))).all() == []
    assert {c.status for c in active} == {"active"}


def _in_debt(db: Session, advertiser_id: int, debt_micros: int) -> None:
    """The advertiser's balance taken to -debt while its campaigns stay active: the state of an account that ran
    out before every write paused (a rounded-up margin can also overshoot $0.00)."""
    funds.append_entry(db, advertiser_id=advertiser_id, amount_micros=-(balance(db, advertiser_id) + debt_micros),
                       kind="adjustment", note="Set-up: in debt", reference=None)


def _ran_out(db: Session, advertiser_id: int, active: list[Campaign]) -> None:
    """Every campaign of `active` paused by the system, recorded in the change log with its reason as the spend
    path's pause is, and one notification."""
    assert {c.status for c in active} == {"paused"}
    changes = db.exec(select(AuditEntry).where(AuditEntry.entity == "campaign", AuditEntry.action == "set_status_paused",
                                               col(AuditEntry.actor_id).is_(None))).all()
    assert sorted(int(c.entity_id) for c in changes) == sorted(c.id for c in active)
    assert all(c.changes["status"] == ["active", "paused"] and "balance ran out" in c.changes["reason"][1]
               for c in changes)
    notes = db.exec(select(Notification).where(Notification.user_id == advertiser_id,
                                               Notification.title == activation.RAN_OUT)).all()
    assert len(notes) == 1


@pytest.mark.parametrize("left_micros", [0, -10_000])
def test_an_adjustment_to_exactly_nothing_or_below_pauses_active_campaigns(db: Session, left_micros: int) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))
    active = _active_campaigns(db, advertiser.id)
    assert active
    taken = money.dollars(balance(db, advertiser.id) - left_micros)
    added = funds.add_funds(db, actor=actor_of(db, ADMIN), advertiser_id=advertiser.id, amount=f"-{taken}",
                            kind="adjustment", note="Correction")
    assert added.balance_micros == left_micros
    _ran_out(db, advertiser.id, active)


def test_an_adjustment_that_leaves_a_cent_pauses_nothing(db: Session) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))
    active = _active_campaigns(db, advertiser.id)
    funds.add_funds(db, actor=actor_of(db, ADMIN), advertiser_id=advertiser.id,
                    amount=f"-{money.dollars(balance(db, advertiser.id) - 10_000)}", kind="adjustment", note="")
    assert {c.status for c in active} == {"active"}


@pytest.mark.parametrize("kind", ["refund", "deposit"])
def test_a_credit_that_leaves_the_balance_at_or_below_nothing_pauses_active_campaigns(db: Session, kind: str) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))
    active = _active_campaigns(db, advertiser.id)
    _in_debt(db, advertiser.id, 5_000_000)
    assert funds.add_funds(db, actor=actor_of(db, ADMIN), advertiser_id=advertiser.id, amount="5.00", kind=kind,
                           note="Short of the debt").balance_micros == 0
    _ran_out(db, advertiser.id, active)


def test_a_card_payment_short_of_a_debt_pauses_active_campaigns(db: Session) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))
    active = _active_campaigns(db, advertiser.id)
    _in_debt(db, advertiser.id, 20_000_000)
    assert funds.credit_card_payment(db, advertiser_id=advertiser.id, amount_micros=10_000_000, reference="cs_short",
                                     note="Card") is not None
    assert balance(db, advertiser.id) == -10_000_000
    _ran_out(db, advertiser.id, active)


def test_a_reference_of_the_longest_allowed_length_is_accepted(db: Session) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    longest = "r" * funds.REFERENCE_MAX_LENGTH
    assert funds.charge_delivery(db, charges={advertiser.id: 1_000_000}, reference=longest) == {
        advertiser.id: OPENING - 1_000_000}
    with pytest.raises(ValueError):
        funds.charge_delivery(db, charges={advertiser.id: 1_000_000}, reference=longest + "r")


def test_a_card_payment_of_nothing_is_not_credited(db: Session) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    assert funds.credit_card_payment(db, advertiser_id=advertiser.id, amount_micros=0, reference="cs_zero",
                                     note="Card") is None
    assert db.exec(select(LedgerEntry).where(LedgerEntry.reference == "cs_zero")).all() == []


def test_the_overview_narrows_to_direct_advertisers_and_counts_the_month_from_its_first_instant(db: Session) -> None:
    from datetime import timedelta

    from app.access.roles import Role
    from app.demo.seed import DEMO_PASSWORD, create_user

    direct = create_user(db, email="direct@shop.example", role=Role.ADVERTISER, password=DEMO_PASSWORD,
                         company_name="Direct Shop")
    admin = actor_of(db, ADMIN)
    assert [row.id for row in funds.funds_overview(db, actor=admin, agency_id=0)] == [direct.id]
    funds.charge_delivery(db, charges={direct.id: 1_000_000, user_by_email(db, ADVERTISER).id: 2_000_000},
                          reference="month-edge")
    entries = db.exec(select(LedgerEntry).where(col(LedgerEntry.reference).is_not(None))).all()
    first_instant = funds.month_start()
    for entry in entries:  # one charged at the month's first instant, one the instant before
        entry.created_at = first_instant if entry.advertiser_id == direct.id else first_instant - timedelta(microseconds=1)
        db.add(entry)
    db.flush()
    rows = {row.id: row for row in funds.funds_overview(db, actor=admin)}
    assert rows[direct.id].month_charged == "1.00" and rows[user_by_email(db, ADVERTISER).id].month_charged == "0.00"
