"""Operating systems and carriers' countries: OS versions belong to a system, carriers to a country, both set by
an admin and followed by campaign targeting; the pickers' meta-data calls and the campaign form's options,
scoped to the advertiser (another tenant's answers 404)."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from app.accounts import user_config
from app.campaigns import service as campaigns
from app.campaigns import targeting_options
from app.campaigns.schemas import CampaignUpdate
from app.demo.seed import seed_demo
from app.history.models import AuditEntry
from app.kernel.errors import Conflict, Invalid, NotFound
from app.reference import metadata
from app.reference.models import ReferenceValue
from tests.helpers import actor_of, bearer_headers, other_tenant, user_by_email

BASE = {"name": "Devices", "objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC",
        "total_budget": "1000", "bid_strategy": "cpm", "bid": "2"}


def _id(db: Session, kind: str, name: str) -> int:
    value = db.exec(select(ReferenceValue).where(ReferenceValue.kind == kind, ReferenceValue.name == name)).one()
    assert value.id is not None
    return value.id


def _restrict_exchanges(db: Session, email: str, exchange_ids: list[int]) -> None:
    admin = actor_of(db, "admin@demo.example")
    user = user_by_email(db, email)
    config = user_config.get_config(db, actor=admin, user_id=user.id)
    user_config.update_config(db, actor=admin, user_id=user.id, insight_dashboard=config.insight_dashboard,
                              postback_enabled=config.postback_enabled, api_access=config.api_access,
                              margin=config.margin, allowed_exchanges=exchange_ids)


def test_the_seed_links_versions_to_systems_and_carriers_to_countries(db):
    admin = actor_of(db, "admin@demo.example")
    android, ipados = _id(db, "operating_system", "Android"), _id(db, "operating_system", "iPadOS")
    versions = {v.name: v.parent_id for v in metadata.active_values(db, actor=admin, kind="os_version")}
    assert versions["Android 14"] == android and versions["iPadOS 17"] == ipados  # not iOS: the longest name wins
    assert all(versions.values())
    carriers = {c.name: c.country for c in metadata.active_values(db, actor=admin, kind="carrier")}
    assert carriers["Deutsche Telekom"] == "DE" and carriers["Verizon"] == "US" and all(carriers.values())


def test_data_from_before_operating_systems_gets_them_once(db):
    admin = actor_of(db, "admin@demo.example")
    for value in db.exec(select(ReferenceValue).where(ReferenceValue.kind.in_(["os_version", "carrier"]))):
        value.parent_id, value.country = None, None
        db.add(value)
    db.flush()
    for system in db.exec(select(ReferenceValue).where(ReferenceValue.kind == "operating_system")):
        db.delete(system)
    db.flush()
    seed_demo(db)  # what `make run` does after migration 0005
    assert len(metadata.active_values(db, actor=admin, kind="operating_system")) == 8
    ios = _id(db, "operating_system", "iOS")
    assert metadata.active_values(db, actor=admin, kind="os_version", parent_id=ios)
    assert {c.name for c in metadata.active_values(db, actor=admin, kind="carrier", country="de")} == {
        "Deutsche Telekom", "Vodafone Germany", "O2 Germany"}
    metadata.edit_value(db, actor=admin, value_id=_id(db, "carrier", "Jio"), name="Jio", country=None)
    seed_demo(db)  # a later run leaves the admin's choice alone
    assert db.get(ReferenceValue, _id(db, "carrier", "Jio")).country is None


def test_admin_sets_a_versions_system_and_a_carriers_country(db):
    admin = actor_of(db, "admin@demo.example")
    android = _id(db, "operating_system", "Android")
    added = metadata.add_value(db, actor=admin, kind="os_version", name="Android 16", parent_id=android)
    assert (added.parent_id, added.parent) == (android, "Android")
    carrier = metadata.add_value(db, actor=admin, kind="carrier", name="Swisscom", country="ch")
    assert carrier.country == "CH"
    edited = metadata.edit_value(db, actor=admin, value_id=carrier.id, name="Swisscom Mobile", country="LI")
    assert (edited.name, edited.country) == ("Swisscom Mobile", "LI")
    entry = db.exec(select(AuditEntry).where(AuditEntry.entity_id == str(carrier.id),
                                             AuditEntry.action == "edit")).one()
    assert entry.changes == {"country": ["CH", "LI"], "name": ["Swisscom", "Swisscom Mobile"]}
    for kind, details, field in (("os_version", {"parent_id": _id(db, "browser", "Chrome")}, "parent_id"),
                                 ("carrier", {"country": "XX"}, "country"),
                                 ("browser", {"country": "DE"}, "country"),
                                 ("carrier", {"parent_id": android}, "parent_id")):
        with pytest.raises(Invalid) as error:
            metadata.add_value(db, actor=admin, kind=kind, name="Something New", **details)
        assert set(error.value.fields) == {field}
    with pytest.raises(Conflict):  # its versions use it: retire it instead
        metadata.delete_value(db, actor=admin, value_id=android)


def test_targeting_keeps_versions_in_the_chosen_systems_and_carriers_in_the_chosen_countries(db):
    me = actor_of(db, "advertiser@demo.example")
    android, ios = _id(db, "operating_system", "Android"), _id(db, "operating_system", "iOS")
    android_14, ios_17 = _id(db, "os_version", "Android 14"), _id(db, "os_version", "iOS 17")
    telekom, verizon = _id(db, "carrier", "Deutsche Telekom"), _id(db, "carrier", "Verizon")
    with pytest.raises(Invalid) as error:
        campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "targeting": {
            "operating_systems": [android], "os_versions": [android_14, ios_17],
            "countries": ["DE"], "carriers": [telekom, verizon]}}))
    assert error.value.fields == {"targeting.os_versions": "OS versions outside the chosen operating systems: iOS 17.",
                                  "targeting.carriers": "Carriers outside the chosen countries: Verizon."}
    saved = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "targeting": {
        "operating_systems": [android, ios], "os_versions": [android_14, ios_17], "carriers": [verizon]}}))
    assert saved.targeting.operating_systems == sorted([android, ios])
    admin = actor_of(db, "admin@demo.example")
    assert next(r for r in metadata.list_values(db, actor=admin, kind="operating_system") if r.id == ios).used > 0


def test_options_hold_every_picker_and_the_advertisers_exchanges(db):
    first, second, *_ = db.exec(select(ReferenceValue.id).where(ReferenceValue.kind == "exchange")).all()
    me = actor_of(db, "advertiser@demo.example")
    everything = targeting_options.options(db, actor=me, advertiser_id=None)
    assert {"exchanges", "operating_systems", "os_versions", "browsers", "manufacturers", "carriers", "countries",
            "languages", "device_types", "objectives", "traffic_types", "goal_metrics"} <= set(everything.model_dump())
    assert len(everything.exchanges) == 10  # no restriction in the configuration: every active exchange
    assert all("parent_id" in v.model_dump() for v in everything.os_versions) and all(
        "country" in c.model_dump() for c in everything.carriers)
    _restrict_exchanges(db, "advertiser@demo.example", [first, second])
    assert {e.id for e in targeting_options.options(db, actor=me, advertiser_id=None).exchanges} == {first, second}
    agency = actor_of(db, "agency@demo.example")
    assert {e.id for e in targeting_options.supported_exchanges(db, actor=agency, advertiser_id=me.id)} == {
        first, second}


def test_another_tenants_advertiser_is_unreachable(db):
    _, rival_advertiser = other_tenant(db)
    for email in ("agency@demo.example", "advertiser@demo.example"):
        actor = actor_of(db, email)
        with pytest.raises(NotFound):
            targeting_options.options(db, actor=actor, advertiser_id=rival_advertiser.id)
        with pytest.raises(NotFound):
            targeting_options.supported_exchanges(db, actor=actor, advertiser_id=rival_advertiser.id)
    admin = actor_of(db, "admin@demo.example")
    assert targeting_options.options(db, actor=admin, advertiser_id=rival_advertiser.id).exchanges


def test_meta_calls(client):
    headers = bearer_headers(client, "agency@demo.example")

    def data(path: str) -> list[dict]:
        reply = client.get(path, headers=headers)
        assert reply.status_code == 200 and reply.json()["success"] is True, (path, reply.text)
        return reply.json()["data"]

    systems = {row["name"]: row["id"] for row in data("/api/meta/os")}
    assert {"Android", "iOS", "Windows", "macOS", "Linux", "tvOS"} <= set(systems)
    assert {row["name"] for row in data(f"/api/meta/os-versions?os={systems['tvOS']}")} == {"tvOS 17", "tvOS 18"}
    assert len(data("/api/meta/os-versions")) == 15
    assert "Google AdX" in {row["name"] for row in data("/api/meta/exchanges")}
    assert {row["name"] for row in data("/api/meta/traffic-type")} == {"App", "Web", "CTV"}
    assert "Chrome" in {row["name"] for row in data("/api/meta/browser")}
    assert "Samsung" in {row["name"] for row in data("/api/meta/manufacturers")}
    assert {(row["name"], row["country"]) for row in data("/api/meta/carriers?country=US")} == {
        ("AT&T", "US"), ("T-Mobile US", "US"), ("Verizon", "US")}
    advertiser = client.get("/api/users", headers=headers).json()["data"]["items"][0]["id"]
    assert len(data(f"/api/meta/user-supported-exchanges?advertiser_id={advertiser}")) == 10
    assert data(f"/api/campaign-options?advertiser_id={advertiser}")["operating_systems"]
    assert client.get("/api/meta/os").status_code == 401


def test_meta_calls_refuse_another_tenants_advertiser(client):
    from app.kernel.db import run

    rival_advertiser_id = run(lambda db: other_tenant(db)[1].id)
    for email in ("agency@demo.example", "advertiser@demo.example"):
        headers = bearer_headers(client, email)
        for path in (f"/api/meta/user-supported-exchanges?advertiser_id={rival_advertiser_id}",
                     f"/api/campaign-options?advertiser_id={rival_advertiser_id}"):
            reply = client.get(path, headers=headers)
            assert reply.status_code == 404 and reply.json()["success"] is False, (email, path)
