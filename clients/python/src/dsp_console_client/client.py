"""DspConsole: the API of one console, signed in with an API key or an e-mail and password."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

import httpx

from dsp_console_client.resources import Campaigns, Creatives, Reports, Statistics, Users
from dsp_console_client.transport import RetryPolicy, Transport

API_KEY_PREFIX = "dsp_"


class DspConsole:
    """The console at `base_url` (its address, e.g. "https://console.example.com"; the API is under /api).

    `api_key`: a key (dsp_...) from a settings page. Or sign in with `DspConsole.sign_in(url, email, password)`.
    `envelope_key`: the console's DSP_CLIENT_ENVELOPE_KEY, to send bodies as the spec's client does
    ({"encryptedData": ...}); leave it out for plain JSON, which every console reads.
    `retry`: attempts and waits on 429 and 5xx (RetryPolicy). `http`: your own httpx.Client (proxies,
    certificates, event hooks); it is not closed with this one. `sleep`: how to wait between attempts."""

    def __init__(self, base_url: str, *, api_key: str | None = None, envelope_key: str | None = None,
                 retry: RetryPolicy = RetryPolicy(), timeout_s: float = 60.0, http: httpx.Client | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if api_key is not None and not api_key.startswith(API_KEY_PREFIX):
            raise ValueError(f"api_key: an API key starts with {API_KEY_PREFIX!r} (to sign in with a password, "
                             "use DspConsole.sign_in)")
        self.transport = Transport(base_url, token=api_key, envelope_key=envelope_key, retry=retry,
                                   timeout_s=timeout_s, http=http, sleep=sleep)
        self.campaigns = Campaigns(self.transport)
        self.creatives = Creatives(self.transport)
        self.users = Users(self.transport)
        self.statistics = Statistics(self.transport)
        self.reports = Reports(self.transport)
        self.user: dict[str, Any] = {}  # who signed in, after sign_in (the login reply's `user`)

    @classmethod
    def sign_in(cls, base_url: str, email: str, password: str, **options: Any) -> DspConsole:
        """A client holding a sign-in token, renewed by itself when less than 10 minutes of it are left (a session
        unused for its whole 2 hours ends: sign in again). Options as the constructor's."""
        client = cls(base_url, **options)
        try:
            signed_in = client.transport.call("POST", "/auth/login/", body={"email": email, "password": password})
        except BaseException:
            client.close()
            raise
        client.transport.adopt(signed_in)
        client.user = dict(signed_in.get("user") or {})
        return client

    def call(self, method: str, path: str, *, params: dict[str, Any] | None = None, body: Any = None) -> Any:
        """Any other API call, with the same credentials, envelope and retries: `data` of its reply (path under
        /api, e.g. "/auth/profile"); ApiError otherwise."""
        return self.transport.call(method, path, params=params, body=body)

    def close(self) -> None:
        self.transport.close()

    def __enter__(self) -> DspConsole:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
