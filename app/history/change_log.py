"""Change logs: the audit rows of one record, with who made each change (and who was really
behind it when acting as another user). Every entity's change-log page reads through here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from typing import Any

from pydantic import BaseModel, create_model
from sqlmodel import Session, col, func, or_, select

from app.access.models import User
from app.access.permissions import allowed_roles
from app.access.policy import Actor, can_see_user, require, require_user_in_scope
from app.access.roles import Role
from app.history.audit import is_system_field
from app.history.models import AuditEntry
from app.history.schemas import (
    CampaignChangeLogEntry,
    ChangeLogEntry,
    ChangeLogPage,
    ChangeLogPerson,
    ChangeLogSubject,
    ExchangeChangeLogEntry,
    RecordSubject,
    UserSubject,
)
from app.kernel.errors import Invalid
from app.kernel.paging import DEFAULT_LIMIT, Page, check_limit, decode_cursor, next_cursor


@dataclass(frozen=True)
class ChangeLogKind:
    """One change log the console shows: whose audit rows it reads and who may read it. Its page(s) in the route
    table (components/pages.py builds them over one component and checks their roles against `roles` at import)
    and its API route (app/web/kinds_api.py, tests/test_change_log_access.py) both follow this; `read` and `page`
    check its permission (require_reader), its domain's source the row scope."""

    entity: str  # AuditEntry.entity of its rows
    permission: tuple[str, str]  # (entity, action) of the permission table that lets a role read it
    scope: str  # the row scope the reading service checks, in words
    page: str  # the route name of its page(s) (Page.name)
    api: str  # its API route (GET, under /api); its one {parameter} is the record's id
    subject: str = ""  # the answer's key naming the record ({subject, entries, people}); "" answers the entries
    aliases: tuple[tuple[str, str], ...] = ()  # (path, summary): the same route under the spec's call names
    shown: type[ChangeLogSubject] = RecordSubject  # the record as the log names it
    entry: type[ChangeLogEntry] = ChangeLogEntry  # one entry, with what its domain adds (the campaign's name)

    @property
    def roles(self) -> frozenset[Role]:
        return allowed_roles(*self.permission)

    @property
    def reply(self) -> Any:
        """What its aliases (the spec's call names) answer (`read`), as a type: a model {<subject>, entries,
        people}, or list[<entry>] for a kind without a subject."""
        return _reply_model(self)

    @property
    def paged_reply(self) -> Any:
        """What its API route answers (`read_page`), as a type: a Page of its entries, with the record under
        the `subject` key and the people who changed it beside the page for a kind with a subject."""
        return _paged_reply_model(self)


@cache
def _reply_model(log: ChangeLogKind) -> Any:
    if not log.subject:
        return list[log.entry]  # type: ignore[name-defined]  # the kind's own entry model
    name = "".join(part.title() for part in log.page.replace(".", "_").split("_"))  # campaign.change_log: CampaignChangeLog
    model: type[BaseModel] = create_model(name, __doc__=f"A change log: its {log.subject}, its entries newest first "
                                                        "and who made them (the person filter).",
                                          **{log.subject: (log.shown, ...)},  # type: ignore[call-overload]
                                          entries=(list[log.entry], ...),  # type: ignore[name-defined]
                                          people=(list[ChangeLogPerson], ...))
    return model


@cache
def _paged_reply_model(log: ChangeLogKind) -> Any:
    entries: Any = Page[log.entry]  # type: ignore[name-defined]  # the kind's own entry model
    if not log.subject:
        return entries
    name = "".join(part.title() for part in log.page.replace(".", "_").split("_")) + "Page"
    model: type[BaseModel] = create_model(name, __base__=entries, __doc__=(
        f"A change log a page at a time: its {log.subject}, a page of its entries (`items`) newest first, and who "
        "made them (the person filter)."),
        **{log.subject: (log.shown, ...)},  # type: ignore[call-overload]
        people=(list[ChangeLogPerson], ...))
    return model


# THE change logs. Each reads under the permission of the record it describes (a campaign's log, whoever may
# see the campaign; "audit.view" is that for campaigns, creatives and audiences), and always within the
# actor's row scope: another tenant's record answers 404 as if it did not exist.
CHANGE_LOGS: dict[str, ChangeLogKind] = {
    "campaign": ChangeLogKind("campaign", ("audit", "view"), "the campaign's advertiser is in scope",
                              "campaign.change_log", "/campaigns/{campaign_id}/change-log", "campaign",
                              entry=CampaignChangeLogEntry),
    # Every campaign of one advertiser: staff only (/admin/CampaignList/changeLog/{id} and its co-admin copy).
    "advertiser_campaigns": ChangeLogKind("campaign", ("audit", "advertiser_campaigns"),
                                          "the advertiser is in scope", "campaigns.advertiser_change_log",
                                          "/advertisers/{advertiser_id}/campaigns/change-log", "advertiser",
                                          shown=ChangeLogSubject, entry=CampaignChangeLogEntry),
    "creative": ChangeLogKind("creative", ("audit", "view"), "the creative's advertiser is in scope",
                              "creative.change_log", "/creatives/{creative_id}/change-log", "creative"),
    "audience": ChangeLogKind("audience", ("audit", "view"), "the audience's advertiser is in scope",
                              "audience.change_log", "/audiences/{audience_id}/change-log", "audience"),
    "app_list": ChangeLogKind("app_list", ("app_list", "view"), "the list's advertiser is in scope",
                              "applist.change_log", "/inventory-lists/{applist_id}/changelog", "list",
                              aliases=(("/getChangeLogAppList/{applist_id}", "getChangeLogAppList: a list's change "
                                        "history (as GET /inventory-lists/{id}/changelog)"),)),
    "smart_app_list": ChangeLogKind("smart_app_list", ("smart_app_list", "manage"), "every list (staff)",
                                    "smartapp.change_log", "/smart-apps/{list_id}/changelog", "list"),
    "exchange_approval": ChangeLogKind("exchange_approval", ("exchange_approval", "view"),
                                       "the campaign exists (staff)", "exchange.change_log",
                                       "/exchange-approval/change-log/{campaign_id}", "campaign",
                                       entry=ExchangeChangeLogEntry),
    "user": ChangeLogKind("user", ("user", "view"), "the account is in scope", "user.change_log",
                          "/users/{user_id}/change-log", shown=UserSubject),
    # A DSP connection's edits, tests and status moves (admin only, like every DSP page); its credentials show
    # only as changed.
    "dsp": ChangeLogKind("dsp", ("dsp", "view"), "every DSP (admin; its credentials show only as changed)",
                         "dsp.change_log", "/dsp/{dsp_id}/changelog"),
}
LIMIT = 1000  # entries a log shows at most, newest first
# Entities whose writes are audited but that no change log shows (yet): their rows stay in the audit trail.
# Every audited entity is a change log's, a status machine's (app/history/status.py) or one of these
# (tests/test_record_kinds.py), so a new kind cannot be audited without being declared somewhere.
AUDITED_ONLY: dict[str, str] = {
    "api_credential": "an API key made, renamed or revoked (app/settings/api_credentials.py)",
    "company_config": "the company's brand and settings (app/settings/company.py)",
    "creative_asset": "an uploaded creative file (app/creatives/records.py)",
    "funds": "money added by staff (app/funds): the ledger is its own history",
    "postback": "a conversion postback's settings (app/settings/postbacks.py)",
    "reference_value": "a value of a reference list (app/reference/metadata.py)",
    "report": "a saved report (app/reports/service.py)",
    "sign_in_policy": "the staff two-factor sign-in rule (app/accounts/second_factor.py)",
    "statistics_batch": "a delivery batch ingested (app/statistics/ingestion.py)",
}


@dataclass(frozen=True)
class Subject:
    """What one change log is about, as its domain found it in the reader's scope."""

    shown: dict[str, Any] | ChangeLogSubject  # the record as the log names it (read as the kind's `shown`)
    ids: list[Any]  # the records whose audit rows the log reads
    names: dict[str, str] = field(default_factory=dict)  # entity id -> name, for a log of many records
    owner: int | None = None  # the advertiser whose record it is, for readers that name its other records


def about(row: Any) -> Subject:
    """The subject of a log of one row that has a name and a status."""
    return Subject(RecordSubject(id=row.id, name=row.name, status=row.status), [row.id])


@dataclass(frozen=True)
class ChangeLogSource:
    """A domain's part of a change log: `find` checks the record is in the reader's scope (NotFound otherwise)
    and says what the log covers; `readable` turns stored changes into what people read (names, dollars)."""

    find: Callable[[Session, Actor, int], Subject]
    readable: Callable[[Session, Actor, Subject, list[dict[str, Any]]], list[dict[str, Any]]] | None = None


_SOURCES: dict[str, ChangeLogSource] = {}


def register(kind: str, source: ChangeLogSource) -> None:
    """A domain's source for one declared change log (registering a kind again replaces it)."""
    if kind not in CHANGE_LOGS:
        raise KeyError(f"no change log {kind!r} is declared (app/history/change_log.py CHANGE_LOGS)")
    _SOURCES[kind] = source


def source(kind: str) -> ChangeLogSource:
    """The registered source of a declared log; RuntimeError when its domain has not registered one."""
    if kind not in _SOURCES:
        raise RuntimeError(f"change log {kind}: no source registered (is that domain's package loaded?)")
    return _SOURCES[kind]


def page(db: Session, *, actor: Actor | None, kind: str, record_id: int, since: str = "", until: str = "",
         user_id: int | None = None, limit: int | None = None, cursor: str | None = None) -> ChangeLogPage:
    """One change log, the one reader of every kind: the record it is about (the kind's `shown`), its entries
    newest first, from the day `since` to the day `until` (ISO dates, UTC) and by `user_id`, and who changed it
    (for the person filter). Checks the log's permission, then the record's row scope. With a `limit`, a page of
    entries at a time (keyset on the audit row's id, from `cursor`), with `next_cursor` and `total` (a COUNT on
    the audit trail's index); without, the newest LIMIT entries."""
    log = CHANGE_LOGS[kind]
    actor = require_reader(actor, kind)
    found = source(kind)
    subject = found.find(db, actor, record_id)
    scope = {"list": f"change_log.{kind}", "record_id": record_id, "since": since, "until": until, "user_id": user_id}
    if limit is not None:
        check_limit(limit)
    after = decode_cursor(cursor, scope)
    query = _filtered(entity=log.entity, entity_ids=subject.ids, since=since, until=until, user_id=user_id)
    total = None
    if limit is not None:
        total = int(db.exec(select(func.count()).select_from(query.subquery())).one())
    if after is not None:
        query = query.where(col(AuditEntry.id) < after.id)
    audited = list(db.exec(query.order_by(col(AuditEntry.id).desc()).limit((limit + 1) if limit else LIMIT)))
    rows = shown(db, audited[:limit] if limit else audited)
    if found.readable:
        rows = found.readable(db, actor, subject, rows)
    named = subject.shown if isinstance(subject.shown, dict) else subject.shown.model_dump()
    return ChangeLogPage(subject=log.shown.model_validate(named), entries=[log.entry.model_validate(r) for r in rows],
                         people=people(db, entity=log.entity, entity_ids=subject.ids), total=total,
                         next_cursor=next_cursor(audited, limit, scope, lambda r: (None, r.id)) if limit else None)


def read(db: Session, *, actor: Actor | None, kind: str, record_id: int, since: str = "", until: str = "",
         user_id: int | None = None) -> BaseModel | list[ChangeLogEntry]:
    """One change log as its API answers (the kind's `reply`): the page's, with the record under the kind's
    `subject` key ({<subject>, entries, people}), or the entries alone for a kind without one."""
    log = CHANGE_LOGS[kind]
    shown_page = page(db, actor=actor, kind=kind, record_id=record_id, since=since, until=until, user_id=user_id)
    if not log.subject:
        return shown_page.entries
    reply = log.reply
    assert isinstance(reply, type) and issubclass(reply, BaseModel)
    return reply.model_validate({log.subject: shown_page.subject, "entries": shown_page.entries,
                                 "people": shown_page.people})


def read_page(db: Session, *, actor: Actor | None, kind: str, record_id: int, since: str = "", until: str = "",
              user_id: int | None = None, limit: int = DEFAULT_LIMIT, cursor: str | None = None) -> BaseModel:
    """One change log a page at a time as its API route answers (the kind's `paged_reply`): a Page of its
    entries, with the record under the kind's `subject` key and `people` for a kind with one."""
    log = CHANGE_LOGS[kind]
    found = page(db, actor=actor, kind=kind, record_id=record_id, since=since, until=until, user_id=user_id,
                 limit=limit, cursor=cursor)
    paged = {"items": found.entries, "next_cursor": found.next_cursor, "total": found.total, "limit": limit}
    extra = {log.subject: found.subject, "people": found.people} if log.subject else {}
    reply: type[BaseModel] = log.paged_reply
    return reply.model_validate({**paged, **extra})


def require_reader(actor: Actor | None, kind: str) -> Actor:
    """The permission check of one change log (CHANGE_LOGS): pages and API call the same service, which calls
    this before it checks the record's row scope."""
    return require(actor, *CHANGE_LOGS[kind].permission)


def shown(db: Session, rows: list[AuditEntry]) -> list[dict[str, Any]]:
    """Audit rows as change-log entries (a ChangeLogEntry's keys; the kind's source then makes them readable):
    when, what, who (and who was really behind it), field changes."""
    people = {u.id: u for u in db.exec(select(User).where(
        col(User.id).in_({r.actor_id for r in rows} | {r.real_user_id for r in rows})))}

    def who(user_id: int | None) -> str:
        user = people.get(user_id) if user_id else None
        return f"{user.actor_name} ({user.email})" if user else ""

    return [{"id": r.id, "date": r.created_at.isoformat(), "action": r.action.partition(":")[0],
             "restores": restored_entry(r.action), "actor": who(r.actor_id) or "—",
             "entity_id": r.entity_id, "actor_id": r.actor_id,
             "on_behalf": who(r.real_user_id) if r.real_user_id and r.real_user_id != r.actor_id else "",
             "changes": [{"field": field, "old": old, "new": new} for field, (old, new) in r.changes.items()
                         if not is_system_field(field)]}
            for r in rows]


def restored_entry(action: str) -> int | None:
    """The entry a restore's action names ("restore:17", app/history/restore.py): the audit row keeps which change
    it set back in its action, as a status change keeps its status ("set_status_active"), so no column is needed."""
    _name, _colon, entry = action.partition(":")
    return int(entry) if entry.isdigit() else None


def _day(value: str, field: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise Invalid({field: "Enter a date such as 2026-12-01."}) from None


def _filtered(*, entity: str, entity_ids: list[Any], since: str, until: str, user_id: int | None) -> Any:
    """The audit rows of some records (unordered), from the day `since` to the day `until` (ISO dates, UTC) and
    by `user_id` (who made the change, or who was really behind it). Callers check scope first."""
    start, end = _day(since, "since"), _day(until, "until")
    query = select(AuditEntry).where(AuditEntry.entity == entity,
                                     col(AuditEntry.entity_id).in_([str(i) for i in entity_ids]))
    if start:
        query = query.where(AuditEntry.created_at >= datetime.combine(start, time.min, tzinfo=UTC))
    if end:
        query = query.where(AuditEntry.created_at < datetime.combine(end + timedelta(days=1), time.min, tzinfo=UTC))
    if user_id:
        query = query.where(or_(AuditEntry.actor_id == user_id, AuditEntry.real_user_id == user_id))
    return query


def people(db: Session, *, entity: str, entity_ids: list[Any]) -> list[ChangeLogPerson]:
    """Who changed these records, most recent first, once each: the change log's person filter. One query,
    so a filtered log need not read (and make readable) the whole history to offer it."""
    if not entity_ids:
        return []
    latest = func.max(AuditEntry.id)
    ids = [uid for uid, _last in db.exec(
        select(AuditEntry.actor_id, latest)
        .where(AuditEntry.entity == entity, col(AuditEntry.entity_id).in_([str(i) for i in entity_ids]),
               col(AuditEntry.actor_id).is_not(None))
        .group_by(col(AuditEntry.actor_id)).order_by(latest.desc()))]
    users = {u.id: u for u in db.exec(select(User).where(col(User.id).in_(ids)))}
    return [ChangeLogPerson(id=uid, name=f"{users[uid].actor_name} ({users[uid].email})")
            for uid in ids if uid in users]


def _user(db: Session, actor: Actor, user_id: int) -> Subject:
    user = require_user_in_scope(actor, db.get(User, user_id))
    return Subject({"id": user.id, "name": f"{user.display_name} · {user.email}", "role": user.role,
                    "status": user.status}, [user_id])


def _name_agencies(db: Session, actor: Actor, _subject: Subject, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """agency_id values as the agency's name, for the agencies the actor may see; others keep their bare id,
    so an agency reading a moved advertiser's log learns no other agency's name."""
    ids = {v for r in rows for c in r["changes"] if c["field"] == "agency_id" for v in (c["old"], c["new"]) if v}
    if not ids:
        return rows
    names = {u.id: u.account_name
             for u in db.exec(select(User).where(col(User.id).in_(ids))) if can_see_user(actor, u)}
    for row in rows:
        for change in row["changes"]:
            if change["field"] == "agency_id":
                change["old"], change["new"] = (names.get(v, f"#{v}") if v else v for v in (change["old"], change["new"]))
    return rows


# Accounts live below history (app/access), so their log's source is registered here.
register("user", ChangeLogSource(_user, _name_agencies))
