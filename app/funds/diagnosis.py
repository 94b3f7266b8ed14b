"""The delivery check's balance (app/campaigns/diagnosis): nothing is bought at $0.00 (campaigns pause there, see
service.charge_delivery), and a balance below one day's budget stops delivery within the day. Registered with
the campaigns' delivery checks when the funds package loads."""

from __future__ import annotations

from app.campaigns import flight
from app.campaigns.diagnosis.checks import CHECKS, Subject, reason
from app.campaigns.diagnosis.schemas import Reason
from app.funds.ledger import balances_micros
from app.kernel.i18n.catalog import Message
from app.kernel.money import dollars

EMPTY = "The advertiser's balance is ${balance}: nothing can be bought until funds are added."
LOW = "The advertiser's balance of ${balance} is less than one day's budget (${day}): delivery will stop today."
ADD_FUNDS = "Add funds"


def one_day_budget(subject: Subject) -> int | None:
    """What the campaign may spend in a day: its daily budget, else the budget left spread over the flight's days
    left; None for an open-ended flight without a daily budget (no day's figure to compare with)."""
    campaign = subject.campaign
    if campaign.daily_budget_micros:
        return campaign.daily_budget_micros
    if campaign.ends_at is None:
        return None
    last = flight.last_day(campaign.ends_at, flight.zone(campaign.time_zone))
    assert last is not None
    days_left = (last - subject.today).days + 1  # the flight's days left in its zone, today included
    left = campaign.total_budget_micros - subject.spent
    return left // max(days_left, 1) if left > 0 and days_left > 0 else None


def balance(subject: Subject) -> list[Reason]:
    held = balances_micros(subject.db, [subject.campaign.advertiser_id])[subject.campaign.advertiser_id]
    fix = subject.fix(Message(ADD_FUNDS), "funds.add", "funds")
    if held <= 0:
        return [reason("balance_empty", "blocking", Message(EMPTY, balance=dollars(held)), fix, balance=dollars(held))]
    day = one_day_budget(subject)
    if day is not None and held < day:
        return [reason("balance_low", "limiting", Message(LOW, balance=dollars(held), day=dollars(day)), fix,
                       balance=dollars(held), one_day=dollars(day))]
    return []


CHECKS.register("balance", balance)
