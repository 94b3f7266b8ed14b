"""No balance, no delivery: the one rule, both ways. A campaign becomes active only while its advertiser's balance
is above $0.00 (a guard registered with the campaigns' activation guards when the funds package loads; the refusal
names the balance, which pages link to Add Funds), and every write that leaves a balance at or below $0.00 pauses
its active campaigns (pause_when_empty: charges, staff deposits, refunds and adjustments, card payments all call
it after their entries, so no path to $0.00 leaves a campaign buying)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import Session, col, select

from app.campaigns.models import Campaign, CampaignStatus
from app.campaigns.service import ACTIVATION_GUARDS, CAMPAIGN_STATUS
from app.funds.ledger import balances_micros
from app.kernel.i18n.catalog import Message
from app.kernel.money import dollars
from app.messaging import notifications

FUND_TO_ACTIVATE = "Add funds before activating this campaign: the advertiser's balance is ${balance}."
RAN_OUT = "Your balance ran out: campaigns paused"


def positive_balance(db: Session, campaign: Campaign) -> dict[str, Message] | None:
    balance = balances_micros(db, [campaign.advertiser_id])[campaign.advertiser_id]
    return {"balance": Message(FUND_TO_ACTIVATE, balance=dollars(balance))} if balance <= 0 else None


ACTIVATION_GUARDS.register("balance", positive_balance)


def pause_when_empty(db: Session, advertiser_ids: Iterable[int]) -> dict[int, int]:
    """After a write to these advertisers' ledgers, in its transaction: each one left at or below $0.00 has its
    active campaigns paused (pause_for_empty_balance). Answers {advertiser id: balance, micro-dollars}."""
    balances = balances_micros(db, advertiser_ids)
    for advertiser_id, balance in balances.items():
        if balance <= 0:
            pause_for_empty_balance(db, advertiser_id=advertiser_id, balance_micros=balance)
    return balances


def pause_for_empty_balance(db: Session, *, advertiser_id: int, balance_micros: int) -> list[int]:
    """Pause an advertiser's active campaigns because its balance ran out; the ids paused. Each pause is the
    campaign status machine's move (a conditional UPDATE: still active?), recorded in the change log with the
    reason, so two writes finishing together pause, audit and notify once."""
    candidates = db.exec(select(col(Campaign.id)).where(Campaign.advertiser_id == advertiser_id,
                                                       Campaign.status == CampaignStatus.ACTIVE)).all()
    reason = {"reason": f"balance ran out (${dollars(balance_micros)})"}
    paused = [campaign_id for campaign_id in candidates if campaign_id is not None and CAMPAIGN_STATUS.apply(
        db, actor=None, record_id=campaign_id, current=CampaignStatus.ACTIVE, wanted=CampaignStatus.PAUSED,
        note=reason)]
    if paused:
        count = f"{len(paused)} active campaign" + ("s were" if len(paused) > 1 else " was")
        notifications.notify(db, user_id=advertiser_id, title=RAN_OUT,
                             body=f"Your balance is ${dollars(balance_micros)}; {count} paused. "
                                  "Add funds, then resume them.", link="/funds")
    return paused
