"""Exchange approvals: saving a campaign requests its exchanges, staff approve or reject them (in bulk, one
result per request, a rejection needs a reason), the advertiser sees each state and reason, the change log
records it all, and delivery runs only on approved exchanges."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import select

from app.campaigns import exchange_approvals
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignUpdate
from app.demo import simulator
from app.history import change_log
from app.kernel.errors import Forbidden, Invalid, NotFound
from app.reference.models import ReferenceValue
from app.warehouse import get_store
from app.warehouse.base import StatsQuery
from tests.helpers import actor_of, bearer_headers, other_tenant

BASE: dict[str, Any] = {"name": "Approval Run", "objective": "traffic", "starts_at": "2026-01-01T00:00",
                        "total_budget": "5000", "daily_budget": "200", "bid": "3.00", "bid_strategy": "cpm",
                        "targeting": {}}


def _exchanges(db) -> dict[str, int]:
    return {r.name: r.id for r in db.exec(select(ReferenceValue).where(ReferenceValue.kind == "exchange"))}


def _states(db, actor, campaign_id: int) -> dict[str, tuple[str, str]]:
    return {r.exchange: (r.status, r.reason)
            for r in exchange_approvals.campaign_exchanges(db, actor=actor, campaign_id=campaign_id)}


def test_saving_requests_exchanges_and_changing_them_withdraws_only_pending_ones(db) -> None:
    ex = _exchanges(db)
    me = actor_of(db, "advertiser@demo.example")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "targeting": {"exchanges": [ex["Magnite"], ex["OpenX"]]}}))
    assert _states(db, me, made.id) == {"Magnite": ("pending", ""), "OpenX": ("pending", "")}

    admin = actor_of(db, "admin@demo.example")
    magnite = next(r.id for r in exchange_approvals.list_requests(db, actor=admin, campaign_id=made.id)
                   if r.exchange == "Magnite")
    exchange_approvals.decide_many(db, actor=admin, approval_ids=[magnite], decision="approved")
    # Magnite approved stays approved; OpenX (pending) is withdrawn; PubMatic is requested.
    campaigns.update_campaign(db, actor=me, campaign_id=made.id,
                              data=CampaignUpdate.model_validate({"targeting": {"exchanges": [ex["Magnite"], ex["PubMatic"]]}}))
    assert _states(db, me, made.id) == {"Magnite": ("approved", ""), "PubMatic": ("pending", "")}

    history = change_log.page(db, actor=admin, kind="exchange_approval", record_id=made.id)
    assert [e.action for e in history.entries][::-1] == ["request", "request", "approve", "request", "withdraw"]


def test_without_chosen_exchanges_a_campaign_asks_for_every_exchange_its_advertiser_may_use(db) -> None:
    me = actor_of(db, "advertiser@demo.example")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(BASE))
    active = {r.name for r in db.exec(select(ReferenceValue).where(ReferenceValue.kind == "exchange",
                                                                   ReferenceValue.retired == False))}  # noqa: E712
    assert set(_states(db, me, made.id)) == active


def test_bulk_decisions_report_each_request_and_a_rejection_needs_a_reason(db) -> None:
    ex = _exchanges(db)
    me = actor_of(db, "advertiser@demo.example")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "targeting": {"exchanges": [ex["Xandr"], ex["InMobi"]]}}))
    admin = actor_of(db, "coadmin@demo.example")  # co-admin decides as admin does
    ids = [r.id for r in exchange_approvals.list_requests(db, actor=admin, campaign_id=made.id)]
    with pytest.raises(Invalid) as refused:
        exchange_approvals.decide_many(db, actor=admin, approval_ids=ids, decision="rejected", reason="  ")
    assert refused.value.fields == {"reason": exchange_approvals.REASON_NEEDED}
    results = exchange_approvals.decide_many(db, actor=admin, approval_ids=[*ids, 987_654], decision="rejected",
                                             reason="Brand safety review failed")
    assert [(r.ok, r.message) for r in results] == [(True, ""), (True, ""), (False, "Request not found.")]
    assert _states(db, me, made.id) == {"Xandr": ("rejected", "Brand safety review failed"),
                                           "InMobi": ("rejected", "Brand safety review failed")}
    assert exchange_approvals.list_requests(db, actor=admin, status="pending", campaign_id=made.id) == []


def test_clients_cannot_decide_and_see_only_their_own_campaigns(db) -> None:
    me = actor_of(db, "advertiser@demo.example")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(BASE))
    for email in ("advertiser@demo.example", "agency@demo.example"):
        actor = actor_of(db, email)
        with pytest.raises(Forbidden):
            exchange_approvals.list_requests(db, actor=actor)
        with pytest.raises(Forbidden):
            exchange_approvals.decide_many(db, actor=actor, approval_ids=[1], decision="approved")
    agency, _theirs = other_tenant(db)
    other_agency = actor_of(db, agency.email)
    with pytest.raises(NotFound):
        exchange_approvals.campaign_exchanges(db, actor=other_agency, campaign_id=made.id)


def test_delivery_runs_only_on_approved_exchanges(db) -> None:
    ex = _exchanges(db)
    me = actor_of(db, "advertiser@demo.example")
    start = (datetime.now(UTC) - timedelta(days=3)).strftime("%Y-%m-%dT00:00")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "starts_at": start,
                                                         "targeting": {"exchanges": [ex["Magnite"], ex["OpenX"]]}}))
    campaigns.set_status(db, actor=me, campaign_id=made.id, status="active")
    db.commit()
    simulator.simulate(db, days=1, seed=3)
    assert get_store().query(StatsQuery(start=datetime.now(UTC).date() - timedelta(days=2),
                                        end=datetime.now(UTC).date(), filters={"campaign_id": (made.id,)})
                             )[0]["impressions"] == 0  # nothing approved yet: nothing delivered

    admin = actor_of(db, "admin@demo.example")
    magnite = next(r.id for r in exchange_approvals.list_requests(db, actor=admin, campaign_id=made.id)
                   if r.exchange == "Magnite")
    exchange_approvals.decide_many(db, actor=admin, approval_ids=[magnite], decision="approved")
    db.commit()
    simulator.simulate(db, days=1, seed=4)
    rows = get_store().query(StatsQuery(start=datetime.now(UTC).date() - timedelta(days=2), end=datetime.now(UTC).date(),
                                        dimensions=("exchange",), filters={"campaign_id": (made.id,)}))
    assert [r["exchange"] for r in rows] == ["Magnite"] and rows[0]["impressions"] > 0


def test_the_api_decides_in_bulk_and_shows_states(client, db) -> None:
    ex = _exchanges(db)
    me = actor_of(db, "advertiser@demo.example")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "targeting": {"exchanges": [ex["Smaato"]]}}))
    db.commit()
    admin = bearer_headers(client, "admin@demo.example")
    pending = client.get("/api/exchange-approval", params={"campaign_id": made.id}, headers=admin).json()["data"]["items"]
    refused = client.post("/api/exchange-approval/decide", json={"approval_ids": [pending[0]["id"]],
                                                                 "decision": "rejected"}, headers=admin)
    assert refused.status_code == 422 and "reason" in refused.json()["data"]["fields"]
    done = client.post("/api/exchange-approval/decide", json={"approval_ids": [pending[0]["id"]], "decision": "approved"},
                       headers=admin).json()
    assert done["data"][0]["ok"] is True
    client_headers = bearer_headers(client, "advertiser@demo.example")
    states = client.get(f"/api/campaigns/{made.id}/exchanges", headers=client_headers).json()["data"]["items"]
    assert [(s["exchange"], s["status"]) for s in states] == [("Smaato", "approved")]
    assert client.get("/api/exchange-approval", headers=client_headers).status_code == 403
    assert db.get(Campaign, made.id) is not None


def _allow(db, advertiser_id: int, exchanges: list[int]) -> None:
    from app.accounts import user_config

    admin = actor_of(db, "admin@demo.example")
    config = user_config.get_config(db, actor=admin, user_id=advertiser_id)
    user_config.update_config(db, actor=admin, user_id=advertiser_id, insight_dashboard=config.insight_dashboard,
                              postback_enabled=config.postback_enabled, api_access=config.api_access,
                              margin=config.margin, allowed_exchanges=exchanges)


def test_a_campaign_asks_only_for_the_active_exchanges_its_advertiser_may_use(db) -> None:
    from app.reference import metadata

    ex = _exchanges(db)
    admin = actor_of(db, "admin@demo.example")
    metadata.set_retired(db, actor=admin, value_id=ex["OpenX"], retired=True)
    me = actor_of(db, "advertiser@demo.example")
    everything = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(BASE))
    assert "OpenX" not in _states(db, me, everything.id) and "Magnite" in _states(db, me, everything.id)
    metadata.set_retired(db, actor=admin, value_id=ex["OpenX"], retired=False)
    _allow(db, me.id, [ex["Magnite"], ex["OpenX"]])
    metadata.set_retired(db, actor=admin, value_id=ex["OpenX"], retired=True)  # allowed, but retired since
    limited = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": "Limited Run"}))
    assert _states(db, me, limited.id) == {"Magnite": ("pending", "")}


def test_taking_a_decided_exchange_out_keeps_its_decision(db) -> None:
    ex = _exchanges(db)
    me = actor_of(db, "advertiser@demo.example")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "targeting": {"exchanges": [ex["Magnite"], ex["OpenX"]]}}))
    admin = actor_of(db, "admin@demo.example")
    ids = {r.exchange: r.id for r in exchange_approvals.list_requests(db, actor=admin, campaign_id=made.id)}
    exchange_approvals.decide_many(db, actor=admin, approval_ids=[ids["Magnite"]], decision="approved")
    exchange_approvals.decide_many(db, actor=admin, approval_ids=[ids["OpenX"]], decision="rejected", reason="No")
    campaigns.update_campaign(db, actor=me, campaign_id=made.id, data=CampaignUpdate.model_validate({"targeting": {"exchanges": [ex["Xandr"]]}}))
    assert _states(db, me, made.id) == {"Magnite": ("approved", ""), "OpenX": ("rejected", "No"),
                                           "Xandr": ("pending", "")}
    # Delivery runs only where a decision approved it.
    assert exchange_approvals.approved_exchange_names(db, [made.id]) == {made.id: ("Magnite",)}


def test_decisions_are_checked_before_any_is_made(db) -> None:
    ex = _exchanges(db)
    me = actor_of(db, "advertiser@demo.example")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "targeting": {"exchanges": [ex["Magnite"]]}}))
    admin = actor_of(db, "admin@demo.example")
    request = exchange_approvals.list_requests(db, actor=admin, campaign_id=made.id)[0].id
    limit = exchange_approvals.MAX_DECISIONS
    for ids, decision, reason, field in (
            ([request], "pending", "", "decision"), ([], "approved", "", "approval_ids"),
            ([request], "rejected", "r" * (exchange_approvals.REASON_MAX + 1), "reason"),
            (list(range(1, limit + 2)), "approved", "", "approval_ids")):
        with pytest.raises(Invalid) as refused:
            exchange_approvals.decide_many(db, actor=admin, approval_ids=ids, decision=decision, reason=reason)
        assert set(refused.value.fields) == {field}
    with pytest.raises(Invalid) as refused:
        exchange_approvals.list_requests(db, actor=admin, status="maybe")
    assert set(refused.value.fields) == {"status"}
    assert _states(db, me, made.id) == {"Magnite": ("pending", "")}
    # The largest batch and the longest reason are accepted; an id sent twice is decided once.
    results = exchange_approvals.decide_many(db, actor=admin, approval_ids=[request, *range(10**6, 10**6 + limit - 1)],
                                             decision="rejected", reason="r" * exchange_approvals.REASON_MAX)
    assert len(results) == limit and results[0].ok
    assert len(exchange_approvals.decide_many(db, actor=admin, approval_ids=[request, request],
                                              decision="approved")) == 1


def test_an_archived_campaigns_requests_leave_the_queue_and_cannot_be_decided(db) -> None:
    ex = _exchanges(db)
    me = actor_of(db, "advertiser@demo.example")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "targeting": {"exchanges": [ex["Magnite"]]}}))
    admin = actor_of(db, "admin@demo.example")
    request = exchange_approvals.list_requests(db, actor=admin, campaign_id=made.id)[0].id
    campaigns.archive_campaign(db, actor=me, campaign_id=made.id)
    assert exchange_approvals.list_requests(db, actor=admin, status="") == []
    results = exchange_approvals.decide_many(db, actor=admin, approval_ids=[request], decision="approved")
    assert [(r.ok, r.message) for r in results] == [(False, "The campaign is archived.")]
    assert _states(db, me, made.id) == {"Magnite": ("pending", "")}
