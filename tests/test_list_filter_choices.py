"""A list filter that takes documented choices (status, type, kind, role, state...) refuses an unknown value with
422 naming the values it takes, on every REST list (issue 38 item 12: `GET /api/campaigns?status=actve` answered
200 with an empty page, which reads as "you have no such campaigns"). The routes come from the OpenAPI document,
so a new list's filter is checked without being listed here."""

from __future__ import annotations

import re

import pytest

from app.kernel.choices import filter_choice
from app.kernel.errors import Invalid
from tests.helpers import bearer_headers

CHOICE_PARAMETERS = frozenset({"status", "type", "kind", "role", "state", "group"})
UNKNOWN = "actve"


def _choice_filters(client) -> list[tuple[str, str]]:
    """(path, parameter) of every GET route with a query parameter named like a choice filter."""
    document = client.get("/api/openapi.json").json()
    found = []
    for path, methods in document["paths"].items():
        for parameter in methods.get("get", {}).get("parameters", []):
            if parameter["in"] == "query" and parameter["name"] in CHOICE_PARAMETERS:
                found.append((path, parameter["name"]))
    return found


def test_every_list_refuses_an_unknown_filter_value_naming_the_allowed_ones(client, demo_ids):
    headers = bearer_headers(client, "admin@demo.example")
    advertiser = demo_ids["advertiser@demo.example"]
    filters = _choice_filters(client)
    assert ("/campaigns", "status") in filters and ("/users", "role") in filters
    answered = {}
    for path, parameter in filters:
        url = "/api" + re.sub(r"\{[^}]+\}", str(advertiser), path)
        reply = client.get(url, params={parameter: UNKNOWN}, headers=headers)
        answered[(path, parameter)] = (reply.status_code, reply.json().get("data") or {})
    wrong = {key: status for key, (status, _data) in answered.items() if status != 422}
    assert not wrong, f"an unknown filter value was not refused: {wrong}"
    for key, (_status, data) in answered.items():
        assert key[1] in data["fields"], key


def test_the_campaign_list_names_the_statuses_it_filters_by(client):
    headers = bearer_headers(client, "advertiser@demo.example")
    reply = client.get("/api/campaigns", params={"status": UNKNOWN}, headers=headers)
    assert reply.status_code == 422
    message = reply.json()["data"]["fields"]["status"]
    for status in ("draft", "active", "paused", "completed", "archived", "ended"):
        assert status in message
    assert client.get("/api/campaigns", params={"status": "active"}, headers=headers).status_code == 200
    users = client.get("/api/users", params={"role": "admin"}, headers=bearer_headers(client, "admin@demo.example"))
    assert users.status_code == 422 and "ADVERTISER" in users.json()["data"]["fields"]["role"]


def test_the_helper_takes_empty_and_known_values():
    assert filter_choice("status", "", ("a", "b")) == ""
    assert filter_choice("status", "b", ("a", "b")) == "b"
    with pytest.raises(Invalid) as refused:
        filter_choice("status", "c", ("a", "b"))
    assert refused.value.fields == {"status": "Not one of a, b: choose one of them, or leave it empty for all."}
