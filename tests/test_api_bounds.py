"""Ids too big for a 64-bit integer get a 422 naming the field, in the envelope, on every kind of call
(found by a new user: five operations answered 500 "Internal Server Error" as plain text)."""

from __future__ import annotations

import pytest

from app.api.bounds import OUT_OF_RANGE
from tests.helpers import bearer_headers

HUGE = 14766569749463814144


@pytest.mark.parametrize(("method", "path", "body", "field"), [
    ("GET", f"/api/users/{HUGE}/payments", None, "user_id"),
    ("DELETE", f"/api/metadata/values/{HUGE}", None, "value_id"),
    ("PUT", f"/api/users/{HUGE}/margin", {"margin": "1"}, "user_id"),
    ("POST", "/api/agencies/assign", {"agency_id": 3, "advertiser_ids": [4, HUGE]}, "advertiser_ids[1]"),
    ("GET", "/api/dashboard/overview?campaign_id=" + str(HUGE), None, "campaign_id"),
])
def test_out_of_range_ids_are_named_not_crashed_on(client, method: str, path: str, body, field: str) -> None:
    reply = client.request(method, path, json=body, headers=bearer_headers(client, "admin@demo.example"))
    assert reply.status_code == 422, reply.text
    answer = reply.json()
    assert answer["success"] is False and answer["code"] == 422
    assert field in answer["data"]["fields"], answer


def test_an_upload_form_field_out_of_range_is_named_not_crashed_on(client) -> None:
    # Found by Schemathesis: a multipart form's list id reached the database (OverflowError, 500).
    reply = client.post("/api/uploads/smart-app-list", data={"list_id": str(HUGE), "mode": "add"},
                        files={"file": ("apps.csv", b"com.example.app\n", "text/csv")},
                        headers=bearer_headers(client, "admin@demo.example"))
    assert reply.status_code == 422, reply.text
    assert reply.json()["data"]["fields"] == {"list_id": OUT_OF_RANGE}
