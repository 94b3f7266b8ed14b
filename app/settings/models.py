"""White-label company configuration, chosen by the request's host name (host "" is the default).

Forwarded conversion postbacks: each call made to a client's postback URL, so its settings page can show
whether its tracker answered."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field, utcnow


class CompanyConfig(SQLModel, table=True):
    __tablename__ = "company_configs"

    id: int | None = Field(default=None, primary_key=True)
    host: str = Field(default="", max_length=253, unique=True)
    meta_title: str = Field(default="DSP Console", max_length=120)
    name: str = Field(default="DSP Console", max_length=120)
    logo_file: str = Field(default="", max_length=255)  # stored name under uploads/branding
    favicon_file: str = Field(default="", max_length=255)
    agency_id: int | None = Field(default=None, foreign_key="users.id")  # agency_primary_id
    help_and_support: bool = False
    help_and_support_link: str = Field(default="", max_length=500)
    primary_color: str = Field(default="#4f46e5", max_length=9)
    hover_color: str = Field(default="#4338ca", max_length=9)
    text_agency_color: str = Field(default="#ffffff", max_length=9)
    card_background_color: str = Field(default="#ffffff", max_length=9)
    navbar_color: str = Field(default="#111827", max_length=9)
    footer_start_year: int = 2024
    footer_text: str = Field(default="DSP Console. All rights reserved.", max_length=200)
    maintenance_mode: bool = False
    updated_at: datetime = Field(default_factory=utcnow)


class PostbackDelivery(SQLModel, table=True):
    __tablename__ = "postback_deliveries"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)  # whose postback URL was called
    advertiser_id: int = Field(foreign_key="users.id", index=True)  # whose conversion it was
    event: str = Field(max_length=40)
    url: str = Field(max_length=2048)  # as sent, macros replaced
    status_code: int | None = None  # the last attempt's HTTP status; None when no answer came
    error: str = Field(default="", max_length=255)  # why the last attempt failed, "" on success
    attempts: int = 1
    created_at: datetime = created_at_field()
