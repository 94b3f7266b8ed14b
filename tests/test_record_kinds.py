"""Record kinds declared once (app/history/status.py, app/history/change_log.py): a kind declared anywhere gets its
status machine and API routes; every status change goes through a declared machine, and a move raced by another
session is made and audited once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlmodel import Session, func, select

from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignUpdate
from app.campaigns.scope import campaign_in_scope
from app.history import change_log, status
from app.history.models import AuditEntry
from app.kernel.db import session_scope
from components import pages as _route_table  # noqa: F401  (built before the test kind, which has no page)
from tests.helpers import actor_of, bearer_headers
from tests.test_campaigns import VALID

ADVERTISER = "advertiser@demo.example"
APP = Path(__file__).resolve().parents[1] / "app"


class LampRead(BaseModel):
    """The test kind's record as its status route answers it."""

    id: int
    lamp: str


# The route table (imported above) checks every change log has its pages when it is built: it must be built before
# the test kind is declared (run alone, this file failed when create_app built it later).
@pytest.fixture
def test_kind() -> Iterator[status.StatusMachine[Any]]:
    """A kind no domain has: a campaign's "lamp", on or off once, over the campaigns table, with its change log."""
    machine = status.declare(status.StatusMachine(
        "test_lamp", Campaign, ("draft", "archived"), ("campaign", "status"), campaign_in_scope,
        lambda _db, _actor, loaded: {"id": loaded[0].id, "lamp": loaded[0].status},
        transitions={"draft": frozenset({"archived"}), "archived": frozenset()},
        refused="The lamp is {current}: it cannot be {wanted} again.",
        routes=(status.StatusRoute("/test-kinds/lamps/{campaign_id}", method="PATCH", message="Lamp moved"),),
        read=LampRead))
    change_log.CHANGE_LOGS["test_lamp"] = change_log.ChangeLogKind(
        "test_lamp", ("campaign", "view"), "the campaign's advertiser is in scope", "test.lamp_log",
        "/test-kinds/lamps/{campaign_id}/log", "lamp")
    change_log.register("test_lamp", change_log.ChangeLogSource(
        lambda db, actor, campaign_id: change_log.about(campaign_in_scope(db, actor, campaign_id)[0])))
    yield machine
    del status.STATUS_MACHINES["test_lamp"], change_log.CHANGE_LOGS["test_lamp"]


def _audited(db: Session, entity: str, entity_id: int, action: str) -> int:
    return db.exec(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.entity == entity, AuditEntry.entity_id == str(entity_id), AuditEntry.action == action)).one()


def test_a_kind_declared_once_gets_its_status_route_change_log_checks_and_audit(demo_ids: dict[str, int],
                                                                     test_kind: Any) -> None:
    from app.main import create_app

    with session_scope() as db:
        campaign_id = campaigns.create_campaign(db, actor=actor_of(db, ADVERTISER), data=CampaignUpdate.model_validate(VALID)).id
    with TestClient(create_app(), base_url="http://testserver") as client:
        headers = bearer_headers(client, ADVERTISER)
        path = f"/api/test-kinds/lamps/{campaign_id}"
        bad = client.patch(path, json={"status": "purple"}, headers=headers)
        assert bad.status_code == 422 and bad.json()["data"]["fields"] == {"status": "Not an allowed value."}
        moved = client.patch(path, json={"status": "archived"}, headers=headers)
        assert moved.status_code == 200, moved.text
        assert moved.json()["message"] == "Lamp moved" and moved.json()["data"] == {"id": campaign_id,
                                                                                     "lamp": "archived"}
        again = client.patch(path, json={"status": "draft"}, headers=headers)
        assert again.status_code == 422
        assert again.json()["data"]["fields"] == {"status": "The lamp is archived: it cannot be draft again."}
        assert client.patch(path, json={"status": "archived"}).status_code == 401
        assert client.patch("/api/test-kinds/lamps/999999", json={"status": "archived"},
                            headers=headers).status_code == 404
        log = client.get(f"{path}/log", headers=headers)
        assert log.status_code == 200, log.text
        assert log.json()["data"]["lamp"]["status"] == "archived"
        assert [e["action"] for e in log.json()["data"]["items"]] == ["set_status_archived"]
        assert client.get(f"{path}/log", headers=headers, params={"since": "2999-01-01"}).json()["data"][
            "items"] == []
        spec = client.get("/api/openapi.json").json()
        paths = spec["paths"]
        assert {"/test-kinds/lamps/{campaign_id}", "/test-kinds/lamps/{campaign_id}/log"} <= set(paths)
        # Both answer their declared shapes in OpenAPI: the record as the kind reads it, the log with its subject.
        schemas = spec["components"]["schemas"]

        def data_of(operation: dict[str, Any]) -> dict[str, Any]:
            envelope = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
            return schemas[envelope.rsplit("/", 1)[1]]["properties"]["data"]

        assert data_of(paths["/test-kinds/lamps/{campaign_id}"]["patch"]) == {"$ref": "#/components/schemas/LampRead"}
        log_schema = schemas[data_of(paths["/test-kinds/lamps/{campaign_id}/log"]["get"])["$ref"].rsplit("/", 1)[1]]
        assert set(log_schema["properties"]) == {"lamp", "items", "people", "next_cursor", "total", "limit"}
    with session_scope() as db:
        assert _audited(db, "test_lamp", campaign_id, "set_status_archived") == 1


def test_a_move_raced_by_another_session_is_made_and_audited_once(demo_ids: dict[str, int]) -> None:
    with session_scope() as db:
        actor = actor_of(db, ADVERTISER)
        campaign_id = campaigns.create_campaign(db, actor=actor, data=CampaignUpdate.model_validate(VALID)).id
    with session_scope() as late:
        read = late.get(Campaign, campaign_id)  # this session has read it as a draft (and keeps it)
        assert read is not None and read.status == "draft"
        with session_scope() as first:
            campaigns.set_status(first, actor=actor, campaign_id=campaign_id, status="archived")
        shown = campaigns.set_status(late, actor=actor, campaign_id=campaign_id, status="archived")
        assert shown.status == "archived"
    with session_scope() as db:
        assert _audited(db, "campaign", campaign_id, "set_status_archived") == 1


def test_every_status_change_goes_through_a_declared_machine() -> None:
    """No module writes a status move's audit row itself: the machine does (app/history/status.py)."""
    writers = [str(path.relative_to(APP)) for path in APP.rglob("*.py")
               if path.name != "status.py" and re.search(r"action=f?\"set_status_", path.read_text())]
    assert writers == []
    import app.tables  # noqa: F401  (every domain declares its kinds when its package loads)

    assert {"campaign", "creative", "user", "dsp", "audience", "app_list", "smart_app_list"} <= set(
        status.STATUS_MACHINES)
    assert all(machine.routes for machine in status.STATUS_MACHINES.values())


def test_every_audited_entity_has_a_declared_kind(demo_ids: dict[str, int]) -> None:
    """Each entity the code audits, and each the demo's writes left in the trail, is a declared change log's, a
    declared status machine's, or declared as audited only."""
    from app.history.change_log import AUDITED_ONLY, CHANGE_LOGS

    declared = {log.entity for log in CHANGE_LOGS.values()} | set(status.STATUS_MACHINES) | set(AUDITED_ONLY)
    written = {match for path in APP.rglob("*.py") for match in re.findall(
        r"(?:entity=|^ENTITY = )\"([a-z_]+)\"", path.read_text(), flags=re.MULTILINE)}
    with session_scope() as db:
        written |= set(db.exec(select(AuditEntry.entity).distinct()).all())
    assert written - declared == set()
    assert {"campaign", "creative", "user", "dsp", "funds"} <= written, "the scan found what is audited"


@pytest.mark.parametrize("kind", ["inventory", "smart"])
def test_both_kinds_of_list_share_one_lifecycle(db: Session, kind: str) -> None:
    """Inventory and smart-app lists live the same life (app/supply/list_lifecycle.py): replacing the entries
    with nothing is refused and keeps them (smart-app lists used to be emptied), and an archived list takes no
    entries until restored."""
    from app.kernel.errors import Invalid
    from app.supply import app_lists, smart_apps

    if kind == "inventory":
        actor = actor_of(db, ADVERTISER)
        made = app_lists.create_list(db, actor=actor, name="Apps", kind="allow", entries="com.example.app")
        list_id, module, key = made.list.id, app_lists, "applist_id"
    else:
        actor = actor_of(db, "admin@demo.example")
        made = smart_apps.create_list(db, actor=actor, name="Games", category_id="36", genre_id="6014",
                                      entries="com.example.app")
        list_id, module, key = made.list.id, smart_apps, "list_id"
    with pytest.raises(Invalid) as refused:
        module.change_entries(db, actor=actor, text="", mode="replace", **{key: list_id})
    assert refused.value.fields == {"entries": "Give the entries the list should hold."}
    assert [e.value for e in module.list_entries(db, actor=actor, **{key: list_id})] == ["com.example.app"]
    module.set_status(db, actor=actor, status="archived", **{key: list_id})
    with pytest.raises(Invalid) as archived:
        module.change_entries(db, actor=actor, text="com.example.other", mode="add", **{key: list_id})
    assert archived.value.fields == {"status": "An archived list cannot be changed; restore it first."}
