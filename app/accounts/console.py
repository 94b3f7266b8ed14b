"""What the shell needs to draw a tab: who is acting, the brand, their settings and preferences."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from sqlmodel import Session, col, select

from app.access import preferences, sessions
from app.access.models import User, UserPreferences, UserSettings
from app.access.policy import Actor
from app.access.roles import Role
from app.accounts import impersonation
from app.funds import ledger
from app.settings import company
from app.settings.company import Branding

logger = logging.getLogger(__name__)


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
    notice: str = ""  # the session's message for its next page (AuthSession.notice), shown once

    @property
    def role(self) -> Role | None:
        return self.actor.role if self.actor else None


def console_state(db: Session, *, token: str | None, host: str) -> ConsoleState:
    branding = company.branding_for_host(db, host)
    row = sessions.find(db, token=token)
    actor = sessions.actor_for(db, row)
    if actor is None or row is None:
        if token:
            # A tab that sent a session cookie is shown signed out: say why, the log is where that is traced.
            logger.warning("session cookie not honoured: %s", sessions.why_not_live(db, token=token))
        return ConsoleState(None, branding, None, None, (), ())
    chain = tuple(u for u in (db.get(User, uid) for uid in actor.stack[:-1]) if u is not None)
    return ConsoleState(
        actor=actor,
        branding=branding,
        settings=preferences.settings_of(db, actor.id),
        preferences=preferences.preferences_of(db, actor.id),
        chain=chain,
        back_roles=tuple(impersonation.back_targets(db, actor=actor)),
        session_issued_ms=int(row.issued_at.timestamp() * 1000),
        session_expires_ms=int(row.expires_at.timestamp() * 1000),
        notice=row.notice,
    )


def advertiser_balance_micros(db: Session, *, actor: Actor) -> int | None:
    """The top bar's Balance: only advertisers see one (spec section 6)."""
    if actor.role != Role.ADVERTISER:
        return None
    return ledger.balance_micros(db, actor=actor, advertiser_id=actor.id)


def config_stamps(db: Session, *, tabs: Iterable[tuple[int | None, str]]) -> dict[tuple[int | None, str], Stamp]:
    """What of each open tab's configuration can change under it (the user's switches an admin sets, the
    brand of its host), for every (user id, host) at once: one process polls this for all its tabs and
    reloads a tab's console state only when its stamp differs (spec section 4: configuration changes
    reach every tab; the database is the source of truth, so this works across processes)."""
    tabs = set(tabs)
    brands = {host: company.branding_for_host(db, host) for host in {host for _, host in tabs}}
    user_ids = [user_id for user_id, _ in tabs if user_id is not None]
    rows = db.exec(select(UserSettings).where(col(UserSettings.user_id).in_(user_ids))).all() if user_ids else []
    settings = {row.user_id: row for row in rows}
    return {(user_id, host): _stamp(brands[host], settings.get(user_id) if user_id is not None else None,
                                    signed_in=user_id is not None)
            for user_id, host in tabs}


def stamp_of(state: ConsoleState) -> Stamp:
    """A loaded state's stamp, to compare with `config_stamps`."""
    return _stamp(state.branding, state.settings, signed_in=state.actor is not None)


Stamp = tuple[object, ...]


def _stamp(branding: Branding, settings: UserSettings | None, *, signed_in: bool) -> Stamp:
    if not signed_in:
        return (branding,)
    return (branding, settings.insight_dashboard if settings else False,
            settings.postback_enabled if settings else "DISABLED", settings.api_access if settings else False)
