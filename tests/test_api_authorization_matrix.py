"""The API half of the authorization matrix (issue 12): every operation of the OpenAPI document, called logged
out, as each role that may not use it, and as one tenant with another tenant's ids. Nothing outside the caller's
scope may be read or written. (The page half is tests/test_route_access.py.)

The cases are generated from `create_api().openapi()` at collection time, so a new endpoint is in the matrix
without editing this file; what the matrix cannot know by itself must be declared below, and an operation or an
id name that is not declared fails `test_every_operation_and_id_name_is_declared` saying what to add:
- ACCESS: who may call each operation: PUBLIC, SIGNED_IN, or the roles of an entry of app/access/permissions.py
  (spec section 2 and 6). Refused roles must get 403/404 in the envelope and change nothing.
- ID_KINDS: which entity each id-like parameter or body field names, so that another tenant's id of that kind
  can be put there (None: not a tenant's row, e.g. a reference value or a DSP, which role checks cover).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlmodel import select
from starlette.testclient import TestClient

from app.access.permissions import allowed_roles
from app.access.roles import Role
from app.history import restore
from app.history.change_log import CHANGE_LOGS
from app.kernel.db import get_engine, session_scope
from app.main import create_api, create_app
from app.reference.models import ReferenceValue
from tests.authz_matrix import (
    ID_NAME,
    Instances,
    Operation,
    Tenant,
    WriteRecorder,
    build_tenant,
    digest_of_rows,
    make_rival,
    operations,
    request_for,
)
from tests.conftest import reset_database
from tests.helpers import bearer_headers
from tests.media_files import image_bytes

A, C, G, V = Role.ADMIN, Role.CO_ADMIN, Role.AGENCY, Role.ADVERTISER
EVERYONE = frozenset({A, C, G, V})
PUBLIC = "public"  # answers without a session (and to anyone signed in)


def P(entity: str, action: str) -> frozenset[Role]:  # noqa: N802 - reads as a declaration
    return allowed_roles(entity, action)


SIGNED_IN = EVERYONE
STAFF = frozenset({A, C})

DASHBOARD_CALLS = ("overview", "performanceByCampaign", "performanceByCreative", "performanceByExchangeAdvertiser",
                   "performanceByOSAdvertiser", "performanceByAdvertiser", "chart", "performance/day", "insight")

# Who may call each operation ("METHOD /path" as in the OpenAPI document, without the /api prefix).
ACCESS: dict[str, frozenset[Role] | str] = {
    "POST /auth/login/": PUBLIC, "POST /auth/register": PUBLIC, "GET /auth/agency-config": PUBLIC,
    "POST /auth/resend-verify-otp": PUBLIC, "POST /auth/verify-otp": PUBLIC, "POST /auth/changePassword": PUBLIC,
    "GET /auth/refresh-token": SIGNED_IN, "GET /auth/profile": P("profile", "view"),
    "PUT /auth/profile": P("profile", "update"), "PATCH /auth/profile": P("profile", "update"), "POST /auth/userChangePassword": P("profile", "update"),
    "POST /auth/logout": PUBLIC,  # ends the caller's session if it has one; without one there is nothing to end
    "GET /user-settings/{user_primary_id}": SIGNED_IN,
    "POST /company-config/{config_id}/{kind}": P("company_config", "manage"),
    "GET /users": P("user", "view"), "POST /users": P("user", "create_advertiser"),
    "GET /users/{user_id}": P("user", "view"), "PUT /users/{user_id}": P("user", "update"),
    "PATCH /users/{user_id}": P("user", "update"),
    "PUT /users/{user_id}/status": P("user", "update"),
    "POST /users/{user_id}/password-reset": P("user", "reset_password"),
    # Two-factor sign-in (app/accounts/second_factor_api.py): the sign-in's second step is signed out by nature.
    "POST /auth/login/second-factor": PUBLIC, "POST /auth/login/second-factor/enrolment": PUBLIC,
    "GET /auth/second-factor": P("profile", "view"), "POST /auth/second-factor/enrolment": P("profile", "update"),
    "POST /auth/second-factor/confirm": P("profile", "update"), "POST /auth/second-factor/disable": P("profile", "update"),
    "POST /auth/second-factor/recovery-codes": P("profile", "update"),
    "POST /users/{user_id}/second-factor/reset": P("user", "reset_second_factor"),
    "GET /sign-in-policy": P("company_config", "manage"), "PUT /sign-in-policy": P("company_config", "manage"),
    "GET /users/{user_id}/config": P("user", "config"), "PUT /users/{user_id}/config": P("user", "config"),
    "PATCH /users/{user_id}/config": P("user", "config"),
    "PUT /users/{user_id}/margin": P("user", "margin"), "GET /users/{user_id}/change-log": P("user", "view"),
    "GET /users/{user_id}/payments": P("funds", "view"),
    "GET /agencies": P("agency", "view"), "POST /agencies/assign": P("agency", "update"),
    "GET /campaigns": P("campaign", "view"), "POST /campaigns": P("campaign", "create"),
    "GET /campaigns/{campaign_id}": P("campaign", "view"), "PUT /campaigns/{campaign_id}": P("campaign", "update"),
    "PATCH /campaigns/{campaign_id}": P("campaign", "update"),
    "DELETE /campaigns/{campaign_id}": P("campaign", "update"),
    "PUT /campaigns/{campaign_id}/status": P("campaign", "status"),
    "POST /campaigns/{campaign_id}/clone": P("campaign", "create"),
    "GET /creatives": P("creative", "view"), "POST /creatives": P("creative", "create"),
    "POST /creatives/bulk": P("creative", "update"), "POST /creatives/bulk-status": P("creative", "bulk_status"),
    "GET /creatives/{creative_id}": P("creative", "view"), "PUT /creatives/{creative_id}": P("creative", "update"),
    "PATCH /creatives/{creative_id}": P("creative", "update"),
    "DELETE /creatives/{creative_id}": P("creative", "update"),
    "PUT /creatives/{creative_id}/status": P("creative", "status"),
    "GET /creatives/{creative_id}/preview": P("creative", "view"),
    "PUT /creatives/{creative_id}/campaigns": P("creative", "update"),
    "GET /campaigns/{campaign_id}/creatives": P("creative", "view"),
    "PUT /campaigns/{campaign_id}/creatives": P("campaign", "update"),
    "POST /uploads/creative": P("creative", "create"),
    "GET /creative/creativeDataUser": P("creative", "view"),
    "GET /creative/getCreativeById/{creative_id}": P("creative", "view"),
    "GET /creative/getCreativePreview/{creative_id}": P("creative", "view"),
    "DELETE /creative/creativeDeleteById/{creative_id}": P("creative", "update"),
    "PUT /creative/updateCreativeStatusUser/{creative_id}": P("creative", "status"),
    "PUT /creative/updateCreativeFileData/{creative_id}": P("creative", "update"),
    "POST /creative/bulk-status-update": P("creative", "bulk_status"),
    "POST /creative/bulk-creative-update": P("creative", "update"),
    "GET /creative/bulk-creative-data": P("creative", "view"),
    "POST /withOutRole/upload": P("creative", "create"),
    "POST /campaigns/bulk": P("campaign", "update"), "POST /campaigns/bulk/status": P("campaign", "bulk_status"),
    "POST /campaigns/bulk/exchanges": P("campaign", "update"), "POST /campaigns/export": P("campaign", "view"),
    "POST /campaigns/forecast": P("campaign", "view"),
    "GET /advertisers/{advertiser_id}/balance": P("funds", "view"),
    "GET /campaning/campaignData": P("campaign", "view"), "POST /campaning/changeStatus": P("campaign", "status"),
    "GET /campaning/editTable": P("campaign", "view"), "POST /campaning/update/editTable": P("campaign", "update"),
    "DELETE /campaning/deleteCampaign": P("campaign", "update"),
    "POST /campaning/bulk/bid-range": P("campaign", "update"),
    "POST /campaning/bulk/inventory": P("campaign", "update"),
    "POST /campaning/bulk/audience": P("campaign", "update"),
    "POST /campaning/bulk/campaign-update": P("campaign", "update"),
    "POST /campaning/bulk/user-optimization-settings": P("campaign", "update"),
    "POST /campaning/bulk/exchanges": P("campaign", "update"),
    "POST /admin/campaning/bulk-status": P("campaign", "bulk_status"),
    "POST /campaning/exportCampaningData": P("campaign", "view"),
    "GET /campaning/getAdvertiserBalance": P("funds", "view"),
    **{f"GET /meta/{name}": P("reference", "view") for name in (
        "country", "state", "city", "languages", "os", "os-versions", "exchanges", "traffic-type", "browser",
        "manufacturers", "carriers", "user-supported-exchanges")},
    "GET /campaign-options": P("campaign", "view"),
    "GET /postback": P("postback", "view"), "PUT /postback": P("postback", "update"),
    "PATCH /postback": P("postback", "update"),
    "GET /users/{user_id}/api-keys": P("api_credential", "view"),
    "POST /users/{user_id}/api-keys": P("api_credential", "manage"),
    "DELETE /api-keys/{credential_id}": P("api_credential", "manage"),
    "GET /metadata": P("reference", "manage"), "GET /metadata/{kind}": P("reference", "manage"),
    "POST /metadata/{kind}": P("reference", "manage"), "GET /metadata/{kind}/active": P("reference", "view"),
    "PUT /metadata/values/{value_id}": P("reference", "manage"),
    "DELETE /metadata/values/{value_id}": P("reference", "manage"),
    # The three dashboard families: the advertiser's own (any role, row-scoped), the staff's and the agency's.
    **{f"GET /dashboard/{name}": P("dashboard", "view") for name in DASHBOARD_CALLS},
    **{f"GET /admin/dashboard/{name}": STAFF for name in DASHBOARD_CALLS},
    **{f"GET /agency/dashboard/{name}": frozenset({G}) for name in DASHBOARD_CALLS},
    "GET /exchange-approval": P("exchange_approval", "view"),
    "POST /exchange-approval/decide": P("exchange_approval", "decide"),
    "GET /campaigns/{campaign_id}/exchanges": P("campaign", "view"),
    "GET /campaigns/{campaign_id}/diagnosis": P("campaign", "view"),
    "POST /report/create": P("report", "create"), "POST /report/update": P("report", "update"),
    "POST /reports": P("report", "create"), "GET /reports/{report_id}": P("report", "view"),
    "DELETE /report/delete": P("report", "delete"), "GET /report/getSingle": P("report", "view"),
    "GET /alerts": P("alert", "view"), "GET /alerts/subscription": P("alert", "subscribe"),
    "PUT /alerts/subscription": P("alert", "subscribe"),
    "GET /report/get": P("report", "view"), "GET /getReportsForAgencyAdmin": P("report", "view"),
    "GET /getAdminReportsByCSV": P("report", "view"), "POST /reports/generate": P("report", "create"),
    "POST /generatebasic": P("report", "create"), "POST /generateCHDB": P("report", "create"),
    "GET /report/run/{run_id}": P("report", "view"), "GET /report/download": P("report", "view"),
    "GET /report/run/{run_id}/explain": P("report", "view"),
    "POST /report/deleteCSVReportFile": P("report", "delete"), "POST /report/runningApps": P("report", "view"),
    "GET /funds": P("funds", "view"), "POST /funds": P("funds", "add"), "POST /funds/transfers": P("funds", "transfer"),
    "GET /funds/{advertiser_id}": P("funds", "view"), "GET /funds/{advertiser_id}/ledger": P("funds", "view"),
    "GET /funds/{advertiser_id}/balance": P("funds", "view"), "GET /admin/fund/list": P("funds", "view"),
    "POST /admin/fund/add": P("funds", "add"), "GET /agency/funds": P("funds", "view"),
    "GET /agency/payment-history/{advertiser_id}": P("funds", "view"),
    "POST /payment/stripe": P("funds", "card"), "GET /payment/stripe/checkout/{session_id}": P("funds", "card"),
    "POST /payment/stripe/webhook": PUBLIC,  # Stripe's signature is its credential
    "POST /statistics/batches": P("statistics", "ingest"), "POST /statistics/batches/csv": P("statistics", "ingest"),
    "GET /statistics": P("statistics", "view"), "GET /statistics/explain": P("statistics", "view"),
    "GET /postback/{token}": PUBLIC, "POST /postback/{token}": PUBLIC,  # the client's secret token is the credential
    "GET /dsp/list": P("dsp", "view"), "GET /dsp": P("dsp", "view"), "GET /dsp/activeDspList": P("dsp", "view"),
    "POST /dsp/createDSP": P("dsp", "manage"), "POST /dsp": P("dsp", "manage"),
    "POST /newDsp/createNewDsp": P("dsp", "manage"),
    "POST /dsp/testConnection": P("dsp", "manage"), "GET /dsp/associations/{entity}/{local_id}": P("dsp", "view"),
    "GET /dsp/{dsp_id}": P("dsp", "view"), "PUT /dsp/{dsp_id}": P("dsp", "manage"),
    "POST /dsp/{dsp_id}/status": P("dsp", "manage"), "POST /dsp/{dsp_id}/test": P("dsp", "manage"),
    "GET /dsp/{dsp_id}/changelog": P("dsp", "view"), "POST /dsp/{dsp_id}/sync": P("dsp", "manage"),
    "GET /inventory-lists": P("app_list", "view"), "POST /inventory-lists": P("app_list", "create"),
    "GET /inventory-lists/{applist_id}": P("app_list", "view"),
    "PUT /inventory-lists/{applist_id}": P("app_list", "update"),
    "DELETE /inventory-lists/{applist_id}": P("app_list", "delete"),
    "PUT /inventory-lists/{applist_id}/status": P("app_list", "update"),
    "GET /inventory-lists/{applist_id}/entries": P("app_list", "view"),
    "POST /inventory-lists/{applist_id}/entries": P("app_list", "update"),
    "POST /inventory-lists/{applist_id}/export": P("app_list", "view"),
    "POST /uploads/inventory-list": P("app_list", "update"),
    "GET /smart-apps/categories": P("smart_app_list", "view"), "GET /smart-apps/genres": P("smart_app_list", "view"),
    "GET /smart-apps/subgenres": P("smart_app_list", "view"), "GET /smart-apps": P("smart_app_list", "view"),
    "POST /smart-apps": P("smart_app_list", "manage"), "GET /smart-apps/{list_id}": P("smart_app_list", "view"),
    "PUT /smart-apps/{list_id}": P("smart_app_list", "manage"),
    "DELETE /smart-apps/{list_id}": P("smart_app_list", "manage"),
    "PUT /smart-apps/{list_id}/status": P("smart_app_list", "manage"),
    "GET /smart-apps/{list_id}/entries": P("smart_app_list", "view"),
    "POST /smart-apps/{list_id}/entries": P("smart_app_list", "manage"),
    "POST /uploads/smart-app-list": P("smart_app_list", "manage"),
    "POST /file/addApp": P("app_list", "create"), "PUT /updateApplist/{applist_id}": P("app_list", "update"),
    "POST /updateApplist/{applist_id}": P("app_list", "update"),
    "GET /getChangeLogAppList/{applist_id}": P("app_list", "view"),
    "GET /getApplistAllDataList": P("app_list", "view"),
    "GET /withOutRole/getAppListById/{applist_id}": P("app_list", "view"), "POST /csvupload": P("app_list", "update"),
    "POST /admin/create-smart-app-list": P("smart_app_list", "manage"),
    "GET /get-smart-app-categories": P("smart_app_list", "view"), "GET /genre": P("smart_app_list", "view"),
    "GET /subgenre": P("smart_app_list", "view"),
    "GET /audiences": P("audience", "view"), "POST /audiences": P("audience", "create"),
    "GET /audience-events": P("audience", "view"), "GET /audiences/{audience_id}": P("audience", "view"),
    "DELETE /audiences/{audience_id}": P("audience", "delete"),
    "PUT /audiences/{audience_id}/status": P("audience", "status"),
    "PUT /audiences/{audience_id}/campaigns": P("audience", "update"),
    "POST /audiences/{audience_id}/devices": P("audience", "update"),
    "POST /createAudiance": P("audience", "create"), "GET /getaudienceDataById/{audience_id}": P("audience", "view"),
    "PUT /associate-audience/{audience_id}": P("audience", "update"),
    "PUT /audience-status/{audience_id}": P("audience", "status"), "GET /getAudienceList": P("audience", "view"),
    "DELETE /deleteAudience/{audience_id}": P("audience", "delete"),
    "GET /health": PUBLIC,
    "GET /ready": PUBLIC,
    # The spec's call names of issue 26, declared as their REST twins (sheetData: the matrix sends its first list,
    # campaigns; the other lists are checked by their own permissions in tests/test_spec_call_names.py).
    "GET /singleUserData": P("user", "view"), "POST /updateUser": P("user", "update"),
    "POST /addAdvertiser": P("user", "create_advertiser"), "POST /uploadLogo": P("company_config", "manage"),
    "POST /generate-api-credentials": P("api_credential", "manage"), "POST /sheetData": P("campaign", "view"),
    "GET /redirector": PUBLIC,  # a click on an ad: the link is checked, not the caller (app/statistics/click_redirects.py)
    # Every change log, under the permission its declaration names (its pages follow the same declaration).
    **{f"GET {log.api}": P(*log.permission) for log in CHANGE_LOGS.values()},
    # Restoring an entry of a log is an edit of its record (app/history/restore.py): the record's update permission.
    **{f"POST {CHANGE_LOGS[kind].api}/{{entry_id}}/restore": P(*restorer.permission)
       for kind, restorer in restore.restorers().items()},
}

# The entity an id-like name (path, query or body) refers to; None: not a tenant's row (role checks cover it).
ID_KINDS: dict[str, str | None] = {
    "advertiser_id": "advertiser", "filter_advertiser_id": "advertiser", "user_primary_id": "advertiser",
    "from_advertiser_id": "advertiser", "to_advertiser_id": "advertiser",
    "row_campaign_id": "campaign", "row_advertiser_id": "advertiser", "row_creative_id": "creative",  # a report row
    "user_id": "user", "agency_id": "agency",
    "campaign_id": "campaign", "campaign_ids": "campaign", "filter_campaign_id": "campaign",
    "local_id": "campaign",  # /dsp/associations/{entity}/{local_id} with entity=campaign
    "id": "campaign",  # POST /dsp/{id}/sync's body: {entity: campaign, id}
    "creative_id": "creative", "creative_ids": "creative", "filter_creative_id": "creative",
    "asset_id": "asset", "icon_asset_id": "asset", "main_image_asset_id": "asset",
    "applist_id": "app_list", "audience_id": "audience", "report_id": "report", "run_id": "report_run",
    "credential_id": "api_key", "entry_id": "change_entry",
    # Not a tenant's rows: shared reference data, DSPs, smart-app lists, approvals (staff only), the brand,
    # values a client chooses itself (batch ids, tracker click/device ids), the seat a DSP gave the console, and
    # Stripe's own session ids (their owner is checked against Stripe's metadata: tests/test_card_payments.py).
    "approval_ids": None, "batch_id": None, "category_id": None, "genre_id": None, "subgenre_id": None,
    "dsp_id": None, "exchange_ids": None, "list_id": None, "parent_id": None, "value_id": None, "config_id": None,
    "click_id": None, "device_id": None, "session_id": None, "seat_id": None,
}
# Values of path parameters that are not ids.
PATH_VALUES = {"kind": "exchange", "entity": "campaign", "token": "not-a-postback-token", "session_id": "cs_test_1",
               "config_id": 1, "value_id": 1, "list_id": 1, "dsp_id": 1,
               "metric": "spend"}  # a figure to explain (GET /statistics/explain)
# Body fields that make a request valid where the minimal body generated from the schema is not (a bulk edit
# with nothing to change, a report without a type): without them the call stops at its 422 before the scope
# check the cross-tenant case is there to try. Ids are filled in as everywhere else.
_CAMPAIGN_CHANGE = {"changes": {"total_budget": "4000"}}
_CREATIVE_CHANGE = {"changes": {"click_url": "https://example.com/landing"}}


def _an_exchange() -> list[int]:
    """One exchange's id, read when asked: reference ids differ between databases (id 1 is an exchange on SQLite,
    not on PostgreSQL)."""
    with session_scope() as db:
        return [db.exec(select(ReferenceValue.id).where(ReferenceValue.kind == "exchange")).first()]


_EXCHANGE_ADDED = {"add": _an_exchange}
_REPORT = {"name": "Matrix Report", "report_type": "performance", "dimensions": ["date"]}
_numbers = itertools.count(1)


def _fresh(prefix: str) -> Callable[[], str]:
    """A value made anew for each call (a name that must not repeat)."""
    return lambda: f"{prefix} {next(_numbers)}"


BODY_FILLS: dict[str, dict[str, Any]] = {
    "POST /campaigns": {"name": "Matrix Campaign", "objective": "traffic", "starts_at": "2026-12-01",
                        "time_zone": "UTC", "total_budget": "1000", "bid_strategy": "cpm", "bid": "2"},
    "POST /campaigns/bulk": _CAMPAIGN_CHANGE, "POST /campaning/bulk/campaign-update": _CAMPAIGN_CHANGE,
    "POST /campaning/bulk/bid-range": {"bid_min": "0.10", "bid_max": "5"},
    "POST /campaigns/bulk/exchanges": _EXCHANGE_ADDED, "POST /campaning/bulk/exchanges": _EXCHANGE_ADDED,
    "POST /creatives/bulk": _CREATIVE_CHANGE, "POST /creative/bulk-creative-update": _CREATIVE_CHANGE,
    "POST /report/create": _REPORT, "POST /reports": _REPORT,
    "POST /createAudiance": {"name": _fresh("Matrix Audience")},
    # Tenant A's switches stay on when an allowed role sets them (off, they would refuse API keys and postbacks).
    "PUT /users/{user_id}/config": {"insight_dashboard": True, "postback_enabled": True, "api_access": True},
    "PATCH /users/{user_id}/config": {"insight_dashboard": True, "postback_enabled": True, "api_access": True},
}
# Uploads that must be a picture to be looked at further.
_PICTURE = ("banner.png", image_bytes(300, 250), "image/png")
FILE_FILLS: dict[str, dict[str, Any]] = {"POST /uploads/creative": {"file": _PICTURE},
                                         "POST /withOutRole/upload": {"file": _PICTURE},
                                         "POST /uploadLogo": {"file": _PICTURE}}
ROLE_EMAILS = {A: "admin@demo.example", C: "coadmin@demo.example", G: "agency@demo.example",
               V: "advertiser@demo.example"}
ROLE_IDS = {None: "logged-out", A: "admin", C: "co-admin", G: "agency", V: "advertiser"}
HOME, RIVAL = "Homemark", "Rivalmark"  # in the names of tenant A's and tenant B's rows

SPEC = create_api().openapi()
OPERATIONS = operations(SPEC)


def _id_names(op: Operation) -> set[str]:
    names = set(op.path_params) | {name for name, _required, _schema in op.query}
    names |= set(Instances(SPEC, {}).fields(op.body_schema)) if op.body_type else set()
    return {name for name in names if ID_NAME.search(name)}


def _scoped_id_names(op: Operation) -> set[str]:
    return {name for name in _id_names(op) if ID_KINDS.get(name)}


def _declared(op: Operation) -> bool:
    return op.key in ACCESS and all(name in ID_KINDS for name in _id_names(op))


def _role_cases(*, let_in: bool) -> list[Any]:
    """(operation, role) for each declared non-public operation and each role it lets in (`let_in`), or each it
    does not. Deletes are not called by roles they let in: they would take tenant A's rows from later cases."""
    cases = []
    for op in OPERATIONS:
        access = ACCESS.get(op.key)
        if access is None or access == PUBLIC or not _declared(op) or (let_in and op.method == "DELETE"):
            continue
        cases += [pytest.param(op, role, id=f"{op.key}-{ROLE_IDS[role]}") for role in (A, C, G, V)
                  if (role in access) == let_in]
    return cases


def _cross_tenant_cases() -> list[Any]:
    return [pytest.param(op, role, id=f"{op.key}-{ROLE_IDS[role]}") for op in OPERATIONS if _declared(op)
            and ACCESS[op.key] != PUBLIC and _scoped_id_names(op) for role in (G, V) if role in ACCESS[op.key]]


# ---- the world: tenant A (the demo agency and advertiser) and tenant B (a rival agency and advertiser) -------

class World:
    def __init__(self, client: TestClient, home: Tenant, rival: Tenant, recorder: WriteRecorder) -> None:
        self.client, self.home, self.rival, self.recorder = client, home, rival, recorder
        self.headers = {role: bearer_headers(client, email) for role, email in ROLE_EMAILS.items()}
        self.headers[None] = {}
        self.recorder.take()

    def request(self, op: Operation, role: Role | None, tenant: Tenant) -> Any:
        """Call `op` as `role` with every id in it (path, query, body) one of `tenant`'s."""
        by_name = {name: tenant.ids[kind] for name, kind in ID_KINDS.items() if kind}
        values = {**PATH_VALUES, **{name: ids[0] for name, ids in by_name.items()}}
        kwargs = request_for(op, SPEC, by_name, values, all_id_queries=tenant is self.rival)
        if op.key in BODY_FILLS:
            fills = {name: value() if callable(value) else value for name, value in BODY_FILLS[op.key].items()}
            kwargs["json"] = {**kwargs["json"], **fills}
        if op.key in FILE_FILLS:
            kwargs["files"] = FILE_FILLS[op.key]
        kwargs["headers"] = {**kwargs.get("headers", {}), **self.headers[role]}
        self.recorder.take()
        return self.client.request(**kwargs)


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    ids = reset_database()
    with session_scope() as db:
        home = build_tenant(db, agency_id=ids["agency@demo.example"], advertiser_id=ids["advertiser@demo.example"],
                            advertiser_email="advertiser@demo.example", admin_email="admin@demo.example", mark=HOME)
        agency_id, advertiser_id, email = make_rival(db, RIVAL)
        db.commit()
        rival = build_tenant(db, agency_id=agency_id, advertiser_id=advertiser_id, advertiser_email=email,
                             admin_email="admin@demo.example", mark=RIVAL)
    recorder = WriteRecorder(get_engine())
    try:
        with TestClient(create_app(), raise_server_exceptions=False) as client:
            yield World(client, home, rival, recorder)
    finally:
        recorder.close()


def _envelope_refusal(reply: Any, codes: set[int]) -> str | None:
    """None when `reply` is one of `codes` in the {success, code, message, data} envelope; else what it was."""
    try:
        body = reply.json()
    except ValueError:
        return f"{reply.status_code} {reply.headers.get('content-type')}: {reply.text[:200]}"
    if reply.status_code not in codes:
        return f"{reply.status_code}: {str(body)[:300]}"
    if not (isinstance(body, dict) and body.get("success") is False and body.get("code") == reply.status_code
            and body.get("message")):
        return f"{reply.status_code} outside the envelope: {str(body)[:300]}"
    return None


# ---- the tests ----------------------------------------------------------------------------------------------

def test_every_operation_and_id_name_is_declared() -> None:
    keys = {op.key for op in OPERATIONS}
    undeclared = sorted(keys - set(ACCESS))
    stale = sorted(set(ACCESS) - keys)
    unknown_ids = sorted({f"{name} (in {op.key})" for op in OPERATIONS for name in _id_names(op)
                          if name not in ID_KINDS})
    problems = []
    if undeclared:
        problems.append("Declare who may call these operations in ACCESS (PUBLIC, SIGNED_IN or P(entity, action) "
                        "of app/access/permissions.py):\n  " + "\n  ".join(undeclared))
    if unknown_ids:
        problems.append("Declare which entity these id names refer to in ID_KINDS (None when not a tenant's row):"
                        "\n  " + "\n  ".join(unknown_ids))
    if stale:
        problems.append("ACCESS names operations the API no longer has:\n  " + "\n  ".join(stale))
    assert not problems, "\n".join(problems)


def test_the_matrix_covers_every_operation() -> None:
    """The generated cases are not empty by accident: every declared non-public operation is called logged out,
    and every operation with a scoped id is called with another tenant's ids."""
    assert len(_logged_out_cases()) == sum(1 for op in OPERATIONS if ACCESS.get(op.key, PUBLIC) != PUBLIC)
    assert {c.values[0].key for c in _cross_tenant_cases()} >= {
        "GET /campaigns/{campaign_id}", "DELETE /api-keys/{credential_id}", "GET /report/run/{run_id}",
        "POST /campaigns/bulk", "GET /funds/{advertiser_id}/ledger"}


def _logged_out_cases() -> list[Any]:
    return [pytest.param(op, id=op.key) for op in OPERATIONS if ACCESS.get(op.key, PUBLIC) != PUBLIC]


@pytest.mark.parametrize("op", _logged_out_cases())
def test_logged_out_callers_get_401_and_change_nothing(world: World, op: Operation) -> None:
    reply = world.request(op, None, world.home)
    assert (problem := _envelope_refusal(reply, {401})) is None, f"{op.key} logged out answered {problem}"
    assert not world.recorder.take(), f"{op.key} logged out wrote to the database"


@pytest.mark.parametrize(("op", "role"), _role_cases(let_in=False))
def test_roles_the_operation_is_not_for_get_403_or_404_and_change_nothing(world: World, op: Operation,
                                                                         role: Role) -> None:
    reply = world.request(op, role, world.home)
    assert (problem := _envelope_refusal(reply, {403, 404})) is None, f"{op.key} as {role.value} answered {problem}"
    assert not (writes := world.recorder.take()), f"{op.key} as {role.value} wrote {writes}"


@pytest.mark.parametrize(("op", "role"), _cross_tenant_cases())
def test_another_tenants_ids_are_neither_readable_nor_writable(world: World, op: Operation, role: Role) -> None:
    with session_scope() as db:
        before = digest_of_rows(db, world.rival)
    reply = world.request(op, role, world.rival)
    writes = world.recorder.take()
    with session_scope() as db:
        after = digest_of_rows(db, world.rival)
    who = f"{op.key} as tenant A's {role.value} with tenant B's ids"
    assert reply.status_code < 500, f"{who} answered {reply.status_code}: {reply.text[:300]}"
    if reply.status_code == 422:  # refused for its input: the refusal must be about the ids, or they went untried
        named = set(reply.json()["data"]["fields"])
        assert named & _scoped_id_names(op), (f"{who} was refused for {sorted(named)} before its ids were looked "
                                              "at: add what makes the request valid to BODY_FILLS or FILE_FILLS")
    if set(op.path_params) & _scoped_id_names(op):
        assert (problem := _envelope_refusal(reply, {403, 404})) is None, f"{who} answered {problem}"
    assert RIVAL.lower() not in reply.text.lower(), f"{who} showed tenant B's rows: {reply.text[:300]}"
    assert before == after, f"{who} changed tenant B's rows in {sorted(t for t in after if before[t] != after[t])}"
    if set(op.path_params) & _scoped_id_names(op):
        assert not writes, f"{who} wrote {writes}"
    # Ids only in the query or body: the call may go on in the caller's own scope (an advertiser's new list is
    # its own whatever advertiser_id says), so it may write, just never to tenant B's rows (checked above).


def test_an_exchange_campaigns_asked_for_cannot_be_deleted_from_the_reference_lists(world: World) -> None:
    """Found by the matrix: deleting a reference value that a campaign's exchange request points at failed on the
    foreign key with a 500; it is a use, so the answer is 409 (retire it instead) and nothing changes."""
    from sqlmodel import select

    from app.campaigns.models import ExchangeApproval

    with session_scope() as db:
        requested = db.exec(select(ExchangeApproval.exchange_id)).first()
    assert requested is not None
    world.recorder.take()
    reply = world.client.delete(f"/api/metadata/values/{requested}", headers=world.headers[A])
    assert (problem := _envelope_refusal(reply, {409})) is None, problem
    assert not world.recorder.take()


@pytest.mark.parametrize(("op", "role"), _role_cases(let_in=True))
def test_roles_the_operation_is_for_are_let_in(world: World, op: Operation, role: Role) -> None:
    """The other side of the declarations: a role ACCESS lets in is not refused for its role. A declaration
    more generous than the permission table would otherwise pass the refusal tests unnoticed."""
    reply = world.request(op, role, world.home)
    world.recorder.take()
    assert reply.status_code not in (401, 403), f"{op.key} as {role.value} answered {reply.status_code}: " \
                                                f"{reply.text[:300]}"
    assert reply.status_code < 500, f"{op.key} as {role.value} answered {reply.status_code}: {reply.text[:300]}"
