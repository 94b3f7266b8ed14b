"""Encryption at rest of secrets the server must read back (a DSP's API key, a user's TOTP secret): Fernet
(AES-128-CBC with an HMAC-SHA256, from `cryptography`).

Each purpose has its own key, derived from settings.secret_key with HKDF-SHA256 and the purpose as its `info`
label: an install keeps one secret (production refuses to start without it), and a key leaked for one purpose
opens nothing else. A purpose may also be given a separate Fernet key (DSP_CREDENTIALS_KEY for DSP
credentials): new values are sealed with it and old ones, sealed with the derived key, still open (MultiFernet).
"""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from app.kernel.config import get_settings


class Unreadable(Exception):
    """A sealed value does not open with the configured keys (the secret changed)."""


def derived_key(secret: str, purpose: str) -> bytes:
    info = f"dsp-console/{purpose}/v1".encode()
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret.encode("utf-8"))
    return base64.urlsafe_b64encode(raw)


@lru_cache(maxsize=8)
def _cipher(secret: str, purpose: str, separate_key: str) -> MultiFernet:
    keys = [Fernet(separate_key.encode("ascii"))] if separate_key else []
    keys.append(Fernet(derived_key(secret, purpose)))
    return MultiFernet(keys)


def seal(plain: str, purpose: str, *, separate_key: str = "") -> str:
    return _cipher(get_settings().secret_key, purpose, separate_key.strip()).encrypt(plain.encode("utf-8")).decode("ascii")


def unseal(token: str, purpose: str, *, separate_key: str = "") -> str:
    try:
        return _cipher(get_settings().secret_key, purpose, separate_key.strip()).decrypt(token.encode("ascii")).decode("utf-8")
    except (InvalidToken, ValueError) as error:
        raise Unreadable(purpose) from error
