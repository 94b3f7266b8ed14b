"""The checks a campaign answers from its own record: its status, its flight, its budgets against what it has
spent, its exchange approvals, its frequency cap."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select

from app.access.roles import STAFF_ROLES
from app.campaigns import flight as flights
from app.campaigns.diagnosis.checks import CHECKS, Subject, reason
from app.campaigns.diagnosis.schemas import Reason
from app.campaigns.exchange_approvals import requested_exchanges
from app.campaigns.models import ApprovalStatus, CampaignStatus, ExchangeApproval, as_utc, flight_ended
from app.kernel.i18n.catalog import Message
from app.kernel.money import dollars
from app.reference.models import ReferenceValue

# One sentence per status and per cap period (not a word put into one), so each language says it whole.
NOT_ACTIVE = {CampaignStatus.DRAFT: "The campaign is a draft: only an active campaign delivers.",
              CampaignStatus.PAUSED: "The campaign is paused: only an active campaign delivers.",
              CampaignStatus.COMPLETED: "The campaign is completed: only an active campaign delivers.",
              CampaignStatus.ARCHIVED: "The campaign is archived: only an active campaign delivers."}
ACTIVATE = "Activate it"
CLONE = "Clone it for a new flight"
NOT_STARTED = "The flight starts on {starts}: nothing is bought before then."
ENDED = "The flight ended on {ends}."
EDIT_DATES = "Change the dates"
TOTAL_REACHED = "The total budget of ${budget} is spent (${spent} so far)."
DAILY_REACHED = "Today's budget of ${budget} is spent (${spent} today): delivery resumes tomorrow ({zone})."
RAISE_BUDGET = "Raise the budget"
NO_EXCHANGES = "There is no exchange this campaign may run on."
REJECTED = "Refused on {exchanges}."
PENDING = "Waiting for approval on {exchanges}."
REVIEW_APPROVALS = "Review the exchange approvals"
CHOOSE_EXCHANGES = "Choose other exchanges"
CAPPED = {"hour": "Each user sees the ads at most {count} times an hour: this caps how much can be bought per user.",
          "day": "Each user sees the ads at most {count} times a day: this caps how much can be bought per user.",
          "week": "Each user sees the ads at most {count} times a week: this caps how much can be bought per user."}
EDIT_CAP = "Change the frequency cap"


def _shown(moment: datetime, zone: str, *, end: bool) -> str:
    """A start or end as the buyer gave it, in the campaign's zone: an end date is its last day (flight.py)."""
    return flights.day_text(moment, flights.zone(zone), end=end) or ""


def status(subject: Subject) -> list[Reason]:
    campaign = subject.campaign
    if campaign.status == CampaignStatus.ACTIVE:
        return []
    over = campaign.status in (CampaignStatus.COMPLETED, CampaignStatus.ARCHIVED)
    fix = subject.fix(Message(CLONE), "campaign.clone", "campaign.create") if over \
        else subject.fix(Message(ACTIVATE), "campaign.view")
    return [reason("status_not_active", "blocking", Message(NOT_ACTIVE[CampaignStatus(campaign.status)]), fix,
                   status=str(campaign.status))]


def flight(subject: Subject) -> list[Reason]:
    campaign, zone = subject.campaign, subject.campaign.time_zone
    dates = subject.fix(Message(EDIT_DATES), "campaign.edit")
    if as_utc(campaign.starts_at) > subject.now:
        starts = _shown(campaign.starts_at, zone, end=False)
        return [reason("flight_not_started", "blocking", Message(NOT_STARTED, starts=starts), dates,
                       starts_at=flights.local(campaign.starts_at, flights.zone(zone)).isoformat())]
    if campaign.ends_at is not None and flight_ended(campaign.ends_at, subject.now):
        ends = _shown(campaign.ends_at, zone, end=True)
        return [reason("flight_ended", "blocking", Message(ENDED, ends=ends), dates,
                       ends_at=flights.local(campaign.ends_at, flights.zone(zone)).isoformat())]
    return []


def budgets(subject: Subject) -> list[Reason]:
    campaign, raise_it = subject.campaign, subject.fix(Message(RAISE_BUDGET), "campaign.edit")
    spent = subject.spent
    if spent >= campaign.total_budget_micros:
        return [reason("total_budget_reached", "blocking",
                       Message(TOTAL_REACHED, budget=dollars(campaign.total_budget_micros), spent=dollars(spent)),
                       raise_it, total_budget=dollars(campaign.total_budget_micros), spent=dollars(spent))]
    daily, today = campaign.daily_budget_micros, subject.spent_today
    if daily and today >= daily:
        return [reason("daily_budget_reached", "blocking",
                       Message(DAILY_REACHED, budget=dollars(daily), spent=dollars(today), zone=campaign.time_zone),
                       raise_it, daily_budget=dollars(daily), spent_today=dollars(today), day=subject.today.isoformat())]
    return []


def exchanges(subject: Subject) -> list[Reason]:
    """Pending and refused exchanges, named. They block while no exchange is approved; beside an approved one
    they only narrow where the campaign runs."""
    rows = subject.db.exec(select(ExchangeApproval.status, ReferenceValue.name)
                           .join(ReferenceValue, col(ReferenceValue.id) == ExchangeApproval.exchange_id)
                           .where(ExchangeApproval.campaign_id == subject.campaign_id)).all()
    by_status: dict[str, list[str]] = {}
    for state, name in rows:
        by_status.setdefault(state, []).append(name)
    staff = subject.actor.role in STAFF_ROLES
    fix = subject.fix(Message(REVIEW_APPROVALS), "exchange.approvals") if staff \
        else subject.fix(Message(CHOOSE_EXCHANGES), "campaign.edit")
    if not rows and not requested_exchanges(subject.db, subject.campaign):
        return [reason("no_exchanges", "blocking", Message(NO_EXCHANGES),
                       subject.fix(Message(CHOOSE_EXCHANGES), "campaign.edit"))]
    severity = "limiting" if by_status.get(ApprovalStatus.APPROVED) else "blocking"
    found = []
    for code, state, template in (("exchanges_rejected", ApprovalStatus.REJECTED, REJECTED),
                                  ("exchanges_pending", ApprovalStatus.PENDING, PENDING)):
        if named := sorted(by_status.get(state, []), key=str.casefold):
            found.append(reason(code, severity, Message(template, exchanges=", ".join(named)), fix,  # type: ignore[arg-type]  # the two codes above
                                exchanges=named, approved=sorted(by_status.get(ApprovalStatus.APPROVED, []))))
    return found


def frequency_cap(subject: Subject) -> list[Reason]:
    """A cap is a choice, not a fault: said as information, since per-user counts are not in the statistics."""
    campaign = subject.campaign
    if not campaign.frequency_cap or not campaign.frequency_period:
        return []
    return [reason("frequency_cap", "info", Message(CAPPED[campaign.frequency_period],
                                                    count=campaign.frequency_cap),
                   subject.fix(Message(EDIT_CAP), "campaign.edit"), cap=campaign.frequency_cap,
                   period=campaign.frequency_period)]


for _name, _check in (("status", status), ("flight", flight), ("budgets", budgets), ("exchanges", exchanges),
                      ("frequency_cap", frequency_cap)):
    CHECKS.register(_name, _check)
