"""Two-factor sign-in over the API (app/accounts/second_factor.py): the sign-in's second step, your own
enrolment, an admin's reset of an account's factor, and the sign-in policy."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlmodel import Session

from app.access.policy import Actor
from app.accounts import second_factor
from app.accounts import service as accounts
from app.accounts.auth_api import token_reply
from app.accounts.auth_schemas import (
    ChallengeBody,
    CodeBody,
    EnrolmentRead,
    RecoveryCodesRead,
    RenewCodesBody,
    SecondFactorBody,
    SecondFactorStatusRead,
    SecondFactorTokenRead,
    SignInPolicyBody,
    SignInPolicyRead,
)
from app.web.deps import DB, client_address, get_actor, get_signed_in_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["auth"])


def _enrolment(found: second_factor.Enrolment) -> EnrolmentRead:
    return EnrolmentRead(secret=found.secret, uri=found.uri, qr_svg=found.qr_svg)


@router.post("/auth/login/second-factor")
def login_second_factor(body: SecondFactorBody, request: Request, db: Session = DB) -> Envelope[SecondFactorTokenRead]:
    """Finish a sign-in that answered 401 with `data.second_factor`: the `challenge` it gave and a code from the
    authenticator app (or a recovery code, each good once). When `second_factor` was `enrol`, first call
    `/auth/login/second-factor/enrolment`; this call's code then confirms the new app, and the reply carries the
    ten recovery codes. Wrong codes are throttled like passwords (429 with Retry-After)."""
    done = accounts.finish_login(db, challenge=body.challenge, code=body.code, kind="api",
                                 address=client_address(request), user_agent=request.headers.get("user-agent", ""))
    token = token_reply(done.user, done.new_session.session)
    return reply(SecondFactorTokenRead(**token.model_dump(by_alias=True), recovery_codes=done.recovery_codes),
                 "Logged in")


@router.post("/auth/login/second-factor/enrolment")
def login_enrolment(body: ChallengeBody, request: Request, db: Session = DB) -> Envelope[EnrolmentRead]:
    """A sign-in whose role must use two-factor (`data.second_factor` = `enrol`): a new secret and its QR code for
    the authenticator app. Confirm it with POST /auth/login/second-factor."""
    return reply(_enrolment(second_factor.begin_enrolment_at_sign_in(db, challenge=body.challenge,
                                                                     host=request.url.hostname or "")))


@router.get("/auth/second-factor")
def own_status(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[SecondFactorStatusRead]:
    """Whether your account signs in with a second factor, and how many recovery codes are left."""
    found = second_factor.status(db, actor=actor)
    return reply(SecondFactorStatusRead(enabled=found.enabled, recovery_codes_left=found.recovery_codes_left,
                                        required=found.required))


@router.post("/auth/second-factor/enrolment")
def begin_enrolment(request: Request, actor: Actor = Depends(get_signed_in_actor), db: Session = DB) -> Envelope[EnrolmentRead]:
    """Start setting up an authenticator app: a new secret and its QR code. Nothing changes at sign-in until
    POST /auth/second-factor/confirm accepts a code from the app; calling this again replaces the secret."""
    return reply(_enrolment(second_factor.begin_enrolment(db, actor=actor, host=request.url.hostname or "")),
                 "Scan the QR code, then confirm with a code from the app.")


@router.post("/auth/second-factor/confirm")
def confirm_enrolment(body: CodeBody, actor: Actor = Depends(get_signed_in_actor), db: Session = DB) -> Envelope[RecoveryCodesRead]:
    """Turn two-factor sign-in on with the app's current code; the reply holds the ten recovery codes, shown only
    this once."""
    return reply(RecoveryCodesRead(recovery_codes=second_factor.confirm_enrolment(db, actor=actor, code=body.code)),
                 "Two-factor sign-in is on")


@router.post("/auth/second-factor/disable")
def disable(body: CodeBody, actor: Actor = Depends(get_signed_in_actor), db: Session = DB) -> Envelope[None]:
    """Turn it off, with a current code or a recovery code (refused when your role must use it)."""
    second_factor.turn_off(db, actor=actor, code=body.code)
    return reply(None, "Two-factor sign-in is off")


@router.post("/auth/second-factor/recovery-codes")
def renew_recovery_codes(body: RenewCodesBody, actor: Actor = Depends(get_signed_in_actor),
                         db: Session = DB) -> Envelope[RecoveryCodesRead]:
    """Ten new recovery codes, shown only in this reply; the old ones stop working. Give the app's current `code`
    or your `password` (422 naming the field when it is wrong). The change log records it."""
    codes = second_factor.renew_recovery_codes(db, actor=actor, code=body.code, password=body.password)
    return reply(RecoveryCodesRead(recovery_codes=codes), "New recovery codes made: the old ones no longer work")


@router.post("/users/{user_id}/second-factor/reset", tags=["users"])
def reset(user_id: int, actor: Actor = Depends(get_signed_in_actor), db: Session = DB) -> Envelope[None]:
    """Remove the second factor of an account you manage (its phone was lost): it signs in with its password
    again, or sets up a new app if its role must use one. Its sessions end; the change log records it. A co-admin
    cannot reset another co-admin's (app/access/permissions.py CREDENTIALS_MANAGED). Not callable with an API key,
    nor are the other second-factor changes and the sign-in policy: they need a signed-in session."""
    second_factor.reset(db, actor=actor, user_id=user_id)
    return reply(None, "Two-factor sign-in was reset")


@router.get("/sign-in-policy", tags=["settings"])
def get_policy(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[SignInPolicyRead]:
    """The install's sign-in policy (admin)."""
    return reply(SignInPolicyRead(staff_second_factor=second_factor.get_policy(db, actor=actor)))


@router.put("/sign-in-policy", tags=["settings"])
def put_policy(body: SignInPolicyBody, actor: Actor = Depends(get_signed_in_actor), db: Session = DB) -> Envelope[SignInPolicyRead]:
    """Require a second factor of admins and co-admins (admin). Turning it on ends the sessions of staff who have
    none; they set one up at their next sign-in. You need one yourself first."""
    on = second_factor.set_policy(db, actor=actor, staff_second_factor=body.staff_second_factor)
    return reply(SignInPolicyRead(staff_second_factor=on), "Sign-in policy saved")
