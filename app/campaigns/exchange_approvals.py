"""Exchange approvals (/admin/exchange-approval, /admin/bulk-exchange-approval and each campaign's view): a
campaign runs on an exchange only once that campaign x exchange is approved.

Saving a campaign requests the exchanges it asks for (sync_requests, called by the campaign services); staff
approve or reject requests, in bulk with a result per row; the advertiser reads the state and the reason per
exchange on the campaign; the simulator (and any delivery) uses approved_exchange_names. Every request and
decision is in the campaign's exchange change log (audit entity "exchange_approval", keyed by campaign).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, col, func, select

from app.access.models import User
from app.access.policy import Actor, require
from app.access.preferences import settings_of
from app.campaigns.models import ApprovalStatus, Campaign, CampaignStatus, ExchangeApproval
from app.campaigns.schemas import BulkResult, CampaignExchangeRead, ExchangeRequestRead
from app.campaigns.scope import campaign_in_scope
from app.history import audit, change_log
from app.kernel.choices import filter_choice
from app.kernel.errors import Invalid, NotFound
from app.kernel.grid_search import every_word
from app.kernel.keyset_pages import KeysetOrder, read_page
from app.kernel.model_base import utcnow
from app.kernel.numbered_pages import NumberedPage, check_page, column_order, read_numbered
from app.kernel.paging import DEFAULT_LIMIT, Page
from app.reference import metadata
from app.reference.models import ReferenceValue

ENTITY = "exchange_approval"
MAX_DECISIONS = 1000
REASON_MAX = 255
REASON_NEEDED = "Give a reason for the rejection."
DECISIONS = (ApprovalStatus.APPROVED.value, ApprovalStatus.REJECTED.value)


def requested_exchanges(db: Session, campaign: Campaign) -> set[int]:
    """The exchanges a campaign asks to run on: its targeting's, or (none chosen) every active exchange its
    advertiser may buy on (its user configuration; empty there means every exchange)."""
    chosen = set((campaign.targeting or {}).get("exchanges") or [])
    if chosen:
        return chosen
    allowed = set(settings_of(db, campaign.advertiser_id).allowed_exchanges or [])
    active = {i for i in db.exec(select(col(ReferenceValue.id)).where(ReferenceValue.kind == "exchange",
                                                         ReferenceValue.retired == False)) if i}  # noqa: E712
    return (allowed & active) if allowed else active


def sync_requests(db: Session, *, actor: Actor | None, campaign: Campaign) -> None:
    """After a campaign is saved: a pending request for each exchange it now asks for and has none for, and its
    pending requests for exchanges it no longer asks for withdrawn. Decisions already made stay: an approved
    exchange stays approved when it is chosen again. An archived campaign asks for nothing new."""
    assert campaign.id is not None
    if campaign.status == CampaignStatus.ARCHIVED:
        return
    wanted = requested_exchanges(db, campaign)
    existing = {a.exchange_id: a for a in db.exec(select(ExchangeApproval)
                                                   .where(ExchangeApproval.campaign_id == campaign.id)).all()}
    names = metadata.names_by_id(db, wanted | set(existing))
    for exchange_id in sorted(wanted - set(existing)):
        db.add(ExchangeApproval(campaign_id=campaign.id, exchange_id=exchange_id))
        audit.record(db, actor=actor, entity=ENTITY, entity_id=campaign.id, action="request",
                     after={"exchange": names.get(exchange_id, f"#{exchange_id}"), "status": ApprovalStatus.PENDING.value})
    for exchange_id, approval in existing.items():
        if exchange_id not in wanted and approval.status == ApprovalStatus.PENDING:
            db.delete(approval)
            audit.record(db, actor=actor, entity=ENTITY, entity_id=campaign.id, action="withdraw",
                         before={"exchange": names.get(exchange_id, f"#{exchange_id}"), "status": approval.status})
    db.flush()


def _row(approval: ExchangeApproval, campaign: Campaign, advertiser: User, exchange: str,
         decider: str = "") -> ExchangeRequestRead:
    assert approval.id is not None and campaign.id is not None and advertiser.id is not None
    return ExchangeRequestRead(
        id=approval.id, campaign_id=campaign.id, campaign=campaign.name, campaign_status=campaign.status,
        advertiser_id=advertiser.id, advertiser=advertiser.account_name,
        exchange_id=approval.exchange_id, exchange=exchange, status=approval.status, reason=approval.reason,
        requested_at=approval.requested_at.isoformat(),
        decided_at=approval.decided_at.isoformat() if approval.decided_at else None, decided_by=decider)


def _requests_query(actor: Actor, *, status: str, campaign_id: int | None, search: str) -> Any:
    """Staff: the requests of every campaign that is not archived, before their order; `search` keeps those whose
    campaign, advertiser or exchange name contains it."""
    require(actor, ENTITY, "view")
    filter_choice("status", status, tuple(ApprovalStatus))
    query = (select(ExchangeApproval, Campaign, User, ReferenceValue.name)
             .join(Campaign, col(Campaign.id) == ExchangeApproval.campaign_id)
             .join(User, col(User.id) == Campaign.advertiser_id)
             .join(ReferenceValue, col(ReferenceValue.id) == ExchangeApproval.exchange_id)
             .where(Campaign.status != CampaignStatus.ARCHIVED))
    if status:
        query = query.where(ExchangeApproval.status == status)
    if campaign_id is not None:
        query = query.where(ExchangeApproval.campaign_id == campaign_id)
    return query.where(*every_word(search, Campaign.name, ReferenceValue.name, User.company_name))


# Newest request first, ties by id: the list's one order.
_NEWEST_FIRST = KeysetOrder(col(ExchangeApproval.requested_at), col(ExchangeApproval.id), descending=True)


def list_requests(db: Session, *, actor: Actor, status: str = "pending", campaign_id: int | None = None
                  ) -> list[ExchangeRequestRead]:
    """Staff: the requests of every campaign that is not archived, newest first; `status` narrows (""= all)."""
    query = _requests_query(actor, status=status, campaign_id=campaign_id, search="")
    return _request_rows(db, db.exec(query.order_by(*_NEWEST_FIRST.order_by())).all())


def requests_page(db: Session, *, actor: Actor, status: str = "pending", campaign_id: int | None = None,
                  search: str = "", limit: int = DEFAULT_LIMIT, cursor: str | None = None) -> Page[ExchangeRequestRead]:
    """Staff: the requests a page at a time, newest first (keyset on requested_at, id), for the API and the
    approval page's grid; `total` by a COUNT."""
    query = _requests_query(actor, status=status, campaign_id=campaign_id, search=search)
    scope = {"list": "exchange_requests", "status": status, "campaign_id": campaign_id, "search": search.strip()}
    return read_page(db, query, _NEWEST_FIRST, limit=limit, cursor=cursor, scope=scope,
                     position=lambda r: (r[0].requested_at, r[0].id), shown=lambda rows: _request_rows(db, rows))


# The bulk page's sortable columns (ExchangeRequestRead keys) and the SQL each sorts by.
LIST_SORTS: dict[str, Any] = {"id": None, "campaign": Campaign.name, "advertiser": User.company_name,
                              "exchange": ReferenceValue.name, "status": ExchangeApproval.status,
                              "requested_at": ExchangeApproval.requested_at}


def list_requests_page(db: Session, *, actor: Actor, status: str = "pending", search: str = "", sort: str = "",
                       page: int = 1, page_size: int = 50,
                       ids: Sequence[int] | None = None) -> NumberedPage[ExchangeRequestRead]:
    """Staff: one numbered page of the requests for the bulk page's grid (newest first unless `sort` says), the
    total by a COUNT; `ids`: only these requests (the bulk page's "selected only")."""
    check_page(page, page_size, things="requests")
    query = _requests_query(actor, status=status, campaign_id=None, search=search)
    if ids is not None:
        query = query.where(col(ExchangeApproval.id).in_(ids))
    order = column_order(sort, LIST_SORTS, col(ExchangeApproval.id), default="-requested_at")
    rows, total = read_numbered(db, query, order, page=page, page_size=page_size)
    return NumberedPage[ExchangeRequestRead](rows=_request_rows(db, rows), total=total, page=page, page_size=page_size)


def _request_rows(db: Session, rows: Sequence[Any]) -> list[ExchangeRequestRead]:
    """(request, campaign, advertiser, exchange name) rows as shown, with the deciders' names in one query."""
    deciders = dict(db.exec(select(User.id, User.first_name + " " + User.last_name).where(
        col(User.id).in_({a.decided_by for a, *_ in rows if a.decided_by}))).all())
    return [_row(a, c, u, name, deciders.get(a.decided_by, "") if a.decided_by else "") for a, c, u, name in rows]


def decide_many(db: Session, *, actor: Actor, approval_ids: Sequence[int], decision: str,
                reason: str = "") -> list[BulkResult]:
    """Staff: approve or reject requests; one {id, name, ok, message} per id in request order (the bulk page's
    results). A rejection needs a reason; deciding a request again changes its decision."""
    require(actor, ENTITY, "decide")
    reason = (reason or "").strip()
    errors: dict[str, str] = {}
    if decision not in DECISIONS:
        errors["decision"] = "Choose approve or reject."
    if decision == ApprovalStatus.REJECTED and not reason:
        errors["reason"] = REASON_NEEDED
    if len(reason) > REASON_MAX:
        errors["reason"] = f"At most {REASON_MAX} characters."
    ids = list(dict.fromkeys(int(i) for i in approval_ids))
    if not ids:
        errors["approval_ids"] = "Choose at least one request."
    elif len(ids) > MAX_DECISIONS:
        errors["approval_ids"] = f"At most {MAX_DECISIONS:,} requests at once."
    if errors:
        raise Invalid(errors)
    found = {a.id: (a, c, name) for a, c, name in db.exec(
        select(ExchangeApproval, Campaign, ReferenceValue.name)
        .join(Campaign, col(Campaign.id) == ExchangeApproval.campaign_id)
        .join(ReferenceValue, col(ReferenceValue.id) == ExchangeApproval.exchange_id)
        .where(col(ExchangeApproval.id).in_(ids))).all()}
    results: list[BulkResult] = []
    for approval_id in ids:
        if approval_id not in found:
            results.append(BulkResult(id=approval_id, name="", ok=False, message="Request not found."))
            continue
        approval, campaign, exchange = found[approval_id]
        label = f"{campaign.name} · {exchange}"
        if campaign.status == CampaignStatus.ARCHIVED:
            results.append(BulkResult(id=approval_id, name=label, ok=False, message="The campaign is archived."))
            continue
        # The exchange only in `after`: the log's diff then names it on every entry (approval_history reads it).
        before = {"status": approval.status, "reason": approval.reason}
        approval.status, approval.reason = decision, reason
        approval.decided_at, approval.decided_by = utcnow(), actor.id
        db.add(approval)
        audit.record(db, actor=actor, entity=ENTITY, entity_id=campaign.id,
                     action="approve" if decision == ApprovalStatus.APPROVED else "reject",
                     before=before, after={"exchange": exchange, "status": decision, "reason": reason})
        results.append(BulkResult(id=approval_id, name=label, ok=True, message=""))
    db.flush()
    return results


# By exchange name in any case, ties by id.
_BY_EXCHANGE = KeysetOrder(func.lower(ReferenceValue.name), col(ExchangeApproval.id))


def campaign_exchanges(db: Session, *, actor: Actor, campaign_id: int) -> list[CampaignExchangeRead]:
    """The state and reason per exchange of one campaign, for whoever may see the campaign (its view page)."""
    query = _campaign_exchanges_query(db, actor, campaign_id)
    return _campaign_exchange_rows(db.exec(query.order_by(*_BY_EXCHANGE.order_by())).all())


def campaign_exchanges_page(db: Session, *, actor: Actor, campaign_id: int, limit: int = DEFAULT_LIMIT,
                            cursor: str | None = None) -> Page[CampaignExchangeRead]:
    """One campaign's exchanges a page at a time, by exchange name (keyset on its lower case, id)."""
    query = _campaign_exchanges_query(db, actor, campaign_id)
    scope = {"list": "campaign_exchanges", "campaign_id": campaign_id}
    return read_page(db, query, _BY_EXCHANGE, limit=limit, cursor=cursor, scope=scope,
                     position=lambda r: (r[2], r[0].id), shown=_campaign_exchange_rows)


def _campaign_exchanges_query(db: Session, actor: Actor, campaign_id: int) -> Any:
    require(actor, "campaign", "view")
    campaign_in_scope(db, actor, campaign_id)  # row scope: not found otherwise
    return (select(ExchangeApproval, ReferenceValue.name, _BY_EXCHANGE.key)
            .join(ReferenceValue, col(ReferenceValue.id) == ExchangeApproval.exchange_id)
            .where(ExchangeApproval.campaign_id == campaign_id))


def _campaign_exchange_rows(rows: Sequence[Any]) -> list[CampaignExchangeRead]:
    return [CampaignExchangeRead(id=a.id, exchange=name, status=a.status, reason=a.reason,
                                 decided_at=a.decided_at.isoformat() if a.decided_at else None)
            for a, name, _key in rows if a.id is not None]


def approved_exchange_names(db: Session, campaign_ids: Sequence[int]) -> dict[int, tuple[str, ...]]:
    """System (delivery): each campaign's approved exchanges by name; a campaign without any runs nowhere."""
    if not campaign_ids:
        return {}
    found: dict[int, list[str]] = {}
    for campaign_id, name in db.exec(select(ExchangeApproval.campaign_id, ReferenceValue.name)
                                     .join(ReferenceValue, col(ReferenceValue.id) == ExchangeApproval.exchange_id)
                                     .where(col(ExchangeApproval.campaign_id).in_(list(campaign_ids)),
                                            ExchangeApproval.status == ApprovalStatus.APPROVED)).all():
        found.setdefault(campaign_id, []).append(name)
    return {campaign_id: tuple(sorted(names)) for campaign_id, names in found.items()}


def _campaign(db: Session, _actor: Actor, campaign_id: int) -> change_log.Subject:
    campaign = db.get(Campaign, campaign_id)
    if campaign is None:
        raise NotFound("Campaign not found.")
    return change_log.about(campaign)


def _exchange_named(_db: Session, _actor: Actor, _subject: change_log.Subject,
                    entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for entry in entries:  # which exchange an entry is about: its own column, not a field change
        named = next((c for c in entry["changes"] if c["field"] == "exchange"), None)
        entry["exchange"] = (named["new"] or named["old"]) if named else ""
        entry["changes"] = [c for c in entry["changes"] if c["field"] != "exchange"]
    return entries


# Staff: one campaign's requests and decisions over time (/admin/exchange-approval/change-log/{id}).
change_log.register("exchange_approval", change_log.ChangeLogSource(_campaign, _exchange_named))
