"""Activation needs money to spend: a campaign becomes active only while its advertiser's balance is above $0.00,
just as campaigns pause when the balance reaches it (service.charge_delivery). Registered with the campaigns'
activation guards when the funds package loads; the refusal names the balance, which pages link to Add Funds."""

from __future__ import annotations

from sqlmodel import Session

from app.campaigns.models import Campaign
from app.campaigns.service import ACTIVATION_GUARDS
from app.funds.service import balances_micros
from app.kernel.i18n.catalog import Message
from app.kernel.money import dollars

FUND_TO_ACTIVATE = "Add funds before activating this campaign: the advertiser's balance is ${balance}."


def positive_balance(db: Session, campaign: Campaign) -> dict[str, Message] | None:
    balance = balances_micros(db, [campaign.advertiser_id])[campaign.advertiser_id]
    return {"balance": Message(FUND_TO_ACTIVATE, balance=dollars(balance))} if balance <= 0 else None


ACTIVATION_GUARDS.register("balance", positive_balance)
