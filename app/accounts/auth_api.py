"""auth/* calls of the spec (section 7) plus the browser-session endpoints the session agent uses."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response, Security
from sqlmodel import Session

from app.access import preferences, sessions, tokens
from app.access.models import AuthSession, User
from app.access.policy import Actor, require_user_in_scope
from app.access.sessions import SESSION_COOKIE
from app.accounts import service as accounts
from app.accounts import user_config
from app.accounts.auth_schemas import (
    AgencyCompany,
    AgencyConfigRead,
    AgencyFooter,
    AgencyMeta,
    AgencyTheme,
    ChangePasswordBody,
    EmailBody,
    LoginBody,
    ProfileRead,
    ProfileUpdate,
    RegisterBody,
    RegisteredRead,
    ResetBody,
    SessionTimesRead,
    TicketBody,
    TokenRead,
    TokenUser,
    UserSettingsRead,
    VerifyBody,
)
from app.kernel.config import get_settings
from app.kernel.errors import Forbidden, NotAuthenticated
from app.settings import company
from app.web.deps import BEARER, DB, bearer_token, client_address, get_actor, get_signed_in_actor
from app.web.envelope import Envelope, reply
from app.web.middleware import same_origin

router = APIRouter(prefix="/auth", tags=["auth"])


def _ms(row: AuthSession) -> SessionTimesRead:
    return SessionTimesRead(issuedAt=int(row.issued_at.timestamp() * 1000),
                            expiresAt=int(row.expires_at.timestamp() * 1000))


def token_reply(user: User, row: AuthSession) -> TokenRead:
    assert user.id is not None
    token = tokens.issue(session_id=row.id, user_id=user.id, role=user.role, issued_at=row.issued_at,
                         expires_at=row.expires_at)
    expires_in = int((row.expires_at - row.issued_at).total_seconds())
    times = _ms(row)
    return TokenRead(token=token, expires_in=expires_in,
                     user=TokenUser(id_=user.id, user_primary_id=user.id, role=user.role, email=user.email,
                                    firstName=user.first_name, lastName=user.last_name,
                                    companyName=user.company_name),
                     issuedAt=times.issuedAt, expiresAt=times.expiresAt)


@router.post("/login/")
@router.post("/login", include_in_schema=False)
def login(body: LoginBody, request: Request, db: Session = DB) -> Envelope[TokenRead]:
    """Exchange e-mail and password for a bearer token (2-hour lifetime; renew with refresh-token). An account with
    two-factor sign-in answers 401 with `data: {second_factor: "code", challenge}` (or `"enrol"` when its role must
    set one up first): finish with POST /auth/login/second-factor."""
    result = accounts.login(db, email=body.email, password=body.password, kind="api",
                            address=client_address(request), user_agent=request.headers.get("user-agent", ""))
    return reply(token_reply(result.user, result.new_session.session), "Logged in")


@router.post("/register")
def register(body: RegisterBody, request: Request, db: Session = DB) -> Envelope[RegisteredRead]:
    """Create an advertiser account; a one-time code is e-mailed to verify the address."""
    user = accounts.register(db, email=body.email, password=body.password, first_name=body.firstName,
                             last_name=body.lastName, company_name=body.companyName,
                             host=request.url.hostname or "", address=client_address(request))
    return reply(RegisteredRead(email=user.email), "Registered. Check your email for the verification code.")


@router.get("/agency-config")
def agency_config(request: Request, db: Session = DB) -> Envelope[AgencyConfigRead]:
    """The public white-label configuration for the host this request was made to."""
    brand = company.branding_for_host(db, request.url.hostname or "")
    return reply(AgencyConfigRead(
        meta=AgencyMeta(title=brand.meta_title),
        company=AgencyCompany(name=brand.name, logoSrc=brand.logo_url, favicon=brand.favicon_url,
                              agency_primary_id=brand.agency_id, help_and_support=brand.help_and_support,
                              help_and_support_link=brand.help_and_support_link),
        theme=AgencyTheme(primaryColor=brand.primary_color, hoverColor=brand.hover_color,
                          textAgencyColor=brand.text_agency_color, cardBackgroundColor=brand.card_background_color,
                          navbarColor=brand.navbar_color),
        footer=AgencyFooter(startYear=brand.footer_start_year, text=brand.footer_text),
    ))


@router.post("/resend-verify-otp")
def resend_verify_otp(body: EmailBody, request: Request, db: Session = DB) -> Envelope[None]:
    """Send a new one-time code (purpose `verify` or `reset`). Replies the same whether or not the address exists.
    Throttled per e-mail address and per client address: past the limit, 429 with a Retry-After header."""
    accounts.resend_verify_otp(db, email=body.email, purpose=body.purpose, address=client_address(request))
    return reply(None, "If the address has an account, a new code is on its way.")


@router.post("/verify-otp")
def verify_otp(body: VerifyBody, db: Session = DB) -> Envelope[None]:
    """Confirm a new account's e-mail with the code it was sent; the account can then log in."""
    accounts.verify_otp(db, email=body.email, code=body.otp)
    return reply(None, "Email verified. You can log in now.")


@router.post("/changePassword")
def change_password_with_code(body: ResetBody, db: Session = DB) -> Envelope[None]:
    """Forgot-password: set a new password with the e-mailed code."""
    accounts.reset_password(db, email=body.email, code=body.otp, new_password=body.newPassword)
    return reply(None, "Password changed. You can log in now.")


@router.get("/refresh-token")
def refresh_token(request: Request, db: Session = DB, _bearer: object = Security(BEARER)) -> Envelope[TokenRead]:
    """Renew the bearer token for another full lifetime."""
    token = bearer_token(request)
    if not token:
        raise NotAuthenticated("A bearer token is required.")
    row = sessions.find_by_id(db, session_id=tokens.session_id_of(token))
    actor = sessions.actor_for(db, row)
    if row is None or actor is None:
        raise NotAuthenticated("Your session has ended. Please log in again.")
    now_row = sessions.refresh_row(db, row)
    return reply(token_reply(actor.user, now_row))


@router.get("/profile")
def get_profile(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ProfileRead]:
    """The acting user's e-mail, names, company and role."""
    return reply(accounts.get_profile(db, actor=actor))


@router.patch("/profile")
@router.put("/profile", summary="Put Profile (fields left out keep their values)")
def put_profile(body: ProfileUpdate, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ProfileRead]:
    """Change the acting user's e-mail, names or company: the fields given; the others keep their values (PUT
    works the same as PATCH). A new e-mail (the address you sign in with) also needs `currentPassword`, and `code`
    from your authenticator app when two-factor sign-in is on (422 naming the field when wrong); it cannot be
    changed with an API key."""
    user = accounts.update_profile(db, actor=actor, email=body.email, first_name=body.firstName,
                                   last_name=body.lastName, company_name=body.companyName,
                                   current_password=body.currentPassword, code=body.code)
    return reply(accounts.profile_of(user), "Profile saved")


@router.post("/userChangePassword")
def user_change_password(body: ChangePasswordBody, actor: Actor = Depends(get_signed_in_actor),
                         db: Session = DB) -> Envelope[None]:
    """Change your password with the current one; your other sessions end. Not callable with an API key."""
    accounts.change_password(db, actor=actor, current_password=body.currentPassword, new_password=body.newPassword)
    return reply(None, "Password changed")


# ---- browser session: called by the session agent (same-origin fetch with a custom header) ----

CROSS_ORIGIN_REFUSED = ("Cross-site request refused: this page's address is not the host the server was asked for. "
                        "Behind a proxy, pass the browser's Host header on (deploy/nginx/dsp-console.conf).")


def _same_origin(request: Request) -> None:
    """A custom header cannot be sent cross-site without CORS, which we never grant; Origin must match."""
    if request.headers.get("x-requested-with") != "dsp-console":
        raise Forbidden("Cross-site request refused.")
    if not same_origin(request.scope, "sign-in session call"):
        raise Forbidden(CROSS_ORIGIN_REFUSED)


def _set_cookie(response: Response, token: str, row: AuthSession) -> None:
    lifetime_s = int((row.expires_at - row.issued_at).total_seconds())
    response.set_cookie(SESSION_COOKIE, token, max_age=lifetime_s, httponly=True, samesite="lax", path="/",
                        secure=get_settings().environment == "production")


@router.post("/session", include_in_schema=False)
def open_browser_session(body: TicketBody, request: Request, response: Response,
                         db: Session = DB) -> Envelope[SessionTimesRead]:
    _same_origin(request)
    row, token = sessions.redeem_ticket(db, ticket=body.ticket)
    _set_cookie(response, token, row)
    return reply(_ms(row))


@router.post("/session/refresh", include_in_schema=False)
def refresh_browser_session(request: Request, response: Response, db: Session = DB) -> Envelope[SessionTimesRead]:
    _same_origin(request)
    token = request.cookies.get(SESSION_COOKIE)
    row = sessions.refresh(db, token=token)
    assert token is not None
    _set_cookie(response, token, row)
    return reply(_ms(row))


@router.post("/session/logout", include_in_schema=False)
def logout_browser_session(request: Request, response: Response, db: Session = DB) -> Envelope[None]:
    _same_origin(request)
    sessions.revoke(db, token=request.cookies.get(SESSION_COOKIE))
    response.delete_cookie(SESSION_COOKIE, path="/")
    return reply(None, "Logged out")


@router.post("/logout")
def logout_api(request: Request, db: Session = DB, _bearer: object = Security(BEARER)) -> Envelope[None]:
    """End the bearer token's session."""
    token = bearer_token(request)
    if token:
        sessions.revoke(db, session_id=tokens.session_id_of(token))
    return reply(None, "Logged out")


user_settings_router = APIRouter(tags=["users"])


@user_settings_router.get("/user-settings/{user_primary_id}")
def user_settings(user_primary_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[UserSettingsRead]:
    """A user's console settings (api_access, insight_dashboard, postback_enabled)."""
    require_user_in_scope(actor, db.get(User, user_primary_id))
    row = preferences.settings_of(db, user_primary_id)
    return reply(UserSettingsRead(api_access=row.api_access, insight_dashboard=row.insight_dashboard,
                                  postback_enabled=row.postback_enabled == user_config.ENABLED))
