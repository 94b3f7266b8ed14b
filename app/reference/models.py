"""Reference lists the campaign pickers offer (exchanges, OS versions, ...), managed on /admin/metadata.

A value in use is never deleted, only retired: old campaigns keep pointing at it, new pickers hide it.
Two kinds carry a detail: an OS version names its operating system (`parent_id`), a carrier its country.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field, utcnow

# kind -> translation key of its label; the order is the order of the tabs on /admin/metadata.
REFERENCE_KINDS: dict[str, str] = {
    "exchange": "metadata.kind.exchange",
    "operating_system": "metadata.kind.operating_system",
    "os_version": "metadata.kind.os_version",
    "browser": "metadata.kind.browser",
    "manufacturer": "metadata.kind.manufacturer",
    "carrier": "metadata.kind.carrier",
    "traffic_type": "metadata.kind.traffic_type",
}


class ReferenceValue(SQLModel, table=True):
    __tablename__ = "reference_values"
    __table_args__ = (UniqueConstraint("kind", "name", name="uq_reference_values_kind_name"),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=24, index=True)
    name: str = Field(max_length=120)
    retired: bool = Field(default=False, index=True)
    # An os_version belongs to its operating_system (targeting keeps chosen versions inside chosen systems).
    parent_id: int | None = Field(default=None, foreign_key="reference_values.id", index=True)
    # A carrier serves one country (ISO 3166-1 alpha-2), so carrier pickers follow the chosen countries.
    country: str | None = Field(default=None, max_length=2, index=True)
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow)
