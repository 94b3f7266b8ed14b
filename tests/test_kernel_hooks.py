"""Extension points fail closed (app/kernel/hooks.py): when a domain's registration is missing, the check it
stands for raises instead of passing as "nothing to check" — a reference value in use is not deleted, a campaign
is not activated without its balance check."""

from __future__ import annotations

import pytest

from app.campaigns import service as campaigns
from app.campaigns.models import CampaignStatus
from app.campaigns.schemas import CampaignUpdate
from app.kernel.errors import Conflict
from app.kernel.hooks import Hook
from app.reference import metadata
from app.reference.models import ReferenceValue
from tests.helpers import actor_of

BASE = {"objective": "traffic", "starts_at": "2030-01-01", "time_zone": "UTC", "total_budget": "1000",
        "daily_budget": "50", "bid_strategy": "cpm", "bid": "2"}


def test_a_hook_answers_its_handlers_in_order_and_refuses_while_a_needed_one_is_missing():
    hook: Hook[str] = Hook("greetings", needed=("english",))
    hook.register("spanish", "hola")
    with pytest.raises(RuntimeError, match="greetings: no handler registered for \\['english'\\]"):
        hook.handlers()
    hook.register("english", "hello")
    hook.register("spanish", "buenas")  # a name registered again replaces its handler
    assert hook.handlers() == ["buenas", "hello"]


def test_without_the_campaigns_counter_a_used_value_is_never_deleted(db, monkeypatch):
    admin = actor_of(db, "admin@demo.example")
    value = metadata.add_value(db, actor=admin, kind="browser", name="Lynx")
    campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                              data=CampaignUpdate.model_validate({**BASE, "name": "Text Mode", "targeting": {"browsers": [value.id]}}))
    db.commit()
    with pytest.raises(Conflict):
        metadata.delete_value(db, actor=admin, value_id=value.id)  # the campaign uses it
    monkeypatch.setitem(metadata.USAGE_COUNTERS, "browser", Hook("uses of browser values", needed=("campaigns",)))
    with pytest.raises(RuntimeError, match="no handler registered for \\['campaigns'\\]"):
        metadata.delete_value(db, actor=admin, value_id=value.id)
    assert db.get(ReferenceValue, value.id) is not None


def test_without_the_balance_guard_no_campaign_is_activated(db, monkeypatch):
    advertiser = actor_of(db, "advertiser@demo.example")
    campaign = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**BASE, "name": "Guarded"}))
    db.commit()
    monkeypatch.setattr(campaigns, "ACTIVATION_GUARDS", Hook("campaign activation guards", needed=("balance",)))
    with pytest.raises(RuntimeError, match="no handler registered for \\['balance'\\]"):
        campaigns.set_status(db, actor=advertiser, campaign_id=campaign.id, status=CampaignStatus.ACTIVE)
    db.rollback()
    assert campaigns.get_campaign(db, actor=advertiser, campaign_id=campaign.id).status != "active"
