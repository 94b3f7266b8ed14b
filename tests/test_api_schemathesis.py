"""Schemathesis over the published OpenAPI document (/api/openapi.json), with a token for each role.

Every operation is called with generated requests, valid and invalid ones, in process against the whole ASGI app
(the /api mount and the server around it) on a freshly seeded database. Each answer must be:
- no 5xx (`not_a_server_error`);
- an error in the {success, code, message, data} envelope, `code` repeating the status (`in_envelope`, below);
- a status code the document declares for that operation (`status_code_conformance`), so generated clients know
  every answer; the common errors are declared once for every operation (app/web/envelope.py);
- a declared content type and a body matching the declared schema (`content_type_conformance`,
  `response_schema_conformance`; errors are declared with the envelope's schema).

The caller's role is drawn by Hypothesis with the rest of the request, so each operation is tried as several
roles and a failure names the role it needs; `test_every_role_was_tried` checks that each role really called.
Bounded for a busy 2-core machine: a few examples per operation, derandomized (the same requests every run, so
nothing is flaky), no deadline and no request time limit (no timing in tests), no example database written.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.python.asgi import ASGIClient
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlmodel import select

from app.access import sessions, tokens
from app.access.models import User, UserStatus
from app.kernel.db import session_scope
from app.main import create_api
from tests.conftest import reset_database

# Hypothesis keeps caches (and, unless database=None, its examples) in .hypothesis/: into the test run's own data
# directory instead, never the repository.
set_hypothesis_home_dir(Path(os.environ["DSP_DATA_DIR"]) / "hypothesis")

ROLES = {"admin": "admin@demo.example", "co-admin": "coadmin@demo.example", "agency": "agency@demo.example",
         "advertiser": "advertiser@demo.example"}

# Operations not called, each with its reason: nothing is left out silently.
EXCLUDED = {
    "POST /auth/logout": "ends the caller's own session, so every later call of that role would answer 401; "
                         "logging out is tested in tests/test_api_auth.py",
}

# Examples per operation (each with a role drawn among the four). Raise it locally for a deeper run.
EXAMPLES_PER_OPERATION = 4

CONFIG = SchemathesisConfig.from_dict({
    "seed": 12,
    "generation": {"mode": "all", "deterministic": True},
    # No time limit on a call: a test must not depend on the machine's speed (the first city search builds its
    # index, which takes seconds on a busy machine).
    "request-timeout": 600,
    # Fuzzing only. The coverage phase makes every boundary case of every parameter, hundreds per operation: far
    # past the bound of this test. The document has no examples to replay, and no links for stateful runs.
    "phases": {"examples": {"enabled": False}, "coverage": {"enabled": False}, "stateful": {"enabled": False}},
})
# The very document the API serves at /api/openapi.json (create_api() is what /api mounts).
schema = schemathesis.openapi.from_dict(create_api().openapi(), config=CONFIG)
for _name in EXCLUDED:
    schema = schema.exclude(name=_name)


class Callers:
    """A live bearer token for each role. A generated request may disable a demo user or end its sessions (an
    admin's `PUT /users/3/status`, say); when a call then answers 401 and the role's own session no longer acts,
    its user is enabled again, a new session opened and the call repeated, so every later operation is still
    tried as that role."""

    def __init__(self) -> None:
        self.session_ids: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        self.calls: Counter[str] = Counter()
        self.revived: Counter[str] = Counter()

    def _open(self, role: str) -> None:
        with session_scope() as db:
            user = db.exec(select(User).where(User.email == ROLES[role])).one()
            if user.status != UserStatus.ACTIVE:
                user.status = UserStatus.ACTIVE
                db.add(user)
            row = sessions.start(db, user=user, kind="api").session
            assert user.id is not None
            self.tokens[role] = tokens.issue(session_id=row.id, user_id=user.id, role=user.role,
                                             issued_at=row.issued_at, expires_at=row.expires_at)
            self.session_ids[role] = row.id

    def headers(self, role: str) -> dict[str, str]:
        if role not in self.tokens:
            self._open(role)
        self.calls[role] += 1
        return {"Authorization": f"Bearer {self.tokens[role]}"}

    def revive(self, role: str) -> bool:
        """Whether the role's session had ended (and was replaced by a new one)."""
        with session_scope() as db:
            alive = sessions.actor_for(db, sessions.find_by_id(db, session_id=self.session_ids[role]))
        if alive is not None:
            return False
        self.revived[role] += 1
        self._open(role)
        return True


def _outbound(request: httpx.Request) -> httpx.Response:
    """Calls the server makes to other hosts (a DSP's endpoint, say) get a fake success and never leave the
    machine: generated requests name arbitrary hosts."""
    return httpx.Response(200, json={"id": "remote-1"})


@pytest.fixture(scope="module")
def client() -> Iterator[ASGIClient]:
    """The whole server, in process, on a freshly seeded database."""
    from app.main import create_app

    reset_database()
    real_transport = httpx.HTTPTransport.handle_request
    httpx.HTTPTransport.handle_request = lambda self, request: _outbound(request)  # type: ignore[method-assign]
    try:
        yield ASGIClient(create_app())
    finally:
        httpx.HTTPTransport.handle_request = real_transport  # type: ignore[method-assign]


@pytest.fixture(scope="module")
def callers(client: ASGIClient) -> Callers:
    return Callers()


def in_envelope(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every error answer is {success: false, code: <the HTTP status>, message: <words>, data}."""
    if response.status_code < 400:
        return None
    try:
        answer = json.loads(response.content)
    except ValueError:
        raise AssertionError(f"The {response.status_code} answer is not JSON: {response.content[:200]!r}") from None
    assert isinstance(answer, dict) and set(answer) == {"success", "code", "message", "data"}, answer
    assert answer["success"] is False and answer["code"] == response.status_code, answer
    assert isinstance(answer["message"], str) and answer["message"], answer
    return None


CHECKS = [not_a_server_error, in_envelope, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]  # headers: a create's Location


@schema.parametrize()
@schema.given(role=st.sampled_from(sorted(ROLES)))
@settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_answers_as_documented(case: Any, role: str, client: ASGIClient, callers: Callers) -> None:
    response = case.call(headers=callers.headers(role), session=client)
    if response.status_code == 401 and callers.revive(role):
        response = case.call(headers=callers.headers(role), session=client)
    case.validate_response(response, checks=CHECKS)


def test_every_role_was_tried(callers: Callers) -> None:
    """The run above called as each of the four roles (it runs first: pytest keeps the file's order)."""
    if not callers.calls:
        pytest.skip("only meaningful after test_api_answers_as_documented (run the whole file)")
    assert set(callers.calls) == set(ROLES), callers.calls
    assert min(callers.calls.values()) >= 100, callers.calls
