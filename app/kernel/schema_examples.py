"""Examples for the API's request and reply models, declared on the model (`model_config = example({...})`), so
that /docs shows a filled body for every call and a generated client's documentation carries one too."""

from __future__ import annotations

from typing import Any, Unpack

from pydantic import ConfigDict


def example(*bodies: dict[str, Any], **config: Unpack[ConfigDict]) -> ConfigDict:
    """A model's config with these bodies as its JSON schema's `examples` (OpenAPI 3.1); `config` is the rest of
    the model's config (extra="forbid", ...)."""
    return ConfigDict(json_schema_extra={"examples": list(bodies)}, **config)
