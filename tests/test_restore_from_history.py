"""Restore from history (issue 27): on a campaign's or creative's change log, one entry's fields set back to their
values before it (or re-applied) as a new change, judged by today's rules, checked like an edit and recorded as a
restore of that entry; only the fields it touched change."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.access.permissions import PERMISSIONS
from app.access.roles import Role
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeUpdate
from app.history import change_log, restore
from app.kernel.db import run
from app.kernel.errors import Forbidden, Invalid, NotFound
from tests.helpers import actor_of, bearer_headers, other_tenant
from tests.render import run_async, text_of
from tests.test_campaign_amounts import _spend
from tests.test_campaign_pages import SETTINGS
from tests.test_campaign_rules import end_flight
from tests.test_creatives import _image_creative

ADVERTISER = "advertiser@demo.example"


def _log(db, actor, kind: str, record_id: int):
    return change_log.page(db, actor=actor, kind=kind, record_id=record_id).entries


def _edit(db, actor, campaign_id: int, **fields):
    campaigns.update_campaign(db, actor=actor, campaign_id=campaign_id, data=CampaignUpdate.model_validate(fields))
    return _log(db, actor, "campaign", campaign_id)[0].id


def test_a_restore_sets_back_only_what_the_change_touched_and_is_recorded_as_a_restore_of_it(db):
    me = actor_of(db, ADVERTISER)
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(SETTINGS))
    edit = _edit(db, me, campaign.id, daily_budget="55", targeting={**SETTINGS["targeting"], "countries": ["DE", "FR"]})
    _edit(db, me, campaign.id, name="Renamed later", targeting={**SETTINGS["targeting"], "countries": ["DE", "FR"],
                                                                 "languages": ["en"]})

    plan = restore.plan(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=edit)
    shown = {c.field: c for c in plan.changes}
    assert (shown["daily_budget"].old, shown["daily_budget"].new) == ("55.00", "40.00")  # now, then
    assert (shown["targeting.countries"].added, shown["targeting.countries"].removed) == (["Austria"], ["France"])

    done = restore.restore(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=edit)
    saved = campaigns.get_campaign(db, actor=me, campaign_id=campaign.id)
    assert saved.daily_budget == "40.00" and sorted(saved.targeting.countries) == ["AT", "DE"]
    assert saved.name == "Renamed later" and saved.targeting.languages == ["en"]  # a later change to other fields stays
    newest = _log(db, me, "campaign", campaign.id)[0]
    assert (newest.id, newest.action, newest.restores) == (done.change_id, "restore", edit)
    assert {c.field for c in newest.changes} == {"daily_budget", "targeting.countries"}

    # The same click replayed (a reconnect): nothing differs any more, nothing is saved.
    again = restore.restore(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=edit)
    assert again.change_id is None and set(again.unchanged) == {"daily_budget", "targeting.countries"}
    # Re-applying the entry sets the values it set.
    reapplied = restore.restore(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=edit, values="after")
    assert reapplied.record.daily_budget == "55.00"
    assert _log(db, me, "campaign", campaign.id)[0].action == "reapply"


def test_today_s_rules_judge_a_restore_and_a_refusal_names_the_field_and_saves_nothing(db):
    me = actor_of(db, ADVERTISER)
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(
        {**SETTINGS, "total_budget": "500", "daily_budget": ""}))
    raised = _edit(db, me, campaign.id, total_budget="2000")
    db.commit()
    _spend(campaign.advertiser_id, campaign.id, 700_000_000, "restore-spent")
    entries = len(_log(db, me, "campaign", campaign.id))
    with pytest.raises(Invalid) as refused:
        restore.restore(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=raised)
    assert refused.value.fields == {"total_budget": "The total budget cannot be below the $700.00 already spent."}
    assert db.get(Campaign, campaign.id).total_budget_micros == 2_000_000_000
    assert len(_log(db, me, "campaign", campaign.id)) == entries

    end_flight(db, campaign.id)  # the clock passed its end; the buyer extends it, then restores the old end
    extended = _edit(db, me, campaign.id, ends_at=(datetime.now(UTC) + timedelta(days=30)).date().isoformat())
    with pytest.raises(Invalid) as refused:
        restore.restore(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=extended)
    assert refused.value.fields == {"ends_at": campaigns.FLIGHT_OVER}
    assert _log(db, me, "campaign", campaign.id)[0].id == extended


def test_a_restore_is_checked_like_an_edit(db, monkeypatch):
    me = actor_of(db, ADVERTISER)
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(SETTINGS))
    edit = _edit(db, me, campaign.id, bid="2")
    other = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**SETTINGS, "name": "Other"}))
    other_tenant(db)
    with pytest.raises(NotFound):  # another tenant's entry answers as if missing
        restore.restore(db, actor=actor_of(db, "rival-agency@other.example"), kind="campaign", record_id=campaign.id,
                        entry_id=edit)
    with pytest.raises(NotFound):  # an entry of another campaign is not in this one's log
        restore.restore(db, actor=me, kind="campaign", record_id=other.id, entry_id=edit)
    with pytest.raises(Invalid) as refused:  # a new campaign had no values before it
        restore.plan(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=_log(db, me, "campaign", campaign.id)[-1].id)
    assert set(refused.value.fields) == {"values"}
    campaigns.set_status(db, actor=me, campaign_id=campaign.id, status="archived")
    with pytest.raises(Invalid) as refused:  # a status change: the status has its own actions
        restore.restore(db, actor=me, kind="campaign", record_id=campaign.id,
                        entry_id=_log(db, me, "campaign", campaign.id)[0].id)
    assert set(refused.value.fields) == {"entry_id"}
    with pytest.raises(Invalid) as refused:  # an archived campaign is read-only, restored or edited
        restore.restore(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=edit)
    assert set(refused.value.fields) == {"status"}
    monkeypatch.setitem(PERMISSIONS["campaign"], "update", frozenset({Role.ADMIN, Role.CO_ADMIN, Role.AGENCY}))
    assert not restore.can_restore(me, "campaign")
    with pytest.raises(Forbidden):  # an advertiser who may read the log but not edit
        restore.restore(db, actor=me, kind="campaign", record_id=other.id,
                        entry_id=_log(db, me, "campaign", other.id)[-1].id, values="after")


def test_a_creative_restores_its_texts_and_lists_its_file_as_not_restorable(db):
    me = actor_of(db, ADVERTISER)
    creative = _image_creative(db, me)
    creatives.update_creative(db, actor=me, creative_id=creative.id, data=CreativeUpdate(
        name="Banner B", click_url="https://shop.example/winter/"))
    edit = _log(db, me, "creative", creative.id)[0].id
    creatives.update_creative(db, actor=me, creative_id=creative.id, data=CreativeUpdate(pixel_urls=["https://px.example/i/"]))
    done = restore.restore(db, actor=me, kind="creative", record_id=creative.id, entry_id=edit)
    assert (done.record.name, done.record.click_url) == ("Banner 300x250", creative.click_url)
    assert done.record.pixel_urls == ["https://px.example/i/"]
    created = _log(db, me, "creative", creative.id)[-1].id
    plan = restore.plan(db, actor=me, kind="creative", record_id=creative.id, entry_id=created, values="after")
    assert {f.field for f in plan.not_restorable} >= {"asset_id", "width", "height"}
    # The name and URL have their first values again; the pixel, empty when it was created, is not in that entry.
    assert plan.changes == [] and set(plan.unchanged) == {"name", "click_url"}


def _bid_edited_over_the_api(client):
    """(headers, a campaign whose bid went from 1.75 to 2.50 over the API, its log, the restore path of that edit)."""
    me = bearer_headers(client, ADVERTISER)
    campaign = client.post("/api/campaigns", headers=me, json={**SETTINGS, "total_budget": "500"}).json()["data"]
    assert client.put(f"/api/campaigns/{campaign['id']}", headers=me, json={"bid": "2.50"}).status_code == 200
    log = client.get(f"/api/campaigns/{campaign['id']}/change-log", headers=me).json()["data"]["items"]
    return me, campaign, log, f"/api/campaigns/{campaign['id']}/change-log/{log[0]['id']}/restore"


def test_the_api_restores_and_refuses_like_the_service(client):
    me, campaign, log, path = _bid_edited_over_the_api(client)
    reply = client.post(path, headers=me)
    assert reply.status_code == 200, reply.text
    body = reply.json()["data"]
    assert body["record"]["bid"] == "1.75" and body["changes"] == [{"field": "bid", "old": "2.50", "new": "1.75"}]
    newest = client.get(f"/api/campaigns/{campaign['id']}/change-log", headers=me).json()["data"]["items"][0]
    assert (newest["id"], newest["action"], newest["restores"]) == (body["change_id"], "restore", log[0]["id"])
    assert client.post(path, headers=me, json={"values": "after"}).json()["data"]["record"]["bid"] == "2.50"

    run(lambda db: _spend(campaign["advertiser_id"], campaign["id"], 600_000_000, "restore-api"))
    assert client.put(f"/api/campaigns/{campaign['id']}", headers=me, json={"total_budget": "900"}).status_code == 200
    log = client.get(f"/api/campaigns/{campaign['id']}/change-log", headers=me).json()["data"]["items"]
    refused = client.post(f"/api/campaigns/{campaign['id']}/change-log/{log[0]['id']}/restore", headers=me)
    assert refused.status_code == 422
    assert refused.json()["data"]["fields"] == {"total_budget": "The total budget cannot be below the $600.00 already spent."}
    run(other_tenant)
    rival = bearer_headers(client, "rival-agency@other.example")
    assert client.post(path, headers=rival).status_code == 404
    assert client.post(f"/api/creatives/{campaign['id']}/change-log/{log[0]['id']}/restore", headers=me).status_code == 404
    assert client.post(path, headers=me, json={"values": "sideways"}).status_code == 422
    huge = client.post(f"/api/campaigns/{campaign['id']}/change-log/14766569749463814144/restore", headers=me)
    assert huge.status_code == 422 and "entry_id" in huge.json()["data"]["fields"]


def test_a_preview_answers_what_the_restore_would_change_judged_by_today_s_rules_and_saves_nothing(db):
    me = actor_of(db, ADVERTISER)
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(
        {**SETTINGS, "total_budget": "500", "daily_budget": ""}))
    edit = _edit(db, me, campaign.id, bid="2.50", total_budget="2000")
    db.commit()
    entries = len(_log(db, me, "campaign", campaign.id))
    shown = restore.preview(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=edit)
    assert shown.change_id is None and shown.record.bid == "1.75" and shown.record.total_budget == "500.00"
    assert {c.field: (c.old, c.new) for c in shown.changes} == {"bid": ("2.50", "1.75"),
                                                                "total_budget": ("2000.00", "500.00")}
    db.commit()  # what the door does after a preview: nothing of it is saved
    db.expire_all()
    assert db.get(Campaign, campaign.id).bid_micros == 2_500_000
    assert len(_log(db, me, "campaign", campaign.id)) == entries

    # Refused as the restore would be, naming the field: $700 spent since.
    _spend(campaign.advertiser_id, campaign.id, 700_000_000, "preview-spent")
    with pytest.raises(Invalid) as refused:
        restore.preview(db, actor=me, kind="campaign", record_id=campaign.id, entry_id=edit)
    assert refused.value.fields == {"total_budget": "The total budget cannot be below the $700.00 already spent."}
    other_tenant(db)
    with pytest.raises(NotFound):  # another tenant's record, as for the restore
        restore.preview(db, actor=actor_of(db, "rival-agency@other.example"), kind="campaign",
                        record_id=campaign.id, entry_id=edit)


def test_the_api_previews_a_restore_with_dry_run(client):
    me, campaign, log, path = _bid_edited_over_the_api(client)
    previewed = client.post(path, headers=me, params={"dry_run": "true"})
    assert previewed.status_code == 200, previewed.text
    body = previewed.json()["data"]
    assert body["change_id"] is None and body["record"]["bid"] == "1.75"
    assert body["changes"] == [{"field": "bid", "old": "2.50", "new": "1.75"}]
    assert client.get(f"/api/campaigns/{campaign['id']}", headers=me).json()["data"]["bid"] == "2.50"
    assert len(client.get(f"/api/campaigns/{campaign['id']}/change-log", headers=me).json()["data"]["items"]) == len(log)
    assert client.post(path, headers=me, params={"dry_run": "true"}, json={"values": "sideways"}).status_code == 422


def test_the_admins_log_of_every_campaign_of_an_advertiser_restores_an_entry_in_its_dialog(db, demo_ids):
    from reactpy.core.hooks import ConnectionContext
    from reactpy.core.layout import Layout
    from reactpy.types import Connection, Location

    from app.access.sessions import SESSION_COOKIE
    from components.root import Root
    from tests.helpers import browser_session
    from tests.render import apply_update, settle, walk

    me = actor_of(db, ADVERTISER)
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(SETTINGS))
    edit = _edit(db, me, campaign.id, bid="2.50")
    db.commit()
    cookie = f"{SESSION_COOKIE}={browser_session('admin@demo.example')[0]}"
    connection = Connection(scope={"type": "websocket", "headers": [(b"cookie", cookie.encode())]},
                            location=Location(f"/admin/CampaignList/changeLog/{demo_ids[ADVERTISER]}", ""), carrier=None)

    async def open_restore() -> dict:
        async with Layout(ConnectionContext(Root(), value=connection)) as layout:
            model = await settle(layout, (await layout.render())["model"])
            row = next(n for n in walk(model) if n.get("attributes", {}).get("data-entry") == edit)
            button = next(n for n in walk(row) if n.get("attributes", {}).get("data-action") == "restore-entry")
            await layout.deliver({"type": "layout-event", "target": button["eventHandlers"]["onClick"]["target"],
                                  "data": [{}]})
            sent: list[dict] = []
            return await settle(layout, apply_update(model, await layout.render()), sent)

    model = run_async(open_restore())
    [dialog] = [n for n in walk(model) if n.get("attributes", {}).get("data-dialog") == "restore"]
    fields = {n["attributes"]["data-restore-field"]: n for n in walk(dialog)
              if "data-restore-field" in n.get("attributes", {})}
    assert list(fields) == ["bid"] and "1.75" in text_of(fields["bid"])  # the campaign's own plan, in the same dialog
