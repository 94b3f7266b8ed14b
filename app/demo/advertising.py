"""The demo advertiser's campaigns and creatives, so a newcomer opening `make run` sees a working console:
campaigns in each state and a creative of each type, made through the same services as the pages (so they
are validated and in the change logs). Only into an advertiser without campaigns: a second `make run` adds
nothing, and the tests' database (app/services/seed.seed_demo) stays without them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session, select

from app.access.policy import Actor
from app.campaigns import exchange_approvals
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate
from app.demo.media import banner, mp4_bytes
from app.reference.models import ReferenceValue

BUSINESS_HOURS = [list(range(8, 20))] * 5 + [[], []]


def _day(offset: int) -> str:
    return (datetime.now(UTC) + timedelta(days=offset)).strftime("%Y-%m-%dT09:00")


def _ids(db: Session, kind: str, names: tuple[str, ...]) -> list[int]:
    return [int(r.id) for r in db.exec(select(ReferenceValue).where(ReferenceValue.kind == kind))
            if r.name in names and r.id is not None]


# Budgets fit the $5,000 opening deposit: `python -m app simulate` (make run) spends about $3,500 of it over the
# last 30 days, so the dashboard shows a month of delivery and a balance left to spend. Spring Sale started
# over 30 days ago so that the whole month has numbers.
def seed_demo_advertising(db: Session, *, actor: Actor) -> int:
    """Campaigns and creatives for `actor` (the demo advertiser, signed in); returns how many campaigns."""
    if db.exec(select(Campaign).where(Campaign.advertiser_id == actor.id)).first() is not None:
        return 0
    plans: list[tuple[dict[str, Any], list[str]]] = [
        ({"name": "Spring Sale DACH", "objective": "conversions", "starts_at": _day(-32), "ends_at": _day(40),
          "time_zone": "Europe/Berlin", "total_budget": "12000", "daily_budget": "120", "pacing": "even",
          "bid_strategy": "cpm", "bid": "2.40", "bid_min": "1.50", "bid_max": "4", "frequency_cap": 4,
          "frequency_period": "day", "goal_metric": "cpa", "goal_target": "18",
          "targeting": {"countries": ["AT", "CH", "DE"], "languages": ["de"], "device_types": ["phone", "tablet"],
                        "dayparting": BUSINESS_HOURS}}, ["active"]),
        ({"name": "App Install Push US", "objective": "app_installs", "starts_at": _day(-10), "ends_at": _day(50),
          "time_zone": "America/New_York", "total_budget": "25000", "daily_budget": "150", "bid_strategy": "cpc",
          "bid": "0.85", "goal_metric": "cpi", "goal_target": "2.5",
          "targeting": {"countries": ["US"], "device_types": ["phone"],
                        "operating_systems": _ids(db, "operating_system", ("Android", "iOS"))}}, ["active"]),
        ({"name": "Brand Awareness UK", "objective": "awareness", "starts_at": _day(-30), "ends_at": _day(30),
          "time_zone": "Europe/London", "total_budget": "8000", "bid": "1.20", "frequency_cap": 2,
          "frequency_period": "day", "traffic_type": "web", "targeting": {"countries": ["GB"]}}, ["active", "paused"]),
        ({"name": "Holiday Teaser", "objective": "video_views", "starts_at": _day(25), "ends_at": _day(45),
          "time_zone": "UTC", "total_budget": "5000", "bid": "6.50", "goal_metric": "vcr", "goal_target": "70",
          "targeting": {"countries": ["FR", "IT", "ES"]}}, []),
        ({"name": "Autumn Clearance", "objective": "traffic", "starts_at": _day(-75), "ends_at": _day(1),
          "time_zone": "UTC", "total_budget": "3000", "bid": "1.10", "targeting": {"countries": ["NL", "BE"]}},
         ["active", "completed"]),
    ]
    # A campaign of the past cannot be created ended or activated (campaigns.py): Autumn Clearance is made and
    # run as a live one, and its flight then set to what it was, as if it had run then.
    ended = {"Autumn Clearance": _day(-15)}
    made = []
    for data, moves in plans:
        campaign = campaigns.create_campaign(db, actor=actor, data=CampaignUpdate.model_validate(data))
        for status in moves:
            campaigns.set_status(db, actor=actor, campaign_id=campaign.id, status=status)
        if data["name"] in ended:
            row = db.get(Campaign, campaign.id)
            assert row is not None
            row.ends_at = datetime.fromisoformat(ended[data["name"]]).replace(tzinfo=UTC)
            db.add(row)
        made.append(campaign.id)

    def upload(name: str, content: bytes, purpose: str = "image") -> int:
        return creatives.upload_asset(db, actor=actor, filename=name, content=content, purpose=purpose).id

    image = creatives.create_creative(db, actor=actor, data=CreativeCreate.model_validate({
        "type": "image", "name": "Spring Sale 300x250", "click_url": "https://shop.example/spring/",
        "pixel_urls": "https://pixel.example/spring/", "asset_id": upload("spring-300x250.png", banner(300, 250, "Spring Sale -30%"))}))
    native = creatives.create_creative(db, actor=actor, data=CreativeCreate.model_validate({
        "type": "native", "name": "Outdoor Feed Card", "click_url": "https://shop.example/outdoor/",
        "title": "Gear up for spring", "description": "Tents, boots and jackets, 30% off for two weeks.",
        "call_to_action": "Shop now",
        "main_image_asset_id": upload("outdoor-1200x627.png", banner(1200, 627, "Gear up for spring",
                                                                     colours=("#059669", "#84cc16"))),
        "icon_asset_id": upload("icon.png", banner(128, 128, "A", colours=("#f59e0b", "#ef4444")), "icon")}))
    video = creatives.create_creative(db, actor=actor, data=CreativeCreate.model_validate({
        "type": "video", "name": "Holiday Spot 15s", "click_url": "https://shop.example/holiday/",
        "asset_id": upload("holiday-15s.mp4", mp4_bytes(duration_ms=15_000, width=1280, height=720), "video")}))
    rich = creatives.create_creative(db, actor=actor, data=CreativeCreate.model_validate({
        "type": "html", "name": "Countdown Rich Media", "width": 300, "height": 250,
        "html": "<div style=\"font:600 20px system-ui;color:#fff;background:#111827;height:234px;padding:8px;"
                "display:flex;align-items:center;justify-content:center\" id=\"c\">Sale ends soon</div>"
                "<script>let n=10;setInterval(()=>{document.getElementById('c').textContent="
                "n>0?'Sale ends in '+(n--)+'s':'Sale on now'},1000)</script>"}))
    creatives.set_campaign_creatives(db, actor=actor, campaign_id=made[0], creative_ids=[image.id, native.id])
    creatives.set_campaign_creatives(db, actor=actor, campaign_id=made[1], creative_ids=[native.id, rich.id])
    creatives.set_campaign_creatives(db, actor=actor, campaign_id=made[3], creative_ids=[video.id])
    return len(made)


def approve_demo_exchanges(db: Session, *, actor: Actor) -> int:
    """The demo admin approves the exchange requests of the demo campaigns that have run (so the simulated month
    has delivery); the draft's stay pending, for the approval page to show. Answers how many were approved."""
    pending = [r for r in exchange_approvals.list_requests(db, actor=actor, status="pending")
               if r.campaign_status != "draft"]
    if pending:
        exchange_approvals.decide_many(db, actor=actor, approval_ids=[r.id for r in pending], decision="approved")
    return len(pending)
