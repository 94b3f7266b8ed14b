"""What the shell needs to draw a tab: who is acting, the brand, their settings and preferences."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from app.auth.policy import Actor
from app.auth.roles import Role
from app.models.user import User, UserPreferences, UserSettings
from app.services import company, ledger, preferences, sessions
from app.services.company import Branding


@dataclass(frozen=True)
class ConsoleState:
    actor: Actor | None
    branding: Branding
    settings: UserSettings | None
    preferences: UserPreferences | None
    chain: tuple[User, ...]  # the users under the acting one, real user first
    back_roles: tuple[Role, ...]
    session_issued_ms: int = 0
    session_expires_ms: int = 0

    @property
    def role(self) -> Role | None:
        return self.actor.role if self.actor else None


def console_state(db: Session, *, token: str | None, host: str) -> ConsoleState:
    branding = company.branding_for_host(db, host)
    row = sessions.find(db, token=token)
    actor = sessions.actor_for(db, row)
    if actor is None or row is None:
        return ConsoleState(None, branding, None, None, (), ())
    chain = tuple(u for u in (db.get(User, uid) for uid in actor.stack[:-1]) if u is not None)
    return ConsoleState(
        actor=actor,
        branding=branding,
        settings=preferences.settings_of(db, actor.id),
        preferences=preferences.preferences_of(db, actor.id),
        chain=chain,
        back_roles=tuple(sessions.back_targets(db, actor=actor)),
        session_issued_ms=int(row.issued_at.timestamp() * 1000),
        session_expires_ms=int(row.expires_at.timestamp() * 1000),
    )


def advertiser_balance_micros(db: Session, *, actor: Actor) -> int | None:
    """The top bar's Balance: only advertisers see one (spec section 6)."""
    if actor.role != Role.ADVERTISER:
        return None
    return ledger.balance_micros(db, actor=actor, advertiser_id=actor.id)


def config_stamp(db: Session, *, user_id: int | None, host: str) -> tuple[object, ...]:
    """What of a tab's configuration can change under it (the user's switches an admin sets, the brand),
    read cheaply: open tabs poll it and reload their console state only when it differs (spec section 4:
    configuration changes reach every tab; the database is the source of truth, so this works across
    processes)."""
    branding = company.branding_for_host(db, host)
    if user_id is None:
        return (branding,)
    settings = preferences.settings_of(db, user_id)
    return (branding, settings.insight_dashboard, settings.postback_enabled, settings.api_access)


def stamp_of(state: ConsoleState) -> tuple[object, ...]:
    """`config_stamp` as of a loaded state."""
    if state.actor is None or state.settings is None:
        return (state.branding,)
    s = state.settings
    return (state.branding, s.insight_dashboard, s.postback_enabled, s.api_access)
