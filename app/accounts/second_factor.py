"""Two-factor sign-in: a code from an authenticator app (TOTP, RFC 6238, by pyotp) after the password.

- Enrolment (the profile page, or right after the password when the policy requires it): a new secret, shown as a
  QR code (an SVG made here by segno: no outside service sees the secret) and as text; it takes effect only once
  a code from the app confirms it. Ten recovery codes are then shown once and kept only as hashes.
- Sign-in: the password, when right, opens a challenge (a one-time token, an OneTimeCode row of purpose
  "second_factor", stored as its hash) instead of a session; the challenge plus a code starts the session
  (app/accounts/service.py finish_login, throttled like the password).
- A code is good once: its 30-second step must be later than the last one accepted.
- Policy (one row, admin only): admins and co-admins must use it; those without are taken to enrolment after the
  password and get no session until they have confirmed it.
- Reset (a user who lost the phone): staff or an agency, for an account in their row scope; recorded in the
  change log; the account's sessions end.

The secret is encrypted at rest (app/kernel/sealed.py): if settings.secret_key changes, the stored secrets no
longer open and their users need a reset.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal
from xml.etree import ElementTree

import pyotp
import segno
from sqlmodel import Session, col, delete, select

from app.access import sessions
from app.access.models import OneTimeCode, RecoveryCode, SecondFactor, SignInPolicy, User
from app.access.passwords import verify_password
from app.access.policy import Actor, require, require_credentials_of, require_signed_in, require_user_in_scope
from app.access.roles import STAFF_ROLES, Role
from app.history import audit
from app.kernel import sealed
from app.kernel.db import cpu_heavy
from app.kernel.errors import Conflict, Invalid, NotAuthenticated
from app.kernel.model_base import utcnow
from app.settings import company

SEALED_AS = "totp-secret"  # the secret's encryption purpose (its own derived key)
CHALLENGE = "second_factor"  # one_time_codes.purpose of a sign-in waiting for its code
CHALLENGE_LIFETIME = timedelta(minutes=10)  # time to find the phone, or to scan the QR code at a forced enrolment
CHALLENGE_MAX_CODES = 5  # wrong codes one challenge takes before the password must be entered again
RECOVERY_CODES = 10
RECOVERY_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"
STEP_S = 30
DIGITS = 6
WRONG_CODE = "The code is wrong or was already used. Enter the current code from your app."
NOT_ENROLLING = "Start the set-up again: this code was for no set-up in progress."
CHALLENGE_ENDED = "Your sign-in has expired. Please enter your password again."
REQUIRED_FOR_ROLE = "Your role must use two-factor sign-in: it cannot be turned off."
PROOF_NEEDED = "Enter the current code from your app, or your password."
WRONG_PASSWORD = "The password is wrong."
NOT_ON = "Two-factor sign-in is off: there are no recovery codes to replace."
OWN_FIRST = "Turn on two-factor sign-in for your own account first (your profile), so you are not locked out."

Step = Literal["code", "enrol"]


class SecondFactorNeeded(NotAuthenticated):
    """The password was right; the sign-in goes on with the code (`step` "code") or with enrolment first ("enrol"),
    through `challenge`. The API answers it as a 401 whose data names both."""

    def __init__(self, step: Step, challenge: str) -> None:
        message = ("Enter the code from your authenticator app." if step == "code"
                   else "Your role must use two-factor sign-in: set it up to continue.")
        super().__init__(message, data={"second_factor": step, "challenge": challenge})
        self.step: Step = step
        self.challenge = challenge


@dataclass(frozen=True)
class Enrolment:
    """What the user needs to add the account to an app: the secret as text, the otpauth:// link, its QR code."""

    secret: str
    uri: str
    qr_svg: str


@dataclass(frozen=True)
class Status:
    enabled: bool
    recovery_codes_left: int
    required: bool  # the policy makes this user's role use it


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# ---- the policy ----

def staff_required(db: Session) -> bool:
    row = db.get(SignInPolicy, 1)
    return bool(row and row.staff_second_factor)


def required_for(db: Session, user: User) -> bool:
    return Role(user.role) in STAFF_ROLES and staff_required(db)


def get_policy(db: Session, *, actor: Actor) -> bool:
    require(actor, "company_config", "manage")
    return staff_required(db)


def set_policy(db: Session, *, actor: Actor, staff_second_factor: bool) -> bool:
    """Turn the staff rule on or off. Turning it on ends the sessions of staff without a second factor (they meet
    enrolment at their next sign-in); the admin turning it on must have one, or would be shut out. Never by an
    API key (policy.require_signed_in), as every change of the factor below."""
    require_signed_in(require(actor, "company_config", "manage"))
    row = db.get(SignInPolicy, 1) or SignInPolicy(id=1)
    before = {"staff_second_factor": row.staff_second_factor}
    if staff_second_factor == row.staff_second_factor:
        return staff_second_factor
    if staff_second_factor:
        if not is_enabled(db, actor.real_user_id):
            raise Invalid({"staff_second_factor": OWN_FIRST})
        enrolled = select(SecondFactor.user_id).where(SecondFactor.confirmed_at != None)  # noqa: E711
        for user in db.exec(select(User).where(col(User.role).in_(list(STAFF_ROLES)), col(User.id).not_in(enrolled))):
            assert user.id is not None
            sessions.revoke_all_for_user(db, user_id=user.id)
    row.staff_second_factor = staff_second_factor
    row.updated_at = utcnow()
    db.add(row)
    audit.record(db, actor=actor, entity="sign_in_policy", entity_id=1, action="update", before=before,
                 after={"staff_second_factor": staff_second_factor})
    return staff_second_factor


# ---- the factor itself ----

def _confirmed(db: Session, user_id: int) -> SecondFactor | None:
    row = db.get(SecondFactor, user_id)
    return row if row is not None and row.confirmed_at is not None else None


def is_enabled(db: Session, user_id: int) -> bool:
    return _confirmed(db, user_id) is not None


def status(db: Session, *, actor: Actor) -> Status:
    """The signed-in (real) user's own second factor: impersonating, it is still yours that shows."""
    require(actor, "profile", "view")
    user = db.get(User, actor.real_user_id)
    assert user is not None and user.id is not None
    left = db.exec(select(RecoveryCode).where(RecoveryCode.user_id == user.id, RecoveryCode.used_at == None)).all()  # noqa: E711
    return Status(enabled=is_enabled(db, user.id), recovery_codes_left=len(left), required=required_for(db, user))


def qr_svg(uri: str) -> str:
    """The QR code of an otpauth:// link as an SVG document (dark modules as one path, no size: it scales)."""
    return str(segno.make(uri, error="m").svg_inline(scale=1, border=2, omitsize=True, dark="#111827"))


def qr_parts(svg: str) -> tuple[str, str]:
    """(viewBox, path data) of qr_svg's SVG, for a page that draws it as its own elements."""
    root = ElementTree.fromstring(svg)
    path = root.find("{http://www.w3.org/2000/svg}path")
    if path is None:
        path = root.find("path")
    assert path is not None
    return root.attrib["viewBox"], path.attrib["d"]


def _begin(db: Session, user: User, host: str) -> Enrolment:
    assert user.id is not None
    if is_enabled(db, user.id):
        raise Conflict("Two-factor sign-in is already on. Turn it off first to move it to another app.")
    secret = pyotp.random_base32()
    row = db.get(SecondFactor, user.id) or SecondFactor(user_id=user.id, secret_encrypted="")
    row.secret_encrypted = sealed.seal(secret, SEALED_AS)
    row.confirmed_at = None
    row.last_step = 0
    db.add(row)
    issuer = company.config_row_for_host(db, host).name or "DSP Console"
    uri = pyotp.TOTP(secret, digits=DIGITS, interval=STEP_S).provisioning_uri(name=user.email, issuer_name=issuer)
    return Enrolment(secret=secret, uri=uri, qr_svg=qr_svg(uri))


def begin_enrolment(db: Session, *, actor: Actor, host: str = "") -> Enrolment:
    """A new secret for the signed-in (real) user, pending until confirm_enrolment; a second call replaces it."""
    require_signed_in(require(actor, "profile", "update"))
    user = db.get(User, actor.real_user_id)
    assert user is not None
    return _begin(db, user, host)


def _accept_code(row: SecondFactor, code: str) -> bool:
    """Whether `code` is the app's code for now or a step either side (clocks drift), and later than the last
    accepted: pyotp's verify() cannot say which step matched, so the steps are compared here."""
    code = "".join((code or "").split())
    if len(code) != DIGITS or not code.isdigit():
        return False
    totp = pyotp.TOTP(sealed.unseal(row.secret_encrypted, SEALED_AS), digits=DIGITS, interval=STEP_S)
    now_step = totp.timecode(utcnow())
    for step in (now_step - 1, now_step, now_step + 1):
        if step > row.last_step and secrets.compare_digest(totp.generate_otp(step), code):
            row.last_step = step
            return True
    return False


def _new_recovery_codes(db: Session, user_id: int) -> list[str]:
    db.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user_id))
    codes = []
    for _ in range(RECOVERY_CODES):
        # 50 random bits in an alphabet without look-alikes (base32): a plain hash is enough, as for API secrets.
        raw = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(10))
        codes.append(f"{raw[:5]}-{raw[5:]}")
        db.add(RecoveryCode(user_id=user_id, code_hash=_digest(raw)))
    return codes


def _confirm(db: Session, *, user: User, code: str, actor: Actor | None) -> list[str]:
    assert user.id is not None
    row = db.get(SecondFactor, user.id)
    if row is None or row.confirmed_at is not None:
        raise Invalid({"code": NOT_ENROLLING})
    if not _accept_code(row, code):
        raise Invalid({"code": WRONG_CODE})
    row.confirmed_at = utcnow()
    db.add(row)
    codes = _new_recovery_codes(db, user.id)
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action="enable_second_factor",
                 before={"second_factor": False}, after={"second_factor": True})
    return codes


def confirm_enrolment(db: Session, *, actor: Actor, code: str) -> list[str]:
    """Turn it on with the first code from the app; answers the ten recovery codes (the only time they show)."""
    require_signed_in(require(actor, "profile", "update"))
    user = db.get(User, actor.real_user_id)
    assert user is not None
    return _confirm(db, user=user, code=code, actor=actor)


def _use_recovery_code(db: Session, user_id: int, code: str) -> bool:
    raw = "".join(ch for ch in (code or "").lower() if ch.isalnum())
    if len(raw) != 10:
        return False
    row = db.exec(select(RecoveryCode).where(RecoveryCode.user_id == user_id, RecoveryCode.code_hash == _digest(raw),
                                             RecoveryCode.used_at == None)).first()  # noqa: E711
    if row is None:
        return False
    row.used_at = utcnow()
    db.add(row)
    return True


def check_code(db: Session, user_id: int, code: str) -> bool:
    """An app code (once) or an unused recovery code (then used up)."""
    row = _confirmed(db, user_id)
    if row is None:
        return False
    if _accept_code(row, code):
        db.add(row)
        return True
    return _use_recovery_code(db, user_id, code)


@cpu_heavy  # a password, when given, is checked against its argon2 hash
def renew_recovery_codes(db: Session, *, actor: Actor, code: str = "", password: str = "") -> list[str]:
    """Ten new recovery codes for the signed-in (real) user, shown this once; the old ones stop working. Proof that
    it is the owner: a current app code, or the password (a recovery code is not enough: it is what is replaced).
    Recorded in the change log (never the codes)."""
    require_signed_in(require(actor, "profile", "update"))
    user = db.get(User, actor.real_user_id)
    assert user is not None and user.id is not None
    row = _confirmed(db, user.id)
    if row is None:
        raise Invalid({"code": NOT_ON})
    if code.strip():
        if not _accept_code(row, code):
            raise Invalid({"code": WRONG_CODE})
        db.add(row)
    elif password:
        if not verify_password(user.password_hash, password):
            raise Invalid({"password": WRONG_PASSWORD})
    else:
        raise Invalid({"code": PROOF_NEEDED})
    left = len(db.exec(select(RecoveryCode.id).where(RecoveryCode.user_id == user.id,
                                                     RecoveryCode.used_at == None)).all())  # noqa: E711
    codes = _new_recovery_codes(db, user.id)
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action="renew_recovery_codes",
                 before={"recovery_codes_left": left}, after={"recovery_codes_left": len(codes)})
    return codes


def _remove(db: Session, user_id: int) -> None:
    db.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user_id))
    db.exec(delete(SecondFactor).where(col(SecondFactor.user_id) == user_id))


def turn_off(db: Session, *, actor: Actor, code: str) -> None:
    """The user's own switch off, with a current code (or a recovery code): a stolen session alone cannot."""
    require_signed_in(require(actor, "profile", "update"))
    user = db.get(User, actor.real_user_id)
    assert user is not None and user.id is not None
    if required_for(db, user):
        raise Invalid({"code": REQUIRED_FOR_ROLE})
    if not is_enabled(db, user.id):
        return
    if not check_code(db, user.id, code):
        raise Invalid({"code": WRONG_CODE})
    _remove(db, user.id)
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action="disable_second_factor",
                 before={"second_factor": True}, after={"second_factor": False})


def reset(db: Session, *, actor: Actor, user_id: int) -> None:
    """Remove another account's second factor (its phone was lost): the account signs in with the password again
    (or meets enrolment, if the policy requires it), and its sessions end. A set-up it never confirmed is removed
    without ending them."""
    require(actor, "user", "reset_second_factor")
    user = require_credentials_of(actor, require_user_in_scope(actor, db.get(User, user_id)))
    assert user.id is not None
    enabled = is_enabled(db, user.id)
    if not enabled and db.get(SecondFactor, user.id) is None:
        raise Invalid({"second_factor": "This account has no second factor to reset."})
    _remove(db, user.id)
    if enabled:  # a set-up never confirmed guarded no sign-in: its sessions stand
        sessions.revoke_all_for_user(db, user_id=user.id, except_session=actor.session_id)
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action="reset_second_factor",
                 before={"second_factor": True if enabled else "set-up pending"}, after={"second_factor": False})


# ---- the sign-in challenge (a password accepted, the code still to come) ----

def step_after_password(db: Session, user: User) -> Step | None:
    assert user.id is not None
    if is_enabled(db, user.id):
        return "code"
    return "enrol" if required_for(db, user) else None


def open_challenge(db: Session, *, user: User, step: Step) -> SecondFactorNeeded:
    """Store a challenge for `user` (a previous unfinished one ends) and the error that carries it to the caller."""
    assert user.id is not None
    for old in db.exec(select(OneTimeCode).where(OneTimeCode.user_id == user.id, OneTimeCode.purpose == CHALLENGE,
                                                 OneTimeCode.used_at == None)):  # noqa: E711
        old.used_at = utcnow()
        db.add(old)
    token = secrets.token_urlsafe(32)
    db.add(OneTimeCode(user_id=user.id, purpose=CHALLENGE, code_hash=_digest(token),
                       expires_at=utcnow() + CHALLENGE_LIFETIME))
    return SecondFactorNeeded(step, token)


def challenge_row(db: Session, challenge: str) -> OneTimeCode:
    """The live challenge of this token, or NotAuthenticated (expired, used, or too many wrong codes)."""
    row = db.exec(select(OneTimeCode).where(OneTimeCode.purpose == CHALLENGE,
                                            OneTimeCode.code_hash == _digest(challenge or ""))).first()
    if row is None or row.used_at is not None or row.expires_at < utcnow() or row.attempts >= CHALLENGE_MAX_CODES:
        raise NotAuthenticated(CHALLENGE_ENDED)
    return row


def challenge_user(db: Session, row: OneTimeCode) -> User:
    user = db.get(User, row.user_id)
    if user is None:
        raise NotAuthenticated(CHALLENGE_ENDED)
    return user


def begin_enrolment_at_sign_in(db: Session, *, challenge: str, host: str = "") -> Enrolment:
    """The forced enrolment: a secret for the user of a challenge opened with step "enrol"."""
    user = challenge_user(db, challenge_row(db, challenge))
    return _begin(db, user, host)


@dataclass(frozen=True)
class Passed:
    user: User
    recovery_codes: list[str]  # new codes when this challenge finished an enrolment, else empty


def pass_challenge(db: Session, *, challenge: str, code: str) -> Passed:
    """Check the code against the challenge's user: a confirmed factor takes an app or recovery code; a pending
    enrolment is confirmed by it. A wrong code counts against the challenge (the caller commits that) and raises."""
    row = challenge_row(db, challenge)
    user = challenge_user(db, row)
    assert user.id is not None
    codes: list[str] = []
    try:
        if is_enabled(db, user.id):
            if not check_code(db, user.id, code):
                raise Invalid({"code": WRONG_CODE})
        else:
            codes = _confirm(db, user=user, code=code, actor=None)
    except Invalid:
        row.attempts += 1
        db.add(row)
        raise
    row.used_at = utcnow()
    db.add(row)
    return Passed(user, codes)
