"""Every settings and configuration save changes only the fields it was given (issue 21): each call below is
made with one field changed, and every other field reads back as it was, margin and allowed exchanges included.
PUT and PATCH behave alike. Switches are JSON booleans in every reply."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.helpers import bearer_headers

ADVERTISER = "advertiser@demo.example"
WHO = {"admin": "admin@demo.example", "agency": "agency@demo.example", "advertiser": ADVERTISER}


@dataclass(frozen=True)
class Save:
    who: str
    path: str  # {id}: the demo advertiser
    read: str
    body: Callable[[list[int]], dict[str, Any]]  # given the exchange ids
    changed: set[str]  # the fields of the read that must differ afterwards; every other stays
    methods: tuple[str, ...] = ("put", "patch")


CONFIG, USER, PROFILE, POSTBACK = "/api/users/{id}/config", "/api/users/{id}", "/api/auth/profile", "/api/postback"
SAVES: dict[str, Save] = {
    "config insight_dashboard": Save("admin", CONFIG, CONFIG, lambda _x: {"insight_dashboard": False},
                                     {"insight_dashboard"}),
    "config postback_enabled": Save("admin", CONFIG, CONFIG, lambda _x: {"postback_enabled": False},
                                    {"postback_enabled"}),
    "config postback_enabled as the spec's word": Save("admin", CONFIG, CONFIG,
                                                       lambda _x: {"postback_enabled": "DISABLED"}, {"postback_enabled"}),
    "config api_access": Save("admin", CONFIG, CONFIG, lambda _x: {"api_access": False}, {"api_access"}),
    "config margin": Save("admin", CONFIG, CONFIG, lambda _x: {"margin": "7.25"}, {"margin"}),
    "config allowed_exchanges": Save("admin", CONFIG, CONFIG, lambda ids: {"allowed_exchanges": ids[2:3]},
                                     {"allowed_exchanges"}),
    "config switches only": Save("admin", CONFIG, CONFIG, lambda _x: {"insight_dashboard": True,
                                                                      "postback_enabled": True, "api_access": False},
                                 {"api_access"}),
    "agency margin": Save("agency", "/api/users/{id}/margin", CONFIG, lambda _x: {"margin": "3"}, {"margin"},
                          methods=("put",)),
    "user firstName": Save("admin", USER, USER, lambda _x: {"firstName": "Arlene"}, {"first_name", "name"}),
    "user lastName": Save("admin", USER, USER, lambda _x: {"lastName": "Buyer"}, {"last_name", "name"}),
    "user email": Save("admin", USER, USER, lambda _x: {"email": "arlo@moved.example"}, {"email"}),
    "user companyName": Save("admin", USER, USER, lambda _x: {"companyName": "Arlo Two"}, {"company_name"}),
    "profile firstName": Save("advertiser", PROFILE, PROFILE, lambda _x: {"firstName": "Arlene"}, {"first_name"}),
    "profile companyName": Save("advertiser", PROFILE, PROFILE, lambda _x: {"companyName": "Arlo Two"},
                                {"company_name"}),
    "postback url": Save("advertiser", POSTBACK, POSTBACK, lambda _x: {"url": "https://mmp.example/other"}, {"url"}),
    "postback events": Save("advertiser", POSTBACK, POSTBACK, lambda _x: {"events": ["open"]}, {"events"}),
}
CASES = [pytest.param(name, method, id=f"{method} {name}") for name, save in SAVES.items() for method in save.methods]


def _configured(client: Any, demo_ids: dict[str, int]) -> tuple[int, list[int], dict[str, dict[str, str]]]:
    """The advertiser with every setting away from its default: (its id, the exchange ids, headers by role)."""
    headers = {who: bearer_headers(client, email) for who, email in WHO.items()}
    advertiser = demo_ids[ADVERTISER]
    config = f"/api/users/{advertiser}/config"
    ids = [x["id"] for x in client.get(config, headers=headers["admin"]).json()["data"]["exchange_options"]]
    full = {"insight_dashboard": True, "postback_enabled": True, "api_access": True, "margin": "12.5",
            "allowed_exchanges": ids[:2]}
    assert client.put(config, headers=headers["admin"], json=full).status_code == 200
    postback = {"url": "https://mmp.example/pb?c={click_id}", "events": ["install", "purchase"]}
    assert client.put("/api/postback", headers=headers["advertiser"], json=postback).status_code == 200
    return advertiser, ids, headers


@pytest.mark.parametrize(("name", "method"), CASES)
def test_a_save_with_one_field_changes_that_field_only(client, demo_ids, name: str, method: str) -> None:
    save = SAVES[name]
    advertiser, ids, headers = _configured(client, demo_ids)
    read_path = save.read.format(id=advertiser)
    reader = headers["admin"] if save.read != POSTBACK and save.read != PROFILE else headers["advertiser"]
    before = client.get(read_path, headers=reader).json()["data"]
    reply = client.request(method, save.path.format(id=advertiser), headers=headers[save.who], json=save.body(ids))
    assert reply.status_code == 200, reply.text
    after = client.get(read_path, headers=reader).json()["data"]
    assert {key for key in before if before[key] != after[key]} == save.changed, (before, after)
    if save.read == CONFIG:
        assert (before["margin"], before["allowed_exchanges"]) == ("12.5", sorted(ids[:2]))
        # The change log records what changed and nothing else.
        latest = client.get(f"/api/users/{advertiser}/change-log", headers=headers["admin"]).json()["data"]["items"][0]
        stored_names = {"margin": "margin_bps"}
        assert {c["field"] for c in latest["changes"]} == {stored_names.get(f, f) for f in save.changed}


def test_a_save_that_changes_nothing_leaves_no_change_log_entry(client, demo_ids) -> None:
    advertiser, _ids, headers = _configured(client, demo_ids)
    log = f"/api/users/{advertiser}/change-log"
    entries = client.get(log, headers=headers["admin"]).json()["data"]["total"]
    assert client.patch(f"/api/users/{advertiser}/config", headers=headers["admin"],
                        json={"margin": "12.50", "api_access": True}).status_code == 200
    assert client.get(log, headers=headers["admin"]).json()["data"]["total"] == entries


def test_a_refused_field_saves_nothing_of_the_call(client, demo_ids) -> None:
    advertiser, ids, headers = _configured(client, demo_ids)
    config = f"/api/users/{advertiser}/config"
    before = client.get(config, headers=headers["admin"]).json()["data"]
    reply = client.patch(config, headers=headers["admin"], json={"insight_dashboard": False, "margin": "95"})
    assert reply.status_code == 422 and set(reply.json()["data"]["fields"]) == {"margin"}
    assert client.get(config, headers=headers["admin"]).json()["data"] == before


def test_switches_are_json_booleans_in_every_reply(client, demo_ids) -> None:
    advertiser, _ids, headers = _configured(client, demo_ids)
    for path, who in ((f"/api/users/{advertiser}/config", "admin"), (f"/api/user-settings/{advertiser}", "advertiser")):
        data = client.get(path, headers=headers[who]).json()["data"]
        assert {key: data[key] for key in ("insight_dashboard", "postback_enabled", "api_access")} == \
            {"insight_dashboard": True, "postback_enabled": True, "api_access": True}, path
    saved = client.patch(f"/api/users/{advertiser}/config", headers=headers["admin"],
                         json={"postback_enabled": "DISABLED"}).json()["data"]
    assert saved["postback_enabled"] is False
    assert client.get(f"/api/user-settings/{advertiser}", headers=headers["advertiser"]).json()["data"][
        "postback_enabled"] is False
    refused = client.patch(f"/api/users/{advertiser}/config", headers=headers["admin"],
                           json={"postback_enabled": "SOMETIMES"})
    assert refused.status_code == 422
