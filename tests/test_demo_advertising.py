"""`make run`'s demo advertiser: campaigns in each state and a creative of each type, made once."""

from __future__ import annotations

from app.campaigns import service as campaigns
from app.creatives import service as creatives
from app.demo.advertising import seed_demo_advertising
from tests.helpers import actor_of


def test_the_demo_shows_every_state_and_type_once(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    assert seed_demo_advertising(db, actor=advertiser) == 5
    listed = campaigns.list_campaigns(db, actor=advertiser, include_archived=True)
    assert sorted(row.status for row in listed) == ["active", "active", "completed", "draft", "paused"]
    made = creatives.list_creatives(db, actor=advertiser)
    assert sorted(row.type for row in made) == ["html", "image", "native", "video"]
    assert all(row.width for row in made)  # sizes read from the drawn files (html: from the form)
    spring = next(row for row in listed if row.name == "Spring Sale DACH")
    assert len(creatives.campaign_creatives(db, actor=advertiser, campaign_id=spring.id)) == 2
    assert seed_demo_advertising(db, actor=advertiser) == 0  # a second make run adds nothing
    assert len(campaigns.list_campaigns(db, actor=advertiser, include_archived=True)) == 5
