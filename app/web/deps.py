"""Request-scoped dependencies: a database unit of work and the authenticated actor."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel import Session

from app.access import api_keys, key_scopes, sessions, tokens
from app.access.policy import Actor, require_signed_in
from app.kernel import log_context
from app.kernel.db import get_engine, on_threads
from app.kernel.errors import Forbidden, NotAuthenticated
from app.web import cookie_writes

# A call's commit (or rollback) runs on threads of its own, not on the pool FastAPI runs routes and dependencies on.
# There, under a burst of writes, every thread could be taken by calls waiting for a database connection or for their
# turn to write, while the calls holding those waited for a thread to commit on: all stalled until the pool's timeout
# (50 writes at once, issue 38). Ending a unit of work never waits for a thread that a waiting call holds.
_ENDINGS = ThreadPoolExecutor(max_workers=8, thread_name_prefix="db-end")


async def _ending(step: Callable[[], None]) -> None:
    await on_threads(_ENDINGS, step)


async def get_db() -> AsyncIterator[Session]:
    db = Session(get_engine(), expire_on_commit=False)
    try:
        yield db
        await _ending(db.commit)
    except BaseException:
        await _ending(db.rollback)
        raise
    finally:
        await _ending(db.close)


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
                    "the user's settings page; valid until revoked). A key has the scope chosen when it was made: "
                    + "; ".join(f"`{scope}`: {what}" for scope, what in key_scopes.WHAT_EACH_ALLOWS.items())
                    + ". A call outside the key's scope answers 403 naming the scope. No key can change sign-in "
                    "credentials (e-mail, password, second factor, the sign-in policy) or manage API keys: those "
                    "need the login token or the browser session.")
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
    elif token:
        actor = sessions.actor_for(db, sessions.find_by_id(db, session_id=tokens.session_id_of(token)))
    else:
        cookie_writes.require_own_origin(request)  # a same-site page's write carries the cookie too
        actor = sessions.resolve(db, token=request.cookies.get(sessions.SESSION_COOKIE))
    if actor is None:
        raise NotAuthenticated("Your session has ended. Please log in again.")
    # The sign-in check is a unit of its own: end it, so its connection goes back to the pool while the call waits
    # for a thread to run its route on (the route's first query takes one again), and a key's last use is kept even
    # when the call itself then fails (outside its scope, say).
    db.commit()
    if actor.by_key:
        _hold_to_scope(request, actor)
    log_context.bind(user_id=actor.id)  # the request's log lines name who made it
    return actor


def _hold_to_scope(request: Request, actor: Actor) -> None:
    """Refuse a key's call outside its scope, here where every authenticated call passes (the route FastAPI
    matched carries its tags; a route outside the API has none and is known by its path)."""
    route = request.scope.get("route")
    refused = key_scopes.refusal(actor.key_scope or "", method=request.method, tags=getattr(route, "tags", None) or (),
                                 path=getattr(route, "path", request.url.path))
    if refused:
        raise Forbidden(refused)


def get_signed_in_actor(actor: Actor = Depends(get_actor)) -> Actor:
    """The caller, signed in with a password (login token or browser session), not an API key: a leaked key
    must not be able to mint more keys for itself, nor change the credentials of the account (the services
    check it again: policy.require_signed_in)."""
    return require_signed_in(actor)
