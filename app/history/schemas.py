"""What a change log answers (its page and its API route, app/web/kinds_api.py): the record it is about, its
entries (who, when, what changed, field by field) and the people who made them."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypeAliasType

from app.kernel.schema_examples import example

# A field's value before or after a change, as the audit trail keeps it (JSON) and the kind's domain makes it
# readable: text (names, dollar amounts such as "12.50", ISO or "YYYY-MM-DD HH:MM UTC" times, codes), whole
# numbers (ids, counts, sizes), yes/no, lists (a campaign's targeting, a creative's campaign ids) and, for a few
# kinds, a nested object (a targeting value stored whole). Secrets show only as "***".
AuditValue = TypeAliasType(
    "AuditValue", "str | int | float | bool | list[AuditValue] | dict[str, AuditValue] | None")


class FieldChange(BaseModel):
    """One field's change."""

    model_config = ConfigDict(extra="forbid")  # a list's change (ListChange) is told apart by its extra keys

    field: str = Field(description="The field; a campaign's targeting key as targeting.<key>")
    old: AuditValue = Field(description="Its value before (null when the record was created)")
    new: AuditValue = Field(description="Its value after (null when it was removed)")


class ListChange(BaseModel):
    """A list field's change (a campaign's targeting list, a creative's campaigns), with what was added and
    removed by name."""

    model_config = ConfigDict(extra="forbid")

    field: str = Field(description="The field; a campaign's targeting key as targeting.<key>")
    added: list[str] = Field(description="What was added, as people know it (names, codes)")
    removed: list[str] = Field(description="What was removed, as people know it")
    old: AuditValue = Field(description="The list before (ids or codes)")
    new: AuditValue = Field(description="The list after")


class ChangeLogEntry(BaseModel):
    """One change: when, what, who (and who was really behind it when acting as another user), field by field."""

    id: int
    date: str = Field(description="When, ISO-8601 UTC")
    action: str = Field(description="What was done: create, update, set_status_<status>, ...")
    actor: str = Field(description="Who: 'name (e-mail)', '—' when the system did it")
    entity_id: str = Field(description="The id of the record changed")
    actor_id: int | None = Field(description="Who, by user id; null when the system did it")
    on_behalf: str = Field(description="Who was really signed in, when the actor was acted as; empty otherwise")
    changes: list[ListChange | FieldChange]
    restores: int | None = Field(None, description="For a restore (action restore or reapply): the id of the entry "
                                                   "whose values it set back; null otherwise")


class CampaignChangeLogEntry(ChangeLogEntry):
    """A campaign's change (one campaign's log, or every campaign of one advertiser)."""

    campaign: str = Field(description="The name of the campaign changed")


class ExchangeChangeLogEntry(ChangeLogEntry):
    """An exchange-approval request or decision of one campaign."""

    exchange: str = Field(description="The exchange's name")


class ChangeLogSubject(BaseModel):
    """What a change log is about, as the reader may see it."""

    id: int
    name: str


class RecordSubject(ChangeLogSubject):
    """A record with a status (campaign, creative, audience, list, DSP)."""

    status: str


class UserSubject(RecordSubject):
    """An account: 'name · e-mail', its role and status."""

    role: str


class ChangeLogPerson(BaseModel):
    """Someone who changed the record: the log's person filter."""

    id: int
    name: str = Field(description="'name (e-mail)'")


class ChangeLogPage(BaseModel):
    """One change log as its page shows it: newest first, filtered as asked, and who changed it; a page of its
    entries at a time when read with a limit (the paging contract, app/kernel/paging.py)."""

    subject: ChangeLogSubject
    entries: list[ChangeLogEntry]
    people: list[ChangeLogPerson]
    next_cursor: str | None = None  # the next page's cursor; None on the last
    total: int | None = None  # the entries the filters match in all


# --- restore from history (app/history/restore.py) ------------------------------------------------------

RestoreValues = Literal["before", "after"]


class RecordVersion(BaseModel):
    """What an edit of one versioned record adds to say which copy it was made from (app/history/versions.py)."""

    version: int | None = Field(None, description=(
        "Optional: the `version` of the record you read (or send its ETag as If-Match). A record saved since is "
        "refused with 409 naming who changed what; nothing is saved then"))


class RestoreBody(RecordVersion):
    """Which values of the entry to set back, and optionally the record's version they were chosen from."""

    model_config = example({"values": "before", "version": 3})

    values: RestoreValues = Field("before", description=(
        "before: the values the fields had before this change (undo it; the default); after: the values this "
        "change set (re-apply it, e.g. after a later edit overwrote it)"))


class NotRestorable(BaseModel):
    """A field the change touched that a restore leaves as it is, and why."""

    field: str = Field(description="The field, as the change log names it")
    reason: str


class RestorePlan(BaseModel):
    """What restoring one change-log entry does: each field it sets, from its value now (`old`) to the value it
    restores (`new`), the fields already at that value, and the fields it cannot set."""

    entry_id: int
    values: RestoreValues
    changes: list[ListChange | FieldChange] = Field(description="What the restore sets: old is the value now, new "
                                                                "the value restored")
    unchanged: list[str] = Field(description="Fields the entry touched that already have the value to restore")
    not_restorable: list[NotRestorable]
    version: int | None = Field(None, description="The record's version this was judged against: send it back "
                                                  "with the restore, so a record saved since is refused")


RecordT = TypeVar("RecordT", bound=BaseModel)


class Restored(RestorePlan, Generic[RecordT]):
    """A restore as made: its plan, the new change-log entry recording it (null when nothing differed, so nothing
    was saved) and the record as saved."""

    change_id: int | None = Field(description="The new change-log entry (action restore or reapply)")
    record: RecordT


# A versioned record's `version` as a read answers it (the record, or a row of its list).
VERSION_HELP = ("Counts its saves (1 when created): send it back with an edit (If-Match, or `version`; a bulk call's "
                "`versions`), so a save made from an older copy is refused")


class RowVersions(BaseModel):
    """What a bulk call adds to say which copy of each record it was made from (app/history/versions.py)."""

    versions: dict[int, int] = Field(default_factory=dict, description=(
        "Optional: the `version` you read of each record, by id ({\"101\": 3}). A record saved since is refused "
        "with the reason (who changed what); records left out are not checked. Either way each row's change is "
        "a conditional update, so two bulk edits never lose each other's changes"))
