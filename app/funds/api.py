"""Funds over the API: balances, ledgers, staff top-ups and card payments (Stripe). The same service calls as
the funds pages, so the same permission and row scope: another tenant's advertiser answers 404."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.responses import RedirectResponse
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.access.policy import Actor
from app.funds import card_payments, ledger, transfers
from app.funds import service as funds
from app.funds.ledger import LedgerRow
from app.funds.schemas import (
    BalanceRead,
    CardPaymentCreate,
    CheckoutStarted,
    FundsAdd,
    FundsAdded,
    FundsRow,
    FundsTransfer,
    FundsTransferred,
    LedgerEntryRead,
    WebhookResult,
)
from app.kernel.errors import Invalid
from app.kernel.paging import Page
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, created, error_response, reply
from app.web.paging import PageQuery, page_query

router = APIRouter(tags=["funds"])

OVERVIEW_HELP = ("Every advertiser you may see (admin and co-admin: all; agency: its advertisers; advertiser: "
                 "itself) with balance, deposits, spend, agency margin (all-time), spend and margin charged this "
                 "month (UTC), the last entry's date and the agency's name. Money is given twice: dollars as text "
                 "(`balance`, \"5000.00\") and integer micro-dollars (`balance_micros`).")
LEDGER_HELP = ("An advertiser's ledger, newest first: date, kind (deposit, spend, margin, refund, adjustment), "
               "campaign_id (the campaign a spend or margin charge paid for; null for other entries and for charges "
               "without a campaign), note, amount and the balance after it, in dollars, and exactly as `amount_micros` and "
               "`balance_micros`. The dollar texts foot: each balance is the exact one rounded to the cent (half a "
               "cent up) and each amount the step from the previous row's shown balance, so previous + amount = "
               "balance on every row and the amounts add up to the balance (an amount may differ from its own "
               "rounding by a cent; the micros are exact).")
GROUPED_HELP = (" With `group=day` (what the funds pages show): each UTC day's delivery charges in one row per "
                "campaign, of kind `delivery` (`date` the day, `campaign_id` and `campaign` its name, both null for "
                "charges without a campaign, `spend`, `margin`, `amount`, `entries`, and `hours`: the row's charges "
                "an hour a line), every other entry a row of its own (`campaign_id` and `campaign` null); each row "
                "with the `balance` after it (the row below's balance plus its amount), money as dollar text "
                "(\"-12.35\") that foots and as exact `..._micros` (a delivery row's and hour's `spend` and `margin` "
                "add up to its `amount`, its hours to the row).")
PAGED_HELP = " A page at a time (`limit`, `cursor`); `total` counts every row."
ADD_HELP = ("Admin and co-admin: a deposit or refund (positive) or an adjustment (positive or negative) on an "
            "advertiser's balance, at most 1,000,000.00 and two decimals. The advertiser is notified. A wrong field "
            "answers 422 naming it in `data.fields` (`advertiser_id`, `kind`, `amount`, `note`).")


def _overview(actor: Actor, db: Session, agency_id: int | None) -> Envelope[list[FundsRow]]:
    return reply(funds.funds_overview(db, actor=actor, agency_id=agency_id))


FUNDS_ADDED = "Funds added"


def _add(body: FundsAdd, actor: Actor, db: Session) -> FundsAdded:
    return funds.add_funds(db, actor=actor, advertiser_id=body.advertiser_id, amount=str(body.amount),
                           kind=body.kind, note=body.note)


@router.get("/funds", summary="Funds overview", description=OVERVIEW_HELP + PAGED_HELP)
def overview(agency_id: int | None = Query(None, description="Only this agency's advertisers; 0: direct ones"),
             paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
             db: Session = DB) -> Envelope[Page[FundsRow]]:
    return reply(funds.funds_page(db, actor=actor, agency_id=agency_id, limit=paging.limit, cursor=paging.cursor))


@router.post("/funds", status_code=201, summary="Add funds", description=ADD_HELP)
def add(body: FundsAdd, response: Response, actor: Actor = Depends(get_actor),
        db: Session = DB) -> Envelope[FundsAdded]:
    # 201 without Location: the new entry is read back in the advertiser's ledger (GET /funds/{id}/ledger).
    return created(response, _add(body, actor, db), FUNDS_ADDED)


TRANSFER_HELP = ("Agency (and staff): move money from one advertiser's balance to another's of the same agency, in one "
                 "transaction: both ledgers get a `transfer` entry naming the other side (\"Transfer to Acme "
                 "Outdoor\"). Never more than the source's balance, however many transfers run at once; a source "
                 "left at 0.00 has its active campaigns paused. Another agency's advertiser answers 422 on its field "
                 "(`from_advertiser_id`, `to_advertiser_id`, `amount`, `note`), as a wrong amount does.")


@router.post("/funds/transfers", status_code=201, summary="Move money between advertisers", description=TRANSFER_HELP)
def transfer(body: FundsTransfer, response: Response, actor: Actor = Depends(get_actor),
             db: Session = DB) -> Envelope[FundsTransferred]:
    # 201 without Location: the entries are read back in both ledgers (GET /funds/{id}/ledger).
    return created(response, transfers.transfer_funds(
        db, actor=actor, from_advertiser_id=body.from_advertiser_id, to_advertiser_id=body.to_advertiser_id,
        amount=str(body.amount), note=body.note), "Money moved")


@router.get("/funds/{advertiser_id}", summary="An advertiser's funds",
            description="One advertiser's figures, as one row of the funds overview.")
def summary(advertiser_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[FundsRow]:
    return reply(funds.funds_summary(db, actor=actor, advertiser_id=advertiser_id))


@router.get("/funds/{advertiser_id}/ledger", summary="An advertiser's ledger", description=LEDGER_HELP + GROUPED_HELP + PAGED_HELP)
def advertiser_ledger(advertiser_id: int, group: Literal["entry", "day"] = Query(
                          "entry", description="`entry`: every entry (the default); `day`: delivery charges a row per campaign and day"),
                      paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
                      db: Session = DB) -> Envelope[Page[LedgerEntryRead] | Page[LedgerRow]]:
    read = ledger.grouped_ledger_page if group == "day" else ledger.payment_history_page
    page: Page[LedgerEntryRead] | Page[LedgerRow] = read(db, actor=actor, advertiser_id=advertiser_id,
                                                         limit=paging.limit, cursor=paging.cursor)
    return reply(page)


@router.get("/funds/{advertiser_id}/balance", summary="An advertiser's balance",
            description="{advertiser_id, balance (dollars as text), balance_micros}.")
def balance(advertiser_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[BalanceRead]:
    return reply(ledger.advertiser_balance(db, actor=actor, advertiser_id=advertiser_id))


# The spec's call names (section 7: admin "fund list and add"; agency "funds, payment history").
@router.get("/admin/fund/list", summary="Fund list (admin)", description="As GET /funds. " + OVERVIEW_HELP)
def admin_fund_list(agency_id: int | None = Query(None, description="Only this agency's advertisers; 0: direct ones"),
                    actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[FundsRow]]:
    return _overview(actor, db, agency_id)


@router.post("/admin/fund/add", summary="Add fund (admin)", description="As POST /funds. " + ADD_HELP)
def admin_fund_add(body: FundsAdd, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[FundsAdded]:
    # A compatibility route (the spec's call name): answers 200, where POST /funds answers 201.
    return reply(_add(body, actor, db), FUNDS_ADDED)


@router.get("/agency/funds", summary="Funds (agency)", description="As GET /funds. " + OVERVIEW_HELP)
def agency_funds(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[FundsRow]]:
    return _overview(actor, db, None)


@router.get("/agency/payment-history/{advertiser_id}", summary="Payment history (agency)",
            description="As GET /funds/{advertiser_id}/ledger. " + LEDGER_HELP)
def agency_payment_history(advertiser_id: int, actor: Actor = Depends(get_actor),
                           db: Session = DB) -> Envelope[list[LedgerEntryRead]]:
    return reply(ledger.payment_history(db, actor=actor, advertiser_id=advertiser_id))


def _origin(request: Request) -> str:
    return f"{request.url.scheme}://{request.headers.get('host', request.url.netloc)}"


@router.post("/payment/stripe", summary="Pay by card (Stripe Checkout)",
             description="Starts a Stripe Checkout payment into an advertiser's balance and answers {id, url}: send "
                         "the payer's browser to `url`. The balance grows when Stripe confirms the payment (its "
                         "webhook), never before. 409 when card payments are not set up on this console.",
             responses={502: error_response(card_payments.PROVIDER_DOWN)})
def stripe_payment(body: CardPaymentCreate, request: Request, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[CheckoutStarted]:
    origin = _origin(request)
    return_url = body.return_url or f"{origin}/"
    if not return_url.startswith(origin + "/"):
        # Stripe sends the payer back there: only to this console, never to a page someone else chose.
        raise Invalid({"return_url": "Please enter a valid URL."})
    return reply(card_payments.start_card_payment(db, actor=actor, amount=str(body.amount), return_url=return_url,
                                                  advertiser_id=body.advertiser_id), "Checkout started")


@router.get("/payment/stripe/checkout/{session_id}", summary="Go to a card payment",
            description="Redirects (303) the browser to an open Stripe Checkout page of an advertiser you may see. "
                        "The funds pages use it to leave for Stripe in the same tab.",
            status_code=303, response_class=RedirectResponse,
            responses={303: {"description": "To the Stripe Checkout page (`Location`)."},
                       502: error_response(card_payments.PROVIDER_DOWN)})
def stripe_checkout(session_id: str, actor: Actor = Depends(get_actor), db: Session = DB) -> RedirectResponse:
    return RedirectResponse(card_payments.checkout_url(db, actor=actor, session_id=session_id), status_code=303)


@router.post("/payment/stripe/webhook", summary="Stripe webhook",
             description="For Stripe only: `checkout.session.completed` (and `async_payment_succeeded`) with "
                         "payment_status paid credits the payment once, whatever the number of deliveries. The "
                         "`Stripe-Signature` header must verify against DSP_STRIPE_WEBHOOK_SECRET, else 400.")
async def stripe_webhook(request: Request, db: Session = DB,
                         stripe_signature: str = Header("", alias="Stripe-Signature")) -> Envelope[WebhookResult]:
    payload = await request.body()  # the exact bytes Stripe signed
    result = await run_in_threadpool(card_payments.handle_webhook, db, payload=payload, signature=stripe_signature)
    return reply(result)


@router.get("/advertisers/{advertiser_id}/balance")
def advertiser_balance_by_id(advertiser_id: int, actor: Actor = Depends(get_actor),
                             db: Session = DB) -> Envelope[BalanceRead]:
    """An advertiser's balance: {advertiser_id, balance (dollars as text), balance_micros}. Advertisers ask for
    their own, agencies for their advertisers'."""
    return reply(ledger.advertiser_balance(db, actor=actor, advertiser_id=advertiser_id))


@router.get("/campaning/getAdvertiserBalance")
def advertiser_balance(advertiser_id: int | None = Query(None, description="Left out by an advertiser: its own"),
                       actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[BalanceRead]:
    """An advertiser's balance (as GET /advertisers/{id}/balance)."""
    return reply(ledger.advertiser_balance(db, actor=actor, advertiser_id=actor.id if advertiser_id is None
                                        else advertiser_id))
