"""The generic HTTP/JSON connector: a DSP that speaks plain JSON over HTTPS with a bearer key.

    GET  {endpoint}/health                 any 2xx: the connection works
    POST {endpoint}/campaigns              body: the campaign; answer: {"id": ...} (a string or a number)
    PUT  {endpoint}/campaigns/{remote id}  body: the campaign again; answer: {"id": ...}
    POST {endpoint}/creatives, PUT {endpoint}/creatives/{remote id}   the same for creatives

Every request carries `Authorization: Bearer <API key>` and has a timeout (connect, read and write), so a DSP
that hangs costs one worker thread for at most that long. Redirects are not followed: a key is sent only to the
address the admin entered.

The endpoint may be a private or loopback address, unlike the postback forwarder's targets
(settings.postback_allow_private_targets): a DSP endpoint is set by an admin of this console, who may well run a
bidder inside their own network, not by a client of it. Its host is still resolved once per call and every try
of that call connects to that address (app/kernel/pinned_http.py).

Pushes run as jobs (app/dsps/pushes.py), which the queue retries with backoff when a call fails. Within one
call, up to ATTEMPTS tries, BACKOFF_S apart, when nothing was sent (the connection failed) or the DSP said it did
not take the request (429, 503; for the idempotent GET and PUT also 502 and 504, which a proxy may answer after
the DSP acted on a POST). A timeout ends the call (the queue's next attempt may try again later).

A create (POST) carries `Idempotency-Key`, the same for every try and every queue attempt of one push request
(the IETF httpapi draft's header, as Stripe and most payment and ad APIs take it): when a DSP acted on a POST
whose answer was lost (a timeout, a 502 from its proxy), the next try does not make a second campaign on a DSP
that honours it. One that ignores the header is no worse off than without it.
"""

from __future__ import annotations

import time
from urllib.parse import quote

import httpx
import tenacity

from app.dsps.connectors.base import ConnectorError, Payload
from app.kernel import pinned_http

_ID_MAX_LENGTH = 120
ATTEMPTS = 3
BACKOFF_S: tuple[float, ...] = (0.5, 1.5)
_NOT_TAKEN = {"POST": frozenset({429, 503})}
_NOT_TAKEN_IDEMPOTENT = frozenset({429, 502, 503, 504})


class HttpJsonConnector:
    def __init__(self, *, endpoint_url: str, api_key: str, timeout_s: float) -> None:
        self.base = endpoint_url.rstrip("/")
        self.timeout_s = timeout_s
        self._headers = {"Authorization": f"Bearer {api_key}", "Accept": "application/json",
                         "User-Agent": "dsp-console/1"}

    def _request(self, method: str, path: str, body: Payload | None = None,
                 headers: dict[str, str] | None = None) -> httpx.Response:
        retry_on = _NOT_TAKEN.get(method, _NOT_TAKEN_IDEMPOTENT)
        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(ATTEMPTS),
            wait=tenacity.wait_chain(*(tenacity.wait_fixed(s) for s in BACKOFF_S)),
            retry=(tenacity.retry_if_exception_type((httpx.ConnectError, httpx.ConnectTimeout))
                   | tenacity.retry_if_result(lambda response: response.status_code in retry_on)),
            retry_error_callback=lambda state: state.outcome.result() if state.outcome else None,
            reraise=True)
        try:
            target = pinned_http.resolve(self.base + path, allow_private=True)
        except pinned_http.Refused:
            raise ConnectorError("The DSP's host name does not resolve.") from None
        try:
            with httpx.Client(timeout=httpx.Timeout(self.timeout_s), follow_redirects=False) as client:
                response: httpx.Response = retrying(pinned_http.request, client, method, target, json=body,
                                                    headers=self._headers | (headers or {}))
                return response
        except httpx.TimeoutException:
            raise ConnectorError(f"The DSP did not answer within {self.timeout_s:g} s.") from None
        except httpx.HTTPError as error:
            raise ConnectorError(f"The DSP could not be reached ({type(error).__name__}).") from None

    @staticmethod
    def _check_status(response: httpx.Response) -> None:
        if response.status_code in (401, 403):
            raise ConnectorError(f"The DSP refused the API key (HTTP {response.status_code}).")
        if not 200 <= response.status_code < 300:
            raise ConnectorError(f"The DSP answered HTTP {response.status_code}.")

    def test_connection(self) -> str:
        started = time.monotonic()
        response = self._request("GET", "/health")
        self._check_status(response)
        return f"HTTP {response.status_code} in {round((time.monotonic() - started) * 1000)} ms"

    def _push(self, collection: str, payload: Payload, remote_id: str, request_key: str) -> str:
        if remote_id:
            response = self._request("PUT", f"/{collection}/{quote(remote_id, safe='')}", payload)
        else:
            response = self._request("POST", f"/{collection}", payload,
                                     {"Idempotency-Key": request_key} if request_key else None)
        self._check_status(response)
        try:
            answer = response.json()
        except ValueError:
            raise ConnectorError("The DSP's answer was not JSON.") from None
        found = answer.get("id") if isinstance(answer, dict) else None
        if isinstance(found, bool) or not isinstance(found, str | int) or not str(found).strip():
            raise ConnectorError("The DSP's answer has no id.")
        if len(str(found)) > _ID_MAX_LENGTH:
            raise ConnectorError(f"The DSP's id is longer than {_ID_MAX_LENGTH} characters.")
        return str(found).strip()

    def push_campaign(self, campaign: Payload, remote_id: str = "", request_key: str = "") -> str:
        return self._push("campaigns", campaign, remote_id, request_key)

    def push_creative(self, creative: Payload, remote_id: str = "", request_key: str = "") -> str:
        return self._push("creatives", creative, remote_id, request_key)
