"""Card top-ups through Stripe Checkout (the spec's `payment/stripe`).

Off unless DSP_STRIPE_SECRET_KEY and DSP_STRIPE_WEBHOOK_SECRET are set. A top-up is a Checkout Session
(mode payment, USD) carrying the advertiser's id in its metadata; the money is credited only when Stripe's
signed webhook says the session is paid, as a deposit whose reference is the session id, so a webhook that
Stripe delivers again (it does, on any doubt) credits nothing more.
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import urlsplit

import stripe
from sqlmodel import Session

from app.access.policy import Actor, require
from app.funds import service as funds
from app.funds.schemas import CheckoutStarted, WebhookResult
from app.kernel.config import get_settings
from app.kernel.errors import Conflict, Invalid, NotFound, ServiceError

logger = logging.getLogger(__name__)

NOT_CONFIGURED = "Card payments are not set up on this console."
PROVIDER_DOWN = "The card payment service could not be reached. Please try again."
BAD_SIGNATURE = "The webhook signature is not valid."
PAID_EVENTS = ("checkout.session.completed", "checkout.session.async_payment_succeeded")
MICROS_PER_CENT = 10_000
STRIPE_TIMEOUT_S = 30  # below the spec's 60 s client timeout, so a slow Stripe fails before the caller gives up


class BadRequest(ServiceError):
    code = 400


class ProviderUnavailable(ServiceError):
    code = 502


def enabled() -> bool:
    return get_settings().stripe_enabled


def _client() -> stripe.StripeClient:
    settings = get_settings()
    if not settings.stripe_enabled:
        raise Conflict(NOT_CONFIGURED)
    return stripe.StripeClient(settings.stripe_secret_key, base_addresses={"api": settings.stripe_api_base},
                               max_network_retries=2, http_client=stripe.RequestsClient(timeout=STRIPE_TIMEOUT_S))


def _return_url(return_url: str, outcome: str) -> str:
    separator = "&" if "?" in return_url else "?"
    # Stripe replaces {CHECKOUT_SESSION_ID} itself; the page only needs to know how the payment ended.
    return f"{return_url}{separator}payment={outcome}" + ("&session_id={CHECKOUT_SESSION_ID}"
                                                          if outcome == "success" else "")


def start_card_payment(db: Session, *, actor: Actor, amount: str, return_url: str,
                       advertiser_id: int | None = None) -> CheckoutStarted:
    """A Stripe Checkout Session paying `amount` dollars into an advertiser's balance (its own for an
    advertiser; one in scope for an agency or staff): its id and url. The browser goes to `url`; Stripe sends it
    back to `return_url` (an absolute http(s) URL of this console) with ?payment=success or ?payment=cancelled."""
    require(actor, "funds", "card")
    if not enabled():
        raise Conflict(NOT_CONFIGURED)
    advertiser = funds.advertiser_in_scope(db, actor, actor.id if advertiser_id is None else advertiser_id)
    if advertiser is None or advertiser.id is None:
        raise NotFound("User not found.")
    value, problem = funds.nonzero_amount(amount)
    if problem is None and value is not None and value < funds.MIN_CARD_PAYMENT:
        problem = funds.CARD_MINIMUM
    if problem:
        raise Invalid({"amount": problem})
    assert value is not None
    parts = urlsplit(return_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise Invalid({"return_url": "Please enter a valid URL."})
    cents = int(value * 100)
    params: dict[str, Any] = {
        "mode": "payment",
        "line_items": [{"quantity": 1, "price_data": {"currency": "usd", "unit_amount": cents,
                                                      "product_data": {"name": "Advertising balance top-up"}}}],
        "client_reference_id": str(advertiser.id),
        "customer_email": advertiser.email,
        "metadata": {"advertiser_id": str(advertiser.id), "started_by": str(actor.real_user_id)},
        "success_url": _return_url(return_url, "success"),
        "cancel_url": _return_url(return_url, "cancelled"),
    }
    try:
        session = _client().v1.checkout.sessions.create(params=params)  # type: ignore[arg-type]  # stripe types params as a TypedDict
    except stripe.StripeError as error:
        logger.error("Stripe refused or did not answer a checkout for advertiser %s: %s", advertiser.id, error)
        raise ProviderUnavailable(PROVIDER_DOWN) from error
    return CheckoutStarted(id=str(session.id), url=str(session.url))


def checkout_url(db: Session, *, actor: Actor, session_id: str) -> str:
    """Where to send the browser for an open Checkout Session of an advertiser in the actor's scope (the
    pages reach Stripe through this same-origin redirect). Another tenant's session answers not found."""
    require(actor, "funds", "card")
    try:
        session = _client().v1.checkout.sessions.retrieve(session_id)
    except stripe.InvalidRequestError as error:
        raise NotFound("Payment not found.") from error
    except stripe.StripeError as error:
        raise ProviderUnavailable(PROVIDER_DOWN) from error
    data = session.to_dict()  # a StripeObject is not a dict
    metadata = data.get("metadata") or {}
    if funds.advertiser_in_scope(db, actor, metadata.get("advertiser_id")) is None or not data.get("url"):
        raise NotFound("Payment not found.")
    return str(data["url"])


def handle_webhook(db: Session, *, payload: bytes, signature: str) -> WebhookResult:
    """Stripe's webhook: verify the signature (a bad one: 400, nothing written), then credit a paid checkout
    once. The event's type, and the entry credited (None: nothing was)."""
    settings = get_settings()
    if not settings.stripe_enabled:
        raise Conflict(NOT_CONFIGURED)
    try:
        stripe.Webhook.construct_event(payload, signature, settings.stripe_webhook_secret)
    except (ValueError, stripe.SignatureVerificationError) as error:
        logger.warning("Stripe webhook refused: %s", error)
        raise BadRequest(BAD_SIGNATURE) from error
    event = json.loads(payload)  # verified above; plain dicts are easier to read than StripeObjects
    kind = str(event.get("type", ""))
    session = (event.get("data") or {}).get("object") or {}
    if kind not in PAID_EVENTS or session.get("payment_status") != "paid" or session.get("currency") != "usd":
        return WebhookResult(event=kind, credited=None)
    metadata = session.get("metadata") or {}
    try:
        advertiser_id = int(metadata.get("advertiser_id", ""))
    except (TypeError, ValueError):
        logger.error("paid checkout %s has no advertiser id in its metadata", session.get("id"))
        return WebhookResult(event=kind, credited=None)
    amount_micros = int(session.get("amount_total") or 0) * MICROS_PER_CENT
    entry_id = funds.credit_card_payment(db, advertiser_id=advertiser_id, amount_micros=amount_micros,
                                         reference=str(session["id"]), note="Card payment (Stripe)")
    return WebhookResult(event=kind, credited=entry_id)
