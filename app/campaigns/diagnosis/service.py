"""diagnose(): why a campaign is not spending. Every registered check (checks.CHECKS) looks at the campaign; the
reasons are listed most blocking first (schemas.SEVERITIES, then schemas.CODES). Permission and row scope are
reading the campaign's: another tenant's campaign is "not found"."""

from __future__ import annotations

from sqlmodel import Session

from app.access.policy import Actor, require
from app.campaigns.diagnosis.checks import CHECKS, Subject
from app.campaigns.diagnosis.schemas import CODES, SEVERITIES, Diagnosis, Reason
from app.campaigns.models import shown_status
from app.campaigns.scope import campaign_in_scope
from app.kernel.money import dollars


def _order(found: Reason) -> tuple[int, int]:
    return SEVERITIES.index(found.severity), CODES.index(found.code)


def diagnose(db: Session, *, actor: Actor, campaign_id: int) -> Diagnosis:
    require(actor, "campaign", "view")
    campaign, advertiser = campaign_in_scope(db, actor, campaign_id)
    subject = Subject(db=db, actor=actor, campaign=campaign, advertiser=advertiser)
    reasons = sorted((found for check in CHECKS.handlers() for found in check(subject)), key=_order)
    return Diagnosis(campaign_id=campaign_id, campaign_name=campaign.name,
                     status=shown_status(campaign.status, campaign.ends_at, subject.now),
                     eligible=not any(r.severity == "blocking" for r in reasons), spent=dollars(subject.spent),
                     spent_today=dollars(subject.spent_today), checked_at=subject.now.isoformat(), reasons=reasons)
