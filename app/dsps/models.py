"""DSP connections: the buying platforms the console pushes campaigns and creatives to, and the ids each
platform gave back (the spec's association maps: dsp_name, campaign_associate_id, creative_associate_id,
creative_primary_id).

A DSP's credentials are stored only encrypted (app/dsps/credentials.py); no read of this table ever
returns them, and the change history records only that they changed.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field, json_field, utcnow
from app.kernel.natural_order import keep_sort_key, name_column, sort_key_field


class DspStatus(StrEnum):
    ACTIVE = "active"
    INACTIVE = "inactive"


class PushState(StrEnum):
    """Where the last push of a campaign or creative to a DSP stands (app/dsps/pushes.py). "" = never pushed."""

    QUEUED = "queued"  # waiting for a worker, or for its next attempt after a failed one (last_error says why)
    DELIVERED = "delivered"
    FAILED = "failed"  # every attempt spent; last_error is the DSP's (or the connector's) reason


class AssociationKind(StrEnum):
    CAMPAIGN = "campaign"
    CREATIVE = "creative"


class Dsp(SQLModel, table=True):
    __tablename__ = "dsps"
    __table_args__ = (Index("ix_dsps_name_key_id", "name_key", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120, unique=True)
    name_key: str | None = sort_key_field(name_column)  # the name's natural-order key: the DSP lists' one order
    connector: str = Field(default="http_json", max_length=24)  # a key of app.dsps.connectors.CONNECTORS
    endpoint_url: str = Field(max_length=2048)
    # The buyer seat (account) the DSP gave this console, sent with every push; empty for a DSP without seats.
    seat_id: str = Field(default="", max_length=64)
    credentials_encrypted: str = Field(default="", sa_column=Column(Text, nullable=False))  # a Fernet token
    status: str = Field(default=DspStatus.ACTIVE, max_length=16, index=True)
    exchange_ids: list[int] = json_field(list)  # reference values of kind "exchange" it buys on
    last_test_at: datetime | None = None
    last_test_ok: bool | None = None
    last_test_message: str = Field(default="", max_length=255)
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow)


keep_sort_key(Dsp, "name_key", name_column)


class DspAssociation(SQLModel, table=True):
    """What one DSP calls one of our campaigns or creatives, and how its last sync went. A failed sync keeps the
    remote id of the last good one (the DSP still has that version) and records the error beside it."""

    __tablename__ = "dsp_associations"
    __table_args__ = (UniqueConstraint("dsp_id", "entity", "local_id", name="uq_dsp_association"),
                      Index("ix_dsp_associations_entity_local", "entity", "local_id"))

    id: int | None = Field(default=None, primary_key=True)
    dsp_id: int = Field(foreign_key="dsps.id", index=True)
    entity: str = Field(max_length=16)  # AssociationKind
    local_id: int
    remote_id: str = Field(default="", max_length=120)
    synced_at: datetime | None = None  # the last successful push
    attempted_at: datetime | None = None  # the last push, successful or not
    last_error: str = Field(default="", max_length=500)
    push_state: str = Field(default="", max_length=16, index=True)  # PushState, or "" before the first push
    queued_at: datetime | None = None  # when the last push was asked for
