"""What the DSP services take and answer, and so what the API's DSP calls send and receive. No answer carries a
DSP's credentials: `api_key` goes in, `credentials_set` comes out."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.kernel.schema_examples import example

_TIME = "ISO-8601 UTC"
KEY_HELP = ("The DSP's API key, sent to it as a bearer token. Stored encrypted and never returned: answers say "
            "only `credentials_set`.")


class DspUpdate(BaseModel):
    """A DSP's settings. Every field is optional: a field left out keeps its value, and an empty or missing
    api_key keeps the stored key. The service judges each value (its message names the field)."""

    name: str | None = Field(None, description="Unique, at most 120 characters")
    connector: str | None = Field(None, description="The connector type (app/dsps/connectors): http_json")
    endpoint_url: str | None = Field(None, description="http(s) base address; private addresses are allowed")
    seat_id: str | None = Field(None, description="The buyer seat the DSP gave this console, sent with every "
                                                  "push: letters, digits, _ and -, at most 64; empty for none")
    api_key: str | None = Field(None, description=KEY_HELP)
    status: str | None = Field(None, description="active or inactive")
    exchange_ids: list[int] | None = Field(None, description="Supported exchanges: ids from /api/meta/exchanges")


class DspCreate(DspUpdate):
    """A new DSP: name, endpoint_url and api_key are required (the service names each one missing); connector
    defaults to http_json and status to active."""


class DspRead(BaseModel):
    """A DSP as pages and the API show it; never its credentials, only whether they are set."""

    id: int
    name: str
    connector: str
    endpoint_url: str
    seat_id: str = Field(description="Empty for a DSP without seats")
    status: str = Field(description="active or inactive")
    exchange_ids: list[int]
    exchanges: list[str] = Field(description="The exchanges' names, in exchange_ids order (#id when unknown)")
    credentials_set: bool
    last_test_at: str | None = Field(description=f"The last connection test, {_TIME}; null: never tested")
    last_test_ok: bool | None
    last_test_message: str
    synced: int = Field(description="How many campaigns and creatives the DSP holds an id for")
    created_at: str = Field(description=_TIME)
    updated_at: str = Field(description=_TIME)


class ActiveDsp(BaseModel):
    """A DSP campaigns and creatives can be synced to."""

    id: int
    name: str
    connector: str
    exchange_ids: list[int]


class ConnectionTest(BaseModel):
    ok: bool
    message: str = Field(description="What the DSP answered (e.g. HTTP 200 in 45 ms), or why it failed")


class TestedDsp(ConnectionTest):
    """A saved DSP's connection test, kept on the DSP."""

    dsp: DspRead


class NewDspRead(BaseModel):
    """A DSP just added, and the test of its connection (the DSP is kept when the test fails)."""

    dsp: DspRead
    test: ConnectionTest


class AssociationRead(BaseModel):
    """One line of a campaign's or creative's association map: what one DSP calls it and how its last sync went."""

    dsp_id: int
    dsp_name: str
    dsp_status: str
    remote_id: str = Field(description="The DSP's id for it; empty until a sync succeeded")
    synced_at: str | None = Field(description=f"The last successful sync, {_TIME}")
    attempted_at: str | None = Field(description=f"The last sync, successful or not, {_TIME}")
    last_error: str = Field(description="Why the last sync failed (while queued: why the last attempt failed, "
                                        "another follows); empty when it worked")
    push_state: Literal["", "queued", "delivered", "failed"] = Field(
        description="The last push: queued (waiting for a worker or its next attempt), delivered, or failed after "
                    "its last attempt; empty before the first")
    queued_at: str | None = Field(description=f"When the last push was asked for, {_TIME}")


class CampaignAssociation(AssociationRead):
    campaign_associate_id: str = Field(description="The spec's name of remote_id for a campaign")


class CreativeAssociation(AssociationRead):
    creative_associate_id: str = Field(description="The spec's name of remote_id for a creative")
    creative_primary_id: int = Field(description="The creative's id here")


# A line of the map: the most specific shape that fits (pydantic's smart union picks it).
AnyAssociation = CampaignAssociation | CreativeAssociation


class SyncResult(BaseModel):
    """A push asked for: it is queued, not yet delivered (the association map shows how it went)."""

    state: Literal["queued"]
    message: str = Field(description="Queued for the DSP (by name)")
    association: AnyAssociation


class SyncRequest(BaseModel):
    model_config = example({"entity": "campaign", "id": 101})

    entity: Literal["campaign", "creative"]
    id: int = Field(..., description="The campaign's or creative's id")


class ConnectionTry(BaseModel):
    """Settings to test before they are saved."""

    model_config = example({
        "endpoint_url": "https://dsp.example/api", "api_key": "dsp-key-123", "connector": "http_json"})

    endpoint_url: str
    api_key: str = Field("", description="Empty with dsp_id: the stored key of that DSP")
    connector: Literal["http_json"] = "http_json"
    dsp_id: int | None = None


class DspBody(DspCreate):
    """The API's body for adding or changing a DSP: the connector and status are one of their values."""

    model_config = example({
        "name": "Partner DSP", "connector": "http_json", "endpoint_url": "https://dsp.example/api",
        "seat_id": "seat-42", "api_key": "dsp-key-123", "status": "active", "exchange_ids": [1, 2]})

    connector: Literal["http_json"] | None = Field(None, description="The connector type; one is built in")
    status: Literal["active", "inactive"] | None = None
