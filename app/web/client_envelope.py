"""The spec's client envelope (spec section 7): a POST, PUT or PATCH body may arrive as {"encryptedData": "..."}
and is then answered as {"encryptedResponse": "..."}.

The spec's client encrypts with a key fixed in its own code, the way React clients commonly use CryptoJS:
`CryptoJS.AES.encrypt(JSON.stringify(body), key).toString()`, a passphrase, not a key. That is OpenSSL's
"Salted__" format: base64 of b"Salted__" + an 8-byte salt + AES-256-CBC ciphertext (PKCS#7 padding), the key and
IV drawn from the passphrase and salt by OpenSSL's EVP_BytesToKey with MD5, one round.

This is compatibility with that client, not security: its key ships inside every browser that runs it, so
anyone can read and forge these bodies. TLS protects the traffic; the bearer token authorises it. The envelope
is off unless DSP_CLIENT_ENVELOPE_KEY is set, and plain JSON keeps working beside it.

Written here rather than taken from a library: no maintained Python package does CryptoJS's passphrase format
(EVP_BytesToKey is not in `cryptography`, deliberately: it is a weak KDF); the cipher itself is `cryptography`'s.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from typing import Any

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.kernel.config import get_settings
from app.web.envelope import error_reply

FIELD = "encryptedData"
REPLY_FIELD = "encryptedResponse"
_MAGIC = b"Salted__"
_WRAPPED_METHODS = frozenset({"POST", "PUT", "PATCH"})


class EnvelopeUnreadable(ValueError):
    """An encryptedData value that is not this key's CryptoJS ciphertext of a JSON text."""


def _key_and_iv(passphrase: bytes, salt: bytes) -> tuple[bytes, bytes]:
    """OpenSSL's EVP_BytesToKey (MD5, one round) for AES-256-CBC: 32 bytes of key, then 16 of IV."""
    derived, block = b"", b""
    while len(derived) < 48:
        block = hashlib.md5(block + passphrase + salt, usedforsecurity=False).digest()
        derived += block
    return derived[:32], derived[32:48]


def encrypt(plaintext: str, passphrase: str, *, salt: bytes | None = None) -> str:
    """What CryptoJS.AES.encrypt(plaintext, passphrase).toString() gives (a random salt unless one is given)."""
    salt = os.urandom(8) if salt is None else salt
    key, iv = _key_and_iv(passphrase.encode(), salt)
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plaintext.encode()) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return base64.b64encode(_MAGIC + salt + encryptor.update(padded) + encryptor.finalize()).decode("ascii")


def decrypt(ciphertext: str, passphrase: str) -> str:
    """The text CryptoJS encrypted; EnvelopeUnreadable when it is not this passphrase's "Salted__" ciphertext."""
    try:
        raw = base64.b64decode(ciphertext, validate=True)
    except (binascii.Error, ValueError) as error:
        raise EnvelopeUnreadable("is not base64") from error
    if not raw.startswith(_MAGIC) or len(raw) < 32 or (len(raw) - 16) % 16:
        raise EnvelopeUnreadable('is not a CryptoJS ciphertext ("Salted__" and whole AES blocks)')
    key, iv = _key_and_iv(passphrase.encode(), raw[8:16])
    decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    padded = decryptor.update(raw[16:]) + decryptor.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    try:
        return (unpadder.update(padded) + unpadder.finalize()).decode("utf-8")
    except (ValueError, UnicodeDecodeError) as error:  # a wrong key gives bad padding or bytes that are no text
        raise EnvelopeUnreadable("does not decrypt with this server's client key") from error


def _unwrapped(body: bytes, passphrase: str) -> bytes | None:
    """The JSON body inside an {"encryptedData": ...} body; None for any other body (sent on as it came)."""
    try:
        parsed: Any = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(parsed, dict) or set(parsed) != {FIELD}:
        return None
    if not isinstance(parsed[FIELD], str):
        raise EnvelopeUnreadable("must be a string")
    text = decrypt(parsed[FIELD], passphrase)
    try:
        json.loads(text)
    except ValueError as error:
        raise EnvelopeUnreadable("does not hold a JSON text") from error
    return text.encode()


def _refusal(reason: str) -> JSONResponse:
    """A 400 in the API's error shape, the field named as a 422 names it."""
    message = f"{FIELD} {reason}."
    return error_reply(400, message, {"fields": {FIELD: message}})


class ClientEnvelope:
    """ASGI middleware for the API: unwraps an encryptedData body before the route reads it, and wraps that
    request's JSON reply as encryptedResponse. Other requests pass untouched (bodies are read only for the
    three methods with a JSON content type)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        passphrase = get_settings().client_envelope_key
        if not passphrase or scope["type"] != "http" or scope["method"] not in _WRAPPED_METHODS or \
                not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        try:
            inner = _unwrapped(body, passphrase)
        except EnvelopeUnreadable as error:
            await _refusal(str(error))(scope, receive, send)
            return
        replay = inner if inner is not None else body
        delivered = False

        async def replayed() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()  # after the body: the disconnect, when it comes
            delivered = True
            return {"type": "http.request", "body": replay, "more_body": False}

        if inner is None:
            await self.app(scope, replayed, send)
            return
        await self.app(scope, replayed, _EncryptingSend(send, passphrase))


def _is_json(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":
            return bool(value.split(b";")[0].strip().lower() == b"application/json")
    return False


class _EncryptingSend:
    """Holds a JSON reply until its last chunk and sends it as {"encryptedResponse": ...}; any other reply (a
    file, a stream) goes out as it is."""

    def __init__(self, send: Send, passphrase: str) -> None:
        self.send = send
        self.passphrase = passphrase
        self.start: Message | None = None
        self.chunks: list[bytes] = []

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            kinds = [value for name, value in message.get("headers", []) if name == b"content-type"]
            if not kinds or kinds[0].split(b";")[0].strip() != b"application/json":
                self.start = None
                await self.send(message)
                return
            self.start = message
            return
        if message["type"] != "http.response.body" or self.start is None:
            await self.send(message)
            return
        self.chunks.append(message.get("body", b""))
        if message.get("more_body"):
            return
        wrapped = json.dumps({REPLY_FIELD: encrypt(b"".join(self.chunks).decode("utf-8"), self.passphrase)}).encode()
        headers = [(name, value) for name, value in self.start.get("headers", [])
                   if name not in (b"content-length", b"content-encoding")]
        await self.send({**self.start, "headers": [*headers, (b"content-length", str(len(wrapped)).encode())]})
        await self.send({"type": "http.response.body", "body": wrapped})
