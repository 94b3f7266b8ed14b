"""Status changes across the entities that have one: each moves only as declared, an unknown status is refused
on the status field (never a crash), and asking for the status a row already has changes nothing and adds
nothing to its change log. Campaign and creative moves are declared once (app/models: STATUS_TRANSITIONS)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import Session, col, func, select

from app.access.models import User, UserStatus
from app.accounts import users
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.dsps import service as dsps
from app.dsps.schemas import DspCreate
from app.history.models import AuditEntry
from app.kernel.errors import Forbidden, Invalid
from app.supply import app_lists, audiences
from tests.helpers import actor_of, user_by_email
from tests.test_campaigns import VALID
from tests.test_creatives import _image_creative

ADMIN, ADVERTISER = "admin@demo.example", "advertiser@demo.example"


def _changes(db: Session, entity: str, entity_id: int) -> int:
    """How many entries the row's change log holds."""
    db.flush()
    return db.exec(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.entity == entity, AuditEntry.entity_id == str(entity_id))).one()


def _campaign(db: Session, actor: Any, *moves: str) -> int:
    campaign_id = campaigns.create_campaign(db, actor=actor, data=CampaignUpdate.model_validate(VALID)).id
    for status in moves:
        campaigns.set_status(db, actor=actor, campaign_id=campaign_id, status=status)
    return campaign_id


@pytest.mark.parametrize(("moves", "wanted"), [
    ((), "archived"), (("active",), "completed"), (("active", "paused"), "completed"),
    (("active", "paused"), "active"),
])
def test_a_campaign_makes_each_declared_move(db: Session, moves: tuple[str, ...], wanted: str) -> None:
    me = actor_of(db, ADVERTISER)
    campaign_id = _campaign(db, me, *moves)
    assert campaigns.set_status(db, actor=me, campaign_id=campaign_id, status=wanted).status == wanted


def test_a_completed_campaign_can_only_be_archived(db: Session) -> None:
    me = actor_of(db, ADVERTISER)
    campaign_id = _campaign(db, me, "active", "completed")
    assert campaigns.get_campaign(db, actor=me, campaign_id=campaign_id).next_statuses == ["archived"]
    for wanted in ("active", "paused", "draft"):
        with pytest.raises(Invalid) as refused:
            campaigns.set_status(db, actor=me, campaign_id=campaign_id, status=wanted)
        assert refused.value.fields == {"status": f"A completed campaign cannot become {wanted}."}
    assert campaigns.get_campaign(db, actor=me, campaign_id=campaign_id).status == "completed"


def test_the_same_campaign_status_again_changes_nothing_and_an_unknown_one_is_refused(db: Session) -> None:
    me = actor_of(db, ADVERTISER)
    campaign_id = _campaign(db, me, "active")
    logged = _changes(db, "campaign", campaign_id)
    assert campaigns.set_status(db, actor=me, campaign_id=campaign_id, status="active").status == "active"
    assert _changes(db, "campaign", campaign_id) == logged
    with pytest.raises(Invalid) as refused:
        campaigns.set_status(db, actor=me, campaign_id=campaign_id, status="deleted")
    assert refused.value.fields == {"status": "Not an allowed value."}


def test_the_same_creative_status_again_changes_nothing(db: Session) -> None:
    me = actor_of(db, ADVERTISER)
    creative_id = _image_creative(db, me).id
    creatives.set_status(db, actor=me, creative_id=creative_id, status="paused")
    logged = _changes(db, "creative", creative_id)
    assert creatives.set_status(db, actor=me, creative_id=creative_id, status="paused").status == "paused"
    assert _changes(db, "creative", creative_id) == logged
    # A paused creative may be archived straight away.
    assert creatives.set_status(db, actor=me, creative_id=creative_id, status="archived").status == "archived"


def test_an_audience_is_active_or_inactive_and_repeating_changes_nothing(db: Session) -> None:
    me = actor_of(db, ADVERTISER)
    audience_id = audiences.create_audience(db, actor=me, name="Buyers", kind="device_ids").id
    with pytest.raises(Invalid) as refused:
        audiences.set_status(db, actor=me, audience_id=audience_id, status="archived")
    assert refused.value.fields == {"status": "Not an allowed value."}
    assert audiences.get_audience(db, actor=me, audience_id=audience_id).status == "active"
    audiences.set_status(db, actor=me, audience_id=audience_id, status="inactive")
    logged = _changes(db, "audience", audience_id)
    audiences.set_status(db, actor=me, audience_id=audience_id, status="inactive")
    assert _changes(db, "audience", audience_id) == logged


def test_archiving_an_app_list_twice_logs_it_once(db: Session) -> None:
    me = actor_of(db, ADVERTISER)
    list_id = app_lists.create_list(db, actor=me, name="Top apps", kind="allow", entries="com.example.game").list.id
    app_lists.set_status(db, actor=me, applist_id=list_id, status="archived")
    logged = _changes(db, "app_list", list_id)
    assert app_lists.set_status(db, actor=me, applist_id=list_id, status="archived").status == "archived"
    assert _changes(db, "app_list", list_id) == logged


def test_a_dsp_is_active_or_inactive_and_repeating_changes_nothing(db: Session) -> None:
    admin = actor_of(db, ADMIN)
    dsp_id = dsps.create_dsp(db, actor=admin, data=DspCreate(name="Acme Bidder", connector="http_json",
                                                             endpoint_url="https://bidder.example/", api_key="k")).id
    with pytest.raises(Invalid) as refused:
        dsps.set_status(db, actor=admin, dsp_id=dsp_id, status="paused")
    assert refused.value.fields == {"status": "Not an allowed value."}
    dsps.set_status(db, actor=admin, dsp_id=dsp_id, status="inactive")
    logged = _changes(db, "dsp", dsp_id)
    assert dsps.set_status(db, actor=admin, dsp_id=dsp_id, status="inactive").status == "inactive"
    assert _changes(db, "dsp", dsp_id) == logged


def test_an_account_that_has_not_confirmed_its_e_mail_cannot_be_switched_on_or_off(db: Session) -> None:
    admin = actor_of(db, ADMIN)
    pending = user_by_email(db, ADVERTISER)
    pending.status = UserStatus.PENDING  # registered, e-mail not verified yet
    db.add(pending)
    db.flush()
    for status in (UserStatus.ACTIVE, UserStatus.DISABLED):
        with pytest.raises(Forbidden):
            users.set_status(db, actor=admin, user_id=pending.id, status=status)
    assert db.exec(select(User.status).where(col(User.id) == pending.id)).one() == UserStatus.PENDING
    with pytest.raises(Invalid) as refused:
        users.set_status(db, actor=admin, user_id=user_by_email(db, "agency@demo.example").id, status="pending")
    assert refused.value.fields == {"status": "Not an allowed value."}
