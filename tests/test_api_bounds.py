"""Ids too big for a 64-bit integer get a 422 naming the field, in the envelope, on every kind of call
(found by a new user: five operations answered 500 "Internal Server Error" as plain text)."""

from __future__ import annotations

import pytest

from app.web.bounds import ID_OUT_OF_RANGE
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
    assert reply.json()["data"]["fields"] == {"list_id": ID_OUT_OF_RANGE}


INT32_PAST = 2**31  # fits SQLite's integers, not PostgreSQL's INTEGER ids ("integer out of range", a 500)


@pytest.mark.parametrize(("method", "path", "body", "field"), [
    ("GET", f"/api/funds/{INT32_PAST}", None, "advertiser_id"),
    ("GET", f"/api/report/getSingle?report_id={INT32_PAST}", None, "report_id"),
    ("PUT", "/api/creatives/1/campaigns", {"campaign_ids": [1, INT32_PAST]}, "campaign_ids[1]"),
    ("POST", "/api/campaning/changeStatus", {"campaign_id": -INT32_PAST - 1, "status": "paused"}, "campaign_id"),
])
def test_ids_past_32_bits_are_refused_on_every_database(client, method: str, path: str, body, field: str) -> None:
    reply = client.request(method, path, json=body, headers=bearer_headers(client, "admin@demo.example"))
    assert reply.status_code == 422, reply.text
    assert reply.json()["data"]["fields"][field] == ID_OUT_OF_RANGE, reply.json()


def test_digits_in_a_text_parameter_are_text_not_an_id(client) -> None:
    # An iOS store id is all digits and past 32 bits; a search for it is not an out-of-range id.
    reply = client.get("/api/meta/city?q=6448311069", headers=bearer_headers(client, "admin@demo.example"))
    assert reply.status_code == 200, reply.text
