"""A campaign's change history as people read it: money in dollars (rows keep micros), targeting lists as
what was added and removed, filterable by date range and by who made the change. One campaign's log, or
every campaign of one advertiser (/admin/CampaignList/changeLog/{id})."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session, select

from app.access.models import User
from app.access.policy import Actor, require_user_in_scope
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.history import change_log
from app.kernel import money


def _dollars(value: Any) -> Any:
    return money.dollars(value) if isinstance(value, int) else value


_EMPTY: tuple[object, ...] = (None, "", [], {"allow": [], "block": []})
_TIMES = ("starts_at", "ends_at")


def _time(value: Any) -> Any:
    try:
        return datetime.fromisoformat(value).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if value else value
    except (TypeError, ValueError):
        return value


def _named(db: Session, key: str, values: list[Any]) -> list[str]:
    """Codes and ids as people know them (Germany, Munich (DE), Magnite), for the keys that have names."""
    names = campaigns.targeting_names(db, {key: values}).get(key)
    return names if names is not None else [str(x) for x in values]


def _readable(db: Session, change: dict[str, Any], *, created: bool) -> list[dict[str, Any]]:
    """One stored change as the rows the change log shows; a new campaign shows only what it was given."""
    field, old, new = change["field"], change["old"], change["new"]
    if created and (new in _EMPTY or field in ("advertiser_id", "from")):
        return []
    if field.endswith("_micros"):
        return [{"field": field.removesuffix("_micros"), "old": _dollars(old), "new": _dollars(new)}]
    if field in _TIMES:
        return [{"field": field, "old": _time(old), "new": _time(new)}]
    if field != "targeting" or not isinstance(old, dict) and not isinstance(new, dict):
        return [change]
    old, new = old or {}, new or {}
    rows = []
    for key in sorted(set(old) | set(new)):
        before, after = old.get(key), new.get(key)
        if before == after or (created and after in _EMPTY):
            continue
        if isinstance(before, list | type(None)) and isinstance(after, list | type(None)) and key != "dayparting":
            added = [x for x in after or [] if x not in (before or [])]
            removed = [x for x in before or [] if x not in (after or [])]
            rows.append({"field": f"targeting.{key}", "added": _named(db, key, added),
                         "removed": _named(db, key, removed), "old": before, "new": after})
        elif key == "dayparting":
            rows.append({"field": "targeting.dayparting", "old": _hours(before), "new": _hours(after)})
        else:
            rows.append({"field": f"targeting.{key}", "old": before, "new": after})
    return rows


def readable_change(db: Session, field: str, old: Any, new: Any) -> list[dict[str, Any]]:
    """A stored column's change ({field: [old, new]} of an audit row) as the change log shows it; a restore's
    confirmation shows what it would set the same way (app/campaigns/restore.py)."""
    return _readable(db, {"field": field, "old": old, "new": new}, created=False)


def _hours(days: Any) -> Any:
    """Dayparting as a count of hours a week ("" when every hour runs)."""
    return f"{sum(len(day) for day in days)} h/week" if isinstance(days, list) and any(days) else ""


def _readable_entries(db: Session, _actor: Actor, subject: change_log.Subject,
                      entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for entry in entries:
        entry["campaign"] = subject.names.get(entry["entity_id"], "")
        created = entry["action"] in ("create", "clone")
        entry["changes"] = [row for change in entry["changes"] for row in _readable(db, change, created=created)]
    return entries


def _campaign(db: Session, actor: Actor, campaign_id: int) -> change_log.Subject:
    campaign = campaigns.get_campaign(db, actor=actor, campaign_id=campaign_id)
    return change_log.Subject({"id": campaign.id, "name": campaign.name, "status": campaign.status},
                              [campaign_id], {str(campaign_id): campaign.name})


def _advertiser(db: Session, actor: Actor, advertiser_id: int) -> change_log.Subject:
    advertiser = db.get(User, advertiser_id)
    require_user_in_scope(actor, advertiser)
    assert advertiser is not None
    names = {str(cid): name for cid, name in db.exec(select(Campaign.id, Campaign.name)
                                                     .where(Campaign.advertiser_id == advertiser_id))}
    return change_log.Subject({"id": advertiser.id, "name": advertiser.account_name},
                              [int(i) for i in names], names)


change_log.register("campaign", change_log.ChangeLogSource(_campaign, _readable_entries))
# Every change to any campaign of one advertiser, newest first, each naming its campaign.
change_log.register("advertiser_campaigns", change_log.ChangeLogSource(_advertiser, _readable_entries))
