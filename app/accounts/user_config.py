"""Per-user configuration (/admin/user-config/{id}): feature switches, agency margin and the
exchanges a user may buy on. The margin is also set by an agency on its own advertisers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlmodel import Session, col, select

from app.access.models import User, UserSettings
from app.access.policy import Actor, require, require_user_in_scope
from app.access.roles import Role
from app.accounts.schemas import ExchangeOption, UserConfigRead
from app.history import audit
from app.kernel import money
from app.kernel.errors import Invalid
from app.reference.models import ReferenceValue
from app.settings import api_credentials

MARGIN_MAX_PERCENT = money.FIELDS["margin"].maximum
ENABLED, DISABLED = "ENABLED", "DISABLED"


def margin_bps(text: Any) -> int:
    """'12.5' (or '12.5 %') → 1250 basis points, read by the money parser; anything else, an empty margin included
    (it is no way of saying 0), is a field error on `margin`."""
    value = money.parse_money(text, field="margin")
    assert value is not None
    return int(value * 100)


def margin_text(bps: int) -> str:
    """1250 → '12.5' (as a person would type it)."""
    return format((Decimal(bps) / 100).normalize(), "f")


def settings_of(db: Session, user_id: int) -> UserSettings:
    return db.get(UserSettings, user_id) or UserSettings(user_id=user_id)


def _snapshot(settings: UserSettings) -> dict[str, Any]:
    return {"insight_dashboard": settings.insight_dashboard, "postback_enabled": settings.postback_enabled,
            "api_access": settings.api_access, "margin_bps": settings.margin_bps,
            "allowed_exchanges": sorted(settings.allowed_exchanges or [])}


def get_config(db: Session, *, actor: Actor, user_id: int) -> UserConfigRead:
    require(actor, "user", "config")
    user = require_user_in_scope(actor, db.get(User, user_id))
    assert user.id is not None
    settings = settings_of(db, user_id)
    allowed = sorted(settings.allowed_exchanges or [])
    exchanges = db.exec(select(ReferenceValue).where(ReferenceValue.kind == "exchange")
                        .order_by(col(ReferenceValue.name))).all()
    return UserConfigRead(
        id=user.id, name=user.display_name, email=user.email, role=Role(user.role), agency_id=user.agency_id,
        insight_dashboard=settings.insight_dashboard, postback_enabled=settings.postback_enabled == ENABLED,
        api_access=settings.api_access, margin=margin_text(settings.margin_bps), allowed_exchanges=allowed,
        # Active exchanges, plus retired ones the user still has (they may be unticked, not added).
        exchange_options=[ExchangeOption(id=x.id, name=x.name, retired=x.retired) for x in exchanges
                          if x.id is not None and (not x.retired or x.id in allowed)])


def _check_exchanges(db: Session, ids: list[int], already: list[int]) -> list[int]:
    wanted = sorted({int(i) for i in ids})
    rows = db.exec(select(ReferenceValue).where(col(ReferenceValue.id).in_(wanted),
                                                ReferenceValue.kind == "exchange")).all()
    usable = {r.id for r in rows if not r.retired or r.id in already}  # a retired one may stay, not be added
    if set(wanted) - usable:
        raise Invalid({"allowed_exchanges": "Choose exchanges from the list."})
    return wanted


# postback_enabled is stored as the spec's word; a client that still sends the word is understood.
SWITCH_WORDS = {ENABLED: True, DISABLED: False}


def switch_value(field: str, value: bool | str) -> bool:
    """A switch as a bool: true/false, or the spec's ENABLED/DISABLED; anything else is a field error."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().upper() in SWITCH_WORDS:
        return SWITCH_WORDS[value.strip().upper()]
    raise Invalid({field: "Not an allowed value."})


def update_config(db: Session, *, actor: Actor, user_id: int, insight_dashboard: bool | str | None = None,
                  postback_enabled: bool | str | None = None, api_access: bool | str | None = None,
                  margin: str | None = None, allowed_exchanges: list[int] | None = None) -> UserSettings:
    """Change the fields given; a field left out (None) keeps its value, and only what is given is checked. A
    switch is a bool, or the spec's word ENABLED or DISABLED; the margin is percent as text, read by the money
    parser."""
    require(actor, "user", "config")
    user = require_user_in_scope(actor, db.get(User, user_id))
    settings = settings_of(db, user_id)
    before = _snapshot(settings)
    # Every given value is checked before any is applied: a refused save leaves the row as it was.
    given = {"insight_dashboard": insight_dashboard, "postback_enabled": postback_enabled, "api_access": api_access}
    switches = {name: switch_value(name, value) for name, value in given.items() if value is not None}
    bps = None if margin is None else margin_bps(margin)
    if bps and user.role != Role.ADVERTISER:
        raise Invalid({"margin": "A margin applies to advertisers only."})
    exchanges = None if allowed_exchanges is None else _check_exchanges(db, allowed_exchanges,
                                                                         before["allowed_exchanges"])
    if bps is not None:
        settings.margin_bps = bps
    if exchanges is not None:
        settings.allowed_exchanges = exchanges
    for name, on in switches.items():
        setattr(settings, name, (ENABLED if on else DISABLED) if name == "postback_enabled" else on)
    after = _snapshot(settings)
    if after == before:
        return settings
    db.add(settings)
    if before["api_access"] and not settings.api_access:
        api_credentials.revoke_all(db, actor=actor, user_id=user_id)
    audit.record(db, actor=actor, entity="user", entity_id=user_id, action="update_config", before=before,
                 after=after)
    return settings


def margin_of(db: Session, *, actor: Actor, user_id: int) -> str:
    require(actor, "user", "margin")
    require_user_in_scope(actor, db.get(User, user_id))
    return margin_text(settings_of(db, user_id).margin_bps)


def set_margin(db: Session, *, actor: Actor, user_id: int, margin: str) -> UserSettings:
    """An agency's margin on one of its advertisers (staff may set it too)."""
    require(actor, "user", "margin")
    user = require_user_in_scope(actor, db.get(User, user_id))
    if user.role != Role.ADVERTISER:
        raise Invalid({"margin": "A margin applies to advertisers only."})
    settings = settings_of(db, user_id)
    bps = margin_bps(margin)
    if bps == settings.margin_bps:
        return settings
    before = {"margin_bps": settings.margin_bps}
    settings.margin_bps = bps
    db.add(settings)
    audit.record(db, actor=actor, entity="user", entity_id=user_id, action="set_margin", before=before,
                 after={"margin_bps": bps})
    return settings
