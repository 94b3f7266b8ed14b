"""What the statistics services answer at the API: for now the conversion postback's receipt (the statistics
queries and dashboards, whose rows take the columns asked for, are next)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class PostbackReceipt(BaseModel):
    batch_id: str = Field(description="The postback's batch: the same click_id and event always make the same one")
    event: str
    conversion: bool = Field(description="Whether the event counts as a conversion")
    duplicate: bool = Field(description="true: sent before, nothing changed")
    forwarded: bool = Field(description="Whether it is passed on to your postback URL")
