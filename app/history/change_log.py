"""Change logs: the audit rows of one record, with who made each change (and who was really
behind it when acting as another user). Every entity's change-log page reads through here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlmodel import Session, col, func, or_, select

from app.access.models import User
from app.access.permissions import allowed_roles
from app.access.policy import Actor, can_see_user, require, require_user_in_scope
from app.access.roles import Role
from app.history import audit
from app.history.models import AuditEntry
from app.kernel.errors import Invalid


@dataclass(frozen=True)
class ChangeLogKind:
    """One change log the console shows: whose audit rows it reads and who may read it. Its page(s) in the route
    table (components/pages.py checks their roles against `roles` at import) and its API route (app/api/*.py,
    tests/test_change_log_access.py) both follow this; the service that reads it calls require_reader."""

    entity: str  # AuditEntry.entity of its rows
    permission: tuple[str, str]  # (entity, action) of the permission table that lets a role read it
    scope: str  # the row scope the reading service checks, in words
    page: str  # the route name of its page(s) (Page.name)
    api: str  # its API route (GET, under /api)

    @property
    def roles(self) -> frozenset[Role]:
        return allowed_roles(*self.permission)


# THE change logs. Each reads under the permission of the record it describes (a campaign's log, whoever may
# see the campaign; "audit.view" is that for campaigns, creatives and audiences), and always within the
# actor's row scope: another tenant's record answers 404 as if it did not exist.
CHANGE_LOGS: dict[str, ChangeLogKind] = {
    "campaign": ChangeLogKind("campaign", ("audit", "view"), "the campaign's advertiser is in scope",
                              "campaign.change_log", "/campaigns/{campaign_id}/change-log"),
    # Every campaign of one advertiser: staff only (/admin/CampaignList/changeLog/{id} and its co-admin copy).
    "advertiser_campaigns": ChangeLogKind("campaign", ("audit", "advertiser_campaigns"),
                                          "the advertiser is in scope", "campaigns.advertiser_change_log",
                                          "/advertisers/{advertiser_id}/campaigns/change-log"),
    "creative": ChangeLogKind("creative", ("audit", "view"), "the creative's advertiser is in scope",
                              "creative.change_log", "/creatives/{creative_id}/change-log"),
    "audience": ChangeLogKind("audience", ("audit", "view"), "the audience's advertiser is in scope",
                              "audience.change_log", "/audiences/{audience_id}/change-log"),
    "app_list": ChangeLogKind("app_list", ("app_list", "view"), "the list's advertiser is in scope",
                              "applist.change_log", "/inventory-lists/{applist_id}/changelog"),
    "smart_app_list": ChangeLogKind("smart_app_list", ("smart_app_list", "manage"), "every list (staff)",
                                    "smartapp.change_log", "/smart-apps/{list_id}/changelog"),
    "exchange_approval": ChangeLogKind("exchange_approval", ("exchange_approval", "view"),
                                       "the campaign exists (staff)", "exchange.change_log",
                                       "/exchange-approval/change-log/{campaign_id}"),
    "user": ChangeLogKind("user", ("user", "view"), "the account is in scope", "user.change_log",
                          "/users/{user_id}/change-log"),
}


def require_reader(actor: Actor | None, kind: str) -> Actor:
    """The permission check of one change log (CHANGE_LOGS): pages and API call the same service, which calls
    this before it checks the record's row scope."""
    return require(actor, *CHANGE_LOGS[kind].permission)


def entries(db: Session, *, entity: str, entity_id: Any, limit: int = 500) -> list[dict[str, Any]]:
    """Newest first. Callers check permission and scope before calling."""
    return shown(db, audit.history(db, entity=entity, entity_id=entity_id, limit=limit))


def shown(db: Session, rows: list[AuditEntry]) -> list[dict[str, Any]]:
    """Audit rows as change-log entries: when, what, who (and who was really behind it), field changes."""
    people = {u.id: u for u in db.exec(select(User).where(
        col(User.id).in_({r.actor_id for r in rows} | {r.real_user_id for r in rows})))}

    def who(user_id: int | None) -> str:
        user = people.get(user_id) if user_id else None
        return f"{user.display_name} ({user.email})" if user else ""

    return [{"id": r.id, "date": r.created_at.isoformat(), "action": r.action, "actor": who(r.actor_id) or "—",
             "entity_id": r.entity_id, "actor_id": r.actor_id,
             "on_behalf": who(r.real_user_id) if r.real_user_id and r.real_user_id != r.actor_id else "",
             "changes": [{"field": field, "old": old, "new": new} for field, (old, new) in r.changes.items()]}
            for r in rows]


def _day(value: str, field: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise Invalid({field: "Enter a date such as 2026-12-01."}) from None


def filtered_rows(db: Session, *, entity: str, entity_ids: list[Any], since: str = "", until: str = "",
                  user_id: int | None = None, limit: int = 1000) -> list[AuditEntry]:
    """The audit rows of some records, newest first, from the day `since` to the day `until` (ISO dates, UTC)
    and by `user_id` (who made the change, or who was really behind it). Callers check scope first."""
    start, end = _day(since, "since"), _day(until, "until")
    query = select(AuditEntry).where(AuditEntry.entity == entity,
                                     col(AuditEntry.entity_id).in_([str(i) for i in entity_ids]))
    if start:
        query = query.where(AuditEntry.created_at >= datetime.combine(start, time.min, tzinfo=UTC))
    if end:
        query = query.where(AuditEntry.created_at < datetime.combine(end + timedelta(days=1), time.min, tzinfo=UTC))
    if user_id:
        query = query.where(or_(AuditEntry.actor_id == user_id, AuditEntry.real_user_id == user_id))
    return list(db.exec(query.order_by(col(AuditEntry.id).desc()).limit(limit)))


def people(db: Session, *, entity: str, entity_ids: list[Any]) -> list[dict[str, Any]]:
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
    return [{"id": uid, "name": f"{users[uid].display_name} ({users[uid].email})"} for uid in ids if uid in users]


def user_change_log(db: Session, *, actor: Actor, user_id: int) -> list[dict[str, Any]]:
    """/admin/user/change-log/{id} and /agency/changeLog/{id}."""
    require_reader(actor, "user")
    require_user_in_scope(actor, db.get(User, user_id))
    return _name_agencies(db, actor, entries(db, entity="user", entity_id=user_id))


def _name_agencies(db: Session, actor: Actor, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """agency_id values as the agency's name, for the agencies the actor may see; others keep their bare id,
    so an agency reading a moved advertiser's log learns no other agency's name."""
    ids = {v for r in rows for c in r["changes"] if c["field"] == "agency_id" for v in (c["old"], c["new"]) if v}
    if not ids:
        return rows
    names = {u.id: u.company_name or u.display_name
             for u in db.exec(select(User).where(col(User.id).in_(ids))) if can_see_user(actor, u)}
    for row in rows:
        for change in row["changes"]:
            if change["field"] == "agency_id":
                change["old"], change["new"] = (names.get(v, f"#{v}") if v else v for v in (change["old"], change["new"]))
    return rows
