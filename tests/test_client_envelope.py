"""The spec's client envelope (section 7, issue 26): with DSP_CLIENT_ENVELOPE_KEY set, a POST, PUT or PATCH body
may come as {"encryptedData"} in CryptoJS's passphrase format and is answered as {"encryptedResponse"}; plain JSON
keeps working; a body that does not decrypt is refused naming the field, and changes nothing."""

from __future__ import annotations

import json

import pytest

from app.demo.seed import DEMO_PASSWORD
from app.kernel.config import get_settings
from app.web import client_envelope
from tests.helpers import bearer_headers

KEY = "spec-client-key-2026"
BODY = '{"name":"Café ☕ campaign","budget":12.5,"ids":[1,2,3]}'
# Made by crypto-js 4.2.0 in Node: CryptoJS.AES.encrypt(BODY, KEY).toString() (a random salt)...
FROM_CRYPTOJS = ("U2FsdGVkX1+Y6evpuCZkqVFa+GTKJ0HY6UeNdXuCxW/NGsmppJCPmLOZ3jcuCr0GQehj7AgVkzZylTexuKvoXYAmAvf9699qMnR3Z3"
                 "NUP2M=")
# ... and with the salt 0011223344556677 given to CryptoJS.kdf.OpenSSL.execute, formatted by format.OpenSSL.
WITH_SALT = ("U2FsdGVkX18AESIzRFVmd9MNXEdBNM0cWtHmEs2Lza6Lbmz56qHuFPohuAnCwUF3nRz2e8QjkLgTfWO+8avE/EETxn1a05wb+jc/Qd"
             "fcu5o=")


def test_the_cipher_is_cryptojs_passphrase_aes() -> None:
    assert client_envelope.decrypt(FROM_CRYPTOJS, KEY) == BODY
    assert client_envelope.encrypt(BODY, KEY, salt=bytes.fromhex("0011223344556677")) == WITH_SALT
    made = client_envelope.encrypt(BODY, KEY)
    assert made != client_envelope.encrypt(BODY, KEY)  # a fresh salt each time, as CryptoJS does
    assert client_envelope.decrypt(made, KEY) == BODY
    for broken in ("not base64!", "aGVsbG8=", FROM_CRYPTOJS[:-8] + "AAAAAAA="):
        with pytest.raises(client_envelope.EnvelopeUnreadable):
            client_envelope.decrypt(broken, KEY)
    with pytest.raises(client_envelope.EnvelopeUnreadable):
        client_envelope.decrypt(FROM_CRYPTOJS, "another key")


@pytest.fixture
def envelope_key(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(get_settings(), "client_envelope_key", KEY)


def sealed(body: dict[str, object]) -> dict[str, str]:
    return {"encryptedData": client_envelope.encrypt(json.dumps(body), KEY)}


def opened(reply) -> dict[str, object]:  # type: ignore[no-untyped-def]
    assert set(reply.json()) == {"encryptedResponse"}, reply.text
    return json.loads(client_envelope.decrypt(reply.json()["encryptedResponse"], KEY))  # type: ignore[no-any-return]


def test_the_spec_client_signs_in_and_saves_through_the_envelope(client, envelope_key) -> None:
    login = client.post("/api/auth/login/", json=sealed({"email": "advertiser@demo.example", "password": DEMO_PASSWORD}))
    assert login.status_code == 200
    answer = opened(login)
    assert answer["success"] is True and answer["data"]["token"]  # type: ignore[index]
    headers = {"Authorization": f"Bearer {answer['data']['token']}"}  # type: ignore[index]
    saved = client.patch("/api/auth/profile", json=sealed({"companyName": "Envelope Foods"}), headers=headers)
    assert opened(saved)["data"]["company_name"] == "Envelope Foods"  # type: ignore[index]
    # Replies to GET are never wrapped (the client sends no body there), and the change is saved.
    profile = client.get("/api/auth/profile", headers=headers).json()
    assert profile["data"]["company_name"] == "Envelope Foods"
    # A refusal inside the envelope is wrapped too, with its status.
    wrong = client.post("/api/auth/login/", json=sealed({"email": "advertiser@demo.example", "password": "nope-123"}))
    assert wrong.status_code == 401 and opened(wrong)["success"] is False


def test_plain_json_keeps_working_beside_the_envelope(client, envelope_key) -> None:
    headers = bearer_headers(client, "advertiser@demo.example")
    plain = client.patch("/api/auth/profile", json={"companyName": "Plain Foods"}, headers=headers)
    assert plain.status_code == 200 and plain.json()["data"]["company_name"] == "Plain Foods"


def test_a_body_that_does_not_decrypt_is_refused_naming_the_field_and_saves_nothing(client, envelope_key) -> None:
    headers = bearer_headers(client, "advertiser@demo.example")
    before = client.get("/api/auth/profile", headers=headers).json()["data"]
    forged = {"encryptedData": client_envelope.encrypt(json.dumps({"companyName": "Forged"}), "the wrong key")}
    for body in (forged, {"encryptedData": "plain text"}, {"encryptedData": 42},
                 {"encryptedData": client_envelope.encrypt("not json", KEY)}):
        reply = client.patch("/api/auth/profile", json=body, headers=headers)
        assert reply.status_code == 400, body
        assert reply.json()["success"] is False and list(reply.json()["data"]["fields"]) == ["encryptedData"]
        assert reply.json()["message"].startswith("encryptedData ")
    assert client.get("/api/auth/profile", headers=headers).json()["data"] == before


def test_without_the_key_the_envelope_is_not_read(client) -> None:
    assert not get_settings().client_envelope_key
    reply = client.post("/api/auth/login/", json=sealed({"email": "advertiser@demo.example", "password": DEMO_PASSWORD}))
    assert reply.status_code == 422 and "encryptedResponse" not in reply.json()
