"""Machinery of the API authorization matrix (tests/test_api_authorization_matrix.py): the operations of the
OpenAPI document, a minimal valid request for each, a recorder of every database write a request commits, and
two tenants with one of each scoped entity."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event, text
from sqlmodel import Session, SQLModel, select

from app.access.models import UserSettings
from app.access.roles import Role
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate
from app.demo.media import banner
from app.demo.seed import DEMO_PASSWORD, create_user
from app.funds import service as funds
from app.history.models import AuditEntry
from app.reports import service as reports
from app.reports.schemas import ReportSettings
from app.settings import api_credentials, postbacks
from app.supply import app_lists, audiences
from tests.helpers import actor_of

METHODS = ("get", "post", "put", "patch", "delete")
# A name that reads as an id: every such parameter or body field must be declared (ID_KINDS in the test).
ID_NAME = re.compile(r"(^id$|^ids$|_id$|_ids$)")


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    path_params: tuple[str, ...]
    query: tuple[tuple[str, bool, dict[str, Any]], ...]  # (name, required, schema)
    body_type: str  # "", "application/json" or "multipart/form-data"
    body_schema: dict[str, Any] = field(hash=False, compare=False, default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def operations(spec: dict[str, Any]) -> list[Operation]:
    found = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            params = op.get("parameters", [])
            content = op.get("requestBody", {}).get("content", {})
            body_type = next(iter(content), "")
            found.append(Operation(
                method=method.upper(), path=path,
                path_params=tuple(p["name"] for p in params if p["in"] == "path"),
                query=tuple((p["name"], bool(p.get("required")), p.get("schema", {})) for p in params
                            if p["in"] == "query"),
                body_type=body_type, body_schema=content[body_type]["schema"] if body_type else {}))
    return found


class Instances:
    """A small, deterministic, schema-valid instance of a JSON schema, with id fields filled from `ids`.

    Hand-written rather than Hypothesis/Schemathesis generation: the matrix needs one predictable request per
    operation whose id fields carry the ids of the tenant under test, and random examples would make the
    refusals it asserts depend on luck."""

    def __init__(self, spec: dict[str, Any], ids: dict[str, list[Any]]) -> None:
        self.components = spec.get("components", {}).get("schemas", {})
        self.ids = ids  # field name -> the values to put there (a list for list fields)

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self.components[schema["$ref"].rsplit("/", 1)[-1]]
        return schema

    def fields(self, schema: dict[str, Any]) -> Iterator[str]:
        """Every property name anywhere in the schema."""
        schema = self.resolve(schema)
        for key in ("anyOf", "oneOf", "allOf"):
            for option in schema.get(key, []):
                yield from self.fields(option)
        for name, sub in schema.get("properties", {}).items():
            yield name
            yield from self.fields(sub)
        if "items" in schema:
            yield from self.fields(schema["items"])

    def of(self, schema: dict[str, Any], name: str = "") -> Any:
        schema = self.resolve(schema)
        options = schema.get("anyOf") or schema.get("oneOf")
        if options:
            real = [o for o in options if self.resolve(o).get("type") != "null"]
            if name in self.ids:  # prefer the shape that can carry the ids
                shaped = [o for o in real if self.resolve(o).get("type") in ("array", "integer", "string")]
                real = shaped or real
            return self.of(real[0] if real else options[0], name)
        if "allOf" in schema:
            return self.of(schema["allOf"][0], name)
        if name in self.ids:
            values = self.ids[name]
            return list(values) if schema.get("type") == "array" else values[0]
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return schema["enum"][0]
        kind = schema.get("type")
        if kind == "object" or "properties" in schema:
            required = set(schema.get("required", []))
            return {key: self.of(sub, key) for key, sub in schema.get("properties", {}).items()
                    if key in required or key in self.ids}
        if kind == "array":
            count = max(1, schema.get("minItems", 0))
            return [self.of(schema.get("items", {}), name) for _ in range(count)]
        if kind == "integer":
            return max(1, schema.get("minimum", 1))
        if kind == "number":
            return max(1, schema.get("minimum", 1))
        if kind == "boolean":
            return False
        if schema.get("format") == "date":
            return "2026-01-01"
        if schema.get("format") == "date-time":
            return "2026-01-01T00:00:00Z"
        if "default" in schema:
            return schema["default"]
        return "x" * max(1, schema.get("minLength", 1))


def request_for(op: Operation, spec: dict[str, Any], ids: dict[str, list[Any]], path_values: dict[str, Any],
                *, all_id_queries: bool) -> dict[str, Any]:
    """Keyword arguments for TestClient.request: the path filled in, required query parameters (and every
    id query parameter when `all_id_queries`), and a minimal body."""
    make = Instances(spec, ids)
    path = op.path
    for name in op.path_params:
        path = path.replace("{" + name + "}", str(path_values[name]))
    params = {}
    for name, required, schema in op.query:
        if name in ids and (required or all_id_queries):
            params[name] = ids[name][0]
        elif required:  # a value the test names (a metric to explain), else one made from the schema
            params[name] = path_values[name] if name in path_values else make.of(schema, name)
    kwargs: dict[str, Any] = {"method": op.method, "url": "/api" + path, "params": params}
    if op.body_type == "application/json":
        kwargs["json"] = make.of(op.body_schema)
    elif op.body_type == "multipart/form-data":
        body = make.of(op.body_schema)
        files, data = {}, {}
        schema = make.resolve(op.body_schema)
        for key, sub in schema.get("properties", {}).items():
            if make.resolve(sub).get("format") == "binary" or "contentMediaType" in make.resolve(sub):
                files[key] = ("list.csv", io.BytesIO(b"com.example.app\n"), "text/csv")
                body.pop(key, None)
        for key, value in body.items():
            data[key] = str(value)
        kwargs["files"] = files or {"file": ("list.csv", io.BytesIO(b"com.example.app\n"), "text/csv")}
        kwargs["data"] = data
    elif op.body_type:
        kwargs["content"] = b"{}"
        kwargs["headers"] = {"content-type": op.body_type}
    return kwargs


# Tables that every request may write without changing anything a user owns: a session's last use, and the
# count of write calls (app/access/write_limits.py counts every write, refused ones too).
BOOKKEEPING_TABLES = frozenset({"auth_session", "rate_counts"})
_DML = re.compile(r"^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+\"?(\w+)\"?", re.IGNORECASE)


class WriteRecorder:
    """Every INSERT/UPDATE/DELETE that a transaction committed, table by table: what a request changed.

    Listens on the engine, so it sees the API's own units of work (another thread's connections) too;
    statements of transactions that rolled back are dropped."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.pending: dict[int, list[str]] = {}
        self.committed: list[str] = []
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)
        event.listen(engine, "rollback", self._rollback)

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._statement)
        event.remove(self.engine, "commit", self._commit)
        event.remove(self.engine, "rollback", self._rollback)

    def _statement(self, conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        match = _DML.match(statement)
        if match and match.group(2).lower() not in BOOKKEEPING_TABLES:
            self.pending.setdefault(id(conn), []).append(f"{match.group(1).split()[0].upper()} {match.group(2)}")

    def _commit(self, conn: Any) -> None:
        self.committed.extend(self.pending.pop(id(conn), []))

    def _rollback(self, conn: Any) -> None:
        self.pending.pop(id(conn), None)

    def take(self) -> list[str]:
        taken, self.committed = self.committed, []
        self.pending.clear()
        return taken


# ---- two tenants -------------------------------------------------------------------------------------------

@dataclass
class Tenant:
    agency: int
    advertiser: int
    ids: dict[str, list[Any]]  # entity kind -> ids of this tenant's rows


def _html_creative(name: str) -> CreativeCreate:
    return CreativeCreate(type="html", name=name, width=300, height=250, html=f"<p>{name}</p>")


def build_tenant(db: Session, *, agency_id: int, advertiser_id: int, advertiser_email: str, admin_email: str,
                 mark: str) -> Tenant:
    """One of each scoped entity for the advertiser (names carry `mark`, so a reply that shows any of them is
    spotted): campaign, creative, asset, audience, inventory list, report and a run, a deposit, a postback URL,
    an API key, and the change-log entries that made its campaign and creative. Both accounts have every switch
    on, so that only roles and scope refuse a call."""
    for user_id in (advertiser_id, agency_id):
        settings = db.get(UserSettings, user_id) or UserSettings(user_id=user_id)
        settings.api_access, settings.postback_enabled, settings.insight_dashboard = True, "ENABLED", True
        db.add(settings)
    db.flush()
    actor = actor_of(db, advertiser_email)
    admin = actor_of(db, admin_email)
    campaign = campaigns.create_campaign(db, actor=actor, data=CampaignUpdate.model_validate({
        "name": f"{mark} Campaign", "starts_at": "2026-12-01", "total_budget": "1000", "bid": "0.50"}))
    asset = creatives.upload_asset(db, actor=actor, filename=f"{mark}.png", content=banner(300, 250, mark),
                                   purpose="image")
    creative = creatives.create_creative(db, actor=actor, data=_html_creative(f"{mark} Creative"))
    creatives.set_campaign_creatives(db, actor=actor, campaign_id=campaign.id, creative_ids=[creative.id])
    audience = audiences.create_audience(db, actor=actor, name=f"{mark} Audience", kind="device_ids")
    app_list = app_lists.create_list(db, actor=actor, name=f"{mark} List", kind="allow", entries="com.example.app")
    report = reports.create_report(db, actor=actor, report_type="geo", data=ReportSettings.model_validate({
        "name": f"{mark} Report", "period": "custom", "start_date": "2026-01-01", "end_date": "2026-01-01",
        "metrics": ["impressions", "clicks"]}))
    run = reports.start_run(db, actor=actor, report_id=report.id)
    funds.append_entry(db, advertiser_id=advertiser_id, amount_micros=1_000_000, kind="deposit",
                       note=f"{mark} deposit", created_by=admin.id, reference=f"{mark}-deposit")
    postbacks.update_postback(db, actor=actor, url=f"https://{mark.lower()}.example/pb/", events=["install"])
    key = api_credentials.generate(db, actor=actor, user_id=advertiser_id, label=f"{mark} key")
    entries = [db.exec(select(AuditEntry.id).where(AuditEntry.entity == entity, AuditEntry.entity_id == str(record_id),
                                                   AuditEntry.action == "create")).one()
               for entity, record_id in (("campaign", campaign.id), ("creative", creative.id))]
    db.commit()
    return Tenant(agency=agency_id, advertiser=advertiser_id, ids={
        "advertiser": [advertiser_id], "agency": [agency_id], "user": [advertiser_id, agency_id],
        "campaign": [campaign.id], "creative": [creative.id], "asset": [asset.id],
        "audience": [audience.id], "app_list": [app_list.list.id], "report": [report.id],
        "report_run": [run.id], "api_key": [key.id], "change_entry": entries})


def make_rival(db: Session, mark: str) -> tuple[int, int, str]:
    agency = create_user(db, email=f"{mark.lower()}-agency@other.example", role=Role.AGENCY,
                         password=DEMO_PASSWORD, first_name=mark, last_name="Agency", company_name=f"{mark} Media")
    advertiser = create_user(db, email=f"{mark.lower()}-adv@other.example", role=Role.ADVERTISER,
                             password=DEMO_PASSWORD, first_name=mark, last_name="Advertiser",
                             company_name=f"{mark} Shoes", agency_id=agency.id)
    db.flush()
    assert agency.id is not None and advertiser.id is not None
    return agency.id, advertiser.id, advertiser.email


def digest_of_rows(db: Session, tenant: Tenant) -> dict[str, str]:
    """table -> a digest of the tenant's rows in it (rows whose owner-like column names one of its users or
    entities): what must come out of another tenant's calls unchanged."""
    users = {tenant.agency, tenant.advertiser}
    owners = {"advertiser_id": users, "owner_id": users, "user_id": users, "agency_id": users,
              "campaign_id": set(tenant.ids["campaign"]), "creative_id": set(tenant.ids["creative"]),
              "audience_id": set(tenant.ids["audience"]), "applist_id": set(tenant.ids["app_list"]),
              "app_list_id": set(tenant.ids["app_list"]), "report_id": set(tenant.ids["report"])}
    found = {}
    for table in SQLModel.metadata.sorted_tables:
        if table.name in BOOKKEEPING_TABLES:
            continue
        conditions = [table.c[column].in_(sorted(ids)) for column, ids in owners.items() if column in table.c]
        if table.name == "user":
            conditions.append(table.c["id"].in_(sorted(users)))
        if not conditions:
            continue
        from sqlalchemy import or_, select

        rows = db.connection().execute(select(table).where(or_(*conditions)).order_by(*table.primary_key.columns))
        found[table.name] = hashlib.sha256(repr([tuple(r) for r in rows]).encode()).hexdigest()
    return found


def count_rows(db: Session) -> int:
    return sum(db.connection().execute(text(f'SELECT COUNT(*) FROM "{t.name}"')).scalar_one()  # noqa: S608
               for t in SQLModel.metadata.sorted_tables)
