"""Audiences: device ids normalised and checked line by line (invalid lines named by number), streamed into the
database in batches, appended, kept inside their tenant; retargeting sized from the statistics store; an audience
in use cannot be deleted; campaigns may only use their own advertiser's active audiences."""

from __future__ import annotations

import io
import tracemalloc
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from app.campaigns import audience_targeting
from app.campaigns import bulk as campaign_bulk
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.history import change_log
from app.kernel.errors import Conflict, Invalid, NotFound
from app.supply import audiences
from app.supply.audience_devices import OVERLONG, iter_lines, parse_line, store_devices
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of, other_tenant

ID = "6D92078A-8246-4BA4-AE5B-76104861E7DC"
CAMPAIGN = {"name": "Audience Run", "starts_at": "2026-12-01", "total_budget": "1000", "bid": "0.50"}


def _change_log(db, *, actor, audience_id):
    return change_log.page(db, actor=actor, kind="audience", record_id=audience_id)


def _device_audience(db, actor, name="Buyers", advertiser_id=None):
    return audiences.create_audience(db, actor=actor, name=name, kind="device_ids", advertiser_id=advertiser_id)


def _upload(db, actor, audience_id, text: str, name="ids.txt"):
    return audiences.upload_devices(db, actor=actor, audience_id=audience_id, stream=io.BytesIO(text.encode()),
                                    filename=name)


def test_ids_are_made_canonical_and_bad_lines_are_told_apart():
    canonical = uuid.UUID(ID.lower()).bytes
    for text in (ID, ID.lower(), f"  {{{ID}}}\r", f'"{ID}"', ID.replace("-", "")):
        assert parse_line(text) == canonical, text
    assert parse_line("   ") is None
    assert parse_line("00000000-0000-0000-0000-000000000000") == "zero"  # limit-ad-tracking placeholder
    for bad in ("not-an-id", ID[:-1], ID + "0", "6d92078a-8246-4ba4-ae5b-76104861e7dz"):
        assert parse_line(bad) == "invalid", bad


def test_lines_are_read_in_chunks_and_an_overlong_line_is_dropped_as_read():
    stream = io.BytesIO(b"a\r\nb\n" + b"x" * 5000 + b"\nc")
    assert list(iter_lines(stream, chunk_bytes=7, max_line=100)) == ["a\r", "b", OVERLONG, "c"]
    with pytest.raises(Invalid) as refused:
        list(iter_lines(io.BytesIO(b"1\n" * 100), chunk_bytes=10, max_bytes=50))
    assert "file" in refused.value.fields


def test_an_upload_counts_added_duplicates_and_invalid_lines_with_their_numbers(db):
    me = actor_of(db, "advertiser@demo.example")
    audience = _device_audience(db, me)
    assert (audience.size, audience.size_unit, audience.status) == (0, "devices", "active")
    other = str(uuid.uuid4())
    text = "\n".join(["IDFA", ID, "garbage line", "", ID.lower(), "{" + other.upper() + "}",
                      "00000000-0000-0000-0000-000000000000"])
    result = _upload(db, me, audience.id, text)
    upload = result.upload
    assert (upload.lines, upload.valid, upload.added, upload.duplicates, upload.invalid) == (7, 3, 2, 1, 2)
    assert [(s.line, s.text, s.reason) for s in upload.samples] == [
        (3, "garbage line", "invalid"), (7, "00000000-0000-0000-0000-000000000000", "zero")]
    assert result.audience.size == 2 and result.audience.last_upload.file == "ids.txt"

    # Appending adds to the audience: ids it has already count as duplicates.
    again = _upload(db, me, audience.id, f"{other}\n{uuid.uuid4()}\n", name="more.csv")
    assert (again.upload.added, again.upload.duplicates, again.audience.size) == (1, 1, 3)

    # A file with no id at all changes nothing.
    with pytest.raises(Invalid) as refused:
        _upload(db, me, audience.id, "device_id\nnope\n")
    assert set(refused.value.fields) == {"file"}
    assert audiences.get_audience(db, actor=me, audience_id=audience.id).size == 3
    log = change_log.page(db, actor=me, kind="audience", record_id=audience.id)
    assert [e.action for e in log.entries] == ["upload", "upload", "create"]


class _LazyFile:
    """A file of `count` device ids whose bytes are made as they are read: it is never whole anywhere."""

    def __init__(self, count: int) -> None:
        self.count, self.made = count, 0

    def read(self, size: int) -> bytes:
        lines = min(size // 37, self.count - self.made)  # 36 characters and a newline a line
        chunk = "".join(f"6d92078a-8246-4ba4-ae5b-{n:012x}\n" for n in range(self.made, self.made + lines)).encode()
        self.made += lines
        return chunk


def test_a_file_is_read_in_chunks_never_held_in_memory():
    """Peak memory stays one chunk's worth, whatever the file's size (200,000 ids: 7.4 MB here; the bench,
    bench/audience_upload.py, times a million through the database)."""
    tracemalloc.start()
    try:
        count = sum(1 for _line in iter_lines(_LazyFile(200_000)))
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 200_000 and peak < 1_000_000


def test_ids_are_written_in_batches_as_the_lines_come(db):
    me = actor_of(db, "advertiser@demo.example")
    audience = _device_audience(db, me)
    read = [0]
    progress: list[int] = []

    def lines():
        for n in range(25_000):
            read[0] += 1
            yield str(uuid.UUID(int=n + 1))

    # Each insert happens as its batch fills: the lines are never all read first (nor kept).
    summary = store_devices(db, audience_id=audience.id, lines=lines(), batch_size=10_000,
                            on_batch=lambda size: progress.append((read[0], size)))
    assert progress == [(10_000, 10_000), (20_000, 10_000), (25_000, 5_000)] and summary.batches == 3
    assert (summary.valid, summary.added, summary.duplicates) == (25_000, 25_000, 0)


def test_retargeting_size_is_the_events_in_its_window(db, demo_ids):
    me = actor_of(db, "advertiser@demo.example")
    advertiser = demo_ids["advertiser@demo.example"]
    now = datetime.now(UTC).replace(minute=0, second=0, microsecond=0, tzinfo=None)

    def row(hour, advertiser_id=advertiser, **values):
        return FactRow(hour=hour, advertiser_id=advertiser_id, campaign_id=0, creative_id=0, exchange="x", os="iOS",
                       country="US", app="a", device_type="phone", **values)

    get_store().ingest("audience-test", [row(now, conversions=3, events={"purchase": 4}),
                                         row(now - timedelta(days=20), conversions=5, events={"purchase": 6}),
                                         row(now, advertiser_id=999_999, events={"purchase": 50})], source="test")
    assert audiences.event_choices(db, actor=me)[:1] == ["conversion"] and "purchase" in audiences.event_choices(db, actor=me)
    week = audiences.create_audience(db, actor=me, name="Buyers 7d", kind="retargeting", event="purchase",
                                     lookback_days=7)
    assert (week.size, week.size_unit) == (4, "events")
    month = audiences.create_audience(db, actor=me, name="Converters 30d", kind="retargeting", event="conversion",
                                      lookback_days="30")
    assert month.size == 8
    with pytest.raises(Invalid) as refused:
        audiences.create_audience(db, actor=me, name="Too long", kind="retargeting", event="signup",
                                  lookback_days=541)
    assert set(refused.value.fields) == {"event", "lookback_days"}
    with pytest.raises(Invalid) as refused:
        audiences.create_audience(db, actor=me, name="Buyers 7d", kind="device_ids")
    assert set(refused.value.fields) == {"name"}


def test_tenants_never_reach_each_others_audiences(db, demo_ids):
    _rival_agency, rival_advertiser = other_tenant(db)
    admin = actor_of(db, "admin@demo.example")
    theirs = _device_audience(db, admin, "Rival Buyers", advertiser_id=rival_advertiser.id)
    ours = _device_audience(db, actor_of(db, "agency@demo.example"), "Ours",
                            advertiser_id=demo_ids["advertiser@demo.example"])
    for email in ("agency@demo.example", "advertiser@demo.example"):
        actor = actor_of(db, email)
        assert [a.id for a in audiences.list_audiences(db, actor=actor)] == [ours.id]
        for call, extra in ((audiences.get_audience, {}), (audiences.set_status, {"status": "inactive"}),
                            (audiences.delete_audience, {}), (_change_log, {}),
                            (audience_targeting.associate_campaigns, {"allow": [], "block": []})):
            with pytest.raises(NotFound):
                call(db, actor=actor, audience_id=theirs.id, **extra)
        with pytest.raises(NotFound):
            _upload(db, actor, theirs.id, ID)
    with pytest.raises(Invalid):  # an agency cannot create for another agency's advertiser
        _device_audience(db, actor_of(db, "agency@demo.example"), "Mine now", advertiser_id=rival_advertiser.id)
    assert {a.id for a in audiences.list_audiences(db, actor=admin)} == {ours.id, theirs.id}


def test_campaigns_take_only_their_own_advertisers_active_audiences(db, demo_ids):
    me = actor_of(db, "advertiser@demo.example")
    admin = actor_of(db, "admin@demo.example")
    _agency, rival = other_tenant(db)
    mine = _device_audience(db, me, "Mine")
    theirs = _device_audience(db, admin, "Theirs", advertiser_id=rival.id)
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**CAMPAIGN, "targeting": {
        "audiences": {"allow": [mine.id], "block": []}}}))
    assert campaign.targeting.audiences.model_dump() == {"allow": [mine.id], "block": []}
    with pytest.raises(Invalid) as refused:
        campaigns.update_campaign(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate({"targeting": {
            **campaign.targeting.model_dump(), "audiences": {"allow": [mine.id], "block": [theirs.id]}}}))
    assert refused.value.fields == {"targeting.audiences": f"Not audiences of this advertiser: #{theirs.id}."}

    # In use: it may be deactivated, not deleted; the refusal names the campaign.
    audiences.set_status(db, actor=me, audience_id=mine.id, status="inactive")
    with pytest.raises(Conflict) as conflict:
        audiences.delete_audience(db, actor=me, audience_id=mine.id)
    assert "Audience Run" in conflict.value.message
    # A campaign already using it can still be edited otherwise; only newly choosing it is refused.
    renamed = campaigns.update_campaign(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate({"name": "Audience Run 2"}))
    assert renamed.targeting.audiences.model_dump() == {"allow": [mine.id], "block": []}
    campaigns.update_campaign(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate({"name": "Audience Run"}))
    assert [c.model_dump() for c in audiences.get_audience(db, actor=me, audience_id=mine.id).campaigns] == [
        {"id": campaign.id, "name": "Audience Run", "status": "draft", "mode": "allow"}]
    other = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**CAMPAIGN, "name": "Second"}))
    with pytest.raises(Invalid) as refused:
        campaigns.update_campaign(db, actor=me, campaign_id=other.id, data=CampaignUpdate.model_validate({"targeting": {
            **other.targeting.model_dump(), "audiences": {"allow": [], "block": [mine.id]}}}))
    assert "Inactive audiences" in refused.value.fields["targeting.audiences"]

    # The bulk edit refuses it per row, naming the field.
    rows = campaign_bulk.bulk_update(db, actor=me, campaign_ids=[other.id], changes={
        "audiences": {"mode": "add", "allow": [theirs.id], "block": []}})
    assert rows[0].ok is False and rows[0].message.startswith("Audiences: not audiences of this advertiser")

    # associate-audience goes through the same checks, then takes it out of every campaign, and it can go.
    with pytest.raises(Invalid) as refused:
        audience_targeting.associate_campaigns(db, actor=me, audience_id=mine.id, allow=[campaign.id, other.id], block=[])
    assert refused.value.fields["campaign_ids"].startswith("Second (#")
    audiences.set_status(db, actor=me, audience_id=mine.id, status="active")
    both = audience_targeting.associate_campaigns(db, actor=me, audience_id=mine.id, allow=[campaign.id], block=[other.id])
    assert [(c.name, c.mode) for c in both.campaigns] == [("Audience Run", "allow"), ("Second", "block")]
    assert [(a.name, a.campaign_count) for a in audiences.list_audiences(db, actor=me)] == [("Mine", 2)]
    assert audience_targeting.campaign_audiences(db, actor=me, campaign_id=other.id).block[0].name == "Mine"
    audience_targeting.associate_campaigns(db, actor=me, audience_id=mine.id, allow=[], block=[])
    assert audiences.delete_audience(db, actor=me, audience_id=mine.id).name == "Mine"
    with pytest.raises(NotFound):
        audiences.get_audience(db, actor=me, audience_id=mine.id)


def test_ids_wrapped_as_spreadsheets_and_scripts_write_them_are_read():
    canonical = uuid.UUID(ID.lower()).bytes
    for text in (f"\ufeff{ID}", f"'{ID}'", f"\t{ID}\t"):  # a BOM before the first line, single quotes, tabs
        assert parse_line(text) == canonical, repr(text)


@pytest.mark.parametrize("header", ["Device ID", "device-id", "Advertising-ID", "IDFA"])
def test_a_first_line_naming_the_column_is_skipped_and_nowhere_else(db, header):
    me = actor_of(db, "advertiser@demo.example")
    audience = _device_audience(db, me)
    upload = _upload(db, me, audience.id, f"{header}\n{ID}\n{header}\n").upload
    assert (upload.lines, upload.added, upload.invalid) == (3, 1, 1)
    assert [(s.line, s.reason) for s in upload.samples] == [(3, "invalid")]
    headless = _upload(db, me, audience.id, f"{uuid.uuid4()}\n{header}\n").upload  # ids first, no header
    assert (headless.added, headless.invalid) == (1, 1)


def test_lines_of_exactly_the_longest_length_are_kept_whatever_the_chunks():
    assert list(iter_lines(io.BytesIO(b"abcd\nabcde\nabcd"), chunk_bytes=4, max_line=4)) == ["abcd", OVERLONG, "abcd"]
    assert list(iter_lines(io.BytesIO(b"abcde"), chunk_bytes=100, max_line=4)) == [OVERLONG]
    assert list(iter_lines(io.BytesIO(b"1\n" * 25), chunk_bytes=10, max_bytes=50)) == ["1"] * 25  # exactly the limit


def test_an_upload_shows_the_first_ten_bad_lines_cut_to_eighty_characters(db):
    me = actor_of(db, "advertiser@demo.example")
    audience = _device_audience(db, me)
    bad = ["x" * 120] + [f"bad {n}" for n in range(11)] + ["y" * 300]
    upload = _upload(db, me, audience.id, "\n".join([ID, *bad])).upload
    assert (upload.valid, upload.invalid) == (1, 13)
    assert [s.line for s in upload.samples] == list(range(2, 12))
    assert upload.samples[0].text == "x" * 80
    overlong = _upload(db, me, audience.id, f"{ID}\n{'z' * 300}\n").upload
    assert [(s.line, s.text) for s in overlong.samples] == [(2, "…")]
