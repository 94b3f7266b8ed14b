"""The DSP pages rendered as the app renders them (the real Root at a real path, signed in): the list, view and
edit pages show a DSP with its key only as "Set", never the key itself; the campaign and creative pages show the
DSP card (the association map and Sync to DSP) to admin only."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.dsps import service as dsps
from app.dsps.schemas import DspCreate, DspRead, DspUpdate
from app.kernel.db import run
from app.reference import metadata
from tests.helpers import actor_of
from tests.render import text_of
from tests.test_campaign_pages import _create, attribute_values, page_at

SECRET = "sk_live_dsp_Pg4kT9wQ2rX6cB1"
ADMIN = "admin@demo.example"


def _dsp(**changes: Any) -> DspRead:
    def make(db):
        admin = actor_of(db, ADMIN)
        exchanges = [r.id for r in metadata.active_values(db, actor=admin, kind="exchange")[:2]]
        return dsps.create_dsp(db, actor=admin, data=DspCreate(**{
            "name": "Acme Bidder", "endpoint_url": "http://10.1.2.3:9000/rtb", "api_key": SECRET,
            "exchange_ids": exchanges, **changes}))
    return run(make)


@pytest.mark.parametrize("path", ["/admin/dsplist", "/admin/viewdsp/{id}", "/admin/editdsp/{id}", "/admin/createdsp",
                                  "/admin/newdsp", "/admin/dsp/changelog/{id}"])
def test_no_dsp_page_renders_the_key(demo_ids, path):
    dsp = _dsp()
    model = page_at(path.format(id=dsp.id), ADMIN)
    assert attribute_values(model, "data-page"), "the page rendered"
    assert SECRET not in json.dumps(model)


def test_the_view_shows_the_key_as_set_and_the_connection(demo_ids):
    dsp = _dsp()
    model = page_at(f"/admin/viewdsp/{dsp.id}", ADMIN)
    text = text_of(model)
    assert attribute_values(model, "data-credentials") == ["set"]
    for shown in ("Acme Bidder", "Active", "http://10.1.2.3:9000/rtb", "HTTP/JSON (generic)", "Not tested"):
        assert shown in text, shown
    assert attribute_values(model, "data-exchanges") == ["2"]
    assert attribute_values(model, "data-tab") == ["dsp.view", "dsp.edit", "dsp.change_log"]


def test_the_change_log_shows_each_edit_and_the_key_only_as_changed(demo_ids):
    dsp = _dsp()
    run(lambda db: dsps.update_dsp(db, actor=actor_of(db, ADMIN), dsp_id=dsp.id,
                                   data=DspUpdate(seat_id="seat-9", api_key="replaced-key-42")))
    model = page_at(f"/admin/dsp/changelog/{dsp.id}", ADMIN)
    text = text_of(model)
    assert "dsp-change-log" in attribute_values(model, "data-page")
    assert attribute_values(model, "data-action")[:2] == ["update", "create"]
    for shown in ("Acme Bidder", "Seat ID", "seat-9", "API key", "***", "Ada Admin"):
        assert shown in text, shown
    assert SECRET not in json.dumps(model) and "replaced-key-42" not in json.dumps(model)
    assert attribute_values(model, "data-tab") == ["dsp.view", "dsp.edit", "dsp.change_log"]


def test_the_edit_form_offers_replace_instead_of_the_key(demo_ids):
    dsp = _dsp()
    model = page_at(f"/admin/editdsp/{dsp.id}", ADMIN)
    assert attribute_values(model, "data-credentials") == ["set"]
    assert attribute_values(model, "data-action") == ["replace-key"]
    assert "field-api_key" not in attribute_values(model, "id")


def test_the_campaign_and_creative_pages_show_the_dsp_card_to_admin_only(demo_ids):
    _dsp()
    campaign = _create()
    admin = page_at(f"/admin/campaign/viewCampaign/{campaign.id}", ADMIN)
    assert attribute_values(admin, "data-dsp") == ["Acme Bidder"]
    assert attribute_values(admin, "data-associate-id") == [""]
    assert "Not synced" in text_of(admin) and "Sync to DSP" in text_of(admin)
    for path, email in ((f"/agency/campaign/viewCampaign/{campaign.id}", "agency@demo.example"),
                        (f"/campaign/{campaign.id}/", "advertiser@demo.example"),
                        (f"/co-admin/campaign/viewCampaign/{campaign.id}", "coadmin@demo.example")):
        model = page_at(path, email)
        assert "campaign-view" in attribute_values(model, "data-page"), path
        assert not attribute_values(model, "data-dsp") and "Sync to DSP" not in text_of(model), path
