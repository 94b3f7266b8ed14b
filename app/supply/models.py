"""Inventory lists (the spec's app lists) and the admin's smart-app lists.

An inventory list belongs to one advertiser and is an allow or a block list of app bundle ids (Android
package names, iOS App Store ids) and web domains. A smart-app list is curated by staff under one node of the
app-store taxonomy (app/reference/app_taxonomy.py) and offered to every advertiser as an allow list.
Entries live in their own tables, one row per value, unique per list, so a 100,000-line upload is one bulk
insert and a campaign's targeting check is an indexed lookup.

Audiences: groups of devices a campaign allows or blocks. Each belongs to one advertiser and is one of two
kinds: a list of mobile advertising ids (IDFA / GAID) uploaded as files, or a retargeting audience defined by
one of the advertiser's own conversion or custom events over a look-back window (its size is read from the
statistics store, never stored)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Column, ForeignKey, Index, Integer, LargeBinary, UniqueConstraint
from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field, json_field, utcnow
from app.kernel.natural_order import keep_sort_key, name_column, sort_key_field


class ListKind(StrEnum):
    ALLOW = "allow"
    BLOCK = "block"


class ListStatus(StrEnum):
    ACTIVE = "active"
    ARCHIVED = "archived"


class EntryKind(StrEnum):
    APP = "app"
    DOMAIN = "domain"


class AppList(SQLModel, table=True):
    __tablename__ = "app_lists"
    __table_args__ = (Index("ix_app_lists_name_key_id", "name_key", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    advertiser_id: int = Field(foreign_key="users.id", index=True)
    name: str = Field(max_length=120, index=True)
    name_key: str | None = sort_key_field(name_column)  # the name's natural-order key: the grid's sort by name
    kind: str = Field(default=ListKind.ALLOW, max_length=8)
    status: str = Field(default=ListStatus.ACTIVE, max_length=16, index=True)
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow, nullable=False)


keep_sort_key(AppList, "name_key", name_column)


class AppListEntry(SQLModel, table=True):
    __tablename__ = "app_list_entries"
    __table_args__ = (UniqueConstraint("list_id", "value", name="uq_app_list_entries_list_value"),
                      Index("ix_app_list_entries_list_kind", "list_id", "kind"))

    id: int | None = Field(default=None, primary_key=True)
    list_id: int = Field(foreign_key="app_lists.id")
    value: str = Field(max_length=255)
    kind: str = Field(max_length=8)


class SmartAppList(SQLModel, table=True):
    __tablename__ = "smart_app_lists"
    __table_args__ = (Index("ix_smart_app_lists_name_key_id", "name_key", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120, index=True)
    name_key: str | None = sort_key_field(name_column)  # the name's natural-order key: the grid's sort by name
    category_id: str = Field(max_length=40)
    genre_id: str = Field(max_length=40)
    subgenre_id: str = Field(default="", max_length=40)
    status: str = Field(default=ListStatus.ACTIVE, max_length=16, index=True)
    created_by: int | None = Field(default=None, foreign_key="users.id")
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow, nullable=False)


keep_sort_key(SmartAppList, "name_key", name_column)


class SmartAppEntry(SQLModel, table=True):
    __tablename__ = "smart_app_entries"
    __table_args__ = (UniqueConstraint("list_id", "value", name="uq_smart_app_entries_list_value"),
                      Index("ix_smart_app_entries_list_kind", "list_id", "kind"))

    id: int | None = Field(default=None, primary_key=True)
    list_id: int = Field(foreign_key="smart_app_lists.id")
    value: str = Field(max_length=255)
    kind: str = Field(max_length=8)


class AudienceKind(StrEnum):
    DEVICE_IDS = "device_ids"
    RETARGETING = "retargeting"


class AudienceStatus(StrEnum):
    ACTIVE = "active"
    INACTIVE = "inactive"


class Audience(SQLModel, table=True):
    __tablename__ = "audiences"
    __table_args__ = (Index("ix_audiences_name_key_id", "name_key", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    advertiser_id: int = Field(foreign_key="users.id", index=True)
    name: str = Field(max_length=120, index=True)
    name_key: str | None = sort_key_field(name_column)  # the name's natural-order key: the list's sort by name
    kind: str = Field(max_length=16)
    status: str = Field(default=AudienceStatus.ACTIVE, max_length=16, index=True)
    event: str = Field(default="", max_length=40)  # retargeting: "conversion" or a custom event name
    lookback_days: int | None = None  # retargeting: 1 to 540
    device_count: int = 0  # device-id lists: distinct ids stored (kept with each upload, so lists never count)
    last_upload: dict[str, Any] = json_field()  # the latest file's summary: name, lines, added, invalid, samples
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow)


keep_sort_key(Audience, "name_key", name_column)


class AudienceDevice(SQLModel, table=True):
    """One device of a device-id audience. The id is the UUID's 16 bytes rather than its 32 hex digits: half the
    table and half its index (a million ids: 16 MB of keys, not 32), and the canonical form is implied (no case
    or dash variants can ever be stored). The primary key (audience, device) is the uniqueness rule and the
    only index; there is no surrogate id, which would add a third of the row again."""

    __tablename__ = "audience_devices"
    # On SQLite, a WITHOUT ROWID table is its primary key's B-tree alone: one tree to insert into per id, not a
    # rowid table plus a unique index beside it (bench/audience_upload.py). PostgreSQL ignores the option.
    __table_args__ = {"sqlite_with_rowid": False}

    audience_id: int = Field(sa_column=Column(Integer, ForeignKey("audiences.id", ondelete="CASCADE"),
                                              primary_key=True))
    device_id: bytes = Field(sa_column=Column(LargeBinary(16), primary_key=True))
