from datetime import timedelta

import pytest
from sqlmodel import select

from app.access import sessions
from app.access.models import AuthSession, UserStatus
from app.access.roles import Role
from app.accounts import impersonation
from app.accounts import service as accounts
from app.demo.seed import DEMO_PASSWORD
from app.history.models import AuditEntry
from app.kernel.errors import Forbidden, Invalid, NotAuthenticated, NotFound, TooManyAttempts
from app.kernel.model_base import utcnow
from app.messaging.models import EmailOutbox
from tests.helpers import actor_of, other_tenant, user_by_email


def _browser_cookie(db, email="advertiser@demo.example"):
    result = accounts.login(db, email=email, password=DEMO_PASSWORD, kind="browser")
    db.flush()
    row, token = sessions.redeem_ticket(db, ticket=result.new_session.secret)
    db.flush()
    return row, token


def test_wrong_password_and_unknown_email_read_the_same(db):
    with pytest.raises(NotAuthenticated) as wrong:
        accounts.login(db, email="advertiser@demo.example", password="nope-1234", kind="browser")
    with pytest.raises(NotAuthenticated) as unknown:
        accounts.login(db, email="nobody@demo.example", password="nope-1234", kind="browser")
    assert wrong.value.message == unknown.value.message == accounts.BAD_CREDENTIALS


def test_login_is_throttled_per_account_and_address_never_for_everyone(db, settings, demo_ids):
    from sqlmodel import select

    from app.messaging.models import EmailOutbox, Notification

    for _ in range(settings.login_max_failures_per_account):
        with pytest.raises(NotAuthenticated):
            accounts.login(db, email="agency@demo.example", password="wrong-pass-1", kind="browser", address="10.0.0.1")
    with pytest.raises(TooManyAttempts):  # from the guessing address, even the right password waits now
        accounts.login(db, email="agency@demo.example", password=DEMO_PASSWORD, kind="browser", address="10.0.0.1")
    # The owner, from an address with no failures, still signs in: a stranger cannot lock them out.
    accounts.login(db, email="agency@demo.example", password=DEMO_PASSWORD, kind="browser", address="10.0.0.2")
    # Another account from the guessing address still works.
    accounts.login(db, email="advertiser@demo.example", password=DEMO_PASSWORD, kind="browser", address="10.0.0.1")
    # The owner was told, once, by notification and e-mail.
    told = db.exec(select(Notification).where(Notification.user_id == demo_ids["agency@demo.example"],
                                              Notification.title == accounts.REFUSED_TITLE)).all()
    assert len(told) == 1 and "10.0.0.1" in told[0].body
    mails = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == "agency@demo.example",
                                              EmailOutbox.subject == accounts.REFUSED_TITLE)).all()
    assert len(mails) == 1


def test_login_is_throttled_per_address(db, settings):
    for n in range(settings.login_max_failures_per_address):
        with pytest.raises(NotAuthenticated):
            accounts.login(db, email=f"guess{n}@demo.example", password="wrong-pass-1", kind="browser", address="10.9.9.9")
    with pytest.raises(TooManyAttempts):
        accounts.login(db, email="advertiser@demo.example", password=DEMO_PASSWORD, kind="browser", address="10.9.9.9")


def test_ticket_works_once_and_the_cookie_resolves(db):
    result = accounts.login(db, email="advertiser@demo.example", password=DEMO_PASSWORD, kind="browser")
    db.flush()
    row, token = sessions.redeem_ticket(db, ticket=result.new_session.secret)
    db.flush()
    assert sessions.resolve(db, token=token).user.email == "advertiser@demo.example"
    with pytest.raises(NotAuthenticated):
        sessions.redeem_ticket(db, ticket=result.new_session.secret)


def test_expired_and_revoked_sessions_are_refused(db):
    row, token = _browser_cookie(db)
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.add(row)
    db.flush()
    assert sessions.resolve(db, token=token) is None
    row2, token2 = _browser_cookie(db)
    sessions.revoke(db, token=token2)
    db.flush()
    assert sessions.resolve(db, token=token2) is None


def test_refresh_extends_a_full_lifetime(db, settings):
    row, token = _browser_cookie(db)
    row.issued_at = utcnow() - timedelta(minutes=110)
    row.expires_at = row.issued_at + timedelta(milliseconds=settings.session_lifetime_ms)
    db.add(row)
    db.flush()
    refreshed = sessions.refresh(db, token=token)
    assert refreshed.expires_at - utcnow() > timedelta(minutes=119)


def test_disabling_a_user_ends_their_sessions(db):
    row, token = _browser_cookie(db)
    user = user_by_email(db, "advertiser@demo.example")
    user.status = UserStatus.DISABLED
    db.add(user)
    db.flush()
    assert sessions.resolve(db, token=token) is None


@pytest.mark.parametrize(("email", "role", "home"), [("admin@demo.example", Role.ADMIN, "/admin/users"),
                                                     ("coadmin@demo.example", Role.CO_ADMIN, "/co-admin/users")])
def test_impersonation_chain_and_back(db, email, role, home):
    staff = actor_of(db, email)
    agency = user_by_email(db, "agency@demo.example")
    advertiser = user_by_email(db, "advertiser@demo.example")
    assert impersonation.impersonate(db, actor=staff, target_id=agency.id) == "/agency/dashboard"
    as_agency = sessions.actor_for(db, sessions.find_by_id(db, session_id=staff.session_id))
    assert as_agency.role == Role.AGENCY and as_agency.real_user_id == staff.id
    assert impersonation.impersonate(db, actor=as_agency, target_id=advertiser.id) == "/dashboard"
    as_advertiser = sessions.actor_for(db, sessions.find_by_id(db, session_id=staff.session_id))
    assert as_advertiser.user.id == advertiser.id
    assert impersonation.back_targets(db, actor=as_advertiser) == [Role.AGENCY, role]
    # every impersonation is audited with the real user
    entries = db.exec(select(AuditEntry).where(AuditEntry.action == "impersonate")).all()
    assert {e.real_user_id for e in entries} == {staff.id}
    # Back to the staff account drops both lower sessions at once
    assert impersonation.back(db, actor=as_advertiser, to_role=role) == home
    back_home = sessions.actor_for(db, sessions.find_by_id(db, session_id=staff.session_id))
    assert back_home.user.id == staff.id and not back_home.impersonating


def test_impersonation_rules(db):
    rival_agency, rival_advertiser = other_tenant(db)
    agency = actor_of(db, "agency@demo.example")
    with pytest.raises(NotFound):  # an agency cannot enter another agency's advertiser
        impersonation.impersonate(db, actor=agency, target_id=rival_advertiser.id)
    with pytest.raises(NotFound):  # nor an admin account
        impersonation.impersonate(db, actor=agency, target_id=user_by_email(db, "admin@demo.example").id)
    advertiser = actor_of(db, "advertiser@demo.example")
    with pytest.raises(NotFound):
        impersonation.impersonate(db, actor=advertiser, target_id=user_by_email(db, "agency@demo.example").id)
    admin = actor_of(db, "admin@demo.example")
    rival_advertiser.status = UserStatus.DISABLED
    db.add(rival_advertiser)
    db.flush()
    with pytest.raises(Forbidden):
        impersonation.impersonate(db, actor=admin, target_id=rival_advertiser.id)


def test_register_verify_and_reset_password(db):
    user = accounts.register(db, email="New.User@Shop.example", password="secret-123", first_name="New",
                             last_name="User", company_name="Shop")
    db.flush()
    assert user.status == UserStatus.PENDING and user.role == Role.ADVERTISER
    assert user.agency_id == user_by_email(db, "agency@demo.example").id  # the brand's agency
    with pytest.raises(NotAuthenticated):
        accounts.login(db, email="new.user@shop.example", password="secret-123", kind="browser")
    mail = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == "new.user@shop.example")).all()[-1]
    code = mail.subject.split()[-1]
    with pytest.raises(Invalid):
        accounts.verify_otp(db, email=user.email, code="000000" if code != "000000" else "111111")
    accounts.verify_otp(db, email=user.email, code=code)
    db.flush()
    accounts.login(db, email=user.email, password="secret-123", kind="browser")

    accounts.request_password_reset(db, email=user.email)
    db.flush()
    reset_mail = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == user.email)).all()[-1]
    accounts.reset_password(db, email=user.email, code=reset_mail.subject.split()[-1], new_password="brand-new-9")
    db.flush()
    accounts.login(db, email=user.email, password="brand-new-9", kind="browser")
    with pytest.raises(Invalid):  # a code works once
        accounts.reset_password(db, email=user.email, code=reset_mail.subject.split()[-1], new_password="again-123x")


def test_register_names_bad_fields(db):
    with pytest.raises(Invalid) as error:
        accounts.register(db, email="advertiser@demo.example", password="x", first_name="A!", last_name="",
                          company_name="")
    assert set(error.value.fields) >= {"password", "first_name", "last_name", "company_name"}


def test_change_password_ends_other_sessions(db):
    actor = actor_of(db, "advertiser@demo.example")
    other_row, other_token = _browser_cookie(db)
    with pytest.raises(Invalid):
        accounts.change_password(db, actor=actor, current_password="wrong", new_password="fresh-pass-1")
    accounts.change_password(db, actor=actor, current_password=DEMO_PASSWORD, new_password="fresh-pass-1")
    db.flush()
    assert sessions.resolve(db, token=other_token) is None
    assert sessions.find_by_id(db, session_id=actor.session_id) is not None
    row = db.get(AuthSession, actor.session_id)
    assert row.revoked_at is None


def test_the_pages_per_event_check_answers_as_resolve_does(db, demo_ids):
    """live_until (a page's check on every event: one narrow query) lets act exactly the sessions resolve() lets
    act, and names the same acting user: live, expired, revoked, disabled, and an impersonation chain whose
    impersonated user is then disabled."""
    def both(token):
        actor = sessions.resolve(db, token=token)
        live = sessions.live_until(db.connection(), token=token)
        assert (live is None) == (actor is None)
        return live and live[0]

    row, live_token = _browser_cookie(db)
    assert both(live_token) == demo_ids["advertiser@demo.example"]
    assert sessions.live_until(db.connection(), token=live_token).expires_at == row.expires_at
    assert both("no-such-token") is None
    row, expired = _browser_cookie(db)
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.add(row)
    _row, revoked = _browser_cookie(db)
    sessions.revoke(db, token=revoked)
    db.flush()
    assert both(expired) is None and both(revoked) is None

    _row, staff_token = _browser_cookie(db, "admin@demo.example")
    admin = sessions.resolve(db, token=staff_token)
    impersonation.impersonate(db, actor=admin, target_id=demo_ids["agency@demo.example"])
    db.flush()
    assert both(staff_token) == demo_ids["agency@demo.example"]
    agency = user_by_email(db, "agency@demo.example")
    agency.status = UserStatus.DISABLED
    db.add(agency)
    advertiser = user_by_email(db, "advertiser@demo.example")
    advertiser.status = UserStatus.DISABLED
    db.add(advertiser)
    db.flush()
    assert both(staff_token) is None  # the impersonated user can no longer act
    assert both(live_token) is None  # nor a user who signed in himself
