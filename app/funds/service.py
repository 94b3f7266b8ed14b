"""Funds: money into and out of an advertiser's append-only ledger, and the balances it adds up to.

Reading one advertiser's ledger stays in app/funds/ledger.py (balance_micros, payment_history,
advertiser_balance: the top bar, the payment lists and the API call them). This module writes
(add_funds by staff, charge_delivery by statistics ingestion, credit_card_payment by the Stripe webhook)
and summarises (funds_overview, funds_summary).

Concurrency: a balance is the sum of its entries, so no write reads a balance in order to change it and
two writers can never lose each other's cents. Entries that arrive from outside carry a unique `reference`
and are inserted with ON CONFLICT DO NOTHING: when a batch or a webhook is retried, even while the first
attempt is still running, the database keeps exactly one of them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import and_, case
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, func, select

from app.access.models import User, UserSettings
from app.access.policy import Actor, advertiser_rows, can_see_user, require
from app.access.roles import Role
from app.campaigns.models import Campaign
from app.funds.activation import pause_when_empty
from app.funds.ledger import balances_micros as balances_micros
from app.funds.models import LedgerEntry
from app.funds.schemas import FundsAdded, FundsListPage, FundsRow, FundsTotals
from app.history import audit
from app.kernel import money
from app.kernel.db import select_columns, session_scope
from app.kernel.errors import Invalid
from app.kernel.grid_search import every_word
from app.kernel.model_base import table_of, utcnow
from app.kernel.money import dollars
from app.kernel.numbered_pages import check_page
from app.kernel.paging import DEFAULT_LIMIT, Page, after_condition, check_limit, decode_cursor, next_cursor
from app.kernel.validation import too_long
from app.messaging import notifications

logger = logging.getLogger(__name__)
T = TypeVar("T")

# What staff may enter on /admin/addfund. Spend and margin come only from delivery (charge_delivery).
STAFF_KINDS = ("deposit", "refund", "adjustment")
CREDIT_KINDS = ("deposit", "refund")  # always add money; taking money off is an adjustment
MAX_ENTRY = money.FIELDS["amount"].maximum
MIN_CARD_PAYMENT = Decimal("0.50")  # Stripe's smallest USD charge
NOTE_MAX_LENGTH = 255
# Leaves room for ":<advertiser id>:c<campaign id>:margin" (ids of at most 10 digits) within the column's 191.
REFERENCE_MAX_LENGTH = 160

NOT_ZERO = "Enter an amount other than zero."
CREDIT_POSITIVE = "A deposit or refund adds money: enter a positive amount."
CHOOSE_KIND = "Choose deposit, refund or adjustment."
CHOOSE_ADVERTISER = "Choose an advertiser from the list."
CARD_MINIMUM = "Card payments start at 0.50."


def nonzero_amount(value: Any) -> tuple[Decimal | None, str | None]:
    """(amount, None) or (None, what is wrong) for money put on a ledger (add funds, card top-ups): the money
    parser's "amount" field, and not zero (an entry of nothing is a mistake)."""
    amount, problem = money.check(value, field="amount")
    if problem is None and amount == 0:
        return None, NOT_ZERO
    return amount, problem


def margin_micros(spend_micros: int, margin_bps: int) -> int:
    """The agency's margin on a spend: spend x bps / 10000, rounded half up to the micro-dollar."""
    if margin_bps <= 0 or spend_micros <= 0:
        return 0
    return (spend_micros * margin_bps + 5_000) // 10_000


def advertiser_in_scope(db: Session, actor: Actor, advertiser_id: Any) -> User | None:
    """The advertiser account `advertiser_id` names (int or digits), when the actor's row scope holds it."""
    try:
        user = db.get(User, int(advertiser_id))
    except (TypeError, ValueError):
        return None
    if user is None or user.role != Role.ADVERTISER or not can_see_user(actor, user):
        return None
    return user


def append_entry(db: Session, *, advertiser_id: int, amount_micros: int, kind: str, note: str,
                 reference: str | None, created_by: int | None = None, booked_at: datetime | None = None,
                 campaign_id: int | None = None) -> int | None:
    """Insert one ledger entry; its id, or None when an entry with this reference already exists (then
    nothing is written). ON CONFLICT DO NOTHING makes the database the judge, so two transactions racing
    with one reference cannot both insert it (PostgreSQL makes the second wait for the first, then skip),
    and no unique-violation error aborts the caller's transaction."""
    from sqlalchemy.dialects import postgresql, sqlite

    # Both dialects' INSERT has on_conflict_do_nothing; their statement classes share no base that says so.
    insert: Callable[..., Any] = postgresql.insert if db.get_bind().dialect.name == "postgresql" else sqlite.insert
    table = table_of(LedgerEntry)
    statement = (insert(table)
                 .values(advertiser_id=advertiser_id, amount_micros=amount_micros, kind=kind, note=note[:NOTE_MAX_LENGTH],
                         created_by=created_by, created_at=booked_at or utcnow(), reference=reference,
                         campaign_id=campaign_id)
                 .on_conflict_do_nothing(index_elements=["reference"])
                 .returning(table.c.id))
    return db.connection().execute(statement).scalar_one_or_none()


def add_funds(db: Session, *, actor: Actor, advertiser_id: int | str, amount: str | Decimal, kind: str,
              note: str = "") -> FundsAdded:
    """Admin and co-admin (/admin/addfund): a deposit or refund (a credit, positive) or an adjustment (either
    way) on an advertiser's ledger. Audited, and the advertiser is notified. Returns the entry and the new
    balance."""
    require(actor, "funds", "add")
    errors: dict[str, str] = {}
    advertiser = advertiser_in_scope(db, actor, advertiser_id)
    if advertiser is None:
        errors["advertiser_id"] = CHOOSE_ADVERTISER
    if kind not in STAFF_KINDS:
        errors["kind"] = CHOOSE_KIND
    value, problem = nonzero_amount(amount)
    if problem:
        errors["amount"] = problem
    elif value is not None and value < 0 and kind in CREDIT_KINDS:
        errors["amount"] = CREDIT_POSITIVE
    note = (note or "").strip()
    if len(note) > NOTE_MAX_LENGTH:
        errors["note"] = too_long(NOTE_MAX_LENGTH)
    if errors:
        raise Invalid(errors)
    assert advertiser is not None and advertiser.id is not None and value is not None
    micros = money.to_micros(value)
    entry_id = append_entry(db, advertiser_id=advertiser.id, amount_micros=micros, kind=kind, note=note,
                            reference=None, created_by=actor.id)
    audit.record(db, actor=actor, entity="funds", entity_id=advertiser.id, action=kind,
                 after={"entry": entry_id, "kind": kind, "amount": dollars(micros), "note": note})
    verb = "added to" if micros > 0 else "taken from"
    balance = balances_micros(db, [advertiser.id])[advertiser.id]
    notifications.notify(db, user_id=advertiser.id, title=f"${dollars(abs(micros))} {verb} your balance",
                         body=note or f"Your balance is now ${dollars(balance)}.", link="/funds")
    pause_when_empty(db, [advertiser.id])  # an adjustment (or a credit short of a debt) that leaves $0.00 or less
    assert entry_id is not None  # an entry without a reference is always written
    return FundsAdded(id=entry_id, advertiser_id=advertiser.id, kind=kind, note=note, amount=dollars(micros),
                      amount_micros=micros, balance=dollars(balance), balance_micros=balance)


def credit_card_payment(db: Session, *, advertiser_id: int, amount_micros: int, reference: str,
                        note: str) -> int | None:
    """A paid card top-up (the Stripe webhook; a system call, no actor): a deposit whose reference is the
    checkout session id, written at most once however often the webhook arrives. The new entry's id, or None
    when this payment was credited before (or the account is no advertiser: then it is logged, not credited)."""
    advertiser = db.get(User, advertiser_id)
    if advertiser is None or advertiser.role != Role.ADVERTISER or amount_micros <= 0:
        logger.error("card payment %s for user %s (%s micros) not credited: no such advertiser, or no amount",
                     reference, advertiser_id, amount_micros)
        return None
    entry_id = append_entry(db, advertiser_id=advertiser_id, amount_micros=amount_micros, kind="deposit", note=note,
                            reference=reference)
    if entry_id is None:
        return None
    audit.record(db, actor=None, entity="funds", entity_id=advertiser_id, action="card_deposit",
                 after={"entry": entry_id, "kind": "deposit", "amount": dollars(amount_micros), "reference": reference})
    notifications.notify(db, user_id=advertiser_id, title=f"Card payment of ${dollars(amount_micros)} received",
                         body="The amount has been added to your balance.", link="/funds")
    pause_when_empty(db, [advertiser_id])  # a payment short of a debt still leaves nothing to spend
    return entry_id


def charge_delivery(db: Session, *, charges: Mapping[int, int | Mapping[int, int]], reference: str,
                    booked_at: datetime | None = None) -> dict[int, int]:
    """charge_batch's balances: {advertiser id: balance after, micro-dollars} for every advertiser in `charges`."""
    return charge_batch(db, charges=charges, reference=reference, booked_at=booked_at).balances


@dataclass(frozen=True)
class BatchCharged:
    balances: dict[int, int]  # every advertiser of the batch: its balance after, micro-dollars
    charged: list[int]  # the advertisers this call wrote entries for (none: the batch had been charged before)


def charge_batch(db: Session, *, charges: Mapping[int, int | Mapping[int, int]], reference: str,
                 booked_at: datetime | None = None) -> BatchCharged:
    """Charge a statistics batch's spend (a system call, no actor). `charges` maps each advertiser id to its
    spend in micro-dollars, or to its spend split by campaign ({campaign id: micro-dollars}; ingestion passes
    the store's split). For each campaign, a 'spend' entry of -spend and, when the advertiser's agency margin is
    set, a 'margin' entry of -(spend x margin_bps / 10000, rounded half up), both carrying the campaign. A
    campaign id that is 0, unknown or another advertiser's is booked without a campaign (the money is still
    owed; it is never put on a campaign the advertiser does not own), as is a spend given without a split.

    References: "{reference}:{advertiser id}:c{campaign id, 0 for none}:spend" and ":margin" with a split,
    "{reference}:{advertiser id}:spend" and ":margin" without one (the format of every batch charged before
    campaigns were recorded). An advertiser with any entry of this batch, in either format, is skipped, so a
    retried batch never charges twice. `booked_at` dates the entries (default: now; the simulator, writing past
    days at once, dates them at the hour they charge for, as if each had arrived live). An advertiser left with a
    balance <= 0 has its active campaigns paused (activation.pause_when_empty: audited, one notification). Returns {advertiser id: balance
    after, micro-dollars} for every advertiser in `charges`, and the advertisers this call charged (an entry an
    advertiser's concurrent retry wrote first counts for that one, not this one).

    Raises ValueError (nothing written) for a negative or non-integer spend, an id that is no advertiser or a
    missing or over-long reference. Run it in its own transaction; on SQLite "database is locked" the caller may
    retry the whole call (see run_with_retry): the references make that safe."""
    if not reference or len(reference) > REFERENCE_MAX_LENGTH:
        raise ValueError(f"a batch reference of 1 to {REFERENCE_MAX_LENGTH} characters is required")
    splits = {a: dict(s) if isinstance(s, Mapping) else None for a, s in charges.items()}
    amounts = {a: list(split.values()) if split is not None else [charges[a]] for a, split in splits.items()}
    bad = {a: s for a, s in amounts.items() if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in s)}
    if bad:
        raise ValueError(f"spend must be whole micro-dollars, not negative: {bad}")
    ids = sorted(charges)
    found = set(db.exec(select(User.id).where(col(User.id).in_(ids), User.role == Role.ADVERTISER)).all())
    if set(ids) - found:
        raise ValueError(f"not advertisers: {sorted(set(ids) - found)}")
    margins = dict(db.exec(select(UserSettings.user_id, UserSettings.margin_bps)
                           .where(col(UserSettings.user_id).in_(ids))).all())
    charged = [advertiser_id for advertiser_id in ids if sum(amounts[advertiser_id]) > 0]  # type: ignore[arg-type]  # `bad` above: all ints
    owners = _campaign_owners(db, charged)
    already = _charged_before(db, reference, charged, owners)
    written: list[int] = []
    # In id order: two batches touching the same advertisers take their locks in the same order.
    for advertiser_id in charged:
        if advertiser_id in already:
            continue
        split = splits[advertiser_id]
        lines: list[tuple[int | None, str, int | Mapping[int, int]]]
        if split is None:
            lines = [(None, f"{reference}:{advertiser_id}", charges[advertiser_id])]
        else:
            lines = [(campaign_id, f"{reference}:{advertiser_id}:c{campaign_id or 0}", spend)
                     for campaign_id, spend in _own_campaigns(split, owners, advertiser_id).items() if spend > 0]
        for campaign_id, prefix, spend in lines:
            assert isinstance(spend, int)
            if append_entry(db, advertiser_id=advertiser_id, amount_micros=-spend, kind="spend",
                            note=f"Media spend, {reference}", reference=f"{prefix}:spend", booked_at=booked_at,
                            campaign_id=campaign_id) is not None and written[-1:] != [advertiser_id]:
                written.append(advertiser_id)
            # Each campaign's margin is rounded on its own spend, so a batch's margins may add up to the margin of
            # the advertiser's whole spend give or take half a micro-dollar per campaign (a cent only past 20,000
            # campaigns in one batch); every figure is the sum of the entries behind it, so nothing disagrees.
            margin = margin_micros(spend, margins.get(advertiser_id, 0))
            if margin:
                append_entry(db, advertiser_id=advertiser_id, amount_micros=-margin, kind="margin",
                             note=f"Agency margin, {reference}", reference=f"{prefix}:margin", booked_at=booked_at,
                             campaign_id=campaign_id)
    return BatchCharged({**balances_micros(db, ids), **pause_when_empty(db, charged)}, written)


def _campaign_owners(db: Session, advertiser_ids: list[int]) -> dict[int, int]:
    """{campaign id: advertiser id} for every campaign of these advertisers (chunked: SQLite limits a
    statement's parameters)."""
    owners: dict[int, int] = {}
    for start in range(0, len(advertiser_ids), 500):
        owners.update((i, a) for i, a in db.exec(select(col(Campaign.id), Campaign.advertiser_id)
                      .where(col(Campaign.advertiser_id).in_(advertiser_ids[start:start + 500]))) if i)
    return owners


def _own_campaigns(split: Mapping[int, int], owners: Mapping[int, int], advertiser_id: int) -> dict[int | None, int]:
    """An advertiser's spend by campaign, with every campaign that is not its own (0, unknown, another
    advertiser's) summed under None, the charge without a campaign."""
    own: dict[int | None, int] = {}
    for campaign_id, spend in split.items():
        key = campaign_id if owners.get(campaign_id) == advertiser_id else None
        own[key] = own.get(key, 0) + spend
    return own


def _charged_before(db: Session, reference: str, advertiser_ids: list[int], owners: Mapping[int, int]) -> set[int]:
    """The advertisers this batch has charged already, in either reference format (see charge_delivery)."""
    campaigns: dict[int, list[int]] = {a: [] for a in advertiser_ids}
    for campaign_id, owner in owners.items():
        if owner in campaigns:
            campaigns[owner].append(campaign_id)
    return charged_before(db, reference, campaigns)


def charged_before(db: Session, reference: str, campaigns: Mapping[int, Iterable[int]]) -> set[int]:
    """Of the advertisers in `campaigns` ({advertiser id: campaign ids a charge of theirs may name}), those this
    batch reference has charged already: a spend entry is booked for whatever is charged, and its reference can only
    name one of those campaigns or c0 (or none, the format from before campaigns), so looking up those exact
    references finds it (through the unique index, however long the ledger)."""
    spend_references: dict[str, int] = {}
    for advertiser_id, campaign_ids in campaigns.items():
        spend_references.update({f"{reference}:{advertiser_id}:{part}spend": advertiser_id
                                 for part in ("", "c0:", *(f"c{c}:" for c in campaign_ids if c))})
    wanted = sorted(spend_references)
    found: set[int] = set()
    for start in range(0, len(wanted), 500):
        found.update(spend_references[r] for r in db.exec(select(LedgerEntry.reference).where(
            col(LedgerEntry.reference).in_(wanted[start:start + 500]))).all() if r)
    return found


def _totals_query(since: datetime) -> Any:
    """Per advertiser: balance, deposits, spend, margin, spend and margin since `since`, last entry date,
    agency name; one grouped query (advertisers without entries included, with zeros)."""
    agency = aliased(User)
    amount = LedgerEntry.amount_micros

    def total(condition: Any) -> Any:
        return func.coalesce(func.sum(case((condition, amount), else_=0)), 0)

    charged = col(LedgerEntry.kind).in_(("spend", "margin"))
    return (select_columns(User.id, User.first_name, User.last_name, User.company_name, User.email, User.status,
                           User.agency_id, agency.company_name, agency.first_name, agency.last_name,
                           func.coalesce(func.sum(amount), 0), total(LedgerEntry.kind == "deposit"),
                           total(LedgerEntry.kind == "spend"), total(LedgerEntry.kind == "margin"),
                           total(charged & (LedgerEntry.created_at >= since)), func.max(LedgerEntry.created_at),
                           func.count(col(LedgerEntry.id)))
            .select_from(User)
            .outerjoin(LedgerEntry, col(LedgerEntry.advertiser_id) == User.id)
            .outerjoin(agency, col(agency.id) == User.agency_id)
            .where(User.role == Role.ADVERTISER)
            .group_by(col(User.id), User.first_name, User.last_name, User.company_name, User.email, User.status,
                      col(User.agency_id), agency.company_name, agency.first_name, agency.last_name)
            .order_by(User.company_name, col(User.id)))


def month_start(now: datetime | None = None) -> datetime:
    """The first instant of the current calendar month, UTC (ledger times are stored in UTC)."""
    now = now or utcnow()
    return datetime(now.year, now.month, 1, tzinfo=UTC)


def _row(values: tuple[Any, ...]) -> FundsRow:
    (uid, first, last, company, email, status, agency_id, agency_company, agency_first, agency_last, balance,
     deposits, spend, margin, month_charged, last_at, entries) = values
    name = f"{first} {last}".strip() or email
    agency_name = (agency_company or f"{agency_first or ''} {agency_last or ''}".strip()) if agency_id else ""
    balance, deposits, spend, margin, month_charged = (int(v) for v in (balance, deposits, spend, margin,
                                                                        month_charged))
    return FundsRow(id=uid, name=name, company=company or "", email=email, status=status, agency_id=agency_id,
                    agency=agency_name, entries=int(entries), balance_micros=balance, deposits_micros=deposits,
                    spend_micros=-spend, margin_micros=-margin, month_charged_micros=-month_charged,
                    balance=dollars(balance), deposits=dollars(deposits), spend=dollars(-spend),
                    margin=dollars(-margin), month_charged=dollars(-month_charged),
                    last_entry_at=last_at.isoformat() if last_at else None)


def funds_overview(db: Session, *, actor: Actor, agency_id: int | None = None) -> list[FundsRow]:
    """Every advertiser in the actor's scope (admin, co-admin: all; agency: its advertisers; advertiser:
    itself) with balance, deposits, spend, margin (all-time; micro-dollars and dollar text), spend and margin
    charged this month, the last entry's date and the agency's name. `agency_id` narrows to one agency's
    advertisers (0: direct advertisers, without an agency)."""
    require(actor, "funds", "view")
    query = _totals_query(month_start()).where(advertiser_rows(actor, User.id))
    if agency_id is not None:
        query = query.where(User.agency_id == agency_id if agency_id else col(User.agency_id).is_(None))
    return [_row(tuple(values)) for values in db.exec(query).all()]


def funds_page(db: Session, *, actor: Actor, agency_id: int | None = None, limit: int = DEFAULT_LIMIT,
               cursor: str | None = None) -> Page[FundsRow]:
    """funds_overview's rows a page at a time by the advertiser's id (keyset from the cursor's position,
    app/kernel/paging.py; a company renamed mid-walk moves no row, as the by-company order did): the page's
    advertisers are chosen from the accounts alone, then only their ledgers are summed; `total` by a COUNT of the
    advertisers in scope."""
    require(actor, "funds", "view")
    check_limit(limit)
    scope = {"list": "funds", "agency_id": agency_id}
    after = decode_cursor(cursor, scope)
    mine = and_(col(User.role) == Role.ADVERTISER, advertiser_rows(actor, User.id))
    if agency_id is not None:
        mine = and_(mine, col(User.agency_id) == agency_id if agency_id else col(User.agency_id).is_(None))
    total = db.exec(select(func.count()).select_from(User).where(mine)).one()
    company, ident = col(User.company_name), col(User.id)
    chosen = select(ident, company).where(mine).order_by(ident)
    if after is not None:
        chosen = chosen.where(after_condition(None, ident, after, descending=False))
    keys = list(db.exec(chosen.limit(limit + 1)).all())
    ids = [advertiser for advertiser, _company in keys[:limit]]
    found = {values[0]: _row(tuple(values)) for values in db.exec(
        _totals_query(month_start()).where(col(User.id).in_(ids))).all()}
    return Page[FundsRow](items=[found[i] for i in ids if i in found], total=int(total), limit=limit,
                          next_cursor=next_cursor(keys, limit, scope, lambda k: (None, k[0])))


# The funds list's sortable columns, as SQL over _totals_query's columns (by position, see _row): what the grid
# shows (spend and margin as positive amounts charged, a name as _row makes it).
_FUNDS_SORTS: dict[str, Callable[[Any], Any]] = {
    "name": lambda c: func.lower(func.coalesce(func.nullif(func.trim(c[1] + " " + c[2]), ""), c[4])),
    "company": lambda c: func.lower(c[3]), "email": lambda c: func.lower(c[4]), "status": lambda c: c[5],
    "agency": lambda c: func.lower(func.coalesce(c[7], "")), "balance": lambda c: c[10], "deposits": lambda c: c[11],
    "spend": lambda c: -c[12], "margin": lambda c: -c[13], "month_charged": lambda c: -c[14],
    "last_entry_at": lambda c: c[15], "entries": lambda c: c[16], "id": lambda c: c[0],
}
FUNDS_PAGE_SIZE_MAX = 200


def funds_list_page(db: Session, *, actor: Actor, agency_id: int | None = None, search: str = "", sort: str = "",
                    page: int = 1, page_size: int = 50) -> FundsListPage:
    """The funds pages' list, a page at a time (pages count from 1) for the grid: funds_overview's rows and
    order unless `sort` names a column ("-" first for descending; ties by id), `search` in the name, company,
    e-mail or agency (all in SQL), and the figures and agency choices over everything the agency filter keeps.
    Only the page's rows are sent to the browser; the total is a COUNT."""
    require(actor, "funds", "view")
    check_page(page, page_size, things="advertisers", most=FUNDS_PAGE_SIZE_MAX)
    descending, column = sort.startswith("-"), sort.lstrip("-")
    if column and column not in _FUNDS_SORTS:
        raise Invalid({"sort": f"Sort by one of: {', '.join(_FUNDS_SORTS)} (a leading - for descending)."})
    scoped = _totals_query(month_start()).where(advertiser_rows(actor, User.id))
    agencies, direct = _agency_choices(db, actor)
    if agency_id is not None:
        scoped = scoped.where(User.agency_id == agency_id if agency_id else col(User.agency_id).is_(None))
    figures = scoped.subquery()
    advertisers, balance, spend, margin, empty = db.connection().execute(select_columns(
        func.count(), func.coalesce(func.sum(figures.c[10]), 0), func.coalesce(func.sum(figures.c[12]), 0),
        func.coalesce(func.sum(figures.c[13]), 0), func.coalesce(func.sum(case((figures.c[10] <= 0, 1), else_=0)), 0),
    ).select_from(figures)).one()
    shown = scoped
    columns = list(scoped.selected_columns)
    shown = shown.where(*every_word(search, *(columns[i] for i in (1, 2, 3, 4, 7))))
    total = db.connection().execute(select_columns(func.count()).select_from(shown.order_by(None).subquery())).scalar_one()
    if column:
        key, tie = _FUNDS_SORTS[column](columns), col(User.id)
        shown = shown.order_by(None).order_by(*((key.desc().nulls_last(), tie.desc()) if descending
                                                else (key.asc().nulls_last(), tie.asc())))
    rows = [_row(tuple(values)) for values in db.exec(shown.limit(page_size).offset((page - 1) * page_size)).all()]
    return FundsListPage(rows=rows, total=int(total), page=page, page_size=page_size, agencies=agencies, direct=direct,
                         totals=FundsTotals(advertisers=int(advertisers), balance_micros=int(balance),
                                            spend_micros=-int(spend), margin_micros=-int(margin),
                                            empty_balances=int(empty)))


def _agency_choices(db: Session, actor: Actor) -> tuple[list[tuple[int, str]], bool]:
    """The agencies of the advertisers in the actor's scope, by name, and whether some have none."""
    owners = set(db.exec(select(User.agency_id).where(User.role == Role.ADVERTISER, advertiser_rows(actor, User.id))
                         .distinct()).all())
    agencies = db.exec(select(User).where(col(User.id).in_({o for o in owners if o}))).all() if owners - {None} else []
    named = sorted(((a.account_name, a.id) for a in agencies if a.id), key=lambda p: p[0].casefold())
    return [(agency, name) for name, agency in named], None in owners


def funds_summary(db: Session, *, actor: Actor, advertiser_id: int) -> FundsRow:
    """One advertiser's figures (the /funds balance card), in the actor's scope; another tenant's advertiser
    answers not found, as a missing one does."""
    from app.kernel.errors import NotFound

    require(actor, "funds", "view")
    advertiser = advertiser_in_scope(db, actor, advertiser_id)
    if advertiser is None:
        raise NotFound("User not found.")
    values = db.exec(_totals_query(month_start()).where(User.id == advertiser.id)).one()
    return _row(tuple(values))


def _retryable(error: DBAPIError) -> bool:
    """SQLite's "database is locked" (the busy timeout ran out, or a read snapshot went stale before a
    write), and PostgreSQL's serialization failure or deadlock: the transaction was rolled back whole, so
    running it again is safe."""
    if isinstance(error, OperationalError) and "locked" in str(error.orig):
        return True
    return getattr(error.orig, "sqlstate", None) in ("40001", "40P01")


def run_with_retry(fn: Callable[..., T], /, *, attempts: int = 8, **kwargs: Any) -> T:
    """`fn(db, **kwargs)` in its own transaction, run again when the database refused it for a lock (see
    _retryable). Only for work that is safe to repeat after a rollback: appends and referenced charges."""
    for attempt in range(1, attempts + 1):
        try:
            with session_scope() as db:
                return fn(db, **kwargs)
        except DBAPIError as error:
            if attempt == attempts or not _retryable(error):
                raise
            logger.warning("retrying %s after a lock (attempt %d): %s", getattr(fn, "__name__", fn), attempt, error)
            time.sleep(min(0.05 * 2 ** attempt, 1.0))
    raise AssertionError("unreachable")
