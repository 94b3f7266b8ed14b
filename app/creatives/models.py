"""Creatives: the ads a campaign shows (image, native, video, html), the files they are made of, and which
campaigns show them.

A creative's kind decides its fields (spec section 3): image has a click URL and pixel URLs; native a click
URL, at most one impression URL and its texts and pictures; video a click URL and impression URLs; html only
its markup. Width, height and duration come from the uploaded file, never from the client.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field, json_field, utcnow, version_field
from app.kernel.natural_order import keep_sort_key, name_column, sort_key_field


class CreativeType(StrEnum):
    IMAGE = "image"
    NATIVE = "native"
    VIDEO = "video"
    HTML = "html"


class CreativeStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"
    ARCHIVED = "archived"


S = CreativeStatus
# Every status change a creative may make, declared once (services/creatives.set_status enforces it).
# Archived is final ("deleting" archives): delivery history stays attached to the creative.
STATUS_TRANSITIONS: dict[CreativeStatus, frozenset[CreativeStatus]] = {
    S.ACTIVE: frozenset({S.PAUSED, S.ARCHIVED}),
    S.PAUSED: frozenset({S.ACTIVE, S.ARCHIVED}),
    S.ARCHIVED: frozenset(),
}


class CreativeAsset(SQLModel, table=True):
    """An uploaded image or video of one advertiser. Stored once per content (named by its SHA-256)."""

    __tablename__ = "creative_assets"

    id: int | None = Field(default=None, primary_key=True)
    advertiser_id: int = Field(foreign_key="users.id", index=True)
    sha256: str = Field(max_length=64, index=True)
    stored_name: str = Field(max_length=80)  # <sha256>.<ext>, under uploads/creatives
    content_type: str = Field(max_length=40)  # read from the bytes, never from the client
    size_bytes: int
    width: int | None = None
    height: int | None = None
    duration_ms: int | None = None  # videos only
    original_filename: str = Field(default="", max_length=255)
    created_at: datetime = created_at_field()


_VERSION, _VERSIONED = version_field()


class Creative(SQLModel, table=True):
    __tablename__ = "creatives"
    __mapper_args__ = _VERSIONED
    # The API's order, newest change first, ties by id (app/creatives/records.py): a page is an index range; and the
    # list's sort by name (its natural-order key), likewise.
    __table_args__ = (Index("ix_creatives_updated_at_id", "updated_at", "id"),
                      Index("ix_creatives_name_key_id", "name_key", "id"))

    id: int | None = Field(default=None, primary_key=True)
    advertiser_id: int = Field(foreign_key="users.id", index=True)
    name: str = Field(max_length=120, index=True)
    name_key: str | None = sort_key_field(name_column)  # the name's natural-order key: the list's sort by name
    type: str = Field(max_length=8, index=True)
    status: str = Field(default=CreativeStatus.ACTIVE, max_length=16, index=True)
    click_url: str = Field(default="", max_length=2048)
    pixel_urls: list[str] = json_field(list)  # image only
    impression_urls: list[str] = json_field(list)  # native: at most one; video: many
    html: str = Field(default="", sa_column=Column(Text, nullable=False))  # html only; shown only in a sandbox
    asset_id: int | None = Field(default=None, foreign_key="creative_assets.id")  # image or video file
    width: int | None = None
    height: int | None = None
    duration_ms: int | None = None
    title: str = Field(default="", max_length=90)
    description: str = Field(default="", max_length=140)
    call_to_action: str = Field(default="", max_length=25)
    icon_asset_id: int | None = Field(default=None, foreign_key="creative_assets.id")
    main_image_asset_id: int | None = Field(default=None, foreign_key="creative_assets.id")
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow)
    version: int = _VERSION  # counts its saves; a save names the one it read (app/history/versions.py)


keep_sort_key(Creative, "name_key", name_column)


class CampaignCreative(SQLModel, table=True):
    """A creative assigned to a campaign (both of one advertiser)."""

    __tablename__ = "campaign_creatives"
    __table_args__ = (UniqueConstraint("campaign_id", "creative_id", name="uq_campaign_creative"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaigns.id", index=True)
    creative_id: int = Field(foreign_key="creatives.id", index=True)
    created_at: datetime = Field(default_factory=utcnow)
