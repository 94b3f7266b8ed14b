"""Encryption at rest of DSP credentials (app/kernel/sealed.py: Fernet, a key derived from settings.secret_key
for this purpose alone).

DSP_CREDENTIALS_KEY (a Fernet key, `Fernet.generate_key()`) separates the two, so the token-signing secret can be
rotated without making stored DSP credentials unreadable. With it set, new credentials are encrypted with it and
old ones, made with the derived key, still decrypt (MultiFernet): re-saving a DSP's credentials moves them to the
new key.

Plain credentials exist only in memory for the duration of one call to a DSP; nothing returns them to a page or
an API caller.
"""

from __future__ import annotations

from app.kernel import sealed
from app.kernel.config import get_settings

PURPOSE = "dsp-credentials"  # the HKDF label keys made before app/kernel/sealed.py existed used: they still open


class CredentialsUnreadable(Exception):
    """The stored credentials do not decrypt with the configured keys (the secret changed)."""


def encrypt(plain: str) -> str:
    return sealed.seal(plain, PURPOSE, separate_key=get_settings().dsp_credentials_key)


def decrypt(token: str) -> str:
    try:
        return sealed.unseal(token, PURPOSE, separate_key=get_settings().dsp_credentials_key)
    except sealed.Unreadable as error:
        raise CredentialsUnreadable("The stored credentials cannot be decrypted; enter them again.") from error
