"""White-label company configuration, chosen by the request's host name (host "" is the default)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from app.models.base import utcnow


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
