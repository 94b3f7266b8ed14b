"""CryptoJS passphrase AES, as the spec's own client uses it for the envelope ({"encryptedData": ...} in,
{"encryptedResponse": ...} out): base64 of b"Salted__" + an 8-byte salt + AES-256-CBC ciphertext (PKCS#7), the key
and IV drawn from the passphrase by OpenSSL's EVP_BytesToKey (MD5, one round).

The same few lines as the console's app/web/client_envelope.py, written again on purpose: this package is installed
without the console, so it cannot import `app`, and no maintained package does this format (EVP_BytesToKey is a
weak KDF that `cryptography` leaves out). tests/test_python_client.py checks that each side reads the other's text.
It is compatibility with that client, not security: the key is shared with every browser; TLS protects the traffic.
"""

from __future__ import annotations

import base64
import hashlib
import os

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

_MAGIC = b"Salted__"


def _key_and_iv(passphrase: bytes, salt: bytes) -> tuple[bytes, bytes]:
    derived, block = b"", b""
    while len(derived) < 48:
        block = hashlib.md5(block + passphrase + salt, usedforsecurity=False).digest()
        derived += block
    return derived[:32], derived[32:48]


def encrypt(plaintext: str, passphrase: str) -> str:
    """What CryptoJS.AES.encrypt(plaintext, passphrase).toString() gives."""
    salt = os.urandom(8)
    key, iv = _key_and_iv(passphrase.encode(), salt)
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plaintext.encode()) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return base64.b64encode(_MAGIC + salt + encryptor.update(padded) + encryptor.finalize()).decode("ascii")


def decrypt(ciphertext: str, passphrase: str) -> str:
    """The text CryptoJS encrypted; ValueError when it is not this passphrase's "Salted__" ciphertext."""
    raw = base64.b64decode(ciphertext, validate=True)
    if not raw.startswith(_MAGIC) or len(raw) < 32 or (len(raw) - 16) % 16:
        raise ValueError('not a CryptoJS ciphertext ("Salted__" and whole AES blocks)')
    key, iv = _key_and_iv(passphrase.encode(), raw[8:16])
    decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    unpadder = padding.PKCS7(128).unpadder()
    padded = decryptor.update(raw[16:]) + decryptor.finalize()
    return (unpadder.update(padded) + unpadder.finalize()).decode("utf-8")
