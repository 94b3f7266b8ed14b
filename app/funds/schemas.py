"""What the funds services take and answer (app/funds/service.py, ledger.py, card_payments.py), and so what the
API's funds calls send and receive. Money is given as dollars in text ("-12.35"), and where a figure is added up
by a client also as integer micro-dollars (`..._micros`); times are ISO-8601 UTC."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.kernel.schema_examples import example

MICROS = "micro-dollars (1 dollar = 1,000,000)"
# A statement's figures foot (app/funds/footing.py): shown balances are the exact ones rounded to the cent, shown
# amounts the steps between them, so previous balance + amount = balance in the dollar texts too.
SHOWN_BALANCE = 'The balance after it in dollars, rounded to the cent ("4998.61")'
SHOWN_AMOUNT = ("Dollars, negative for a charge: this row's balance less the previous row's as shown, so the shown "
                "figures foot (within a cent of the exact amount)")
SHOWN_MARGIN = "Agency margin in dollars (negative), rounded so that the lines' margins add up"
SHOWN_SPEND = "Media spend in dollars (negative): the shown amount less the shown margin"
EXACT_AMOUNT = "The exact amount in " + MICROS
EXACT_BALANCE = "The exact balance after it in " + MICROS


class FundsAdd(BaseModel):
    model_config = example({
        "advertiser_id": 12, "amount": "1250.50", "kind": "deposit", "note": "Wire transfer"})

    advertiser_id: int
    amount: str | int = Field(description='Dollars, at most two decimals, e.g. "250.00"; negative only for an '
                                          "adjustment")
    kind: str = Field("deposit", description="deposit, refund or adjustment")
    note: str = Field("", description="Shown in the ledger, at most 255 characters")


class FundsTransfer(BaseModel):
    model_config = example({"from_advertiser_id": 12, "to_advertiser_id": 14, "amount": "500.00",
                            "note": "Budget for the spring sale"})

    from_advertiser_id: int = Field(description="The advertiser the money leaves")
    to_advertiser_id: int = Field(description="The advertiser it goes to: of the same agency")
    amount: str | int = Field(description='Dollars, more than zero, at most two decimals and at most the source\'s '
                                          'balance, e.g. "500.00"')
    note: str = Field("", description="Added to both ledger notes, at most 100 characters")


class FundsTransferred(BaseModel):
    """A transfer made: the amount and both balances after it."""

    from_advertiser_id: int
    to_advertiser_id: int
    amount: str = Field(description='The amount moved in dollars ("500.00")')
    amount_micros: int
    from_balance: str = Field(description="The source's balance after it, in dollars")
    from_balance_micros: int
    to_balance: str = Field(description="The destination's balance after it, in dollars")
    to_balance_micros: int


class CardPaymentCreate(BaseModel):
    model_config = example({"amount": "500", "advertiser_id": 12})

    amount: str | int = Field(description='Dollars to pay by card, 0.50 to 1,000,000.00, e.g. "500.00"')
    advertiser_id: int | None = Field(None, description="Left out by an advertiser: its own balance")
    return_url: str | None = Field(None, description="A page of this console to come back to after the payment "
                                                     "(default: the console's home); ?payment=success or "
                                                     "?payment=cancelled is added")


class FundsRow(BaseModel):
    """One advertiser's figures: all-time deposits, spend and agency margin (spend and margin as positive
    amounts charged), what was charged this calendar month (UTC), and the balance."""

    id: int
    name: str
    company: str
    email: str
    status: str
    agency_id: int | None = Field(description="Its agency; null for a direct advertiser")
    agency: str = Field(description="The agency's name; empty for a direct advertiser")
    entries: int = Field(description="How many ledger entries it has")
    balance_micros: int = Field(description="The balance in " + MICROS)
    deposits_micros: int = Field(description="Deposits in " + MICROS)
    spend_micros: int = Field(description="Media spend charged, in " + MICROS)
    margin_micros: int = Field(description="Agency margin charged, in " + MICROS)
    month_charged_micros: int = Field(description="Spend and margin charged this month, in " + MICROS)
    balance: str = Field(description='The balance in dollars ("5000.00")')
    deposits: str
    spend: str
    margin: str
    month_charged: str
    last_entry_at: str | None = Field(description="When its last entry was booked; null without entries")


class FundsTotals(BaseModel):
    """The funds list's figures over every advertiser its agency filter keeps (its search aside)."""

    advertisers: int
    balance_micros: int
    spend_micros: int
    margin_micros: int
    empty_balances: int = Field(description="Advertisers whose balance is zero or less")


class FundsListPage(BaseModel):
    """One page of the funds list (pages count from 1), how many advertisers its filters match, its figures, and
    the agencies it can be filtered by (staff)."""

    rows: list[FundsRow]
    total: int
    page: int
    page_size: int
    totals: FundsTotals
    agencies: list[tuple[int, str]] = Field(description="(id, name) of the agencies with advertisers in scope")
    direct: bool = Field(description="Whether advertisers without an agency are in scope")


class FundsAdded(BaseModel):
    """The entry just booked and the balance after it."""

    id: int = Field(description="The ledger entry's id")
    advertiser_id: int
    kind: str
    note: str
    amount: str = Field(description='Dollars ("250.00", "-100.00")')
    amount_micros: int
    balance: str
    balance_micros: int


class LedgerEntryRead(BaseModel):
    """One ledger entry with the balance after it."""

    id: int
    date: str = Field(description="When it was booked")
    kind: str = Field(description="deposit, spend, margin, refund or adjustment")
    campaign_id: int | None = Field(description="The campaign a spend or margin charge paid for; null otherwise")
    note: str
    amount: str = Field(description=SHOWN_AMOUNT)
    balance: str = Field(description=SHOWN_BALANCE)
    amount_micros: int = Field(description=EXACT_AMOUNT)
    balance_micros: int = Field(description=EXACT_BALANCE)
    by: str = Field(description="Who entered it; empty for the system's entries")


class LedgerHour(BaseModel):
    """One hour of a delivery row's charges."""

    hour: str = Field(description="The hour's start")
    spend: str = Field(description=SHOWN_SPEND)
    margin: str = Field(description=SHOWN_MARGIN)
    amount: str = Field(description=SHOWN_AMOUNT)
    balance: str = Field(description="The balance after it, as the row counts it, in dollars rounded to the cent")
    spend_micros: int
    margin_micros: int
    amount_micros: int = Field(description=EXACT_AMOUNT)
    balance_micros: int = Field(description=EXACT_BALANCE)


class LedgerEntryRow(BaseModel):
    """A deposit, refund or adjustment in the grouped ledger: a row of its own."""

    id: str
    date: str = Field(description="When it was booked")
    kind: str
    campaign_id: None = None
    campaign: None = None
    note: str
    by: str = Field(description="Who entered it; empty for the system's entries")
    entries: int = Field(description="Always 1")
    amount: str = Field(description=SHOWN_AMOUNT)
    balance: str = Field(description=SHOWN_BALANCE)
    amount_micros: int = Field(description=EXACT_AMOUNT)
    balance_micros: int = Field(description=EXACT_BALANCE)


class LedgerDeliveryRow(BaseModel):
    """One campaign's delivery charges (spend and agency margin) of one UTC day."""

    id: str = Field(description="delivery-<first entry id>-<campaign id, 0 for none>")
    date: str = Field(description="The UTC day, YYYY-MM-DD")
    kind: str = Field(description="Always delivery")
    campaign_id: int | None = Field(description="Null for charges without a campaign")
    campaign: str | None = Field(description="The campaign's name; null for charges without a campaign")
    note: str
    by: str
    entries: int = Field(description="How many entries the row sums")
    spend: str = Field(description=SHOWN_SPEND)
    margin: str = Field(description=SHOWN_MARGIN)
    amount: str = Field(description=SHOWN_AMOUNT)
    balance: str = Field(description=SHOWN_BALANCE)
    spend_micros: int
    margin_micros: int
    amount_micros: int = Field(description=EXACT_AMOUNT)
    balance_micros: int = Field(description=EXACT_BALANCE)
    hours: list[LedgerHour] = Field(description="The row's charges an hour a line, newest first")


class BalanceRead(BaseModel):
    advertiser_id: int
    balance: str = Field(description='Dollars as text ("5000.00")')
    balance_micros: int = Field(description="The balance in " + MICROS)


class CheckoutStarted(BaseModel):
    id: str = Field(description="The Stripe Checkout Session's id")
    url: str = Field(description="Where to send the payer's browser")


class WebhookResult(BaseModel):
    event: str = Field(description="The Stripe event's type")
    credited: int | None = Field(description="The deposit's ledger entry; null when nothing was credited (an event "
                                             "not about a paid checkout, or one credited before)")
