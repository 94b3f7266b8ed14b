"""What every connector is (Connector) and how it fails (ConnectorError)."""

from __future__ import annotations

from typing import Protocol

from pydantic import JsonValue

# A campaign or creative as a DSP gets it: JSON whose keys are the thing's fields (they differ by kind).
Payload = dict[str, JsonValue]


class ConnectorError(Exception):
    """A DSP call that did not do its job; `str(error)` is the reason shown as the sync error."""


class Connector(Protocol):
    def test_connection(self) -> str:
        """A short description of the answer (e.g. "HTTP 200 in 45 ms"); raises ConnectorError on failure."""

    def push_campaign(self, campaign: Payload, remote_id: str = "", request_key: str = "") -> str:
        """Create the campaign on the DSP (or update it, when `remote_id` is what the DSP called it before);
        answers the DSP's id for it. `request_key` is the same for every try of one push request, so a DSP that
        honours idempotency keys creates the thing once even when an answer was lost and the create is sent
        again."""

    def push_creative(self, creative: Payload, remote_id: str = "", request_key: str = "") -> str:
        """As push_campaign, for a creative."""
