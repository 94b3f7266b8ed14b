"""What the settings services take and answer, and so what the API's settings calls send and receive."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.access.key_scopes import DEFAULT_SCOPE, SCOPES, WHAT_EACH_ALLOWS
from app.kernel.schema_examples import example

# The usual mobile-measurement (MMP) in-app events, in the order the settings page lists them: what a
# postback may be sent for (app/settings/postbacks.py checks a save against it).
POSTBACK_EVENTS: tuple[str, ...] = (
    "install", "open", "registration", "login", "tutorial_completion", "level_achieved", "achievement_unlocked",
    "content_view", "search", "add_to_wishlist", "add_to_cart", "checkout_initiated", "purchase", "subscription",
    "trial_started", "ad_click", "ad_view", "share", "rating",
)


class PostbackRead(BaseModel):
    url: str = Field(description="The postback URL; empty while the postback is off")
    events: list[str] = Field(description="The events sent, in the settings page's order")


class PostbackEndpointRead(BaseModel):
    """A client's own conversion endpoint, where its measurement partner sends postbacks."""

    token: str = Field(description="The endpoint's only credential, made the first time it is asked for")
    path: str = Field(description="The endpoint, relative to the console's address: /api/postback/<token>")
    example: str = Field(description="The path with the query a measurement partner appends (its own macros)")


class PostbackUpdate(BaseModel):
    """Both fields are optional: a field left out keeps its value."""

    model_config = example({
        "url": "https://tracker.example/postback?click={click_id}", "events": ["install", "purchase"]})

    url: str | None = Field(None, description="http(s) URL; macros such as {click_id} are replaced when a postback "
                                              "is sent. Empty, with no events, switches the postback off")
    events: list[str] | None = Field(None, description="Events to send: " + ", ".join(POSTBACK_EVENTS))


class ApiKeyCreate(BaseModel):
    model_config = example({"label": "Reporting", "scope": "reporting"})

    label: str = Field(description="A name that says where the key is used; up to 60 characters")
    scope: str = Field(DEFAULT_SCOPE, description="What the key may call: " + "; ".join(
        f"{scope}: {what}" for scope, what in WHAT_EACH_ALLOWS.items()) + f". Left out: {DEFAULT_SCOPE}",
        # Listed for the document; the service checks it (key_scopes.check_scope), so a 422 names the field.
        json_schema_extra={"enum": list(SCOPES)})


class ApiKeyRead(BaseModel):
    """A key as lists show it (times ISO-8601 UTC, null when not set); the secret is never shown again."""

    id: int
    label: str
    key_id: str = Field(description="The public part of the token, dsp_<key_id>.<secret>")
    scope: str = Field(description="What the key may call: " + ", ".join(SCOPES))
    created: str
    created_by_name: str = Field(description="Who generated it; empty when unknown")
    last_used: str | None
    last_used_address: str
    revoked: str | None = Field(description="When it was revoked; null while it works")
    ended: str = Field("", description="Why it stopped without being revoked by hand: 'moved' (revoked when the "
                                       "account moved away from the agency that made it), 'maker' (its maker can no "
                                       "longer act for the account: disabled, removed or another role); empty "
                                       "otherwise")


class ApiKeyCreated(BaseModel):
    """A key just generated: `token` is the whole key, shown this once."""

    id: int
    label: str
    key_id: str
    scope: str
    created: str
    token: str


class ApiKeysOverview(BaseModel):
    """What the credentials panel shows: a user without API access has enabled false and no keys."""

    enabled: bool
    credentials: list[ApiKeyRead]
    max_live: int


class BrandImagesRead(BaseModel):
    """The brand's image addresses after an upload (the spec's names)."""

    logoSrc: str
    favicon: str
