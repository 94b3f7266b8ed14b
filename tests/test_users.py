import pytest
from sqlmodel import select

from app.access import sessions
from app.access.models import UserStatus
from app.accounts import directory, users
from app.accounts import service as accounts
from app.demo.seed import DEMO_PASSWORD
from app.history.models import AuditEntry
from app.kernel.errors import Forbidden, NotFound
from tests.helpers import actor_of, other_tenant, user_by_email


def test_disabling_ends_sessions_blocks_login_and_is_audited(db):
    admin = actor_of(db, "admin@demo.example")
    advertiser_session = actor_of(db, "advertiser@demo.example")
    target = user_by_email(db, "advertiser@demo.example")
    users.set_status(db, actor=admin, user_id=target.id, status=UserStatus.DISABLED)
    db.flush()
    assert sessions.find_by_id(db, session_id=advertiser_session.session_id) is None
    with pytest.raises(Exception, match="disabled"):
        accounts.login(db, email=target.email, password=DEMO_PASSWORD, kind="browser")
    users.set_status(db, actor=admin, user_id=target.id, status=UserStatus.DISABLED)  # repeat: no change
    entries = db.exec(select(AuditEntry).where(AuditEntry.action == "set_status_disabled")).all()
    assert len(entries) == 1 and entries[0].changes == {"status": ["active", "disabled"]}
    users.set_status(db, actor=admin, user_id=target.id, status=UserStatus.ACTIVE)
    db.flush()
    accounts.login(db, email=target.email, password=DEMO_PASSWORD, kind="browser")


def test_status_changes_respect_scope(db):
    rival_agency, rival_advertiser = other_tenant(db)
    agency = actor_of(db, "agency@demo.example")
    with pytest.raises(NotFound):
        users.set_status(db, actor=agency, user_id=rival_advertiser.id, status=UserStatus.DISABLED)
    with pytest.raises(NotFound):
        users.set_status(db, actor=actor_of(db, "coadmin@demo.example"),
                         user_id=user_by_email(db, "admin@demo.example").id, status=UserStatus.DISABLED)
    with pytest.raises(Forbidden):  # advertisers manage no accounts
        users.set_status(db, actor=actor_of(db, "advertiser@demo.example"),
                         user_id=user_by_email(db, "advertiser@demo.example").id, status=UserStatus.DISABLED)
    admin = actor_of(db, "admin@demo.example")
    with pytest.raises(Forbidden):  # not yourself
        users.set_status(db, actor=admin, user_id=admin.id, status=UserStatus.DISABLED)
    own = user_by_email(db, "advertiser@demo.example")
    users.set_status(db, actor=agency, user_id=own.id, status=UserStatus.DISABLED)
    rows = {r.email: r for r in directory.accounts_overview(db, actor=agency)}
    assert set(rows) == {"advertiser@demo.example"}
    assert rows["advertiser@demo.example"].can_enable and not rows["advertiser@demo.example"].can_enter
