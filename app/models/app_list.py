"""Inventory lists (the spec's app lists) and the admin's smart-app lists.

An inventory list belongs to one advertiser and is an allow or a block list of app bundle ids (Android
package names, iOS App Store ids) and web domains. A smart-app list is curated by staff under one node of the
app-store taxonomy (app/services/app_taxonomy.py) and offered to every advertiser as an allow list.
Entries live in their own tables, one row per value, unique per list, so a 100,000-line upload is one bulk
insert and a campaign's targeting check is an indexed lookup.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from app.models.base import created_at_field, utcnow


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

    id: int | None = Field(default=None, primary_key=True)
    advertiser_id: int = Field(foreign_key="users.id", index=True)
    name: str = Field(max_length=120, index=True)
    kind: str = Field(default=ListKind.ALLOW, max_length=8)
    status: str = Field(default=ListStatus.ACTIVE, max_length=16, index=True)
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow, nullable=False)


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

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120, index=True)
    category_id: str = Field(max_length=40)
    genre_id: str = Field(max_length=40)
    subgenre_id: str = Field(default="", max_length=40)
    status: str = Field(default=ListStatus.ACTIVE, max_length=16, index=True)
    created_by: int | None = Field(default=None, foreign_key="users.id")
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow, nullable=False)


class SmartAppEntry(SQLModel, table=True):
    __tablename__ = "smart_app_entries"
    __table_args__ = (UniqueConstraint("list_id", "value", name="uq_smart_app_entries_list_value"),
                      Index("ix_smart_app_entries_list_kind", "list_id", "kind"))

    id: int | None = Field(default=None, primary_key=True)
    list_id: int = Field(foreign_key="smart_app_lists.id")
    value: str = Field(max_length=255)
    kind: str = Field(max_length=8)
