"""Security rules that a quiet regression would open: each test here was checked against the mutation it
names (the rule removed from the code), and fails then."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.access import sessions
from app.access.models import UserStatus
from app.access.preferences import settings_of
from app.accounts import impersonation, user_config, users
from app.accounts import service as accounts
from app.demo.seed import DEMO_PASSWORD
from app.kernel.errors import NotAuthenticated, NotFound
from app.kernel.model_base import utcnow
from tests.helpers import actor_of, other_tenant, user_by_email


def test_an_agency_cannot_set_the_margin_of_another_agencys_advertiser(db):
    """Mutation: set_margin without its row-scope check."""
    _rival_agency, rival_advertiser = other_tenant(db)
    agency = actor_of(db, "agency@demo.example")
    with pytest.raises(NotFound):  # the same answer as for an id that does not exist
        user_config.set_margin(db, actor=agency, user_id=rival_advertiser.id, margin="25")
    db.flush()
    assert settings_of(db, rival_advertiser.id).margin_bps == 0
    own = user_by_email(db, "advertiser@demo.example")
    assert user_config.set_margin(db, actor=agency, user_id=own.id, margin="25").margin_bps == 2500


def _ticket(db) -> tuple[str, object]:
    result = accounts.login(db, email="advertiser@demo.example", password=DEMO_PASSWORD, kind="browser")
    db.flush()
    return result.new_session.secret, result.new_session.session


def test_a_login_ticket_expires_after_sixty_seconds(db):
    """Mutation: redeem_ticket without its expiry check."""
    ticket, row = _ticket(db)
    assert timedelta(seconds=59) <= row.ticket_expires_at - row.issued_at <= timedelta(seconds=60)
    row.ticket_expires_at = utcnow() - timedelta(seconds=1)  # the minute is over
    db.add(row)
    db.flush()
    with pytest.raises(NotAuthenticated):
        sessions.redeem_ticket(db, ticket=ticket)

    fresh, fresh_row = _ticket(db)
    fresh_row.ticket_expires_at = utcnow() + timedelta(seconds=2)  # still inside the minute
    db.add(fresh_row)
    db.flush()
    _row, cookie = sessions.redeem_ticket(db, ticket=fresh)
    assert sessions.resolve(db, token=cookie) is not None


def test_an_impersonation_ends_when_its_chain_no_longer_allows_it(db):
    """Mutation: actor_for without the re-check of each step of the impersonation chain."""
    rival_agency, _rival_advertiser = other_tenant(db)
    agency = actor_of(db, "agency@demo.example")
    advertiser = user_by_email(db, "advertiser@demo.example")
    impersonation.impersonate(db, actor=agency, target_id=advertiser.id)
    session_row = sessions.find_by_id(db, session_id=agency.session_id)
    assert sessions.actor_for(db, session_row).user.id == advertiser.id

    # The advertiser now belongs to another agency (moved by another process, say): the agency's session
    # acting as it must no longer act, whatever its stored stack says.
    advertiser.agency_id = rival_agency.id
    db.add(advertiser)
    db.flush()
    assert sessions.actor_for(db, session_row) is None


def test_an_impersonation_ends_when_anyone_in_its_chain_is_disabled(db):
    """Mutation: actor_for checking the status of the acting user only, not of the users under it."""
    admin = actor_of(db, "admin@demo.example")
    agency = user_by_email(db, "agency@demo.example")
    advertiser = user_by_email(db, "advertiser@demo.example")
    impersonation.impersonate(db, actor=admin, target_id=agency.id)
    as_agency = sessions.actor_for(db, sessions.find_by_id(db, session_id=admin.session_id))
    impersonation.impersonate(db, actor=as_agency, target_id=advertiser.id)
    db.flush()
    session_row = sessions.find_by_id(db, session_id=admin.session_id)
    assert sessions.actor_for(db, session_row).user.id == advertiser.id

    # The co-admin disables the agency in the middle of the chain: disabling ends the agency's own sessions,
    # and the admin's session acting through it must stop too (the acting advertiser is still active).
    users.set_status(db, actor=actor_of(db, "coadmin@demo.example"), user_id=agency.id, status="disabled")
    db.flush()
    assert sessions.actor_for(db, session_row) is None
    users.set_status(db, actor=actor_of(db, "coadmin@demo.example"), user_id=agency.id, status="active")
    db.flush()
    assert sessions.actor_for(db, session_row).user.id == advertiser.id

    # The real user at the bottom of the chain is disabled: nothing above it acts any more.
    admin_user = user_by_email(db, "admin@demo.example")
    admin_user.status = UserStatus.DISABLED
    db.add(admin_user)
    db.flush()
    assert sessions.actor_for(db, session_row) is None
