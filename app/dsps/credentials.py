"""Encryption at rest of DSP credentials (Fernet: AES-128-CBC with an HMAC-SHA256, from `cryptography`).

The key. By default it is derived from settings.secret_key with HKDF-SHA256 (its own `info` label, so it is a
different key from anything else made from that secret): an install keeps one secret, which production already
refuses to start without, and nothing new can be forgotten on a second server. DSP_CREDENTIALS_KEY (a Fernet key,
`Fernet.generate_key()`) separates the two, so the token-signing secret can be rotated without making stored DSP
credentials unreadable. With it set, new credentials are encrypted with it and old ones, made with the derived key,
still decrypt (MultiFernet): re-saving a DSP's credentials moves them to the new key.

Plain credentials exist only in memory for the duration of one call to a DSP; nothing returns them to a page or
an API caller.
"""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from app.kernel.config import get_settings

_HKDF_INFO = b"dsp-console/dsp-credentials/v1"


class CredentialsUnreadable(Exception):
    """The stored credentials do not decrypt with the configured keys (the secret changed)."""


def derived_key(secret: str) -> bytes:
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_HKDF_INFO).derive(secret.encode("utf-8"))
    return base64.urlsafe_b64encode(raw)


@lru_cache(maxsize=4)
def _cipher(secret: str, separate_key: str) -> MultiFernet:
    keys = [Fernet(separate_key.encode("ascii"))] if separate_key else []
    keys.append(Fernet(derived_key(secret)))
    return MultiFernet(keys)


def cipher() -> MultiFernet:
    settings = get_settings()
    return _cipher(settings.secret_key, settings.dsp_credentials_key.strip())


def encrypt(plain: str) -> str:
    return cipher().encrypt(plain.encode("utf-8")).decode("ascii")


def decrypt(token: str) -> str:
    try:
        return cipher().decrypt(token.encode("ascii")).decode("utf-8")
    except (InvalidToken, ValueError) as error:
        raise CredentialsUnreadable("The stored credentials cannot be decrypted; enter them again.") from error
