"""Status machines: one declaration per record kind (its states, its transitions, who may make them, how a
move is audited, its API routes), and the one code path every status change takes, people's and the
system's alike (a campaign paused because its balance ran out moves through here too).

Each domain declares its machine with `declare` beside the service that finds its records in scope (loading
the domain's package declares it); the API routes (app/web/kinds_api.py) are derived from STATUS_MACHINES.
A move is a conditional UPDATE ("still in the state it was read in?"), so two requests or batches racing to
make the same move make it, audit it and report it once."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel
from sqlalchemy import update
from sqlmodel import Session, SQLModel

from app.access.policy import Actor, require
from app.history import audit
from app.kernel.errors import Invalid
from app.kernel.i18n.catalog import Message, Term
from app.kernel.model_base import utcnow

NOT_ALLOWED = "Not an allowed value."

L = TypeVar("L")  # a record as its kind loads it: the row, or a tuple whose first item is the row


@dataclass(frozen=True)
class StatusRoute:
    """One API route that moves a record: `path` (under /api) has the record's id as its one parameter."""

    path: str
    method: str = "PUT"
    message: str = "OK"  # the envelope's message when it worked
    summary: str = ""
    description: str = ""


@dataclass(frozen=True)
class StatusMachine(Generic[L]):
    """The statuses of one kind of record. `table` has `id`, `status` and `updated_at` columns."""

    entity: str  # AuditEntry.entity of its moves
    table: type[SQLModel]
    states: tuple[str, ...]  # the statuses a request may ask for
    permission: tuple[str, str]  # (entity, action) of the permission table that lets a role move one
    load: Callable[[Session, Actor, int], L]  # the record in the actor's row scope (404 otherwise)
    show: Callable[[Session, Actor, L], BaseModel]  # the record as its API answers...
    read: type[BaseModel]  # ...which is this schema (its domain's <Entity>Read): the reply of its status routes
    transitions: Mapping[str, frozenset[str]] | None = None  # None: any state to any other
    guard: Callable[[Session, Any, str], None] | None = None  # before a move to a new state (given the row)
    then: Callable[[Session, Any, str], None] | None = None  # after a move, in the same transaction (the row)
    action: str = "set_status_{status}"  # the audit action of a move
    refused: str = "A {current} {entity} cannot become {wanted}."  # a move not in `transitions`
    routes: tuple[StatusRoute, ...] = ()

    def parse(self, status: str) -> str:
        """The one parser of this kind's requested status: Invalid on `status` unless it is one of `states`."""
        if status not in self.states:
            raise Invalid({"status": NOT_ALLOWED})
        return str(status)

    def change(self, db: Session, *, actor: Actor, record_id: int, status: str) -> L:
        """Move one record to `status`, checking permission, row scope and the transitions; the same status
        again changes nothing. Returns the record as `load` gave it."""
        require(actor, *self.permission)
        loaded = self.load(db, actor, record_id)
        row: Any = loaded[0] if isinstance(loaded, tuple) else loaded
        wanted, current = self.parse(status), str(row.status)
        if wanted == current:
            return loaded
        if self.transitions is not None and wanted not in self.transitions[current]:
            article = "An" if current[0] in "aeiou" else "A"  # English only: translations word it their way
            raise Invalid({"status": Message(self.refused, An=article, entity=self.entity,
                                             current=self.status_term(current), wanted=self.status_term(wanted))})
        if self.guard:
            self.guard(db, row, wanted)
        if self.apply(db, actor=actor, record_id=record_id, current=current, wanted=wanted) and self.then:
            self.then(db, row, wanted)
        return loaded

    def status_term(self, status: str) -> Term:
        """A status inside a sentence, shown in a translation as the pages label it ("campaigns.status.active")."""
        return Term(status, key=f"{self.entity}s.status.{status}")

    def apply(self, db: Session, *, actor: Actor | None, record_id: int, current: str, wanted: str,
              note: Mapping[str, Any] | None = None) -> bool:
        """The write of a move, with its audit row: only if the record is still `current` (a conditional
        UPDATE; rows of this session follow it). True if this call moved it. `note` adds to the audit's
        after (why the system moved it). Callers have checked permission and the transitions."""
        table: Any = self.table  # its columns as ORM attributes, so this session's rows follow the UPDATE
        # A versioned record (app/history/versions.py) counts the move as a save: an edit made from before it is
        # refused, naming the status change.
        counted = [table.version] if "version" in table.__table__.c else []
        moved = db.execute(update(table).where(table.id == record_id, table.status == current)
                           .values(status=wanted, updated_at=utcnow(), **({"version": table.version + 1} if counted else {}))
                           .returning(table.id, *counted)
                           .execution_options(synchronize_session="evaluate")).all()
        if len(moved) != 1:
            return False
        audit.record(db, actor=actor, entity=self.entity, entity_id=record_id,
                     action=self.action.format(status=wanted),
                     before={"status": current}, after={"status": wanted, **(note or {})},
                     version=moved[0][1] if counted else None)
        return True


STATUS_MACHINES: dict[str, StatusMachine[Any]] = {}


def declare(machine: StatusMachine[L]) -> StatusMachine[L]:
    """Register a kind's machine (its routes then exist); declaring an entity again replaces it."""
    STATUS_MACHINES[machine.entity] = machine
    return machine
