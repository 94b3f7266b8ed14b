"""One API call: the bearer token, the spec's envelope when a key is configured, retries on 429 and 5xx that honour
Retry-After, and the API's reply shape {success, code, message, data} turned into `data` or an ApiError."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx
from tenacity import RetryCallState, Retrying, retry_if_exception, retry_if_result, wait_random_exponential

from dsp_console_client import cryptojs
from dsp_console_client.errors import ApiError, fields_of

ENVELOPED_METHODS = frozenset({"POST", "PUT", "PATCH"})  # the spec's client wraps these bodies, and only these
REPEATABLE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})  # the same call twice does no more
# 429: the server did nothing. 503: the database or disk failed and nothing was saved (the API says so). Both are
# retried for every method; the other passing failures only for calls that may safely run twice.
RETRIED_ALWAYS = frozenset({429, 503})
RETRIED_WHEN_REPEATABLE = frozenset({500, 502, 504})
RENEW_BEFORE_S = 600  # a sign-in token (2 hours) is renewed when it has less than this left


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try: at most `attempts` sends; between them the server's Retry-After, else a random wait up to
    `backoff_s` doubled at each attempt. A Retry-After longer than `max_wait_s` is not waited for: the ApiError goes
    to the caller at once, carrying `retry_after_s`."""

    attempts: int = 5
    backoff_s: float = 0.5
    max_wait_s: float = 60.0


def retry_after_s(response: httpx.Response) -> float | None:
    """The wait a Retry-After header asks for (seconds, or an HTTP date), or None."""
    value = response.headers.get("retry-after")
    if not value:
        return None
    if value.strip().isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


class Transport:
    def __init__(self, base_url: str, *, token: str | None = None, envelope_key: str | None = None,
                 retry: RetryPolicy = RetryPolicy(), timeout_s: float = 60.0, http: httpx.Client | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.token_expires_at: float | None = None  # a sign-in token's end (epoch seconds); None for an API key
        self._renewing = False
        self.envelope_key = envelope_key or None
        self.retry = retry
        # "Full jitter": a random wait up to backoff_s * 2^attempt, so clients refused together come back apart.
        self._backoff = wait_random_exponential(multiplier=retry.backoff_s, max=retry.max_wait_s)
        self.sleep = sleep
        self._owns_http = http is None
        self.http = http if http is not None else httpx.Client(timeout=timeout_s)

    def close(self) -> None:
        if self._owns_http:
            self.http.close()

    # --- a sign-in token's lifetime ---

    def adopt(self, signed_in: Mapping[str, Any]) -> None:
        """Use the token of a sign-in or renewal reply (TokenRead) from now on."""
        self.token = str(signed_in["token"])
        self.token_expires_at = float(signed_in["expiresAt"]) / 1000

    def renew(self) -> None:
        """A new lifetime for the sign-in token (GET /auth/refresh-token)."""
        self._renewing = True
        try:
            self.adopt(self.call("GET", "/auth/refresh-token"))
        finally:
            self._renewing = False

    def _renew_if_due(self) -> None:
        if self.token_expires_at is not None and not self._renewing and \
                time.time() > self.token_expires_at - RENEW_BEFORE_S:
            self.renew()

    # --- one call ---

    def call(self, method: str, path: str, *, params: Mapping[str, Any] | None = None, body: Any = None,
             repeatable: bool | None = None) -> Any:
        """`data` of a successful reply to `method` on `/api{path}`; ApiError otherwise."""
        self._renew_if_due()
        response = self.send(method, "/api" + path, params=params, body=body, repeatable=repeatable)
        reply = self._json(response)
        if response.is_success and isinstance(reply, dict):
            return reply.get("data")
        raise self._error(response, reply)

    def download(self, path: str) -> bytes:
        """A file the API linked to (an export's `/files/...` URL), with this client's credentials."""
        response = self.send("GET", path)
        if not response.is_success:
            raise self._error(response, self._json(response))
        return response.content

    def send(self, method: str, path: str, *, params: Mapping[str, Any] | None = None, body: Any = None,
             repeatable: bool | None = None) -> httpx.Response:
        """The response to one call, after the retries the policy allows (whatever its status)."""
        method = method.upper()
        may_repeat = method in REPEATABLE_METHODS if repeatable is None else repeatable
        url = path if "://" in path else self.base_url + path  # a link the API gave may be whole
        request = self.http.build_request(method, url, params=_plain_params(params),
                                          headers=self._headers(body), content=self._content(method, body))
        retrying = Retrying(
            stop=self._stop, wait=self._wait, sleep=self.sleep, reraise=True,
            retry=retry_if_result(lambda response: _worth_retrying(response, may_repeat))
            | retry_if_exception(lambda error: _worth_resending(error, may_repeat)),
            retry_error_callback=lambda state: state.outcome.result() if state.outcome else None)
        response: httpx.Response = retrying(self.http.send, request)
        return response

    # --- what goes out ---

    def _headers(self, body: Any) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def _content(self, method: str, body: Any) -> bytes | None:
        if body is None:
            return None
        text = json.dumps(body, separators=(",", ":"), default=str)
        if self.envelope_key and method in ENVELOPED_METHODS:
            text = json.dumps({"encryptedData": cryptojs.encrypt(text, self.envelope_key)})
        return text.encode()

    # --- what comes back ---

    def _json(self, response: httpx.Response) -> Any:
        """The reply's JSON, unwrapped from {"encryptedResponse": ...}; None when the body is not JSON (a proxy's
        error page, an empty 204)."""
        try:
            reply = response.json()
        except ValueError:
            return None
        if self.envelope_key and isinstance(reply, dict) and set(reply) == {"encryptedResponse"}:
            reply = json.loads(cryptojs.decrypt(reply["encryptedResponse"], self.envelope_key))
        return reply

    def _error(self, response: httpx.Response, reply: Any) -> ApiError:
        if isinstance(reply, dict) and "message" in reply:
            return ApiError(response.status_code, str(reply["message"]), code=_int_or_none(reply.get("code")),
                            fields=fields_of(reply.get("data")), data=reply.get("data"),
                            retry_after_s=retry_after_s(response))
        text = response.text.strip()[:200] or response.reason_phrase
        return ApiError(response.status_code, text, retry_after_s=retry_after_s(response))

    # --- the retry policy, as tenacity's stop and wait ---

    def _asked_wait(self, state: RetryCallState) -> float | None:
        outcome = state.outcome
        if outcome is None or outcome.failed:
            return None
        response: httpx.Response = outcome.result()
        return retry_after_s(response)

    def _stop(self, state: RetryCallState) -> bool:
        asked = self._asked_wait(state)
        return state.attempt_number >= self.retry.attempts or (asked is not None and asked > self.retry.max_wait_s)

    def _wait(self, state: RetryCallState) -> float:
        asked = self._asked_wait(state)
        if asked is not None:
            return asked
        return float(self._backoff(state))


def _worth_retrying(response: httpx.Response, may_repeat: bool) -> bool:
    status = response.status_code
    if status in RETRIED_ALWAYS or (may_repeat and status in RETRIED_WHEN_REPEATABLE):
        response.read()  # the body is read now: a later attempt may close the connection it came on
        return True
    return False


def _worth_resending(error: BaseException, may_repeat: bool) -> bool:
    """A connection never made is always safe to try again; one lost midway only when the call may run twice."""
    return isinstance(error, httpx.ConnectError) or (may_repeat and isinstance(error, httpx.TransportError))


def _plain_params(params: Mapping[str, Any] | None) -> dict[str, str | int | float | bool] | None:
    """Query parameters without the ones left out (None); lists as the API's comma lists."""
    if params is None:
        return None
    plain: dict[str, str | int | float | bool] = {}
    for name, value in params.items():
        if value is None:
            continue
        if isinstance(value, list | tuple | set | frozenset):
            plain[name] = ",".join(str(part) for part in value)
        elif isinstance(value, bool):
            plain[name] = "true" if value else "false"
        else:
            plain[name] = value if isinstance(value, str | int | float) else str(value)
    return plain


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


