"""Request-scoped dependencies: a database unit of work and the authenticated actor."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel import Session

from app.access import api_keys, sessions, tokens
from app.access.policy import Actor
from app.kernel import log_context
from app.kernel.db import session_scope
from app.kernel.errors import Forbidden, NotAuthenticated
from app.web import cookie_writes


def get_db() -> Iterator[Session]:
    with session_scope() as db:
        yield db


# Commit before the response leaves. With FastAPI's default a dependency with yield ends after the response
# is sent, so a client's next request could outrun this one's commit: a browser that had just opened its
# session was shown signed out on the page it went to next (a login flake traced to this).
DB = Depends(get_db, scope="function")


def client_address(request: Request) -> str:
    return request.client.host if request.client else ""


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else None


# How a caller signs in, declared for the OpenAPI document (securitySchemes, and on every operation that needs
# one of them): get_actor reads the header and the cookie itself, so neither refuses a call on its own.
BEARER = HTTPBearer(scheme_name="bearer", bearerFormat="JWT from POST /auth/login/, or an API key dsp_…",
                    auto_error=False, description="`Authorization: Bearer <token>`: the token `POST /auth/login/` "
                    "answers (2 hours, refreshed by `GET /auth/refresh-token`), or an API key (`dsp_…`, made on "
                    "the user's settings page; valid until revoked).")
SESSION = APIKeyCookie(name=sessions.SESSION_COOKIE, scheme_name="session", auto_error=False,
                       description="The browser's session cookie (the console's own pages).")


def get_actor(request: Request, db: Session = DB,
              _bearer: HTTPAuthorizationCredentials | None = Security(BEARER),
              _session: str | None = Security(SESSION)) -> Actor:
    """The caller: a bearer API key (`dsp_...`), a bearer JWT (API clients) or the browser's session cookie."""
    token = bearer_token(request)
    if api_keys.is_api_token(token):
        assert token is not None
        actor = api_keys.authenticate(db, token=token, address=client_address(request))
        if actor is None:
            raise NotAuthenticated("This API key is not valid. It may have been revoked.")
        db.commit()  # the key's last use is kept even when the call itself then fails
    elif token:
        actor = sessions.actor_for(db, sessions.find_by_id(db, session_id=tokens.session_id_of(token)))
    else:
        cookie_writes.require_own_origin(request)  # a same-site page's write carries the cookie too
        actor = sessions.resolve(db, token=request.cookies.get(sessions.SESSION_COOKIE))
    if actor is None:
        raise NotAuthenticated("Your session has ended. Please log in again.")
    log_context.bind(user_id=actor.id)  # the request's log lines name who made it
    return actor


def get_signed_in_actor(request: Request, actor: Actor = Depends(get_actor)) -> Actor:
    """The caller, signed in with a password (login token or browser session), not an API key: a leaked key
    must not be able to mint more keys for itself."""
    if api_keys.is_api_token(bearer_token(request)):
        raise Forbidden("API keys cannot manage API keys. Log in with your password to do this.")
    return actor
