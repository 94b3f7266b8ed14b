"""Funds: an advertiser's balance is the sum of its append-only ledger entries.

Reading a ledger: `payment_history` lists every entry; `grouped_ledger` is the ledger a person reads, where
delivery charges (spend and agency margin, a pair an hour per campaign) are one row per campaign and day that
opens to its hours.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, or_
from sqlmodel import Session, col, func, select

from app.access.models import User
from app.access.policy import Actor, require, require_user_in_scope
from app.access.roles import Role
from app.campaigns.models import Campaign
from app.funds.footing import footed, less, step
from app.funds.models import LedgerEntry
from app.funds.schemas import BalanceRead, LedgerDeliveryRow, LedgerEntryRead, LedgerEntryRow, LedgerHour
from app.kernel.errors import NotFound
from app.kernel.grid_search import words_in_text
from app.kernel.money import dollars
from app.kernel.paging import (
    DEFAULT_LIMIT,
    Page,
    after_condition,
    check_limit,
    decode_cursor,
    next_cursor,
    page_of_list,
)

# Entries that statistics ingestion writes, a pair every hour (app/funds/service.py charge_delivery).
DELIVERY_KINDS = ("spend", "margin")
# A row of the ledger a person reads (grouped_ledger).
LedgerRow = LedgerEntryRow | LedgerDeliveryRow


def balances_micros(db: Session, advertiser_ids: Iterable[int]) -> dict[int, int]:
    """{advertiser id: balance} for many advertisers in one grouped query (0 for an empty ledger)."""
    ids = sorted(set(advertiser_ids))
    found = dict(db.exec(select(LedgerEntry.advertiser_id, func.sum(LedgerEntry.amount_micros))
                         .where(col(LedgerEntry.advertiser_id).in_(ids))
                         .group_by(col(LedgerEntry.advertiser_id))).all()) if ids else {}
    return {advertiser_id: int(found.get(advertiser_id) or 0) for advertiser_id in ids}


def balance_micros(db: Session, *, actor: Actor, advertiser_id: int) -> int:
    require(actor, "funds", "view")
    require_user_in_scope(actor, db.get(User, advertiser_id))
    total = db.exec(select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0)).where(LedgerEntry.advertiser_id == advertiser_id)).one()
    return int(total)


def statement_figures(db: Session, *, actor: Actor, advertiser_id: int) -> tuple[int, int]:
    """(balance in micro-dollars, how many entries) of an advertiser's ledger: the payment list's figures beside
    its statement, which it shows a page at a time (grouped_ledger_page)."""
    _advertiser(db, actor, advertiser_id)
    balance, count = db.exec(select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0), func.count())
                             .where(LedgerEntry.advertiser_id == advertiser_id)).one()
    return int(balance), int(count)


def _advertiser(db: Session, actor: Actor, advertiser_id: int) -> User:
    """The advertiser whose ledger is read, in the actor's scope: another tenant's advertiser, or an account that
    is no advertiser, answers not found."""
    require(actor, "funds", "view")
    advertiser = require_user_in_scope(actor, db.get(User, advertiser_id))
    if advertiser.role != Role.ADVERTISER:
        raise NotFound("User not found.")
    return advertiser


def _ledger_of(db: Session, actor: Actor, advertiser_id: int) -> tuple[list[LedgerEntry], dict[int | None, str]]:
    """An advertiser's entries in the actor's scope, oldest first by the time each was booked (id breaks ties:
    the order the balance moved in), and the names of the people who entered them. Another tenant's advertiser,
    or an account that is no advertiser, answers not found."""
    _advertiser(db, actor, advertiser_id)
    entries = list(db.exec(select(LedgerEntry).where(LedgerEntry.advertiser_id == advertiser_id)
                           .order_by(col(LedgerEntry.created_at), col(LedgerEntry.id))))
    people = {u.id: u.display_name for u in db.exec(select(User).where(
        col(User.id).in_({e.created_by for e in entries if e.created_by})))}
    return entries, people


def payment_history(db: Session, *, actor: Actor, advertiser_id: int) -> list[LedgerEntryRead]:
    """An advertiser's ledger, newest first, with the balance after each entry (payment-list pages); amount and
    balance as dollar text ("-12.35") that foot (app/funds/footing.py) and exactly in micro-dollars; `campaign_id`
    the campaign a delivery charge paid for, or None."""
    rows, people = _ledger_of(db, actor, advertiser_id)
    running, history = 0, list[LedgerEntryRead]()
    for row in rows:
        running += row.amount_micros
        history.append(_entry_read(row, running, people))
    return history[::-1]


def _entry_read(row: LedgerEntry, balance: int, people: dict[int | None, str]) -> LedgerEntryRead:
    assert row.id is not None
    amount, shown = footed(row.amount_micros, balance)
    return LedgerEntryRead(id=row.id, date=row.created_at.isoformat(), kind=row.kind, campaign_id=row.campaign_id,
                           note=row.note, amount=amount, balance=shown, amount_micros=row.amount_micros,
                           balance_micros=balance, by=people.get(row.created_by, "") if row.created_by else "")


def payment_history_page(db: Session, *, actor: Actor, advertiser_id: int, limit: int = DEFAULT_LIMIT,
                         cursor: str | None = None) -> Page[LedgerEntryRead]:
    """payment_history a page at a time (keyset on the booking time and id, newest first, app/kernel/paging.py):
    only the page's entries are read, and the balance after its first entry by one SUM of the entries up to it;
    `total` by a COUNT of the advertiser's entries."""
    _advertiser(db, actor, advertiser_id)
    check_limit(limit)
    scope = {"list": "ledger", "advertiser_id": advertiser_id}
    after = decode_cursor(cursor, scope)
    mine = LedgerEntry.advertiser_id == advertiser_id
    booked, ident = col(LedgerEntry.created_at), col(LedgerEntry.id)
    total = db.exec(select(func.count()).select_from(LedgerEntry).where(mine)).one()
    query = select(LedgerEntry).where(mine)
    if after is not None:
        query = query.where(after_condition(booked, ident, after, descending=True))
    rows = list(db.exec(query.order_by(booked.desc(), ident.desc()).limit(limit + 1)))
    shown = rows[:limit]
    people = {u.id: u.display_name for u in db.exec(select(User).where(
        col(User.id).in_({e.created_by for e in shown if e.created_by})))}
    items: list[LedgerEntryRead] = []
    if shown:
        first = shown[0]
        running = int(db.exec(select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0)).where(
            mine, or_(booked < first.created_at, and_(booked == first.created_at, ident <= first.id)))).one())
        for row in shown:  # newest first: the balance before an entry is the one after it less its amount
            items.append(_entry_read(row, running, people))
            running -= row.amount_micros
    return Page[LedgerEntryRead](items=items, total=int(total), limit=limit,
                                 next_cursor=next_cursor(rows, limit, scope, lambda e: (e.created_at, e.id)))


def advertiser_balance(db: Session, *, actor: Actor, advertiser_id: int) -> BalanceRead:
    """An advertiser's balance (getAdvertiserBalance): {advertiser_id, balance (dollars as text, "5000.00"),
    balance_micros}. Another tenant's advertiser, or an account that is no advertiser, answers not found."""
    require(actor, "funds", "view")
    advertiser = require_user_in_scope(actor, db.get(User, advertiser_id))
    if advertiser.role != Role.ADVERTISER:
        raise NotFound("User not found.")
    micros = balance_micros(db, actor=actor, advertiser_id=advertiser_id)
    return BalanceRead(advertiser_id=advertiser_id, balance=dollars(micros), balance_micros=micros)


def _runs(entries: Iterable[LedgerEntry]) -> Iterator[list[LedgerEntry]]:
    """Consecutive delivery charges of one UTC day as one run (grouped_ledger splits it by campaign); every
    other entry a run of its own. A deposit booked in the middle of a day splits that day's charges in two, so
    each row's balance is the previous row's plus its amount."""
    run: list[LedgerEntry] = []
    for entry in entries:
        if run and entry.kind in DELIVERY_KINDS and run[-1].kind in DELIVERY_KINDS \
                and entry.created_at.date() == run[-1].created_at.date():
            run.append(entry)
            continue
        if run:
            yield run
        run = [entry]
    if run:
        yield run


def _hours(run: list[LedgerEntry], balance_before: int) -> list[LedgerHour]:
    """A row's delivery charges an hour a line (spend and margin side by side), newest first, each with the
    balance after it as the row counts it (the row's balance before, plus its hours up to that one). The shown
    figures foot (app/funds/footing.py): each hour's amount is the step of the shown balance, its spend the step of
    the row's shown margin so far, its spend the rest (a row without a margin never shows one); so the hours add up
    to the row."""
    hours: dict[datetime, list[int]] = {}
    for entry in run:
        spend_margin = hours.setdefault(entry.created_at.replace(minute=0, second=0, microsecond=0), [0, 0])
        spend_margin[DELIVERY_KINDS.index(entry.kind)] += entry.amount_micros
    rows: list[LedgerHour] = []
    running, kept = balance_before, 0
    for hour, (spend, margin) in hours.items():
        running += spend + margin
        amount, balance = footed(spend + margin, running)
        shown_margin = step(kept, kept + margin)
        kept += margin
        rows.append(LedgerHour(hour=hour.isoformat(), spend=less(amount, shown_margin), margin=shown_margin,
                               amount=amount, balance=balance, spend_micros=spend, margin_micros=margin,
                               amount_micros=spend + margin, balance_micros=running))
    return rows[::-1]


def _by_campaign(run: list[LedgerEntry], names: dict[int, str]) -> list[list[LedgerEntry]]:
    """A day's delivery charges split by campaign, in the order the balance is counted: shown newest first,
    that puts campaigns by name A to Z, then the charges without a campaign."""
    parts: dict[int | None, list[LedgerEntry]] = {}
    for entry in run:
        parts.setdefault(entry.campaign_id, []).append(entry)
    shown = sorted(parts, key=lambda c: (c is None, names.get(c, "").casefold() if c else "", c or 0))
    return [parts[campaign_id] for campaign_id in reversed(shown)]


def _campaign_names(db: Session, entries: list[LedgerEntry]) -> dict[int, str]:
    ids = {e.campaign_id for e in entries if e.campaign_id}
    return {i: n for i, n in db.exec(select(col(Campaign.id), Campaign.name).where(col(Campaign.id).in_(ids))) if i} if ids else {}


def grouped_ledger(db: Session, *, actor: Actor, advertiser_id: int) -> list[LedgerRow]:
    """An advertiser's ledger as a person reads it, newest first: each day's delivery charges a row per campaign
    (kind "delivery", `date` the UTC day as YYYY-MM-DD, `campaign_id` and `campaign` its name, both None for
    charges without a campaign, `spend` and `margin` totals, `entries` counted and `hours` listing them an hour a
    line), every deposit, refund and adjustment in a row of its own (`date` its time, campaign None).

    Every row has `amount` and the `balance` after it, money as dollar text ("-12.35"), and both exactly in
    micro-dollars (`amount_micros`, `balance_micros`; a delivery row's `spend_micros`, `margin_micros` too): read
    bottom to top, each row's balance is the one below it plus its amount (a day's campaigns are counted in the
    order shown, so a campaign row's balance is a running figure of the statement, not the balance at a moment of
    the day). The dollar texts foot to the cent (app/funds/footing.py): a balance is the exact one rounded, an
    amount the step between two rounded balances, a delivery row's margin its margin rounded and its spend the rest;
    a row's hours add up to it."""
    return [row for _key, _first, row in _grouped(db, actor, advertiser_id)]


def grouped_ledger_page(db: Session, *, actor: Actor, advertiser_id: int, search: str = "",
                        limit: int = DEFAULT_LIMIT, cursor: str | None = None) -> Page[LedgerRow]:
    """grouped_ledger a page at a time. Its rows are figured from the whole ledger (a row's balance is the one
    below it plus its amount), so it is read whole and cut in Python, on each row's place in the statement.
    `search`: only the rows where every word occurs in the kind, campaign, note or who entered it (the grids'
    rule, app/kernel/grid_search.py); balances stay those of the whole statement."""
    scope = {"list": "ledger", "advertiser_id": advertiser_id, "group": "day", "search": search.strip()}
    shown = [placed for placed in _grouped(db, actor, advertiser_id) if words_in_text(search, *_searched(placed[2]))]
    found = page_of_list(shown, limit=limit, cursor=cursor, scope=scope, key=lambda r: r[0], ident=lambda r: r[1])
    return Page[LedgerRow](items=[row for _key, _first, row in found.items], total=found.total, limit=limit,
                           next_cursor=found.next_cursor)


def _searched(row: LedgerRow) -> tuple[str, ...]:
    """The texts of a statement row its search looks in."""
    return row.kind, row.campaign or "", row.note, row.by


def _newest_first(entry: LedgerEntry) -> list[Any]:
    """An entry's place in the ledger, newest first, as JSON values that sort ascending: booking time, then id."""
    booked = entry.created_at if entry.created_at.tzinfo else entry.created_at.replace(tzinfo=UTC)
    assert entry.id is not None
    return [-booked.timestamp(), -entry.id]


def _grouped(db: Session, actor: Actor, advertiser_id: int) -> list[tuple[list[Any], int, LedgerRow]]:
    """grouped_ledger's rows, newest first, each with its place in that order (ascending: the newest run first,
    its campaigns as shown) and the id of its run's first entry: what a page's cursor keeps."""
    entries, people = _ledger_of(db, actor, advertiser_id)
    names = _campaign_names(db, entries)
    rows: list[tuple[list[Any], int, LedgerRow]] = []
    balance = 0
    for run in _runs(entries):
        first = run[0]
        assert first.id is not None
        if first.kind not in DELIVERY_KINDS:
            balance += first.amount_micros
            shown_amount, shown_balance = footed(first.amount_micros, balance)
            rows.append(([*_newest_first(first), False, "", 0], first.id, LedgerEntryRow(
                id=str(first.id), date=first.created_at.isoformat(), kind=first.kind, note=first.note,
                by=people.get(first.created_by, "") if first.created_by else "", entries=1, amount=shown_amount,
                balance=shown_balance, amount_micros=first.amount_micros, balance_micros=balance)))
            continue
        for part in _by_campaign(run, names):
            before, amount = balance, sum(e.amount_micros for e in part)
            balance += amount
            spend = sum(e.amount_micros for e in part if e.kind == "spend")
            campaign_id = part[0].campaign_id
            name = names.get(campaign_id, "") if campaign_id else ""
            # Its run's place, then the campaign's as _by_campaign shows it.
            place = [*_newest_first(first), campaign_id is None, name.casefold(), campaign_id or 0]
            shown_amount, shown_balance = footed(amount, balance)
            rows.append((place, first.id, LedgerDeliveryRow(
                id=f"delivery-{first.id}-{campaign_id or 0}", date=first.created_at.date().isoformat(),
                kind="delivery", campaign_id=campaign_id, campaign=names.get(campaign_id) if campaign_id else None,
                note="", by="", entries=len(part), spend=less(shown_amount, step(0, amount - spend)),
                margin=step(0, amount - spend),
                amount=shown_amount, balance=shown_balance, spend_micros=spend, margin_micros=amount - spend,
                amount_micros=amount, balance_micros=balance, hours=_hours(part, before))))
    return rows[::-1]
