"""What the alert services answer and take, and so what GET /api/alerts and the subscription calls send and
receive. Times are ISO-8601 UTC."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from app.access.roles import Role
from app.alerts.kinds import (
    DEFAULT_LOW_BALANCE_DAYS,
    KINDS,
    MAX_LOW_BALANCE_DAYS,
    fix_link,
    has_balance,
    subscribable,
)
from app.kernel.schema_examples import example

if TYPE_CHECKING:
    from app.access.policy import Actor
    from app.alerts.models import Alert, AlertSubscription

KIND_HELP = "; ".join(f"`{kind}`: {info.label}" + (" (admins)" if info.staff_only else "") for kind, info in KINDS.items())


class AlertFix(BaseModel):
    label: str = Field(description="What to do, as its link says it")
    page: str = Field(description="The console page that fixes it, by name (funds.add, campaign.view, report.view, "
                                  "dsp.view)")
    link: str | None = Field(description="That page's path for you; null when your role has no such page (ask "
                                         "whoever manages your account)")


class AlertRead(BaseModel):
    model_config = example({
        "id": 41, "kind": "low_balance", "subject": "advertiser:12", "owner_id": 12, "open": True,
        "title": "Low balance: about 1.6 days of spend left",
        "detail": "Balance $480.00, spending $300.00 a day over the last 7 days; your alert is set at 3 days. "
                  "Add funds to keep campaigns delivering.",
        "raised_at": "2026-11-26T06:05:00+00:00", "cleared_at": None,
        "fix": {"label": "Add funds", "page": "funds", "link": "/funds"}})

    id: int
    kind: str = Field(description=KIND_HELP)
    subject: str = Field(description='What it is about, unique within its kind while open: "advertiser:12", '
                                     '"campaign:7", "report:3", "push:<dsp id>:<campaign|creative>:<id>"')
    owner_id: int | None = Field(description="The user it belongs to (the advertiser, the report's owner); null: "
                                              "admins' (a failed DSP push)")
    open: bool = Field(description="Whether its cause is still there; false once cleared")
    title: str
    detail: str
    raised_at: str
    cleared_at: str | None = Field(description="When a check found its cause gone; null while open")
    fix: AlertFix = Field(description="Where to fix it, for your role: low balance, the funds; no spend and "
                                      "under-delivery, the campaign's delivery check; a failed report run, the report; "
                                      "a failed DSP push, the DSP connection")

    @classmethod
    def of(cls, row: Alert, role: Role) -> AlertRead:
        """The alert as a reader of `role` gets it (the fix's link is that role's page)."""
        assert row.id is not None
        found = fix_link(row.kind, row.subject, role)
        return cls(id=row.id, kind=row.kind, subject=row.subject, owner_id=row.owner_id, open=row.open_key is not None,
                   title=row.title, detail=row.detail, raised_at=row.raised_at.isoformat(),
                   cleared_at=row.cleared_at.isoformat() if row.cleared_at else None,
                   fix=AlertFix(label=found.label, page=found.page, link=found.link))


class SubscriptionRead(BaseModel):
    model_config = example({"email_kinds": ["low_balance", "report_failed"], "low_balance_days": 3,
                            "kinds": ["low_balance", "no_spend", "under_delivery", "report_failed"],
                            "has_balance": True})

    email_kinds: list[str] = Field(description="The alert kinds also sent to you by e-mail (every alert is in the "
                                               "notifications and in GET /api/alerts)")
    low_balance_days: int = Field(description="Low balance: alert when fewer days of spend than this are left in "
                                              "your balance (an advertiser's own threshold decides its alert)")
    kinds: list[str] = Field(description="The kinds you can choose from: " + KIND_HELP)
    has_balance: bool = Field(description="Whether you have a balance of your own (an advertiser), so whether "
                                          "`low_balance_days` applies to you")

    @classmethod
    def of(cls, row: AlertSubscription | None, actor: Actor) -> SubscriptionRead:
        return cls(email_kinds=list(row.email_kinds) if row else [],
                   low_balance_days=row.low_balance_days if row else DEFAULT_LOW_BALANCE_DAYS,
                   kinds=subscribable(actor), has_balance=has_balance(actor))


class SubscriptionUpdate(BaseModel):
    model_config = example({"email_kinds": ["low_balance", "no_spend"], "low_balance_days": 5}, extra="forbid")

    email_kinds: list[str] | None = Field(None, description="The kinds to receive by e-mail (all of them: the list "
                                                            "replaces the old one); left out: unchanged")
    low_balance_days: int | None = Field(None, description=f"1 to {MAX_LOW_BALANCE_DAYS}; left out: unchanged")
