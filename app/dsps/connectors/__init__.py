"""The one interface the console talks to DSPs through, and the connectors built in.

A connector is made for one DSP (its endpoint, its decrypted API key and a timeout) and does three things:
check the connection, push a campaign and push a creative, each push answering the id the DSP gave the thing.
Every failure (unreachable, too slow, refused, an answer it cannot read) is a ConnectorError whose message says
what happened in a sentence an admin can act on; it never contains the credentials.

Adding a platform: write a class with this shape and add it to CONNECTORS under a short name.
"""

from __future__ import annotations

from collections.abc import Callable

from app.dsps.connectors.base import Connector, ConnectorError, Payload
from app.dsps.connectors.http_json import HttpJsonConnector

# The connector of a DSP row is chosen by this name (Dsp.connector).
HTTP_JSON = "http_json"


ConnectorFactory = Callable[..., Connector]
CONNECTORS: dict[str, ConnectorFactory] = {HTTP_JSON: HttpJsonConnector}


def connector_for(kind: str, *, endpoint_url: str, api_key: str, timeout_s: float) -> Connector:
    factory = CONNECTORS.get(kind)
    if factory is None:
        raise ConnectorError(f"Unknown connector type: {kind}.")
    return factory(endpoint_url=endpoint_url, api_key=api_key, timeout_s=timeout_s)


__all__ = ["CONNECTORS", "HTTP_JSON", "Connector", "ConnectorError", "Payload", "connector_for"]
