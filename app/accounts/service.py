"""Sign-in, registration, one-time codes, passwords and the profile."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlmodel import Session, col, func, select

from app.access import sessions, throttle
from app.access.models import OneTimeCode, User, UserStatus
from app.access.passwords import hash_password, needs_rehash, verify_password
from app.access.policy import Actor, require, require_signed_in
from app.access.roles import Role
from app.accounts import second_factor
from app.accounts.auth_schemas import ProfileRead
from app.history import audit
from app.kernel import validation as v
from app.kernel.config import get_settings
from app.kernel.db import cpu_heavy
from app.kernel.errors import Invalid, NotAuthenticated
from app.kernel.model_base import utcnow
from app.messaging import notifications
from app.messaging.mail import send_mail
from app.messaging.models import Notification
from app.settings.models import CompanyConfig

OTP_MAX_ATTEMPTS = 5
BAD_CREDENTIALS = "Incorrect email or password."


def normalise_email(email: str | None) -> str:
    return (email or "").strip().lower()


def find_user_by_email(db: Session, email: str) -> User | None:
    if "\x00" in email:  # no address holds one, and PostgreSQL refuses it in a query (a 500 before this)
        return None
    return db.exec(select(User).where(User.email == normalise_email(email))).first()


REFUSED_TITLE = "Sign-ins to your account were refused"


def _tell_owner_of_refusals(db: Session, user: User | None, email: str, address: str) -> None:
    """When an address has just used up its failures for an account, its owner hears of it by e-mail and a
    notification (once per window, however many addresses try)."""
    settings = get_settings()
    if user is None or user.id is None:
        return
    if throttle.account_count(db, throttle.sign_in(), email, address) != settings.login_max_failures_per_account:
        return
    since = utcnow() - timedelta(seconds=settings.login_window_s)
    told = db.exec(select(func.count()).select_from(Notification).where(
        Notification.user_id == user.id, Notification.title == REFUSED_TITLE, Notification.created_at >= since)).one()
    if told:
        return
    body = (f"{settings.login_max_failures_per_account} wrong passwords for your account came from {address or 'one address'}; "
            f"sign-ins from there are refused for {settings.login_window_s // 60} minutes. You can still sign in "
            "from your usual network. If this was not you, consider changing your password.")
    notifications.notify(db, user_id=user.id, title=REFUSED_TITLE, body=body)
    send_mail(db, to=user.email, subject=REFUSED_TITLE, body=body)


@dataclass(frozen=True)
class LoginResult:
    user: User
    new_session: sessions.NewSession


@cpu_heavy
def login(db: Session, *, email: str, password: str, kind: str, address: str = "", user_agent: str = "") -> LoginResult:
    """Check credentials (throttled per account and per address) and start a session."""
    v.check({"email": (v.email, email), "password": (lambda p: None if p else "Password is required.", password)})
    email = normalise_email(email)
    throttle.check(db, throttle.sign_in(), email=email, address=address)
    user = find_user_by_email(db, email)
    ok = verify_password(user.password_hash if user else None, password)
    throttle.record(db, throttle.sign_in(), email=email, address=address, succeeded=ok and user is not None)
    if not ok or user is None:
        _tell_owner_of_refusals(db, user, email, address[:64])
        db.commit()  # the failure must count even though we raise
        raise NotAuthenticated(BAD_CREDENTIALS)
    if user.status == UserStatus.PENDING:
        db.commit()
        raise NotAuthenticated("Please verify your email address first: we sent you a code.", data={"verify": True})
    if user.status == UserStatus.DISABLED:
        db.commit()
        raise NotAuthenticated("This account is disabled. Please contact support.")
    if needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
        db.add(user)
    step = second_factor.step_after_password(db, user)
    if step is not None:
        needed = second_factor.open_challenge(db, user=user, step=step)
        db.commit()  # the challenge must outlive this refusal
        raise needed
    return LoginResult(user, sessions.start(db, user=user, kind=kind, address=address, user_agent=user_agent))


@dataclass(frozen=True)
class SecondStep:
    """For the sign-in page: the password was right and the code (or enrolment) comes next."""

    step: second_factor.Step
    challenge: str


@cpu_heavy
def begin_login(db: Session, *, email: str, password: str, kind: str, address: str = "",
                user_agent: str = "") -> LoginResult | SecondStep:
    """login, with the second factor's step answered rather than raised (a page moves on to the code prompt)."""
    try:
        return login(db, email=email, password=password, kind=kind, address=address, user_agent=user_agent)
    except second_factor.SecondFactorNeeded as needed:
        return SecondStep(needed.step, needed.challenge)


@dataclass(frozen=True)
class FinishedLogin:
    user: User
    new_session: sessions.NewSession
    recovery_codes: list[str]  # set when the sign-in confirmed a forced enrolment: shown once


def finish_login(db: Session, *, challenge: str, code: str, kind: str, address: str = "",
                 user_agent: str = "") -> FinishedLogin:
    """The second step of a sign-in: the challenge the password opened, and a code from the app (or a recovery
    code). Throttled like the password, per account and per address (app/access/throttle.py)."""
    v.check({"code": (lambda c: None if (c or "").strip() else "Enter the code from your app.", code)})
    row = second_factor.challenge_row(db, challenge)
    user = second_factor.challenge_user(db, row)
    throttle.check(db, throttle.second_factor(), email=user.email, address=address)
    try:
        passed = second_factor.pass_challenge(db, challenge=challenge, code=code)
    except Invalid:
        throttle.record(db, throttle.second_factor(), email=user.email, address=address)
        db.commit()  # the wrong code must count even though we raise
        raise
    throttle.record(db, throttle.second_factor(), email=user.email, address=address, succeeded=True)
    if user.status != UserStatus.ACTIVE:
        raise NotAuthenticated("This account is disabled. Please contact support.")
    new_session = sessions.start(db, user=user, kind=kind, address=address, user_agent=user_agent)
    return FinishedLogin(passed.user, new_session, passed.recovery_codes)


def issue_code(db: Session, *, user: User, purpose: str) -> None:
    assert user.id is not None
    code = f"{secrets.randbelow(1_000_000):06d}"
    lifetime = get_settings().otp_lifetime_s
    for old in db.exec(select(OneTimeCode).where(OneTimeCode.user_id == user.id, OneTimeCode.purpose == purpose, OneTimeCode.used_at == None)):  # noqa: E711
        old.used_at = utcnow()  # a new code replaces the old ones
        db.add(old)
    db.add(
        OneTimeCode(
            user_id=user.id,
            purpose=purpose,
            code_hash=hashlib.sha256(code.encode()).hexdigest(),
            expires_at=utcnow() + timedelta(seconds=lifetime),
        )
    )
    what = "verify your email address" if purpose == "verify" else "reset your password"
    send_mail(
        db,
        to=user.email,
        subject=f"Your code: {code}",
        body=f"Use the code {code} to {what}. It is valid for {lifetime // 60} minutes.\n"
        "If you did not ask for it, ignore this message.",
    )


def _consume_code(db: Session, *, user: User | None, purpose: str, code: str) -> None:
    wrong = Invalid({"code": "The code is wrong or has expired."})
    if user is None:
        raise wrong
    row = db.exec(
        select(OneTimeCode)
        .where(OneTimeCode.user_id == user.id, OneTimeCode.purpose == purpose, OneTimeCode.used_at == None)  # noqa: E711
        .order_by(col(OneTimeCode.id).desc())
    ).first()
    if row is None or row.expires_at < utcnow() or row.attempts >= OTP_MAX_ATTEMPTS:
        raise wrong
    if not secrets.compare_digest(row.code_hash, hashlib.sha256((code or "").strip().encode()).hexdigest()):
        row.attempts += 1
        db.add(row)
        db.commit()
        raise wrong
    row.used_at = utcnow()
    db.add(row)


@cpu_heavy
def register(
    db: Session, *, email: str, password: str, first_name: str, last_name: str, company_name: str, host: str = "",
    address: str = "",
) -> User:
    """Public sign-up: an advertiser under the host's agency, pending until the e-mailed code is entered. It mails
    a code, so it is throttled as the other mail calls are (per address: one network cannot mail many inboxes)."""
    v.check(
        {
            "email": (v.email, email),
            "password": (v.password, password),
            "first_name": (lambda x: v.person_name(x, max_length=v.FIRST_NAME_MAX_LENGTH), first_name),
            "last_name": (lambda x: v.person_name(x, max_length=v.LAST_NAME_MAX_LENGTH), last_name),
            "company_name": (lambda x: None if (x or "").strip() else "This field is required.", company_name),
        }
    )
    throttle.admit(db, throttle.mail(), email=normalise_email(email), address=address)
    if find_user_by_email(db, email) is not None:
        raise Invalid({"email": "An account with this email already exists."})
    company = db.exec(select(CompanyConfig).where(col(CompanyConfig.host).in_([host, ""])).order_by(col(CompanyConfig.host).desc())).first()
    user = User(
        email=normalise_email(email),
        password_hash=hash_password(password),
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        company_name=company_name.strip(),
        role=Role.ADVERTISER,
        status=UserStatus.PENDING,
        agency_id=company.agency_id if company else None,
    )
    db.add(user)
    db.flush()
    audit.record(db, actor=None, entity="user", entity_id=user.id, action="register", after={"email": user.email})
    issue_code(db, user=user, purpose="verify")
    return user


def resend_verify_otp(db: Session, *, email: str, purpose: str = "verify", address: str = "") -> None:
    """Send a fresh code. Says nothing about whether the address exists: a request for an unknown address
    counts against the mail limit (app/access/throttle.py) as any other does."""
    throttle.admit(db, throttle.mail(), email=normalise_email(email), address=address)
    _send_code(db, email=email, purpose=purpose)


def _send_code(db: Session, *, email: str, purpose: str) -> None:
    user = find_user_by_email(db, email)
    if user is None:
        return
    if purpose == "verify" and user.status == UserStatus.PENDING:
        issue_code(db, user=user, purpose="verify")
    elif purpose == "reset" and user.status == UserStatus.ACTIVE:
        issue_code(db, user=user, purpose="reset")


def verify_otp(db: Session, *, email: str, code: str) -> User:
    user = find_user_by_email(db, email)
    _consume_code(db, user=user, purpose="verify", code=code)
    assert user is not None
    user.status = UserStatus.ACTIVE
    user.updated_at = utcnow()
    db.add(user)
    audit.record(db, actor=None, entity="user", entity_id=user.id, action="verify_email",
                 before={"status": UserStatus.PENDING}, after={"status": UserStatus.ACTIVE})
    return user


def request_password_reset(db: Session, *, email: str, address: str = "") -> None:
    v.check({"email": (v.email, email)})
    resend_verify_otp(db, email=email, purpose="reset", address=address)


@cpu_heavy
def reset_password(db: Session, *, email: str, code: str, new_password: str) -> None:
    """Forgot-password: the e-mailed code plus a new password. Ends every session of the account."""
    v.check({"new_password": (v.password, new_password)})
    user = find_user_by_email(db, email)
    _consume_code(db, user=user, purpose="reset", code=code)
    assert user is not None and user.id is not None
    user.password_hash = hash_password(new_password)
    user.updated_at = utcnow()
    db.add(user)
    sessions.revoke_all_for_user(db, user_id=user.id)
    audit.record(db, actor=None, entity="user", entity_id=user.id, action="reset_password",
                 before={"password_hash": "x"}, after={"password_hash": "y"})


@cpu_heavy
def change_password(db: Session, *, actor: Actor, current_password: str, new_password: str) -> None:
    """Signed-in change. The real user changes their own password (never the impersonated one's)."""
    require_signed_in(require(actor, "profile", "update"))
    user = db.get(User, actor.real_user_id)
    assert user is not None and user.id is not None
    if not verify_password(user.password_hash, current_password or ""):
        raise Invalid({"current_password": "The current password is wrong."})
    v.check({"new_password": (v.password, new_password)})
    if current_password == new_password:
        raise Invalid({"new_password": "Choose a password different from the current one."})
    user.password_hash = hash_password(new_password)
    user.updated_at = utcnow()
    db.add(user)
    sessions.revoke_all_for_user(db, user_id=user.id, except_session=actor.session_id)
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action="change_password",
                 before={"password_hash": "x"}, after={"password_hash": "y"})


PROFILE_FIELDS = ("email", "first_name", "last_name", "company_name")


def profile_of(user: User) -> ProfileRead:
    assert user.id is not None
    return ProfileRead(id=user.id, role=user.role, **{f: getattr(user, f) for f in PROFILE_FIELDS})


def get_profile(db: Session, *, actor: Actor) -> ProfileRead:
    require(actor, "profile", "view")
    return profile_of(actor.user)


def detail_rules(*, company_required: bool) -> dict[str, Callable[[Any], str | None]]:
    """How each of an account's details is checked (the profile and the user edit pages alike)."""
    return {
        "email": v.email,
        "first_name": lambda x: v.person_name(x, max_length=v.FIRST_NAME_MAX_LENGTH),
        "last_name": lambda x: v.person_name(x, max_length=v.LAST_NAME_MAX_LENGTH),
        "company_name": lambda x: "This field is required." if company_required and not (x or "").strip() else None,
    }


def set_details(user: User, given: dict[str, str]) -> None:
    """Set the details given, as they are stored: the e-mail normalised, the rest trimmed."""
    for name, value in given.items():
        setattr(user, name, normalise_email(value) if name == "email" else (value or "").strip())


ENTER_PASSWORD_FOR_EMAIL = "Enter your current password to change the e-mail you sign in with."
ENTER_CODE_FOR_EMAIL = "Enter the code from your app to change the e-mail you sign in with."


def prove_owner(db: Session, actor: Actor, *, current_password: str | None, code: str | None) -> None:
    """That the person signed in (the real user, under an impersonation too) is at the keyboard: their password, and
    a code from their app when they use one. Never an API key. Invalid names the field that failed."""
    require_signed_in(actor)
    person = db.get(User, actor.real_user_id)
    assert person is not None and person.id is not None
    if not current_password:
        raise Invalid({"current_password": ENTER_PASSWORD_FOR_EMAIL})
    if not verify_password(person.password_hash, current_password):
        raise Invalid({"current_password": "The current password is wrong."})
    if second_factor.is_enabled(db, person.id):
        if not (code or "").strip():
            raise Invalid({"code": ENTER_CODE_FOR_EMAIL})
        if not second_factor.check_code(db, person.id, code or ""):
            raise Invalid({"code": second_factor.WRONG_CODE})


@cpu_heavy  # a new e-mail checks the password against its argon2 hash
def update_profile(db: Session, *, actor: Actor, email: str | None = None, first_name: str | None = None,
                   last_name: str | None = None, company_name: str | None = None, current_password: str | None = None,
                   code: str | None = None) -> User:
    """A detail left out (None) keeps its value; only the details given are checked. A new e-mail is a new sign-in
    (a reset code goes to it): it needs prove_owner's password and code, and a signed-in session."""
    require(actor, "profile", "update")
    given = {name: value for name, value in (("email", email), ("first_name", first_name), ("last_name", last_name),
                                              ("company_name", company_name)) if value is not None}
    rules = detail_rules(company_required=False)
    v.check({name: (rules[name], value) for name, value in given.items()})
    user = db.get(User, actor.id)
    assert user is not None
    if "email" in given and normalise_email(given["email"]) != user.email:
        prove_owner(db, actor, current_password=current_password, code=code)
        other = find_user_by_email(db, given["email"])
        if other is not None and other.id != user.id:
            raise Invalid({"email": "An account with this email already exists."})
    before = {f: getattr(user, f) for f in PROFILE_FIELDS}
    set_details(user, given)
    after = {f: getattr(user, f) for f in PROFILE_FIELDS}
    if after == before:
        return user
    user.updated_at = utcnow()
    db.add(user)
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action="update_profile", before=before, after=after)
    return user
