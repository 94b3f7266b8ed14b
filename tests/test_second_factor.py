"""Two-factor sign-in (app/accounts/second_factor.py): enrolment takes effect only once a code confirms it, a code
works once, recovery codes work once, wrong codes are throttled like passwords, the staff policy sends staff
without a factor to enrolment, and an admin's reset is scoped and recorded."""

from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest
from sqlmodel import select

from app.access import sessions
from app.access.models import AuthSession, SecondFactor
from app.access.policy import Actor
from app.accounts import second_factor
from app.accounts import service as accounts
from app.demo.seed import DEMO_PASSWORD
from app.history.models import AuditEntry
from app.kernel.errors import Forbidden, Invalid, NotAuthenticated, NotFound, TooManyAttempts
from app.kernel.model_base import utcnow
from tests.helpers import other_tenant, user_by_email

ADVERTISER = "advertiser@demo.example"
ADMIN = "admin@demo.example"


def _actor(db, email: str) -> Actor:
    """A signed-in actor (a live session) for a demo user, whether or not a code would be asked."""
    user = user_by_email(db, email)
    row = sessions.start(db, user=user, kind="browser").session
    db.flush()
    actor = sessions.actor_for(db, row)
    assert actor is not None
    return actor


def _enrol(db, email: str) -> tuple[pyotp.TOTP, list[str]]:
    actor = _actor(db, email)
    enrolment = second_factor.begin_enrolment(db, actor=actor)
    totp = pyotp.TOTP(enrolment.secret)
    codes = second_factor.confirm_enrolment(db, actor=actor, code=totp.now())
    db.commit()
    return totp, codes


def _next_code(totp: pyotp.TOTP) -> str:
    """The code of the next 30-second step (accepted: clocks drift by a step), so a test need not wait for it."""
    return totp.at(utcnow() + timedelta(seconds=30))


def _challenge(db, email: str, address: str = "10.0.0.1") -> second_factor.SecondFactorNeeded:
    with pytest.raises(second_factor.SecondFactorNeeded) as raised:
        accounts.login(db, email=email, password=DEMO_PASSWORD, kind="api", address=address)
    return raised.value


def test_enrolment_takes_effect_only_when_a_code_confirms_it(db):
    actor = _actor(db, ADVERTISER)
    enrolment = second_factor.begin_enrolment(db, actor=actor)
    assert enrolment.uri.startswith("otpauth://totp/") and enrolment.secret in enrolment.uri
    assert enrolment.qr_svg.startswith("<svg") and "<path" in enrolment.qr_svg
    db.commit()
    # Not confirmed yet: the password alone still signs in.
    assert accounts.login(db, email=ADVERTISER, password=DEMO_PASSWORD, kind="api").new_session
    with pytest.raises(Invalid) as wrong:
        second_factor.confirm_enrolment(db, actor=actor, code="000000")
    assert wrong.value.fields == {"code": second_factor.WRONG_CODE}
    codes = second_factor.confirm_enrolment(db, actor=actor, code=pyotp.TOTP(enrolment.secret).now())
    assert len(codes) == 10 and len(set(codes)) == 10
    stored = db.get(SecondFactor, actor.id)
    assert stored is not None and enrolment.secret not in stored.secret_encrypted  # encrypted at rest
    assert second_factor.status(db, actor=actor).enabled


def test_sign_in_asks_for_the_code_after_the_password_and_a_code_works_once(db):
    totp, _ = _enrol(db, ADVERTISER)
    needed = _challenge(db, ADVERTISER)
    assert needed.step == "code" and needed.data == {"second_factor": "code", "challenge": needed.challenge}
    with pytest.raises(Invalid):
        accounts.finish_login(db, challenge=needed.challenge, code="123456", kind="api")
    code = _next_code(totp)
    done = accounts.finish_login(db, challenge=needed.challenge, code=code, kind="api")
    assert done.user.email == ADVERTISER and done.new_session.session.user_id == done.user.id
    db.commit()
    # The same code again (a replay, on a fresh challenge) is refused; the challenge itself is used up too.
    with pytest.raises(Invalid):
        accounts.finish_login(db, challenge=_challenge(db, ADVERTISER).challenge, code=code, kind="api")
    with pytest.raises(NotAuthenticated, match="expired"):
        accounts.finish_login(db, challenge=needed.challenge, code=_next_code(totp), kind="api")


def test_a_recovery_code_signs_in_once(db):
    _, codes = _enrol(db, ADVERTISER)
    done = accounts.finish_login(db, challenge=_challenge(db, ADVERTISER).challenge, code=codes[0].upper(), kind="api")
    assert done.user.email == ADVERTISER
    db.commit()
    with pytest.raises(Invalid):
        accounts.finish_login(db, challenge=_challenge(db, ADVERTISER).challenge, code=codes[0], kind="api")
    assert second_factor.status(db, actor=_actor(db, ADVERTISER)).recovery_codes_left == 9


def test_wrong_codes_are_throttled_like_passwords(db, settings):
    totp, _ = _enrol(db, ADVERTISER)
    for _ in range(settings.login_max_failures_per_account):
        with pytest.raises(Invalid):  # a new challenge each time: its own count of 5 is not what stops this
            accounts.finish_login(db, challenge=_challenge(db, ADVERTISER).challenge, code="000000", kind="api",
                                  address="10.0.0.1")
    with pytest.raises(TooManyAttempts, match="Too many wrong codes for this account"):
        accounts.finish_login(db, challenge=_challenge(db, ADVERTISER).challenge, code=totp.now(), kind="api",
                              address="10.0.0.1")
    # The owner's own network still signs in.
    done = accounts.finish_login(db, challenge=_challenge(db, ADVERTISER, "10.9.9.9").challenge,
                                 code=_next_code(totp), kind="api", address="10.9.9.9")
    assert done.user.email == ADVERTISER


def test_the_staff_policy_sends_staff_without_a_factor_to_enrolment(db):
    admin = _actor(db, ADMIN)
    with pytest.raises(Invalid) as own_first:
        second_factor.set_policy(db, actor=admin, staff_second_factor=True)
    assert own_first.value.fields == {"staff_second_factor": second_factor.OWN_FIRST}
    totp, _ = _enrol(db, ADMIN)
    coadmin_session = _actor(db, "coadmin@demo.example").session_id
    db.commit()
    second_factor.set_policy(db, actor=_actor(db, ADMIN), staff_second_factor=True)
    db.commit()
    # The co-admin's session ended; their next sign-in goes to enrolment, and no session starts before it.
    assert db.get(AuthSession, coadmin_session).revoked_at is not None
    needed = _challenge(db, "coadmin@demo.example")
    assert needed.step == "enrol"
    enrolment = second_factor.begin_enrolment_at_sign_in(db, challenge=needed.challenge)
    done = accounts.finish_login(db, challenge=needed.challenge, code=pyotp.TOTP(enrolment.secret).now(), kind="api")
    assert done.user.email == "coadmin@demo.example" and len(done.recovery_codes) == 10
    # Clients are not concerned; staff cannot turn theirs off.
    assert accounts.login(db, email=ADVERTISER, password=DEMO_PASSWORD, kind="api").new_session
    with pytest.raises(Invalid) as required:
        second_factor.turn_off(db, actor=admin, code=_next_code(totp))
    assert required.value.fields == {"code": second_factor.REQUIRED_FOR_ROLE}


def test_an_agency_resets_its_advertisers_factor_and_the_change_log_records_it(db):
    _enrol(db, ADVERTISER)
    advertiser = user_by_email(db, ADVERTISER)
    agency = _actor(db, "agency@demo.example")
    second_factor.reset(db, actor=agency, user_id=advertiser.id)
    db.commit()
    assert not second_factor.is_enabled(db, advertiser.id)
    assert accounts.login(db, email=ADVERTISER, password=DEMO_PASSWORD, kind="api").new_session
    entry = db.exec(select(AuditEntry).where(AuditEntry.action == "reset_second_factor")).one()
    assert (entry.entity, entry.entity_id, entry.actor_id) == ("user", str(advertiser.id), agency.id)
    assert entry.changes == {"second_factor": [True, False]}


def test_a_reset_ends_the_accounts_sessions(db):
    _enrol(db, ADVERTISER)
    needed = _challenge(db, ADVERTISER)
    advertiser = user_by_email(db, ADVERTISER)
    db.commit()
    second_factor.reset(db, actor=_actor(db, ADMIN), user_id=advertiser.id)
    live = [row for row in db.exec(select(AuthSession).where(AuthSession.user_id == advertiser.id))
            if sessions.find_by_id(db, session_id=row.id) is not None]
    assert live == []
    with pytest.raises(Invalid):  # the challenge opened before the reset finds no factor to check against
        accounts.finish_login(db, challenge=needed.challenge, code="000000", kind="api")


def test_a_reset_of_a_set_up_never_confirmed_removes_it_and_leaves_the_sessions(db):
    """Found by the authorization matrix: an agency's reset of an advertiser who had only begun a set-up signed the
    advertiser out everywhere, though no sign-in had ever asked for a code."""
    signed_in = accounts.login(db, email=ADVERTISER, password=DEMO_PASSWORD, kind="api").new_session
    advertiser = user_by_email(db, ADVERTISER)
    second_factor.begin_enrolment(db, actor=_actor(db, ADVERTISER))
    db.commit()
    second_factor.reset(db, actor=_actor(db, "agency@demo.example"), user_id=advertiser.id)
    assert db.get(SecondFactor, advertiser.id) is None
    assert sessions.find_by_id(db, session_id=signed_in.session.id) is not None
    entry = db.exec(select(AuditEntry).where(AuditEntry.action == "reset_second_factor")).one()
    assert entry.changes == {"second_factor": ["set-up pending", False]}
    with pytest.raises(Invalid):  # nothing left to reset
        second_factor.reset(db, actor=_actor(db, "agency@demo.example"), user_id=advertiser.id)


def test_a_reset_outside_the_actors_reach_is_refused(db):
    _, rival_advertiser = other_tenant(db)
    _enrol(db, "agency@demo.example")
    agency = user_by_email(db, "agency@demo.example")
    # Another tenant's account answers as a missing one; an advertiser may not reset anyone; a co-admin cannot
    # reach an admin.
    with pytest.raises(NotFound):
        second_factor.reset(db, actor=_actor(db, "agency@demo.example"), user_id=rival_advertiser.id)
    with pytest.raises(Forbidden):
        second_factor.reset(db, actor=_actor(db, ADVERTISER), user_id=agency.id)
    _enrol(db, ADMIN)
    with pytest.raises(NotFound):
        second_factor.reset(db, actor=_actor(db, "coadmin@demo.example"), user_id=user_by_email(db, ADMIN).id)
    assert second_factor.is_enabled(db, user_by_email(db, ADMIN).id)


def test_new_recovery_codes_need_the_app_code_or_the_password_and_the_old_ones_stop_working(db):
    totp, old = _enrol(db, ADVERTISER)
    actor = _actor(db, ADVERTISER)
    assert accounts.finish_login(db, challenge=_challenge(db, ADVERTISER).challenge, code=old[0], kind="api")
    db.commit()
    for proof, field in (({"code": "000000"}, "code"), ({"password": "not-the-password"}, "password"),
                         ({}, "code"), ({"code": old[1]}, "code")):  # a recovery code is what is replaced
        with pytest.raises(Invalid) as refused:
            second_factor.renew_recovery_codes(db, actor=actor, **proof)
        assert set(refused.value.fields) == {field}
    codes = second_factor.renew_recovery_codes(db, actor=actor, code=_next_code(totp))
    db.commit()
    assert len(set(codes)) == 10 and not set(codes) & set(old)
    assert second_factor.status(db, actor=actor).recovery_codes_left == 10
    with pytest.raises(Invalid):  # an old code no longer signs in
        accounts.finish_login(db, challenge=_challenge(db, ADVERTISER).challenge, code=old[2], kind="api")
    db.commit()
    assert accounts.finish_login(db, challenge=_challenge(db, ADVERTISER).challenge, code=codes[0], kind="api")
    entry = db.exec(select(AuditEntry).where(AuditEntry.action == "renew_recovery_codes")).one()
    assert (entry.entity, entry.entity_id, entry.actor_id) == ("user", str(actor.id), actor.id)
    assert entry.changes == {"recovery_codes_left": [9, 10]}  # the count, never the codes
    # The password works as well when the phone is not at hand.
    again = second_factor.renew_recovery_codes(db, actor=actor, password=DEMO_PASSWORD)
    assert not set(again) & set(codes)


def test_new_recovery_codes_need_two_factor_sign_in_on(db):
    with pytest.raises(Invalid) as refused:
        second_factor.renew_recovery_codes(db, actor=_actor(db, ADVERTISER), password=DEMO_PASSWORD)
    assert refused.value.fields == {"code": second_factor.NOT_ON}
