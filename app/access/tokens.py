"""Bearer JWTs for API clients. A token names its server-side session, so logout revokes it."""

from __future__ import annotations

from datetime import datetime

import jwt

from app.kernel.config import get_settings
from app.kernel.errors import NotAuthenticated

ALGORITHM = "HS256"
AUDIENCE = "dsp-console-api"


def issue(*, session_id: str, user_id: int, role: str, issued_at: datetime, expires_at: datetime) -> str:
    claims = {"sid": session_id, "sub": str(user_id), "role": role, "aud": AUDIENCE,
              "iat": int(issued_at.timestamp()), "exp": int(expires_at.timestamp())}
    return jwt.encode(claims, get_settings().secret_key, algorithm=ALGORITHM)


def session_id_of(token: str) -> str:
    try:
        claims = jwt.decode(token, get_settings().secret_key, algorithms=[ALGORITHM], audience=AUDIENCE)
    except jwt.ExpiredSignatureError as error:
        raise NotAuthenticated("Your token has expired. Please log in again.") from error
    except jwt.PyJWTError as error:
        raise NotAuthenticated("Invalid token.") from error
    return str(claims["sid"])
