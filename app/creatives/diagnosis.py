"""The delivery check's creatives (app/campaigns/diagnosis): a campaign shows only its active creatives, so one
without any attached, or with only paused or archived ones, buys nothing. Creatives have no approval step in
this console: active is what makes one deliverable. Registered when the creatives package loads."""

from __future__ import annotations

from sqlmodel import col, select

from app.campaigns.diagnosis.checks import CHECKS, Subject, reason
from app.campaigns.diagnosis.schemas import Reason
from app.creatives.models import CampaignCreative, Creative, CreativeStatus
from app.kernel.i18n.catalog import Message

NONE_ATTACHED = "No creative is attached: there is no ad to show."
NONE_ACTIVE = "None of the {count} attached creatives is active ({creatives})."
ATTACH = "Attach an active creative"


def creatives(subject: Subject) -> list[Reason]:
    attached = subject.db.exec(select(Creative.name, Creative.status)
                               .join(CampaignCreative, col(CampaignCreative.creative_id) == Creative.id)
                               .where(CampaignCreative.campaign_id == subject.campaign_id)).all()
    if any(status == CreativeStatus.ACTIVE for _, status in attached):
        return []
    fix = subject.fix(Message(ATTACH), "campaign.creatives", "campaign.view")
    if not attached:
        return [reason("no_active_creative", "blocking", Message(NONE_ATTACHED), fix, attached=0)]
    shown = sorted(f"{name} ({status})" for name, status in attached)
    return [reason("no_active_creative", "blocking", Message(NONE_ACTIVE, count=len(attached), creatives=", ".join(shown)),
                   fix, attached=len(attached), creatives=shown)]


CHECKS.register("creatives", creatives)
