"""Card top-ups through Stripe Checkout, against a local fake Stripe over real HTTP: the checkout asked for, the
signed webhook crediting once, a replay or a forged signature adding nothing, and other tenants out of reach."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from app.kernel.config import get_settings
from tests.fake_stripe import FakeStripe, fake_stripe, sign
from tests.helpers import bearer_headers, other_tenant

SECRET_KEY, WEBHOOK_SECRET = "sk_test_fake_console", "whsec_fake_console"
ADVERTISER, AGENCY, ADMIN = "advertiser@demo.example", "agency@demo.example", "admin@demo.example"


@pytest.fixture
def stripe_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeStripe]:
    settings = get_settings()
    with fake_stripe(SECRET_KEY) as fake:
        monkeypatch.setattr(settings, "stripe_secret_key", SECRET_KEY)
        monkeypatch.setattr(settings, "stripe_webhook_secret", WEBHOOK_SECRET)
        monkeypatch.setattr(settings, "stripe_api_base", fake.base_url)
        yield fake


def balance(client: TestClient, headers: dict[str, str], advertiser_id: int) -> str:
    reply = client.get(f"/api/funds/{advertiser_id}/balance", headers=headers)
    assert reply.status_code == 200, reply.text
    return reply.json()["data"]["balance"]


def deliver(client: TestClient, payload: bytes, signature: str) -> tuple[int, dict]:
    reply = client.post("/api/payment/stripe/webhook", content=payload,
                        headers={"Stripe-Signature": signature, "Content-Type": "application/json"})
    return reply.status_code, reply.json()


def test_card_payments_are_off_until_keys_are_set(client: TestClient) -> None:
    headers = bearer_headers(client, ADVERTISER)
    reply = client.post("/api/payment/stripe", json={"amount": "50.00"}, headers=headers)
    assert reply.status_code == 409 and reply.json()["message"] == "Card payments are not set up on this console."
    payload = b'{"type": "checkout.session.completed"}'
    assert client.post("/api/payment/stripe/webhook", content=payload,
                       headers={"Stripe-Signature": sign(payload, WEBHOOK_SECRET)}).status_code == 409


def test_an_advertiser_pays_by_card_and_is_credited_exactly_once(client: TestClient, stripe_server: FakeStripe,
                                                                 demo_ids: dict[str, int]) -> None:
    headers = bearer_headers(client, ADVERTISER)
    advertiser_id = demo_ids[ADVERTISER]
    reply = client.post("/api/payment/stripe", json={"amount": "500.25", "return_url": "http://testserver/funds"},
                        headers=headers)
    assert reply.status_code == 200, reply.text
    started = reply.json()["data"]
    assert started["url"].startswith("https://checkout.stripe.test/") and started["id"].startswith("cs_test_")
    asked = stripe_server.requests[-1]
    assert asked["mode"] == "payment" and asked["metadata"]["advertiser_id"] == str(advertiser_id)
    assert asked["line_items"]["0"]["price_data"]["unit_amount"] == "50025"
    assert asked["line_items"]["0"]["price_data"]["currency"] == "usd"
    assert asked["success_url"].startswith("http://testserver/funds?payment=success")
    assert asked["cancel_url"] == "http://testserver/funds?payment=cancelled"
    assert balance(client, headers, advertiser_id) == "5000.00"  # nothing before Stripe confirms

    # The same-origin redirect the page uses to leave for Stripe.
    redirect = client.get(f"/api/payment/stripe/checkout/{started['id']}", headers=headers, follow_redirects=False)
    assert redirect.status_code == 303 and redirect.headers["location"] == started["url"]

    payload = stripe_server.paid_event(started["id"])
    status, body = deliver(client, payload, sign(payload, WEBHOOK_SECRET))
    assert status == 200 and body["data"]["credited"]
    assert balance(client, headers, advertiser_id) == "5500.25"
    for _ in range(2):  # Stripe delivers again when in doubt
        status, body = deliver(client, payload, sign(payload, WEBHOOK_SECRET))
        assert status == 200 and body["data"]["credited"] is None
    assert balance(client, headers, advertiser_id) == "5500.25"
    ledger = client.get(f"/api/funds/{advertiser_id}/ledger", headers=headers).json()["data"]["items"]
    assert [(row["kind"], row["amount"]) for row in ledger[:2]] == [("deposit", "500.25"), ("deposit", "5000.00")]


def test_a_forged_or_unsigned_webhook_writes_nothing(client: TestClient, stripe_server: FakeStripe,
                                                     demo_ids: dict[str, int]) -> None:
    headers = bearer_headers(client, ADVERTISER)
    started = client.post("/api/payment/stripe", json={"amount": "75"}, headers=headers).json()["data"]
    payload = stripe_server.paid_event(started["id"])
    for signature in (sign(payload, "whsec_someone_else"), "", "t=1,v1=00",
                      sign(payload, WEBHOOK_SECRET, timestamp=1_000_000)):  # the last: a stale replay
        status, body = deliver(client, payload, signature)
        assert status == 400 and body["message"] == "The webhook signature is not valid."
    tampered = payload.replace(b'"amount_total": 7500', b'"amount_total": 750000')
    assert tampered != payload
    assert deliver(client, tampered, sign(payload, WEBHOOK_SECRET))[0] == 400
    assert balance(client, headers, demo_ids[ADVERTISER]) == "5000.00"


def test_other_tenants_cannot_pay_into_or_open_a_payment(client: TestClient, stripe_server: FakeStripe,
                                                         demo_ids: dict[str, int]) -> None:
    from app.kernel.db import session_scope

    with session_scope() as db:
        _rival_agency, rival_advertiser = other_tenant(db)
        rival_id = rival_advertiser.id
    agency = bearer_headers(client, AGENCY)
    refused = client.post("/api/payment/stripe", json={"amount": "10", "advertiser_id": rival_id}, headers=agency)
    assert refused.status_code == 404 and not stripe_server.requests
    # The agency may pay into its own advertiser's balance.
    own = client.post("/api/payment/stripe", json={"amount": "10", "advertiser_id": demo_ids[ADVERTISER]},
                      headers=agency)
    assert own.status_code == 200, own.text
    rival = bearer_headers(client, "rival-agency@other.example")
    peek = client.get(f"/api/payment/stripe/checkout/{own.json()['data']['id']}", headers=rival,
                      follow_redirects=False)
    assert peek.status_code == 404
    elsewhere = client.post("/api/payment/stripe", json={"amount": "10", "return_url": "https://evil.example/x"},
                            headers=bearer_headers(client, ADVERTISER))
    assert elsewhere.status_code == 422 and "return_url" in elsewhere.json()["data"]["fields"]


@pytest.mark.parametrize(("amount", "message"), [("0.25", "Card payments start at 0.50."),
                                                 ("12.345", "Enter an amount with at most two decimals."),
                                                 ("-5", "Card payments start at 0.50.")])
def test_card_amounts_are_checked_before_stripe_is_asked(client: TestClient, stripe_server: FakeStripe,
                                                         amount: str, message: str) -> None:
    reply = client.post("/api/payment/stripe", json={"amount": amount}, headers=bearer_headers(client, ADVERTISER))
    assert reply.status_code == 422 and reply.json()["data"]["fields"] == {"amount": message}
    assert not stripe_server.requests
